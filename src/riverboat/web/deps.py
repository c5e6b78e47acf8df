"""What the routes depend on, as FastAPI dependencies: the app's state (service,
sessions, rate limiter, the lobby of shared tables, the budgets of slow reads), the
current player, the CSRF check; and the rate limit, a middleware that counts every
HTTP request (:class:`RateLimits`).

Sessions live in a :class:`Sessions` object on ``app.state``, kept in the app's
state store (:mod:`riverboat.store.state`) with the rate limiter's counts; a route asks for what
it needs (``Service``, ``Player``, ``Checked``) and never reaches into a closure.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import hashlib
import hmac
import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Annotated, Any, TypeVar

import anyio.to_thread
from fastapi import Cookie, Depends, Header
from fastapi.requests import HTTPConnection
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from riverboat.errors import BadCredentials, Forbidden, NotFound, Unavailable
from riverboat.games import find_game
from riverboat.games.rules import RulesError
from riverboat.rng import new_token
from riverboat.store.state import MemoryStore, StateStore
from riverboat.table.lobby import Lobby
from riverboat.table.players import PASSWORD_CHECKS, Throttled
from riverboat.table.service import TableService
from riverboat.table.throttle import FORGET, Budget, Busy, Rate, Tarpit
from riverboat.web.errors import CLOSE_TRY_LATER, RATE_LIMITED, error_body, refusal_response

__all__ = [
    "CSRF_COOKIE",
    "SESSION_COOKIE",
    "SESSION_SECONDS",
    "WORKERS",
    "Budgets",
    "Checked",
    "GameName",
    "LoginWaits",
    "Player",
    "RateLimiter",
    "RateLimits",
    "Service",
    "SessionToken",
    "Sessions",
    "Spend",
    "check_csrf",
    "current_player",
    "find_player",
    "in_worker",
    "known_game",
    "player_of",
]

_log = logging.getLogger(__name__)
T = TypeVar("T")
#: the log-in route's path, whose tries :class:`RateLimits` holds to their waits
LOG_IN = "/api/login"
#: addresses told to wait that are kept before those whose waits are over are forgotten;
#: addresses that tried or logged in that are kept before the longest-kept is forgotten
KEEP = 10_000
#: log-ins from addresses new to this process let into the hash budget's reserve: so
#: many at once, then so many a second (:class:`LoginWaits`)
STRANGERS = (2.0, 1.0)
#: rounds of history a player may read at once (the longest page), and a second after
#: that: a page never waits on a bucket left full, and a loop reading pages of 100
#: gets one every 2 s
HISTORY_ROUNDS = (1000.0, 50.0)
SESSION_COOKIE = "riverboat_session"
SESSION_SECONDS = 12 * 3600  # a session lasts twelve hours
CSRF_COOKIE = "riverboat_csrf"
#: the most seconds a cached session is answered from memory before the store is read
#: again (:class:`Sessions`): how late a close made by another process is seen
RECHECK = 2.0
#: where :class:`~riverboat.web.guards.BodyGuard` leaves the player it found, in the
#: request's state, so :func:`current_player` does not look the session up again
FOUND_PLAYER = "riverboat.player"


class Sessions:
    """Open sessions, kept in a :class:`StateStore` (the database or Redis, so every
    process sees them and a restart keeps them): a session's key is its token's
    SHA-256, never the token itself; it names the player and expires with the session.
    A second key per session, under the player's id, lets their other sessions be
    found and closed.

    With ``cache`` (for a store only this process serves: an SQLite server, which
    refuses ``--workers`` above 1) a session this process opened or read lately is
    answered from memory, read again from the store at most every :data:`RECHECK`
    seconds (by the store's clock): every close in this process is seen at once
    (written through); one in another process on the same file, or the session's end
    of time, within :data:`RECHECK` seconds. Without it
    (Redis, PostgreSQL: several processes) every lookup reads the store.

    >>> sessions = Sessions(cache=True)
    >>> token = sessions.open(7)
    >>> sessions.at_hand(token), sessions.player(token)
    (True, 7)
    >>> sessions.close(token)
    >>> sessions.at_hand(token), sessions.player(token)
    (False, None)
    """

    def __init__(self, store: StateStore | None = None, cache: bool = False) -> None:
        self.store: StateStore = store if store is not None else MemoryStore()
        self.cache, self.recheck = cache, RECHECK
        self._seen: dict[str, tuple[int, float]] = {}  # digest: (player, read again after)
        self._closes = 0  # how many closes this process has made: a read older is not kept
        self._lock = threading.Lock()

    def open(self, player_id: int) -> str:
        token = new_token(32)
        digest, closes = _digest(token), self._closes
        self.store.put(f"session:{digest}", str(player_id), SESSION_SECONDS)
        self.store.put(f"sessions-of:{player_id}:{digest}", "", SESSION_SECONDS)
        self._remember(digest, player_id, closes)
        return token

    def close(self, token: str | None) -> None:
        if not token:
            return
        digest = _digest(token)
        player = self.store.get(f"session:{digest}")
        self.store.delete(f"session:{digest}", f"sessions-of:{player}:{digest}")
        self._forget(digest)

    def close_others(self, player_id: int, keep: str) -> int:
        """Close the player's sessions but ``keep``; how many were closed."""
        prefix, kept = f"sessions-of:{player_id}:", _digest(keep)
        others = [key[len(prefix) :] for key in self.store.keys(prefix)]
        others = [digest for digest in others if digest != kept]
        for digest in others:
            self.store.delete(f"session:{digest}", f"{prefix}{digest}")
        self._forget(*others)
        return len(others)

    def alive(self, token: str | None) -> bool:
        """Whether the session is still open."""
        return self.player(token) is not None

    def player(self, token: str | None) -> int | None:
        """The session's player; None once it has closed or expired (log in again)."""
        if not token:
            return None
        digest = _digest(token)
        known = self._known(digest)
        if known is not None:
            return known
        closes = self._closes
        found = self.store.get(f"session:{digest}")
        if found is None:
            return None
        self._remember(digest, int(found), closes)
        return int(found)

    def at_hand(self, token: str | None) -> bool:
        """Whether :meth:`player` answers from memory (no token, or a session in the
        cache), so that an event loop may ask it without handing it to a thread."""
        return not token or self._known(_digest(token)) is not None

    def _known(self, digest: str) -> int | None:
        found = self._seen.get(digest)
        return found[0] if found is not None and found[1] > self.store.now() else None

    def _remember(self, digest: str, player: int, closes: int) -> None:
        """Keep what the store said, unless a session was closed since it was read."""
        if not self.cache:
            return
        with self._lock:
            if closes != self._closes:
                return
            now = self.store.now()
            if len(self._seen) >= KEEP:  # forget the entries due to be read again
                self._seen = {d: seen for d, seen in self._seen.items() if seen[1] > now}
            self._seen[digest] = (player, now + self.recheck)

    def _forget(self, *digests: str) -> None:
        with self._lock:
            self._closes += 1
            for digest in digests:
                self._seen.pop(digest, None)


def _digest(token: str) -> str:
    """A session token's SHA-256, the only form of it kept.

    >>> len(_digest("a token"))
    64
    """
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def _history() -> Budget:
    """One page at a time in all, two more waiting; a player's two at once (the page's
    own reload and its fairness drawer's), the second waiting its turn."""
    return Budget("history pages", slots=1, queue=2, each=2, seconds=0.2)


def _pages() -> Rate:
    """Each player's rounds of history a second (:data:`HISTORY_ROUNDS`): the page reloads
    20 after each round a player plays, the fairness drawer 40, and a shoe's check asks
    for up to 200, one after another: well within a full bucket."""
    return Rate("history pages", *HISTORY_ROUNDS)


def _handshakes() -> Budget:
    return Budget("table connections", slots=2, queue=4, each=1, seconds=0.1)


class LoginWaits:
    """Addresses told to wait before their next log-in (``Throttled``, or ``Busy``: the
    password checks were spent), each until its wait is over: :class:`RateLimits`
    refuses their log-ins at the edge meanwhile, in the same words, before a body is
    read or a thread taken, so a guessing loop that ignores ``Retry-After`` costs the
    server next to nothing.

    And which log-ins the password checks' reserve is kept for (:meth:`vouch`): those
    from an address that has not asked to log in here without then succeeding, in the
    last :data:`~riverboat.table.throttle.FORGET` seconds. An address is marked when it
    is let into the reserve and when its password check fails (not when it is only
    told to wait), so each gets one try at most in the reserve before it counts as
    failing, and an owner told to wait keeps their turn. Addresses new to this
    process share :data:`STRANGERS` (a bucket over all of them), so a stream of new
    addresses takes the reserve about a third of the time at most (a hash takes about
    0.3 s); addresses that logged in here lately are not counted against it.

    >>> clock = [0.0]
    >>> waits = LoginWaits(clock=lambda: clock[0])
    >>> [waits.vouch(f"10.0.0.{n}") for n in range(3)], waits.vouch("10.0.0.0")
    ([True, True, False], False)
    >>> clock[0] = 1.0  # a stranger's turn is back: the one refused before takes it
    >>> waits.vouch("10.0.0.2"), waits.clean("10.0.0.2")
    (True, False)
    >>> waits.succeeded("10.0.0.0")
    >>> waits.vouch("10.0.0.0")  # known here: no stranger's turn taken
    True
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._until: dict[str, tuple[float, bool]] = {}  # address: (until, busy)
        self._tried: OrderedDict[str, float] = OrderedDict()  # address: when it last asked
        self._known: OrderedDict[str, float] = OrderedDict()  # address: when it logged in
        self._strangers = Rate(PASSWORD_CHECKS, *STRANGERS, clock=clock)
        self._lock = threading.Lock()

    def hold(self, address: str, told: Throttled | Busy) -> None:
        """``address`` was told ``told``: refuse its log-ins until its wait is over."""
        now = self._clock()
        until = (now + told.retry_after, isinstance(told, Busy))
        with self._lock:
            if len(self._until) >= KEEP:  # forget the waits that are over
                self._until = {a: w for a, w in self._until.items() if w[0] > now}
            self._until[address] = max(self._until.get(address, until), until)

    def refusal(self, address: str) -> Throttled | Busy | None:
        """What ``address`` was told, with the seconds still to wait; None once over."""
        until, busy = self._until.get(address, (0.0, False))
        left = until - self._clock()
        if left <= 0:
            return None
        return Busy(PASSWORD_CHECKS, left) if busy else Throttled(left)

    def clean(self, address: str) -> bool:
        """Whether ``address`` has not asked to log in without then succeeding lately."""
        return _since(self._tried, address, self._clock()) is None

    def vouch(self, address: str) -> bool:
        """Whether this log-in from ``address`` may take the reserve: clean, and known
        here or a stranger's turn free. An address let in is marked as having tried:
        its one turn there until it succeeds."""
        clean, now = self.clean(address), self._clock()
        known = _since(self._known, address, now) is not None
        let_in = clean and (known or not self._strangers.take(""))
        if let_in:
            self.tried(address)
        return let_in

    def tried(self, address: str) -> None:
        """``address`` took its turn in the reserve, or failed a password check: not
        clean until it succeeds."""
        with self._lock:
            _mark(self._tried, address, self._clock())

    def succeeded(self, address: str) -> None:
        """``address`` logged in: clean again, and known here."""
        with self._lock:
            self._tried.pop(address, None)
            _mark(self._known, address, self._clock())


def _since(marks: OrderedDict[str, float], address: str, now: float) -> float | None:
    """When ``address`` was marked, if less than ``FORGET`` seconds ago."""
    when = marks.get(address)
    return when if when is not None and now - when < FORGET else None


def _mark(marks: OrderedDict[str, float], address: str, now: float) -> None:
    """``address`` marked now, the longest-kept mark forgotten beyond :data:`KEEP`."""
    marks[address] = now
    marks.move_to_end(address)
    while len(marks) > KEEP:
        marks.popitem(last=False)


@dataclass
class Budgets:
    """The process's shares of the slow reads (:class:`~riverboat.table.throttle.Budget`),
    on top of each address's rate limit: history pages, one at a time in all, two more
    waiting, two per player (one under way, one waiting), and each player's rounds of
    history a second (``pages``, a :class:`~riverboat.table.throttle.Rate`); WebSocket
    handshakes, one per address at a time, two in all. Anything beyond is refused
    (429), so readers never take the threads or the database the players' wagers
    need. (Password checks have their own, ``service.players.hashes``.) The addresses
    waiting out a throttle (:class:`LoginWaits`); and the ``tarpit`` that answers
    refused log-ins and pages late (:meth:`late`)."""

    history: Budget = field(default_factory=_history)
    handshakes: Budget = field(default_factory=_handshakes)
    log_ins: LoginWaits = field(default_factory=LoginWaits)
    pages: Rate = field(default_factory=_pages)
    tarpit: Tarpit = field(default_factory=Tarpit)

    async def late(self, address: str, told: Throttled | Busy) -> Throttled | Busy:
        """``told`` once its wait is over (or the tarpit's longest, or at once when the
        tarpit is full), saying what is left of it: a client that asks again at once,
        ignoring ``Retry-After``, makes one request a wait, however fast it loops."""
        slept = await self.tarpit.delay(address, told.retry_after)
        return told.after(slept) if slept else told


class RateLimiter:
    """At most ``limit`` requests per client in each ``window`` seconds (a fixed window
    counted in ``store``, so every process counts the same requests)."""

    def __init__(
        self, limit: int = 60, window: float = 1.0, store: StateStore | None = None
    ) -> None:
        self.limit, self.window = limit, window
        self.store: StateStore = store if store is not None else MemoryStore()

    @property
    def in_memory(self) -> bool:
        """Whether the counts are in this process's memory: :meth:`allow` then waits on
        nothing, and an event loop may call it without handing it to a thread."""
        return isinstance(self.store, MemoryStore)

    def allow(self, client: str) -> bool:
        """Whether the client may go on; a store that does not answer counts nothing
        (the request goes on, and one that needs the database is refused there)."""
        try:
            return self.store.increment(f"rate:{client}", self.window) <= self.limit
        except Unavailable:
            _log.warning("the rate limit's store did not answer; request let through")
            return True


class RateLimits:
    """At most the app's rate limit of HTTP requests and WebSocket handshakes per
    client address per second, whatever they ask for: the API, the page, the static
    files, a table, an unknown path or method. A request over the limit is refused
    (429) in the one body shape, a handshake accepted and closed (``CLOSE_TRY_LATER``,
    "slow down"). A shared
    table limits each player's WebSocket messages itself. A log-in from an address
    still waiting out its throttle (:class:`LoginWaits`), or one that would find the
    password checks spent, is refused here too, first and late (:meth:`Budgets.late`),
    before any thread is taken."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            connection = HTTPConnection(scope)
            client = scope["client"][0] if scope.get("client") else "unknown"
            if scope["type"] == "http" and scope["path"] == LOG_IN and scope["method"] == "POST":
                budgets, hashes = get_budgets(connection), get_service(connection).players.hashes
                waits = budgets.log_ins
                told = waits.refusal(client) or hashes.refusal(client, waits.clean(client))
                if told is not None:  # answered late, at no thread's cost (Budgets.late)
                    await refusal_response(await budgets.late(client, told))(scope, receive, send)
                    return
            limiter = get_limiter(connection)
            if limiter.in_memory:
                allowed = limiter.allow(client)
            else:  # a count in the database or Redis: off the event loop
                allowed = await anyio.to_thread.run_sync(limiter.allow, client)
            if not allowed:
                if scope["type"] == "websocket":  # accepted, to be closed with a reason
                    await receive()  # websocket.connect
                    await send({"type": "websocket.accept"})
                    await send(
                        {"type": "websocket.close", "code": CLOSE_TRY_LATER, "reason": "slow down"}
                    )
                    return
                refused = error_body("too many requests; slow down", RATE_LIMITED)
                await JSONResponse(refused, status_code=429)(scope, receive, send)
                return
        await self.app(scope, receive, send)


def get_service(connection: HTTPConnection) -> TableService:
    service: TableService = connection.app.state.service
    return service


def get_sessions(connection: HTTPConnection) -> Sessions:
    sessions: Sessions = connection.app.state.sessions
    return sessions


def get_limiter(connection: HTTPConnection) -> RateLimiter:
    limiter: RateLimiter = connection.app.state.limiter
    return limiter


def get_budgets(connection: HTTPConnection) -> Budgets:
    budgets: Budgets = connection.app.state.budgets
    return budgets


def get_lobby(connection: HTTPConnection) -> Lobby:
    lobby: Lobby = connection.app.state.lobby
    return lobby


def player_of(connection: HTTPConnection, token: str | None) -> int | None:
    """The session's player, or on a loopback server the local player; None if neither."""
    player = get_sessions(connection).player(token)
    if player is not None:
        return player
    if connection.app.state.local_player:
        return int(get_service(connection).local_player())
    return None


async def find_player(connection: HTTPConnection, token: str | None) -> int | None:
    """:func:`player_of` from the event loop: answered there when the session is in
    memory (:meth:`Sessions.at_hand`), else in a worker thread (it reads the store)."""
    sessions = get_sessions(connection)
    if sessions.at_hand(token):
        player = sessions.player(token)
        if player is not None or not connection.app.state.local_player:
            return player
    return await anyio.to_thread.run_sync(player_of, connection, token)


#: the worker threads a round's request is handed to (:func:`in_worker`): as many
#: at once as anyio's default limiter lets run (40), which the other hand-offs keep
WORKERS = ThreadPoolExecutor(40, thread_name_prefix="riverboat-round")


async def in_worker(call: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``call(*args, **kwargs)`` in one of :data:`WORKERS`, with the caller's context
    variables, as anyio's ``to_thread.run_sync`` runs it: the hot round routes' one
    hop, without anyio's limiter, run variables and library lookup (about 7% of a
    saturated server's CPU went to them)."""
    context = contextvars.copy_context()
    work = functools.partial(context.run, call, *args, **kwargs)
    return await asyncio.get_running_loop().run_in_executor(WORKERS, work)


SessionToken = Annotated[str | None, Cookie(alias=SESSION_COOKIE)]


async def current_player(connection: HTTPConnection, session: SessionToken = None) -> int:
    """The logged-in player, or on a loopback server the local player; the one
    :class:`~riverboat.web.guards.BodyGuard` found already, if it looked."""
    player = connection.scope.get("state", {}).get(FOUND_PLAYER)
    if player is None:
        player = await find_player(connection, session)
    if player is None:
        raise BadCredentials("log in first")
    return int(player)


async def check_csrf(
    token: Annotated[str | None, Header(alias="X-CSRF-Token")] = None,
    cookie: Annotated[str | None, Cookie(alias=CSRF_COOKIE)] = None,
) -> None:
    """State-changing requests carry the page's CSRF token (double submit)."""
    if not token or not cookie or not hmac.compare_digest(token, cookie):
        raise Forbidden("missing or wrong CSRF token; reload the page")


async def known_game(game: str) -> str:
    """A game named in the path: one riverboat deals, or the request is not found."""
    try:
        return find_game(game).name
    except RulesError as error:
        raise NotFound(str(error)) from None


def _on_loop(read: Callable[[HTTPConnection], T]) -> Callable[[HTTPConnection], Awaitable[T]]:
    """``read`` as a dependency FastAPI awaits on the event loop: a plain function
    dependency would take a worker thread's turn for each request."""

    async def dependency(connection: HTTPConnection) -> T:
        return read(connection)

    return dependency


Service = Annotated[TableService, Depends(_on_loop(get_service))]
SessionStore = Annotated[Sessions, Depends(_on_loop(get_sessions))]
Spend = Annotated[Budgets, Depends(_on_loop(get_budgets))]
Player = Annotated[int, Depends(current_player)]
Checked = Depends(check_csrf)
GameName = Annotated[str, Depends(known_game)]
