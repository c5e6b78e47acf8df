"""Kept state: the store's contract in memory, in the database (SQLite and PostgreSQL)
and in Redis; and two apps on one database (or one Redis) that share sessions,
log-in throttles and rate limits, as two server processes do, and a restart that
logs no one out."""

import hashlib
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from riverboat.admission import logins
from riverboat.admission.budgets import Tarpit
from riverboat.admission.logins import FREE, StoreThrottle
from riverboat.settings import amended, reload
from riverboat.store import connect
from riverboat.store.models import KeptState
from riverboat.store.state import (
    DatabaseStore,
    MemoryStore,
    RedisStore,
    StateStore,
    open_store,
)
from riverboat.web.app import create_app

REDIS = "redis://127.0.0.1:6379/0"
PASSWORD = "a long password"


@pytest.fixture
def redis_prefix() -> Iterator[str]:
    """A key prefix of one test's own on the machine's Redis, emptied afterwards."""
    prefix = f"riverboat-test-{uuid.uuid4().hex[:12]}:"
    yield prefix
    store = RedisStore(REDIS, prefix)
    store.delete(*store.keys(""))


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def contract(store: StateStore, advance: Callable[[float], None]) -> None:
    """What every store does: values and counters that expire, deleted, listed."""
    store.put("a:1", "one", seconds=30)
    store.put("a:2", "two", seconds=1)
    assert store.get("a:1") == "one"
    assert store.get("nothing") is None
    assert [store.increment("n", seconds=30) for _ in range(3)] == [1, 2, 3]
    assert store.increment("n", seconds=30, by=-2) == 1
    assert store.increment("m", seconds=30, by=5) == 5
    assert sorted(store.keys("a:")) == ["a:1", "a:2"]
    store.put("a:1", "uno", seconds=30)  # put again: the new value
    assert store.get("a:1") == "uno"
    # many keys counted in one exchange (the rate limit's counts, shared in batches)
    assert store.increment_many([("r", 30, 1), ("s", 1, 2)]) == [1, 2]
    assert store.increment_many([("s", 1, 0), ("r", 30, 2)]) == [2, 3]
    assert store.increment_many([]) == []
    assert store.increment_many([("never", 30, 0)]) == [0]  # read alone: nothing written
    assert "never" not in store.keys("")
    advance(2.0)  # a:2 has expired; a counter's window is fixed at its first count
    assert store.get("a:2") is None
    assert store.increment_many([("r", 30, 1), ("s", 1, 1)]) == [4, 1]  # s's began again
    assert store.keys("a:") == ["a:1"]
    assert store.increment("n", seconds=30) == 2
    store.delete("a:1", "n", "never")
    assert store.get("a:1") is None
    assert store.increment("n", seconds=30) == 1
    assert store.keys("a%_") == []  # a prefix is literal, never a pattern


def test_the_memory_store_keeps_the_contract() -> None:
    clock = Clock()
    store = MemoryStore(clock)
    contract(store, lambda seconds: setattr(clock, "now", clock.now + seconds))


def test_the_database_store_keeps_the_contract(database_url: str) -> None:
    clock = Clock()
    store = DatabaseStore(connect(database_url), clock)
    contract(store, lambda seconds: setattr(clock, "now", clock.now + seconds))


def test_the_redis_store_keeps_the_contract(redis_prefix: str) -> None:
    import time

    store = RedisStore(REDIS, redis_prefix)
    contract(store, time.sleep)  # Redis expires keys on its own clock


def test_a_window_that_runs_out_starts_the_count_again(database_url: str) -> None:
    clock = Clock()
    store = DatabaseStore(connect(database_url), clock)
    assert [store.increment("rate:x", 1.0) for _ in range(3)] == [1, 2, 3]
    clock.now += 1.0
    assert store.increment("rate:x", 1.0) == 1


# ------------------------------------------------------------------ two processes
def two_apps(database: str, state: Callable[[], StateStore | None]) -> tuple[Any, Any]:
    """Two apps on one database (and one state store), as two server processes."""
    apps = [
        create_app(
            amended(database_url=database, local_player=False, rate_limit=1000, house_edges=False),
            state=state(),
        )
        for _ in range(2)
    ]
    apps[0].state.service.register("ann", PASSWORD)
    return apps[0], apps[1]


def log_in(client: TestClient) -> Any:
    client.get("/")
    return client.post(
        "/api/login",
        json={"name": "ann", "password": PASSWORD},
        headers={"X-CSRF-Token": client.cookies.get("riverboat_csrf", "")},
    )


