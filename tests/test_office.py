"""The back office's API: operators only (every route tried with no session, a forged
cookie, a player's session, a revoked and a locked operator), money moved as ledger
entries with a reason and the operator's password, locks, sessions ended, game
recall, the hold report, and an audit that checks the operators' log against the ledger."""

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text
from sqlalchemy.orm import Session
from starlette.routing import Route

from riverboat.errors import Forbidden
from riverboat.settings import amended
from riverboat.store.models import Player
from riverboat.table.office.actions import grant, revoke
from riverboat.table.office.hold import hold_report
from riverboat.table.service import TableService
from riverboat.web.app import create_app
from riverboat.web.routes.office import HOLD_REPORTS

PASSWORD = "a long password"


def post(client: TestClient, path: str, body: dict[str, object]) -> object:
    return client.post(path, json=body, headers={"X-CSRF-Token": client.cookies["riverboat_csrf"]})


def log_in(client: TestClient, name: str, password: str = PASSWORD) -> None:
    response = post(client, "/api/login", {"name": name, "password": password})
    assert response.status_code == 200, response.json()  # type: ignore[attr-defined]


@pytest.fixture
def office(tmp_path: Path) -> Iterator[tuple[TestClient, TableService]]:
    """A public server (named accounts) with boss, an operator, and ann and carl,
    players; the test client logged in as boss."""
    app = create_app(
        amended(
            database_url=f"sqlite:///{tmp_path / 'office.db'}",
            local_player=False,
            rate_limit=1000,
            house_edges=False,
        )
    )
    service: TableService = app.state.service
    for name in ("boss", "ann", "carl"):
        service.register(name, PASSWORD)
    grant(service.engine, "boss", by="test", reason="runs the tables")
    with TestClient(app) as client:
        client.get("/office")  # the page sets the CSRF cookie
        log_in(client, "boss")
        yield client, service


def office_routes(client: TestClient) -> list[tuple[str, str]]:
    """Every route of the back office's API, by method and a path with ids filled in."""
    found = []
    for route in client.app.routes:  # type: ignore[attr-defined]
        if isinstance(route, Route) and route.path.startswith("/api/office"):
            path = route.path.replace("{player_id}", "2").replace("{round_id}", "1")
            found += [(method, path) for method in sorted(route.methods or ()) if method != "HEAD"]
    return found


def ask(client: TestClient, method: str, path: str) -> int:
    """The status a route answers with a valid body and query."""
    body = {"amount": 100, "reason": "a test", "password": PASSWORD}
    query = {"name": "a"} if path.endswith("/players") else {}
    headers = {"X-CSRF-Token": client.cookies.get("riverboat_csrf") or "none"}
    response = client.request(method, path, json=body, params=query, headers=headers)
    return response.status_code


def test_every_office_route_refuses_anyone_but_an_operator(
    office: tuple[TestClient, TableService],
) -> None:
    client, service = office
    routes = office_routes(client)
    assert len(routes) >= 10  # me, players, a file, credit, debit, lock, unlock, ...
    with TestClient(client.app) as stranger:  # no session at all
        stranger.get("/office")
        assert {ask(stranger, *route) for route in routes} == {401}
        stranger.cookies.set("riverboat_session", "forged-" + "x" * 40)
        assert {ask(stranger, *route) for route in routes} == {401}
        stranger.cookies.delete("riverboat_session")
        log_in(stranger, "ann")  # a player's own session
        assert {ask(stranger, *route) for route in routes} == {403}
        refused = stranger.get("/api/office/me").json()
        assert refused["code"] == "forbidden"
        assert "for operators" in refused["error"]
    revoke(service.engine, "boss", by="test", reason="left the club")
    assert {ask(client, *route) for route in routes} == {403}  # the same session, revoked


def test_the_local_player_of_a_loopback_server_is_no_operator(tmp_path: Path) -> None:
    app = create_app(amended(database_url=f"sqlite:///{tmp_path / 'local.db'}", local_player=True))
    with TestClient(app) as client:
        client.get("/")
        assert client.get("/api/me").status_code == 200  # plays without logging in
        assert client.get("/api/office/me").status_code == 401


