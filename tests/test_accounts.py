"""Accounts and log-in on a shared server: a password hash never holds the database,
a stranger's guesses slow only the stranger, names are RFC 8265 usernames of one
writing system that do not look alike (UTS #39), old names keep their accounts through
migration 0012, passwords have one rule, and a log-in can end the player's other
sessions."""

from __future__ import annotations

import importlib.util
import threading
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import icu
import pytest
from alembic import command
from alembic.config import Config
from argon2 import PasswordHasher
from fastapi.testclient import TestClient
from sqlalchemy import Engine, create_engine, text
from sqlalchemy.exc import OperationalError
from typer.testing import CliRunner

from riverboat.admission.budgets import Busy
from riverboat.admission.logins import ADDRESS_FREE, FREE, LONGEST, MemoryThrottle
from riverboat.cli import app as cli
from riverboat.cli.accounts import NAME_HELP
from riverboat.errors import BadCredentials, Conflict, IllegalAction
from riverboat.settings import amended
from riverboat.store import MIGRATIONS, connect
from riverboat.store import writer as store_writer
from riverboat.table.accounts import players as players_module
from riverboat.table.accounts.names import (
    KEY_UNICODE,
    NAME_RULE,
    PASSWORD_RULE,
    RESERVED,
    check_name,
    name_key,
)
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
    """The hasher in use (conftest.py), with ``during`` run inside each hash and
    each check."""

    def __init__(self, during: Callable[[], None]) -> None:
        self.real, self.during = players_module._hasher, during

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
        ("\u0430nn", IllegalAction, NAME_RULE),  # a Cyrillic а among Latin letters
        ("\uff41\uff4e\uff4e", Conflict, "is taken, or looks like"),  # full-width ａｎｎ
        ("Ann", Conflict, "is taken, or looks like"),
        ("ANN", Conflict, "is taken, or looks like"),
        ("ann.", Conflict, "is taken, or looks like"),  # punctuation tells no names apart
        ("ann-", Conflict, "is taken, or looks like"),
        ("a.nn", Conflict, "is taken, or looks like"),
        ("a_n-n", Conflict, "is taken, or looks like"),
        ("\u0391NN", IllegalAction, NAME_RULE),  # a Greek Α among Latin letters
        ("LOCAL", Conflict, "reserved"),
        ("Local", Conflict, "reserved"),
        ("\uff4c\uff4f\uff43\uff41\uff4c", Conflict, "reserved"),  # full-width ｌｏｃａｌ
        ("l\u043ecal", IllegalAction, NAME_RULE),  # a Cyrillic о
        ("Iocal", Conflict, "reserved"),  # a capital i for the l
        ("iocal", Conflict, "reserved"),  # the same name, shown in capitals, reads so
        ("1ocal", Conflict, "reserved"),
        ("l0cal", Conflict, "reserved"),
        ("loca1.", Conflict, "reserved"),
        ("a\u200bnn", IllegalAction, NAME_RULE),  # a zero-width space
        ("\U0001d41anna", IllegalAction, NAME_RULE),  # a mathematical bold a
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


def test_a_name_in_one_script_that_reads_as_another_name_is_taken(
    service: TableService,
) -> None:
    """Mixing scripts is refused; a whole name in Cyrillic or Greek that reads as a Latin
    one already taken is taken, by its skeleton (UTS #39), in capitals and in small."""
    for name in ("pop", "kate", "ace", "cool"):
        service.register(name, PASSWORD)
    for name in (
        "\u0440\u043e\u0440",  # Cyrillic рор
        "\u0420\u041e\u0420",  # Cyrillic РОР
        "\u039a\u0391\u03a4\u0395",  # Greek ΚΑΤΕ
        "\u039a\u03b1\u03c4\u03b5",  # Greek Κατε
        "\u0410\u0421\u0415",  # Cyrillic АСЕ
        "\u0441\u043e\u043e\u04cf",  # Cyrillic соо and a palochka for the l
        "c00l",
        "CO0L.",
    ):
        with pytest.raises(Conflict, match="is taken, or looks like one that is"):
            service.register(name, PASSWORD)
    with pytest.raises(IllegalAction) as refused:
        service.register("k\u0430te", PASSWORD)  # a Cyrillic а between Latin letters
    assert str(refused.value) == NAME_RULE


@pytest.mark.parametrize(
    ("typed", "shown"),
    [
        ("José", "José"),
        ("Zoë", "Zoë"),
        ("日本", "日本"),
        ("Jose\u0301", "José"),  # typed decomposed: stored NFC
        ("\uff2a\uff4f\uff53\uff45", "Jose"),  # full-width: narrowed
        ("Ελλάδα", "Ελλάδα"),
        ("Москва", "Москва"),
        ("山田tarō", "山田tarō"),  # Japanese: Han with Latin
        ("한국어", "한국어"),
        ("ジョン_スミス", "ジョン_スミス"),
        ("bob.smith_2-x", "bob.smith_2-x"),
    ],
)
def test_names_of_every_writing_system_register_and_log_in_in_any_case(
    service: TableService, typed: str, shown: str
) -> None:
    player = service.register(typed, PASSWORD)
    assert service.name(player) == shown
    decomposed = unicodedata.normalize("NFD", shown)
    for spelled in (typed, shown, shown.upper(), shown.lower(), decomposed):
        assert service.login(spelled, PASSWORD, "10.0.0.1") == player
    with pytest.raises(Conflict, match="is taken"):
        service.register(shown.upper(), PASSWORD)


