"""Group commit on SQLite: the writes queued together share one transaction, each in a
SAVEPOINT of its own; what one raises undoes only its writes; nobody hears back before
the COMMIT; a COMMIT that fails fails its whole batch with nothing written."""

from __future__ import annotations

import gc
import os
import sqlite3
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Connection, Engine, event, func, select, text
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session

from riverboat.errors import IllegalAction, Unavailable
from riverboat.settings import reload
from riverboat.store import commits, connect
from riverboat.store.commits import GROUP_COMMIT, Writer, grouped
from riverboat.store.models import KeptState, Player, Transaction
from riverboat.table.accounts.ledger import Ledger, _in_session, player_account
from riverboat.table.service import TableService
from test_write_turns import play_together


@pytest.fixture
def service(tmp_path: Path) -> TableService:
    return TableService(f"sqlite:///{tmp_path / 'riverboat.db'}")


def _commits(engine: Engine) -> list[str]:
    """The COMMITs of transactions on ``engine``, as they happen."""
    seen: list[str] = []
    event.listen(engine, "commit", lambda _connection: seen.append("commit"))
    return seen


def _keep(key: str, fail: BaseException | None = None) -> Callable[[Connection], str]:
    """A write of one kept-state row; raising ``fail`` after it, if given."""

    def job(connection: Connection) -> str:
        connection.execute(
            text("INSERT INTO kept_state (key, value, count, expires) VALUES (:k, 'v', 0, 1e12)"),
            {"k": key},
        )
        if fail is not None:
            raise fail
        return key

    return job


def _kept(engine: Engine) -> list[str]:
    with Session(engine) as session:
        return sorted(session.scalars(select(KeptState.key)))


class Held:
    """The writer kept busy by a write that waits, so that writes queue behind it; each
    queued write answered on a thread of its own."""

    def __init__(self, writer: Writer) -> None:
        self.writer = writer
        self.release = threading.Event()
        running = threading.Event()
        self.answers: dict[str, Any] = {}
        self.threads: list[threading.Thread] = []

        def hold(_connection: Connection) -> str:
            running.set()
            self.release.wait(30)
            return "held"

        self.submit("held", hold)
        assert running.wait(30), "the writer never ran the holding write"

    def submit(self, name: str, job: Callable[[Connection], Any], wait: float = 30) -> None:
        def answer() -> None:
            try:
                self.answers[name] = self.writer.run(job, wait)
            except BaseException as error:  # kept, then asserted
                self.answers[name] = error

        thread = threading.Thread(target=answer)
        thread.start()
        self.threads.append(thread)

    def queued(self, count: int) -> None:
        deadline = time.monotonic() + 30
        while self.writer.waiting < count:
            assert time.monotonic() < deadline, "the writes did not queue"
            time.sleep(0.01)

    def finish(self) -> dict[str, Any]:
        self.release.set()
        for thread in self.threads:
            thread.join(30)
            assert not thread.is_alive()
        return self.answers


@pytest.fixture
def held(service: TableService) -> Iterator[Held]:
    writer = grouped(service.engine)
    assert writer is not None
    holding = Held(writer)
    yield holding
    holding.release.set()


def test_many_threads_all_land_in_fewer_commits_and_the_ledger_audits_clean(
    service: TableService,
) -> None:
    players = [service.register(f"p{n}", "password-123") for n in range(12)]
    commits_seen = _commits(service.engine)
    failures = play_together(service, players, rounds=4)
    assert failures == []
    assert service.audit() == []
    for player in players:
        assert [r.status for r in service.history(player, limit=10)] == ["settled"] * 4
    writes = 12 * 4 * 2
    assert 0 < len(commits_seen) < writes  # writes shared commits


def test_writes_queued_together_share_one_commit(service: TableService, held: Held) -> None:
    commits_seen = _commits(service.engine)
    for n in range(5):
        held.submit(f"k{n}", _keep(f"k{n}"))
    held.queued(5)
    answers = held.finish()
    assert answers == {"held": "held", **{f"k{n}": f"k{n}" for n in range(5)}}
    assert len(commits_seen) == 2  # the holding write's batch, then the five's
    assert _kept(service.engine) == [f"k{n}" for n in range(5)]