def shared_sessions(database: str, state: Callable[[], StateStore | None]) -> None:
    first, second = two_apps(database, state)
    # SQLite serves one process: each caches the sessions it has seen (web/deps.py's
    # Sessions) and sees another's close once it reads its copy again
    alone = database.startswith("sqlite") and state() is None
    first.state.sessions.recheck = 0.2
    with TestClient(first) as one, TestClient(second) as two:
        assert log_in(one).status_code == 200
        token = one.cookies["riverboat_session"]
        two.cookies.set("riverboat_session", token)
        known = two.get("/api/me")  # the other process knows the session
        assert known.status_code == 200
        assert known.json()["signed_in"] is True
        # a restart: a new app on the same database, and the session still stands
        again = create_app(
            amended(database_url=database, local_player=False, house_edges=False), state=state()
        )
        with TestClient(again) as restarted:
            restarted.cookies.set("riverboat_session", token)
            assert restarted.get("/api/me").status_code == 200
        two.get("/")
        out = two.post("/api/logout", headers={"X-CSRF-Token": two.cookies["riverboat_csrf"]})
        assert out.status_code == 200
        if alone:
            time.sleep(first.state.sessions.recheck)
        if first.state.deletions is not None:  # PostgreSQL: one hears of the close
            deadline = time.monotonic() + 10
            while one.get("/api/me").status_code == 200 and time.monotonic() < deadline:
                time.sleep(0.02)
        assert one.get("/api/me").status_code == 401  # logged out on one, out on both


def shared_throttles(database: str, state: Callable[[], StateStore | None]) -> None:
    first, second = two_apps(database, state)
    for app in (first, second):  # refusals answered at once: the test is of the counts
        app.state.budgets.tarpit = Tarpit(longest=0)
    address = ("10.0.0.66", 5000)
    with (
        # a first wait (1 s in production) that no busy machine outlasts between the
        # last guess and the next try, which would then pass without being counted
        pytest.MonkeyPatch.context() as patch,
        TestClient(first, client=address) as one,
        TestClient(second, client=address) as two,
    ):
        patch.setattr(logins, "FIRST_WAIT", 600.0)
        statuses = []
        for n in range(FREE):  # the guesses alternate between the two processes
            client = (one, two)[n % 2]
            client.get("/")
            statuses.append(
                client.post(
                    "/api/login",
                    json={"name": "ann", "password": "wrong guess"},
                    headers={"X-CSRF-Token": client.cookies["riverboat_csrf"]},
                ).status_code
            )
        assert statuses == [401] * FREE
        # the next, to either process, waits: both count the same failures
        assert log_in(two).status_code == 429
        assert log_in(one).status_code == 429


def shared_rate_limits(database: str, state: Callable[[], StateStore | None]) -> None:
    apps = [
        create_app(
            amended(database_url=database, local_player=False, rate_limit=4, house_edges=False),
            state=state(),
        )
        for _ in range(2)
    ]
    for app in apps:  # a window no request leaves during the test
        app.state.limiter.window = 600.0
    # SQLite serves one process: its kept state holds no rate counts (web/app.py's
    # _one_process), so each process counts its own
    alone = database.startswith("sqlite") and state() is None

    def shared(client: TestClient) -> int:
        """A request's status, once both processes have shared their counts (each does
        within riverboat.admission.counts.SHARE_EVERY seconds while counting)."""
        status = client.get("/api/games").status_code
        if not alone:
            for app in apps:
                app.state.limiter.counts.share()
        return status

    with TestClient(apps[0]) as one, TestClient(apps[1]) as two:
        assert [shared(client) for client in (one, two, one, two)] == [200] * 4
        fifth = 200 if alone else 429  # the fifth in all, to either, when counted together
        assert shared(two) == fifth
        assert shared(one) == fifth
        if alone:
            assert [one.get("/api/games").status_code for _ in range(2)] == [200, 429]


@pytest.mark.parametrize("check", [shared_sessions, shared_throttles, shared_rate_limits])
def test_two_processes_on_one_database_share_the_state(
    check: Callable[..., None], database_url: str
) -> None:
    check(database_url, lambda: None)  # the default: the database itself


@pytest.mark.parametrize("check", [shared_sessions, shared_throttles, shared_rate_limits])
def test_two_processes_on_one_redis_share_the_state(
    check: Callable[..., None], tmp_path: Any, redis_prefix: str
) -> None:
    check(f"sqlite:///{tmp_path / 'redis.db'}", lambda: RedisStore(REDIS, redis_prefix))
    assert RedisStore(REDIS, redis_prefix).keys("")  # kept there, not in the database


