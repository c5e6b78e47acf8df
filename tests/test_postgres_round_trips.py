"""What a request costs PostgreSQL in round trips, and what was kept while cutting
them: a pool connection unused for a while is still tried before it is handed out
(and replaced if the database no longer answers on it); the kept state commits each
statement as it runs and without waiting for the disk, the ledger with both; an API
request's session is read with its rate-limit count, in the same thread and the same
statement; a transaction's writes go with its next statement or its COMMIT, and what
they refuse still undoes the whole transaction."""

from __future__ import annotations

import os
import threading
import time
from collections import Counter
from collections.abc import Generator
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import insert, select, text
from sqlalchemy.exc import IntegrityError

import riverboat.store
from riverboat.settings import amended
from riverboat.store import connect, statements, wire, writer
from riverboat.store.models import KeptState
from riverboat.store.state import DatabaseStore
from riverboat.web.app import create_app
from riverboat.web.deps import Sessions

PASSWORD = "a long password"
POSTGRES = os.environ.get("RIVERBOAT_TEST_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432")
ADMIN = POSTGRES.replace("postgresql+psycopg://", "postgresql://") + "/postgres"


def _terminate(url: str) -> int:
    """Every connection to ``url``'s database ended by the server; how many."""
    with psycopg.connect(ADMIN, autocommit=True) as connection:
        rows = connection.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = %s AND pid <> pg_backend_pid()",
            (url.rsplit("/", 1)[1],),
        ).fetchall()
    return len(rows)