def test_a_write_that_raises_undoes_only_its_own_writes(service: TableService) -> None:
    me = service.local_player()
    before = service.balance(me)
    writer = grouped(service.engine)
    assert writer is not None
    held = Held(writer)

    def take(cents: int, refuse: bool) -> Callable[[Session], int]:
        def work(session: Session) -> int:
            txn = Transaction(kind="adjust", player_id=me)
            session.add(txn)
            session.flush()
            Ledger.move(session, txn, [(player_account(me), -cents), ("house", cents)])
            if refuse:
                raise IllegalAction("refused after writing")
            return txn.id

        return work

    def ledger_job(work: Callable[[Session], int]) -> Callable[[Connection], int]:
        return lambda connection: _in_session(connection, work)

    held.submit("first", ledger_job(take(100, refuse=False)))
    held.submit("refused", ledger_job(take(10_000, refuse=True)))
    held.submit("kept", _keep("kept", fail=IllegalAction("no")))
    held.submit("last", ledger_job(take(1, refuse=False)))
    held.queued(4)
    answers = held.finish()
    assert isinstance(answers["refused"], IllegalAction)
    assert isinstance(answers["kept"], IllegalAction)
    assert isinstance(answers["first"], int)
    assert isinstance(answers["last"], int)
    assert service.balance(me) == before - 101
    assert _kept(service.engine) == []
    assert service.audit() == []


def test_a_commit_that_fails_fails_its_whole_batch_and_writes_nothing(
    service: TableService, held: Held
) -> None:
    failing = [True]

    @event.listens_for(service.engine, "commit")
    def _fail(_connection: Connection) -> None:
        if failing[0] and threading.current_thread().name == "riverboat-writer":
            raise OperationalError("COMMIT", None, sqlite3.OperationalError("disk I/O error"))

    for n in range(3):
        held.submit(f"k{n}", _keep(f"k{n}"))
    held.submit("refused", _keep("r", fail=IllegalAction("no")))
    held.queued(4)
    answers = held.finish()
    assert all(isinstance(answer, Unavailable) for answer in answers.values()), answers
    assert str(answers["k0"]) == "the database did not answer: try again shortly"
    assert _kept(service.engine) == []
    failing[0] = False
    writer = grouped(service.engine)
    assert writer is not None
    assert writer.run(_keep("after")) == "after"  # the writer lives on
    assert _kept(service.engine) == ["after"]


