"""Storage: SQLAlchemy models, Alembic migrations, SQLite by default, PostgreSQL by URL.

>>> engine = connect("sqlite://")   # in memory, migrated
>>> sorted(inspect(engine).get_table_names())
['alembic_version', 'deals', 'kept_state', 'ledger', 'operator_actions', 'players',
 'round_events', 'rounds', 'shared_tables', 'transactions']
"""

from __future__ import annotations

import atexit
import contextlib
import os
import re
import threading
import time
import weakref
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event, inspect
from sqlalchemy.exc import DBAPIError, DisconnectionError
from sqlalchemy.pool import StaticPool

from riverboat.settings import settings
from riverboat.store.statements import (
    AHEAD,
    IDS,
    LATER,
    SENDS_HELD,
    Held,
    driver_sql,
    pipelined,
)

__all__ = [
    "HEAD_SCHEMA",
    "KEPT_POOL",
    "LATER",
    "PING_AFTER",
    "POOL",
    "POOL_OVERFLOW",
    "POSTGRES_TIMEOUTS",
    "connect",
    "database_url",
    "head_revision",
    "head_schema",
    "inspect",
    "migrate",
    "postgres_engine",
    "sqlite_engine",
    "upgrade",
    "write_turn",
    "writer",
]

#: the execution option that marks a connection as one that writes
WRITES = "riverboat_writes"

MIGRATIONS = Path(__file__).parent / "migrations"
#: a new SQLite database's schema at the head revision, as the migrations leave an empty
#: one (``python tools/head_schema.py`` writes it; tests/test_store.py checks it)
HEAD_SCHEMA = MIGRATIONS / "head.sqlite.sql"

#: PostgreSQL's limits on one session's waits: a row lock held longer than
#: ``lock_timeout`` (a stuck or very slow transaction) fails the statement, which the
#: service answers as "busy, try again", rather than making the caller wait for ever
POSTGRES_TIMEOUTS = {"lock_timeout": "2s", "statement_timeout": "30s"}

#: PostgreSQL connections the ledger's engine keeps open, and how many more it opens
#: at busy times (each closed as it comes back): the server's worker threads each take
#: one for a request, and two processes at their busiest stay within PostgreSQL's
#: default max_connections of 100 with the kept state's (:data:`KEPT_POOL`)
POOL, POOL_OVERFLOW = 16, 8
#: the same for the kept state's engine (riverboat.store.state), one statement a call
KEPT_POOL = (10, 6)
#: seconds unused after which a PostgreSQL connection is tried before it is handed out
PING_AFTER = 1.0

_TURNS: dict[str, threading.RLock] = {}
_TURNS_GUARD = threading.Lock()
#: the engines this process made and still holds: closed at its exit (below)
_OPEN: weakref.WeakSet[Engine] = weakref.WeakSet()


@atexit.register
def _close_open() -> None:
    """The process's engines closed as it exits, their idle connections with them: on
    SQLite the last connection's close writes the WAL into the database file and
    removes it; on PostgreSQL each backend is told goodbye, not left to find the
    socket closed. (A command ends without Python's teardown, which closed them by
    the way: riverboat.cli._process.) A database that no longer answers is no reason
    for a traceback at exit: its connections end with the process."""
    for engine in list(_OPEN):
        with contextlib.suppress(Exception):
            engine.dispose()


def database_url() -> str:
    """``RIVERBOAT_DATABASE_URL``, or an SQLite file in the user's data directory."""
    url = settings().database_url
    if url:
        return url
    from platformdirs import user_data_dir

    folder = Path(user_data_dir("riverboat"))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'riverboat.db'}"


