"""Group commit: one process's SQLite writes, many to a transaction.

SQLite takes one writer at a time, and a transaction that writes pays ``BEGIN
IMMEDIATE``, ``COMMIT`` and (``synchronous=FULL``) a sync to disk while every other
writer waits. So each engine's writes go to one thread of its own, which takes every
write queued the moment it is free (at most :data:`BATCH` of them) and runs them in one
transaction, each in a SAVEPOINT of its own: a write that raises rolls back only its
own statements and gets its exception, the others commit. (A write alone in its batch
runs in no SAVEPOINT: what it raises rolls the transaction back, which is all it would
undo.) Nobody learns anything, a result or a refusal, before the ``COMMIT`` (or that
``ROLLBACK``) that ends the batch has returned; a ``COMMIT`` that fails fails every
write of its batch as :class:`Unavailable` (nothing changed). There is no waiting
to fill a batch: alone, a write goes at once.

The thread ends after :data:`IDLE_SECONDS` with nothing to do (the next write starts
another), and takes the process's turn (:func:`~riverboat.store.write_turn`) around
each batch, so other engines on the same file (the kept state's) take turns with it.
A write started from inside a write on the writing thread runs there and then, in a
SAVEPOINT of the batch's transaction. ``RIVERBOAT_GROUP_COMMIT=0`` turns it off: each
write then runs in its own transaction on its caller's thread (what
``bench/writes.py`` compares against).

>>> from riverboat.store import connect
>>> from sqlalchemy import text
>>> engine = connect("sqlite://")
>>> grouped(engine).run(lambda connection: connection.scalar(text("SELECT 6 * 7")))
42
"""

from __future__ import annotations

import os
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable
from contextlib import nullcontext
from typing import Generic, TypeVar, cast

from sqlalchemy import Connection, Engine, RootTransaction
from sqlalchemy.exc import DBAPIError, OperationalError

from riverboat.errors import Unavailable
from riverboat.settings import settings
from riverboat.store import write_turn, writer

__all__ = [
    "BATCH",
    "BUSY",
    "GROUP_COMMIT",
    "IDLE_SECONDS",
    "LOCKED_RETRY_SECONDS",
    "TURN_SECONDS",
    "Writer",
    "grouped",
    "locked",
    "reason",
    "unreachable",
]

#: the environment variable that turns group commit off (``0``); on by default
GROUP_COMMIT = "RIVERBOAT_GROUP_COMMIT"
#: the most writes in one transaction: a bound on what one batch makes its writes wait
BATCH = 64
#: a writing thread with nothing to do this long ends (the next write starts another)
IDLE_SECONDS = 2.0
#: the longest a write waits for its turn behind this process's other writers (SQLite):
#: as long as SQLite itself waits by default; a queue that long is an overloaded server
TURN_SECONDS = 30.0
#: a transaction that found SQLite locked (by another process) is tried again within this
LOCKED_RETRY_SECONDS = 0.25
#: what a write that did not get its turn in time is told
BUSY = "the database is busy: nothing changed; try again shortly"

T = TypeVar("T")
Job = Callable[[Connection], T]
#: a pending write's result type: covariant, so one queue holds writes of every result
ResultT = TypeVar("ResultT", covariant=True)

_WRITERS: weakref.WeakKeyDictionary[Engine, Writer] = weakref.WeakKeyDictionary()
_WRITERS_GUARD = threading.Lock()
#: the connection of the batch this thread is running, by database (for nested writes)
_RUNNING = threading.local()


def grouped(engine: Engine) -> Writer | None:
    """The engine's group-committing writer: SQLite only, None on PostgreSQL (whose
    writers lock only their rows and run alongside) or with :data:`GROUP_COMMIT` off."""
    if engine.dialect.name != "sqlite" or not settings().group_commit:
        return None
    engine = getattr(engine, "_proxied", engine)  # an engine with options: its own engine
    with _WRITERS_GUARD:
        found = _WRITERS.get(engine)
        if found is None:
            found = _WRITERS[engine] = Writer(engine)
        return found


class _Pending(Generic[ResultT]):
    """One write: its work, then its result or exception once its batch committed."""

    def __init__(self, job: Job[ResultT]) -> None:
        self.job = job
        self.done = threading.Event()
        self.taken = False
        self.result: object = None
        self.error: BaseException | None = None

    def outcome(self) -> ResultT:
        if self.error is not None:
            raise self.error
        return cast(ResultT, self.result)  # what its job gave


