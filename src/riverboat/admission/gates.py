"""The web's admission control: the rate limit on every HTTP request and WebSocket
handshake (:class:`RateLimits`, a middleware, counting in a :class:`RateLimiter`),
the addresses waiting out a log-in throttle (:class:`LoginWaits`), and the
process's shares of the slow reads (:class:`Budgets`), each refusal answered late.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

from fastapi.requests import HTTPConnection
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from riverboat.admission.budgets import Budget, Busy, Rate, Tarpit
from riverboat.admission.counts import SharedCounts
from riverboat.admission.logins import FORGET
from riverboat.store.state import MemoryStore, StateStore
from riverboat.table.accounts.players import PASSWORD_CHECKS, Throttled, TooManySignUps
from riverboat.web.errors import CLOSE_TRY_LATER, RATE_LIMITED, error_body, refusal_response
from riverboat.web.watch import PROBES

__all__ = ["Budgets", "LoginWaits", "RateLimiter", "RateLimits"]

_log = logging.getLogger(__name__)
#: the log-in and sign-up routes' paths, whose tries :class:`RateLimits` holds to their
#: waits
LOG_IN, SIGN_UP = "/api/login", "/api/signup"
#: addresses told to wait that are kept before those whose waits are over are forgotten;
#: addresses that tried or logged in that are kept before the longest-kept is forgotten
ADDRESSES_KEPT = 10_000
#: log-ins from addresses new to this process let into the hash budget's reserve: so
#: many at once, then so many a second (:class:`LoginWaits`)
STRANGERS = (2.0, 1.0)
#: rounds of history a player may read at once (the longest page), and a second after
#: that: a page never waits on a bucket left full, and a loop reading pages of 100
#: gets one every 2 s
HISTORY_ROUNDS = (1000.0, 50.0)


def _history() -> Budget:
    """One page at a time in all, two more waiting; a player's two at once (the page's
    own reload and its fairness drawer's), the second waiting its turn."""
    return Budget("history pages", slots=1, queue=2, each=2, seconds=0.2)


def _pages() -> Rate:
    """Each player's rounds of history a second (:data:`HISTORY_ROUNDS`): the page reloads
    20 after each round a player plays, the fairness drawer 40, and a shoe's check asks
    for up to 200, one after another: well within a full bucket."""
    return Rate("history pages", *HISTORY_ROUNDS)


def _sign_up_waits() -> LoginWaits:
    """The addresses told to wait before their next sign-up (none is let into the
    password checks' reserve: that is for log-ins)."""
    return LoginWaits(refused=TooManySignUps)


def _handshakes() -> Budget:
    return Budget("table connections", slots=2, queue=4, each=1, seconds=0.1)