def test_a_credit_is_a_ledger_entry_with_its_reason_the_player_sees(
    office: tuple[TestClient, TableService],
) -> None:
    client, service = office
    ann = service.players.login("ann", PASSWORD)
    found = client.get("/api/office/players", params={"name": "AN"}).json()
    assert [p["name"] for p in found] == ["ann"]
    credit = {"amount": 2500, "reason": "goodwill: the table froze", "password": PASSWORD}
    done = post(client, f"/api/office/players/{ann}/credit", credit).json()  # type: ignore[attr-defined]
    assert done["balance"] == 102_500 == service.balance(ann)
    assert done["amount"] == 2500
    account = service.credits(ann)[0]
    assert (account.kind, account.amount, account.balance_after, account.reason) == (
        "adjustment", 2500, 102_500, "goodwill: the table froze",
    )  # fmt: skip
    log = client.get("/api/office/actions", params={"player": ann}).json()
    assert [(a["action"], a["by"], a["transaction_id"]) for a in log] == [
        ("credit", "boss", done["transaction_id"])
    ]
    debit = {"amount": 500, "reason": "a double credit", "password": PASSWORD}
    assert post(client, f"/api/office/players/{ann}/debit", debit).json()["balance"] == 102_000  # type: ignore[attr-defined]
    assert service.audit() == []
    file = client.get(f"/api/office/players/{ann}").json()
    assert file["balance"] == 102_000
    assert [a["kind"] for a in file["account"]] == ["adjustment", "adjustment", "start"]
    assert [a["action"] for a in file["actions"]] == ["debit", "credit"]


@pytest.mark.parametrize(
    ("amount", "field"),
    [("500", "amount"), (500.0, "amount"), (True, "amount"), (-500, "amount"), (0, "amount")],
)
def test_a_credit_takes_whole_cents_strictly(
    office: tuple[TestClient, TableService], amount: object, field: str
) -> None:
    client, service = office
    body = {"amount": amount, "reason": "a test", "password": PASSWORD}
    response = post(client, "/api/office/players/2/credit", body)
    assert response.status_code == 422  # type: ignore[attr-defined]
    assert response.json()["error"].startswith(field)  # type: ignore[attr-defined]
    assert service.balance(2) == 100_000


def test_money_moves_only_with_the_operators_password_a_reason_and_not_to_themselves(
    office: tuple[TestClient, TableService],
) -> None:
    client, service = office
    path = "/api/office/players/2/credit"
    wrong = post(client, path, {"amount": 100, "reason": "x", "password": "not the password"})
    assert wrong.status_code == 401  # type: ignore[attr-defined]
    no_reason = post(client, path, {"amount": 100, "reason": "", "password": PASSWORD})
    assert no_reason.status_code == 422  # type: ignore[attr-defined]
    blank = post(client, path, {"amount": 100, "reason": "   ", "password": PASSWORD})
    assert blank.json()["error"].startswith("a reason is")  # type: ignore[attr-defined]
    own = post(
        client, "/api/office/players/1/credit", {"amount": 100, "reason": "x", "password": PASSWORD}
    )
    assert own.status_code == 403  # type: ignore[attr-defined]
    too_much = {"amount": 100_001, "reason": "x", "password": PASSWORD}
    over = post(client, "/api/office/players/2/debit", too_much)
    assert over.status_code == 422  # type: ignore[attr-defined]
    assert "more than the balance, $1,000" in over.json()["error"]  # type: ignore[attr-defined]
    unknown = post(
        client, "/api/office/players/99/credit", {"amount": 1, "reason": "x", "password": PASSWORD}
    )
    assert unknown.status_code == 404  # type: ignore[attr-defined]
    assert service.balance(2) == 100_000
    assert client.get("/api/office/actions").json()[0]["action"] == "grant"  # nothing logged


