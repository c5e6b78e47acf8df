"""Accounts and log-in on a shared server: a password hash never holds the database,
a stranger's guesses slow only the stranger, names do not look alike, passwords have
one rule, and a log-in can end the player's other sessions."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError
from typer.testing import CliRunner

from riverboat.admission.budgets import Busy
from riverboat.admission.logins import ADDRESS_FREE, FREE, LONGEST, MemoryThrottle
from riverboat.cli import app as cli
from riverboat.cli.accounts import NAME_HELP
from riverboat.errors import BadCredentials, Conflict, IllegalAction
from riverboat.settings import amended
from riverboat.store import connect
from riverboat.table.accounts import players as players_module
from riverboat.table.accounts.names import NAME_RULE, PASSWORD_RULE, RESERVED
from riverboat.table.accounts.players import WRONG, Throttled
from riverboat.table.service import TableService
from riverboat.web.app import create_app
from riverboat.web.deps import Sessions
from test_budgets import wait_for

PASSWORD = "a long password"


@pytest.fixture
def service(database_url: str) -> Iterator[TableService]:
    service = TableService(database_url)
    service.players.throttle = MemoryThrottle(clock=lambda: 0.0)  # no wait runs out here
    yield service
    service.engine.dispose()


class Hasher:
    """The real hasher, with ``during`` run inside each hash and each check."""

    def __init__(self, during: Callable[[], None]) -> None:
        self.real, self.during = PasswordHasher(), during

    def hash(self, password: str) -> str:
        self.during()
        return self.real.hash(password)

    def verify(self, stored: str, password: str) -> bool:
        self.during()
        return self.real.verify(stored, password)

    def check_needs_rehash(self, stored: str) -> bool:
        return self.real.check_needs_rehash(stored)


def writer(url: str) -> Callable[[int], str]:
    """Another program's short write to a player's row, waiting at most 0.2 s for a
    lock: "wrote", or what stopped it."""
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"timeout": 0.2})
    else:
        engine = create_engine(url, connect_args={"options": "-c lock_timeout=200"})

    def write(player: int) -> str:
        try:
            with engine.begin() as connection:
                connection.execute(
                    text("UPDATE players SET failed_logins = 0 WHERE id = :id"), {"id": player}
                )
        except OperationalError as error:
            return str(error.orig)
        return "wrote"

    return write


# ---------------------------------------------------------------- finding 1: the lock


def test_no_lock_is_held_while_a_password_is_hashed(
    service: TableService, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another connection writes the player's own row while each hash runs: at
    registration, a wrong password, the right one and a made-up name."""
    ann = service.register("ann", PASSWORD)
    write, seen = writer(database_url), []
    monkeypatch.setattr(players_module, "_hasher", Hasher(lambda: seen.append(write(ann))))
    service.register("bob", PASSWORD)
    with pytest.raises(BadCredentials, match=WRONG):
        service.login("ann", "wrong password", "10.0.0.66")
    assert service.login("ann", PASSWORD, "10.0.0.1") == ann
    with pytest.raises(BadCredentials, match=WRONG):
        service.login("nobody", PASSWORD, "10.0.0.66")
    assert seen == ["wrote"] * 4


