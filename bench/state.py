"""Benchmark where the kept state lives: signed-in requests per second with sessions and
rate limits kept in this process's memory (the peer), in the database and in Redis
(if it answers), on SQLite and on PostgreSQL (if it answers), in one run; each ratio
is to memory on the same database.

Each request is ``GET /api/me`` with a session cookie through the app in this process
(Starlette's test client, no network): the rate limiter counts it and the session is
looked up, besides the balance read every configuration shares. Where the store is
shared (the database, Redis) the count is kept in memory and shared in batches
(riverboat.admission.counts), and the session is cached while every close is heard
(on PostgreSQL; riverboat.store.deletions) or, on SQLite, read again every 2 s, so a
request mostly reaches the store for neither; with sessions in SQLite beside Redis
every lookup reads the database. The figure is each store's requests per second and
its ratio to memory's.

    python bench/state.py [--requests 400] [--postgres URL] [--redis URL] [--json FILE]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the app and the stores are imported once the arguments are read
    from riverboat.store.state import StateStore

PASSWORD = "a long password"


def rate(database: str, store: Callable[[], StateStore], requests: int) -> float:
    """Signed-in requests per second with the state kept in ``store()``."""
    from fastapi.testclient import TestClient

    from riverboat.settings import amended
    from riverboat.web.app import create_app

    settings = amended(
        database_url=database, local_player=False, rate_limit=10**9, house_edges=False
    )
    app = create_app(settings, state=store())
    name = f"p{uuid.uuid4().hex[:8]}"
    app.state.service.register(name, PASSWORD)
    with TestClient(app) as client:
        client.get("/")
        csrf = {"X-CSRF-Token": client.cookies["riverboat_csrf"]}
        answer = client.post("/api/login", json={"name": name, "password": PASSWORD}, headers=csrf)
        assert answer.status_code == 200, answer.text
        for _ in range(20):  # warm up
            client.get("/api/me")
        start = time.perf_counter()
        for _ in range(requests):
            assert client.get("/api/me").status_code == 200
        return requests / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=400)
    parser.add_argument("--postgres", default="postgresql+psycopg://postgres@127.0.0.1:5432")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    from riverboat.store import connect
    from riverboat.store.state import DatabaseStore, MemoryStore, RedisStore

    folder = Path(tempfile.mkdtemp())
    databases = {"sqlite": f"sqlite:///{folder / 'state.db'}"}
    postgres = _postgres_database(args.postgres)
    if postgres:
        databases["postgresql"] = postgres
    rows: dict[str, dict[str, float]] = {}
    try:
        for name, url in databases.items():
            stores: dict[str, Callable[[], StateStore]] = {
                "memory": MemoryStore,
                "database": lambda url=url: DatabaseStore(connect(url)),  # type: ignore[misc]
                "redis": lambda: RedisStore(args.redis, "riverboat-bench:"),
            }
            rows[name] = {}
            for kept, store in stores.items():
                try:
                    rows[name][kept] = rate(url, store, args.requests)
                except Exception as error:  # no Redis here: said, not fatal
                    print(f"{name}, kept in {kept}: skipped ({type(error).__name__})")
    finally:
        if postgres:
            _drop(args.postgres, postgres)
        with contextlib.suppress(Exception):
            bench_keys = RedisStore(args.redis, "riverboat-bench:")
            bench_keys.delete(*bench_keys.keys(""))
    print(f"{'database':<11} {'kept in':<9} {'requests/s':>11} {'vs memory':>10}")
    for name, found in rows.items():
        for kept, value in found.items():
            print(f"{name:<11} {kept:<9} {value:>11.0f} {value / found['memory']:>10.2f}")
    if args.json:
        args.json.write_text(json.dumps({"requests_per_second": rows}, indent=2))


def _postgres_database(server: str) -> str | None:
    try:
        import psycopg

        name = f"riverboat_bench_{uuid.uuid4().hex[:8]}"
        with psycopg.connect(_plain(server) + "/postgres", autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        return f"{server}/{name}"
    except Exception as error:  # no PostgreSQL here: said, not fatal
        print(f"postgresql: skipped ({type(error).__name__})")
        return None


def _drop(server: str, url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1]
    with psycopg.connect(_plain(server) + "/postgres", autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _plain(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://")


if __name__ == "__main__":
    main()