def test_a_lock_ends_the_sessions_and_refuses_log_in_with_its_reason(
    office: tuple[TestClient, TableService],
) -> None:
    client, service = office
    with TestClient(client.app) as ann:
        ann.get("/")
        log_in(ann, "ann")
        assert ann.get("/api/me").status_code == 200
        assert client.get("/api/office/players/2").json()["sessions"] == 1
        locked = post(client, "/api/office/players/2/lock", {"reason": "chargeback review"})
        assert locked.json() == {"sessions_ended": 1}  # type: ignore[attr-defined]
        assert ann.get("/api/me").status_code == 401
        refused = post(ann, "/api/login", {"name": "ann", "password": PASSWORD})
        assert refused.status_code == 401  # type: ignore[attr-defined]
        assert "locked by the house: chargeback review" in refused.json()["error"]  # type: ignore[attr-defined]
        wrong = post(ann, "/api/login", {"name": "ann", "password": "a wrong password"})
        assert "locked" not in wrong.json()["error"]  # type: ignore[attr-defined]
        again = post(client, "/api/office/players/2/lock", {"reason": "twice"})
        assert again.status_code == 422  # type: ignore[attr-defined]
        post(client, "/api/office/players/2/unlock", {"reason": "review done"})
        log_in(ann, "ann")
        ended = post(client, "/api/office/players/2/end-sessions", {"reason": "asked to"})
        assert ended.json() == {"sessions_ended": 1}  # type: ignore[attr-defined]
        assert ann.get("/api/me").status_code == 401
    kinds = [(c.kind, c.reason) for c in service.credits(2)][:3]
    assert kinds == [
        ("sessions_ended", "asked to"), ("unlocked", "review done"), ("locked", "chargeback review")
    ]  # fmt: skip
    assert service.audit() == []


def test_a_locked_operator_is_refused_too(office: tuple[TestClient, TableService]) -> None:
    client, service = office
    grant(service.engine, "carl", by="test", reason="a second operator")
    with TestClient(client.app) as carl:
        carl.get("/office")
        log_in(carl, "carl")
        assert carl.get("/api/office/me").json()["name"] == "carl"
        post(client, "/api/office/players/3/lock", {"reason": "a lost laptop"})
        assert carl.get("/api/office/me").status_code == 401  # its session ended
    service.office.set_locked(1, 3, False, "found")  # boss unlocks, carl logs in...
    service.office.set_locked(1, 3, True, "again")  # ... and is locked with no session ended
    with Session(service.engine) as session:  # the lock alone refuses a live session
        assert session.get(Player, 3).locked  # type: ignore[union-attr]
    with pytest.raises(Forbidden):
        service.office.operator(3)


def test_recall_shows_a_round_as_dealt_and_verified(
    office: tuple[TestClient, TableService],
) -> None:
    client, service = office
    dealt = service.start_round(2, "tri-card", {"ante": 1000, "pair_plus": 500}, "ann's seed")
    recalled = client.get(f"/api/office/rounds/{dealt.id}").json()
    assert recalled["dealt"] is None  # still open
    assert recalled["verified"] is None
    assert recalled["seen"]["face_down"] == 3  # the dealer's hand stays hidden
    service.act(2, dealt.id, "raise")
    recalled = client.get(f"/api/office/rounds/{dealt.id}").json()
    assert (recalled["player"], recalled["table"], recalled["verified"]) == ("ann", "own", True)
    record = recalled["dealt"]["record"]
    assert len(record["cards_drawn"]) == 6
    assert recalled["dealt"]["server_seed"]
    assert sum(line["amount"] for line in recalled["ledger"]) == 0
    assert client.get("/api/office/rounds/999").status_code == 404


def test_the_audit_finds_a_movement_of_money_missing_from_the_log(
    office: tuple[TestClient, TableService],
) -> None:
    client, service = office
    credit = {"amount": 700, "reason": "a test", "password": PASSWORD}
    done = post(client, "/api/office/players/2/credit", credit).json()  # type: ignore[attr-defined]
    assert service.audit() == []
    with service.engine.begin() as connection:  # what no code path does: the row removed
        connection.execute(text("DELETE FROM operator_actions WHERE action = 'credit'"))
    assert service.audit() == [
        f"transaction {done['transaction_id']} (adjustment): 0 rows in the operators' log"
    ]


