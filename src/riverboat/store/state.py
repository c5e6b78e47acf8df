"""Kept state: small values with an expiry and counters over a window, where every
server process sees them and a restart keeps them.

Sessions, failed log-ins and rate-limit counts live behind :class:`StateStore`, one
small interface with three homes: the database (:class:`DatabaseStore`, the default:
the ``kept_state`` table, nothing held in memory), Redis (:class:`RedisStore`, when
``RIVERBOAT_REDIS_URL`` is set) and this process's memory (:class:`MemoryStore`, for
the command line and tests). Times are seconds since the epoch, so that processes
and restarts agree on them. On PostgreSQL every deletion is told to every process
(:mod:`riverboat.store.deletions`), so that each may keep what it read in memory.

The interface is synchronous: its callers (FastAPI's plain dependencies, the log-in
in the table service) run in worker threads, and a caller on the event loop hands
it to one (``anyio.to_thread``); Redis is reached with redis-py's blocking client,
whose pool serves every thread.

>>> clock = [100.0]
>>> store = MemoryStore(clock=lambda: clock[0])
>>> store.put("greeting", "hello", seconds=10)
>>> store.get("greeting"), store.increment("hits", seconds=1), store.increment("hits", seconds=1)
('hello', 1, 2)
>>> clock[0] = 101.0  # the window of one second is over: counting starts again
>>> store.get("greeting"), store.increment("hits", seconds=1), store.keys("gree")
('hello', 1, ['greeting'])
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, TypeVar, cast

from sqlalchemy import (
    BigInteger,
    Connection,
    Engine,
    Executable,
    Float,
    String,
    Table,
    Text,
    bindparam,
    case,
    delete,
    func,
    select,
    text,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import SQLAlchemyError

from riverboat.errors import Unavailable
from riverboat.settings import settings
from riverboat.store import (
    KEPT_POOL,
    deletions,
    postgres_engine,
    sqlite_engine,
    statements,
    write_turn,
    writer,
)
from riverboat.store.commits import grouped
from riverboat.store.models import KeptState

if TYPE_CHECKING:
    import redis

__all__ = [
    "NO_ANSWER",
    "REDIS_URL",
    "DatabaseStore",
    "MemoryStore",
    "RedisStore",
    "StateStore",
    "open_store",
]

#: the environment variable naming a Redis server for the kept state
REDIS_URL = "RIVERBOAT_REDIS_URL"
#: seconds a kept-state write on SQLite waits for the write lock before it gives up
SQLITE_WAIT = 5.0
#: writes between two sweeps of expired rows or entries
SWEEP_EVERY = 1000
Clock = Callable[[], float]
T = TypeVar("T")


#: what a store says when its home does not answer (a :class:`Unavailable`, 503 on the web)
NO_ANSWER = "the store of sessions and limits did not answer; try again shortly"


@contextmanager
def _reaching(*failures: type[Exception]) -> Iterator[None]:
    """A failure to reach the store's home, as :class:`Unavailable`: nothing changed."""
    try:
        yield
    except failures as error:
        raise Unavailable(NO_ANSWER) from error


class StateStore(Protocol):
    """Values that expire and counters over a window, shared by every process. A call
    whose home (database, Redis) does not answer raises :class:`Unavailable`
    (:data:`NO_ANSWER`): a refusal that changed nothing, 503 on the web."""

    def now(self) -> float:
        """The store's clock: seconds since the epoch."""
        ...

    def get(self, key: str) -> str | None:
        """The value put at ``key``, or None if there is none or it has expired."""
        ...

    def put(self, key: str, value: str, seconds: float) -> None:
        """Keep ``value`` at ``key`` for ``seconds``."""
        ...

    def increment(self, key: str, seconds: float, by: int = 1) -> int:
        """Add ``by`` to the counter at ``key`` and return it; a counter that is new (or
        whose window has run out) starts at ``by`` with a window of ``seconds``."""
        ...

    def increment_many(self, counts: Sequence[tuple[str, float, int]]) -> list[int]:
        """:meth:`increment` of each ``(key, seconds, by)`` (each key once), in one
        exchange with the database or Redis; their counts, in turn. A ``by`` of 0 only
        reads the count (0 where there is none): nothing is written for it."""
        ...

    def delete(self, *keys: str) -> None:
        """Forget ``keys`` (values and counters alike)."""
        ...

    def keys(self, prefix: str) -> list[str]:
        """The live keys that begin with ``prefix``."""
        ...


@dataclass
class _Entry:
    value: str | None
    count: int
    expires: float


