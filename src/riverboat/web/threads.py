"""The threads that carry a request's database work: a deal's and a decision's, and
on PostgreSQL or Redis the rate limit's count with the session read beside it.

Python runs one thread at a time, and a thread gives that turn up at every statement
it sends to PostgreSQL and waits for it back. The more threads wait so at once, the
more each costs: in ``bench/threads.py`` a round cost 1.4x the CPU with 40 threads
as with 4 to 16, and fewer rounds got done a second. So on PostgreSQL
this work has a few threads (:func:`thread_count`: twice the cores and two more, or
``RIVERBOAT_DATABASE_THREADS``). On SQLite it has 40: its group commit gathers the
writes of the threads waiting at once into one transaction, and fewer threads made
smaller groups (``bench/load.py``).

A player's own round requests take turns before they take a thread
(:class:`PlayerTurns`): they would take turns at the player's row lock anyway, and a
client that sends many at once then holds one of the few threads, not all of them.

>>> thread_count("sqlite", None), thread_count("postgresql", 3)
(40, 3)
>>> pool(3) is pool(3)
True
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import os
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from functools import cache
from typing import ParamSpec, TypeVar

from fastapi.requests import HTTPConnection

__all__ = ["SQLITE_THREADS", "PlayerTurns", "in_worker", "pool", "thread_count"]

T = TypeVar("T")
P = ParamSpec("P")

#: the threads on SQLite: as many as anyio lets FastAPI's routes have at once
SQLITE_THREADS = 40


def thread_count(dialect: str, setting: int | None) -> int:
    """How many threads carry requests' database work on a database of ``dialect``:
    ``setting`` if given (``RIVERBOAT_DATABASE_THREADS``), else :data:`SQLITE_THREADS`
    on SQLite and twice the cores plus two elsewhere."""
    if setting is not None:
        return setting
    if dialect == "sqlite":
        return SQLITE_THREADS
    return 2 * (os.cpu_count() or 2) + 2


@cache
def pool(size: int) -> ThreadPoolExecutor:
    """The process's pool of ``size`` threads (one per size: every app of that size
    shares it, as every app shared one pool before sizes differed)."""
    return ThreadPoolExecutor(size, thread_name_prefix="riverboat-db")


async def in_worker(
    connection: HTTPConnection, call: Callable[P, T], *args: P.args, **kwargs: P.kwargs
) -> T:
    """``call(*args, **kwargs)`` in one of the app's database threads
    (``app.state.workers``), with the caller's context variables, as anyio's
    ``to_thread.run_sync`` runs it, without its limiter, run variables and library
    lookup (about 7% of a saturated server's CPU went to them)."""
    context = contextvars.copy_context()
    work = functools.partial(context.run, call, *args, **kwargs)
    workers: ThreadPoolExecutor = connection.app.state.workers
    return await asyncio.get_running_loop().run_in_executor(workers, work)


class PlayerTurns:
    """Each player's round requests one at a time in this process, waited for on the
    event loop (no thread is held while waiting).

    >>> async def two():
    ...     turns, order = PlayerTurns(), []
    ...     async def one(name):
    ...         async with turns.turn(7):
    ...             order.append(name); await asyncio.sleep(0); order.append(name)
    ...     await asyncio.gather(one("a"), one("b"))
    ...     return order, turns.waiting
    >>> asyncio.run(two())
    (['a', 'a', 'b', 'b'], {})
    """

    def __init__(self) -> None:
        #: the players with a request under way: their lock, and how many hold or want it
        self.waiting: dict[int, tuple[asyncio.Lock, int]] = {}

    @asynccontextmanager
    async def turn(self, player_id: int) -> AsyncIterator[None]:
        lock, count = self.waiting.get(player_id, (asyncio.Lock(), 0))
        self.waiting[player_id] = (lock, count + 1)
        try:
            async with lock:
                yield
        finally:
            lock, count = self.waiting[player_id]
            if count == 1:
                del self.waiting[player_id]
            else:
                self.waiting[player_id] = (lock, count - 1)
