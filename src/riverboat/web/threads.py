"""The threads that carry a request's database work: a deal's and a decision's
(``app.state.workers``).

Python runs one thread at a time, and a thread gives that turn up at every statement
it sends to PostgreSQL and waits for it back. The more threads wait so at once, the
more each costs: in ``bench/threads.py`` a round cost 1.4x the CPU with 40 threads
as with 4 to 16, and fewer rounds got done a second. So on PostgreSQL the pool
has a few threads (:func:`thread_count`: twice the cores and two more, or
``RIVERBOAT_DATABASE_THREADS``). On SQLite it has 40: its group commit gathers the
writes of the threads waiting at once into one transaction, and fewer threads made
smaller groups (``bench/load.py``).

A player's own round requests take turns before they take a thread
(:class:`PlayerTurns`): they would take turns at the player's row lock anyway, and a
client that sends many deals at once then holds one of the few threads, not all of
them. A request cancelled while its work runs (a server stopping) gives its turn back
only once that work has ended.

>>> thread_count("sqlite", None), thread_count("postgresql", 3)
(40, 3)
>>> pool(3) is pool(3), pool(3) is pool(3, "counts")
(True, False)
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

__all__ = ["SQLITE_THREADS", "PlayerTurns", "in_thread", "in_worker", "pool", "thread_count"]

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
def pool(size: int, use: str = "rounds") -> ThreadPoolExecutor:
    """The process's pool of ``size`` threads for ``use`` (one per size and use: every
    app of that size shares it, as every app shared one pool before sizes differed)."""
    return ThreadPoolExecutor(size, thread_name_prefix=f"riverboat-{use}")


async def in_thread(
    workers: ThreadPoolExecutor, call: Callable[P, T], *args: P.args, **kwargs: P.kwargs
) -> T:
    """``call(*args, **kwargs)`` in one of ``workers``, with the caller's context
    variables, as anyio's ``to_thread.run_sync`` runs it, without its limiter, run
    variables and library lookup (about 7% of a saturated server's CPU went to them).
    Cancelled, it waits for the call to end before it raises, as anyio's does: what
    the caller holds (a player's turn) is held until the work is done."""
    context = contextvars.copy_context()
    work = functools.partial(context.run, call, *args, **kwargs)
    future = asyncio.get_running_loop().run_in_executor(workers, work)
    try:
        return await asyncio.shield(future)
    except asyncio.CancelledError:
        await asyncio.wait([future])
        raise


async def in_worker(
    connection: HTTPConnection, call: Callable[P, T], *args: P.args, **kwargs: P.kwargs
) -> T:
    """:func:`in_thread` in the app's threads for deals and decisions."""
    workers: ThreadPoolExecutor = connection.app.state.workers
    return await in_thread(workers, call, *args, **kwargs)


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