def test_an_idle_connection_the_server_ended_is_replaced_before_use(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = connect(postgres_url)
    with engine.connect() as connection:
        connection.execute(text("SELECT 1"))
    assert _terminate(postgres_url) >= 1
    monkeypatch.setattr(riverboat.store, "PING_AFTER", 0.0)  # unused long enough: tried
    with engine.connect() as connection:  # no error: the pool connected again
        assert connection.execute(text("SELECT 41 + 1")).scalar() == 42
    engine.dispose()


def test_the_kept_state_commits_as_it_runs_and_the_ledger_waits_for_the_disk(
    postgres_url: str,
) -> None:
    engine = connect(postgres_url)
    store = DatabaseStore(engine)
    kept = store._engine  # the store's own engine
    with kept.connect() as connection:
        assert connection.exec_driver_sql("SHOW synchronous_commit").scalar() == "off"
        assert connection.connection.driver_connection.autocommit  # type: ignore[union-attr]
        assert connection.exec_driver_sql("SHOW lock_timeout").scalar() == "2s"
    with engine.connect() as connection:
        assert connection.exec_driver_sql("SHOW synchronous_commit").scalar() == "on"
    assert store.increment("hits", 10) == 1
    assert store.increment("hits", 10) == 2  # each an upsert, counted atomically
    kept.dispose()
    engine.dispose()


def _postgres_app(url: str) -> Any:
    """The app on ``url`` with ann signed up (no local player, no house edges worked out)."""
    app = create_app(
        amended(database_url=url, local_player=False, rate_limit=1000, house_edges=False)
    )
    app.state.service.register("ann", PASSWORD)
    return app


def _logged_in(client: TestClient) -> dict[str, str]:
    """Ann logged in on ``client``; the CSRF header its requests send."""
    client.get("/")
    logged_in = client.post(
        "/api/login",
        json={"name": "ann", "password": PASSWORD},
        headers={"X-CSRF-Token": client.cookies["riverboat_csrf"]},
    )
    assert logged_in.status_code == 200
    return {"X-CSRF-Token": client.cookies["riverboat_csrf"]}


def test_an_api_request_reads_its_session_at_most_once(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = _postgres_app(postgres_url)
    reads: list[str | None] = []
    read = Sessions.read

    def counted(self: Sessions, token: str, found: str | None, closes: int) -> Any:
        reads.append(found)
        return read(self, token, found, closes)

    monkeypatch.setattr(Sessions, "read", counted)
    deal = {"game": "tri-card", "wagers": {"ante": 500}}
    with TestClient(app) as client:
        csrf = _logged_in(client)
        _hearing(app, client)
        reads.clear()
        assert client.post("/api/rounds", json=deal, headers=csrf).status_code == 200
        assert reads == []  # read once since the listener began, then cached
        app.state.sessions.deleted(None)  # as a listener that starts again forgets all
        for _ in range(2):
            dealt = client.post("/api/rounds", json=deal, headers=csrf)
            assert dealt.status_code == 409  # a round is in play: refused after its session
        assert len(reads) == 1  # read once, then cached
        client.cookies.delete("riverboat_session")
        client.cookies.set("riverboat_session", "not-a-session")
        refused = client.post("/api/rounds", json=deal, headers=csrf)
        assert refused.status_code == 401  # a session the store does not hold: no player
        assert reads[1:] == [None]


def _hearing(app: Any, client: TestClient) -> None:
    """Once the app's listener to the kept state's deletions is current, and the
    client's session read since (a listener that starts listening forgets what was
    cached before: the log-in's session, if it came first)."""
    deadline = time.monotonic() + 10
    while not app.state.deletions.current():
        assert time.monotonic() < deadline, "the listener never became current"
        time.sleep(0.01)
    assert client.get("/api/me").json()["signed_in"] is True


class RoundTrips:
    """The exchanges with PostgreSQL that a thread waits for, by engine (``kept``: the
    kept state's, in autocommit; ``ledger``: the transactions'): counted where psycopg
    waits on the socket, and at each of :func:`riverboat.store.wire.exchange`'s
    pipelines (one however many statements it sends, its ``BEGIN`` among them). Of
    psycopg's: a statement sent alone is one, and its ``BEGIN`` another; a pipeline
    is one (its end, where it waits for their results), plus psycopg's ``BEGIN`` if it
    starts a transaction (psycopg syncs the pipeline after it and waits for its
    answer); a ``COMMIT`` or ``ROLLBACK`` is one unless nothing is left to end. Only
    the waits of the threads that carry requests are counted: not the listener's to
    the kept state's deletions, nor the rate limit's sharing of its counts, which no
    request waits for (tests/test_deletions.py, tests/test_counts.py)."""

    UNCOUNTED = ("kept-deletions", "counts")

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.counts: Counter[str] = Counter()
        wait, exchange = psycopg.Connection.wait, wire.exchange

        def exchanged(connection: psycopg.Connection[Any], sent: Any) -> Any:
            if threading.current_thread().name not in self.UNCOUNTED:
                self.counts[self._kind(connection, "")] += 1
            return exchange(connection, sent)

        monkeypatch.setattr(wire, "exchange", exchanged)

        def counted(
            connection: psycopg.Connection[Any],
            gen: Generator[Any, Any, Any],
            *args: Any,
            **kwargs: Any,
        ) -> Any:
            trips = self._trips(connection, gen.__qualname__)
            if trips and threading.current_thread().name not in self.UNCOUNTED:
                self.counts[self._kind(connection, gen.__qualname__)] += trips
            return wait(connection, gen, *args, **kwargs)

        monkeypatch.setattr(psycopg.Connection, "wait", counted)

    @staticmethod
    def _kind(connection: psycopg.Connection[Any], _name: str) -> str:
        # the kept state's statements each commit as they run (autocommit); the
        # ledger's run in a transaction, whose BEGIN psycopg sends, or a pipeline
        idle = connection.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
        kept = connection.autocommit and idle and connection._pipeline is None
        return "kept" if kept else "ledger"

    @staticmethod
    def _trips(connection: psycopg.Connection[Any], name: str) -> int:
        idle = connection.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
        if name.endswith(("._commit_gen", "._rollback_gen")):
            return 0 if idle else 1
        if name.endswith("._set_autocommit_gen"):  # a flag while no transaction is open
            assert idle
            assert connection._pipeline is None
            return 0
        begins = idle and not connection.autocommit  # psycopg's BEGIN first, waited for
        if connection._pipeline is not None:  # sent now, waited for at the pipeline's end
            if name.endswith(("._exit_gen", "._sync_gen")):
                return 1
            return int(begins and name.endswith(("._execute_gen", "._executemany_gen_pipeline")))
        if name.endswith("._execute_gen"):
            return 2 if begins else 1
        return 1


def test_a_round_s_writes_go_with_the_next_statement_or_the_commit(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = _postgres_app(postgres_url)
    trips = RoundTrips(monkeypatch)
    with TestClient(app) as client:
        csrf = _logged_in(client)
        _hearing(app, client)
        rounds = []
        for _ in range(3):
            trips.counts.clear()
            dealt = client.post(
                "/api/rounds", json={"game": "tri-card", "wagers": {"ante": 500}}, headers=csrf
            )
            assert dealt.status_code == 200, dealt.text
            deal = dict(trips.counts)
            trips.counts.clear()
            raised = client.post(
                f"/api/rounds/{dealt.json()['id']}/actions", json={"action": "raise"}, headers=csrf
            )
            assert raised.status_code == 200, raised.text
            rounds.append((deal, dict(trips.counts)))
    # each request: nothing of the kept state's (the session cached, the count kept in
    # memory and shared apart; the count and the session read took one statement
    # before); the deal's transaction: BEGIN, its own INSERT, the three reads its work begins
    # with (the player's lock, an unfinished round, the committed seed) and the
    # round's id in one pipeline, then its writes (the round's INSERT among them) with
    # the COMMIT; the raise's: BEGIN, its INSERT, its three reads (the lock, the
    # round's row locked, its events counted) and the settling transaction's id, then
    # its writes with the COMMIT (3 and 3 before the ids went ahead, 4 and 4 before
    # the BEGIN went in the pipeline, 7 and 7 before the reads did, 12 and 13 before
    # writes were held; 4 of the kept state's before the count and the session went
    # in one statement)
    assert rounds == [({"ledger": 2}, {"ledger": 2})] * 3


def test_a_write_refused_at_the_commit_commits_nothing(postgres_url: str) -> None:
    engine = connect(postgres_url)
    row = {"key": "k", "count": 0, "expires": 1.0}
    with writer(engine).begin() as connection:
        statements.write(connection, insert(KeptState), row)

    def both() -> None:
        with writer(engine).begin() as connection:
            statements.write(connection, insert(KeptState), {**row, "key": "new"})
            statements.write(connection, insert(KeptState), row)  # held: refused at the commit

    with pytest.raises(IntegrityError):
        both()
    with engine.connect() as connection:
        assert connection.execute(select(KeptState.key)).scalars().all() == ["k"]
    engine.dispose()


def test_a_write_in_autocommit_is_not_held(postgres_url: str) -> None:
    # no COMMIT follows it, and the connection's close rolls back what is held: it runs
    engine = connect(postgres_url)
    row = {"key": "k", "count": 0, "expires": 1.0}
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        statements.write(connection, insert(KeptState), row)
    with engine.connect() as connection:
        assert connection.execute(select(KeptState.key)).scalars().all() == ["k"]
    engine.dispose()


def test_a_server_side_cursor_or_a_script_after_held_writes_runs(postgres_url: str) -> None:
    # a pipeline refuses both: the writes held before them go in one of their own
    engine = connect(postgres_url)
    with writer(engine).begin() as connection:
        statements.write(connection, insert(KeptState), {"key": "a", "expires": 1.0})
        streamed = connection.execute(
            select(KeptState.key), execution_options={"stream_results": True}
        )
        assert streamed.scalars().all() == ["a"]
        statements.write(connection, insert(KeptState), {"key": "b", "expires": 1.0})
    with writer(engine).begin() as connection:
        statements.write(connection, insert(KeptState), {"key": "c", "expires": 1.0})
        connection.exec_driver_sql("SELECT 1; SELECT 2")
        statements.write(connection, insert(KeptState), {"key": "d", "expires": 1.0})
    with engine.connect() as connection:
        keys = connection.execute(select(KeptState.key).order_by(KeptState.key)).scalars()
        assert keys.all() == ["a", "b", "c", "d"]
    engine.dispose()


def test_a_transaction_of_held_writes_alone_takes_one_pipeline_its_begin_in_it(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = connect(postgres_url)
    trips = RoundTrips(monkeypatch)
    with writer(engine).begin() as connection:
        for key in "ab":
            statements.write(connection, insert(KeptState), {"key": key, "expires": 1.0})
    # BEGIN, the writes and the COMMIT in one pipeline (psycopg's BEGIN went alone and
    # was answered before the writes went: 2)
    assert dict(trips.counts) == {"ledger": 1}
    engine.dispose()