@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
def test_the_redis_url_in_the_environment_chooses_redis(
    database_url: str, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One setting, RIVERBOAT_REDIS_URL, for the kept state and the tables across
    processes (docs/settings.md); on SQLite, which one process serves, it is refused."""
    monkeypatch.setenv("RIVERBOAT_REDIS_URL", REDIS)
    reload()  # the settings read the environment again
    app = create_app(amended(database_url=database_url, house_edges=False))
    assert isinstance(app.state.limiter.store, RedisStore)  # the counts, shared
    # the sessions stay in the database: Redis restarted empty logs no one out
    assert isinstance(app.state.sessions.store, DatabaseStore)
    assert app.state.hub.across_processes
    app.state.service.engine.dispose()
    with pytest.raises(ValueError, match="need PostgreSQL"):
        create_app(amended(database_url=f"sqlite:///{tmp_path / 'env.db'}", house_edges=False))
    monkeypatch.delenv("RIVERBOAT_REDIS_URL")
    reload()  # the settings read the environment again
    app = create_app(amended(database_url=f"sqlite:///{tmp_path / 'env.db'}", house_edges=False))
    assert isinstance(app.state.sessions.store, DatabaseStore)
    assert not isinstance(app.state.limiter.store, RedisStore)
    assert not app.state.hub.across_processes


def test_a_session_is_kept_by_its_hash_never_its_token(tmp_path: Any) -> None:
    app = create_app(
        amended(
            database_url=f"sqlite:///{tmp_path / 'hash.db'}", local_player=False, house_edges=False
        )
    )
    app.state.service.register("ann", PASSWORD)
    with TestClient(app) as client:
        assert log_in(client).status_code == 200
        token = client.cookies["riverboat_session"]
    with app.state.service.engine.connect() as connection:
        rows = connection.execute(select(KeptState.key, KeptState.value)).all()
    kept = " ".join(f"{key} {value}" for key, value in rows)
    assert token not in kept
    assert f"session:{hashlib.sha256(token.encode()).hexdigest()}" in kept


def test_the_throttle_counts_guesses_sent_at_once_in_a_shared_store(database_url: str) -> None:
    clock = Clock()
    engine = connect(database_url)
    # two processes' throttles over one database
    throttles = [StoreThrottle(DatabaseStore(engine, clock)) for _ in range(2)]
    waits = [throttles[n % 2].attempt("ann", "10.0.0.9") for n in range(FREE + 1)]
    assert waits == [0.0] * FREE + [1.0]
    clock.now += 1.0
    throttles[1].succeeded("ann", "10.0.0.9")  # the right password: the pair is forgotten
    assert throttles[0].attempt("ann", "10.0.0.9") == 0.0


# ------------------------------------------------------------------ riverboat serve --workers
@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
def test_serve_with_two_workers_on_postgresql_shares_sessions(database_url: str) -> None:
    """Two uvicorn workers, each its own app: a session opened through one is known to
    the other, whichever process each new connection reaches."""
    import os
    import socket
    import subprocess
    import sys
    import time

    import httpx

    from riverboat.table.service import TableService

    TableService(database_url).register("ann", PASSWORD)
    with socket.socket() as probe:
        probe.bind(("127.0.0.2", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "riverboat",
            "serve",
            "--workers",
            "2",
            "--host",
            "127.0.0.2",
            "--port",
            str(port),
            "--database",
            database_url,
        ],
        env={**os.environ, "RIVERBOAT_REDIS_URL": ""},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    base = f"http://127.0.0.2:{port}"
    try:
        for _ in range(300):
            try:
                # plain HTTP: no CA certificates loaded (docs/development.md: 33 ms of CPU)
                if httpx.get(f"{base}/api/lobby", timeout=2, verify=False).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.1)
        with httpx.Client(base_url=base, verify=False) as browser:
            browser.get("/")
            answer = browser.post(
                "/api/login",
                json={"name": "ann", "password": PASSWORD},
                headers={"X-CSRF-Token": browser.cookies["riverboat_csrf"]},
            )
            assert answer.status_code == 200
            cookie = f"riverboat_session={answer.cookies['riverboat_session']}"
        for _ in range(20):  # a new connection each time: the kernel picks the worker
            me = httpx.get(
                f"{base}/api/me", headers={"cookie": cookie, "connection": "close"}, verify=False
            )
            assert me.status_code == 200
            assert me.json()["signed_in"] is True
    finally:
        server.terminate()
        output, _ = server.communicate(timeout=30)
    assert "2 worker processes: each deals its own copy of each shared table" in output


def test_a_store_that_does_not_answer_is_a_503_and_limits_let_requests_through(
    tmp_path: Any,
) -> None:
    gone = RedisStore("redis://127.0.0.1:1/0", "riverboat-gone:")  # nothing listens there
    app = create_app(
        amended(
            database_url=f"sqlite:///{tmp_path / 'gone.db'}", local_player=False, house_edges=False
        ),
        state=gone,
    )
    app.state.service.register("ann", PASSWORD)
    with TestClient(app) as client:
        assert client.get("/api/games").status_code == 200  # the rate limit counts nothing
        refused = log_in(client)
        assert refused.status_code == 503
        assert refused.json() == {
            "error": "the store of sessions and limits did not answer; try again shortly",
            "code": "unavailable",
        }
        client.cookies.set("riverboat_session", "a-token")
        assert client.get("/api/me").status_code == 401  # sessions never wait on Redis


def test_two_deployments_on_one_redis_keep_their_keys_apart(redis_prefix: str) -> None:
    """``serve --redis-prefix``: each deployment's sessions under its own prefix, so a
    session of one is no session of the other."""
    engine = connect("sqlite://")
    ours = open_store(engine, REDIS, redis_prefix + "a:")
    theirs = open_store(engine, REDIS, redis_prefix + "b:")
    assert isinstance(ours, RedisStore)
    assert isinstance(theirs, RedisStore)
    ours.put("session:x", "7", 60)
    assert ours.get("session:x") == "7"
    assert theirs.get("session:x") is None
