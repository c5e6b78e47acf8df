"""A live shared table handed from one server process to another
(:mod:`riverboat.table.live.across`).

The process holding the table's lease runs it with that lease's
:class:`~riverboat.table.live.across.live_state.Fence` (:meth:`TableHandover.take_over`),
writes its state to the database before each message it sends (phase, deadline, deal,
seats' bets and decisions), and stops (:meth:`TableHandover.step_down`) once the lease
is lost. The process that takes over finishes the hand in play at its deadline; a deal
it finds half made is void and refunded (G7). Without a fence (one process) nothing is
written but the rounds.
"""

from __future__ import annotations

import asyncio
import logging
import time

from riverboat.errors import Refusal
from riverboat.table.live.across import live_state
from riverboat.table.live.across.live_state import Fence, LeaseLostError
from riverboat.table.live.betting import TableBetting
from riverboat.table.live.core import _phase, _reach
from riverboat.table.live.seats import Seat, free_number
from riverboat.table.states import TablePhase
from riverboat.table.views import NewDeal

__all__ = ["TableHandover"]

_log = logging.getLogger(__name__)


class TableHandover(TableBetting):
    """A table taken over from the state the last process wrote, and given up."""

    #: after a take-over, how long a seat without a connection (its player's process
    #: is gone, or the player) waits for its player to sit again before it goes
    rejoin_seconds: float = 8.0
    #: the seats without a connection being pruned after a take-over, if they are
    _pruning: asyncio.Task[None] | None = None

    async def take_over(self, fence: Fence, stored: live_state.Stored | None) -> None:
        """Run the table from here with ``fence``, from the state the last process that
        ran it wrote (``stored``; None: a new table). Its seats come back without
        connections (they sit again), its pending step at its deadline; rounds dealt
        from its deal that the state does not show are taken in (:meth:`_adopt`)."""
        self._timer.cancel()
        if self._pruning is not None:
            self._pruning.cancel()
        async with self._lock:
            self._reset()
            self.fence = fence
            if stored is None:
                return
            state = stored.state
            self.seats = [Seat.restored(seat) for seat in state.get("seats", [])]
            for seat in self.seats:  # a state written before seats had numbers
                if not seat.number:
                    seat.number = free_number(self.seats, self.max_seats)
            self.next_place, self.road = state.get("next_place", 0), state.get("road", [])
            self.handled = list(state.get("handled", []))
            if stored.deal_id is not None and not stored.deal_revealed:
                self.deal = NewDeal(id=stored.deal_id, commitment=state["commitment"])
                if stored.deal_sealed:  # it keeps its seed: its layout again
                    self.layout = await _reach(self.service.seal_deal, stored.deal_id, "", fence)
            self.phase = _phase(stored.phase)
            over = await self._adopt()  # or its deal is shown: the showdown was written
            over = over or (
                self.phase == TablePhase.DECIDING
                and stored.deal_id is not None
                and self.deal is None
            )
            seconds = 0.0 if over else max(0.0, (stored.deadline or time.time()) - time.time())
            if self.phase == TablePhase.DECIDING:
                self._timer.arm(seconds, self._showdown)
            elif self.phase in (TablePhase.SETTLING, TablePhase.CLOSED):  # showdown unfinished
                playing = [seat for seat in self.seats if seat.round_id is not None]
                self._settling = asyncio.get_running_loop().create_task(self._settle(playing, None))
            elif any(s.wagers for s in self.seats):
                self._timer.arm(seconds if stored.deadline else self.betting_seconds, self._deal)
            self._pruning = asyncio.get_running_loop().create_task(self._prune_ghosts())
            await self._save()

    async def _prune_ghosts(self) -> None:
        """After a take-over, the seats that came back without a connection and whose
        players have not sat again within :attr:`rejoin_seconds` go (unless in a round,
        which plays out and frees them): a seat left by a process that died would
        otherwise never bet, and every deal would wait out the betting clock for it."""
        await asyncio.sleep(self.rejoin_seconds)
        async with self._lock:
            ghosts = [s for s in self.seats if not s.listeners and s.round_id is None]
            if not ghosts or self.fence is None:
                return
            self.seats = [s for s in self.seats if s not in ghosts]
            if self.phase == TablePhase.BETTING and not any(s.wagers for s in self.seats):
                self._timer.cancel()  # no bets left: betting need not close
            try:
                if (
                    self.phase == TablePhase.BETTING
                    and self.seats
                    and all(s.wagers for s in self.seats)
                ):
                    await self._deal()  # the ghosts were all it waited for
                else:
                    await self._broadcast()
            except (LeaseLostError, Refusal) as error:  # the next holder prunes its own
                _log.warning("the %s table's seats were not pruned: %s", self.game, error)

    async def step_down(self) -> None:
        """Another process runs the table now (or will): stop, and forget it here."""
        self._timer.cancel()
        if self._pruning is not None:
            self._pruning.cancel()
        if self._settling is not None:  # its rounds are the new holder's to finish
            self._settling.cancel()
        async with self._lock:
            self._reset()

    def _reset(self) -> None:
        self._timer.cancel()
        self._company_told()
        self.seats, self.phase, self.fence = [], TablePhase.BETTING, None
        self.deal, self.layout, self.next_place, self.road = None, None, 0, []
        self.handled = []

    async def _adopt(self) -> bool:
        """Take in what a process stopped mid-deal left (lock held): at a shoe, the
        coups dealt since the state was written (:meth:`_adopt_coups`); at a deck, the
        open rounds dealt from it that no seat shows (:meth:`_adopt_hands`). Whether the
        hand the seats show is over already (its showdown was written): it ends now."""
        if self.deal is None or self.layout is None:
            return False
        rounds = await _reach(live_state.deal_rounds, self.service.engine, self.deal.id)
        if self.spec.shoe is not None:
            await self._adopt_coups(rounds)
            return False
        return await self._adopt_hands(rounds)
