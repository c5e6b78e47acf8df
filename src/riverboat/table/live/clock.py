"""A shared table's timer: one pending deadline (betting closes, decisions close) that
runs its step under the table's lock, the time left until it, and the deadline on the
wall clock (which another server process reads, if it takes the table over).

Arming the timer replaces whatever was pending. A step that fails is logged here, since
no one awaits a timer.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

__all__ = ["Timer"]


class Timer:
    """The one pending step of a table, run ``seconds`` after :meth:`arm` with ``lock``
    held; a failure is logged to ``log`` as the ``game`` table's."""

    def __init__(self, lock: asyncio.Lock, log: logging.Logger, game: str) -> None:
        self._lock, self._log, self._game = lock, log, game
        self._task: asyncio.Task[None] | None = None
        self._deadline: float | None = None
        self._wall: float | None = None

    @property
    def armed(self) -> bool:
        """Whether a step is pending (it is no longer once it has begun to run)."""
        return self._task is not None

    def seconds_left(self) -> float | None:
        """The seconds until the pending step, or None if there is none."""
        if self._deadline is None:
            return None
        return max(0.0, self._deadline - time.monotonic())

    def deadline(self) -> float | None:
        """When the pending step runs, in seconds since the epoch, or None."""
        return self._wall

    def arm(self, seconds: float, then: Callable[[], Awaitable[None]]) -> None:
        """Run ``then`` in ``seconds``, under the lock, instead of any pending step."""

        async def later() -> None:
            await asyncio.sleep(seconds)
            async with self._lock:
                self._task = None
                try:
                    await then()
                except Exception:  # no one awaits a timer: say it here
                    self._log.exception("the %s table's timer failed", self._game)

        self.cancel()
        self._deadline = time.monotonic() + seconds
        self._wall = time.time() + seconds
        self._task = asyncio.get_running_loop().create_task(later())

    def cancel(self) -> None:
        """Drop the pending step, unless it is the one running now."""
        task, self._task, self._deadline, self._wall = self._task, None, None, None
        if task is not None and task is not asyncio.current_task():
            task.cancel()
