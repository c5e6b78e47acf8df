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
from riverboat.json_types import JsonObject
from riverboat.money import Cents
from riverboat.table.live.views import SeatView, TableMessage
from riverboat.table.states import TablePhase, seat_state

__all__ = [
    "CONNECTIONS",
    "SEND_SECONDS",
    "Seat",
    "Send",
    "blind_stakes",
    "deliver",
    "find_seat",
    "free_number",
    "seated",
]

#: connections (tabs) one player may keep at a table, and how long a message may take
CONNECTIONS = 4
SEND_SECONDS = 2.0

Send = Callable[[TableMessage], Awaitable[None]]
#: a connection's way to send a message already made into its JSON text
SendText = Callable[[str], Awaitable[None]]


def blind_stakes(spec: GameSpec, wagers: dict[str, Cents]) -> dict[str, Cents]:
    """A blind second position's stakes by line: its wagers and the Play it always
    makes (C8), on the line the game's staking decision places.

    >>> from riverboat.games import find_game
    >>> blind_stakes(find_game("crazy4").spec(), {"ante": 500, "super_bonus": 500})
    {'ante': 500, 'super_bonus': 500, 'play': 500}
    """
    stakes = dict(wagers)
    line = next((o.line for o in spec.options if o.line and o.stake), None)
    if spec.blind_play is not None and spec.decides_with and line is not None:
        stakes[line] = stakes.get(line, 0) + int(spec.blind_play * wagers.get(spec.decides_with, 0))
    return stakes


def free_number(seats: Iterable[Seat], max_seats: int | None) -> int:
    """The lowest seat number (1 to ``max_seats``, None: no limit) no one sits in, or 0
    if none is free.

    >>> free_number([Seat(1, "ann", number=1), Seat(2, "bob", number=3)], 6)
    2
    >>> free_number([Seat(1, "ann", number=1), Seat(2, "bob", number=2)], None)
    3
    """
    taken = {seat.number for seat in seats}
    most = len(taken) + 1 if max_seats is None else max_seats
    return next((n for n in range(1, most + 1) if n not in taken), 0)


def _staked(wagers: dict[str, Cents] | None) -> dict[str, Cents] | None:
    """The lines with chips on them, or None for no bet."""
    staked = {line: amount for line, amount in (wagers or {}).items() if amount}
    return staked or None


@dataclass(eq=False)  # a seat is itself: found in a list by identity, not by its fields
class Seat:
    """A player at the table, the connections that listen for them, and their round.

    ``number`` is the seat's place around the table (1 to the table's seats), kept while
    the player sits; ``wagers`` and ``second`` are the bets for the next deal, and
    ``playing`` and ``playing_second`` those of the round in play, which everyone at
    the table sees on the felt until its showdown."""

    player: int
    name: str
    client_seed: str = ""
    listeners: list[Send] = field(default_factory=list)
    wagers: dict[str, Cents] | None = None
    second: dict[str, Cents] | None = None
    round_id: int | None = None
    decision: tuple[str, Cents | None] | None = None
    number: int = 0
    playing: dict[str, Cents] | None = None
    playing_second: dict[str, Cents] | None = None
    #: connected when the last holder wrote the table, and not since a take-over: the
    #: servers lost the connection, not the player (an undecided hand is void, G7)
    cut_off: bool = False

    def stored(self) -> JsonObject:
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
            "number": self.number,
            "playing": self.playing,
            "playing_second": self.playing_second,
            "connected": bool(self.listeners) or self.cut_off,
        }

    @classmethod
    def restored(cls, stored: dict[str, Any]) -> Seat:
        """The seat :meth:`stored` kept, without connections.

        >>> seat = Seat(7, "ann", "s", wagers={"ante": 500}, round_id=3, decision=("play", 500))
        >>> seat.number, seat.playing = 4, {"ante": 500}
        >>> Seat.restored(seat.stored()).stored() == seat.stored()
        True

        A state written before seats had numbers restores with number 0 (the table
        gives it a free one).
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
            number=stored.get("number", 0),
            playing=stored.get("playing"),
            playing_second=stored.get("playing_second"),
            cut_off=bool(stored.get("connected", False)),
        )

    @property
    def positions(self) -> int:
        """The betting positions the seat plays: one, or two with a blind second (C8)."""
        return 1 + (self.second is not None)

    def on_felt(self) -> tuple[dict[str, Cents] | None, dict[str, Cents] | None]:
        """The wagers on the felt for each position: the round's while it plays (a
        state written before rounds kept theirs shows the bets), else the next deal's."""
        if self.round_id is not None and self.playing is not None:
            return self.playing, self.playing_second
        return self.wagers, self.second

    def staked(self, spec: GameSpec) -> Cents:
        """The chips on the felt: what each position stakes by the game's spec, a blind
        second position's Play included (C8)."""
        wagers, second = self.on_felt()
        staked = spec.position_stake(wagers or {})
        if second is not None:
            staked += spec.position_stake(second, blind=True)
        return staked

    def stakes_by_line(self, spec: GameSpec) -> dict[str, Cents]:
        """The seat's chips on the felt by line, both positions together (a blind
        second's Play with it, C8).

        >>> from riverboat.games import find_game
        >>> spec = find_game("crazy4").spec()
        >>> Seat(1, "ann", wagers={"ante": 500}, second={"ante": 500}).stakes_by_line(spec)
        {'ante': 1000, 'play': 500}
        """
        wagers, second = self.on_felt()
        stakes = dict(_staked(wagers) or {})
        for line, amount in (_staked(blind_stakes(spec, second or {})) or {}).items():
            stakes[line] = stakes.get(line, 0) + amount
        return stakes

    def view(self, player: int, spec: GameSpec, phase: TablePhase) -> SeatView:
        """The seat as ``player`` sees it at a table in ``phase``: its place, chips by
        line and progress; never the cards, nor what a decision was (only that one was
        made)."""
        wagers, second = self.on_felt()
        in_round, decided = self.round_id is not None, self.decision is not None
        return SeatView(
            seat=self.number,
            name=self.name,
            you=self.player == player,
            staked=self.staked(spec) or None,
            second=second is not None,
            in_round=in_round,
            decided=decided,
            state=seat_state(phase, in_round, decided, bet=bool(wagers)),
            wagers=_staked(wagers),
            second_wagers=None if second is None else _staked(blind_stakes(spec, second)),
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