class Writer:
    """The one thread that writes for an engine, a batch of writes per transaction."""

    def __init__(self, engine: Engine) -> None:
        self._engine = weakref.ref(engine)  # not kept alive by its writer
        self._turn = write_turn(engine)
        self._key = id(self._turn)
        self._queue: deque[_Pending[object]] = deque()
        self._guard = threading.Lock()
        self._wake = threading.Condition(self._guard)
        self._thread: threading.Thread | None = None

    @property
    def waiting(self) -> int:
        """How many writes are queued for the next batch."""
        with self._guard:
            return len(self._queue)

    @property
    def running(self) -> bool:
        """Whether the writing thread is there (it ends after :data:`IDLE_SECONDS` idle)."""
        with self._guard:
            return self._thread is not None

    def run(self, job: Job[T], wait: float = TURN_SECONDS) -> T:
        """``job`` run in a SAVEPOINT of the next batch; its result once the batch has
        committed. Not begun within ``wait`` seconds: :class:`Unavailable`, nothing
        changed. On the writing thread itself (a write inside a write): at once."""
        running: dict[int, Connection] = getattr(_RUNNING, "connections", {})
        connection = running.get(self._key)
        if connection is not None:
            with connection.begin_nested():
                return job(connection)
        pending: _Pending[T] = _Pending(job)
        with self._guard:
            self._queue.append(pending)
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._serve, name="riverboat-writer", daemon=True
                )
                self._thread.start()
            else:
                self._wake.notify()
        if not pending.done.wait(wait):
            with self._guard:
                if not pending.taken:
                    self._queue.remove(pending)
                    raise Unavailable(BUSY)
            pending.done.wait()  # in a batch already: its outcome comes with the COMMIT
        return pending.outcome()

    def _serve(self) -> None:
        """Batches while there are writes; the thread ends once there have been none for
        :data:`IDLE_SECONDS`."""
        while True:
            with self._guard:
                if not self._queue:
                    self._wake.wait(IDLE_SECONDS)
                if not self._queue:
                    self._thread = None
                    return
            batch: list[_Pending[object]] = []
            try:
                with self._turn if self._turn is not None else nullcontext():
                    with self._guard:
                        batch = [self._queue.popleft() for _ in range(min(BATCH, len(self._queue)))]
                        for pending in batch:
                            pending.taken = True
                    if batch:
                        self._commit(batch)
            finally:
                for pending in batch:
                    pending.done.set()

    def _forked(self) -> None:
        """In a child process: no thread, nothing queued, locks of its own."""
        engine = self._engine()
        if engine is not None:
            self._turn = write_turn(engine)
            self._key = id(self._turn)
        self._queue = deque()
        self._guard = threading.Lock()
        self._wake = threading.Condition(self._guard)
        self._thread = None

    def _commit(self, batch: list[_Pending[object]]) -> None:
        """One transaction for the batch; each pending write's outcome set, none told."""
        began = time.monotonic()
        cause: BaseException
        while True:
            begun = False
            try:
                engine = self._engine()
                if engine is None:  # pragma: no cover (its callers hold it)
                    raise LookupError("the engine is gone")
                with writer(engine).connect() as connection:
                    _RUNNING.connections = {self._key: connection}
                    try:
                        with connection.begin() as transaction:
                            begun = True
                            if len(batch) == 1:
                                _alone(connection, transaction, batch[0])
                            else:
                                for pending in batch:
                                    _one(connection, pending)
                    finally:
                        _RUNNING.connections = {}
                return
            except DBAPIError as error:
                brief = time.monotonic() - began < LOCKED_RETRY_SECONDS
                if not begun and locked(error) and brief:
                    continue  # another process held the lock a moment: nothing ran yet
                said, cause = reason(error), error
            except BaseException as error:  # the thread outlives any failure
                said, cause = "try again shortly", error
            for pending in batch:  # nothing of the batch was written
                pending.result = None
                pending.error = Unavailable(f"the database did not answer: {said}")
                pending.error.__cause__ = cause
            return


def _after_fork() -> None:
    global _WRITERS_GUARD
    _WRITERS_GUARD = threading.Lock()
    for found in list(_WRITERS.values()):
        found._forked()


os.register_at_fork(after_in_child=_after_fork)


def _one(connection: Connection, pending: _Pending[object]) -> None:
    """A write in a SAVEPOINT of its own: what it raises rolls back only its statements.
    A transaction that SQLite itself rolled back (a full disk, say) fails the batch."""
    try:
        with connection.begin_nested():
            pending.result, pending.error = pending.job(connection), None
    except BaseException as error:  # kept for its caller, told after the COMMIT
        pending.result, pending.error = None, error
    _check_open(connection)


def _alone(connection: Connection, transaction: RootTransaction, pending: _Pending[object]) -> None:
    """A batch's only write, in no SAVEPOINT (two statements fewer): what it raises
    rolls the whole transaction back, which is all it would have undone; then nothing
    is committed. A transaction SQLite itself rolled back fails the batch, as in
    :func:`_one`."""
    try:
        pending.result, pending.error = pending.job(connection), None
    except BaseException as error:  # kept for its caller, told after the ROLLBACK
        pending.result, pending.error = None, error
        if transaction.is_active:  # not already rolled back through SQLAlchemy
            _check_open(connection)
            transaction.rollback()
        return
    _check_open(connection)


def _check_open(connection: Connection) -> None:
    """The transaction still open in SQLite, or the batch fails (nothing written)."""
    if not connection.connection.driver_connection.in_transaction:  # type: ignore[union-attr]
        raise OperationalError("COMMIT", None, Exception("the transaction was rolled back"))


def unreachable(error: DBAPIError) -> bool:
    """Whether the database did not answer (its connection failed or was lost, or it
    stayed locked), rather than refusing the statement."""
    if not isinstance(error, OperationalError):
        return False
    said = str(error.orig).lower()
    return error.connection_invalidated or any(
        word in said for word in ("connect", "database is locked", "timeout", "timed out")
    )


def locked(error: DBAPIError) -> bool:
    """Whether SQLite was locked by another connection: nothing of the transaction ran."""
    return isinstance(error, OperationalError) and "database is locked" in str(error.orig).lower()


def reason(error: DBAPIError) -> str:
    """Why, in words that give nothing of the server away."""
    if "database is locked" in str(error.orig).lower():
        return "database is locked"  # another program is writing (SQLite)
    return "try again shortly"
