"""The web table: a FastAPI app over the table service.

The server is authoritative: the browser gets the player's own cards, the legal
choices and, once a round is over, everything else. Sessions are HttpOnly, SameSite
cookies; every state-changing request carries the CSRF token the page was given;
each client is rate limited. On a loopback address the local player plays without
logging in.

This module only builds the app: the routes live in :mod:`riverboat.web.routes`
(one router per resource), what they depend on in :mod:`riverboat.web.deps`, the
one mapping of refusals to statuses in :mod:`riverboat.web.errors`, and the limits
and headers at the edge in :mod:`riverboat.web.guards`.

The schema is at ``/openapi.json``, and for people at ``/docs``
(:mod:`riverboat.web.routes.api_docs`: Swagger UI from files shipped with the
package, under the pages' own content security policy).
"""

from __future__ import annotations

import gc
import inspect
import json
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import TYPE_CHECKING, Any, TypedDict

import anyio.to_thread
from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from pydantic import TypeAdapter
from sqlalchemy import Engine, event
from starlette.routing import BaseRoute

from riverboat.admission.gates import Budgets, RateLimiter, RateLimits
from riverboat.admission.logins import StoreThrottle
from riverboat.metrics import watch_budgets
from riverboat.settings import settings as current_settings
from riverboat.store.deletions import Listener
from riverboat.store.state import DatabaseStore, MemoryStore, RedisStore, StateStore, open_store
from riverboat.table.edges import start_house_edges
from riverboat.table.live.across.hub import Hub, LocalHub
from riverboat.table.live.across.redis_hub import RedisHub
from riverboat.table.live.table import SHARED_GAMES
from riverboat.table.live.views import PlayerMessage, TableMessage
from riverboat.table.lobby import Lobby, TableConfig, default_tables
from riverboat.table.service import TableService
from riverboat.web import errors, watch
from riverboat.web.deps import Sessions
from riverboat.web.guards import (
    BODY_LIMIT,
    BodyGuard,
    LargeAnswersGzipped,
    OneHost,
    SecurityHeaders,
    security_headers,
)
from riverboat.web.header_timeout import HeadersInTime
from riverboat.web.routes import api_docs, games, history, office, page, players, rounds, worker
from riverboat.web.routes import lobby as lobby_routes
from riverboat.web.routes import tables as table_routes
from riverboat.web.threads import PlayerTurns, pool, thread_count

if TYPE_CHECKING:
    from riverboat.settings import Settings

__all__ = [
    "BUSY_MILLISECONDS",
    "PAGE_VISITS",
    "SETTINGS",
    "app_from_environment",
    "create_app",
    "freeze_startup",
    "server_options",
    "warm_up_server",
]

#: the environment variable that carries :func:`create_app`'s settings to each of
#: uvicorn's worker processes (JSON), read by :func:`app_from_environment`
SETTINGS = "RIVERBOAT_SERVE_SETTINGS"

#: the page's own files one address may fetch a second, in visits' worth (each file
#: once): a first visit fetches each up to twice (the page's load, its service worker's
#: install), some sixty files each time, where the rate limit is 60 requests a second
PAGE_VISITS = 3

#: how long a request waits for a locked SQLite database before it is told to try
#: again (503): a writer holds the lock for milliseconds, so a longer wait means the
#: database is held by something else
BUSY_MILLISECONDS = 1000


def _one_process(kept: StateStore, engine: Engine) -> bool:
    """Whether this process alone serves ``kept``: an SQLite database (``--workers``
    above 1 is refused there) or this process's memory. Then the rate limit counts
    requests in memory (no other process needs the counts, and a restart forgets only
    the last second's; a write per request would queue every request behind SQLite's
    one write lock: 0.71x the rounds per second at 32 players, bench/load.py), and
    sessions are cached in memory (:class:`~riverboat.web.deps.Sessions`)."""
    in_database = isinstance(kept, DatabaseStore) and engine.dialect.name == "sqlite"
    return in_database or isinstance(kept, MemoryStore)