def test_nobody_hears_back_before_the_commit(service: TableService) -> None:
    """The COMMIT made slow: a write's caller, once answered, reads its row from a
    connection of its own, which sees only what was committed."""

    @event.listens_for(service.engine, "commit")
    def _slow(_connection: Connection) -> None:
        time.sleep(0.3)

    writer = grouped(service.engine)
    assert writer is not None
    seen: list[list[str]] = []

    def write(key: str) -> None:
        writer.run(_keep(key))
        seen.append([k for k in _kept(service.engine) if k == key])

    threads = [threading.Thread(target=write, args=(f"k{n}",)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(seen) == [[f"k{n}"] for n in range(6)]


def test_a_write_inside_a_write_runs_at_once_in_the_same_transaction(
    service: TableService,
) -> None:
    writer = grouped(service.engine)
    assert writer is not None

    def outer(connection: Connection) -> str:
        inner = writer.run(_keep("inner"))
        with pytest.raises(IllegalAction):
            writer.run(_keep("undone", fail=IllegalAction("no")))
        return _keep("outer")(connection) + "+" + inner

    done: list[str] = []
    thread = threading.Thread(target=lambda: done.append(writer.run(outer)))
    thread.start()
    thread.join(30)
    assert done == ["outer+inner"]  # no deadlock: it finished
    assert _kept(service.engine) == ["inner", "outer"]


def test_a_write_not_begun_in_time_is_unavailable_and_never_runs(
    service: TableService, held: Held
) -> None:
    ran: list[str] = []

    def late(connection: Connection) -> None:
        ran.append("late")

    held.submit("late", late, wait=0.2)
    for thread in held.threads[1:]:
        thread.join(30)
    assert isinstance(held.answers["late"], Unavailable)
    assert str(held.answers["late"]) == commits.BUSY
    held.finish()
    assert ran == []


def test_the_writing_thread_ends_when_idle_and_comes_back(
    service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(commits, "IDLE_SECONDS", 0.05)
    writer = Writer(service.engine)
    assert writer.run(_keep("a")) == "a"
    deadline = time.monotonic() + 30
    while writer.running:
        assert time.monotonic() < deadline, "the writing thread did not end"
        time.sleep(0.01)
    assert writer.run(_keep("b")) == "b"
    assert _kept(service.engine) == ["a", "b"]


def test_in_memory_and_switched_off(monkeypatch: pytest.MonkeyPatch) -> None:
    service = TableService("sqlite://")
    me = service.local_player()
    view = service.start_round(me, "tri-card", {"ante": 500})
    assert service.act(me, view.id, "raise").status == "settled"
    assert service.audit() == []
    assert grouped(service.engine) is grouped(service.engine) is not None
    monkeypatch.setenv(GROUP_COMMIT, "0")
    reload()  # the settings read the environment again
    assert grouped(service.engine) is None
    view = service.start_round(me, "tri-card", {"ante": 500})  # one transaction a write
    assert service.act(me, view.id, "fold").status == "settled"
    with Session(service.engine) as session:
        assert session.scalar(select(func.count()).select_from(Transaction)) >= 4
    assert service.audit() == []


def test_a_forked_child_writes_with_a_writer_of_its_own(service: TableService) -> None:
    """Forked while the parent's writing thread runs (between batches): the child's
    writes go to a thread of its own (SQLite itself takes no transaction across a
    fork: a fork in the middle of one is not a case to serve)."""
    writer = grouped(service.engine)
    assert writer is not None
    assert writer.run(_keep("parent")) == "parent"
    assert writer.running
    child = os.fork()
    if child == 0:  # pragma: no cover (the child's)
        code = 1
        try:
            service.engine.dispose(close=False)
            code = 0 if writer.run(_keep("child"), wait=10) == "child" else 1
        finally:
            os._exit(code)
    _, status = os.waitpid(child, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert _kept(service.engine) == ["child", "parent"]


def test_an_engine_is_not_kept_alive_by_its_writer(tmp_path: Path) -> None:
    engine = connect(f"sqlite:///{tmp_path / 'gone.db'}")
    writer = grouped(engine)
    assert writer is not None
    assert writer.run(_keep("a")) == "a"
    gone = weakref.ref(engine)
    engine.dispose()
    del engine, writer
    gc.collect()
    assert gone() is None


def test_a_twin_that_fails_its_flush_leaves_the_first_committed(service: TableService) -> None:
    """Two writes of one unique key in a batch: the second's flush fails (its
    ``IntegrityError``, as an idempotency twin's), the first's row stands."""
    writer = grouped(service.engine)
    assert writer is not None
    held = Held(writer)

    def add(password: str) -> Callable[[Connection], int]:
        def work(session: Session) -> int:
            player = Player(name="twin", name_key="twin", password_hash=password)
            session.add(player)
            session.flush()
            return player.id

        return lambda connection: _in_session(connection, work)

    held.submit("first", add("one"))
    held.submit("twin", add("two"))
    held.submit("after", _keep("after"))
    held.queued(3)
    answers = held.finish()
    assert isinstance(answers["first"], int)
    assert isinstance(answers["twin"], IntegrityError)
    assert answers["after"] == "after"
    with Session(service.engine) as session:
        assert list(session.scalars(select(Player.password_hash).where(Player.name == "twin"))) == [
            "one"
        ]


def test_a_lone_write_that_raises_writes_nothing_and_the_next_runs(
    service: TableService,
) -> None:
    """A write alone in its batch runs in no SAVEPOINT: what it raises, from its own
    statements or from its Session's flush, rolls back the transaction, writes
    nothing, and is its caller's answer; the next write runs as ever."""
    writer = grouped(service.engine)
    assert writer is not None
    me = service.local_player()
    before = service.balance(me)

    def refused(session: Session) -> None:
        txn = Ledger.transaction(session, "adjust", me)
        Ledger.move(session, txn, [(player_account(me), -500), ("house", 500)])
        raise IllegalAction("refused after writing")

    def twin(session: Session) -> None:
        session.add(Player(name="local", name_key="local-twin", password_hash=None))
        session.flush()  # the name is taken: the Session rolls back through SQLAlchemy

    with pytest.raises(IllegalAction):
        writer.run(lambda connection: _in_session(connection, refused))
    with pytest.raises(IntegrityError):
        writer.run(lambda connection: _in_session(connection, twin))
    with pytest.raises(IllegalAction):
        writer.run(_keep("alone", fail=IllegalAction("no")))
    assert writer.run(_keep("after")) == "after"
    assert _kept(service.engine) == ["after"]
    assert service.balance(me) == before
    assert service.audit() == []
