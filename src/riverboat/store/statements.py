"""Core statements built once and run straight on the driver's cursor.

SQLAlchemy runs a cached Core statement for about 25 µs of CPU on SQLite (its cache
look-up, parameters, events and result) and 70 µs on PostgreSQL; the driver's cursor
itself for about 2 on SQLite and 20 on PostgreSQL (psycopg's, which this module no
longer uses for them: :mod:`riverboat.store.wire`). A round runs some 20 such
statements on its thread, whose CPU bounds the rounds per second
(``docs/benchmarks.md``). So :func:`rows`, :func:`insert` and :func:`write` compile
each statement once per set of parameter names (its SQL, its parameters, their bind
processors, the Python-side defaults that SQLAlchemy fills in: ``created_at``,
``updated_at``) and run it on the connection's own driver connection, inside the
transaction SQLAlchemy began, with the same values SQLAlchemy would have sent and
its errors raised as SQLAlchemy's (``IntegrityError`` and so on; on PostgreSQL a
connection lost is invalidated, as SQLAlchemy does).

On PostgreSQL a write is held (:data:`LATER`) and sent in one pipeline with the
transaction's next statement or its ``COMMIT`` (:func:`pipelined`; the engine's side
of it is ``riverboat.store._sends_writes_together``), on psycopg's libpq connection
rather than its cursor (:mod:`riverboat.store.wire`). An INSERT that opens a
transaction may take the reads its work begins with along (:func:`insert`'s
``ahead``): one pipeline, whose rows :func:`rows` hands out when they are asked for
(:data:`AHEAD`).

>>> import sqlalchemy as sa
>>> from riverboat.store import connect
>>> from riverboat.store.models import KeptState
>>> engine = connect("sqlite://")
>>> with engine.begin() as connection:
...     write(connection, sa.insert(KeptState), {"key": "k", "count": 2, "expires": 1.0})
...     rows(connection, sa.select(KeptState.key, KeptState.count), {})
[('k', 2)]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeAlias, cast

from sqlalchemy import Connection, Executable, func, select
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql.compiler import SQLCompiler

from riverboat.store import wire

__all__ = [
    "AHEAD",
    "IDS",
    "LATER",
    "Held",
    "Parameters",
    "Read",
    "driver_sql",
    "insert",
    "next_id",
    "pipelined",
    "rows",
    "write",
]

#: where a pool connection keeps the writes held for the transaction's next statement
#: or its COMMIT (on PostgreSQL: :func:`write`), in its ``info``
LATER = "riverboat_later"
#: where a pool connection keeps the rows of the reads sent ahead with a transaction's
#: opening INSERT (:func:`insert`), by statement and parameters, in its ``info``, until
#: :func:`rows` is asked for them; all dropped by any other statement (this module's
#: or SQLAlchemy's, a SAVEPOINT's included) and at the transaction's end, so that a
#: read handed out is one that nothing ran between it and its place
AHEAD = "riverboat_ahead"
#: where a pool connection keeps the ids taken ahead from tables' sequences
#: (:func:`next_id`), by table, until an INSERT into that table in the same
#: transaction takes one (:func:`insert`), in its ``info``; dropped at the end
IDS = "riverboat_ids"
#: the mark of a dialect whose engine sends held writes (riverboat.store's PostgreSQL
#: engines): on any other a write runs at once, for nothing else would send it
SENDS_HELD = "riverboat_sends_held"
#: one row's parameters, by name, as the driver takes them
Parameters: TypeAlias = Mapping[str, object]
#: SQLAlchemy's conversion of one value to or from the driver's form
Processor: TypeAlias = Callable[[object], object] | None
#: a write held back (:data:`LATER`): its SQL, its parameters, whether one row's or many
Held: TypeAlias = tuple[str, Any, bool]
#: a SELECT (built once) and its parameters: a read sent ahead (:func:`insert`)
Read: TypeAlias = tuple[Executable, Parameters]


class _Compiled:
    """A statement compiled for one dialect with one set of parameter names; as a
    ``write``, an INSERT without ``RETURNING`` (nobody reads what it would return)."""

    def __init__(
        self, statement: Executable, dialect: Dialect, names: Sequence[str], write: bool
    ) -> None:
        compiled = statement.compile(  # type: ignore[attr-defined]
            dialect=dialect, column_keys=list(names), for_executemany=write
        )
        assert isinstance(compiled, SQLCompiler)
        #: SQLite's parameters are positional, PostgreSQL's (psycopg's) named
        self.named = compiled.positiontup is None
        self.sql = compiled.string
        processors: Mapping[str, Any] = compiled._bind_processors  # SQLAlchemy's own
        #: the values bound in the statement itself (``rounds_dealt + 1``'s 1)
        self.fixed = {
            name: bind.effective_value
            for bind, name in compiled.bind_names.items()
            if not bind.required
        }
        order = compiled.positiontup or dict.fromkeys(compiled.bind_names.values())
        self.binds: list[tuple[str, Processor]] = [(name, processors.get(name)) for name in order]
        #: the columns whose Python-side default (insert) or onupdate (update) is filled
        self.defaults: list[tuple[str, Callable[[], object]]] = [
            (column.key, _default(column.default)) for column in compiled.insert_prefetch
        ] + [(column.key, _default(column.onupdate)) for column in compiled.update_prefetch]
        self.results: list[Processor] = [
            entry[3]._cached_result_processor(dialect, None) for entry in compiled._result_columns
        ]
        self.processed = any(self.results)

    def values(self, parameters: Parameters) -> Any:
        """The driver's parameters for one row of ``parameters``: a tuple in order
        (SQLite), or a dict by name (PostgreSQL)."""
        given = parameters
        if self.fixed or self.defaults:
            given = {**self.fixed, **parameters, **{key: make() for key, make in self.defaults}}
        if self.named:
            return {
                name: given[name] if process is None else process(given[name])
                for name, process in self.binds
            }
        return tuple(
            given[name] if process is None else process(given[name]) for name, process in self.binds
        )


def _default(default: Any) -> Callable[[], object]:  # a SQLAlchemy ColumnDefault
    """A column default SQLAlchemy fills in on the client: a constant or a callable."""
    if default is None or not (default.is_scalar or default.is_callable):
        raise TypeError(f"a default run on the server: {default!r}")
    if default.is_scalar:
        value = default.arg
        return lambda: value
    function = default.arg
    return lambda: function(None)


#: each statement's compiled forms, by dialect, parameter names and use
_COMPILED: dict[tuple[int, str, tuple[str, ...], bool], tuple[Executable, _Compiled]] = {}


def _compiled(
    connection: Connection, statement: Executable, names: tuple[str, ...], write: bool = False
) -> _Compiled:
    dialect = connection.dialect
    key = (id(statement), dialect.name, names, write)
    found = _COMPILED.get(key)
    if found is None or found[0] is not statement:  # kept with it: its id is never reused
        found = _COMPILED[key] = (statement, _Compiled(statement, dialect, names, write))
    return found[1]


def driver_sql(connection: Connection, sql: str, parameters: Sequence[object] = ()) -> Any:
    """``sql`` on the connection's own ``sqlite3`` connection, in its transaction: the
    driver's cursor; its errors raised as SQLAlchemy's."""
    driver = connection.connection.driver_connection
    assert driver is not None
    try:
        return driver.execute(sql, parameters)
    except connection.dialect.loaded_dbapi.Error as error:
        raise _wrapped(connection, sql, parameters, error) from error


def _wrapped(
    connection: Connection, sql: str, parameters: Any, error: Exception, lost: bool = False
) -> Exception:
    dbapi = connection.dialect.loaded_dbapi
    return DBAPIError.instance(
        sql, parameters, error, dbapi.Error, connection_invalidated=lost, dialect=connection.dialect
    )


def rows(
    connection: Connection, statement: Executable, parameters: Parameters
) -> Sequence[Sequence[Any]]:
    """The rows a SELECT gives, each a tuple of its columns' values: those it gave when
    it was sent ahead (:func:`insert`), if it was and no other statement has run
    since but reads sent with it."""
    _begun(connection)
    compiled = _compiled(connection, statement, tuple(parameters))
    if not compiled.named:  # SQLite: nothing is sent ahead
        found = driver_sql(connection, compiled.sql, compiled.values(parameters)).fetchall()
        return _processed(compiled, found)
    ahead: dict[tuple[int, tuple[Any, ...]], list[Any]] | None = connection.connection.info.get(
        AHEAD
    )
    found = None if ahead is None else ahead.pop(_read_key(statement, parameters), None)
    if found is None:  # not sent ahead: it runs, and what was sent ahead is dropped
        connection.connection.info.pop(AHEAD, None)
        found = _postgres(connection, compiled.sql, compiled.values(parameters))
    return _processed(compiled, found)


def _processed(compiled: _Compiled, found: list[Any]) -> Sequence[Sequence[Any]]:
    """A SELECT's rows as the driver gave them, with SQLAlchemy's result processing."""
    if not compiled.processed:
        return found
    return [
        tuple(value if process is None else process(value)
              for process, value in zip(compiled.results, row, strict=True))
        for row in found
    ]  # fmt: skip


def _read_key(statement: Executable, parameters: Parameters) -> tuple[int, tuple[Any, ...]]:
    """What finds a read sent ahead again: its statement (built once) and parameters
    (each a value that can be hashed: a number, a string)."""
    return id(statement), tuple(sorted(parameters.items()))


#: each table's read of its sequence's next id (:func:`next_id`), and the table it is
#: for, by the read's id
_NEXT_IDS: dict[str, Read] = {}
_ID_TABLES: dict[int, str] = {}


def next_id(table: str) -> Read:
    """A read of the next id of the table named ``table`` (its sequence's ``nextval``,
    on PostgreSQL), to send ahead with a transaction's first INSERT (:func:`insert`):
    an INSERT into the table later in the transaction takes it, and is then held for
    the next statement or the ``COMMIT`` like any write, instead of waiting for its
    ``RETURNING id``. An id taken and not used is a gap in the sequence, as a
    rolled-back INSERT leaves.

    >>> next_id("rounds")[0] is next_id("rounds")[0]
    True
    """
    read = _NEXT_IDS.get(table)
    if read is None:
        sequence = func.pg_get_serial_sequence(table, "id")
        read = _NEXT_IDS[table] = (select(func.nextval(sequence)), {})
        _ID_TABLES[id(read[0])] = table
    return read


def insert(
    connection: Connection, statement: Executable, values: Parameters, ahead: Sequence[Read] = ()
) -> int:
    """The id of the row an INSERT adds with ``values`` (a table keyed by an integer
    ``id``). On PostgreSQL the reads ``ahead`` are sent after it in the same pipeline
    (with the transaction's ``BEGIN`` first, if it has not begun), and their rows kept
    (:data:`AHEAD`) for :func:`rows` to hand out when asked for them, if no other
    statement runs between: the reads a transaction's work begins with, sent with its
    opening INSERT, take no round trip of their own. They run where they would have
    run, after the INSERT and one after another (a lock taken by one is held for the
    next); elsewhere (SQLite, an engine of SQLAlchemy's own, a SAVEPOINT) each runs
    when asked for. An INSERT into a table whose id was taken ahead (:func:`next_id`)
    uses it, and is held as a write."""
    _begun(connection)
    compiled = _compiled(connection, statement, tuple(values))
    if not compiled.named:
        return int(driver_sql(connection, compiled.sql, compiled.values(values)).lastrowid)
    info = connection.connection.info
    taken = info.get(IDS, {}).pop(statement.table.name, None)  # type: ignore[attr-defined]
    if taken is not None:
        write(connection, statement, {**values, "id": taken})
        return int(taken)
    info.pop(AHEAD, None)
    if not _holds(connection):  # no engine's end of a transaction would drop them
        ahead = ()
    if not ahead:  # INSERT ... RETURNING id
        return int(_postgres(connection, compiled.sql, compiled.values(values))[0][0])
    reads = [_compiled(connection, read, tuple(given)) for read, given in ahead]
    sent = [(compiled.sql, compiled.values(values))] + [
        (read.sql, read.values(given)) for read, (_, given) in zip(reads, ahead, strict=True)
    ]
    new, *found = _postgres_together(connection, sent)
    info[AHEAD] = {}
    for (read, given), rows in zip(ahead, found, strict=True):
        table = _ID_TABLES.get(id(read))
        if table is None:
            info[AHEAD][_read_key(read, given)] = rows
        else:
            info.setdefault(IDS, {})[table] = rows[0][0]
    return int(new[0][0])


def write(
    connection: Connection,
    statement: Executable,
    parameters: Parameters | Sequence[Parameters],
) -> None:
    """An INSERT, UPDATE or DELETE with one row's ``parameters``, or a list of them:
    one statement, many rows, all with the same names (none: nothing runs). On
    PostgreSQL it is sent with the transaction's next statement or its ``COMMIT``
    (:data:`LATER`), whose error it would then be."""
    many = type(parameters) is list
    if many and not parameters:
        return
    _begun(connection)
    if connection.dialect.name != "sqlite":
        connection.connection.info.pop(AHEAD, None)
        _postgres_write(connection, statement, parameters, many)
        return
    if not many:
        assert isinstance(parameters, Mapping)
        compiled = _compiled(connection, statement, tuple(parameters))
        driver_sql(connection, compiled.sql, compiled.values(parameters))
        return
    assert isinstance(parameters, list)
    compiled = _compiled(connection, statement, tuple(parameters[0]))
    values = [compiled.values(row) for row in parameters]
    driver = connection.connection.driver_connection
    assert driver is not None
    try:
        driver.executemany(compiled.sql, values)
    except connection.dialect.loaded_dbapi.Error as error:
        raise _wrapped(connection, compiled.sql, values, error) from error


def _holds(connection: Connection) -> bool:
    """Whether a transaction on ``connection`` may keep what goes later or was sent
    ahead (writes held, reads ahead, ids): on an engine whose commit sends the held
    writes and whose commit and rollback drop the rest (riverboat.store's PostgreSQL
    engines), outside a SAVEPOINT."""
    return (
        getattr(connection.dialect, SENDS_HELD, False)
        and connection.get_nested_transaction() is None
    )


def _postgres_write(
    connection: Connection,
    statement: Executable,
    parameters: Parameters | Sequence[Parameters],
    many: bool,
) -> None:
    """:func:`write` on PostgreSQL: held (:data:`LATER`) for the transaction's next
    statement or its ``COMMIT``; run now inside a SAVEPOINT (so that what it refuses
    rolls back the SAVEPOINT, not the transaction) or outside a transaction."""
    rows = cast(list[Parameters], parameters if many else [parameters])
    compiled = _compiled(connection, statement, tuple(rows[0]), write=True)
    values = [compiled.values(row) for row in rows] if many else compiled.values(rows[0])
    driver = connection.connection.driver_connection
    if _holds(connection) and not driver.autocommit:  # type: ignore[union-attr]
        connection.connection.info.setdefault(LATER, []).append((compiled.sql, values, many))
        return
    _postgres(connection, compiled.sql, values, fetch=False, many=many)


def _postgres(
    connection: Connection, sql: str, values: Any, fetch: bool = True, many: bool = False
) -> list[Any]:
    """``sql`` on the connection's psycopg connection, in its transaction, after the
    writes held for it (in one pipeline with them); its rows if ``fetch``. An error is
    raised as SQLAlchemy's, and a connection that no longer answers is invalidated
    (the pool replaces it), as SQLAlchemy's own execution does."""
    return _postgres_together(connection, [(sql, values)], fetch, many)[0]


def _postgres_together(
    connection: Connection, sent: list[tuple[str, Any]], fetch: bool = True, many: bool = False
) -> list[list[Any]]:
    """Statements on the connection's psycopg connection, in its transaction (its
    ``BEGIN`` first, if it has not begun), after the writes held for them, in one
    pipeline (:func:`riverboat.store.wire.exchange`): each one's rows. Errors as
    :func:`_postgres` raises them."""
    driver: Any = connection.connection.driver_connection
    together = _opened(driver, connection.connection.info.pop(LATER, None) or [])
    together += [(sql, values, many, fetch) for sql, values in sent]
    try:
        return wire.exchange(driver, together)[len(together) - len(sent) :]
    except connection.dialect.loaded_dbapi.Error as error:
        raise _raised(connection, driver, error, sent[0]) from error


def _opened(driver: Any, held: list[Held]) -> list[wire.Statement]:
    """What goes first in a pipeline on ``driver``: the transaction's ``BEGIN``, if it
    has not begun (:func:`_begin`), then the writes ``held`` for it."""
    begin = _begin(driver)
    opened: list[wire.Statement] = [(begin, {}, False, False)] if begin else []
    return opened + [(sql, values, many, False) for sql, values, many in held]


def _raised(
    connection: Connection,
    driver: Any,
    error: Any,
    sent: tuple[str, Any],
) -> Exception:
    """The driver's ``error`` as SQLAlchemy's, for the statement ``sent`` (its SQL, its
    parameters); a connection that no longer answers invalidated, as SQLAlchemy's own
    execution does: the pool's other connections, then this one."""
    lost = connection.dialect.is_disconnect(error, driver, None)
    if lost:
        connection.engine.pool._invalidate(connection.connection, error)
        connection.invalidate(error)
    return _wrapped(connection, sent[0], sent[1], error, lost)


def _begin(driver: Any) -> str | None:
    """The ``BEGIN`` psycopg would send before the next statement, if it would send
    one (no transaction open, not in autocommit), for the caller to send in its
    pipeline instead: psycopg sends its own alone and waits for the answer. Once it
    is sent, psycopg sees the transaction open (libpq's status) and sends none."""
    if driver.autocommit or driver.info.transaction_status != 0:  # 0: psycopg's IDLE
        return None
    parts = ["BEGIN"]
    if driver.isolation_level is not None:
        parts.append(f"ISOLATION LEVEL {driver.isolation_level.name.replace('_', ' ')}")
    if driver.read_only is not None:
        parts.append("READ ONLY" if driver.read_only else "READ WRITE")
    if driver.deferrable is not None:
        parts.append("DEFERRABLE" if driver.deferrable else "NOT DEFERRABLE")
    return " ".join(parts)


def _begun(connection: Connection) -> None:
    """SQLAlchemy's transaction begun on ``connection``, as its own execution begins one,
    so that its ``commit()`` commits, and its rollback undoes, what runs on the driver
    (on SQLite the engine's ``begin`` sends ``BEGIN``; psycopg begins the database's
    transaction itself at the first statement)."""
    if not connection.in_transaction():
        connection.begin()


def pipelined(
    driver: Any, held: list[Held], then: Callable[[], object] | None = None, commit: bool = False
) -> None:
    """``held`` writes, then ``then`` (a statement on a cursor of ``driver``'s: in
    psycopg's pipeline) or ``COMMIT``, if either is given, in one pipeline: sent
    together, their results read back at its end, where the first error among them is
    raised."""
    if then is None:
        sent = _opened(driver, held)
        wire.exchange(driver, [*sent, ("COMMIT", {}, False, False)] if commit else sent)
        return
    cursor = driver.cursor()
    try:
        with driver.pipeline():
            for sql, parameters, many in held:
                if many:
                    cursor.executemany(sql, parameters)
                else:
                    cursor.execute(sql, parameters)
            then()
    finally:
        cursor.close()
