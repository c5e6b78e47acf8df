"""Failed log-ins, throttled per (account, address) and per address, never per account.

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
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

__all__ = [
    "ADDRESS_FREE",
    "FREE",
    "LONGEST",
    "LoginThrottle",
    "MemoryThrottle",
]

#: failures allowed for one account from one address, and for one address over all
#: accounts (several people may share an address), before each next try waits
FREE = 5
ADDRESS_FREE = 20
#: the longest wait, in seconds; and how long a quiet record is kept
LONGEST = 600.0
FORGET = 24 * 3600.0
#: records kept before quiet ones are forgotten
KEEP = 10_000


class LoginThrottle(Protocol):
    """Where failed log-ins are counted: in memory here, in a shared store later."""

    def attempt(self, account: str, address: str) -> float:
        """Seconds to wait before this address may try this account again; 0.0 means go
        ahead, and the try counts as a failure until :meth:`succeeded`."""
        ...

    def succeeded(self, account: str, address: str) -> None:
        """The try was right: forget this address's failures at this account."""
        ...


@dataclass
class _Record:
    failures: int = 0
    not_before: float = 0.0  # on the throttle's clock
    last: float = 0.0


class MemoryThrottle:
    """:class:`LoginThrottle` in this process's memory."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._records: dict[tuple[str, ...], _Record] = {}  # (account, address), (address,)
        self._lock = threading.Lock()

    def attempt(self, account: str, address: str) -> float:
        now = self._clock()
        pair, alone = (account, address), (address,)
        with self._lock:
            records = [self._records.get(pair) or _Record(), self._records.get(alone) or _Record()]
            wait = max(record.not_before - now for record in records)
            if wait > 0:
                return float(wait)
            for record, free in zip(records, (FREE, ADDRESS_FREE), strict=True):
                record.failures += 1
                record.last = now
                if record.failures >= free:
                    record.not_before = now + min(2.0 ** (record.failures - free), LONGEST)
            if len(self._records) >= KEEP:
                self._forget(now)
            self._records[pair], self._records[alone] = records
            return 0.0

    def succeeded(self, account: str, address: str) -> None:
        with self._lock:
            self._records.pop((account, address), None)
            alone = self._records.get((address,))
            if alone is not None:  # this try was counted against the address: take it back
                alone.failures = max(alone.failures - 1, 0)
                if alone.failures < ADDRESS_FREE:
                    alone.not_before = 0.0

    def _forget(self, now: float) -> None:
        quiet = [key for key, record in self._records.items() if now - record.last > FORGET]
        for key in quiet:
            del self._records[key]
