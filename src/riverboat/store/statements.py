"""Core statements built once and, on SQLite, run straight on the driver's cursor.

SQLAlchemy runs a cached Core statement on SQLite for about 25 µs of CPU (its cache
look-up, parameters, events and result); the ``sqlite3`` cursor itself for about 2.
A round runs some 20 such statements on the writing thread, whose CPU bounds the
rounds per second (``docs/benchmarks.md``). So on SQLite :func:`rows`, :func:`insert`
and :func:`write` compile each statement once per set of parameter names (its SQL,
the order of its parameters, their bind processors, the Python-side defaults that
SQLAlchemy fills in: ``created_at``, ``updated_at``) and run it on the connection's
own driver connection, inside the transaction SQLAlchemy began, with the same values
SQLAlchemy would have sent and its errors raised as SQLAlchemy's (``IntegrityError``
and so on). On any other database (PostgreSQL) they run as SQLAlchemy runs them.

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
from typing import Any, TypeAlias

from sqlalchemy import Connection, Executable
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql.compiler import SQLCompiler

__all__ = ["LATER", "Parameters", "driver_sql", "insert", "rows", "write"]

#: the execution option of a write whose result nobody reads: on PostgreSQL it is sent
#: with the transaction's next statement or its COMMIT (riverboat.store's engines)
LATER = "riverboat_later"
_LATER = {LATER: True}
#: one row's parameters, by name, as the driver takes them
Parameters: TypeAlias = Mapping[str, object]
#: SQLAlchemy's conversion of one value to or from the driver's form
Processor: TypeAlias = Callable[[object], object] | None


class _Compiled:
    """A statement compiled for SQLite with one set of parameter names."""

    def __init__(self, statement: Executable, dialect: Dialect, names: Sequence[str]) -> None:
        compiled = statement.compile(dialect=dialect, column_keys=list(names))  # type: ignore[attr-defined]
        assert isinstance(compiled, SQLCompiler)
        assert compiled.positiontup is not None  # SQLite's parameters are positional
        self.sql = compiled.string
        self.insert = compiled.isinsert
        processors: Mapping[str, Any] = compiled._bind_processors  # SQLAlchemy's own
        #: the values bound in the statement itself (``rounds_dealt + 1``'s 1)
        self.fixed = {
            name: bind.effective_value
            for bind, name in compiled.bind_names.items()
            if not bind.required
        }
        self.binds: list[tuple[str, Processor]] = [
            (name, processors.get(name)) for name in compiled.positiontup
        ]
        #: the columns whose Python-side default (insert) or onupdate (update) is filled
        self.defaults: list[tuple[str, Callable[[], object]]] = [
            (column.key, _default(column.default)) for column in compiled.insert_prefetch
        ] + [(column.key, _default(column.onupdate)) for column in compiled.update_prefetch]
        self.results: list[Processor] = [
            entry[3]._cached_result_processor(dialect, None) for entry in compiled._result_columns
        ]
        self.processed = any(self.results)

    def values(self, parameters: Parameters) -> tuple[object, ...]:
        """The driver's positional parameters for one row of ``parameters``."""
        given = parameters
        if self.fixed or self.defaults:
            given = {**self.fixed, **parameters, **{key: make() for key, make in self.defaults}}
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


#: each statement's compiled forms, by its parameter names
_COMPILED: dict[tuple[int, tuple[str, ...]], tuple[Executable, _Compiled]] = {}


def _compiled(connection: Connection, statement: Executable, names: tuple[str, ...]) -> _Compiled:
    key = (id(statement), names)
    found = _COMPILED.get(key)
    if found is None or found[0] is not statement:  # kept with it: its id is never reused
        found = _COMPILED[key] = (statement, _Compiled(statement, connection.dialect, names))
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
    connection: Connection, sql: str, parameters: Sequence[object], error: Exception
) -> Exception:
    dbapi = connection.dialect.loaded_dbapi
    return DBAPIError.instance(sql, parameters, error, dbapi.Error, dialect=connection.dialect)


def rows(
    connection: Connection, statement: Executable, parameters: Parameters
) -> Sequence[Sequence[Any]]:
    """The rows a SELECT gives, each a tuple of its columns' values."""
    if connection.dialect.name != "sqlite":
        return connection.execute(statement, parameters).all()
    compiled = _compiled(connection, statement, tuple(parameters))
    found = driver_sql(connection, compiled.sql, compiled.values(parameters)).fetchall()
    if not compiled.processed:
        return found  # type: ignore[no-any-return]
    return [
        tuple(value if process is None else process(value)
              for process, value in zip(compiled.results, row, strict=True))
        for row in found
    ]  # fmt: skip


def insert(connection: Connection, statement: Executable, values: Parameters) -> int:
    """The id of the row an INSERT adds with ``values`` (a table keyed by an integer
    ``id``)."""
    if connection.dialect.name != "sqlite":
        found = connection.execute(statement, values).inserted_primary_key
        assert found is not None
        return int(found[0])
    compiled = _compiled(connection, statement, tuple(values))
    return int(driver_sql(connection, compiled.sql, compiled.values(values)).lastrowid)


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
    if connection.dialect.name != "sqlite":  # sent with the next statement or the commit
        connection.execute(statement, parameters, execution_options=_LATER)
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
