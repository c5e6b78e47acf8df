"""What the routes depend on, as FastAPI dependencies: the app's state (service,
sessions, rate limiter, the lobby of shared tables, the budgets of slow reads of
:mod:`riverboat.admission.gates`), the current player and the CSRF check (the
threads rounds run in: :mod:`riverboat.web.threads`).

Sessions live in a :class:`Sessions` object on ``app.state``, kept in the app's
state store (:mod:`riverboat.store.state`) with the rate limiter's counts; a route asks for what
it needs (``Service``, ``Player``, ``Checked``) and never reaches into a closure.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import threading
from collections.abc import Awaitable, Callable, Sequence
from typing import Annotated, TypeVar

import anyio.to_thread
from fastapi import Cookie, Depends, Header
from fastapi.requests import HTTPConnection

from riverboat.admission.gates import Budgets, RateLimiter
from riverboat.errors import BadCredentials, Forbidden, NotFound
from riverboat.games import find_game
from riverboat.games.rules import RulesError
from riverboat.rng import new_token
from riverboat.store.state import MemoryStore, StateStore
from riverboat.table.lobby import Lobby
from riverboat.table.service import TableService

__all__ = [
    "CSRF_COOKIE",
    "SESSION_COOKIE",
    "SESSION_SECONDS",
    "Checked",
    "GameName",
    "Player",
    "Service",
    "SessionToken",
    "Sessions",
    "Spend",
    "check_csrf",
    "current_player",
    "find_player",
    "known_game",
    "player_of",
]

_log = logging.getLogger(__name__)
T = TypeVar("T")
#: sessions a process keeps in memory before those due to be read again are forgotten
SESSIONS_KEPT = 10_000
SESSION_COOKIE = "riverboat_session"
SESSION_SECONDS = 12 * 3600  # a session lasts twelve hours
CSRF_COOKIE = "riverboat_csrf"
#: the most seconds a cached session is answered from memory before the store is read
#: again (:class:`Sessions`): how late a close made by another process is seen
RECHECK = 2.0
#: the same where every close is heard (:meth:`Sessions.hear`): how late a session's
#: end of time is seen
HEARD_RECHECK = 60.0
#: where :class:`~riverboat.web.guards.BodyGuard` leaves the player it found, in the
#: request's state, so :func:`current_player` does not look the session up again
FOUND_PLAYER = "riverboat.player"


class Sessions:
    """Open sessions, kept in a :class:`StateStore` (the database or Redis, so every
    process sees them and a restart keeps them): a session's key is its token's
    SHA-256, never the token itself; it names the player and expires with the session.
    A second key per session, under the player's id, lets their other sessions be
    found and closed.

    With ``cache`` a session this process opened or read lately is answered from
    memory, read again from the store at most every :data:`RECHECK` seconds (by the
    store's clock): every close in this process is seen at once (written through);
    one in another process, or the session's end of time, within :data:`RECHECK`
    seconds. That is for a store only this process serves (an SQLite server, which
    refuses ``--workers`` above 1). Where several processes serve (PostgreSQL), the
    cache is :meth:`hear`-d by a listener to every process's deletions: a close
    anywhere is then forgotten here as soon as it is heard, and the cache answers
    only while the listener is current (it has confirmed hearing every close up to
    :data:`~riverboat.store.deletions.STALE` seconds ago); a cached session is read
    again every :data:`HEARD_RECHECK` seconds.

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
        self._closes = 0  # how many closes this process has seen: a read older is not kept
        self._lock = threading.Lock()
        self._current: Callable[[], bool] | None = None  # whether closes are heard

    def hear(self, current: Callable[[], bool]) -> None:
        """Cache where several processes serve: every deletion any process makes is
        handed to :meth:`deleted`, and ``current`` tells whether that is so up to a
        moment ago (:meth:`riverboat.store.deletions.Listener.current`)."""
        self.cache, self.recheck, self._current = True, HEARD_RECHECK, current

    def deleted(self, keys: Sequence[str] | None) -> None:
        """Keys some process deleted from the store (None: any may have been): the
        sessions among them forgotten here, and every read under way not kept."""
        if keys is None:
            self._forget(every=True)
            return
        self._forget(*(key[len("session:") :] for key in keys if key.startswith("session:")))

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
        return self._close_of(player_id, _digest(keep))

    def close_all(self, player_id: int) -> int:
        """Close every session of the player's (an operator's lock, or their order);
        how many were closed."""
        return self._close_of(player_id)

    def _close_of(self, player_id: int, kept: str | None = None) -> int:
        prefix = f"sessions-of:{player_id}:"
        digests = [key[len(prefix) :] for key in self.store.keys(prefix)]
        digests = [digest for digest in digests if digest != kept]
        for digest in digests:
            self.store.delete(f"session:{digest}", f"{prefix}{digest}")
        self._forget(*digests)
        return len(digests)

    def count(self, player_id: int) -> int:
        """How many sessions the player holds open."""
        return len(self.store.keys(f"sessions-of:{player_id}:"))

    def alive(self, token: str | None) -> bool:
        """Whether the session is still open."""
        return self.player(token) is not None

    def player(self, token: str | None) -> int | None:
        """The session's player; None once it has closed or expired (log in again)."""
        if not token:
            return None
        known = self._known(_digest(token))
        if known is not None:
            return known
        key, closes = self.reading(token)
        return self.read(token, self.store.get(key), closes)

    def reading(self, token: str) -> tuple[str, int]:
        """The session's key in the store, and how many closes this process had made
        before it is read (:meth:`read` keeps what it finds only if none came since)."""
        return f"session:{_digest(token)}", self._closes

    def read(self, token: str, found: str | None, closes: int) -> int | None:
        """The player of the session whose key (:meth:`reading`) the store answered with
        ``found``: None once it has closed or expired; kept in memory as
        :meth:`player` keeps it."""
        if found is None:
            return None
        self._remember(_digest(token), int(found), closes)
        return int(found)

    def at_hand(self, token: str | None) -> bool:
        """Whether :meth:`player` answers from memory (no token, or a session in the
        cache), so that an event loop may ask it without handing it to a thread."""
        return not token or self._known(_digest(token)) is not None

    def remembered(self, token: str) -> int | None:
        """The session's player if this process holds it in memory, else None: never
        reads the store (what an event loop may ask)."""
        return self._known(_digest(token))

    def _known(self, digest: str) -> int | None:
        if self._current is not None and not self._current():
            return None  # a close elsewhere might not have been heard
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
            if len(self._seen) >= SESSIONS_KEPT:  # forget the entries due to be read again
                self._seen = {d: seen for d, seen in self._seen.items() if seen[1] > now}
            self._seen[digest] = (player, now + self.recheck)

    def _forget(self, *digests: str, every: bool = False) -> None:
        """Forget ``digests`` (with ``every``, every session), and keep no read under way."""
        with self._lock:
            self._closes += 1
            if every:
                self._seen.clear()
            for digest in digests:
                self._seen.pop(digest, None)


def _digest(token: str) -> str:
    """A session token's SHA-256, the only form of it kept.

    >>> len(_digest("a token"))
    64
    """
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


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
    memory (:meth:`Sessions.remembered`), else in a worker thread (it reads the store)."""
    player = get_sessions(connection).remembered(token) if token else None
    if token and player is None:  # not in memory: the store is read
        return await anyio.to_thread.run_sync(player_of, connection, token)
    if player is not None or not connection.app.state.local_player:
        return player
    return await anyio.to_thread.run_sync(player_of, connection, token)


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
