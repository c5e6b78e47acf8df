"""The edge of the web table: what every request meets before a route reads it.

:class:`BodyGuard` checks a route's CSRF token and session before its body, then
reads the body in pieces and stops at :data:`BODY_LIMIT` bytes (413, before the rest
arrives); a body a route takes must be UTF-8 JSON, nested at most
:data:`JSON_DEPTH` deep, with no lone surrogate in its text (422).
:class:`SecurityHeaders` gives every response the page's content security policy
and its companions, and marks cookies ``Secure`` on a request that came over HTTPS.
:class:`LargeAnswersGzipped` compresses the page's files and the longer answers, and
leaves a round's requests, whose answers are one small view, as they are.

>>> json_problem(b'{"wagers": {"ante": 1000}}') is None
True
>>> json_problem(b'[[[[[[[[[1]]]]]]]]]')
'the body is nested more than 8 deep'
>>> json_problem(b'{"spot": "\\\\ud800"}')
'the body has text that is not Unicode (a lone surrogate)'
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable

import anyio
from fastapi.dependencies.models import Dependant
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from starlette._utils import get_route_path  # the path a router matches (its own helper)
from starlette.requests import HTTPConnection, cookie_parser
from starlette.routing import BaseRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from riverboat.errors import BadCredentials, Refusal, TooLarge
from riverboat.web.deps import (
    CSRF_COOKIE,
    FOUND_PLAYER,
    SESSION_COOKIE,
    check_csrf,
    current_player,
    find_player,
)
from riverboat.web.errors import INVALID_REQUEST, error_body, refusal_response

__all__ = [
    "BODY_LIMIT",
    "CONTENT_SECURITY_POLICY",
    "JSON_DEPTH",
    "SMALL_ANSWERS",
    "BodyGuard",
    "LargeAnswersGzipped",
    "SecurityHeaders",
    "json_problem",
    "security_headers",
]

#: the largest request body, in bytes: one limit for every route, as none takes an
#: upload; the largest body a route takes (a round with two positions of 16 wagers
#: named in 32 characters, a seed and a key) is under 2 KB, so this leaves room for
#: escaped text and nothing for a flood
BODY_LIMIT = 8 * 1024
#: how deep a body's JSON may nest: the deepest a route takes is 2 (wagers in a body)
JSON_DEPTH = 8
#: every response's policy: the page's own scripts, styles and connections only
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)
_HEADERS = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]


#: seconds a request's whole body may take to arrive (8 KB at most: a slow phone sends
#: it in well under one); after them the request is answered 408 and its connection closed
BODY_SECONDS = 10
#: the code of a request whose body did not arrive in time
TIMED_OUT = "timed_out"


class BodyGuard:
    """A request's checks before its body is parsed: the CSRF token and session that a
    route taking a body depends on, then a body of at most :data:`BODY_LIMIT` bytes, read as it
    arrives (``Content-Length`` or chunked) within :data:`BODY_SECONDS`, then (for a route
    that takes one) JSON a route can read. A refusal comes in the one body shape and
    nothing runs."""

    def __init__(
        self, app: ASGIApp, routes: Iterable[BaseRoute] = (), limit: int = BODY_LIMIT
    ) -> None:
        self.app, self.limit = app, limit
        # the routes that take a body (their methods and path patterns, as Starlette
        # matches a route in full), with what they depend on: a route without a body
        # checks in its own order
        self.routes = [
            (route.methods, route.path_regex, frozenset(_calls(route.dependant)))
            for route in routes
            if isinstance(route, APIRoute) and route.body_field is not None
        ]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        method, path = scope["method"], get_route_path(scope)
        matched = (
            needs
            for methods, pattern, needs in self.routes
            if (not methods or method in methods) and pattern.match(path)
        )
        needs = next(matched, None)
        try:
            if needs is not None:
                await _check_before_body(scope, needs)
            with anyio.fail_after(BODY_SECONDS):  # a body sent a byte a second ends here
                body = await self._read(scope, receive)
        except Refusal as refusal:
            await refusal_response(refusal)(scope, receive, send)
            return
        except TimeoutError:
            late = error_body(f"the body did not arrive within {BODY_SECONDS} s", TIMED_OUT)
            await JSONResponse(late, status_code=408, headers={"Connection": "close"})(
                scope, receive, send
            )
            return
        if body is None:  # the client went away
            return
        problem = json_problem(body) if needs is not None and body else None
        if problem:
            await _invalid(problem)(scope, receive, send)
            return
        await self.app(scope, _replay(body, receive), send)

    async def _read(self, scope: Scope, receive: Receive) -> bytes | None:
        declared = dict(scope["headers"]).get(b"content-length", b"0")
        if not declared.isdigit() or int(declared) > self.limit:
            raise _too_large(self.limit)
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return None
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                raise _too_large(self.limit)
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)


class OneHost:
    """A request or handshake with more than one ``Host`` header is refused (400):
    a host check and the route might each read a different one.

    An HTTP/1.1 request has exactly one; a proxy that forwards a second is broken or
    tricked, and which of the two a check reads is a guess."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            hosts = sum(1 for name, _ in scope.get("headers", []) if name == b"host")
            if hosts > 1:
                if scope["type"] == "websocket":
                    await send({"type": "websocket.close", "code": 1008})
                    return
                body = error_body("one Host header, not several", INVALID_REQUEST)
                await JSONResponse(body, status_code=400)(scope, receive, send)
                return
        await self.app(scope, receive, send)


