"""A live shared table's deal: the one deck or shoe every seat's cards come from.

Each player's part of a deal is a round of their own in the table service, so their
money, record, history and audit work as at a table of their own; the cards come from
places in the shared deal, every seat's round of a deal written together
(:mod:`~riverboat.table.rounds.shared`), :data:`DEALT_TOGETHER` seats to a
transaction. The deal's seed is committed to before the seated players' client seeds
are joined, and revealed once nothing dealt from it is in play: after the showdown
(Crazy 4), after the shoe (Baccarat).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from riverboat.errors import Refusal
from riverboat.table.live.across.live_state import LeaseLostError
from riverboat.table.live.seats import Seat
from riverboat.table.live.snapshots import TableSnapshots
from riverboat.table.live.views import ErrorMessage
from riverboat.table.rounds.shared import Stake
from riverboat.table.states import TablePhase
from riverboat.table.views import RoundView

__all__ = ["DEALT_TOGETHER", "WRITTEN_AT_ONCE", "TableDeal"]

_log = logging.getLogger(__name__)
#: how many seats' rounds of one deal one transaction writes (a refusal of one deals
#: the others in), and how many such transactions run at once: a coup of a thousand
#: is four, the first seats told while the last are written
DEALT_TOGETHER = 250
WRITTEN_AT_ONCE = 2


class TableDeal(TableSnapshots):
    """A table's deal: every seat's round written from it, and the next one committed
    to once it is done with."""

    async def _start(
        self,
        dealt: list[tuple[Seat, list[int]]],
        then: Callable[[Seat, RoundView], Awaitable[None]] | None = None,
    ) -> list[RoundView | None]:
        """Each seat's round from its places of the deal, or None where it was refused
        (the seat is told why), written :data:`DEALT_TOGETHER` seats to a transaction,
        :data:`WRITTEN_AT_ONCE` of those at once; ``then`` is called for each seat's
        round as its transaction commits, so the first seats hear while the next are
        written. A lost lease stops the deal: the rounds written stand (the next holder
        adopts them)."""
        assert self.deal is not None
        deal_id, fence = self.deal.id, self.fence
        views: list[RoundView | None] = [None] * len(dealt)
        at_once = asyncio.Semaphore(WRITTEN_AT_ONCE)

        async def write(first: int) -> None:
            part = dealt[first : first + DEALT_TOGETHER]
            stakes = []
            for seat, places in part:
                assert seat.wagers is not None
                stakes.append(Stake(seat.player, seat.wagers, places, seat.second))
                seat.wagers = seat.second = None
            answers: list[RoundView | Refusal | str]
            try:
                async with at_once:
                    answers = list(
                        await asyncio.to_thread(
                            self.service.start_shared, self.game, deal_id, stakes, fence
                        )
                    )
            except LeaseLostError:
                raise
            except Refusal as error:  # the whole deal's: not open, or not this game's
                answers = [error] * len(part)
            except Exception:  # the database failed: its transaction took nothing
                _log.exception("dealing to %d seats failed", len(part))
                answers = ["the table could not reach its database; nothing was staked"] * len(part)
            for index, ((seat, _), answer) in enumerate(zip(part, answers, strict=True)):
                if isinstance(answer, RoundView):
                    views[first + index] = answer
                    if then is not None:
                        await then(seat, answer)
                else:  # any refusal: a rule, G7 (Conflict), short of money
                    await seat.send(ErrorMessage(message=f"not dealt in: {answer}"))

        done = await asyncio.gather(
            *(write(first) for first in range(0, len(dealt), DEALT_TOGETHER)),
            return_exceptions=True,
        )
        for failed in (d for d in done if isinstance(d, Exception)):
            raise failed
        return views

    async def _next_deal(self, broadcast: bool = True) -> None:
        """Reveal the deal that is done with and commit to the next. The old deal is
        dropped first: whatever fails, no card of it is dealt again."""
        done, self.deal, self.layout = self.deal, None, None
        self.next_place, self.phase = 0, TablePhase.BETTING
        if done is not None:
            await asyncio.to_thread(self.service.reveal_deal, done.id, self.fence)
        self.deal = await asyncio.to_thread(
            self.service.new_deal, self.game, self.variant, self.fence
        )
        if broadcast:
            await self._broadcast()

    def _forget_bets(self) -> None:
        """A new deck or shoe is coming: bets whose client seeds were sent against the
        last commitment are dropped, to be made again once the new one shows."""
        for seat in self.seats:
            seat.wagers = seat.second = None
