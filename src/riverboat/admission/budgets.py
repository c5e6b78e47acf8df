"""The shares of slow work the whole process gives at once: :class:`Budget` (a
password check, a history page), :class:`Rate` (work a second per key) and
:class:`Tarpit` (refusals answered late).

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

A budget keeps ``reserve`` slots more for the calls it was told to let in
(:meth:`Budget.vouch`: a log-in from an address with no recent failures), which also
wait ahead of the others, so one such call never queues behind the rest:

>>> with checks.spend("10.0.0.66"), checks.vouch("10.0.0.1"), checks.spend("10.0.0.1"):
...     checks.running
2

A :class:`Rate` lets each key take so much work a second (a token bucket), and says
how long to wait for more; a :class:`Tarpit` answers a refusal late, so a loop that
ignores ``Retry-After`` asks again only when its wait is over:

>>> clock = [0.0]
>>> pages = Rate("history pages", capacity=100, per_second=10, clock=lambda: clock[0])
>>> pages.take("ann", 100), pages.take("ann", 20), pages.take("bob", 20)
(0.0, 2.0, 0.0)
"""

from __future__ import annotations

import asyncio
import math
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from riverboat.errors import Unavailable

__all__ = ["KEEP", "RESERVE", "Budget", "Busy", "Rate", "Tarpit"]

#: the longest a refusal is held back (:class:`Tarpit`); refusals held back at once,
#: from one address and in all, before the next is answered at once
TARPIT_SECONDS, TARPIT_EACH, TARPIT_ALL = 5.0, 2, 256
#: keys a :class:`Rate` keeps before it forgets those whose buckets are full again
KEEP = 10_000
#: slots a :class:`Budget` keeps, beyond its own, for the calls it was told to let in
RESERVE = 1


class Busy(Unavailable):
    """Too much of one kind of work under way (or, ``said``, asked for): refused, nothing
    done; the whole seconds to wait before trying again (``retry_after``)."""

    def __init__(self, work: str, seconds: float, said: str = "under way") -> None:
        self.work, self.said = work, said
        self.retry_after = max(1, math.ceil(seconds))
        super().__init__(f"too many {work} {said}; try again in {self.retry_after} s")

    def after(self, seconds: float) -> Busy:
        """The same refusal ``seconds`` later: that much less to wait (1 s at least).

        >>> Busy("history pages", 5).after(3).retry_after
        2
        """
        return Busy(self.work, self.retry_after - seconds, self.said)


class Budget:
    """At most ``slots`` calls of one kind of work at once in this process, ``queue``
    more waiting their turn in order of arrival, and at most ``each`` (running or
    waiting) per key (an address, a player); any call beyond is :class:`Busy` at once.
    ``seconds`` is about how long one call takes, for the wait a refusal suggests.

    A call for a key the caller vouched for (:meth:`vouch`) may also run in ``reserve``
    slots more, which no other call takes, and waits in a line of its own (``queue``
    long) that goes before the others: a budget nobody vouches for never uses them.

    A call waits in the thread that made it, so a budget's calls hold at most
    ``slots + reserve + 2 * queue`` threads however many arrive."""

    def __init__(
        self,
        work: str,
        slots: int,
        queue: int,
        each: int = 1,
        seconds: float = 1.0,
        reserve: int = RESERVE,
    ) -> None:
        if slots < 1 or queue < 0 or each < 1 or reserve < 0:
            raise ValueError(
                f"a budget runs 1 or more at once, 1 or more per key and 0 or more wait "
                f"or are kept; not {slots}, {each}, {queue} and {reserve}"
            )
        self.work, self.slots, self.queue, self.each = work, slots, queue, each
        self.seconds, self.reserve = seconds, reserve
        self.running = 0
        self._waiting: deque[object] = deque()
        self._first: deque[object] = deque()  # the calls vouched for, waiting
        self._vouched: set[str] = set()
        self._by_key: Counter[str] = Counter()
        self._turn = threading.Condition()

    @property
    def waiting(self) -> int:
        """How many calls wait their turn now."""
        return len(self._first) + len(self._waiting)

    @contextmanager
    def vouch(self, key: str) -> Iterator[None]:
        """The next call for ``key`` made in the body may take the reserve and waits
        ahead of the others: once (the call takes the voucher), and no longer than
        the body."""
        with self._turn:
            self._vouched.add(key)
        try:
            yield
        finally:
            with self._turn:
                self._vouched.discard(key)

    @contextmanager
    def spend(self, key: str | None = None) -> Iterator[None]:
        """Run the body as one call of this work for ``key`` (None: counted in the
        whole only): at once, after the calls ahead of it, or not at all (:class:`Busy`)."""
        with self._turn:
            vouched = key in self._vouched
            if key is not None:
                self._vouched.discard(key)
            refused = self._refusal(key, vouched)
            if refused is not None:
                raise refused
            self._count(key, 1)
            if self._must_wait(vouched):
                line, ticket = (self._first if vouched else self._waiting), object()
                line.append(ticket)
                while line[0] is not ticket or not self._room(vouched):
                    self._turn.wait()
                line.popleft()
                self._turn.notify_all()  # the next in line may go too, if a slot is free
            self.running += 1
        try:
            yield
        finally:
            with self._turn:
                self.running -= 1
                self._count(key, -1)
                self._turn.notify_all()

    def refusal(self, key: str | None = None, vouched: bool = False) -> Busy | None:
        """What a call for ``key`` (``vouched`` for or not) would be refused now, or
        None if it would run or wait: a look before the call, which may still be
        refused."""
        with self._turn:
            return self._refusal(key, vouched)

    def _refusal(self, key: str | None, vouched: bool) -> Busy | None:
        if key is not None and self._by_key[key] >= self.each:
            return self._busy()
        line = self._first if vouched else self._waiting
        if self._must_wait(vouched) and len(line) >= self.queue:
            return self._busy()
        return None

    def _room(self, vouched: bool) -> bool:
        """Whether a slot is free for such a call, the calls vouched for first."""
        if vouched:
            return self.running < self.slots + self.reserve
        return self.running < self.slots and not self._first

    def _must_wait(self, vouched: bool) -> bool:
        """Whether such a call arriving now waits (a slot taken, or calls in line)."""
        return not self._room(vouched) or bool(self._first if vouched else self.waiting)

    def _count(self, key: str | None, step: int) -> None:
        if key is not None:
            self._by_key[key] += step
            if not self._by_key[key]:
                del self._by_key[key]

    def _busy(self) -> Busy:
        ahead = self.running + self.waiting
        return Busy(self.work, self.seconds * ahead / self.slots)


