"""Refusals as HTTP responses: the one place that maps each kind to a status code.

Every error body, whatever refused the request, is ``{"error": message, "code":
short_name}``:

========================  ======  =====================================================
refused by                status  code
========================  ======  =====================================================
``NotFound``              404     ``not_found`` (also an unknown game in the path)
``Forbidden``             403     ``forbidden`` (a missing CSRF token, a foreign host)
``BadCredentials``        401     ``bad_credentials`` (no session, a wrong password)
``IllegalAction``         422     ``illegal_action`` (also a ``RulesError`` from a body)
``Conflict``              409     ``conflict``
``TooLarge``              413     ``too_large``
``Unavailable``           503     ``unavailable`` (also a database that did not answer a read)
a malformed request       422     ``invalid_request`` (FastAPI's validation, and
                                  :class:`riverboat.web.guards.BodyGuard`'s)
the rate limit            429     ``rate_limited`` (:class:`riverboat.admission.gates.RateLimits`)
``Throttled``, ``Busy``   429     ``rate_limited``, with ``Retry-After``: failed log-ins
                                  from one address; a budget of slow work spent
an unknown path, method   404/405 ``not_found`` / ``method_not_allowed``
anything else             500     ``server_error`` (the traceback is logged, not sent)
========================  ======  =====================================================

A message is at most :data:`MESSAGE_LIMIT` characters and always UTF-8 (text that
is not, a lone surrogate, is escaped), so no refusal echoes unbounded input and none
fails to be sent. A 503 or a 429 says when to try again (``Retry-After``).

A ``RulesError`` (the games' own "no such game, variant or spot") is an illegal
request, 422, except an unknown game named in the path, which the routes turn into
``NotFound`` (404) before anything runs (:func:`riverboat.web.deps.known_game`).

The service turns a database that does not answer into ``Unavailable`` when it
writes; a read that meets one raises SQLAlchemy's own error, which is answered here
as ``Unavailable`` too (503), without the driver's message (it can carry SQL). So is
a database that is locked, read-only or full (:func:`database_unavailable`). Any
other database error is the server's fault and stays a 500.
"""

from __future__ import annotations

import logging
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from sqlalchemy.exc import DatabaseError, DBAPIError, InternalError, OperationalError
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Receive, Scope, Send

from riverboat.admission.budgets import Busy
from riverboat.errors import (
    REFUSALS,
    BadCredentials,
    Conflict,
    Forbidden,
    IllegalAction,
    NotFound,
    Refusal,
    TooLarge,
    Unavailable,
)
from riverboat.games.rules import RulesError
from riverboat.metrics import DATABASE_ERRORS, REFUSED
from riverboat.store.commits import unreachable
from riverboat.table.accounts.players import Throttled
from riverboat.web.models import first_problem

__all__ = [
    "CLOSE_LOG_IN",
    "CLOSE_NO_TABLE",
    "CLOSE_TRY_LATER",
    "INVALID_REQUEST",
    "MESSAGE_LIMIT",
    "NO_ANSWER",
    "RATE_LIMITED",
    "RESPONSES",
    "RETRY_SECONDS",
    "SERVER_ERROR",
    "STATUS",
    "TOO_MANY",
    "TrustedHosts",
    "code_of",
    "database_unavailable",
    "error_body",
    "install",
    "refusal_response",
    "status_of",
]

#: each kind of refusal's status: the one mapping
STATUS: dict[type[Refusal], int] = {
    NotFound: 404,
    Forbidden: 403,
    BadCredentials: 401,
    IllegalAction: 422,
    Conflict: 409,
    TooLarge: 413,
    Unavailable: 503,
}
assert set(STATUS) == set(REFUSALS), "every kind of refusal has its status"
#: a request FastAPI could not read (a missing field, a string for a number): 422
INVALID_REQUEST = "invalid_request"
#: too many requests from one client: 429
RATE_LIMITED = "rate_limited"
#: what a client is told when the database did not answer a read (not the driver's words)
NO_ANSWER = "the database did not answer; try again shortly"
#: a failure of the server's own: 500
SERVER_ERROR = "server_error"
#: the longest error message sent, in characters
MESSAGE_LIMIT = 300
#: a table connection refused or ended for want of a session: log in, then sit again
#: (WebSocket close codes of the app's own, 4000 to 4999, each with a reason)
CLOSE_LOG_IN = 4401
#: a table connection refused: no such table (the lobby lists the tables)
CLOSE_NO_TABLE = 4404
#: a table connection refused: too many handshakes; the reason says to wait
CLOSE_TRY_LATER = 4429
#: the seconds a 503 asks a client to wait before trying again
RETRY_SECONDS = 2
#: what SQLite says when it is locked, read-only or full (in lower case)
_SQLITE_UNAVAILABLE = ("locked", "busy", "readonly", "read-only", "disk is full", "disk i/o")
#: PostgreSQL's SQLSTATEs (or their classes) for the same: no connection, out of
#: resources (disk full, too many connections), shut down, a lock or serialization
#: that timed out or failed, a read-only transaction
_POSTGRES_UNAVAILABLE = ("08", "53", "57P", "55P03", "40001", "40P01", "25006")
#: statuses Starlette answers by itself (an unknown path or method), by code
_HTTP_CODES = {**{status: kind.code for kind, status in STATUS.items()}, 405: "method_not_allowed"}
_log = logging.getLogger(__name__)


class ErrorBody(BaseModel):
    """The one shape of every error, over HTTP and in a table's error message."""

    error: str
    code: str


#: every route's refusals in the schema: one body shape (each router declares them,
#: so its routes carry them wherever they are served)
RESPONSES: dict[int | str, dict[str, Any]] = {
    "4XX": {"model": ErrorBody, "description": "Refused: what and why"},
    "503": {"model": ErrorBody, "description": "The database did not answer"},
}


