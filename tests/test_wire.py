"""Statements sent on psycopg's libpq connection in one pipeline
(riverboat.store.wire): their rows, their first error raised as psycopg raises it
with the connection left ready, each statement prepared once per connection, and the
prepared statements still there after a rollback."""

from __future__ import annotations

from typing import Any

import psycopg
import pytest
from sqlalchemy import Connection, Engine, bindparam, select, text
from sqlalchemy.exc import DBAPIError

from riverboat.store import connect, statements, wire
from riverboat.store.models import KeptState

INSERT = "INSERT INTO kept_state (key, count, expires) VALUES (%(k)s::VARCHAR, 0, 1.0)"
KEYED = select(KeptState.key).where(KeptState.key == bindparam("k"))
READ = "SELECT key FROM kept_state WHERE key LIKE %(k)s::VARCHAR || '%%' ORDER BY key"


def _prepared(connection: Connection) -> list[str]:
    """The names of riverboat's statements prepared on the connection."""
    found = connection.exec_driver_sql(
        "SELECT name FROM pg_prepared_statements WHERE name LIKE 'riverboat%%'"
    )
    return sorted(name for (name,) in found)


@pytest.fixture
def engine(postgres_url: str) -> Any:
    engine = connect(postgres_url)  # migrated, with riverboat's PostgreSQL settings
    yield engine
    engine.dispose()


def test_a_pipeline_gives_each_statement_s_rows(engine: Engine) -> None:
    with engine.connect() as connection:
        driver: Any = connection.connection.driver_connection
        found = wire.exchange(
            driver,
            [
                ("BEGIN", {}, False, False),
                (INSERT, [{"k": "a1"}, {"k": "a2"}, {"k": "b"}], True, False),
                (READ, {"k": "a"}, False, True),
                ("SELECT 6 * 7", {}, False, True),
                ("COMMIT", {}, False, False),
            ],
        )
        assert found == [[], [], [("a1",), ("a2",)], [(42,)], []]
        assert driver.info.transaction_status == psycopg.pq.TransactionStatus.IDLE


def test_the_first_error_is_raised_and_the_connection_is_left_ready(engine: Engine) -> None:
    with engine.connect() as connection:
        driver: Any = connection.connection.driver_connection
        sent = [
            ("BEGIN", {}, False, False),
            (INSERT, {"k": "x"}, False, False),
            (INSERT, {"k": "x"}, False, False),  # the same key: refused
            ("SELECT 1 / 0", {}, False, True),  # never runs: the pipeline was aborted
        ]
        with pytest.raises(psycopg.errors.UniqueViolation):
            wire.exchange(driver, sent)
        assert driver.pgconn.pipeline_status == psycopg.pq.PipelineStatus.OFF
        driver.rollback()
        assert wire.exchange(driver, [(READ, {"k": "x"}, False, True)]) == [[]]  # undone


def test_each_statement_is_prepared_once_and_outlives_a_rollback(engine: Engine) -> None:
    # psycopg prepares a statement it has seen five times, and at a rollback deallocates
    # every statement prepared on the connection: riverboat's engines ask it for none
    with engine.connect() as connection:
        for _ in range(6):
            connection.execute(text("SELECT 1"))
        for _ in range(3):
            statements.rows(connection, KEYED, {"k": "x"})
        names = _prepared(connection)
        assert len(names) == 1
        with pytest.raises(DBAPIError, match="division by zero"):
            connection.execute(text("SELECT 1 / 0"))
        connection.rollback()
        assert statements.rows(connection, KEYED, {"k": "x"}) == []
        assert _prepared(connection) == names


def test_past_the_most_prepared_a_statement_runs_unprepared(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(wire, "PREPARED_MAX", 1)
    with engine.connect() as connection:
        driver: Any = connection.connection.driver_connection
        sent = [("BEGIN", {}, False, False), (INSERT, {"k": "p"}, False, False)]
        assert wire.exchange(driver, [*sent, (READ, {"k": "p"}, False, True)])[2] == [("p",)]
        assert len(_prepared(connection)) == 1  # the INSERT's; the read ran unprepared
