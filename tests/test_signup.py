"""Sign-up on a public server (``POST /api/signup``): a new player makes an account
and is logged in by one request; refusals in the one error shape (409 a taken or
look-alike name, 422 naming the rule or the field, 403 without the CSRF token);
sign-ups throttled per address apart from log-ins, every one counted, through the
same budget of password hashes, and held at the edge once refused."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from riverboat.admission.gates import LoginWaits
from riverboat.admission.logins import ADDRESS_FREE, FREE, MemoryThrottle
from riverboat.settings import amended
from riverboat.table.accounts import players as players_module
from riverboat.table.accounts.names import NAME_RULE, PASSWORD_RULE
from riverboat.table.accounts.players import TooManySignUps
from riverboat.table.service import STARTING_CREDIT
from riverboat.web.app import create_app

PASSWORD = "a long password"


@pytest.fixture
def app(tmp_path: Path) -> Iterator[FastAPI]:
    """A public server (no local player) whose throttle's clock stands still."""
    app = create_app(
        amended(
            database_url=f"sqlite:///{tmp_path / 'signup.db'}",
            local_player=False,
            rate_limit=1000,
            house_edges=False,
        )
    )
    app.state.service.players.throttle = MemoryThrottle(clock=lambda: 0.0)
    yield app
    app.state.service.engine.dispose()


def browser(app: FastAPI, address: str = "10.0.0.1") -> TestClient:
    client = TestClient(app, client=(address, 5000))
    client.get("/")  # the page's CSRF cookie
    return client


def post(client: TestClient, path: str, body: dict[str, Any]) -> Any:
    return client.post(
        path, json=body, headers={"X-CSRF-Token": client.cookies.get("riverboat_csrf", "")}
    )


def test_a_sign_up_makes_the_account_and_logs_it_in(app: FastAPI) -> None:
    with browser(app) as ann:
        assert ann.get("/api/me").status_code == 401
        made = post(ann, "/api/signup", {"name": "José", "password": PASSWORD})
        assert made.status_code == 201
        player = made.json()["player"]
        assert made.json() == {"player": player, "balance": STARTING_CREDIT}
        assert "riverboat_session" in made.cookies
        me = ann.get("/api/me").json()  # the new session, at once
        assert (me["player"], me["signed_in"], me["balance"]) == (player, True, STARTING_CREDIT)
        assert app.state.service.name(player) == "José"
    with browser(app, "10.0.0.2") as elsewhere:  # and logs in by the name in any case
        answer = post(elsewhere, "/api/login", {"name": "JOSÉ", "password": PASSWORD})
        assert (answer.status_code, answer.json()["player"]) == (200, player)


@pytest.mark.parametrize("name", ["Zoë", "日本", "Ελλάδα", "bob.smith_2-x"])
def test_names_of_any_writing_system_sign_up(app: FastAPI, name: str) -> None:
    with browser(app) as client:
        made = post(client, "/api/signup", {"name": name, "password": PASSWORD})
        assert made.status_code == 201
        assert app.state.service.name(made.json()["player"]) == name


@pytest.mark.parametrize(
    ("name", "password", "status", "code", "said"),
    [
        ("ann", PASSWORD, 409, "conflict", "the name 'ann' is taken, or looks like one that is"),
        ("ANN", PASSWORD, 409, "conflict", "is taken, or looks like one that is"),
        ("a.nn", PASSWORD, 409, "conflict", "is taken, or looks like one that is"),
        ("ann-", PASSWORD, 409, "conflict", "is taken, or looks like one that is"),
        ("\u0410NN", PASSWORD, 422, "illegal_action", NAME_RULE),  # a Cyrillic А, Latin NN
        ("Admin", PASSWORD, 409, "conflict", "reserved (it reads as 'admin')"),
        ("1ocal", PASSWORD, 409, "conflict", "reserved (it reads as 'local')"),
        ("x" * 25, PASSWORD, 422, "illegal_action", NAME_RULE),
        ("b o b", PASSWORD, 422, "illegal_action", NAME_RULE),
        ("bob!", PASSWORD, 422, "illegal_action", NAME_RULE),
        ("p\u0430ypal", PASSWORD, 422, "illegal_action", NAME_RULE),  # Latin and Cyrillic
        ("bob", "short", 422, "illegal_action", PASSWORD_RULE),
        ("bob", "x" * 129, 422, "illegal_action", PASSWORD_RULE),
    ],
)
def test_each_refusal_says_why_in_the_one_shape(
    app: FastAPI, name: str, password: str, status: int, code: str, said: str
) -> None:
    app.state.service.register("ann", PASSWORD)
    with browser(app) as client:
        answer = post(client, "/api/signup", {"name": name, "password": password})
        assert (answer.status_code, answer.json()["code"]) == (status, code)
        assert said in answer.json()["error"]
        assert "riverboat_session" not in answer.cookies
        assert client.get("/api/me").status_code == 401  # nobody was logged in


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ({"password": PASSWORD}, "name: Field required"),
        ({"name": 7, "password": PASSWORD}, "name: Input should be a valid string"),
        ({"name": "x" * 65, "password": PASSWORD}, "name: String should have at most 64"),
        ({"name": "bob\u0007", "password": PASSWORD}, "name: String should match pattern"),
        ({"name": "bob", "password": "x" * 1025}, "password: String should have at most 1024"),
    ],
)
def test_a_body_that_cannot_be_read_names_its_field(
    app: FastAPI, body: dict[str, Any], said: str
) -> None:
    with browser(app) as client:
        answer = post(client, "/api/signup", body)
        assert (answer.status_code, answer.json()["code"]) == (422, "invalid_request")
        assert answer.json()["error"].startswith(said)


