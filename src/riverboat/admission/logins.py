"""Failed log-ins, throttled per (account, address) and per address, never per account.

A few failures are free; after that each failure makes the next try wait twice as
long as the last (1 s, 2 s, 4 s, ... up to :data:`LONGEST`). A stranger guessing at
an account slows only their own address: its owner, from anywhere else, logs in as
ever. The account is named by its key whether or not it exists, so the answer never
tells a real name from a made-up one.

An attempt counts as failed from the moment it starts until it succeeds, so guesses
sent at once are counted at once. Other tries an address should not make without end
are counted the same way, apart from log-ins, by their own ``kind`` (a sign-up, which
never succeeds in this sense: every one counts).

>>> clock = [0.0]
>>> throttle = MemoryThrottle(clock=lambda: clock[0])
>>> [throttle.attempt("ann", "10.0.0.66") for _ in range(6)]
[0.0, 0.0, 0.0, 0.0, 0.0, 1.0]
>>> throttle.attempt("ann", "10.0.0.1")  # ann's own address is not slowed
0.0
>>> clock[0] = 1.0
>>> throttle.attempt("ann", "10.0.0.66"), throttle.attempt("ann", "10.0.0.66")
(0.0, 2.0)
>>> throttle.attempt("ann", "10.0.0.66", kind="signup")  # counted apart
0.0
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol

from riverboat.store.state import MemoryStore, StateStore

__all__ = [
    "ADDRESS_FREE",
    "FIRST_WAIT",
    "FORGET",
    "FREE",
    "LOG_IN",
    "LONGEST",
    "LoginThrottle",
    "MemoryThrottle",
    "StoreThrottle",
]

#: the kind of try a throttle counts unless told otherwise
LOG_IN = "login"
#: failures allowed for one account from one address, and for one address over all
#: accounts (several people may share an address), before each next try waits
FREE = 5
ADDRESS_FREE = 20
#: the first wait, in seconds, once the free failures are spent; the longest; and how
#: long failures are counted
FIRST_WAIT = 1.0
LONGEST = 600.0
FORGET = 24 * 3600.0


class LoginThrottle(Protocol):
    """Where failed log-ins (and other tries of a ``kind``) are counted."""

    def attempt(self, account: str, address: str, kind: str = LOG_IN) -> float:
        """Seconds to wait before this address may try this account again; 0.0 means go
        ahead, and the try counts as a failure until :meth:`succeeded`."""
        ...

    def succeeded(self, account: str, address: str, kind: str = LOG_IN) -> None:
        """The try was right: forget this address's failures at this account."""
        ...


class StoreThrottle:
    """:class:`LoginThrottle` kept in a :class:`StateStore`: in the database or Redis,
    every server process counts the same failures and a restart forgets none. Each
    key's failures are a counter (forgotten :data:`FORGET` seconds after the first);
    a wait is a value that expires when the wait is over."""

    def __init__(self, store: StateStore) -> None:
        self._store = store

    def attempt(self, account: str, address: str, kind: str = LOG_IN) -> float:
        store, now = self._store, self._store.now()
        keys = _keys(account, address, kind)
        wait = max(float(store.get(key + "|wait") or 0.0) - now for key in keys)
        if wait > 0:
            return wait
        for key, free in zip(keys, (FREE, ADDRESS_FREE), strict=True):
            failures = store.increment(key, FORGET)  # counted at once, by every process
            if failures >= free:
                pause = min(FIRST_WAIT * 2.0 ** (failures - free), LONGEST)
                store.put(key + "|wait", repr(now + pause), pause)
        return 0.0

    def succeeded(self, account: str, address: str, kind: str = LOG_IN) -> None:
        pair, alone = _keys(account, address, kind)
        self._store.delete(pair, pair + "|wait")
        # this try was counted against the address: take it back
        if self._store.increment(alone, FORGET, by=-1) < ADDRESS_FREE:
            self._store.delete(alone + "|wait")


def _keys(account: str, address: str, kind: str) -> tuple[str, str]:
    """The store's keys for an (account, address) pair's failures and the address's."""
    return f"{kind}:{account}|{address}", f"{kind}-address:{address}"


def MemoryThrottle(clock: Callable[[], float] = time.time) -> StoreThrottle:  # noqa: N802
    """:class:`LoginThrottle` in this process's memory (the command line, tests)."""
    return StoreThrottle(MemoryStore(clock))
