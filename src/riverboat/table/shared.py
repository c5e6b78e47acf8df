"""Shared tables: several players at one live table.

Crazy 4 Poker seats up to six players against one dealer hand dealt from one deck,
with at most six betting positions in all; a player may take a second, blind one
(C8). Baccarat deals every coup from one shoe to everyone seated, until the cut card
comes out (B1).

Each player's part of a deal is a round of their own in the table service, so their
money, record, history and audit work as at a table of their own; the cards come from
places in the shared deal, every seat's round of a deal written together
(:mod:`~riverboat.table.shared_rounds`). The deal's seed is committed to before the
seated players' client seeds are joined, and revealed once nothing dealt from it is in
play: after the showdown (Crazy 4), after the shoe (Baccarat).

No one sees another player's cards (C8). At Crazy 4 a decision is checked when it is
made but carried out at the showdown, once every seat has decided, for every seat in
one transaction, so no round settles, and no dealer card shows, while another player
is still deciding. A seat that has not decided when the time runs out folds.

A showdown the database does not take is tried again a few times; then every seat's
round is void and refunded (G7: none of its decisions was carried out) and betting
reopens. Until that void is written too, the table is ``closed`` to bets. The retries
and the void run beside the table, not holding it: while the table is ``settling``,
seats come and go and their messages are answered; a bet waits for the next deal's
commitment, made once the showdown's rounds are settled or void.

Each bet carries the player's client seed for the next deal, sent after that deal's
commitment was shown, so the house commits before it knows the seeds.

A table is an asyncio object. A front end seats a player with :meth:`SharedTable.sit`,
giving a ``send`` coroutine for the messages meant for that player, then calls
:meth:`bet`, :meth:`decide` and :meth:`leave`. Messages are the models of
:mod:`riverboat.table.views`, each with a ``type``:
``table`` (the seats, the phase, the deal's commitment), ``dealt`` and ``result`` (the
player's own round, as the service shows it), ``coup`` (a Baccarat coup's cards, which
every seat sees), ``decided`` and ``error``.

The seats and sending to their connections are :mod:`riverboat.table.live.seats`; the
betting and decision deadlines are a :class:`riverboat.table.live.clock.Timer`.

Several server processes may serve one table (:mod:`riverboat.table.hub`): the one
holding the table's lease runs it with that lease's
:class:`~riverboat.table.live.across.live_state.Fence` (:meth:`SharedTable.take_over`),
writes its state to the database before each message it sends (phase, deadline, deal,
seats' bets and decisions), and stops (:meth:`SharedTable.step_down`) once the lease is
lost. The process that takes over
finishes the hand in play at its deadline; a deal it finds half made is void and
refunded (G7). Without a fence (one process) nothing is written but the rounds.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from riverboat.deck import cut_card_reached
from riverboat.errors import IllegalAction, Refusal, Unavailable
from riverboat.games import GAMES, find_game
from riverboat.money import Cents, format_money
from riverboat.rng import new_token
from riverboat.table.ledger import affordable
from riverboat.table.live.across import live_state
from riverboat.table.live.across.live_state import Fence, LeaseLostError
from riverboat.table.live.clock import Timer
from riverboat.table.live.seats import (
    CONNECTIONS,
    Seat,
    Send,
    deliver,
    find_seat,
    free_number,
    seated,
)
from riverboat.table.rounds import CUT_OFF
from riverboat.table.service import DealLayout, TableService
from riverboat.table.shared_rounds import Stake
from riverboat.table.states import RoundStatus, TablePhase
from riverboat.table.views import (
    SEATS_SHOWN,
    SEED_CHARACTERS,
    CoupMessage,
    DealtMessage,
    DecidedMessage,
    ErrorMessage,
    NewDeal,
    ResultMessage,
    RoadsView,
    RoundView,
    SeatView,
    ShoeView,
    TableMessage,
    TableSnapshot,
)

if TYPE_CHECKING:
    from riverboat.games.spec import GameSpec
    from riverboat.table.lobby import TableConfig

__all__ = ["SEED_CHARACTERS", "SHARED_GAMES", "Send", "SharedTable"]

#: the games with shared tables; their seats are the round's (``max_seats``)
SHARED_GAMES = tuple(name for name, game in GAMES.items() if game.spec().shared)
_log = logging.getLogger(__name__)
#: how many of the newest messages' ids a table keeps, to carry out none twice
HANDLED_KEPT = 256
#: how many seats' rounds of one deal one transaction writes (a refusal of one deals
#: the others in), and how many such transactions run at once: a coup of a thousand
#: is four, the first seats told while the last are written
DEALT_TOGETHER = 250
WRITTEN_AT_ONCE = 2
#: after a seat bets, sits or leaves, the other seats are shown the table within this
#: many seconds per seat at it, at most :data:`COMPANY_MOST_SECONDS` (a table of fewer
#: than :data:`COMPANY_AT_ONCE` seats shows them at once): at a shoe of a thousand, one
#: snapshot for everyone every two seconds, not a thousand per second of betting
COMPANY_SECONDS_PER_SEAT = 0.002
COMPANY_MOST_SECONDS = 2.0
COMPANY_AT_ONCE = 25
_UNREACHABLE = "the table could not reach its database"
_VOID = "the showdown could not reach the database"
_CLOSED = (
    f"{_UNREACHABLE}: your round is void and refunded as soon as it can be written; "
    "betting reopens then"
)


P = ParamSpec("P")
T = TypeVar("T")


async def _reach(call: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """``call`` in a worker thread; a database that fails is :class:`Unavailable`, a
    refusal that changed nothing and says to try again."""
    try:
        return await asyncio.to_thread(call, *args, **kwargs)
    except (Refusal, LeaseLostError):
        raise
    except Exception as error:
        _log.warning("a shared table's call failed: %s", _short(error))
        raise Unavailable(f"{_UNREACHABLE}: nothing changed; try again shortly") from error


def _phase(stored: str) -> TablePhase:
    """A phase as written (by this version or another): betting if it names none."""
    try:
        return TablePhase(stored)
    except ValueError:
        return TablePhase.BETTING


def _by_number(seat: Seat) -> int:
    """A seat's place around the table, to list the seats in."""
    return seat.number


