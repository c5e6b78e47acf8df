"""Statements sent on psycopg's libpq connection, in one pipeline, without its cursor.

psycopg's cursor converts each statement's query, drives it through its generators
and waits once for each statement sent (17-21 µs of CPU a statement in a pipeline,
against 4-5 µs sent on its ``pgconn``, libpq, with its C dumpers and loaders: a
scratch measurement, docs/benchmarks.md). A round sends some 28, so :func:`exchange`
sends a transaction's statements that way: each named prepared statement made once
per connection (as psycopg's cursor prepares a statement it sees again), its
parameters sent as text (the SQL casts each, ``$1::INTEGER``, as SQLAlchemy writes
it), one ``Sync`` after the last, and every result read back; the first error among
them raised as psycopg raises it (its class by SQLSTATE), after the pipeline has
been read to its end, so the connection is left ready for the next statement (in a
failed transaction, as psycopg's own pipeline leaves it). The server then carries
out 0.86x the instructions a PostgreSQL round took through the cursor
(``bench/server_instructions.py --baseline-ref 3157d31``).

psycopg keeps no state of its own that this bypasses: whether a transaction is open
is libpq's (``pgconn.transaction_status``), read by psycopg each time it needs it.

>>> positional("SELECT a FROM t WHERE b = %(b)s AND c = %(c)s OR b > %(b)s%%2")
(b'SELECT a FROM t WHERE b = $1 AND c = $2 OR b > $1%2', ('b', 'c'))
"""

from __future__ import annotations

import contextlib
import itertools
import re
import select
import weakref
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any, TypeAlias

from psycopg import Connection, abc, errors, pq
from psycopg.adapt import PyFormat, Transformer

__all__ = ["Statement", "exchange", "positional"]

#: one statement: its SQL (psycopg's ``%(name)s`` placeholders), its parameters (one
#: row's, by name, or for ``many`` a list of rows), whether many, whether its rows
#: are wanted
Statement: TypeAlias = tuple[str, Any, bool, bool]

_PLACEHOLDER = re.compile(r"%\((\w+)\)s|%%")
#: each connection's prepared statements: their names, by SQL
_PREPARED: weakref.WeakKeyDictionary[Connection[Any], dict[bytes, bytes]] = (
    weakref.WeakKeyDictionary()
)
#: the prepared statements' names: each new one unlike any before it in the process
_NAMES = itertools.count()
#: the most statements prepared on one connection; others are sent unprepared (the
#: statements riverboat sends are a few dozen: this bounds what SQL written on the fly
#: would leave prepared on the server)
PREPARED_MAX = 200


@lru_cache(maxsize=1024)
def positional(sql: str) -> tuple[bytes, tuple[str, ...]]:
    """``sql`` with ``$n`` for psycopg's ``%(name)s`` (the same name, the same ``$n``)
    and ``%`` for ``%%``, and the parameters' names in ``$n`` order."""
    names: dict[str, int] = {}

    def number(match: re.Match[str]) -> str:
        if match.group(1) is None:
            return "%"
        return f"${names.setdefault(match.group(1), len(names) + 1)}"

    return _PLACEHOLDER.sub(number, sql).encode(), tuple(names)


def exchange(driver: Connection[Any], statements: Sequence[Statement]) -> list[list[Any]]:
    """``statements`` on ``driver`` in one pipeline: the rows of each (tuples; an empty
    list where its rows are not wanted or it gives none). Raises the first statement's
    error (psycopg's ``Error``), or psycopg's ``OperationalError`` for a connection
    that no longer answers."""
    pgconn = driver.pgconn
    transformer = Transformer.from_context(driver)
    prepared = _PREPARED.setdefault(driver, {})
    preparing: dict[bytes, bytes] = {}  # prepared in this pipeline, once answered
    wanted: list[int] = []  # per command sent: its statement's index, or -1 (no rows)
    pgconn.enter_pipeline_mode()
    try:
        for index, (sql, values, many, fetch) in enumerate(statements):
            query, names = positional(sql)
            rows = values if many else [values]
            if not names:  # BEGIN, COMMIT: nothing to prepare
                for _ in rows:
                    pgconn.send_query_params(query, None)
                    wanted.append(index if fetch else -1)
                continue
            name = prepared.get(query) or preparing.get(query)
            if name is None and len(prepared) + len(preparing) < PREPARED_MAX:
                name = preparing[query] = f"riverboat_{next(_NAMES)}".encode()
                pgconn.send_prepare(name, query)
                wanted.append(-1)
            for row in rows:
                dumped = _dumped(transformer, row, names)
                if name is None:
                    pgconn.send_query_params(query, dumped)
                else:
                    pgconn.send_query_prepared(name, dumped)
                wanted.append(index if fetch else -1)
        pgconn.pipeline_sync()
        found = _results(driver, transformer, wanted, len(statements))
        for query, name in preparing.items():  # no error: each was made
            prepared[query] = name
    finally:
        if pgconn.pipeline_status != pq.PipelineStatus.OFF:
            with contextlib.suppress(errors.OperationalError):  # still busy: a lost
                pgconn.exit_pipeline_mode()  # connection, whose error is being raised
    return found


def _dumped(
    transformer: abc.Transformer, row: Mapping[str, object], names: tuple[str, ...]
) -> Sequence[abc.Buffer | None]:
    """One row's parameters in ``$n`` order, as text (the SQL casts each)."""
    return transformer.dump_sequence([row[name] for name in names], [PyFormat.TEXT] * len(names))


def _results(
    driver: Connection[Any],
    transformer: abc.Transformer,
    wanted: list[int],
    count: int,
) -> list[list[Any]]:
    """Every command's results, up to the pipeline's ``Sync``: the wanted rows by
    statement (``wanted``: each command's statement, -1 for a ``Parse`` or rows not
    wanted). Raises the first error, once every result is read."""
    pgconn = driver.pgconn
    found: list[list[Any]] = [[] for _ in range(count)]
    failed: errors.Error | None = None
    command = 0
    _flush(pgconn)
    while True:
        result = _next_result(pgconn)
        if result is None:  # the end of one command's results
            command += 1
            continue
        status = result.status
        if status == pq.ExecStatus.PIPELINE_SYNC:
            break
        if status == pq.ExecStatus.FATAL_ERROR:
            failed = failed or errors.error_from_result(result, encoding=driver.info.encoding)
        elif status == pq.ExecStatus.TUPLES_OK and wanted[command] >= 0:
            transformer.set_pgresult(result)
            found[wanted[command]].extend(transformer.load_rows(0, result.ntuples, tuple))
    if failed is not None:
        raise failed
    return found


def _flush(pgconn: pq.abc.PGconn) -> None:
    """Everything sent to the server (the socket is non-blocking)."""
    while pgconn.flush():
        readable, _, _ = select.select([pgconn.socket], [pgconn.socket], [])
        if readable:  # the server answers as it reads: take its answers in meanwhile
            pgconn.consume_input()


def _next_result(pgconn: pq.abc.PGconn) -> pq.abc.PGresult | None:
    """The next result, waiting for the server (the GIL let go) until one is whole."""
    while pgconn.is_busy():
        select.select([pgconn.socket], [], [])
        pgconn.consume_input()
    return pgconn.get_result()