def test_the_role_is_granted_and_revoked_from_the_command_line(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from riverboat.cli import app

    url = f"sqlite:///{tmp_path / 'roles.db'}"
    service = TableService(url)
    service.register("dana", PASSWORD)
    runner = CliRunner()

    def run(*words: str) -> tuple[int, str]:
        done = runner.invoke(app, [*words, "--database", url])
        return done.exit_code, " ".join(done.output.split())

    assert run("operator", "grant", "dana", "--reason", "runs Fridays") == (
        0, "dana is an operator now",
    )  # fmt: skip
    code, said = run("operator", "grant", "dana", "--reason", "again")
    assert (code, "dana is an operator already" in said) == (2, True)
    code, said = run("operator", "grant", "nobody", "--reason", "x")
    assert (code, "there is no player named 'nobody'" in said) == (2, True)
    code, said = run("operator", "grant", "dana", "--reason", " ")
    assert (code, "--reason" in said, "a reason is 1 to 500" in said) == (2, True, True)
    assert run("operator", "revoke", "dana", "--reason", "moved on")[0] == 0
    code, listed = run("operator", "list")
    assert code == 0
    assert listed.startswith("Operators: none")
    assert "revoke dana by command line" in listed
    assert listed.index("moved on") < listed.index("runs Fridays")  # newest first
    assert service.audit() == []


def test_the_hold_report_is_the_functions_for_operators_one_at_a_time(
    office: tuple[TestClient, TableService],
) -> None:
    client, service = office
    for n in range(4):
        service.start_round(2, "baccarat", {"banker": 1000}, f"ann's seed {n}")
        dealt = service.start_round(3, "tri-card", {"ante": 1000, "pair_plus": 500}, f"carl {n}")
        service.act(3, dealt.id, "raise")
    since, until = datetime.now(UTC) - timedelta(days=1), datetime.now(UTC) + timedelta(hours=1)
    query = {"since": since.isoformat(), "until": until.isoformat(), "band": 0.99}
    answered = client.get("/api/office/hold", params=query)
    assert answered.status_code == 200, answered.json()
    expected = hold_report(service, since, until, band=0.99)
    assert answered.json() == expected.model_dump(mode="json")
    assert {(row["game"], row["rounds"]) for row in answered.json()["rows"]} == {
        ("baccarat", 4), ("tri-card", 4)
    }  # fmt: skip
    one = client.get("/api/office/hold", params={**query, "game": "baccarat"}).json()
    assert one == hold_report(service, since, until, "baccarat", 0.99).model_dump(mode="json")
    with TestClient(client.app) as ann:  # a player is refused, as at every office route
        ann.get("/office")
        assert ann.get("/api/office/hold").status_code == 401
        log_in(ann, "ann")
        assert ann.get("/api/office/hold").json()["code"] == "forbidden"


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"since": "yesterday"}, "since"),
        ({"until": "2026-13-01T00:00"}, "until"),
        ({"since": "2026-12-02T00:00Z", "until": "2026-12-01T00:00Z"}, "until"),
        ({"game": "poker"}, "game"),
        ({"band": 1}, "band"),
        ({"band": 0}, "band"),
        ({"band": "most"}, "band"),
    ],
)
def test_the_hold_reports_query_is_checked_naming_the_field(
    office: tuple[TestClient, TableService], query: dict[str, object], field: str
) -> None:
    client, _ = office
    refused = client.get("/api/office/hold", params=query)
    assert refused.status_code == 422
    assert refused.json()["code"] == "invalid_request"
    assert refused.json()["error"].startswith(f"{field}: "), refused.json()


def test_a_second_hold_report_waits_its_turn_429(office: tuple[TestClient, TableService]) -> None:
    client, _ = office
    with HOLD_REPORTS.spend():  # one under way
        refused = client.get("/api/office/hold")
        assert refused.status_code == 429
        assert refused.json()["code"] == "rate_limited"
        assert int(refused.headers["Retry-After"]) >= 1
    assert client.get("/api/office/hold").status_code == 200


def test_a_lock_made_while_a_log_in_checks_its_password_refuses_that_log_in(
    office: tuple[TestClient, TableService], monkeypatch: pytest.MonkeyPatch
) -> None:
    client, service = office

    def checked_then_locked(name: str, password: str, address: str = "local") -> int:
        player = service.players.login(name, password, address)  # the password is right...
        service.office.set_locked(1, player, True, "locked meanwhile")  # ...and a lock lands
        return player

    monkeypatch.setattr(service, "login", checked_then_locked)
    with TestClient(client.app) as ann:
        ann.get("/")
        refused = post(ann, "/api/login", {"name": "ann", "password": PASSWORD})
        assert refused.status_code == 401  # type: ignore[attr-defined]
        assert "locked meanwhile" in refused.json()["error"]  # type: ignore[attr-defined]
        assert ann.get("/api/me").status_code == 401
    assert client.app.state.sessions.count(2) == 0  # type: ignore[attr-defined]