def create_app(
    settings: Settings | None = None,
    *,
    tables: Sequence[TableConfig] | None = None,
    state: StateStore | None = None,
    recover: bool = False,
) -> FastAPI:
    """The app, as ``settings`` say (default: the environment's, :mod:`riverboat.settings`;
    docs/settings.md lists them): its database, whether a request without a session
    plays as the local player, the Host names it answers, the rate limit, the shared
    tables' clocks, and whether each game's edge is worked out in the background for
    the pay tables. ``tables`` are the shared tables (default one of each shared
    game). Failed log-ins and rate-limit counts are kept in ``state``: by default
    Redis if the settings name one (its keys beginning with their Redis prefix), else
    the database. Sessions are kept there too, except in Redis: then in the database,
    so that Redis restarted empty logs no one out.

    With Redis (the database must then be PostgreSQL) every process started so serves
    the same shared tables (:class:`~riverboat.table.live.across.redis_hub.RedisHub`);
    ``recover`` (a stopped server's rounds before their first decision void, G7) is
    then left to the tables' takeover, since another process's rounds in play are not
    a stopped server's.

    >>> from riverboat.settings import overridden
    >>> with overridden(database_url="sqlite://", local_player=False, house_edges=False):
    ...     app = create_app()
    >>> app.state.local_player
    False
    """
    chosen = settings if settings is not None else current_settings()
    redis, prefix = chosen.redis_url, chosen.redis_prefix
    service = _service(chosen.database_url, redis, recover)
    lobby = _lobby(service, tables, chosen)
    kept = state if state is not None else open_store(service.engine, redis, prefix)
    service.count_log_ins(StoreThrottle(kept))
    hub: Hub = (  # chosen once: this process alone, or every process sharing Redis
        LocalHub(table_routes.act_on)
        if redis is None
        else RedisHub(redis, table_routes.act_on, prefix=prefix)
    )
    _short_waits(service.engine)
    app = _bare_app(_lifespan(hub, lobby, chosen.house_edges))
    _publish_table_messages(app)
    app.state.service, app.state.local_player = service, chosen.local_player
    app.state.lobby, app.state.hub = lobby, hub
    app.state.house_edges = chosen.house_edges
    _keep_state(app, service, kept, chosen.rate_limit)
    count = thread_count(service.engine.dialect.name, chosen.database_threads)
    app.state.workers, app.state.turns = pool(count), PlayerTurns()
    budgets = app.state.budgets
    watch_budgets(
        {
            "history": budgets.history,
            "handshakes": budgets.handshakes,
            "password_checks": service.password_checks,
        }
    )
    app.state.redis = kept.client if isinstance(kept, RedisStore) else None
    app.state.readiness = watch.Readiness()
    if chosen.log_format == "json":
        watch.use_json_logs()
    routers = (
        watch, api_docs, page, worker, games, rounds, players, history, lobby_routes,
        table_routes, office,
    )  # fmt: skip
    routes = [route for module in routers for route in module.router.routes]
    _add_middleware(app, routes, chosen.allowed_hosts)
    app.mount("/static", StaticFiles(directory=str(page.STATIC)), name="static")
    app.mount(api_docs.FILES, StaticFiles(directory=api_docs.swagger_files()), name="api-files")
    errors.install(app, security_headers())
    # the routers' routes served as they are: each already has its whole path and
    # declares its refusals (errors.RESPONSES); FastAPI's include_router would wrap
    # each router, and every request would be matched through the wrappers twice
    app.router.routes.extend(routes)
    return app


def _service(database: str | None, redis: str | None, recover: bool) -> TableService:
    """The table service on ``database``; a stopped server's rounds before their first
    decision void and refunded first when ``recover`` (G7), unless tables run across
    processes (another process's rounds in play are not a stopped server's)."""
    service = TableService(database)
    if redis is not None and service.engine.dialect.name == "sqlite":
        raise ValueError(
            "shared tables across processes need PostgreSQL: an SQLite file is one "
            "machine's, and one process serves it; leave RIVERBOAT_REDIS_URL unset"
        )
    if recover and redis is None:
        service.recover()
    return service


def _bare_app(lifespan: Callable[[FastAPI], AbstractAsyncContextManager[None]]) -> FastAPI:
    """The FastAPI app before its state, middleware and routes: the schema without
    FastAPI's own docs pages (they load Swagger UI from another origin and start it
    with an inline script: riverboat's is :mod:`~riverboat.web.routes.api_docs`),
    FastAPI's telemetry checks off."""
    return FastAPI(
        title="riverboat",
        docs_url=None,
        redoc_url=None,
        # no trailing-slash redirects: Starlette builds their Location from the Host
        # header, which a client chooses (http://evil.example/api/lobby); /api/lobby/
        # is a 404 that names the path, as any path no route takes
        redirect_slashes=False,
        description="Casino table games, dealt fairly.",
        version="1",
        lifespan=lifespan,
        **_no_telemetry(),
    )


