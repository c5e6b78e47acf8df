"""Counts over a window kept in this process's memory and shared with every other
process through the kept state, in batches (:class:`SharedCounts`): what the rate
limit counts requests in when several processes serve (PostgreSQL, Redis).

A request is counted here at once, on the event loop, with no thread and no statement
of its own: its count is the sum of what every process had counted when this one
last shared its counts and what this one has counted since. A thread shares them
:data:`SHARE_EVERY` seconds after the first count since the last sharing: every key
counted in a window still open, in one exchange
(:meth:`~riverboat.store.state.StateStore.increment_many`): those counted here since
written (one upsert each, however many requests), the others only read, and every
process's counts in the answer. (Writing every open window at each sharing would
have made some ten writes a request of a client asking once a second.) A process then
knows the others' counts at most :data:`SHARE_EVERY` seconds late while it is
counting: a client spreading its requests over N processes gets through at most what
the others let in that long beyond the limit. (Counting each request in the store
took one statement a request, handed to a thread: on PostgreSQL 1.06 M of the
server's 12.9 M instructions a round, ``bench/server_instructions.py``.) An idle
process shares nothing, and its sharing thread ends after :data:`IDLE` seconds
without a count (the next count starts another).

>>> from riverboat.store.state import MemoryStore
>>> store = MemoryStore()
>>> here, there = SharedCounts(store, every=600), SharedCounts(store, every=600)
>>> here.increment("rate:a", 60), there.increment("rate:a", 60)  # neither has shared
(1, 1)
>>> here.share(); there.share()  # there learns of here's count; here, at its next
>>> here.increment("rate:a", 60), there.increment("rate:a", 60)
(2, 3)
"""

from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass

from riverboat.errors import Unavailable
from riverboat.store.state import StateStore

__all__ = ["IDLE", "SHARE_EVERY", "SharedCounts"]

_log = logging.getLogger(__name__)
#: seconds after a count before the counts are shared with the other processes
SHARE_EVERY = 0.1
#: seconds without a count after which the sharing thread ends
IDLE = 10.0


@dataclass
class _Count:
    until: float  # when this window ends, by the store's clock
    seconds: float  # the window's length
    shared: int = 0  # every process's count when this one last shared
    mine: int = 0  # counted here since


class SharedCounts:
    """Counts over a window, each as :meth:`~riverboat.store.state.StateStore.increment`
    counts one, kept here and shared through ``store`` every ``every`` seconds while
    counting goes on."""

    def __init__(self, store: StateStore, every: float = SHARE_EVERY) -> None:
        self.store, self.every = store, every
        self._counts: dict[str, _Count] = {}
        self._lock = threading.Lock()
        self._counted = threading.Event()  # a count since the last sharing
        self._sharing: threading.Thread | None = None

    def increment(self, key: str, seconds: float, by: int = 1) -> int:
        """Count ``by`` at ``key`` here; the count every process had made when this one
        last shared, with this one's since. A window that has ended starts again at
        ``by`` (what other processes count in the new one is known at the next sharing)."""
        now = self.store.now()
        with self._lock:
            count = self._counts.get(key)
            if count is None or count.until <= now:
                count = self._counts[key] = _Count(now + seconds, seconds)
            count.mine += by
            total = count.shared + count.mine
            self._counted.set()
            if self._sharing is None:
                self._sharing = threading.Thread(target=self._share, name="counts", daemon=True)
                self._sharing.start()
        return total

    def share(self) -> None:
        """Send what was counted here since the last sharing, for every window still
        open, and learn every process's counts; a store that does not answer keeps this
        process's counts for the next try."""
        now = self.store.now()
        with self._lock:
            self._counted.clear()
            self._counts = {key: c for key, c in self._counts.items() if c.until > now}
            sent = list(self._counts.items())
            rows = [(key, c.until - now, c.mine) for key, c in sent]  # a mine of 0: read
        try:
            totals = self.store.increment_many(rows)
        except Unavailable:
            _log.warning("the rate limit's counts could not be shared; kept for the next try")
            return
        with self._lock:
            for (key, count), (_, _, mine), total in zip(sent, rows, totals, strict=True):
                if self._counts.get(key) is count:  # the same window
                    count.shared, count.mine = total, count.mine - mine

    def _share(self) -> None:
        """The sharing thread: shares :data:`SHARE_EVERY` seconds after a count, and ends
        once nothing has been counted for :data:`IDLE` seconds."""
        while True:
            if not self._counted.wait(IDLE):
                with self._lock:
                    if not self._counted.is_set():
                        self._sharing = None
                        return
            time.sleep(self.every)
            self.share()