class LoginWaits:
    """Addresses told to wait before their next log-in (``Throttled``, or ``Busy``: the
    password checks were spent), each until its wait is over: :class:`RateLimits`
    refuses their log-ins at the edge meanwhile, in the same words, before a body is
    read or a thread taken, so a guessing loop that ignores ``Retry-After`` costs the
    server next to nothing. (Sign-ups have waits of their own, told as ``refused``:
    :class:`~riverboat.table.accounts.players.TooManySignUps`.)

    And which log-ins the password checks' reserve is kept for (:meth:`vouch`): those
    from an address that has not asked to log in here without then succeeding, in the
    last :data:`~riverboat.admission.logins.FORGET` seconds. An address is marked when it
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

    def __init__(
        self, clock: Callable[[], float] = time.monotonic, refused: type[Throttled] = Throttled
    ) -> None:
        self._clock, self._refused = clock, refused
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
            if len(self._until) >= ADDRESSES_KEPT:  # forget the waits that are over
                self._until = {a: w for a, w in self._until.items() if w[0] > now}
            self._until[address] = max(self._until.get(address, until), until)

    def refusal(self, address: str) -> Throttled | Busy | None:
        """What ``address`` was told, with the seconds still to wait; None once over."""
        until, busy = self._until.get(address, (0.0, False))
        left = until - self._clock()
        if left <= 0:
            return None
        return Busy(PASSWORD_CHECKS, left) if busy else self._refused(left)

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
    """``address`` marked now, the longest-kept mark forgotten beyond :data:`ADDRESSES_KEPT`."""
    marks[address] = now
    marks.move_to_end(address)
    while len(marks) > ADDRESSES_KEPT:
        marks.popitem(last=False)


@dataclass
class Budgets:
    """The process's shares of the slow reads (:class:`~riverboat.admission.budgets.Budget`),
    on top of each address's rate limit: history pages, one at a time in all, two more
    waiting, two per player (one under way, one waiting), and each player's rounds of
    history a second (``pages``, a :class:`~riverboat.admission.budgets.Rate`); WebSocket
    handshakes, one per address at a time, two in all. Anything beyond is refused
    (429), so readers never take the threads or the database the players' wagers
    need. (Password checks have their own, ``service.password_checks``.) The addresses
    waiting out a throttle of log-ins, and of sign-ups (:class:`LoginWaits`); and the
    ``tarpit`` that answers refused log-ins, sign-ups and pages late (:meth:`late`)."""

    history: Budget = field(default_factory=_history)
    handshakes: Budget = field(default_factory=_handshakes)
    log_ins: LoginWaits = field(default_factory=LoginWaits)
    sign_ups: LoginWaits = field(default_factory=_sign_up_waits)
    pages: Rate = field(default_factory=_pages)
    tarpit: Tarpit = field(default_factory=Tarpit)

    async def late(self, address: str, told: Throttled | Busy) -> Throttled | Busy:
        """``told`` once its wait is over (or the tarpit's longest, or at once when the
        tarpit is full), saying what is left of it: a client that asks again at once,
        ignoring ``Retry-After``, makes one request a wait, however fast it loops."""
        slept = await self.tarpit.delay(address, told.retry_after)
        return told.after(slept) if slept else told


class RateLimiter:
    """At most ``limit`` requests per client in each ``window`` seconds (a fixed window),
    counted under ``name`` (two limiters of one store count apart): in this process's
    memory when ``store`` is a :class:`~riverboat.store.state.MemoryStore` (one
    process serves), else counted here and shared with every other process through
    ``store`` in batches (:class:`~riverboat.admission.counts.SharedCounts`). Either
    way a request is counted on the event loop, waiting on nothing."""

    def __init__(
        self,
        limit: int = 60,
        window: float = 1.0,
        store: StateStore | None = None,
        name: str = "rate",
    ) -> None:
        self.limit, self.window, self.name = limit, window, name
        self.store: StateStore = store if store is not None else MemoryStore()
        self.counts: MemoryStore | SharedCounts = (
            self.store if isinstance(self.store, MemoryStore) else SharedCounts(self.store)
        )

    def allow(self, client: str) -> bool:
        """Whether the client may go on."""
        return self.counts.increment(f"{self.name}:{client}", self.window) <= self.limit


class RateLimits:
    """At most the app's rate limit of HTTP requests and WebSocket handshakes per
    client address per second, whatever they ask for: the API, a table, a file, an
    unknown path or method. The page's own files (a GET or HEAD of one the service
    worker keeps, or of the worker itself: ``app.state.page_files``) count against an
    allowance of their own (``app.state.page_limiter``), so that a page of some sixty
    files and its worker's install never spend what the page's requests to the table
    need. A request over its limit is refused (429) in the one body shape, a handshake
    accepted and closed (``CLOSE_TRY_LATER``, "slow down"). A shared
    table limits each player's WebSocket messages itself. A log-in or a sign-up from an
    address still waiting out its throttle (:class:`LoginWaits`), or one that would
    find the password checks spent, is refused here too, first and late
    (:meth:`Budgets.late`), before any thread is taken."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        probe = scope["type"] == "http" and scope["path"] in PROBES  # cheap: never limited
        if scope["type"] in ("http", "websocket") and not probe:
            connection = HTTPConnection(scope)
            client = scope["client"][0] if scope.get("client") else "unknown"
            path = scope["path"]
            if scope["type"] == "http" and path in (LOG_IN, SIGN_UP) and scope["method"] == "POST":
                state = connection.app.state
                budgets, hashes = state.budgets, state.service.password_checks
                waits = budgets.log_ins if path == LOG_IN else budgets.sign_ups
                vouched = path == LOG_IN and waits.clean(client)
                told = waits.refusal(client) or hashes.refusal(client, vouched)
                if told is not None:  # answered late, at no thread's cost (Budgets.late)
                    await refusal_response(await budgets.late(client, told))(scope, receive, send)
                    return
            state = connection.app.state
            page_file = scope["type"] == "http" and scope["method"] in ("GET", "HEAD")
            limiter = (
                state.page_limiter if page_file and path in state.page_files else state.limiter
            )
            if not limiter.allow(client):
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