class MemoryStore:
    """:class:`StateStore` in this process's memory: gone with the process."""

    def __init__(self, clock: Clock = time.time) -> None:
        self._clock = clock
        self._entries: dict[str, _Entry] = {}
        self._lock = threading.Lock()
        self._writes = 0

    def now(self) -> float:
        return self._clock()

    def _live(self, key: str, now: float) -> _Entry | None:
        entry = self._entries.get(key)
        return entry if entry is not None and entry.expires > now else None

    def get(self, key: str) -> str | None:
        with self._lock:
            entry = self._live(key, self.now())
            return entry.value if entry else None

    def put(self, key: str, value: str, seconds: float) -> None:
        with self._lock:
            now = self.now()
            self._entries[key] = _Entry(value, 0, now + seconds)
            self._wrote(now)

    def increment(self, key: str, seconds: float, by: int = 1) -> int:
        with self._lock:
            now = self.now()
            entry = self._live(key, now)
            if entry is None:
                entry = self._entries[key] = _Entry(None, 0, now + seconds)
            entry.count += by
            self._wrote(now)
            return entry.count

    def increment_many(self, counts: Sequence[tuple[str, float, int]]) -> list[int]:
        return [self._counted(key, seconds, by) for key, seconds, by in counts]

    def _counted(self, key: str, seconds: float, by: int) -> int:
        if by:
            return self.increment(key, seconds, by)
        with self._lock:
            entry = self._live(key, self.now())
            return entry.count if entry else 0

    def delete(self, *keys: str) -> None:
        with self._lock:
            for key in keys:
                self._entries.pop(key, None)

    def keys(self, prefix: str) -> list[str]:
        with self._lock:
            now = self.now()
            return [k for k, e in self._entries.items() if k.startswith(prefix) and e.expires > now]

    def _wrote(self, now: float) -> None:
        self._writes += 1
        if self._writes % SWEEP_EVERY == 0:
            for key in [k for k, e in self._entries.items() if e.expires <= now]:
                del self._entries[key]