class SecurityHeaders:
    """The content security policy, ``nosniff``, ``no-referrer`` and no framing on
    every response; ``Secure`` on every cookie set over HTTPS."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        secure = scope.get("scheme") == "https"

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                named = {name.lower() for name, _ in headers}
                headers += [(name, value) for name, value in _HEADERS if name not in named]
                if secure:
                    headers = [_secure_cookie(name, value) for name, value in headers]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


#: the requests whose answers are always one round's view (a deal, a decision: under
#: a kilobyte, so gzip's minimum left them uncompressed anyway): POSTs under this path
SMALL_ANSWERS = "/api/rounds"


class LargeAnswersGzipped:
    """GZip (``minimum_size`` bytes and up) on every answer but a round's POSTs
    (:data:`SMALL_ANSWERS`): for those gzip's wrapping (a responder, the content type
    read, the first body buffered) was about 3% of the server's CPU, only to send the
    view as it was."""

    def __init__(self, app: ASGIApp, minimum_size: int) -> None:
        self.app = app
        self.gzip = GZipMiddleware(app, minimum_size=minimum_size)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        small = (
            scope["type"] == "http"
            and scope["method"] == "POST"
            and scope["path"].startswith(SMALL_ANSWERS)
        )
        await (self.app if small else self.gzip)(scope, receive, send)


def security_headers() -> dict[str, str]:
    """The headers :class:`SecurityHeaders` adds, for a response sent outside it."""
    return {name.decode(): value.decode() for name, value in _HEADERS}


def json_problem(body: bytes) -> str | None:
    """What keeps ``body`` from being JSON a route can read, if anything: not UTF-8,
    not JSON, nested deeper than :data:`JSON_DEPTH`, or text with a lone surrogate
    (which no response could echo)."""
    try:
        value = json.loads(body.decode("utf-8"))
    except UnicodeDecodeError:
        return "the body is not UTF-8 text"
    except json.JSONDecodeError as error:
        return f"the body is not JSON: {error.msg} at character {error.pos}"
    except RecursionError:
        return f"the body is nested more than {JSON_DEPTH} deep"
    except ValueError:  # an integer of thousands of digits
        return "the body has a number too long to read"
    return _value_problem(value, 1)


def _value_problem(value: object, depth: int) -> str | None:
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return "the body has text that is not Unicode (a lone surrogate)"
        return None
    inner: Iterable[object]
    if isinstance(value, dict):
        inner = [*value.keys(), *value.values()]
    elif isinstance(value, list):
        inner = value
    else:
        return None
    if depth > JSON_DEPTH:
        return f"the body is nested more than {JSON_DEPTH} deep"
    for item in inner:
        problem = _value_problem(item, depth + 1)
        if problem:
            return problem
    return None


def _calls(dependant: Dependant) -> Iterable[Callable[..., object] | None]:
    for inner in dependant.dependencies:
        yield inner.call
        yield from _calls(inner)


async def _check_before_body(scope: Scope, needs: frozenset[Callable[..., object] | None]) -> None:
    """The route's CSRF check and player, from the headers alone; the player found is
    left in the request's state for :func:`~riverboat.web.deps.current_player`."""
    csrf, player_needed = check_csrf in needs, current_player in needs  # no narrowing
    if not (csrf or player_needed):
        return
    headers = dict(scope["headers"])
    cookies = cookie_parser(headers.get(b"cookie", b"").decode("latin-1"))
    if csrf:
        token = headers.get(b"x-csrf-token", b"").decode("latin-1")
        await check_csrf(token or None, cookies.get(CSRF_COOKIE))
    if player_needed:
        player = await find_player(HTTPConnection(scope), cookies.get(SESSION_COOKIE))
        if player is None:
            raise BadCredentials("log in first")
        scope.setdefault("state", {})[FOUND_PLAYER] = player


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that hands the app the body already read, then the client's own."""
    given = False

    async def replay() -> Message:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


def _too_large(limit: int) -> TooLarge:
    return TooLarge(f"the request body is over {limit // 1024} KB; requests here are small JSON")


def _invalid(problem: str) -> JSONResponse:
    return JSONResponse(error_body(problem, INVALID_REQUEST), status_code=422)


def _secure_cookie(name: bytes, value: bytes) -> tuple[bytes, bytes]:
    if name.lower() == b"set-cookie" and b"secure" not in value.lower():
        return name, value + b"; Secure"
    return name, value
