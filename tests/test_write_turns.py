"""Writers under load: on SQLite one process's writers queue at a lock of its own
instead of polling SQLite's; on PostgreSQL a stuck row lock answers "busy" within
its lock timeout rather than hanging; and the rules decoded once per rules stay
equal to, and apart from, what the caller keeps."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from sqlalchemy import create_engine, event, select, text
from sqlalchemy.orm import Session

from riverboat.errors import Unavailable
from riverboat.games import find_game
from riverboat.games.codec import from_json, to_json
from riverboat.store import POSTGRES_TIMEOUTS, connect, write_turn
from riverboat.store.models import Deal
from riverboat.table.service import TableService


def play_together(service: TableService, players: list[int], rounds: int) -> list[BaseException]:
    """Each player on a thread of their own plays ``rounds`` Tri-Card rounds, raising;
    what any of them raised."""
    failures: list[BaseException] = []

    def play(player: int) -> None:
        try:
            for _ in range(rounds):
                view = service.start_round(player, "tri-card", {"ante": 500})
                service.act(player, view.id, "raise")
        except BaseException as error:  # counted, then asserted
            failures.append(error)

    threads = [threading.Thread(target=play, args=(p,)) for p in players]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return failures


def test_one_turn_per_sqlite_database_and_none_on_postgresql(tmp_path: Path) -> None:
    first = connect(f"sqlite:///{tmp_path / 'a.db'}")
    again = connect(f"sqlite:///{tmp_path / 'a.db'}")
    other = connect(f"sqlite:///{tmp_path / 'b.db'}")
    assert write_turn(first) is write_turn(again) is not None  # the same file: one queue
    assert write_turn(other) is not write_turn(first)
    assert write_turn(connect("sqlite://")) is not write_turn(connect("sqlite://"))
    assert write_turn(create_engine("postgresql+psycopg://nobody@127.0.0.1/none")) is None


def test_concurrent_writers_queue_and_never_meet_a_locked_database(tmp_path: Path) -> None:
    """With SQLite's own busy wait at zero, two writers that met on the lock would fail
    ("database is locked", answered 503); queued at the process's turn, none does."""
    service = TableService(f"sqlite:///{tmp_path / 'riverboat.db'}")

    @event.listens_for(service.engine, "connect")
    def _no_busy_wait(connection, _record):  # type: ignore[no-untyped-def]
        connection.execute("PRAGMA busy_timeout = 0")

    service.engine.dispose()  # the pool's connections made again, without the wait
    players = [service.register(f"p{n}", "password-123") for n in range(8)]
    failures = play_together(service, players, rounds=3)
    assert failures == []
    assert service.audit() == []
    assert len(service.history(players[0], limit=10)) == 3


def test_a_fresh_deck_stores_no_seed_unless_one_was_shown(tmp_path: Path) -> None:
    service = TableService(f"sqlite:///{tmp_path / 'riverboat.db'}")
    me = service.local_player()
    service.start_round(me, "tri-card", {"ante": 500})
    with Session(service.engine) as session:
        assert session.scalars(select(Deal)).all() == []  # none made only to be deleted
    shown = service.next_commitment(me, "tri-card")
    service.act(me, service.open_round(me, "tri-card").id, "fold")  # type: ignore[union-attr]
    assert service.start_round(me, "tri-card", {"ante": 500}).commitment == shown  # G2
    with Session(service.engine) as session:
        assert session.scalars(select(Deal)).all() == []  # the shown seed dealt once


def test_rules_decoded_once_are_equal_and_the_callers_copies_their_own() -> None:
    game = find_game("tri-card")
    rules = game.rules()
    data = to_json(rules)
    assert from_json(game.rules_type, data) == rules
    assert from_json(game.rules_type, to_json(rules)) is from_json(game.rules_type, data)
    data["ante_bonus"] = "changed"  # the caller's copy: the next one is untouched
    assert to_json(rules) != data
    assert from_json(game.rules_type, to_json(rules)) == rules


ON_POSTGRESQL = pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)


@ON_POSTGRESQL
def test_postgresql_sessions_carry_the_timeouts(database_url: str) -> None:
    engine = connect(database_url)
    with engine.connect() as connection:
        for name, value in POSTGRES_TIMEOUTS.items():
            assert connection.scalar(text(f"SHOW {name}")) == value


@ON_POSTGRESQL
def test_a_row_lock_held_by_a_stuck_transaction_answers_busy(database_url: str) -> None:
    """PostgreSQL: a player's row held by a transaction that does not finish; the
    player's next write is refused as :class:`Unavailable` (503 on the web) after the
    lock timeout, changing nothing, instead of waiting for ever."""
    service = TableService(database_url)
    me = service.register("ann", "password-123")
    before = service.balance(me)
    with service.engine.connect() as holder:
        holder.execute(text("SELECT id FROM players WHERE id = :me FOR UPDATE"), {"me": me})
        began = time.monotonic()
        with pytest.raises(Unavailable):
            service.start_round(me, "tri-card", {"ante": 500})
        took = time.monotonic() - began
        holder.rollback()
    assert 1.5 < took < 20  # the 2 s lock timeout, on a busy machine
    assert service.balance(me) == before
    assert service.audit() == []