def connect(url: str | None = None, revision: str = "head") -> Engine:
    """An engine on ``url`` (default :func:`database_url`), migrated to ``revision``.

    SQLite runs in WAL mode with foreign keys on and a busy timeout, one writer at a
    time: a transaction on :func:`writer`'s engine takes the write lock as it begins
    (``BEGIN IMMEDIATE``), any other begins deferred and, as a reader of the WAL, never
    waits for a writer; this process's writers take turns at :func:`write_turn` first.
    On PostgreSQL every call that moves a player's money first locks that player's row,
    so their calls take turns while other players' run alongside; a lock not had within
    :data:`POSTGRES_TIMEOUTS` fails rather than waits on.
    """
    url = url or database_url()
    engine = sqlite_engine(url) if url.startswith("sqlite") else postgres_engine(url)
    migrate(engine, revision)
    return engine


def postgres_engine(
    url: str,
    isolation_level: str = "READ COMMITTED",
    pool: tuple[int, int] | None = None,
    **settings: str,
) -> Engine:
    """An engine on the PostgreSQL database at ``url``, not migrated: each session with
    :data:`POSTGRES_TIMEOUTS` and ``settings`` (``synchronous_commit="off"``, say).

    Its pool keeps ``pool[0]`` connections open (default :data:`POOL`) and opens up to
    ``pool[1]`` more (:data:`POOL_OVERFLOW`) while as many are in use at once, each
    closed as it comes back. The pool of five SQLAlchemy keeps by default, beside the
    server's 40 worker threads, opened and closed a connection for most requests
    under load (a new backend process each, and the client's half of the handshake)."""
    options = " ".join(
        f"-c {name}={value}" for name, value in {**POSTGRES_TIMEOUTS, **settings}.items()
    )
    engine = create_engine(
        url,
        isolation_level=isolation_level,
        pool_size=(pool or (POOL, POOL_OVERFLOW))[0],
        max_overflow=(pool or (POOL, POOL_OVERFLOW))[1],
        # psycopg prepares none of its own: it would deallocate every prepared
        # statement of the connection's at a rollback, riverboat.store.wire's among
        # them, which prepares the statements the rounds run
        connect_args={"options": options, "prepare_threshold": None},
    )

    # A connection that sat unused for PING_AFTER seconds is tried (a round trip) before
    # it is handed out, and replaced if the database no longer answers on it (a restart,
    # a terminated backend, a dropped network): SQLAlchemy's pre-ping, but not for one
    # used a moment ago, which under load was one round trip in five. A connection that
    # fails in use is replaced with every other connection of the pool (SQLAlchemy
    # invalidates them together), and that request is refused as "try again" (503).
    @event.listens_for(engine, "checkin")
    def _used(_connection, record):  # type: ignore[no-untyped-def]
        record.info["used"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _ping(connection, record, _proxy):  # type: ignore[no-untyped-def]
        used = record.info.get("used")
        if used is None or time.monotonic() - used < PING_AFTER:
            return  # just connected, or in use a moment ago
        try:
            engine.dialect.do_ping(connection)
        except Exception as error:  # the pool drops it and connects again
            raise DisconnectionError("the connection no longer answers") from error

    if isolation_level != "AUTOCOMMIT":
        _sends_writes_together(engine)
    _OPEN.add(engine)
    return engine


def _sends_writes_together(engine: Engine) -> None:
    """On this PostgreSQL engine a transaction's round trips are fewer: a write that
    :mod:`riverboat.store.statements` holds back (:data:`LATER`: an INSERT, UPDATE or
    DELETE whose result nobody reads) is sent in one pipeline (psycopg's pipeline
    mode: one exchange with the server) with the transaction's next statement,
    whichever runs it, or with its ``COMMIT``. psycopg's own ``BEGIN`` is a round trip
    of its own (in a pipeline it waits for the answer before it sends the rest), but a
    transaction whose first statements go together sends its ``BEGIN`` with them,
    with the reads its work begins with (:data:`AHEAD`) and the ids its INSERTs will
    take (:data:`IDS`). The statements run in the order they were given, in the same
    transaction, so what any statement reads is what it read before. A held write
    that fails makes the statement or the ``COMMIT`` it went with raise (as
    SQLAlchemy's error), and the transaction commits nothing: a Tri-Card deal and
    raise took 25 round trips of the ledger's, then 14, and take 4
    (tests/test_postgres_round_trips.py). A commit or a rollback drops what is held,
    read ahead or taken ahead; the commit still waits for the disk."""
    dialect = engine.dialect
    execute, many, bare = dialect.do_execute, dialect.do_executemany, dialect.do_execute_no_params
    commit, rollback = dialect.do_commit, dialect.do_rollback

    def do_execute(cursor: Any, sql: str, parameters: Any, context: Any = None) -> None:
        _send(cursor, context, bool(parameters), lambda: execute(cursor, sql, parameters, context))

    def do_executemany(cursor: Any, sql: str, parameters: Any, context: Any = None) -> None:
        _send(cursor, context, bool(parameters), lambda: many(cursor, sql, parameters, context))

    def do_execute_no_params(cursor: Any, sql: str, context: Any = None) -> None:
        _send(cursor, context, False, lambda: bare(cursor, sql, context))

    def do_commit(connection: Any) -> None:
        info = _info(connection)
        info.pop(AHEAD, None)
        info.pop(IDS, None)
        held = info.pop(LATER, None)
        if held:
            pipelined(connection.dbapi_connection, held, commit=True)
        commit(connection)  # nothing left to commit after a pipelined COMMIT: no round trip

    def do_rollback(connection: Any) -> None:
        info = _info(connection)
        info.pop(AHEAD, None)
        info.pop(IDS, None)
        info.pop(LATER, None)
        rollback(connection)

    for method in (do_execute, do_executemany, do_execute_no_params, do_commit, do_rollback):
        setattr(dialect, method.__name__, method)
    setattr(dialect, SENDS_HELD, True)  # riverboat.store.statements may hold writes here


def _info(connection: Any) -> dict[str, Any]:
    """The pool's dictionary for one database connection (cleared when the connection is
    replaced); a dictionary of no connection's for one outside the pool (the dialect's
    first look at the server)."""
    try:
        info: dict[str, Any] = connection.info
    except NotImplementedError:
        return {}
    return info


def _send(cursor: Any, context: Any, parameters: bool, run: Callable[[], None]) -> None:
    """One statement from SQLAlchemy, sent with the writes held before it in one
    pipeline; alone, as ever, when none is held (a pipeline would save no round trip).
    A pipeline refuses a server-side cursor and several statements in one string (a
    statement without parameters may be such): before one of those the held writes
    go in a pipeline of their own."""
    info = {} if context is None else _info(context.root_connection.connection)
    info.pop(AHEAD, None)  # no read sent ahead is handed out after another statement
    held: list[Held] | None = info.pop(LATER, None)
    if not held:
        run()
    elif not parameters or getattr(context, "_is_server_side", False):
        pipelined(cursor.connection, held)
        run()
    else:
        pipelined(cursor.connection, held, then=run)


def sqlite_engine(url: str, synchronous: str = "FULL", timeout: float = 30) -> Engine:
    """An engine on the SQLite database at ``url``, not migrated: WAL mode, foreign keys,
    ``timeout`` seconds' wait for a lock, and a writer's transaction taking the write
    lock as it begins (:func:`writer`). ``synchronous`` is ``FULL`` (each commit on
    disk before it returns: the ledger's) or ``NORMAL`` (on disk at the WAL's next
    checkpoint: what a machine's crash may lose, such as a rate limit's counts)."""
    memory = url in ("sqlite://", "sqlite:///:memory:")
    engine = create_engine(
        url,
        connect_args={"timeout": timeout, "check_same_thread": False},
        poolclass=StaticPool if memory else None,
    )

    @event.listens_for(engine, "connect")
    def _sqlite_setup(connection, _record):  # type: ignore[no-untyped-def]
        cursor = connection.cursor()
        if not memory:
            cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA synchronous={synchronous}")
        cursor.close()
        connection.isolation_level = None  # transactions begin explicitly below

    @event.listens_for(engine, "begin")
    def _sqlite_begin(connection):  # type: ignore[no-untyped-def]
        writes = connection.get_execution_options().get(WRITES, False)
        driver_sql(connection, "BEGIN IMMEDIATE" if writes else "BEGIN")

    # SAVEPOINTs (group commit's, one per write) on the driver's cursor: SQLAlchemy
    # keeps its bookkeeping of them, without the cost of a compiled statement each
    for method, sql in _SAVEPOINTS.items():
        setattr(engine.dialect, method, _on_driver(sql))
    _OPEN.add(engine)
    return engine


_SAVEPOINTS = {
    "do_savepoint": "SAVEPOINT",
    "do_release_savepoint": "RELEASE SAVEPOINT",
    "do_rollback_to_savepoint": "ROLLBACK TO SAVEPOINT",
}


def _on_driver(sql: str) -> Callable[[Connection, str], None]:
    def run(connection: Connection, name: str) -> None:
        driver_sql(connection, f"{sql} {name}")

    return run


def writer(engine: Engine) -> Engine:
    """The same database, for transactions that write: on SQLite they take the write
    lock as they begin, so two writers never both read, then clash on writing."""
    return engine.execution_options(**{WRITES: True})


def write_turn(engine: Engine) -> threading.RLock | None:
    """This process's turn to write to an SQLite database: one lock per database, so
    its writers queue here and each starts the moment the one before it commits,
    instead of each polling SQLite's lock with sleeps that grow (up to 100 ms) while
    the lock sits free. None on PostgreSQL, whose writers lock only the rows they use.

    >>> write_turn(connect("sqlite://")) is not None
    True
    """
    if engine.dialect.name != "sqlite":
        return None
    database = engine.url.database
    memory = not database or database == ":memory:"
    key = f"memory:{id(engine)}" if memory else os.path.abspath(database or "")
    with _TURNS_GUARD:
        return _TURNS.setdefault(key, threading.RLock())


def _forget_turns() -> None:
    """In a child process: turns of its own (one held by a thread of the parent's at
    the fork would never be released)."""
    global _TURNS_GUARD
    _TURNS_GUARD = threading.Lock()
    _TURNS.clear()


os.register_at_fork(after_in_child=_forget_turns)


#: PostgreSQL's advisory lock that migrations take turns at (any number, riverboat's own)
MIGRATION_LOCK = 0x72697665  # "rive"


def migrate(engine: Engine, revision: str = "head") -> None:
    """Bring the schema up to an Alembic revision: by default the latest. On
    PostgreSQL without :data:`POSTGRES_TIMEOUTS`: a migration may wait for a lock and
    rewrite a table for as long as it takes.

    A database already at the latest revision costs one read, and Alembic is not even
    imported (every command opens the database: most find it up to date). Otherwise
    the migrations run in one transaction that first takes the database's turn to
    migrate: the write lock on SQLite (``BEGIN IMMEDIATE``), an advisory lock on
    PostgreSQL. Processes starting at once take turns there, and each finds the
    revision the one before it left (Alembic reads it inside that transaction), so
    the schema is migrated once.

    A new SQLite database (no table in it) is made at the head in one go instead, in
    that same write-locked transaction: the statements the migrations leave an empty
    database with (:data:`HEAD_SCHEMA`), as Rails loads its schema file rather than
    replaying every migration: about 4 ms of CPU against 33-40 for Alembic's here.
    """
    if revision == "head":
        stored = _stored_revisions(engine)
        if stored == {head_revision()}:
            return
        if stored is None and engine.dialect.name == "sqlite" and _made_at_head(engine):
            return
    upgrade(engine, revision)


def upgrade(engine: Engine, revision: str = "head") -> None:
    """The migrations up to ``revision`` run by Alembic, whatever the database holds
    (:func:`migrate` without its shortcuts)."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with writer(engine).begin() as connection:
        if engine.dialect.name == "postgresql":
            for name in POSTGRES_TIMEOUTS:  # the turn, too, is waited for as long as it takes
                connection.exec_driver_sql(f"SET LOCAL {name} = 0")
            connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
        config.attributes["connection"] = connection
        command.upgrade(config, revision)


def _made_at_head(engine: Engine) -> bool:
    """Whether :data:`HEAD_SCHEMA` made the SQLite database: False, and nothing done,
    where the file is of another head than the migrations' or the database has a table
    (another process made it meanwhile, or something else did: Alembic's turn)."""
    statements = _head_statements(head_revision())
    if not statements:
        return False
    with writer(engine).begin() as connection:
        if connection.exec_driver_sql("SELECT count(*) FROM sqlite_master").scalar():
            return False
        for statement in statements:
            connection.exec_driver_sql(statement)
    return True


@cache
def _head_statements(head: str | None) -> tuple[str, ...]:
    """:data:`HEAD_SCHEMA`'s statements if it was written at ``head``, else none."""
    try:
        lines = HEAD_SCHEMA.read_text(encoding="utf-8").splitlines(keepends=True)
    except OSError:
        return ()
    if head is None or not lines or lines[0].strip() != f"-- head: {head}":
        return ()
    return tuple(_statements("".join(lines[1:])))


def _statements(script: str) -> list[str]:
    """The SQL statements of ``script``, each whole (SQLite's own test of where one ends).

    >>> _statements("CREATE TABLE t (a TEXT DEFAULT ';');\\nINSERT INTO t VALUES (1);")
    ["CREATE TABLE t (a TEXT DEFAULT ';');", 'INSERT INTO t VALUES (1);']
    """
    import sqlite3

    found, pending = [], ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            found.append(pending.strip())
            pending = ""
    return found


def head_schema() -> str:
    """What :data:`HEAD_SCHEMA` holds: the head revision, then every statement that makes
    the schema (and rows) an empty SQLite database has once Alembic has migrated it,
    as SQLite's own dump writes them."""
    import sqlite3
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "head.db"
        engine = sqlite_engine(f"sqlite:///{path}")
        upgrade(engine)
        engine.dispose()
        with contextlib.closing(sqlite3.connect(path)) as database:
            dumped = [  # the statements alone: the replay runs in a transaction of its own
                line
                for line in database.iterdump()
                if line not in ("BEGIN TRANSACTION;", "COMMIT;") and not line.startswith("PRAGMA ")
            ]
    return f"-- head: {head_revision()}\n" + "\n".join(dumped) + "\n"


def _stored_revisions(engine: Engine) -> set[str] | None:
    """The revisions the database's ``alembic_version`` holds (one, without branches),
    read in a transaction of its own; None if it cannot be read (a new database)."""
    try:
        with engine.connect() as connection:
            rows = connection.exec_driver_sql("SELECT version_num FROM alembic_version").all()
    except DBAPIError:  # no such table yet: a new database (any other fault recurs below)
        return None
    return {str(row[0]) for row in rows}


_ASSIGNED = r"^{name}\s*(?::[^=]*)?=\s*(?:None|[\"']([^\"']+)[\"'])\s*$"


@cache
def head_revision() -> str | None:
    """The latest migration's revision id, read from the migrations' files as text
    (``revision = "..."`` and ``down_revision = "..."``) without Alembic's machinery;
    None if they are not one straight line of such plain assignments, and then
    :func:`migrate` always asks Alembic.

    >>> head_revision() is not None  # tests/test_store.py: the head Alembic finds
    True
    """
    revisions: set[str] = set()
    parents: set[str] = set()
    for path in (MIGRATIONS / "versions").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        found = re.search(_ASSIGNED.format(name="revision"), text, re.MULTILINE)
        down = re.search(_ASSIGNED.format(name="down_revision"), text, re.MULTILINE)
        if found is None or found.group(1) is None or down is None:
            return None
        revisions.add(found.group(1))
        if down.group(1) is not None:
            parents.add(down.group(1))
    heads = revisions - parents
    return heads.pop() if len(heads) == 1 and parents <= revisions else None