class Rate:
    """At most ``capacity`` units of ``work`` at once per key, given back at
    ``per_second`` (a token bucket): a key may spend its whole bucket at once, then as
    fast as it refills; a take of more than the capacity takes a full bucket. Buckets
    live in this process, and a key whose bucket is full again is forgotten once
    :data:`KEEP` are kept."""

    def __init__(
        self,
        work: str,
        capacity: float,
        per_second: float,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if capacity <= 0 or per_second <= 0:
            raise ValueError(
                f"a rate holds and gives back more than 0 a second; not {capacity} and {per_second}"
            )
        self.work, self.capacity, self.per_second = work, capacity, per_second
        self._clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}  # key: (level, when)
        self._lock = threading.Lock()

    def take(self, key: str, units: float = 1.0) -> float:
        """Take ``units`` (at most the capacity) from ``key``'s bucket: 0.0 if taken,
        else the seconds until there are enough (nothing is taken).

        >>> rate = Rate("pages", capacity=10, per_second=1, clock=lambda: 0.0)
        >>> rate.take("ann", 30), rate.take("ann", 1)
        (0.0, 1.0)
        """
        units, now = min(units, self.capacity), self._clock()
        with self._lock:
            level, when = self._buckets.get(key, (self.capacity, now))
            level = min(self.capacity, level + (now - when) * self.per_second)
            if level < units:
                self._buckets[key] = (level, now)
                return (units - level) / self.per_second
            if len(self._buckets) >= KEEP:
                self._forget(now)
            self._buckets[key] = (level - units, now)
            return 0.0

    def refusal(self, seconds: float) -> Busy:
        """What a key told to wait ``seconds`` is answered."""
        return Busy(self.work, seconds, said="asked for")

    def _forget(self, now: float) -> None:
        full = [
            key
            for key, (level, when) in self._buckets.items()
            if level + (now - when) * self.per_second >= self.capacity
        ]
        for key in full:
            del self._buckets[key]


class Tarpit:
    """Refusals answered late: a refusal that asks a client to wait is held back for
    that long (at most ``longest`` seconds) on the event loop, where a sleeping
    connection costs no thread, no lock and no CPU; so a loop that ignores
    ``Retry-After`` asks again only as often as it is allowed to. At most ``each``
    refusals per key (an address) and ``total`` in all sleep at once: any beyond are
    answered at once. Counted in this process (one event loop: no lock needed).

    >>> tarpit = Tarpit(longest=0.01, each=1)
    >>> asyncio.run(tarpit.delay("10.0.0.66", 5.0))
    0.01
    """

    def __init__(
        self, longest: float = TARPIT_SECONDS, each: int = TARPIT_EACH, total: int = TARPIT_ALL
    ) -> None:
        self.longest, self.each, self.total = longest, each, total
        self.sleeping = 0
        self._by_key: Counter[str] = Counter()

    async def delay(self, key: str, seconds: float) -> float:
        """Sleep ``seconds`` (at most :attr:`longest`) unless ``key`` already has
        :attr:`each` refusals sleeping or :attr:`total` sleep in all; the seconds slept."""
        wait = min(seconds, self.longest)
        if wait <= 0 or self._by_key[key] >= self.each or self.sleeping >= self.total:
            return 0.0
        self._by_key[key] += 1
        self.sleeping += 1
        try:
            await asyncio.sleep(wait)
        finally:
            self.sleeping -= 1
            self._by_key[key] -= 1
            if not self._by_key[key]:
                del self._by_key[key]
        return wait
