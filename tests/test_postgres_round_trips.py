"""What a request costs PostgreSQL in round trips, and what was kept while cutting
them: a pool connection unused for a while is still tried before it is handed out
(and replaced if the database no longer answers on it); the kept state commits each
statement as it runs and without waiting for the disk, the ledger with both; an API
request's session is read in the thread that counted it against the rate limit."""

from __future__ import annotations

import os
import sys
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text

import riverboat.store
from riverboat.settings import amended
from riverboat.store import connect
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


def test_an_api_request_reads_its_session_once(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = create_app(
        amended(database_url=postgres_url, local_player=False, rate_limit=1000, house_edges=False)
    )
    app.state.service.register("ann", PASSWORD)
    reads: list[str] = []
    player = Sessions.player

    def counted(self: Sessions, token: str | None) -> Any:
        frame, where = sys._getframe(1), "elsewhere"
        while frame is not None:  # read where the request was counted, or elsewhere
            if frame.f_code.co_name == "_counted":
                where = "counted"
            frame = frame.f_back  # type: ignore[assignment]
        reads.append(where)
        return player(self, token)

    monkeypatch.setattr(Sessions, "player", counted)
    with TestClient(app) as client:
        client.get("/")
        logged_in = client.post(
            "/api/login",
            json={"name": "ann", "password": PASSWORD},
            headers={"X-CSRF-Token": client.cookies["riverboat_csrf"]},
        )
        assert logged_in.status_code == 200
        reads.clear()
        csrf = {"X-CSRF-Token": client.cookies["riverboat_csrf"]}
        dealt = client.post(
            "/api/rounds", json={"game": "tri-card", "wagers": {"ante": 500}}, headers=csrf
        )
        assert dealt.status_code == 200, dealt.text
        assert reads == ["counted"]  # in the rate limit's thread, then found there
        reads.clear()
        client.cookies.delete("riverboat_session")
        client.cookies.set("riverboat_session", "not-a-session")
        refused = client.post(
            "/api/rounds", json={"game": "tri-card", "wagers": {"ante": 500}}, headers=csrf
        )
        assert refused.status_code == 401  # a session the store does not hold: no player
        assert reads == ["counted"]
