"""What the seats see of a live shared table: each player's snapshot of it (never
anyone's cards), one moment of it made once for every seat (:class:`_TableView`), and
when the seats are shown it: the seat that changed at once, the others of a big table
soon, in one snapshot for all the changes meanwhile (``COMPANY_*``), and a batch of
messages written and shown once (:meth:`TableSnapshots.together`).
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import time
from collections.abc import AsyncIterator, Iterable
from typing import TYPE_CHECKING

from riverboat.money import Cents
from riverboat.table.live.across import live_state
from riverboat.table.live.core import TableCore, _phase
from riverboat.table.live.seats import Seat, deliver, find_seat
from riverboat.table.live.views import SEATS_SHOWN, SeatView, ShoeView, TableSnapshot
from riverboat.table.road_views import RoadsView
from riverboat.table.states import TablePhase

if TYPE_CHECKING:
    from riverboat.games.spec import GameSpec

__all__ = [
    "COMPANY_AT_ONCE",
    "COMPANY_MOST_SECONDS",
    "COMPANY_SECONDS_PER_SEAT",
    "TableSnapshots",
]

#: after a seat bets, sits or leaves, the other seats are shown the table within this
#: many seconds per seat at it, at most :data:`COMPANY_MOST_SECONDS` (a table of fewer
#: than :data:`COMPANY_AT_ONCE` seats shows them at once): at a shoe of a thousand, one
#: snapshot for everyone every two seconds, not a thousand per second of betting
COMPANY_SECONDS_PER_SEAT = 0.002
COMPANY_MOST_SECONDS = 2.0
COMPANY_AT_ONCE = 25


def _by_number(seat: Seat) -> int:
    """A seat's place around the table, to list the seats in."""
    return seat.number