def error_body(message: str, code: str) -> dict[str, str]:
    """The one shape of every error: what went wrong, and its kind; the message at most
    :data:`MESSAGE_LIMIT` characters, any text that is not UTF-8 escaped.

    >>> error_body("no spot named \\ud800" + "x" * 400, "illegal_action")["error"][-20:]
    'xxxxxxxxxxxxxxxxxxx…'
    """
    text = message.encode("utf-8", "backslashreplace").decode("utf-8")
    if len(text) > MESSAGE_LIMIT:
        text = text[: MESSAGE_LIMIT - 1] + "…"
    REFUSED.labels(code=code).inc()  # every refusal says itself through here
    return {"error": text, "code": code}


#: refusals that mean "not now, from you": too many requests (429), with ``Retry-After``
TOO_MANY = (Throttled, Busy)


def status_of(error: Refusal | RulesError) -> int:
    """The status of a refusal (its nearest kind's); a rules error is an illegal
    request; one of :data:`TOO_MANY` is 429."""
    if isinstance(error, TOO_MANY):
        return 429
    for kind in type(error).__mro__:
        if kind in STATUS:
            return STATUS[kind]
    return STATUS[IllegalAction]


def code_of(error: Refusal | RulesError) -> str:
    if isinstance(error, TOO_MANY):
        return RATE_LIMITED
    return error.code if isinstance(error, Refusal) else IllegalAction.code


def refusal_response(error: Refusal | RulesError) -> JSONResponse:
    """A refusal as a response; a 503 or a 429 says when to try again."""
    status = status_of(error)
    retry = None
    if isinstance(error, TOO_MANY):
        retry = {"Retry-After": str(error.retry_after)}
    elif status == 503:
        retry = {"Retry-After": str(RETRY_SECONDS)}
    return JSONResponse(error_body(str(error), code_of(error)), status_code=status, headers=retry)


def database_unavailable(error: DBAPIError) -> bool:
    """Whether a database error means the database cannot serve now (it did not answer,
    or it is locked, read-only or full) rather than that the statement was wrong."""
    if unreachable(error):
        return True
    if not isinstance(error, OperationalError | InternalError | DatabaseError):
        return False
    state = getattr(error.orig, "sqlstate", None) or getattr(error.orig, "pgcode", None)
    if isinstance(state, str):
        return state.startswith(_POSTGRES_UNAVAILABLE)
    said = str(error.orig).lower()
    return any(word in said for word in _SQLITE_UNAVAILABLE)


def install(app: FastAPI, headers: dict[str, str] | None = None) -> None:
    """Register the handlers that give every refusal its status and the one body shape;
    ``headers`` go on a 500, which is sent outside the app's middleware."""

    @app.exception_handler(Refusal)
    async def refused(_: Request, error: Refusal) -> JSONResponse:
        return refusal_response(error)

    @app.exception_handler(RulesError)
    async def bad_rules(_: Request, error: RulesError) -> JSONResponse:
        return refusal_response(error)

    @app.exception_handler(DBAPIError)
    async def no_answer(_: Request, error: DBAPIError) -> JSONResponse:
        """A database that did not answer a read is ``Unavailable``, as one that did
        not answer a write is; any other database error stays a server error (500)."""
        if not database_unavailable(error):
            raise error
        DATABASE_ERRORS.inc()
        _log.warning("the database did not answer: %s", error.orig)
        return refusal_response(Unavailable(NO_ANSWER))

    @app.exception_handler(Exception)
    async def failed(request: Request, error: Exception) -> JSONResponse:
        """Anything else is the server's fault: a short JSON 500; the traceback is logged."""
        _log.error("%s %s failed", request.method, request.url.path, exc_info=error)
        body = error_body("the server failed to answer; the fault is logged", SERVER_ERROR)
        return JSONResponse(body, status_code=500, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, error: RequestValidationError) -> JSONResponse:
        """A malformed request: what and where, as every other refusal says it."""
        message = first_problem(error.errors(), skip=1)
        return JSONResponse(error_body(message, INVALID_REQUEST), status_code=422)

    @app.exception_handler(HTTPException)
    async def http_error(_: Request, error: HTTPException) -> JSONResponse:
        """Starlette's own answers (an unknown path, a method a path does not take)."""
        code = _HTTP_CODES.get(error.status_code, "http_error")
        return JSONResponse(
            error_body(str(error.detail), code),
            status_code=error.status_code,
            headers=error.headers,
        )


class TrustedHosts:
    """Requests only for the server's own names: a page on another name (DNS
    rebinding) cannot reach the table. Refused as ``Forbidden``, in the one shape."""

    def __init__(self, app: ASGIApp, allowed_hosts: list[str]) -> None:
        self.app = app
        self.allowed = {host.lower().strip("[]") for host in allowed_hosts}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            host = dict(scope["headers"]).get(b"host", b"").decode("latin-1")
            if _host_name(host) not in self.allowed:
                if scope["type"] == "websocket":
                    await send({"type": "websocket.close", "code": 1008})
                    return
                refusal = Forbidden("this server does not answer to that host name")
                await refusal_response(refusal)(scope, receive, send)
                return
        await self.app(scope, receive, send)


@lru_cache(maxsize=32)  # a server hears few Host headers; a flood of others only cycles
def _host_name(host: str) -> str | None:
    """The name a Host header names (no port, no brackets, lower case), or None if the
    header cannot be read (``[::1``, ``[x]``, a port that is not a number): a name no
    server answers to, refused like any other."""
    try:
        parts = urlsplit(f"//{host}")
        parts.port  # noqa: B018 - read for its check: a port that is not a number raises
    except ValueError:
        return None
    return parts.hostname
