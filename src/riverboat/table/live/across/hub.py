"""Where a shared table's messages go: one server process, or several over Redis.

A front end seats a player, passes on their messages and lets them go through a
:class:`Hub`, chosen once as the server starts:

* :class:`LocalHub` (the default): every table lives in this process, and the hub
  calls it directly; nothing else to start.
* :class:`~riverboat.table.live.across.redis_hub.RedisHub` (``RIVERBOAT_REDIS_URL``,
  on PostgreSQL): any number of processes serve the same tables, one at a time
  running a table's clock.

Every Redis key and channel of a table, and its stored state, go by :func:`table_key`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Iterable

from riverboat.table.live.seats import Send, SendText
from riverboat.table.live.table import SharedTable
from riverboat.table.live.views import ErrorMessage, PlayerMessage

__all__ = ["Close", "Handler", "Hub", "LocalHub", "table_key"]

#: a player's message carried out at their table; the refusal to send back, if any
Handler = Callable[[SharedTable, int, PlayerMessage], Awaitable[ErrorMessage | None]]
#: closes a player's connection (after a refusal to seat them)
Close = Callable[[], Awaitable[None]]


def table_key(table: SharedTable) -> str:
    """The name a table's lease, inbox, channel and stored state go by."""
    return table.config.id if table.config is not None else table.game


class Hub(ABC):
    """Seats players at shared tables and carries their messages."""

    #: whether other processes run some of the tables (their state is then read from
    #: the database, as the last holder wrote it)
    across_processes = False

    def __init__(self, handler: Handler) -> None:
        self.handler = handler

    async def start(self, tables: Iterable[SharedTable]) -> None:  # noqa: B027
        """Begin serving ``tables`` (the server has started)."""

    @abstractmethod
    async def stop(self) -> None:
        """Stop serving the tables (the server is stopping)."""

    @abstractmethod
    async def sit(
        self,
        table: SharedTable,
        player: int,
        send: Send,
        close: Close,
        send_text: SendText | None = None,
    ) -> None:
        """Seat the player at the table with this connection (``send``); a refusal to
        seat them is raised, or sent and the connection closed. ``send_text``, where
        the connection has it, sends a message already made into its JSON text."""

    @abstractmethod
    async def act(
        self, table: SharedTable, player: int, send: Send, message: PlayerMessage
    ) -> ErrorMessage | None:
        """The player's message at the table; a refusal to send back now, if any."""

    @abstractmethod
    async def leave(self, table: SharedTable, player: int, send: Send) -> None:
        """The connection has gone."""


class LocalHub(Hub):
    """Every table in this process: the hub calls it."""

    def __init__(self, handler: Handler) -> None:
        super().__init__(handler)
        self.tables: list[SharedTable] = []

    async def start(self, tables: Iterable[SharedTable]) -> None:
        self.tables = list(tables)

    async def stop(self) -> None:
        for table in self.tables:
            await table.close()

    async def sit(
        self,
        table: SharedTable,
        player: int,
        send: Send,
        close: Close,
        send_text: SendText | None = None,
    ) -> None:
        await table.sit(player, send)

    async def act(
        self, table: SharedTable, player: int, send: Send, message: PlayerMessage
    ) -> ErrorMessage | None:
        return await self.handler(table, player, message)

    async def leave(self, table: SharedTable, player: int, send: Send) -> None:
        await table.leave(player, send)
