"""A live shared table's hands from one deck (Crazy 4, C8): dealt to every seat that
bet, decided, and shown down together.

No one sees another player's cards (C8). A decision is checked when it is made but
carried out at the showdown, once every seat has decided, for every seat in one
transaction, so no round settles, and no dealer card shows, while another player is
still deciding. A seat that has not decided when the time runs out folds.

A showdown the database does not take is tried again a few times; then every seat's
round is void and refunded (G7: none of its decisions was carried out) and betting
reopens. Until that void is written too, the table is ``closed`` to bets. The retries
and the void run beside the table, not holding it: while the table is ``settling``,
seats come and go and their messages are answered; a bet waits for the next deal's
commitment, made once the showdown's rounds are settled or void.
"""

from __future__ import annotations

import asyncio
import logging

from riverboat.money import Cents, format_money
from riverboat.table.live.across import live_state
from riverboat.table.live.across.live_state import LeaseLostError
from riverboat.table.live.core import _UNREACHABLE, _reach, _short
from riverboat.table.live.seats import Seat, deliver
from riverboat.table.live.shoe import TableShoe
from riverboat.table.live.views import DealtMessage, ErrorMessage, ResultMessage, TableMessage
from riverboat.table.rounds.own import CUT_OFF
from riverboat.table.states import RoundStatus, TablePhase

__all__ = ["TableShowdown"]

_log = logging.getLogger(__name__)
_VOID = "the showdown could not reach the database"
_CLOSED = (
    f"{_UNREACHABLE}: your round is void and refunded as soon as it can be written; "
    "betting reopens then"
)