class DatabaseStore:
    """:class:`StateStore` in the database's ``kept_state`` table; each call one short
    transaction, nothing kept in memory.

    Its writes do not wait for the disk: on PostgreSQL the store has an engine of its
    own whose sessions commit asynchronously (``synchronous_commit`` off) and run each
    statement as a transaction of its own (autocommit: every call is one statement, an
    upsert counting atomically, so one round trip with no ``BEGIN``, ``SET`` or
    ``COMMIT`` beside it); an SQLite file is reached through an engine of the store's
    own whose connections sync at the WAL's checkpoints (``synchronous=NORMAL``) and
    wait up to :data:`SQLITE_WAIT` seconds for the write lock. A crash of the machine may lose the
    last moment's counts and sessions; money keeps its own durable transactions."""

    def __init__(self, engine: Engine, clock: Clock = time.time) -> None:
        url = engine.url.render_as_string(hide_password=False)
        if engine.dialect.name == "sqlite" and engine.url.database not in (None, "", ":memory:"):
            engine = sqlite_engine(url, synchronous="NORMAL", timeout=SQLITE_WAIT)
        elif engine.dialect.name == "postgresql":  # each call one statement, committed as run
            engine = postgres_engine(url, "AUTOCOMMIT", KEPT_POOL, synchronous_commit="off")
        self._engine, self._writer, self._clock = engine, writer(engine), clock
        self._writes = 0
        self._statements = _Statements(engine.dialect.name)

    def now(self) -> float:
        return self._clock()

    def get(self, key: str) -> str | None:
        with _reaching(SQLAlchemyError), self._engine.connect() as connection:
            found = statements.rows(connection, self._statements.get, {"k": key, "now": self.now()})
        return None if not found else cast(str | None, found[0][0])

    def put(self, key: str, value: str, seconds: float) -> None:
        now = self.now()
        self._write(self._statements.put, {"k": key, "v": value, "until": now + seconds}, now)

    def increment(self, key: str, seconds: float, by: int = 1) -> int:
        now = self.now()
        parameters = {"k": key, "by": by, "now": now, "until": now + seconds}
        count = self._write(self._statements.increment, parameters, now, counted=True)
        assert count is not None  # RETURNING count
        return count

    def increment_many(self, counts: Sequence[tuple[str, float, int]]) -> list[int]:
        """On PostgreSQL one statement, an upsert of every key's row from one JSON text
        (the same statement whatever the number of keys); on SQLite the upserts in
        turn, in one transaction."""
        if not counts:
            return []
        now = self.now()
        if self._statements.increment_many is None:
            increment, read = self._statements.increment, self._statements.count

            def each(connection: Connection) -> list[int]:
                found = []
                for key, seconds, by in counts:
                    row = {"k": key, "by": by, "now": now, "until": now + seconds}
                    answer = statements.rows(connection, increment if by else read, row)
                    found.append(int(answer[0][0]) if answer else 0)
                return found

            return self._writing(each, now)
        rows = [{"key": k, "count": by, "expires": now + seconds} for k, seconds, by in counts]
        parameters = {"counts": json.dumps(rows), "now": now}
        many = self._statements.increment_many

        def together(connection: Connection) -> list[int]:
            found = {
                str(row[0]): int(row[1]) for row in statements.rows(connection, many, parameters)
            }
            return [found.get(key, 0) for key, _, _ in counts]

        return self._writing(together, now)

    def delete(self, *keys: str) -> None:
        """Forget ``keys``; on PostgreSQL every process's :meth:`listener` hears of it,
        in the same statement (told if, and when, the deletion commits)."""
        if not keys:
            return
        gone = delete(KeptState).where(KeptState.key.in_(keys))
        statement: Executable = gone
        if self._engine.dialect.name == "postgresql":
            told = func.pg_notify(deletions.CHANNEL, deletions.payload(keys))
            statement = select(told).add_cte(gone.cte("gone"))
        self._run(lambda connection: connection.execute(statement))

    def listener(self, heard: deletions.Heard) -> deletions.Listener | None:
        """On PostgreSQL, a :class:`~riverboat.store.deletions.Listener` that hands
        ``heard`` the keys any process deletes (not started); None on SQLite, which
        one process serves."""
        if self._engine.dialect.name != "postgresql":
            return None
        url = self._engine.url.set(drivername="postgresql")
        return deletions.Listener(url.render_as_string(hide_password=False), heard)

    def keys(self, prefix: str) -> list[str]:
        with _reaching(SQLAlchemyError), self._engine.connect() as connection:
            found = connection.execute(
                select(KeptState.key).where(
                    KeptState.key.startswith(prefix, autoescape=True),
                    KeptState.expires > self.now(),
                )
            )
            return [key for (key,) in found]

    def _run(self, job: Callable[[Connection], T]) -> T:
        """``job`` in a writing transaction committed without waiting for the disk; on
        SQLite in a group commit of the store's engine (:mod:`riverboat.store.commits`),
        which takes its turn among this process's writers, so it does not poll the lock
        the ledger's writers hand to each other."""
        group = grouped(self._engine)
        with _reaching(SQLAlchemyError, Unavailable):
            if group is not None:
                return group.run(job, wait=SQLITE_WAIT)
            turn = write_turn(self._engine)
            with turn if turn is not None else nullcontext(), self._writer.begin() as connection:
                return job(connection)

    def _write(
        self,
        statement: Executable,
        parameters: dict[str, object],
        now: float,
        counted: bool = False,
    ) -> int | None:
        """Run ``statement`` with ``parameters`` (on the driver's cursor:
        :mod:`riverboat.store.statements`); with ``counted``, the count it returns."""

        def run(connection: Connection) -> int | None:
            if counted:
                return int(statements.rows(connection, statement, parameters)[0][0])
            statements.write(connection, statement, parameters)
            return None

        return self._writing(run, now)

    def _writing(self, run: Callable[[Connection], T], now: float) -> T:
        """``run`` in a writing transaction (:meth:`_run`); now and then, expired rows
        deleted after it, a few at a time."""

        def job(connection: Connection) -> T:
            value = run(connection)
            self._writes += 1
            if self._writes % SWEEP_EVERY == 0:
                connection.execute(delete(KeptState).where(KeptState.expires <= now))
            return value

        return self._run(job)


class _Statements:
    """:class:`DatabaseStore`'s statements on one dialect, built once with their values
    as parameters: a call runs one from SQLAlchemy's cache of compiled statements
    instead of building and compiling an upsert again (on PostgreSQL a rate limit's
    count did so for every request: about a sixth of the server's time holding the
    GIL at 64 players, py-spy, ``docs/benchmarks.md``)."""

    def __init__(self, dialect: str) -> None:
        table = cast(Table, KeptState.__table__)
        c = table.c
        key = bindparam("k", type_=String)
        now, until = bindparam("now", type_=Float), bindparam("until", type_=Float)
        self.get: Executable = select(c.value).where(c.key == key, c.expires > now)
        self.count: Executable = select(c.count).where(c.key == key, c.expires > now)
        insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
        value = bindparam("v", type_=Text)
        put = insert(table).values(key=key, value=value, count=0, expires=until)
        self.put: Executable = put.on_conflict_do_update(
            index_elements=[c.key], set_={"value": value, "count": 0, "expires": until}
        )
        by, over = bindparam("by", type_=BigInteger), c.expires <= now
        counted = insert(table).values(key=key, value=None, count=by, expires=until)
        self.increment: Executable = counted.on_conflict_do_update(
            index_elements=[c.key],
            set_={
                "count": case((over, by), else_=c.count + by),
                "expires": case((over, until), else_=c.expires),
                "value": case((over, None), else_=c.value),
            },
        ).returning(c.count)
        #: many keys' counts in one statement, from one JSON text (PostgreSQL's
        #: json_to_recordset; on SQLite None: each counted in turn)
        self.increment_many: Executable | None = None
        if dialect == "postgresql":
            self.increment_many = text(_INCREMENT_MANY)


