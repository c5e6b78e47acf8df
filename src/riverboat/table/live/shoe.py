"""A live shared table's shoe (Baccarat, B1): a coup dealt from it to every seat that
bet, which every seat sees; the road of its coups' winners; a new shoe once the cut
card comes out; and, after a take-over, the coups dealt since the state was written.
"""

from __future__ import annotations

from riverboat.deck import cut_card_reached
from riverboat.table.live.across import live_state
from riverboat.table.live.deal import TableDeal
from riverboat.table.live.seats import Seat
from riverboat.table.live.views import CoupMessage, ResultMessage
from riverboat.table.states import RoundStatus
from riverboat.table.views import RoundView

__all__ = ["TableShoe"]


class TableShoe(TableDeal):
    """A table's coups from its shoe, and the shoe's road."""

    async def _deal_coup(self, bettors: list[Seat]) -> None:
        assert self.deal is not None
        assert self.layout is not None
        end = min(self.next_place + self.spec.cards_per_round(), self.layout.size)
        places = list(range(self.next_place, end))
        coup: CoupMessage | None = None

        async def settled(seat: Seat, view: RoundView) -> None:
            nonlocal coup
            if view.status == RoundStatus.SETTLED:
                coup = coup or CoupMessage(cards=view.cards, totals=view.totals, winner=view.winner)
                await seat.send(ResultMessage(round=view))

        await self._start([(seat, places) for seat in bettors], settled)
        if coup is not None:
            self.next_place += sum(len(hand) for hand in coup.cards.values())
            if coup.winner is not None:
                self.road.append(coup.winner)
            for seat in self.seats:
                await seat.send(coup)
        cut = self.layout.cut_card_from_end or 0
        if cut_card_reached(self.layout.size - self.next_place, cut):  # B1: a new shoe
            self.road = []
            await self._next_deal()
        else:
            await self._broadcast()

    async def _adopt_coups(self, rounds: list[live_state.DealtRound]) -> None:
        """Take in the coups dealt since the state was written (lock held): their seats
        are done with their bets, the shoe and its road go on after them."""
        assert self.layout is not None
        late = {r.player for r in rounds if r.places and r.places[0] >= self.next_place}
        for seat in self.seats:
            if seat.player in late:
                seat.wagers = seat.second = None
        self.road = live_state.coup_winners(rounds)
        self.next_place = max((max(r.places) + 1 for r in rounds if r.places), default=0)
        self.next_place = max(self.next_place, self.layout.first)
        cut = self.layout.cut_card_from_end or 0
        if cut_card_reached(self.layout.size - self.next_place, cut):
            self.road = []
            self._forget_bets()
            await self._next_deal(broadcast=False)