def test_a_sign_up_without_the_csrf_token_is_forbidden(app: FastAPI) -> None:
    with browser(app) as client:
        answer = client.post("/api/signup", json={"name": "bob", "password": PASSWORD})
        assert (answer.status_code, answer.json()["code"]) == (403, "forbidden")
    assert app.state.service.players._credentials("bob") is None


def test_sign_ups_from_one_address_are_throttled_apart_from_log_ins(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every sign-up counts: ADDRESS_FREE from one address, then 429 with Retry-After,
    and until that wait is over the next is answered at the edge, its body unread and
    the service not asked; another address signs up, and the first still logs in."""
    service = app.state.service
    service.register("ann", PASSWORD)
    app.state.budgets.sign_ups = LoginWaits(clock=lambda: 0.0, refused=TooManySignUps)
    with browser(app, "10.0.0.66") as maker:
        statuses = [
            post(maker, "/api/signup", {"name": f"player{n}", "password": PASSWORD}).status_code
            for n in range(ADDRESS_FREE)
        ]
        assert statuses == [201] * ADDRESS_FREE
        refused = post(maker, "/api/signup", {"name": "onemore", "password": PASSWORD})
        assert refused.status_code == 429
        assert refused.headers["retry-after"] == "1"
        assert refused.json() == {
            "error": "too many sign-ups from this address; try again in 1 s",
            "code": "rate_limited",
        }
        calls: list[str] = []
        real = service.sign_up

        def counted(*given: str) -> int:
            calls.append(given[0])
            return int(real(*given))

        monkeypatch.setattr(service, "sign_up", counted)
        again = maker.post(
            "/api/signup",
            content=b"not json",
            headers={"X-CSRF-Token": maker.cookies["riverboat_csrf"]},
        )
        assert again.status_code == 429  # not 422: the body was never read
        assert again.json()["error"] == refused.json()["error"]
        assert calls == []  # held at the edge: no thread, no hash, no throttle asked
        login = post(maker, "/api/login", {"name": "ann", "password": PASSWORD})
        assert login.status_code == 200  # its log-ins are another count
    with browser(app, "10.0.0.67") as other:
        made = post(other, "/api/signup", {"name": "newcomer", "password": PASSWORD})
        assert made.status_code == 201
    assert calls == ["newcomer"]


def test_asking_after_one_taken_name_is_throttled_too(app: FastAPI) -> None:
    """FREE sign-ups at one name from one address (a taken name answers 409 each
    time), then that name waits: a loop cannot read which names are taken for free."""
    app.state.service.register("ann", PASSWORD)
    with browser(app, "10.0.0.66") as asker:
        statuses = [
            post(asker, "/api/signup", {"name": "ANN", "password": PASSWORD}).status_code
            for _ in range(FREE + 1)
        ]
    assert statuses == [409] * FREE + [429]


def test_a_sign_up_spends_a_password_check_from_the_same_budget(app: FastAPI) -> None:
    """With the server's password checks spent, a sign-up is refused at once (429,
    Retry-After, uncounted) before the throttle or the database is read."""
    service = app.state.service
    service.players.hashes = players_module.hashes(slots=1, queue=0)
    with service.password_checks.spend(), browser(app) as client:
        answer = post(client, "/api/signup", {"name": "bob", "password": PASSWORD})
        assert answer.status_code == 429
        assert answer.json()["error"].startswith("too many password checks under way")
        assert "retry-after" in answer.headers
    with browser(app, "10.0.0.2") as client:  # once the checks are free, bob signs up
        assert post(client, "/api/signup", {"name": "bob", "password": PASSWORD}).status_code == 201


def test_a_loopback_server_makes_accounts_too(tmp_path: Path) -> None:
    """Where the page plays as the local player it never asks, but the route makes an
    account as ``riverboat accounts create`` does, and its session plays as it."""
    app = create_app(amended(database_url=f"sqlite:///{tmp_path / 'local.db'}", local_player=True))
    with browser(app, "127.0.0.1") as client:
        local = client.get("/api/me").json()["player"]
        made = post(client, "/api/signup", {"name": "Zoë", "password": PASSWORD})
        assert made.status_code == 201
        assert client.get("/api/me").json()["player"] == made.json()["player"] != local
    app.state.service.engine.dispose()