#: :meth:`DatabaseStore.increment_many` on PostgreSQL: each key counted (``by`` not 0)
#: has its row counted as :meth:`StateStore.increment` counts one, and each key read
#: (``by`` 0) its count read, every key in one statement; the keys come as one JSON
#: text (with arrays, psycopg's dumpers of lists, in Python, took most of the time: a
#: sharing of 5 clients cost 264 µs of CPU against 130, a scratch measurement)
_INCREMENT_MANY = """
WITH asked AS (
    SELECT key, count, expires
    FROM json_to_recordset(CAST(:counts AS JSON)) AS asked (key TEXT, count BIGINT, expires FLOAT8)
), counted AS (
    INSERT INTO kept_state (key, value, count, expires)
    SELECT key, NULL, count, expires FROM asked WHERE count <> 0
    ON CONFLICT (key) DO UPDATE SET
        count = CASE WHEN kept_state.expires <= :now THEN excluded.count
            ELSE kept_state.count + excluded.count END,
        expires = CASE WHEN kept_state.expires <= :now THEN excluded.expires
            ELSE kept_state.expires END,
        value = CASE WHEN kept_state.expires <= :now THEN NULL ELSE kept_state.value END
    RETURNING key, count
)
SELECT key, count FROM counted
UNION ALL
SELECT kept_state.key, kept_state.count FROM kept_state JOIN asked USING (key)
WHERE asked.count = 0 AND kept_state.expires > :now
"""


class RedisStore:
    """:class:`StateStore` in Redis: keys under ``prefix``, expiry by Redis itself."""

    def __init__(self, url: str, prefix: str = "riverboat:") -> None:
        import redis as redis_module

        self.client: redis.Redis = redis_module.Redis.from_url(
            url, decode_responses=True, socket_timeout=2.0, socket_connect_timeout=2.0
        )
        self.prefix = prefix
        self._failures = (redis_module.RedisError,)

    def now(self) -> float:
        return time.time()

    def get(self, key: str) -> str | None:
        with _reaching(*self._failures):
            value = self.client.get(self.prefix + key)
        return None if value is None else str(value)

    def put(self, key: str, value: str, seconds: float) -> None:
        with _reaching(*self._failures):
            self.client.set(self.prefix + key, value, px=_milliseconds(seconds))

    def increment(self, key: str, seconds: float, by: int = 1) -> int:
        with _reaching(*self._failures), self.client.pipeline(transaction=True) as pipe:
            pipe.set(self.prefix + key, 0, px=_milliseconds(seconds), nx=True)
            pipe.incrby(self.prefix + key, by)  # in MULTI: both or neither
            _, count = pipe.execute()
        return int(count)

    def increment_many(self, counts: Sequence[tuple[str, float, int]]) -> list[int]:
        if not counts:
            return []
        with _reaching(*self._failures), self.client.pipeline(transaction=True) as pipe:
            for key, seconds, by in counts:
                if by:
                    pipe.set(self.prefix + key, 0, px=_milliseconds(seconds), nx=True)
                    pipe.incrby(self.prefix + key, by)
                else:  # read alone; the pipeline's answers stay two a key
                    pipe.get(self.prefix + key)
                    pipe.get(self.prefix + key)
            answers = pipe.execute()
        return [int(count or 0) for count in answers[1::2]]

    def delete(self, *keys: str) -> None:
        if keys:
            with _reaching(*self._failures):
                self.client.delete(*(self.prefix + key for key in keys))

    def keys(self, prefix: str) -> list[str]:
        start = len(self.prefix)
        pattern = _glob_escape(self.prefix + prefix) + "*"
        with _reaching(*self._failures):
            return [key[start:] for key in self.client.scan_iter(match=pattern, count=500)]


def _milliseconds(seconds: float) -> int:
    return max(int(seconds * 1000), 1)


def _glob_escape(text: str) -> str:
    r"""``text`` matched literally in a Redis pattern.

    >>> _glob_escape("a*b[1]")
    'a\\*b\\[1\\]'
    """
    return "".join("\\" + c if c in "*?[]\\" else c for c in text)


def open_store(
    engine: Engine, redis_url: str | None = None, prefix: str = "riverboat:"
) -> StateStore:
    """Redis at ``redis_url`` (default ``RIVERBOAT_REDIS_URL``) if one is named, its
    keys beginning with ``prefix`` (one deployment's, beside others on one Redis), else
    the database behind ``engine``."""
    url = redis_url or settings().redis_url
    if url:
        return RedisStore(url, prefix)
    return DatabaseStore(engine)
