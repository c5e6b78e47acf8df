"""A lease in Redis: which server process runs a shared table's clock.

The lease is a key set only if absent (``SET NX PX``) to the holder's name, for
:attr:`Lease.seconds`; its holder renews it well before it runs out (every third of
it) and hands it back when it stops. The lease only says who should run the table;
what makes a holder that paused past its lease harmless is the fencing token its
claim of the table draws from the database (:func:`riverboat.table.live.across.live_state.claim`),
never from Redis, whose counters start again from nothing when it restarts empty.
A holder that stops renewing (killed, cut off) loses the table when the key expires,
and the next process that asks takes it.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from redis.asyncio import Redis

__all__ = ["LEASE_SECONDS", "Lease"]

#: a lease's term: a holder that stops renewing loses its tables that long after
LEASE_SECONDS = 2.0

#: renew (or hand back) only one's own lease: compare and act in one step
_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0
"""


class Lease:
    """The lease ``key`` for ``holder``, on an asyncio Redis client."""

    def __init__(self, redis: Redis, key: str, holder: str, seconds: float = LEASE_SECONDS) -> None:
        self.redis, self.key, self.holder, self.seconds = redis, key, holder, seconds
        #: when (``time.monotonic``) the lease was last taken or renewed: asked before
        #: the call, so the term counted here never outlasts the one Redis gives
        self.since: float | None = None

    @property
    def _milliseconds(self) -> int:
        return max(1, round(self.seconds * 1000))

    async def take(self) -> bool:
        """Whether this holder got the lease now (it was free)."""
        asked = time.monotonic()
        taken = bool(await self.redis.set(self.key, self.holder, nx=True, px=self._milliseconds))
        self.since = asked if taken else None
        return taken

    async def renew(self) -> bool:
        """Whether the lease is still this holder's, now for another full term."""
        asked = time.monotonic()
        script = self.redis.eval(_RENEW, 1, self.key, self.holder, self._milliseconds)
        renewed = bool(await cast("Awaitable[str]", script))  # the asyncio client's
        self.since = asked if renewed else None
        return renewed

    def fresh(self) -> bool:
        """Whether the lease surely is still this holder's, by this process's own
        clock and with no call: well inside the term its last renewal began. A process
        frozen (SIGSTOP, a stalled VM) past its lease finds it stale as it wakes, since
        the monotonic clock ran on while it stood still."""
        return self.since is not None and time.monotonic() - self.since < self.seconds * 0.75

    async def still_held(self) -> bool:
        """Whether the lease is this holder's, to act on a message now: :meth:`fresh`,
        or renewed here and now."""
        return self.fresh() or await self.renew()

    async def release(self) -> None:
        """Hand the lease back, if it is still this holder's."""
        await cast("Awaitable[str]", self.redis.eval(_RELEASE, 1, self.key, self.holder))
