"""A live shared table's players and their bets: sitting down (or another connection
to one's seat), leaving, betting for the next deal (checked now, G6), deciding a hand
(checked now, carried out at the showdown), and betting closing into the deal.

Each bet carries the player's client seed for the next deal, sent after that deal's
commitment was shown, so the house commits before it knows the seeds.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping

from riverboat.errors import IllegalAction
from riverboat.money import Cents
from riverboat.rng import new_token
from riverboat.table.accounts.ledger import affordable
from riverboat.table.live.core import _UNREACHABLE, _reach
from riverboat.table.live.seats import CONNECTIONS, Seat, Send, find_seat, free_number, seated
from riverboat.table.live.showdown import TableShowdown
from riverboat.table.live.views import DealtMessage, DecidedMessage
from riverboat.table.states import TablePhase
from riverboat.table.views import SEED_CHARACTERS

__all__ = ["TableBetting"]


class TableBetting(TableShowdown):
    """A table's seats and bets: betting closes when every seat has bet, or
    ``betting_seconds`` after the first bet."""

    async def sit(self, player: int, send: Send) -> None:
        """Seat the player (or add a connection to their seat) and show them the table."""
        async with self._lock:
            seat = find_seat(self.seats, player)
            if seat is None:
                if self.max_seats is not None and len(self.seats) >= self.max_seats:
                    raise IllegalAction(
                        f"all {self.max_seats} seats at this table are taken; try again soon"
                    )
                name = await _reach(self.service.name, player)
                seat = Seat(player, name, number=free_number(self.seats, self.max_seats))
                self.seats.append(seat)
            if len(seat.listeners) >= CONNECTIONS:
                raise IllegalAction(f"you are at this table in {CONNECTIONS} windows already")
            seat.listeners.append(send)
            seat.cut_off = False  # back: its hand is theirs to decide again
            if self.deal is None:
                self.deal = await _reach(self.service.new_deal, self.game, self.variant, self.fence)
                await self._broadcast()
            else:
                await self._tell(seat)
            if seat.round_id is not None:  # back after a reload: their hand again
                view = await _reach(self.service.round, player, seat.round_id)
                await send(DealtMessage(round=view))

    async def leave(self, player: int, send: Send) -> None:
        """The connection has gone; the seat goes with its last one, unless it is in a
        round, which plays out (an undecided hand folds when the time runs out)."""
        async with self._lock:
            seat = find_seat(self.seats, player)
            if seat is None:
                return
            with contextlib.suppress(ValueError):
                seat.listeners.remove(send)
            if not seat.listeners and seat.round_id is None:
                self.seats.remove(seat)
                if self.phase == TablePhase.BETTING and not any(s.wagers for s in self.seats):
                    self._timer.cancel()  # no bets left: betting need not close
                await self._tell(None)

    async def bet(
        self,
        player: int,
        wagers: Mapping[str, Cents],
        second: Mapping[str, Cents] | None = None,
        client_seed: str | None = None,
    ) -> None:
        """Place (or change) the seat's wagers for the next deal, checked now (G6), with
        the player's client seed for it (a random one if none)."""
        seed = client_seed or new_token(8)
        if len(seed) > SEED_CHARACTERS or "|" in seed or not seed.isprintable():
            raise IllegalAction(
                f"a shared table's client seed is 1 to {SEED_CHARACTERS} printable "
                "characters without '|'"
            )
        async with self._lock:
            seat = seated(self.seats, player)
            if self.phase == TablePhase.CLOSED:
                raise IllegalAction(f"{_UNREACHABLE}: betting reopens once it can")
            if self.phase == TablePhase.SETTLING:  # the next deal's commitment is not made yet
                raise IllegalAction(
                    "the last hand is being settled: bet once the next deal's commitment "
                    "shows, so that your seed follows it"
                )
            if self.phase != TablePhase.BETTING or seat.round_id is not None:
                raise IllegalAction("betting is closed: wait for the next deal")
            if self.deal is None:  # the last one could not be made: make it, show it
                self.deal = await _reach(self.service.new_deal, self.game, self.variant, self.fence)
                await self._broadcast()
                raise IllegalAction(
                    "the next deal's commitment shows now: bet again, so that your seed follows it"
                )
            probe = self.kind.new_round(self.rules)
            probe.place_wagers(wagers)
            if second is not None:
                probe.place_wagers(second, blind=True)
            if self.spec.table_seats is not None:  # its hands are the deck's: count them
                taken = sum(s.positions for s in self.seats if s.wagers and s is not seat)
                if taken + len(probe.positions) > probe.max_positions:
                    raise IllegalAction(
                        f"{probe.max_positions - taken} of the table's "
                        f"{probe.max_positions} betting positions are free"
                    )
            staked = sum(  # a blind position's Play with it (C8)
                self.spec.position_stake(p.wagers, p.blind) for p in probe.positions
            )
            balance = self._balances.pop(player, None)  # read for its batch (:meth:`together`)
            if balance is None:
                balance = await _reach(self.service.balance, player)
            affordable(staked, balance)
            seat.wagers = dict(probe.positions[0].wagers)
            seat.second = dict(probe.positions[1].wagers) if second is not None else None
            seat.client_seed = seed
            if all(s.wagers for s in self.seats):
                await self._deal()
                return
            if not self._timer.armed:
                self._timer.arm(self.betting_seconds, self._deal)
            await self._tell(seat)

    async def decide(self, player: int, action: str, amount: Cents | None = None) -> None:
        """The seat's decision (Crazy 4), checked now and carried out at the showdown."""
        async with self._lock:
            seat = seated(self.seats, player)
            if self.phase != TablePhase.DECIDING or seat.round_id is None:
                raise IllegalAction("there is no hand of yours to decide on now")
            if seat.decision is not None:
                raise IllegalAction("you have decided this hand; the dealer shows when all have")
            round_id = seat.round_id
            await _reach(self.service.check_decision, player, round_id, action, amount)
            seat.decision = (action, amount)
            waiting = sum(s.round_id is not None and s.decision is None for s in self.seats)
            await self._save()  # kept before it is acknowledged
            await seat.send(DecidedMessage(action=action, waiting=waiting))
            if waiting == 0:
                await self._showdown()
            else:
                await self._tell(seat, save=False)

    async def _deal(self) -> None:
        """Close betting and deal to every seat that bet (lock held)."""
        self._timer.cancel()
        bettors = [s for s in self.seats if s.wagers]
        if not bettors:
            return
        if self.deal is None:  # the last one could not be made: make it now
            self.deal = await _reach(self.service.new_deal, self.game, self.variant, self.fence)
        if self.layout is None:
            seed = "|".join(s.client_seed for s in bettors)
            self.layout = await _reach(self.service.seal_deal, self.deal.id, seed, self.fence)
            self.next_place = self.layout.first
        if self.spec.shoe is not None:
            await self._deal_coup(bettors)
        else:
            await self._deal_hands(bettors)