def _lobby(
    service: TableService, tables: Sequence[TableConfig] | None, settings: Settings
) -> Lobby:
    """The shared tables (one of each shared game by default), on the settings' clocks."""
    return Lobby(
        service,
        default_tables(dict.fromkeys(SHARED_GAMES, 1)) if tables is None else tables,
        settings.betting_seconds,
        settings.decision_seconds,
    )


def _lifespan(
    hub: Hub, lobby: Lobby, house_edges: bool
) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """The app's life: the listener to the kept state's deletions started, if there is
    one (:func:`_keep_state`), the shared tables' hub started with them, and with
    ``house_edges`` the games' edges begun apart from play once the server is up
    (:func:`~riverboat.table.edges.start_house_edges`); the hub stopped and the tables
    closed at the end."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        listener: Listener | None = app.state.deletions
        if listener is not None:
            listener.start()
        await hub.start(lobby.tables.values())
        if house_edges:
            start_house_edges()
        yield
        await hub.stop()
        await lobby.close()
        if listener is not None:
            await anyio.to_thread.run_sync(listener.stop)

    return lifespan


def _keep_state(app: FastAPI, service: TableService, kept: StateStore, limit: int) -> None:
    """Sessions, the rate limits' counts and the budgets on ``app.state``: sessions in
    the database when ``kept`` is Redis (a Redis restarted empty logs no one out),
    cached and counted in memory when one process serves alone; where several serve,
    cached as long as every process's closes are heard (on PostgreSQL,
    ``app.state.deletions``: a :class:`~riverboat.store.deletions.Listener` the app's
    life starts) and counted here and shared in batches
    (:class:`~riverboat.admission.counts.SharedCounts`). The page's own files are
    counted apart, :data:`PAGE_VISITS` visits' worth a second from one address
    (:class:`~riverboat.admission.gates.RateLimits`)."""
    alone = _one_process(kept, service.engine)
    durable = DatabaseStore(service.engine) if isinstance(kept, RedisStore) else kept
    app.state.sessions = sessions = Sessions(durable, cache=alone)
    app.state.deletions = None
    if not alone and isinstance(durable, DatabaseStore):
        app.state.deletions = durable.listener(sessions.deleted)
        if app.state.deletions is not None:
            sessions.hear(app.state.deletions.current)
    counts = MemoryStore() if alone and isinstance(kept, DatabaseStore) else kept
    app.state.limiter = RateLimiter(limit, store=counts)
    app.state.budgets = Budgets()
    app.state.precache = worker.precache(page.STATIC)  # the service worker's files, read once
    app.state.page_files = frozenset([*app.state.precache.urls, worker.WORKER_PATH])
    app.state.page_limiter = RateLimiter(
        PAGE_VISITS * len(app.state.page_files), store=counts, name="files"
    )


def _add_middleware(app: FastAPI, routes: list[BaseRoute], allowed_hosts: list[str] | None) -> None:
    """The middleware, innermost first: the body guard, the rate limit, the host check,
    gzip for longer answers, the security headers on every answer, and outermost the
    request's id, its count and its time (:mod:`riverboat.web.watch`)."""
    app.add_middleware(BodyGuard, routes=routes)  # innermost: the body after the checks
    app.add_middleware(RateLimits)  # every HTTP request, whatever its path, counts
    if allowed_hosts:  # a page on another name (DNS rebinding) cannot reach the table
        app.add_middleware(errors.TrustedHosts, allowed_hosts=allowed_hosts)
    # the page's files and the longer answers (the deck's sprite: 254 KB, 64 KB gzipped)
    app.add_middleware(LargeAnswersGzipped, minimum_size=1024)
    app.add_middleware(SecurityHeaders)  # on every answer, refusals too
    app.add_middleware(OneHost)  # two Host headers: which one a check reads is a guess
    app.add_middleware(watch.Watched)  # outermost: every request's id, counted and timed