def test_a_name_is_24_characters_at_most_counted_once_it_is_normal() -> None:
    assert check_name("日" * 24) == "日" * 24
    assert check_name("e\u0301" * 24) == "é" * 24  # 48 typed, 24 once composed
    for name in ("日" * 25, "x" * 25, "é" * 25):
        with pytest.raises(IllegalAction) as refused:
            check_name(name)
        assert str(refused.value) == NAME_RULE


@pytest.mark.parametrize(
    "name",
    [
        "p\u0430ypal",  # Latin and Cyrillic
        "\u03b1bc",  # Greek and Latin
        "abc\u0434",  # Latin and Cyrillic
        "x\u0661",  # a Latin letter and an Arabic-Indic digit
        "\u0661\u0662\u0663",  # right-to-left digits alone: RFC 8265's Bidi rule
        "\u017fam",  # a long s: not in modern use (UTS #39's General Security Profile)
        "\u01c6ango",  # ǆ: a compatibility digraph
        "ann!",
        "<b>",
        "_ann",
        "a\u0301\u0301",  # one mark twice over a letter
        "\u30a2\u30fb\u30a4",  # ア・イ: the katakana middle dot is not one of _ - .
    ],
)
def test_names_outside_the_rule_are_refused_saying_it(name: str) -> None:
    with pytest.raises(IllegalAction) as refused:
        check_name(name)
    assert str(refused.value) == NAME_RULE


def test_the_keys_are_made_by_the_unicode_data_they_were_stored_by() -> None:
    """The stored keys were made by ICU's data of Unicode KEY_UNICODE (migration 0012);
    an ICU of another Unicode may map look-alikes otherwise, so a key made now would
    not match the stored ones. Moving to one is a migration that makes every key again
    (and a new KEY_UNICODE), not a silent upgrade."""
    assert icu.UNICODE_VERSION == KEY_UNICODE, (
        f"ICU now has Unicode {icu.UNICODE_VERSION}, the stored keys {KEY_UNICODE}: "
        "write a migration that makes every name key again"
    )