class TableSnapshots(TableCore):
    """A table's snapshots, and showing them to its seats."""

    #: the other seats' next sight of the table, if one is due (:meth:`_tell`)
    _company: asyncio.Task[None] | None = None
    #: while messages are carried out together (:meth:`together`): the seats to show
    #: the table once the state is written (None: a seat left), and whether to write it
    _held_back: list[Seat | None] | None = None
    _unsaved = False

    def snapshot(self, player: int) -> TableSnapshot:
        """The table as ``player`` sees it: seats and chips, never anyone's cards."""
        return self._now().for_player(player, find_seat(self.seats, player))

    def seen(self, seen: live_state.Seen, player: int) -> TableSnapshot:
        """The table as ``player`` would see it, from the state another process that
        runs it last wrote (its clock counted from the deadline written)."""
        state = seen.state
        left = None if seen.deadline is None else max(0.0, seen.deadline - time.time())
        seats = [Seat.restored(seat) for seat in state.get("seats", [])]
        phase = _phase(seen.phase)
        road, cards_left = state.get("road", []), state.get("cards_left")
        view = self._view(phase, left, seats, road, cards_left, state.get("commitment"))
        return view.for_player(player, find_seat(seats, player))

    def _now(self) -> _TableView:
        """What every seat's snapshot shares, now."""
        left = None if self.phase == TablePhase.CLOSED else self._timer.seconds_left()
        commitment = self.deal.commitment if self.deal else None
        return self._view(self.phase, left, self.seats, self.road, self._cards_left(), commitment)

    def _view(
        self,
        phase: TablePhase,
        left: float | None,
        seats: list[Seat],
        road: list[str],
        cards_left: int | None,
        commitment: str | None,
    ) -> _TableView:
        shoe = None
        if self.spec.shoe is not None:
            shoe = ShoeView(cards_left=cards_left, road=list(road), roads=RoadsView.of(road))
        total = self.decision_seconds if phase == TablePhase.DECIDING else self.betting_seconds
        first = heapq.nsmallest(SEATS_SHOWN + 1, seats, key=_by_number)
        on_spots: dict[str, Cents] = {}
        for seat in seats:
            for line, amount in seat.stakes_by_line(self.spec).items():
                on_spots[line] = on_spots.get(line, 0) + amount
        snapshot = TableSnapshot(
            game=self.game,
            phase=phase,
            seconds_left=left,
            seconds_total=None if left is None else max(total, left),
            commitment=commitment,
            seats=[],
            seats_free=None if self.max_seats is None else self.max_seats - len(seats),
            players=len(seats),
            on_spots=on_spots,
            shoe=shoe,
        )
        return _TableView(snapshot, [(s, s.view(0, self.spec, phase)) for s in first], self.spec)

    async def _broadcast(self) -> None:
        """Write the state, then show every seat the table (lock held)."""
        await self._save()
        await self._show_everyone()

    async def _show_everyone(self) -> None:
        self._company_told()
        view = self._now()
        await deliver((seat, view.for_player(seat.player, seat)) for seat in list(self.seats))

    async def _tell(self, seat: Seat | None, save: bool = True) -> None:
        """After ``seat`` bet, sat or decided (None: a seat left), with the lock held:
        the state written, that seat shown the table now and, at a big table, the
        others soon, in one snapshot for all the changes meanwhile
        (:data:`COMPANY_SECONDS_PER_SEAT`)."""
        if self._held_back is not None:  # written and shown once the batch is done
            self._held_back.append(seat)
            self._unsaved = self._unsaved or save
            return
        if save:
            await self._save()
        await self._show([] if seat is None else [seat])

    async def _show(self, told: list[Seat | None]) -> None:
        """Show the seats ``told`` (those still seated) the table now and, at a big
        table, the others soon; a small table's seats all at once (lock held)."""
        if len(self.seats) < COMPANY_AT_ONCE:
            await self._show_everyone()
            return
        seated = {id(seat): seat for seat in told if seat is not None and seat in self.seats}
        view = self._now()
        await deliver((seat, view.for_player(seat.player, seat)) for seat in seated.values())
        if self._company is None:
            pause = min(COMPANY_MOST_SECONDS, COMPANY_SECONDS_PER_SEAT * len(self.seats))
            self._company = asyncio.get_running_loop().create_task(self._show_soon(pause))

    @contextlib.asynccontextmanager
    async def together(self, bettors: Iterable[int] = ()) -> AsyncIterator[None]:
        """Carry out several players' messages with one state write: each bet, sitting
        down or leaving inside is written once all are done, and only then is each of
        those seats shown the table (a seat is never shown what is not yet kept).
        ``bettors`` (the players whose bets are among them) have their balances read
        in one query first. A holder takes its inbox so, a batch at a time: at a shoe
        of a thousand, the state (every seat) is written once per batch, not once per
        bet, and the balances read once per batch, not once per bet."""
        wanted = list(bettors)
        self._balances = {}
        if len(wanted) > 1:
            with contextlib.suppress(Exception):  # each bet reads its own instead
                self._balances = await asyncio.to_thread(self.service.balances, wanted)
        self._held_back, self._unsaved = [], False
        try:
            yield
        finally:
            held, unsaved = self._held_back, self._unsaved
            self._held_back, self._unsaved, self._balances = None, False, {}
        if not held and not unsaved:
            return
        async with self._lock:
            if unsaved:
                await self._save()
            await self._show(held or [])

    async def _show_soon(self, pause: float) -> None:
        await asyncio.sleep(pause)
        async with self._lock:
            if self._company is not asyncio.current_task():
                return
            self._company = None
            if self._held_back is None:  # in a batch, what is not yet written waits
                await self._show_everyone()  # for the batch's end, which shows it

    def _company_told(self) -> None:
        """Everyone is being shown the table now: no other sight of it is due."""
        if self._company is not None and self._company is not asyncio.current_task():
            self._company.cancel()
        self._company = None


class _TableView:
    """One moment of a table, made once for every seat's snapshot of it: everything
    but the seats shown, and the first of those by place, as another player sees them
    (a snapshot shows the viewer's own seat and the first :data:`SEATS_SHOWN` others)."""

    def __init__(
        self, snapshot: TableSnapshot, first: list[tuple[Seat, SeatView]], spec: GameSpec
    ) -> None:
        self.snapshot, self.first, self.spec = snapshot, first, spec

    def for_player(self, player: int, own: Seat | None) -> TableSnapshot:
        """The snapshot ``player`` (at ``own`` seat, or None) is sent."""
        seats = [view for seat, view in self.first if seat is not own][:SEATS_SHOWN]
        if own is not None:
            seats.append(own.view(player, self.spec, self.snapshot.phase))
            seats.sort(key=lambda view: view.seat)
        return self.snapshot.model_copy(update={"seats": seats})
