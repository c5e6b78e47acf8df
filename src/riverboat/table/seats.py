"""A shared table's seats: who sits there, the connections that listen for them, what
they have bet and decided, and sending them the table's messages.

A seat keeps at most :data:`CONNECTIONS` connections (tabs). A message goes to all of
them, and a broadcast to every seat, at once (:func:`deliver`); each send may take
:data:`SEND_SECONDS`, and a connection that fails, has gone or hangs is dropped without
a fuss, so one that stopped reading never delays the others.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from riverboat.errors import IllegalAction
from riverboat.games.spec import GameSpec
from riverboat.money import Cents
from riverboat.table.views import SeatView, TableMessage

__all__ = ["CONNECTIONS", "SEND_SECONDS", "Seat", "Send", "deliver", "find_seat", "seated"]

#: connections (tabs) one player may keep at a table, and how long a message may take
CONNECTIONS = 4
SEND_SECONDS = 2.0

Send = Callable[[TableMessage], Awaitable[None]]


@dataclass
class Seat:
    """A player at the table, the connections that listen for them, and their round."""

    player: int
    name: str
    client_seed: str = ""
    listeners: list[Send] = field(default_factory=list)
    wagers: dict[str, Cents] | None = None
    second: dict[str, Cents] | None = None
    round_id: int | None = None
    decision: tuple[str, Cents | None] | None = None

    def stored(self) -> dict[str, Any]:
        """What the database keeps of the seat for a process that takes the table over:
        everything but its connections (they sit again with the new process)."""
        return {
            "player": self.player,
            "name": self.name,
            "client_seed": self.client_seed,
            "wagers": self.wagers,
            "second": self.second,
            "round_id": self.round_id,
            "decision": list(self.decision) if self.decision else None,
        }

    @classmethod
    def restored(cls, stored: dict[str, Any]) -> Seat:
        """The seat :meth:`stored` kept, without connections.

        >>> seat = Seat(7, "ann", "s", wagers={"ante": 500}, round_id=3, decision=("play", 500))
        >>> Seat.restored(seat.stored()) == seat
        True
        """
        decision = stored["decision"]
        return cls(
            player=stored["player"],
            name=stored["name"],
            client_seed=stored["client_seed"],
            wagers=stored["wagers"],
            second=stored["second"],
            round_id=stored["round_id"],
            decision=(decision[0], decision[1]) if decision else None,
        )

    @property
    def positions(self) -> int:
        """The betting positions the seat plays: one, or two with a blind second (C8)."""
        return 1 + (self.second is not None)

    def staked(self, spec: GameSpec) -> Cents:
        """The chips on the felt: what each position stakes by the game's spec, a blind
        second position's Play included (C8)."""
        staked = spec.position_stake(self.wagers or {})
        if self.second is not None:
            staked += spec.position_stake(self.second, blind=True)
        return staked

    def view(self, player: int, spec: GameSpec) -> SeatView:
        """The seat as ``player`` sees it: chips and progress, never the cards."""
        return SeatView(
            name=self.name,
            you=self.player == player,
            staked=self.staked(spec) or None,
            second=self.second is not None,
            in_round=self.round_id is not None,
            decided=self.decision is not None,
        )

    async def send(self, message: TableMessage) -> None:
        """Send ``message`` to every connection of the seat at once, dropping those that
        fail or take longer than :data:`SEND_SECONDS`."""
        await asyncio.gather(*(self._send_one(send, message) for send in list(self.listeners)))

    async def send_all(self, messages: list[TableMessage]) -> None:
        """Send ``messages`` in their order."""
        for message in messages:
            await self.send(message)

    async def _send_one(self, send: Send, message: TableMessage) -> None:
        try:  # a connection that stopped reading must not hold up the table
            await asyncio.wait_for(send(message), SEND_SECONDS)
        except Exception:  # it has gone, or hangs: stop talking to it (its handler leaves)
            with contextlib.suppress(ValueError):
                self.listeners.remove(send)


async def deliver(messages: Iterable[tuple[Seat, TableMessage]]) -> None:
    """Send each seat its message, all at once: one slow seat delays no other."""
    await asyncio.gather(*(seat.send(message) for seat, message in messages))


def find_seat(seats: list[Seat], player: int) -> Seat | None:
    """The player's seat, or None if they are not seated."""
    return next((s for s in seats if s.player == player), None)


def seated(seats: list[Seat], player: int) -> Seat:
    """The player's seat; refused if they are not seated."""
    seat = find_seat(seats, player)
    if seat is None:
        raise IllegalAction("take a seat at the table first")
    return seat