def test_a_wrong_name_takes_as_long_as_a_right_one(
    service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One password check for a real name, a made-up one, a look-alike and a name the
    profile refuses (an old name's kind), each: the same work, the same answer."""
    service.register("ann", PASSWORD)
    checks: list[int] = []
    monkeypatch.setattr(players_module, "_hasher", Hasher(lambda: checks.append(1)))
    answers = []
    for name in ("ann", "nobody", "\u0430nn", "a b c", "\x01" * 64):
        before = len(checks)
        try:
            service.login(name, "wrong password", "10.0.0.66")
        except BadCredentials as error:
            answers.append(str(error))
        assert len(checks) == before + 1, name
    assert answers == [WRONG] * 5


@pytest.mark.production_password_hashes
def test_a_name_nobody_has_is_checked_at_the_cost_of_a_real_hash() -> None:
    """The hash a made-up name is checked against is written out, not made at each start:
    it must still be one of the hasher's own parameters, so its check costs what a real
    password's does (a new argon2-cffi with new defaults: write it out again)."""
    dummy = players_module._DUMMY_HASH
    assert not players_module._hasher.check_needs_rehash(dummy)
    assert players_module._hasher.verify(dummy, "riverboat: a password nobody has")


def _stored_hash(service: TableService, player: int) -> str:
    with service.engine.connect() as connection:
        stored = connection.execute(
            text("SELECT password_hash FROM players WHERE id = :id"), {"id": player}
        ).scalar_one()
    assert isinstance(stored, str)
    return stored


@pytest.mark.production_password_hashes
def test_a_password_is_kept_as_an_argon2id_hash_of_production_cost(tmp_path: Path) -> None:
    """Production's hasher (the suite's own is cheaper, conftest.py): argon2id
    with argon2-cffi's recommended parameters (RFC 9106's second choice: 64 MiB, three
    passes, four lanes), never the password itself."""
    service = TableService(f"sqlite:///{tmp_path / 'hashed.db'}")
    try:
        ann = service.register("ann", PASSWORD)
        stored = _stored_hash(service, ann)
        assert stored.startswith("$argon2id$v=19$m=65536,t=3,p=4$")
        assert PASSWORD not in stored
        assert service.login("ann", PASSWORD, "10.0.0.7") == ann
        assert _stored_hash(service, ann) == stored  # today's parameters: not made again
    finally:
        service.engine.dispose()


def test_a_hash_of_older_parameters_is_made_again_at_the_next_log_in(
    service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A log-in that finds its hash made with other parameters than today's hashes the
    password again with today's, and the password still logs in."""
    today = players_module._hasher
    with monkeypatch.context() as older:
        older_cost = PasswordHasher(time_cost=2, memory_cost=16, parallelism=1)
        older.setattr(players_module, "_hasher", older_cost)
        ann = service.register("ann", PASSWORD)
    was = _stored_hash(service, ann)
    assert today.check_needs_rehash(was)
    assert service.login("ann", PASSWORD, "10.0.0.8") == ann
    now = _stored_hash(service, ann)
    assert now != was
    assert not today.check_needs_rehash(now)
    assert service.login("ann", PASSWORD, "10.0.0.8") == ann
    assert _stored_hash(service, ann) == now  # made again once, not at every log-in


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


@pytest.mark.production_password_hashes  # hashes as slow as production's: the two overlap
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
    hashed = players_module._hasher.hash(PASSWORD)  # the suite's (conftest.py)
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


def _revision(name: str) -> ModuleType:
    """A migration's module, loaded from its file as Alembic loads it."""
    spec = importlib.util.spec_from_file_location(name, MIGRATIONS / "versions" / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


#: (id, name, has a password): accounts earlier releases let in, oldest first
OLD_ACCOUNTS = [
    (1, "ann.", True),
    (2, "ann", True),  # now ann.'s look-alike: a key of its own, no one else's
    (3, "A-NN", True),
    (4, "Iocal", True),  # reads as the local player's reserved name
    (5, "local", False),  # the local player
    (6, "b0b", True),
    (7, "bob", True),
    (8, "bob smith", True),  # a space: the profile refuses it now
    (9, "\u0430nn", True),  # a Cyrillic а among Latin letters: refused now
    (10, "x" * 40, True),  # too long now
    (11, "admin", True),  # made before admin was reserved
    (12, "José", True),
]


def test_0012_makes_every_key_again_and_every_old_account_logs_in(database_url: str) -> None:
    """A database at 0011 with names that now share keys, or that the new rule refuses:
    after 0012 every key is unique and none is missing, each account logs in by its
    exact name, the oldest of look-alikes also by any spelling of it, and no new name
    takes any of their places. Its downgrade makes 0005's keys again."""
    revision = _revision("0012_username_profile")
    engine = connect(database_url, revision="0011_deal_seeds")
    hashed = players_module._hasher.hash(PASSWORD)  # the suite's (conftest.py)
    old_keys = {
        row["player"]: row["key"]
        for row in revision._keys(
            [(n, name, hashed if has else None) for n, name, has in OLD_ACCOUNTS],
            revision._old_key,
            suffix=False,
        )
    }
    with engine.begin() as connection:
        for player, name, has_password in OLD_ACCOUNTS:
            connection.execute(
                text(
                    "INSERT INTO players (id, name, name_key, password_hash, failed_logins,"
                    " created_at) VALUES (:id, :name, :key, :hash, 0, '2026-01-01')"
                ),
                {
                    "id": player,
                    "name": name,
                    "key": old_keys[player],
                    "hash": hashed if has_password else None,
                },
            )
    engine.dispose()
    service = TableService(database_url)  # upgraded to the latest
    try:
        with service.engine.connect() as connection:
            keys = dict(connection.execute(text("SELECT id, name_key FROM players")).all())
        assert None not in keys.values()
        assert len(set(keys.values())) == len(OLD_ACCOUNTS)
        assert {player for player, key in keys.items() if "#" in key} == {2, 3, 4, 7, 9, 11}
        assert (keys[1], keys[2], keys[5]) == (name_key("ann"), name_key("ann") + "#2", "local")
        assert service.local_player() == 5
        for player, name, has_password in OLD_ACCOUNTS:
            if has_password:
                assert service.login(name, PASSWORD, "10.0.0.1") == player, name
        assert service.login("ANN", PASSWORD, "10.0.0.1") == 1  # the key is the oldest's
        assert service.login("JOSÉ", PASSWORD, "10.0.0.1") == 12
        for taken in ("Ann", "an.n", "b0B", "JOSE\u0301", "1ocal", "admin"):
            with pytest.raises(Conflict):
                service.register(taken, PASSWORD)
        _migrate(service.engine, "0011_deal_seeds", down=True)
        with service.engine.connect() as connection:
            keys = dict(connection.execute(text("SELECT id, name_key FROM players")).all())
        assert keys == old_keys
    finally:
        service.engine.dispose()


def test_0012_keys_names_as_the_names_module_does_today() -> None:
    """The migration's own copy of the key (migrations take nothing from riverboat)
    is the names module's of its day. When the rule changes, its revision gets a copy
    of its own, and this test follows that revision."""
    revision = _revision("0012_username_profile")
    key = revision._new_keys()
    names = ["ann", "ANN.", "a-nn", "\u0430nn", "Iocal", "rnary", "b0b", "José", "Zoë", "日本"]
    names += ["Ελλάδα", "Москва", "ΚΑΤΕ", "山田tarō", "bob smith", "x" * 40, "", "\x01"]
    assert [key(name) for name in names] == [name_key(name) for name in names]


def _migrate(engine: Engine, revision: str, down: bool = False) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with store_writer(engine).begin() as connection:
        config.attributes["connection"] = connection
        (command.downgrade if down else command.upgrade)(config, revision)


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
