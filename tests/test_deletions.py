"""Keys deleted from the kept state on PostgreSQL, heard by every process's listener
(riverboat.store.deletions), and the sessions a process caches because of it: a close
in one process forgotten in another at once, and no cache answering while the
listener is cut off."""

import threading
import time
from collections.abc import Callable, Iterator, Sequence

import psycopg
import pytest

from riverboat.store import connect, deletions
from riverboat.store.deletions import Listener, keys_of
from riverboat.store.state import DatabaseStore
from riverboat.web.deps import Sessions


class Heard:
    """What a listener handed on, in turn (None: forget every key)."""

    def __init__(self) -> None:
        self.told: list[list[str] | None] = []
        self._lock = threading.Lock()

    def __call__(self, keys: Sequence[str] | None) -> None:
        with self._lock:
            self.told.append(None if keys is None else list(keys))


def until(check: Callable[[], bool], what: str, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.01)


@pytest.fixture
def store(postgres_url: str) -> Iterator[DatabaseStore]:
    engine = connect(postgres_url)
    yield DatabaseStore(engine)
    engine.dispose()


@pytest.fixture
def listening(store: DatabaseStore) -> Iterator[tuple[Listener, Heard]]:
    heard = Heard()
    listener = store.listener(heard)
    assert listener is not None
    listener.start()
    until(listener.current, "the listener never became current")
    yield listener, heard
    listener.stop()


def test_a_notice_that_cannot_be_read_forgets_every_key() -> None:
    assert keys_of("not json") is None
    assert keys_of('{"a": 1}') is None
    assert keys_of("[1, 2]") is None


def test_a_deletion_in_another_process_is_heard(
    postgres_url: str, listening: tuple[Listener, Heard]
) -> None:
    listener, heard = listening
    assert heard.told == [None]  # listening from now: whatever was cached, forgotten
    other = DatabaseStore(connect(postgres_url))  # another process's store
    other.put("session:ab", "7", 60)
    other.delete("session:ab", "sessions-of:7:ab")
    until(lambda: len(heard.told) == 2, "the deletion was never heard")
    assert heard.told[1] == ["session:ab", "sessions-of:7:ab"]
    assert other.get("session:ab") is None
    assert listener.current()


def test_a_listener_cut_off_forgets_everything_and_listens_again(
    postgres_url: str, listening: tuple[Listener, Heard]
) -> None:
    listener, heard = listening
    with psycopg.connect(postgres_url.replace("+psycopg", ""), autocommit=True) as admin:
        cut = admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE application_name = %s AND datname = current_database()",
            [deletions.NAME],
        ).fetchall()
    assert cut == [(True,)]
    # the cut is noticed at the next heartbeat: every key forgotten, then again when it
    # listens once more (deletions meanwhile went unheard)
    until(lambda: heard.told.count(None) >= 3, "the listener never listened again")
    until(listener.current, "the listener never became current again")
    other = DatabaseStore(connect(postgres_url))
    other.delete("session:cd")
    until(lambda: heard.told[-1] == ["session:cd"], "a deletion after the cut went unheard")


def test_a_listener_that_has_not_confirmed_lately_is_not_current() -> None:
    now = [100.0]
    listener = Listener("postgresql://unused", Heard(), clock=lambda: now[0])
    assert not listener.current()  # never started: never confirmed
    listener._confirmed = 100.0  # as its heartbeat sent at 100 and answered
    assert listener.current()
    now[0] += deletions.STALE  # a process frozen, or a connection silently gone
    assert not listener.current()


def test_stop_ends_the_listener_at_once_whatever_its_heartbeat(store: DatabaseStore) -> None:
    listener = store.listener(Heard())
    assert listener is not None
    listener.heartbeat = 600.0
    listener.start()
    until(listener.current, "the listener never became current")
    started = time.monotonic()
    listener.stop()
    assert time.monotonic() - started < 3.0
    assert not listener.current()


def test_a_session_closed_in_another_process_is_forgotten_here_at_once(
    postgres_url: str, store: DatabaseStore
) -> None:
    here = Sessions(store)
    listener = store.listener(here.deleted)
    assert listener is not None
    here.hear(listener.current)
    there = Sessions(DatabaseStore(connect(postgres_url)))  # another process's
    token = there.open(7)
    assert not here.at_hand(token)  # not current yet: the store is read
    listener.start()
    try:
        until(listener.current, "the listener never became current")
        assert here.player(token) == 7  # read once, then cached
        assert here.at_hand(token)
        there.close(token)
        until(lambda: not here.at_hand(token), "the close was never heard")
        assert here.player(token) is None
        assert not here.at_hand(token)
        other = there.open(8)
        assert here.player(other) == 8
        assert here.at_hand(other)
    finally:
        listener.stop()
    assert not here.at_hand(other)  # not listening: nothing answers from memory
    assert here.player(other) == 8  # but the store, read


def test_sqlite_has_no_listener(tmp_path: object) -> None:
    store = DatabaseStore(connect(f"sqlite:///{tmp_path}/kept.db"))
    assert store.listener(Heard()) is None  # one process serves it: nothing to hear
