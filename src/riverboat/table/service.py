"""The table service: players, the ledger, provably fair rounds, history and audit.

Every call that moves money is one database transaction: it checks, moves money as
ledger entries that sum to zero, and stores the round's record, or it does nothing.
A call may carry an idempotency key: the same key with the same request returns the
first answer again; the same key with another request is refused.

:class:`TableService` is the one door front ends use; behind it each part has one
job: :mod:`~riverboat.table.accounts.ledger` (entries, balances, idempotency),
:mod:`~riverboat.table.accounts.players` (accounts and log-in), :mod:`~riverboat.table.rounds.own`
(playing), :mod:`~riverboat.table.rounds.sources` (card sources and deals),
:mod:`~riverboat.table.accounts.audit` (audit and recovery) and the database-free
:mod:`~riverboat.table.rounds.verify`.

>>> service = TableService("sqlite://")
>>> me = service.local_player()
>>> service.balance(me)
100000
>>> view = service.start_round(me, "tri-card", {"ante": 1000}, client_seed="doc")
>>> view.status.value, [c.action for c in view.choices]
('open', ['fold', 'raise'])
>>> done = service.act(me, view.id, "fold")
>>> done.status.value, service.balance(me)
('settled', 99000)
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Generic, TypeVar, overload

from sqlalchemy import select
from sqlalchemy.orm import Session

from riverboat.errors import BadCredentials, IllegalAction, Refusal
from riverboat.money import Cents
from riverboat.store import connect
from riverboat.store.models import Player
from riverboat.table.accounts import LOCAL_PLAYER
from riverboat.table.accounts.credits import credits
from riverboat.table.accounts.ledger import STARTING_CREDIT, TOP_UP_BELOW, Ledger
from riverboat.table.rounds.exports import export_round
from riverboat.table.rounds.own import CUT_OFF, Rounds
from riverboat.table.rounds.sources import Deals, SharedCards
from riverboat.table.rounds.verify import DealLayout, verify_round, verify_shoe
from riverboat.table.states import RoundStatus
from riverboat.table.views import CreditView, ExportedRound, NewDeal, RoundView

if TYPE_CHECKING:
    from riverboat.admission.budgets import Budget
    from riverboat.admission.logins import LoginThrottle
    from riverboat.table.accounts.audit import Audit
    from riverboat.table.accounts.players import Players
    from riverboat.table.live.across.live_state import Fence
    from riverboat.table.office.accounts import BackOffice
    from riverboat.table.road_views import RoadsView
    from riverboat.table.rounds.shared import SharedRounds, Stake

__all__ = [
    "LOCAL_PLAYER",
    "STARTING_CREDIT",
    "TOP_UP_BELOW",
    "DealLayout",
    "SharedCards",
    "TableService",
    "export_round",
    "verify_round",
    "verify_shoe",
]


Part = TypeVar("Part")
#: held while a part of any service is made (:class:`_Made`)
_MAKING = threading.RLock()


class _Made(Generic[Part]):
    """A part of the service made at its first use, its module imported then: a command
    that reads the history never imports the log-in throttles, password hashing, the
    back office or shared tables. Made once, whichever threads ask first; a test may
    put another in its place (an attribute of the instance)."""

    def __init__(self, make: Callable[[TableService], Part]) -> None:
        self.make = make
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, service: None, owner: type | None = None) -> _Made[Part]: ...
    @overload
    def __get__(self, service: TableService, owner: type | None = None) -> Part: ...
    def __get__(
        self, service: TableService | None, owner: type | None = None
    ) -> Part | _Made[Part]:
        if service is None:
            return self
        with _MAKING:
            if self.name not in service.__dict__:
                service.__dict__[self.name] = self.make(service)
            part: Part = service.__dict__[self.name]
        return part


def _players(service: TableService) -> Players:
    from riverboat.table.accounts.players import Players

    return Players(service.ledger)


def _shared_rounds(service: TableService) -> SharedRounds:
    from riverboat.table.rounds.shared import SharedRounds

    return SharedRounds(service.ledger)


def _auditor(service: TableService) -> Audit:
    from riverboat.table.accounts.audit import Audit

    return Audit(service.ledger, service.rounds)


def _office(service: TableService) -> BackOffice:
    from riverboat.table.office.accounts import BackOffice

    return BackOffice(service.ledger, service.rounds)


class TableService:
    """The service over one database (SQLite file by default, PostgreSQL by URL)."""

    players = _Made(_players)
    shared_rounds = _Made(_shared_rounds)
    auditor = _Made(_auditor)
    office = _Made(_office)

    def __init__(self, url: str | None = None) -> None:
        self.engine = connect(url)
        self.ledger = Ledger(self.engine)
        self.rounds = Rounds(self.ledger)
        self.deals = Deals(self.ledger)

    # ------------------------------------------------------------- players
    def local_player(self) -> int:
        """The local default player (no password), created with its starting credit;
        once it exists, found by a read that waits for no writer."""
        with Session(self.engine) as session:
            found = session.scalar(select(Player.id).where(Player.name == LOCAL_PLAYER))
        return found if found is not None else self.players.local_player()

    def count_log_ins(self, throttle: LoginThrottle) -> None:
        """Count failed log-ins in ``throttle`` (by default this process's memory; a
        server passes the state store every process shares)."""
        self.players.throttle = throttle

    @property
    def password_checks(self) -> Budget:
        """The process's budget of password hashes
        (:func:`~riverboat.table.accounts.players.hashes`)."""
        return self.players.hashes

    def register(self, name: str, password: str) -> int:
        """A named account for a shared server; the password is kept as an argon2 hash."""
        return self.players.register(name, password)

    def sign_up(self, name: str, password: str, address: str = "local") -> int:
        """:meth:`register`, asked from ``address`` (a public server's sign-up): every
        sign-up is counted against the address, as failed log-ins are
        (:meth:`~riverboat.table.accounts.players.Players.sign_up`)."""
        return self.players.sign_up(name, password, address)

    def login(self, name: str, password: str, address: str = "local") -> int:
        """The player's id, or :class:`~riverboat.errors.BadCredentials`; an account
        an operator locked is refused with its reason, once the password is right (a
        guesser learns nothing of it)."""
        player_id = self.players.login(name, password, address)
        why = self.office.locked(player_id)
        if why is not None:
            raise BadCredentials(f"this account is locked by the house: {why}")
        return player_id

    def confirm(self, player_id: int, password: str, address: str = "local") -> None:
        """The player's password, asked again before an operator moves money: checked
        as a log-in is (the same throttle and budget of hashes), or
        :class:`~riverboat.errors.BadCredentials`."""
        if self.players.login(self.name(player_id), password, address) != player_id:
            raise BadCredentials("the password is not this account's")

    def name(self, player_id: int) -> str:
        """The player's name, as other players at a shared table see it."""
        return self.players.name(player_id)

    # -------------------------------------------------------------- money
    def balance(self, player_id: int) -> Cents:
        """The player's balance: their running total, read without waiting for writers."""
        with Session(self.engine) as session:
            return self.ledger.balance(session, player_id)

    def balances(self, player_ids: Iterable[int]) -> dict[int, Cents]:
        """Several players' balances in one read (an unknown player is left out)."""
        wanted = list(set(player_ids))
        if not wanted:
            return {}
        with Session(self.engine) as session:
            rows = session.execute(
                select(Player.id, Player.balance).where(Player.id.in_(wanted))
            ).all()
        return {player: int(balance) for player, balance in rows}

    def top_up(self, player_id: int, idempotency_key: str | None = None) -> Cents:
        """Below $100 of play money, a top-up brings the balance back to $1,000."""
        return self.ledger.top_up(player_id, idempotency_key)

    def credits(
        self, player_id: int, limit: int = 20, before: int | None = None
    ) -> list[CreditView]:
        """The player's credits of play money that are not rounds (the starting credit,
        each top-up), newest first; with ``before`` (a credit's id), the next page."""
        return credits(self.engine, player_id, limit, before)

    # -------------------------------------------------------------- rounds
    def start_round(
        self,
        player_id: int,
        game: str,
        wagers: Mapping[str, Cents],
        client_seed: str | None = None,
        idempotency_key: str | None = None,
        variant: str | None = None,
        second: Mapping[str, Cents] | None = None,
        shared: SharedCards | None = None,
    ) -> RoundView:
        """Check and debit the wagers, commit to a fresh server seed and deal (G2, G6).

        ``second`` opens a second, blind position (Crazy 4, C8); ``shared`` deals from a
        shared table's deck or shoe instead of the player's own (one seat's round of
        :meth:`start_shared`: no client seed, variant or idempotency key of its own).
        """
        if shared is None:
            return _counted(
                self.rounds.start_round(
                    player_id, game, wagers, client_seed, idempotency_key, variant, second
                ),
                dealt=True,
            )
        if (client_seed, idempotency_key, variant) != (None, None, None):
            raise IllegalAction(
                "a shared table's round takes its deal's seeds and rules, and no idempotency key"
            )
        from riverboat.table.rounds.shared import Stake

        stake = Stake(player_id, wagers, shared.places, second)
        (answer,) = self.start_shared(game, shared.deal_id, [stake], shared.fence)
        if isinstance(answer, Refusal):
            raise answer
        return answer

    def start_shared(
        self, game: str, deal_id: int, stakes: Sequence[Stake], fence: Fence | None = None
    ) -> list[RoundView | Refusal]:
        """Every seat's round of a shared table's deal, in one transaction (with
        ``fence``, only while that lease runs the table); by seat, its round or why it
        was refused (:mod:`~riverboat.table.rounds.shared`)."""
        answers = self.shared_rounds.start(game, deal_id, stakes, fence)
        for answer in answers:
            if not isinstance(answer, Refusal):
                _counted(answer, dealt=True)
        return answers

    def act(
        self,
        player_id: int,
        round_id: int,
        action: str,
        amount: Cents | None = None,
        idempotency_key: str | None = None,
    ) -> RoundView:
        """A decision in an open round; its Play, Raise or fee is debited first."""
        return _counted(self.rounds.act(player_id, round_id, action, amount, idempotency_key))

    def showdown(
        self,
        decisions: Sequence[tuple[int, int, str, Cents | None]],
        fence: Fence | None = None,
        game: str | None = None,
    ) -> dict[int, str]:
        """A shared table's decisions carried out together (C8); notes by round. With
        ``fence``, only while that lease runs the table; ``game``, the table's, counts
        the rounds settled (:mod:`riverboat.metrics`)."""
        from riverboat.metrics import ROUNDS_SETTLED

        notes = self.rounds.showdown(decisions, fence)
        if game is not None:
            for _, round_id, action, _ in decisions:  # each round decided settles
                done = notes.get(round_id, "").endswith("before the showdown")
                if action != CUT_OFF and not done:
                    ROUNDS_SETTLED.labels(game=game).inc()
        return notes

    def void_shared(
        self, seats: Sequence[tuple[int, int]], reason: str, fence: Fence | None = None
    ) -> dict[int, Cents]:
        """A shared table's rounds, ``(player, round)``, that its showdown could not
        carry out, void and their wagers returned (G7); what each returned, by round."""
        return self.rounds.void_shared(seats, reason, fence)

    def check_decision(
        self, player_id: int, round_id: int, action: str, amount: Cents | None = None
    ) -> Cents:
        """What the decision would cost, or a refusal; changes nothing."""
        return self.rounds.check_decision(player_id, round_id, action, amount)

    def quick_replay(
        self,
        player_id: int,
        game: str,
        idempotency_key: str | None = None,
        client_seed: str | None = None,
    ) -> RoundView:
        """Deal again with the last round's wagers, checked as new wagers (R10)."""
        return _counted(
            self.rounds.quick_replay(player_id, game, idempotency_key, client_seed), dealt=True
        )

    def open_round(self, player_id: int, game: str) -> RoundView | None:
        """The player's unfinished round at their own table of the game (G7), or None."""
        return self.rounds.open_round(player_id, game)

    def round(self, player_id: int, round_id: int) -> RoundView:
        return self.rounds.round(player_id, round_id)

    def history(
        self,
        player_id: int,
        limit: int = 20,
        commitment: str | None = None,
        before: int | None = None,
    ) -> list[ExportedRound]:
        """The player's last rounds, newest first (``limit`` of 1 to 1000); with
        ``before``, those older than that round: the next page."""
        return self.rounds.history(player_id, limit, commitment, before)

    # ------------------------------------------------ seeds, shoes and deals
    def next_commitment(self, player_id: int, game: str) -> str:
        """The commitment to the server seed of the player's next round at their own
        table of ``game``, the same until that round is dealt.

        >>> service = TableService("sqlite://")
        >>> me = service.local_player()
        >>> shown = service.next_commitment(me, "baccarat")
        >>> service.start_round(me, "baccarat", {"banker": 500}, "mine").commitment == shown
        True
        """
        return self.deals.next_commitment(player_id, game)

    def end_shoe(self, player_id: int, game: str) -> bool:
        """End the player's own shoe of ``game`` before its cut card; whether one was
        in play."""
        return self.deals.end_shoe(player_id, game)

    def shoe_in_play(self, player_id: int, game: str) -> bool:
        """Whether the player's own shoe of ``game`` has coups dealt and more to come."""
        return self.deals.shoe_in_play(player_id, game)

    def roads(self, player_id: int, game: str) -> RoadsView:
        """The roads of the player's own shoe of ``game`` in play, from its coups so far;
        empty once that shoe ends (cut card or :meth:`end_shoe`), until the next coup.

        >>> service = TableService("sqlite://")
        >>> me = service.local_player()
        >>> _ = service.start_round(me, "baccarat", {"banker": 500}, "mine")
        >>> len(service.roads(me, "baccarat").bead_plate)
        1
        >>> service.end_shoe(me, "baccarat"), service.roads(me, "baccarat").bead_plate
        (True, [])
        """
        from riverboat.table.road_views import RoadsView

        return RoadsView.of(self.rounds.shoe_winners(player_id, game))

    def new_deal(
        self, game: str, variant: str | None = None, fence: Fence | None = None
    ) -> NewDeal:
        """A shared table's next deck or shoe, its seed committed to now; with
        ``fence``, only while that lease runs the table (so for the two below)."""
        return self.deals.new_deal(game, variant, fence)

    def seal_deal(self, deal_id: int, client_seed: str, fence: Fence | None = None) -> DealLayout:
        """Fix the deal's client seed before its first cards; its layout."""
        return self.deals.seal_deal(deal_id, client_seed, fence)

    def reveal_deal(self, deal_id: int, fence: Fence | None = None) -> None:
        """Nothing from this deal is in play any more: its seed may be shown."""
        self.deals.reveal_deal(deal_id, fence)

    # ------------------------------------------------------------ recovery
    def recover(self) -> list[int]:
        """After a crash: void and refund the rounds before their first decision (G7)."""
        return self.auditor.recover()

    def audit(self) -> list[str]:
        """Re-settle every stored round and check the ledger; the problems found."""
        return self.auditor.audit()


def _counted(view: RoundView, dealt: bool = False) -> RoundView:
    """``view`` counted (:mod:`riverboat.metrics`): dealt, if it was just dealt, and
    settled if it is. Only in a process that reports the counts, which has imported
    :mod:`riverboat.metrics` (the web app, for ``/metrics``): a command such as
    ``riverboat play`` reports none and does not load prometheus_client for them."""
    metrics = sys.modules.get("riverboat.metrics")
    if metrics is None:
        return view
    if dealt:
        metrics.ROUNDS_DEALT.labels(game=view.game).inc()
    if view.status == RoundStatus.SETTLED:
        metrics.ROUNDS_SETTLED.labels(game=view.game).inc()
    return view
