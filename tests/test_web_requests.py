"""What a round's requests cost the web layer: sessions answered from memory on a
server that alone serves its store (and every close seen at once), one worker thread
per request, the service's view sent as it is, the schema unchanged (every route
naming its refusals), and the process's startup set aside from the collector."""

import gc
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import anyio.to_thread
import pytest
from fastapi.testclient import TestClient

from riverboat.settings import amended
from riverboat.store.deletions import Listener
from riverboat.store.state import MemoryStore, RedisStore
from riverboat.table.views import RoundView
from riverboat.web.app import create_app, freeze_startup
from riverboat.web.deps import Sessions

PASSWORD = "a long password"
REDIS = "redis://127.0.0.1:6379/0"


class CountingStore(MemoryStore):
    """A memory store that counts its reads, and may act once before a read answers."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        super().__init__(clock)
        self.reads = 0
        self.before_answer: Callable[[], None] | None = None

    def get(self, key: str) -> str | None:
        self.reads += 1
        found = super().get(key)
        act, self.before_answer = self.before_answer, None  # once
        if act is not None:
            act()
        return found


def post(client: TestClient, path: str, body: dict[str, Any]) -> Any:
    return client.post(path, json=body, headers={"X-CSRF-Token": client.cookies["riverboat_csrf"]})


@pytest.fixture
def logged_in(tmp_path: Path) -> Iterator[TestClient]:
    """A client logged in as ann on an SQLite server (sessions cached)."""
    app = create_app(
        amended(
            database_url=f"sqlite:///{tmp_path / 'rounds.db'}",
            local_player=False,
            house_edges=False,
        )
    )
    app.state.service.register("ann", PASSWORD)
    with TestClient(app) as client:
        client.get("/")
        assert post(client, "/api/login", {"name": "ann", "password": PASSWORD}).status_code == 200
        yield client


def test_a_cached_session_is_answered_without_reading_the_store() -> None:
    store = CountingStore()
    sessions = Sessions(store, cache=True)
    token = sessions.open(7)
    assert [sessions.player(token) for _ in range(3)] == [7, 7, 7]
    assert store.reads == 0
    uncached = Sessions(store)
    assert uncached.player(token) == 7
    assert not uncached.at_hand(token)
    assert store.reads == 1


def test_a_close_in_another_process_is_seen_after_the_recheck() -> None:
    clock = [1000.0]
    store = CountingStore(lambda: clock[0])
    here, there = Sessions(store, cache=True), Sessions(store, cache=True)
    token = there.open(7)
    assert here.player(token) == 7
    there.close(token)  # another process on the same file: this one's copy stands...
    clock[0] += here.recheck - 0.1
    assert here.player(token) == 7
    clock[0] += 0.2  # ...until it is read again
    assert here.player(token) is None
    assert store.reads == 3


def test_a_close_during_a_read_is_not_undone_by_the_cache() -> None:
    store = CountingStore()
    writer, reader = Sessions(store, cache=True), Sessions(store, cache=True)
    token = writer.open(7)
    # the reader reads the session while it is being closed (through the reader)
    store.before_answer = lambda: reader.close(token)
    assert reader.player(token) == 7  # what the store said when it was read
    assert not reader.at_hand(token)  # but that answer was not kept
    assert reader.player(token) is None


def test_sessions_are_cached_where_one_process_serves_or_every_close_is_heard(
    database_url: str, tmp_path: Path
) -> None:
    app = create_app(amended(database_url=database_url, local_player=False, house_edges=False))
    assert app.state.sessions.cache is True
    # PostgreSQL: several processes may serve, so the cache hears every close
    assert isinstance(app.state.deletions, Listener) is database_url.startswith("postgresql")
    shared = create_app(
        amended(database_url=f"sqlite:///{tmp_path / 'r.db'}", house_edges=False),
        state=RedisStore(REDIS, "t:"),
    )
    assert shared.state.sessions.cache is False


def test_a_revoked_session_is_refused_at_once_with_the_cache_on(logged_in: TestClient) -> None:
    app: Any = logged_in.app
    assert app.state.sessions.cache
    first = logged_in.cookies["riverboat_session"]
    deal = {"game": "tri-card", "wagers": {"ante": 500}}
    assert post(logged_in, "/api/rounds", deal).status_code == 200
    with TestClient(app) as other:
        other.get("/")
        login = {"name": "ann", "password": PASSWORD, "revoke_others": True}
        assert post(other, "/api/login", login).status_code == 200
    logged_in.cookies.set("riverboat_session", first)
    refused = post(logged_in, "/api/rounds", deal)
    assert refused.status_code == 401
    assert refused.json() == {"error": "log in first", "code": "bad_credentials"}
    assert logged_in.get("/api/me").status_code == 401


def test_a_rounds_requests_take_one_worker_thread_each(
    logged_in: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One hop a request, whichever way it goes: anyio's or the round routes' own."""
    hops: list[str] = []
    workers = logged_in.app.state.workers  # type: ignore[attr-defined]
    run_sync, submit = anyio.to_thread.run_sync, workers.submit

    async def counted(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        hops.append(getattr(function, "__name__", repr(function)))
        return await run_sync(function, *args, **kwargs)

    def submitted(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        hops.append(repr(function))
        return submit(function, *args, **kwargs)

    monkeypatch.setattr(anyio.to_thread, "run_sync", counted)
    monkeypatch.setattr(workers, "submit", submitted)
    dealt = post(logged_in, "/api/rounds", {"game": "tri-card", "wagers": {"ante": 500}})
    assert dealt.status_code == 200
    assert len(hops) == 1, hops
    done = post(logged_in, f"/api/rounds/{dealt.json()['id']}/actions", {"action": "raise"})
    assert done.json()["status"] == "settled"
    assert len(hops) == 2, hops


def test_a_round_is_sent_as_the_service_sees_it(logged_in: TestClient) -> None:
    app: Any = logged_in.app
    dealt = post(logged_in, "/api/rounds", {"game": "tri-card", "wagers": {"ante": 500}})
    assert dealt.headers["content-type"] == "application/json"
    view = RoundView.model_validate_json(dealt.content)
    player = logged_in.get("/api/me").json()["player"]
    assert view == app.state.service.round(player, view.id)
    shown = logged_in.get(f"/api/rounds/{view.id}")
    assert shown.json() == dealt.json()


def test_a_rounds_answers_go_uncompressed_and_the_page_s_files_gzipped(
    logged_in: TestClient,
) -> None:
    gzip = {"Accept-Encoding": "gzip", "X-CSRF-Token": logged_in.cookies["riverboat_csrf"]}
    dealt = logged_in.post(
        "/api/rounds", json={"game": "tri-card", "wagers": {"ante": 500}}, headers=gzip
    )
    assert dealt.status_code == 200
    assert "content-encoding" not in dealt.headers
    assert dealt.headers["content-security-policy"]  # still inside the security headers
    done = logged_in.post(
        f"/api/rounds/{dealt.json()['id']}/actions", json={"action": "raise"}, headers=gzip
    )
    assert done.json()["status"] == "settled"
    assert "content-encoding" not in done.headers
    styles = logged_in.get("/static/felt.css", headers={"Accept-Encoding": "gzip"})
    assert styles.headers["content-encoding"] == "gzip"
    assert len(styles.content) > 1024  # decoded by the client: the file itself
    page = logged_in.get("/", headers={"Accept-Encoding": "gzip"})
    assert page.headers["content-encoding"] == "gzip"


def test_the_schema_still_names_the_round_routes_answers(logged_in: TestClient) -> None:
    paths = logged_in.get("/openapi.json").json()["paths"]
    routes = [
        ("/api/rounds", "post"),
        ("/api/rounds/{round_id}", "get"),
        ("/api/rounds/{round_id}/actions", "post"),
        ("/api/games/{game}/replay", "post"),
    ]
    for path, method in routes:
        answer = paths[path][method]["responses"]["200"]["content"]["application/json"]
        assert answer["schema"] == {"$ref": "#/components/schemas/RoundView"}, path


def test_every_route_in_the_schema_names_its_refusals(logged_in: TestClient) -> None:
    paths = logged_in.get("/openapi.json").json()["paths"]
    operations = [(path, method, op) for path, ops in paths.items() for method, op in ops.items()]
    assert len(operations) > 15
    for path, method, operation in operations:
        for status in ("4XX", "503"):
            shape = operation["responses"][status]["content"]["application/json"]["schema"]
            assert shape == {"$ref": "#/components/schemas/ErrorBody"}, (path, method, status)


def test_freeze_startup_sets_what_the_process_built_aside_from_the_collector() -> None:
    gc.unfreeze()
    try:
        freeze_startup()
        assert gc.get_freeze_count() > 10_000  # the modules and everything they built
        cycle: list[Any] = []
        cycle.append(cycle)
        del cycle
        assert gc.collect() >= 1  # what is built afterwards is collected as before
    finally:
        gc.unfreeze()
