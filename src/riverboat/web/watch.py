"""The service watched (docs/operations.md): each request's id, carried into every log
line it causes and sent back as ``X-Request-ID``; the requests counted by route and
status and timed (:mod:`riverboat.metrics`); the probes ``/healthz`` (the process
answers), ``/readyz`` (the database and Redis answer) and ``/metrics`` (Prometheus).

The probes are outside the per-address rate limit (a proxy or an orchestrator asks
often, from one address) and cost nothing that grows with their callers: ``/readyz``
asks the database and Redis, and ``/metrics`` renders its text, at most once a
second whoever asks, and every caller is answered from that.
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

import anyio
from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse
from sqlalchemy import Engine, text
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from riverboat.metrics import DATABASE_ERRORS, LATENCY, REDIS_ERRORS, REQUESTS, exposition
from riverboat.rng import new_token

__all__ = ["PROBES", "REQUEST_ID", "JsonLines", "Readiness", "Watched", "router", "use_json_logs"]

#: the request being answered, for the log lines it causes ("-": none)
REQUEST_ID: ContextVar[str] = ContextVar("request_id", default="-")
#: what a caller's own request id may be: kept if it is, replaced if not
_GIVEN_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")
#: the paths a proxy or an orchestrator asks, outside the per-address rate limit
PROBES = frozenset({"/healthz", "/readyz", "/metrics"})
#: seconds a probe waits for the database or Redis before it says they do not answer
PROBE_SECONDS = 2.0
#: seconds one readiness answer serves every caller
READY_FOR = 1.0

router = APIRouter()


class Watched:
    """The outermost middleware: a request id for every request and WebSocket (the
    caller's ``X-Request-ID`` if it is 1 to 64 of ``A-Za-z0-9._:-``, else a new one),
    sent back on the answer; each HTTP answer counted by its route's template, method
    and status, and timed to its last byte."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        given = dict(scope.get("headers", [])).get(b"x-request-id", b"").decode("latin-1")
        request_id = given if _GIVEN_ID.fullmatch(given) else new_token(16)
        token = REQUEST_ID.set(request_id)
        if scope["type"] == "websocket":
            try:
                await self.app(scope, receive, send)
            finally:
                REQUEST_ID.reset(token)
            return
        started, status = time.perf_counter(), 500

        async def send_watched(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                headers = [*message.get("headers", []), (b"x-request-id", request_id.encode())]
                message = {**message, "headers": headers}
            await send(message)

        try:
            await self.app(scope, receive, send_watched)
        finally:
            route = _route_of(scope)
            REQUESTS.labels(route=route, method=scope["method"], status=str(status)).inc()
            LATENCY.labels(route=route).observe(time.perf_counter() - started)
            REQUEST_ID.reset(token)


def _route_of(scope: Scope) -> str:
    """The template of the route that answered (``/api/rounds/{round_id}``), so the
    series stay few whatever the paths asked: ``static`` for the page's files,
    ``unmatched`` for a path no route takes."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    if isinstance(path, str):
        return path
    return "static" if str(scope.get("path", "")).startswith("/static/") else "unmatched"


class JsonLines(logging.Formatter):
    """A log record as one line of JSON: time, level, logger, message, the request's
    id, and the exception's traceback where there is one.

    >>> line = JsonLines().format(logging.makeLogRecord({"msg": "dealt %s", "args": (7,)}))
    >>> sorted(json.loads(line))
    ['level', 'logger', 'message', 'request_id', 'time']
    """

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
            "request_id": REQUEST_ID.get(),
        }
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


def use_json_logs(level: int = logging.INFO) -> None:
    """riverboat's log lines (and the server's) as JSON on standard error."""
    handler = logging.StreamHandler()
    handler.setFormatter(JsonLines())
    for name in ("riverboat", "uvicorn.error"):
        logger = logging.getLogger(name)
        logger.handlers[:] = [handler]
        logger.setLevel(level)
        logger.propagate = False


@router.get("/healthz", include_in_schema=False)
async def healthz() -> dict[str, str]:
    """The process is alive and its event loop answers (nothing else is asked)."""
    return {"status": "alive"}


class Readiness:
    """An app's last readiness answer and its last metrics, and when each was made:
    each made at most once a second."""

    def __init__(self) -> None:
        self.at = 0.0
        self.scraped: tuple[float, bytes, str] | None = None
        self.answer: tuple[int, dict[str, str]] = (503, {})


@router.get("/readyz", include_in_schema=False)
async def readyz(request: Request) -> JSONResponse:
    """200 when the database answers and Redis does (where one is used), else 503
    naming what does not: a proxy sends players elsewhere meanwhile."""
    state = request.app.state
    ready_now: Readiness = state.readiness
    now = time.monotonic()
    if now - ready_now.at > READY_FOR:
        ready_now.at = now
        parts = {
            "database": await _answers(lambda: _ask_database(state.service.engine)),
            "redis": "not used"
            if getattr(state, "redis", None) is None
            else await _answers(state.redis.ping),
        }
        if parts["database"] != "ok":
            DATABASE_ERRORS.inc()
        if parts["redis"] not in ("ok", "not used"):
            REDIS_ERRORS.inc()
        ready = all(value in ("ok", "not used") for value in parts.values())
        said = "ready" if ready else "not ready"
        ready_now.answer = (200 if ready else 503, {"status": said, **parts})
    status, body = ready_now.answer
    return JSONResponse(body, status_code=status)


def _ask_database(engine: Engine) -> None:
    with engine.connect() as connection:
        connection.execute(text("SELECT 1"))


async def _answers(ask: Callable[[], object]) -> str:
    """``"ok"`` if ``ask()`` returns within :data:`PROBE_SECONDS` (run off the event
    loop), else what went wrong, in a few words."""
    try:
        with anyio.fail_after(PROBE_SECONDS):
            await anyio.to_thread.run_sync(ask, abandon_on_cancel=True)
    except TimeoutError:
        return f"no answer within {PROBE_SECONDS:g} s"
    except Exception as error:  # what the driver said, shortened: never a traceback
        return f"failed: {type(error).__name__}"
    return "ok"


@router.get("/metrics", include_in_schema=False)
async def metrics(request: Request) -> Response:
    """Every metric in Prometheus's text format (docs/operations.md lists them), made
    at most once a second whoever asks (a flood of scrapes costs one each second)."""
    readiness: Readiness = request.app.state.readiness
    now = time.monotonic()
    if readiness.scraped is None or now - readiness.scraped[0] > READY_FOR:
        readiness.scraped = (now, *exposition())
    _, body, content_type = readiness.scraped
    return Response(body, media_type=content_type)