class TableShowdown(TableShoe):
    """A table's hands, its showdown, and the void of a showdown the database does not
    take: tried again after each of :attr:`retry_pauses` seconds, then void; a void it
    does not take either, every :attr:`reopen_seconds`, the table closed to bets
    meanwhile."""

    retry_pauses: tuple[float, ...] = (0.25, 0.5, 1.0)
    reopen_seconds: float = 2.0
    #: the showdown being tried again beside the table, if one is
    _settling: asyncio.Task[None] | None = None

    async def _deal_hands(self, bettors: list[Seat]) -> None:
        assert self.deal is not None
        hand = next(h.cards for h in self.spec.hands if h.each_position)
        house = self.spec.house.cards if self.spec.house else 0
        positions = sum(s.positions for s in bettors)
        dealer = list(range(positions * hand, positions * hand + house))
        place, dealt = 0, []
        for seat in bettors:
            count = hand * seat.positions
            dealt.append((seat, [*range(place, place + count), *dealer]))
            place += count
        for seat, view in zip(bettors, await self._start(dealt), strict=True):
            if view is None:
                continue
            if view.status == RoundStatus.OPEN:  # its chips stay on the felt until the showdown
                seat.round_id = view.id
                seat.playing, seat.playing_second = view.wagers, view.second
            await seat.send(DealtMessage(round=view))
        if any(s.round_id is not None for s in self.seats):
            self.phase = TablePhase.DECIDING
            self._timer.arm(self.decision_seconds, self._showdown)
            await self._broadcast()
        else:  # every wager refused or void: a fresh deck for the next deal
            await self._next_deal()

    async def _adopt_hands(self, rounds: list[live_state.DealtRound]) -> bool:
        """Take in the rounds dealt from the deck that no seat shows (lock held): each
        open one is void and refunded (G7: none was decided) and the next hand has a
        new deck, since those cards were seen. Whether the hand the seats show is over
        already (its showdown was written): it ends now."""
        shown = {s.round_id for s in self.seats if s.round_id is not None}
        over = bool(shown) and not any(
            r.status == RoundStatus.OPEN for r in rounds if r.id in shown
        )
        strays = [
            (r.player, r.id) for r in rounds if r.status == RoundStatus.OPEN and r.id not in shown
        ]
        if not strays:
            return over
        await _reach(self.service.void_shared, strays, _VOID, self.fence)
        for seat in self.seats:
            if any(player == seat.player for player, _ in strays):
                seat.wagers = seat.second = None
        if not shown:
            self._forget_bets()
            await self._next_deal(broadcast=False)
        return over

    async def _showdown(self) -> None:
        """Carry out every decision (an undecided hand folds) in one transaction, reveal
        the deck, then show each player their settled round (lock held). A database that
        does not answer is tried again, beside the table (:meth:`_settle`)."""
        self._timer.cancel()
        playing = [s for s in self.seats if s.round_id is not None]
        decisions = []
        for seat in playing:
            assert seat.round_id is not None
            # undecided: it folds, unless the servers lost its connection (G7: void)
            undecided = (CUT_OFF, None) if seat.cut_off and not seat.listeners else ("fold", None)
            decisions.append((seat.player, seat.round_id, *(seat.decision or undecided)))
        folded = ErrorMessage(message="time ran out: the hand folds")
        await deliver((seat, folded) for seat in playing if seat.decision is None)
        notes = await self._carry_out(decisions)
        if notes is None:  # nothing was carried out: the rounds are still open
            self.phase = TablePhase.SETTLING
            self._settling = asyncio.get_running_loop().create_task(
                self._settle(playing, decisions)
            )
            await self._broadcast()
            return
        await self._settled(playing, notes)

    async def _settled(self, playing: list[Seat], notes: dict[int, str]) -> None:
        """The showdown is written: reveal the deck, show each player their settled
        round and reopen betting (lock held)."""
        await self._reveal_and_renew()
        messages: list[tuple[Seat, TableMessage]] = []
        for seat in playing:
            assert seat.round_id is not None
            if seat.round_id in notes:
                messages.append((seat, ErrorMessage(message=notes[seat.round_id])))
            messages.append((seat, await self._result(seat, seat.round_id)))
        await self._reopen(playing, messages)

    async def _carry_out(
        self, decisions: list[tuple[int, int, str, Cents | None]]
    ) -> dict[int, str] | None:
        """The showdown's notes once it is written, or None if it failed (one
        transaction: a failed one carried out nothing)."""
        try:
            return await asyncio.to_thread(
                self.service.showdown, decisions, self.fence, self.game
            )
        except LeaseLostError:
            raise
        except Exception as error:  # the database did not answer, or failed
            _log.warning("the %s table's showdown failed: %s", self.game, _short(error))
        return None

    async def _settle(
        self, playing: list[Seat], decisions: list[tuple[int, int, str, Cents | None]] | None
    ) -> None:
        """A showdown that failed, tried again after each of :attr:`retry_pauses`, then
        its rounds void and refunded (G7: none of its decisions was carried out); a
        void that fails too closes the table to bets and is tried again every
        :attr:`reopen_seconds`. The waits and the database calls run without the
        table's lock, which is taken only to tell the seats; the rounds' status in the
        database decides, so a round the showdown did settle is never voided.
        ``decisions`` None: a showdown the last process left unfinished, voided here
        without trying it again."""
        try:
            for pause in self.retry_pauses if decisions is not None else ():
                await asyncio.sleep(pause)
                notes = await self._carry_out(decisions or [])
                if notes is not None:
                    async with self._lock:
                        await self._settled(playing, notes)
                    return
            await self._void_all(playing)
        except Exception:  # no one awaits this task: say it here
            _log.exception("the %s table's showdown could not be finished", self.game)
        finally:
            if self._settling is asyncio.current_task():
                self._settling = None

    async def _void_all(self, playing: list[Seat]) -> None:
        """Void and refund the seats' open rounds, trying again every
        :attr:`reopen_seconds` with the table closed to bets meanwhile; then tell the
        seats and reopen betting. The lock is taken only to tell the seats."""
        seats = [(s.player, s.round_id) for s in playing if s.round_id is not None]
        while (returned := await self._void(seats)) is None:
            async with self._lock:
                if self.phase != TablePhase.CLOSED:
                    self.phase = TablePhase.CLOSED
                    closed = ErrorMessage(message=_CLOSED)
                    await deliver((seat, closed) for seat in playing)
                    await self._broadcast()
            await asyncio.sleep(self.reopen_seconds)
        async with self._lock:
            await self._voided(playing, returned)

    async def _void(self, seats: list[tuple[int, int]]) -> dict[int, Cents] | None:
        """Void and refund the seats' open rounds; what each got back (a round the
        showdown settled after all is left settled), or None if the void failed."""
        try:
            return await asyncio.to_thread(
                self.service.void_shared, seats, _VOID, self.fence
            )
        except LeaseLostError:
            raise
        except Exception as error:
            _log.warning("the %s table could not void its rounds: %s", self.game, _short(error))
            return None

    async def _voided(self, playing: list[Seat], returned: dict[int, Cents]) -> None:
        """Tell each seat their round's end, void or settled, and reopen betting (lock
        held)."""
        await self._reveal_and_renew()
        messages: list[tuple[Seat, TableMessage]] = []
        for seat in playing:
            assert seat.round_id is not None
            if seat.round_id in returned:
                back = format_money(returned[seat.round_id])
                message = f"{_UNREACHABLE}: your round is void and your {back} is back"
                messages.append((seat, ErrorMessage(message=message)))
            messages.append((seat, await self._result(seat, seat.round_id)))
        await self._reopen(playing, messages)

    async def _result(self, seat: Seat, round_id: int) -> TableMessage:
        """The seat's finished round, or a note if it cannot be read back now."""
        try:
            view = await asyncio.to_thread(self.service.round, seat.player, round_id)
        except Exception as error:
            _log.warning("the %s table could not read round %s: %s", self.game, round_id, error)
            return ErrorMessage(message=f"round {round_id} is finished: see it in your history")
        return ResultMessage(round=view)

    async def _reveal_and_renew(self) -> None:
        """Nothing of this deck is in play: reveal it and commit to the next. If the
        database fails, the next deal is made when betting closes (see :meth:`_deal`)."""
        phase = self.phase  # betting reopens once every seat has its round's end
        try:
            await self._next_deal(broadcast=False)
        except Exception as error:
            _log.warning("the %s table's next deal failed: %s", self.game, _short(error))
            self.deal, self.layout = None, None
        self.phase = phase

    async def _reopen(self, playing: list[Seat], messages: list[tuple[Seat, TableMessage]]) -> None:
        """Send each seat its round's end, free the seats and reopen betting."""
        await asyncio.gather(  # every seat at once; one seat's messages in their order
            *(seat.send_all([m for s, m in messages if s is seat]) for seat in playing)
        )
        for seat in playing:
            seat.round_id, seat.decision = None, None
            seat.playing = seat.playing_second = None
        self.phase = TablePhase.BETTING
        self.seats = [s for s in self.seats if s.listeners]  # those who left go now
        await self._broadcast()  # the next deal's commitment: bets follow it

    async def settled(self) -> None:
        """Wait until a showdown being tried again has settled or voided its rounds."""
        while self._settling is not None:
            await asyncio.shield(self._settling)