def _short(error: Exception) -> str:
    """An error in one line, for the log."""
    return str(error).splitlines()[0] if str(error) else type(error).__name__


class SharedTable:
    """One live shared table of ``game`` (one of :data:`SHARED_GAMES`) over ``service``.

    Betting closes when every seat has bet, or ``betting_seconds`` after the first bet;
    Crazy 4 seats then have ``decision_seconds`` to decide. A showdown the database
    does not take is tried again after each of :attr:`retry_pauses` seconds, then its
    rounds are void; a void it does not take either, every :attr:`reopen_seconds`,
    the table closed to bets meanwhile.
    """

    retry_pauses: tuple[float, ...] = (0.25, 0.5, 1.0)
    reopen_seconds: float = 2.0
    #: after a take-over, how long a seat without a connection (its player's process
    #: is gone, or the player) waits for its player to sit again before it goes
    rejoin_seconds: float = 8.0
    #: the showdown being tried again beside the table, if one is
    _settling: asyncio.Task[None] | None = None
    #: the seats without a connection being pruned after a take-over, if they are
    _pruning: asyncio.Task[None] | None = None
    #: the other seats' next sight of the table, if one is due (:meth:`_tell`)
    _company: asyncio.Task[None] | None = None
    #: while messages are carried out together (:meth:`together`): the seats to show
    #: the table once the state is written (None: a seat left), and whether to write it
    _held_back: list[Seat | None] | None = None
    _unsaved = False

    def __init__(
        self,
        service: TableService,
        game: str,
        betting_seconds: float = 15.0,
        decision_seconds: float = 45.0,
        variant: str | None = None,
        config: TableConfig | None = None,
    ) -> None:
        if config is not None:  # a lobby's table: its game and variant, its id and name
            game, variant = config.game, config.variant
        self.config = config
        if game not in SHARED_GAMES:
            raise IllegalAction(f"shared tables play {' or '.join(SHARED_GAMES)}, not {game!r}")
        self.service, self.game, self.variant = service, game, variant
        self.kind = find_game(game)
        self.rules = self.kind.rules(variant)
        self.spec = self.kind.spec(self.rules)
        #: the seats; None: as many as come (a Baccarat shoe's coup is everyone's)
        self.max_seats = (
            config.seats if config is not None and config.seats else self.spec.table_seats
        )
        self.betting_seconds, self.decision_seconds = betting_seconds, decision_seconds
        self.seats: list[Seat] = []
        self.phase = TablePhase.BETTING
        self.deal: NewDeal | None = None
        self.layout: DealLayout | None = None
        self.next_place = 0
        self.road: list[str] = []  # this shoe's coups' winners: Player, Banker or Tie
        #: the ids of the newest messages carried out here (:meth:`first_time`)
        self.handled: list[str] = []
        #: the lease this process runs the table with, when several processes serve it
        self.fence: Fence | None = None
        #: the balances of the players whose bets are in the batch carried out together
        self._balances: dict[int, Cents] = {}
        self._lock = asyncio.Lock()
        self._timer = Timer(self._lock, _log, game)

    # ------------------------------------------------------------ players
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

    async def close(self) -> None:
        """Stop the table's timer and any showdown being tried again (the server is
        stopping: a round left open is void at the next start, G7)."""
        self._timer.cancel()
        self._company_told()
        if self._settling is not None:
            self._settling.cancel()

    async def settled(self) -> None:
        """Wait until a showdown being tried again has settled or voided its rounds."""
        while self._settling is not None:
            await asyncio.shield(self._settling)

    # ------------------------------------------- several processes, one table
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
        coups dealt since the state was written (their seats are done with their bets,
        the shoe and its road go on after them); at a deck, every open round dealt
        from it that no seat shows is void and refunded (G7: none was decided) and the
        next hand has a new deck, since those cards were seen. Whether the hand the
        seats show is over already (its showdown was written): it ends now."""
        if self.deal is None or self.layout is None:
            return False
        rounds = await _reach(live_state.deal_rounds, self.service.engine, self.deal.id)
        if self.spec.shoe is not None:
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
            return False
        shown = {s.round_id for s in self.seats if s.round_id is not None}
        over = bool(shown) and not any(
            r.status == RoundStatus.OPEN for r in rounds if r.id in shown
        )
        strays = [
            (r.player, r.id) for r in rounds if r.status == RoundStatus.OPEN and r.id not in shown
        ]
        if not strays:
            return over
        await _reach(self.service.rounds.void_shared, strays, _VOID, self.fence)
        for seat in self.seats:
            if any(player == seat.player for player, _ in strays):
                seat.wagers = seat.second = None
        if not shown:
            self._forget_bets()
            await self._next_deal(broadcast=False)
        return over

    def _forget_bets(self) -> None:
        """A new deck or shoe is coming: bets whose client seeds were sent against the
        last commitment are dropped, to be made again once the new one shows."""
        for seat in self.seats:
            seat.wagers = seat.second = None

    def stored(self) -> dict[str, Any]:
        """What the database keeps of the table besides its phase, deadline and deal."""
        return {
            "seats": [seat.stored() for seat in self.seats],
            "next_place": self.next_place,
            "road": self.road,
            "commitment": self.deal.commitment if self.deal else None,
            "handled": self.handled[-HANDLED_KEPT:],
            "cards_left": self._cards_left(),
        }

    def _cards_left(self) -> int | None:
        """The cards left in the shoe or deck in play, None before its first cards."""
        size = self.layout.size if self.layout else None
        return size - self.next_place if size else None

    def first_time(self, message_id: str) -> bool:
        """Whether the message ``message_id`` is new here; from now on it is not. The ids
        are written with the table's state, so a message carried out, then delivered
        again to the next holder (its first holder died before acknowledging it), is
        not carried out twice."""
        if message_id in self.handled:
            return False
        self.handled = [*self.handled[-HANDLED_KEPT + 1 :], message_id]
        return True

    async def _save(self) -> None:
        """Write the table's state, when several processes serve it (lock held). A
        newer lease's claim stops the step (:class:`LeaseLostError`); a database that does
        not answer leaves the last state written, and the table plays on."""
        if self.fence is None:
            return
        try:
            await asyncio.to_thread(
                live_state.save,
                self.service.engine,
                self.fence,
                self.phase,
                self._timer.deadline(),
                self.deal.id if self.deal else None,
                self.stored(),
            )
        except LeaseLostError:
            raise
        except Exception as error:
            _log.warning("the %s table's state was not written: %s", self.game, _short(error))

    # ---------------------------------------------------------- the deal
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
            return await asyncio.to_thread(self.service.showdown, decisions, self.fence)
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
                self.service.rounds.void_shared, seats, _VOID, self.fence
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

    # ------------------------------------------------------------ what seats see
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