def app_from_environment() -> FastAPI:
    """The app for one of several worker processes: :func:`create_app` with the
    settings and tables ``riverboat serve --workers`` put in :data:`SETTINGS`, a round
    of each game dealt in memory first (:func:`warm_up_server`)."""
    from riverboat.settings import Settings

    carried = json.loads(current_settings().serve_settings or "{}")
    settings = Settings.model_validate(carried.get("settings", {}))
    shared = carried.get("tables")
    tables = None if shared is None else [TableConfig.model_validate(t) for t in shared]
    app = create_app(settings, tables=tables)
    warm_up_server()
    freeze_startup()
    return app


def warm_up_server() -> None:
    """Before a server listens: a round of each game dealt and settled in memory
    (:func:`~riverboat.games.warm.warm_up`), and what its player's view of it works out
    settled (:func:`~riverboat.table.felt_rounds.settled_felt`), so that the first
    player waits for nothing a game builds once per process."""
    from riverboat.games.warm import warm_up
    from riverboat.table.felt_rounds import settled_felt

    warm_up(then=settled_felt)


def freeze_startup() -> None:
    """Before a server starts serving: what the process has built so far (the modules
    imported, numba's and SQLAlchemy's and pydantic's own, the app) is set outside the
    garbage collector's reach, its garbage collected first. All of it lives as long as
    the process, yet each full collection walked it again (well over a hundred
    thousand objects: 0.1 to 0.3 s each time, several times in a server's first
    minute, then whenever enough has outlived the young generations); requests'
    objects are collected as before."""
    gc.collect()
    gc.freeze()


class ServerOptions(TypedDict):
    """Uvicorn's settings for the app (:func:`server_options`)."""

    ws_max_size: int
    proxy_headers: bool
    forwarded_allow_ips: str
    access_log: bool
    http: type[HeadersInTime]


def server_options(forwarded_allow_ips: str | None = None) -> ServerOptions:
    """Uvicorn's settings for the app: WebSocket messages no larger than a request
    body (larger ones close the connection, 1009), ``X-Forwarded-For`` and
    ``X-Forwarded-Proto`` read only from the proxies named (comma-separated
    addresses or networks, ``*`` for any), never by default; and no access log (the
    server logs warnings only, so it wrote nothing, but each request still formatted
    its line's parts); and a request's headers due within 10 s of its first byte
    (:mod:`~riverboat.web.header_timeout`), as its body is (:mod:`~riverboat.web.guards`).

    >>> server_options()["proxy_headers"], server_options("10.0.0.1")["proxy_headers"]
    (False, True)
    """
    return {
        "ws_max_size": BODY_LIMIT,
        "proxy_headers": forwarded_allow_ips is not None,
        "forwarded_allow_ips": forwarded_allow_ips or "",
        "access_log": False,
        "http": HeadersInTime,
    }


def _no_telemetry() -> dict[str, Any]:  # FastAPI(**...): its telemetry setting, if it has one
    """FastAPI's own OpenTelemetry turned off, on a FastAPI that has it (0.165 does; one
    without the argument has none of its own to turn off): riverboat configures no
    tracer, meter or logger, yet with the defaults every request asked OpenTelemetry's
    global providers (and the environment) whether one had been set."""
    if "telemetry" not in inspect.signature(FastAPI.__init__).parameters:
        return {}
    off = ("tracing", "metrics", "logs", "operation_spans", "auto_configure")
    return {"telemetry": dict.fromkeys(off, False)}


def _short_waits(engine: Engine) -> None:
    """A request waits at most :data:`BUSY_MILLISECONDS` for a locked SQLite database."""
    if engine.dialect.name != "sqlite":
        return

    @event.listens_for(engine, "checkout")
    def _busy_timeout(connection, _record, _proxy):  # type: ignore[no-untyped-def]
        connection.execute(f"PRAGMA busy_timeout = {BUSY_MILLISECONDS}")


def _publish_table_messages(app: FastAPI) -> None:
    """Put the shared tables' WebSocket messages in the OpenAPI schema beside the HTTP
    models: ``TableMessage`` (what a seat receives) and ``PlayerMessage`` (what it sends)."""
    build = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = build()
            models = schema.setdefault("components", {}).setdefault("schemas", {})
            messages: dict[str, TypeAdapter[TableMessage] | TypeAdapter[PlayerMessage]] = {
                "TableMessage": TypeAdapter(TableMessage),
                "PlayerMessage": TypeAdapter(PlayerMessage),
            }
            for name, adapter in messages.items():
                found = adapter.json_schema(ref_template="#/components/schemas/{model}")
                models.update(found.pop("$defs", {}))
                models[name] = found
        assert app.openapi_schema is not None
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
