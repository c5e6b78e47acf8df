"""Failed log-ins, throttled per (account, address) and per address, never per account;
and :class:`Budget`, the share of a slow kind of work (a password check, a history
page) the whole process gives at once.

A few failures are free; after that each failure makes the next try wait twice as
long as the last (1 s, 2 s, 4 s, ... up to :data:`LONGEST`). A stranger guessing at
an account slows only their own address: its owner, from anywhere else, logs in as
ever. The account is named by its key whether or not it exists, so the answer never
tells a real name from a made-up one.

An attempt counts as failed from the moment it starts until it succeeds, so guesses
sent at once are counted at once.

>>> clock = [0.0]
>>> throttle = MemoryThrottle(clock=lambda: clock[0])
>>> [throttle.attempt("ann", "10.0.0.66") for _ in range(6)]
[0.0, 0.0, 0.0, 0.0, 0.0, 1.0]
>>> throttle.attempt("ann", "10.0.0.1")  # ann's own address is not slowed
0.0
>>> clock[0] = 1.0
>>> throttle.attempt("ann", "10.0.0.66"), throttle.attempt("ann", "10.0.0.66")
(0.0, 2.0)

A budget runs ``slots`` calls at once, lets ``queue`` more wait their turn in order of
arrival and refuses the rest at once (:class:`Busy`), so the callers it refuses hold
no thread, no connection and no lock:

>>> checks = Budget("password checks", slots=1, queue=0)
>>> with checks.spend("10.0.0.66"):
...     try:
...         with checks.spend("10.0.0.67"):
...             pass
...     except Busy as busy:
...         print(f"{busy} (Retry-After: {busy.retry_after})")
too many password checks under way; try again in 1 s (Retry-After: 1)
>>> checks.running, checks.waiting
(0, 0)
"""

from __future__ import annotations

import math
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Protocol

from riverboat.errors import Unavailable
from riverboat.store.state import MemoryStore, StateStore

__all__ = [
    "ADDRESS_FREE",
    "FREE",
    "LONGEST",
    "Budget",
    "Busy",
    "LoginThrottle",
    "MemoryThrottle",
    "StoreThrottle",
]

#: failures allowed for one account from one address, and for one address over all
#: accounts (several people may share an address), before each next try waits
FREE = 5
ADDRESS_FREE = 20
#: the longest wait, in seconds; and how long failures are counted
LONGEST = 600.0
FORGET = 24 * 3600.0


class LoginThrottle(Protocol):
    """Where failed log-ins are counted."""

    def attempt(self, account: str, address: str) -> float:
        """Seconds to wait before this address may try this account again; 0.0 means go
        ahead, and the try counts as a failure until :meth:`succeeded`."""
        ...

    def succeeded(self, account: str, address: str) -> None:
        """The try was right: forget this address's failures at this account."""
        ...

    def withdraw(self, account: str, address: str) -> None:
        """The try was never made (the server was too busy to check it): it does not
        count against the address."""
        ...


class StoreThrottle:
    """:class:`LoginThrottle` kept in a :class:`StateStore`: in the database or Redis,
    every server process counts the same failures and a restart forgets none. Each
    key's failures are a counter (forgotten :data:`FORGET` seconds after the first);
    a wait is a value that expires when the wait is over."""

    def __init__(self, store: StateStore) -> None:
        self._store = store

    def attempt(self, account: str, address: str) -> float:
        store, now = self._store, self._store.now()
        keys = _keys(account, address)
        wait = max(float(store.get(key + "|wait") or 0.0) - now for key in keys)
        if wait > 0:
            return wait
        for key, free in zip(keys, (FREE, ADDRESS_FREE), strict=True):
            failures = store.increment(key, FORGET)  # counted at once, by every process
            if failures >= free:
                pause = min(2.0 ** (failures - free), LONGEST)
                store.put(key + "|wait", repr(now + pause), pause)
        return 0.0

    def succeeded(self, account: str, address: str) -> None:
        pair, alone = _keys(account, address)
        self._store.delete(pair, pair + "|wait")
        # this try was counted against the address: take it back
        if self._store.increment(alone, FORGET, by=-1) < ADDRESS_FREE:
            self._store.delete(alone + "|wait")


    def withdraw(self, account: str, address: str) -> None:
        for key, free in zip(_keys(account, address), (FREE, ADDRESS_FREE), strict=True):
            if self._store.increment(key, FORGET, by=-1) < free:
                self._store.delete(key + "|wait")


def _keys(account: str, address: str) -> tuple[str, str]:
    """The store's keys for an (account, address) pair's failures and the address's."""
    return f"login:{account}|{address}", f"login-address:{address}"


def MemoryThrottle(clock: Callable[[], float] = time.time) -> StoreThrottle:  # noqa: N802
    """:class:`LoginThrottle` in this process's memory (the command line, tests)."""
    return StoreThrottle(MemoryStore(clock))


class Busy(Unavailable):
    """Too much of one kind of work under way: refused at once, nothing done; the
    whole seconds to wait before trying again (``retry_after``)."""

    def __init__(self, work: str, seconds: float) -> None:
        self.retry_after = max(1, math.ceil(seconds))
        super().__init__(f"too many {work} under way; try again in {self.retry_after} s")


class Budget:
    """At most ``slots`` calls of one kind of work at once in this process, ``queue``
    more waiting their turn in order of arrival, and at most ``each`` (running or
    waiting) per key (an address, a player); any call beyond is :class:`Busy` at once.
    ``seconds`` is about how long one call takes, for the wait a refusal suggests.

    A call waits in the thread that made it, so a budget's calls hold at most
    ``slots + queue`` threads however many arrive."""

    def __init__(
        self, work: str, slots: int, queue: int, each: int = 1, seconds: float = 1.0
    ) -> None:
        if slots < 1 or queue < 0 or each < 1:
            raise ValueError(
                f"a budget runs 1 or more at once, 1 or more per key and 0 or more wait; "
                f"not {slots}, {each} and {queue}"
            )
        self.work, self.slots, self.queue, self.each = work, slots, queue, each
        self.seconds = seconds
        self.running = 0
        self._waiting: deque[object] = deque()
        self._by_key: Counter[str] = Counter()
        self._turn = threading.Condition()

    @property
    def waiting(self) -> int:
        """How many calls wait their turn now."""
        return len(self._waiting)

    @contextmanager
    def spend(self, key: str | None = None) -> Iterator[None]:
        """Run the body as one call of this work for ``key`` (None: counted in the
        whole only): at once, after the calls ahead of it, or not at all (:class:`Busy`)."""
        with self._turn:
            if key is not None and self._by_key[key] >= self.each:
                raise self._busy()
            if self.running >= self.slots or self._waiting:
                if len(self._waiting) >= self.queue:
                    raise self._busy()
                ticket = object()
                self._waiting.append(ticket)
                self._count(key, 1)
                while self._waiting[0] is not ticket or self.running >= self.slots:
                    self._turn.wait()
                self._waiting.popleft()
                self._turn.notify_all()  # the next in line may go too, if a slot is free
            else:
                self._count(key, 1)
            self.running += 1
        try:
            yield
        finally:
            with self._turn:
                self.running -= 1
                self._count(key, -1)
                self._turn.notify_all()

    def _count(self, key: str | None, step: int) -> None:
        if key is not None:
            self._by_key[key] += step
            if not self._by_key[key]:
                del self._by_key[key]

    def _busy(self) -> Busy:
        ahead = self.running + len(self._waiting)
        return Busy(self.work, self.seconds * ahead / self.slots)
