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
a malformed request       422     ``invalid_request`` (FastAPI's validation)
the rate limit            429     ``rate_limited`` (:class:`riverboat.web.deps.RateLimits`)
an unknown path, method   404/405 ``not_found`` / ``method_not_allowed``
========================  ======  =====================================================

A ``RulesError`` (the games' own "no such game, variant or spot") is an illegal
request, 422, except an unknown game named in the path, which the routes turn into
``NotFound`` (404) before anything runs (:func:`riverboat.web.deps.known_game`).

The service turns a database that does not answer into ``Unavailable`` when it
writes; a read that meets one raises SQLAlchemy's own error, which is answered here
as ``Unavailable`` too (503), without the driver's message (it can carry SQL). Any
other database error is the server's fault and stays a 500.
"""

from __future__ import annotations

import logging
from urllib.parse import urlsplit

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel
from sqlalchemy.exc import DBAPIError
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Receive, Scope, Send

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
from riverboat.table.ledger import _unreachable
from riverboat.web.models import first_problem

__all__ = [
    "INVALID_REQUEST",
    "NO_ANSWER",
    "RATE_LIMITED",
    "STATUS",
    "TrustedHosts",
    "code_of",
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
#: statuses Starlette answers by itself (an unknown path or method), by code
_HTTP_CODES = {**{status: kind.code for kind, status in STATUS.items()}, 405: "method_not_allowed"}
_log = logging.getLogger(__name__)


class ErrorBody(BaseModel):
    """The one shape of every error, over HTTP and in a table's error message."""

    error: str
    code: str


def error_body(message: str, code: str) -> dict[str, str]:
    """The one shape of every error: what went wrong, and its kind."""
    return {"error": message, "code": code}


def status_of(error: Refusal | RulesError) -> int:
    """The status of a refusal (its nearest kind's); a rules error is an illegal request."""
    for kind in type(error).__mro__:
        if kind in STATUS:
            return STATUS[kind]
    return STATUS[IllegalAction]


def code_of(error: Refusal | RulesError) -> str:
    return error.code if isinstance(error, Refusal) else IllegalAction.code


def refusal_response(error: Refusal | RulesError) -> JSONResponse:
    return JSONResponse(error_body(str(error), code_of(error)), status_code=status_of(error))


def install(app: FastAPI) -> None:
    """Register the handlers that give every refusal its status and the one body shape."""

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
        if not _unreachable(error):
            raise error
        _log.warning("the database did not answer: %s", error.orig)
        return refusal_response(Unavailable(NO_ANSWER))

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