def test_a_wager_goes_through_while_failed_log_ins_are_hashing(
    service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Eight log-ins with made-up names at once: one hashes, four wait their turn, three
    are refused at once (not counted as failures); a logged-in player's wager settles
    while the one hashes and the four wait."""
    ann = service.register("ann", PASSWORD)
    assert service.login("ann", PASSWORD, "10.0.0.1") == ann
    service.players.hashes = players_module.hashes(slots=1, queue=4)
    hashing, release = threading.Semaphore(0), threading.Event()

    def hold() -> None:
        hashing.release()
        release.wait(60)

    monkeypatch.setattr(players_module, "_hasher", Hasher(hold))
    answers: list[str] = []

    def guess(index: int) -> None:
        try:
            service.login(f"nobody{index}", PASSWORD, f"10.2.0.{index}")
        except BadCredentials as error:
            answers.append(str(error))
        except Busy as error:
            answers.append(type(error).__name__)

    threads = [threading.Thread(target=guess, args=(index,)) for index in range(8)]
    for thread in threads:
        thread.start()
    budget = service.players.hashes
    try:
        assert hashing.acquire(timeout=30), "no log-in reached its hash"
        assert wait_for(lambda: (budget.running, budget.waiting, len(answers)) == (1, 4, 3))
        view = service.start_round(ann, "baccarat", {"banker": 1000})
        assert view.status == "settled"
        assert (budget.running, budget.waiting) == (1, 4)  # the queue has not moved
        assert answers == ["Busy"] * 3  # only the refused were answered
    finally:
        release.set()
        for thread in threads:
            thread.join()
    assert answers == ["Busy"] * 3 + [WRONG] * 5
    assert (budget.running, budget.waiting) == (0, 0)


# ---------------------------------------------------------- finding 2: the throttle


def test_a_stranger_is_slowed_and_the_owner_logs_in_from_elsewhere(
    service: TableService,
) -> None:
    ann = service.register("ann", PASSWORD)
    said: dict[str, list[str]] = {"ann": [], "nobody": []}
    for name, address in (("ann", "10.0.0.66"), ("nobody", "10.0.0.77")):
        for _ in range(FREE + 3):
            try:
                service.login(name, "wrong password", address)
            except BadCredentials as error:
                said[name].append(str(error))
    # the same answers, word for word, for a real name and a made-up one
    assert said["ann"] == said["nobody"]
    assert said["ann"][:FREE] == [WRONG] * FREE
    assert said["ann"][FREE:] == ["too many failed log-ins from this address; try again in 1 s"] * 3
    with pytest.raises(Throttled):  # even the right password, from the stranger's address
        service.login("ann", PASSWORD, "10.0.0.66")
    assert service.login("ann", PASSWORD, "10.0.0.1") == ann  # the owner, elsewhere
    assert service.login("ANN", PASSWORD, "10.0.0.1") == ann  # a name is its key


def test_waits_double_up_to_the_longest_and_the_address_counts_over_names() -> None:
    clock = [0.0]
    throttle = MemoryThrottle(clock=lambda: clock[0])
    went_ahead, waits = [], []
    while len(waits) < 12:  # each wait sat out, then one more guess
        wait = throttle.attempt("ann", "10.0.0.66")
        if wait:
            waits.append(wait)
            clock[0] += wait
        else:
            went_ahead.append(len(waits))
    assert went_ahead == [0] * FREE + list(range(1, 12))  # FREE free, then one per wait
    assert waits == [2.0**n for n in range(10)] + [LONGEST, LONGEST]
    # one address over many names: after ADDRESS_FREE failures, every name waits
    for index in range(ADDRESS_FREE):
        assert throttle.attempt(f"name{index}", "10.0.0.99") == 0.0
    assert throttle.attempt("another", "10.0.0.99") == 1.0
    assert throttle.attempt("another", "10.0.0.98") == 0.0
    throttle.succeeded("another", "10.0.0.98")  # a success forgets that pair's failures
    assert [throttle.attempt("another", "10.0.0.98") for _ in range(FREE)] == [0.0] * FREE


def test_the_web_answers_a_throttled_address_429_alike_for_any_name(tmp_path: Path) -> None:
    app = create_app(
        amended(
            database_url=f"sqlite:///{tmp_path / 'web.db'}",
            local_player=False,
            rate_limit=1000,
            house_edges=False,
        )
    )
    service = app.state.service
    service.register("ann", PASSWORD)
    service.players.throttle = MemoryThrottle(clock=lambda: 0.0)
    bodies: dict[str, list[tuple[int, str | None, dict[str, str]]]] = {}
    for name, address in (("ann", "10.0.0.66"), ("nobody", "10.0.0.77")):
        with TestClient(app, client=(address, 5000)) as stranger:
            stranger.get("/")
            bodies[name] = []
            for _ in range(FREE + 1):
                answer = post(stranger, "/api/login", {"name": name, "password": "wrong one"})
                bodies[name].append(
                    (answer.status_code, answer.headers.get("retry-after"), answer.json())
                )
    assert bodies["ann"] == bodies["nobody"]
    assert [status for status, _, _ in bodies["ann"]] == [401] * FREE + [429]
    assert bodies["ann"][-1][1:] == (
        "1",
        {
            "error": "too many failed log-ins from this address; try again in 1 s",
            "code": "rate_limited",
        },
    )
    with TestClient(app, client=("10.0.0.1", 5000)) as owner:
        owner.get("/")
        assert post(owner, "/api/login", {"name": "ann", "password": PASSWORD}).status_code == 200


# ------------------------------------------------------------- finding 3: the names


@pytest.mark.parametrize(
    ("name", "refusal", "said"),
    [
        ("\u0430nn", IllegalAction, "letters a-z"),  # a Cyrillic а
        ("\uff41\uff4e\uff4e", Conflict, "is taken, or looks like"),  # full-width ａｎｎ
        ("Ann", Conflict, "is taken, or looks like"),
        ("ANN", Conflict, "is taken, or looks like"),
        ("LOCAL", Conflict, "reserved"),
        ("Local", Conflict, "reserved"),
        ("\uff4c\uff4f\uff43\uff41\uff4c", Conflict, "reserved"),  # full-width ｌｏｃａｌ
        ("l\u043ecal", IllegalAction, "letters a-z"),  # a Cyrillic о
        ("Iocal", Conflict, "reserved"),  # a capital i for the l
        ("1ocal", Conflict, "reserved"),
        ("l0cal", Conflict, "reserved"),
        ("a\u200bnn", IllegalAction, "letters a-z"),  # a zero-width space
    ],
)
def test_each_look_alike_of_ann_and_local_is_refused(
    service: TableService, name: str, refusal: type[Exception], said: str
) -> None:
    service.local_player()
    service.register("ann", PASSWORD)
    with pytest.raises(refusal, match=said):
        service.register(name, PASSWORD)
    assert service.login("ann", PASSWORD) != service.local_player()


@pytest.mark.parametrize("word", RESERVED)
def test_reserved_names_are_refused_in_any_case(word: str, tmp_path: Path) -> None:
    service = TableService(f"sqlite:///{tmp_path / 'reserved.db'}")
    for name in (word, word.upper(), word.title()):
        with pytest.raises(Conflict, match="reserved"):
            service.register(name, PASSWORD)


def test_names_say_what_is_allowed(tmp_path: Path) -> None:
    service = TableService(f"sqlite:///{tmp_path / 'names.db'}")
    for name in ("", "x" * 25, "b o b", "-bob", "bob!", "<b>"):
        with pytest.raises(IllegalAction) as refused:
            service.register(name, PASSWORD)
        assert str(refused.value) == NAME_RULE
    shown = service.register("\uff42\uff4f\uff42.smith_2-x", PASSWORD)  # stored as NFKC
    assert service.name(shown) == "bob.smith_2-x"
    assert service.name(service.register("x" * 24, PASSWORD)) == "x" * 24
    assert f"a player name is {NAME_HELP[:-1]}" == NAME_RULE  # the CLI's help agrees


def test_two_look_alikes_registered_at_once_make_one_account(service: TableService) -> None:
    outcomes: list[str] = []

    def register(name: str) -> None:
        try:
            service.register(name, PASSWORD)
            outcomes.append("made")
        except Conflict:
            outcomes.append("taken")

    threads = [threading.Thread(target=register, args=(name,)) for name in ("Ann", "ann")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["made", "taken"]


def test_old_names_that_look_alike_upgrade_and_still_log_in(database_url: str) -> None:
    """Names an earlier release let in keep their accounts; the older one takes the
    key, and the look-alike logs in by its exact name."""
    engine = connect(database_url, revision="0004")
    hashed = PasswordHasher().hash(PASSWORD)
    with engine.begin() as connection:
        for player, name in ((1, "Ann"), (2, "ann"), (3, "Local"), (4, "local")):
            connection.execute(
                text(
                    "INSERT INTO players (id, name, password_hash, failed_logins, created_at)"
                    " VALUES (:id, :name, :hash, 0, '2026-01-01')"
                ),
                {"id": player, "name": name, "hash": None if name == "local" else hashed},
            )
    engine.dispose()
    service = TableService(database_url)
    try:
        assert service.local_player() == 4
        assert [service.login(name, PASSWORD) for name in ("Ann", "ann", "Local")] == [1, 2, 3]
        assert service.login("ANN", PASSWORD) == 1  # the key is the older name's
        with pytest.raises(Conflict):
            service.register("aNN", PASSWORD)
    finally:
        service.engine.dispose()


# ---------------------------------------------------------- finding 4: the passwords


def test_a_300_character_password_is_refused_at_creation_and_at_log_in(
    service: TableService,
) -> None:
    said = []
    for attempt in (
        lambda: service.register("ann", "x" * 300),
        lambda: service.login("ann", "x" * 300),
        lambda: service.register("bob", "short"),
        lambda: service.login("bob", "short"),
    ):
        with pytest.raises(IllegalAction) as refused:
            attempt()
        said.append(str(refused.value))
    assert said == [PASSWORD_RULE] * 4 == ["a password is 8 to 128 characters"] * 4
    ann = service.register("ann", "x" * 128)  # the longest allowed works both ways
    assert service.login("ann", "x" * 128) == ann


def test_the_web_and_the_command_say_the_password_rule(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'rule.db'}"
    app = create_app(amended(database_url=url, local_player=False, rate_limit=1000))
    app.state.service.register("ann", PASSWORD)
    with TestClient(app) as client:
        client.get("/")
        answer = post(client, "/api/login", {"name": "ann", "password": "x" * 300})
        assert (answer.status_code, answer.json()["error"]) == (422, PASSWORD_RULE)
    app.state.service.engine.dispose()
    runner = CliRunner(env={"COLUMNS": "200", "NO_COLOR": "1", "RIVERBOAT_DATABASE_URL": url})
    long = "x" * 300
    made = runner.invoke(cli, ["accounts", "create", "bob"], input=f"{long}\n{long}\n")
    assert made.exit_code == 2
    assert PASSWORD_RULE in made.output
    for name, said in (("\u0430nn", NAME_RULE), ("LOCAL", "reserved"), ("ANN", "taken")):
        made = runner.invoke(cli, ["accounts", "create", name], input=f"{PASSWORD}\n{PASSWORD}\n")
        assert made.exit_code == 2
        assert said in " ".join(made.output.replace("│", " ").split())


# ----------------------------------------------------------- finding 5: the sessions


def test_a_log_in_with_revoke_others_ends_the_old_session(tmp_path: Path) -> None:
    app = create_app(
        amended(
            database_url=f"sqlite:///{tmp_path / 'sessions.db'}",
            local_player=False,
            house_edges=False,
        )
    )
    app.state.service.register("ann", PASSWORD)
    login = {"name": "ann", "password": PASSWORD}
    with TestClient(app) as laptop:
        phone, tablet = TestClient(app), TestClient(app)  # other browsers, the same server
        for browser in (laptop, phone, tablet):
            browser.get("/")
        assert post(laptop, "/api/login", login).status_code == 200
        first = laptop.cookies["riverboat_session"]
        assert post(laptop, "/api/login", login).status_code == 200  # again, same browser:
        assert not app.state.sessions.alive(first)  # its earlier session ended
        assert post(phone, "/api/login", login).status_code == 200  # by default both stay
        assert [laptop.get("/api/me").status_code, phone.get("/api/me").status_code] == [
            200,
            200,
        ]
        revoking = post(tablet, "/api/login", {**login, "revoke_others": True})
        assert revoking.status_code == 200
        assert [b.get("/api/me").status_code for b in (laptop, phone, tablet)] == [401, 401, 200]
        assert post(tablet, "/api/logout", {}).status_code == 200  # log-out ends it
        assert tablet.get("/api/me").status_code == 401
        assert app.state.sessions.store.keys("session") == []  # nothing of it is kept


def test_closing_the_others_keeps_the_new_session_and_other_players() -> None:
    sessions = Sessions()
    first, other = sessions.open(7), sessions.open(8)
    second = sessions.open(7)
    assert sessions.close_others(7, keep=second) == 1
    assert (sessions.player(first), sessions.player(second), sessions.player(other)) == (
        None,
        7,
        8,
    )


def post(client: TestClient, path: str, body: dict[str, Any]) -> Any:
    return client.post(
        path, json=body, headers={"X-CSRF-Token": client.cookies.get("riverboat_csrf", "")}
    )
