"""The table service: players, the ledger, provably fair rounds, history and audit.

Every call that moves money is one database transaction: it checks, moves money as
ledger entries that sum to zero, and stores the round's record, or it does nothing.
A call may carry an idempotency key: the same key with the same request returns the
first answer again; the same key with another request is refused.

>>> service = TableService("sqlite://")
>>> me = service.local_player()
>>> service.balance(me)
100000
>>> view = service.start_round(me, "tri-card", {"ante": 1000}, client_seed="doc")
>>> view.status, [c.action for c in view.choices]
('open', ['fold', 'raise'])
>>> done = service.act(me, view.id, "fold")
>>> done.status, service.balance(me)
('settled', 99000)
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import VerificationError
from pydantic import BaseModel
from sqlalchemy import ColumnElement, exists, func, select
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Session

from riverboat.deck import Deck, Shoe, cut_card_reached
from riverboat.fairness import commitment as commit_to
from riverboat.games import Phase, Round, find_game, replay
from riverboat.games.baccarat import winner as baccarat_winner
from riverboat.games.chips import quick_replay
from riverboat.games.codec import from_json, to_json
from riverboat.games.events import Decision
from riverboat.games.rules import IllegalAction
from riverboat.money import Cents, format_money
from riverboat.rng import FairSource, SecureSource, new_client_seed
from riverboat.store import connect
from riverboat.store.models import Deal, LedgerEntry, Player, RoundRow, Transaction
from riverboat.table import records
from riverboat.table.views import (
    BalanceView,
    ChoiceView,
    ExportedRound,
    NewDeal,
    RoundRecord,
    RoundView,
)

__all__ = [
    "LOCAL_PLAYER",
    "STARTING_CREDIT",
    "TOP_UP_BELOW",
    "DealLayout",
    "SharedCards",
    "TableService",
    "verify_round",
    "verify_shoe",
]

#: a new player's play money, and the top-up rule: below $100, back up to $1,000
STARTING_CREDIT: Cents = 100_000
TOP_UP_BELOW: Cents = 10_000
LOCAL_PLAYER = "local"
#: failed log-ins from one address before it is locked out of that name, failed
#: log-ins from all addresses before the account locks, and how long either lasts
LOCKOUT_AFTER = 5
ACCOUNT_LOCKOUT_AFTER = 50
LOCKOUT = timedelta(minutes=15)
#: attempts at a transaction that PostgreSQL could not serialise
RETRIES = 60
_JITTER = SecureSource()

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)
#: the most cards a Baccarat coup takes (B5, B6), and a Crazy 4 hand's (C2): the
#: shapes of the places a shared deal gives
COUP_CARDS = 6
HAND_CARDS = 5
_hasher = PasswordHasher()


@dataclass(frozen=True)
class SharedCards:
    """Where a shared table's round takes its cards: places in a deal's deck or shoe,
    in the order the round draws them (its positions' cards, then the dealer's)."""

    deal_id: int
    places: Sequence[int]


@dataclass(frozen=True)
class DealLayout:
    """A deal's shape: its size, the first place not burned and where the cut card lies
    (a shoe's, B1; a deck has none)."""

    size: int
    first: int
    cut_card_from_end: int | None
_DUMMY_HASH = _hasher.hash("riverboat: a password nobody has")


def _spend_a_hash(password: str) -> None:
    """Take as long as checking a real password, so timing does not tell names apart."""
    with suppress(VerificationError):
        _hasher.verify(_DUMMY_HASH, password)


def _player_account(player_id: int) -> str:
    return f"player:{player_id}"


def _round_account(round_id: int) -> str:
    return f"round:{round_id}"


class TableService:
    """The service over one database (SQLite file by default, PostgreSQL by URL)."""

    def __init__(self, url: str | None = None) -> None:
        # (name, address) -> (failed log-ins, locked until), in this process's memory
        self._failures: dict[tuple[str, str], tuple[int, datetime | None]] = {}
        self._failures_lock = threading.Lock()
        self.engine = connect(url)

    # ------------------------------------------------------------ plumbing
    def _write(self, work: Callable[[Session], T]) -> T:
        """Run ``work`` in one transaction; retry PostgreSQL serialization failures and
        deadlocks (should any occur) after a short random pause that grows each time."""
        for attempt in range(RETRIES):
            try:
                with Session(self.engine) as session, session.begin():
                    return work(session)
            except DBAPIError as error:
                code = getattr(error.orig, "sqlstate", None) or getattr(error.orig, "pgcode", None)
                if code not in ("40001", "40P01") or attempt == RETRIES - 1:
                    raise
                time.sleep(_JITTER.randbelow(1 + 2 ** min(attempt, 8)) / 1000)
        raise AssertionError("unreachable")  # pragma: no cover

    def _idempotent(
        self,
        key: str | None,
        kind: str,
        request: Mapping[str, object],
        work: Callable[[Session, Transaction], M],
        answer_type: type[M],
    ) -> M:
        """Do ``work`` once per idempotency key; a repeat returns the stored answer."""
        body = json.dumps({"kind": kind, **request}, sort_keys=True, default=str)

        def attempt(session: Session) -> M:
            if key is not None:
                earlier = session.scalar(
                    select(Transaction).where(Transaction.idempotency_key == key)
                )
                if earlier is not None:
                    if earlier.request != body:
                        raise IllegalAction(
                            f"idempotency key {key!r} was used for another request; use a new key"
                        )
                    return answer_type.model_validate_json(earlier.response or "{}")
            txn = Transaction(kind=kind, idempotency_key=key, request=body)
            session.add(txn)
            session.flush()
            response = work(session, txn)
            txn.response = json.dumps(response.model_dump(mode="json"))
            return response

        try:
            return self._write(attempt)
        except IntegrityError:
            if key is None:
                raise
            return self._write(attempt)  # a concurrent twin committed first: its answer

    @staticmethod
    def _move(session: Session, txn: Transaction, entries: list[tuple[str, Cents]]) -> None:
        """Ledger entries of one transaction; they must sum to zero."""
        if sum(amount for _, amount in entries) != 0:
            raise AssertionError(f"ledger entries must sum to zero: {entries}")
        for account, amount in entries:
            if amount:
                session.add(LedgerEntry(transaction_id=txn.id, account=account, amount=amount))

    @staticmethod
    def _lock(session: Session, player_id: int) -> None:
        """Take the player's row lock: calls that move their money take turns."""
        if (
            session.scalar(select(Player.id).where(Player.id == player_id).with_for_update())
            is None
        ):
            raise IllegalAction(f"there is no player {player_id}")

    @staticmethod
    def _balance(session: Session, player_id: int) -> Cents:
        total = session.scalar(
            select(func.coalesce(func.sum(LedgerEntry.amount), 0)).where(
                LedgerEntry.account == _player_account(player_id)
            )
        )
        return int(total or 0)

    # ------------------------------------------------------------- players
    def local_player(self) -> int:
        """The local default player (no password), created with its starting credit."""
        return self._player(LOCAL_PLAYER, None)

    def register(self, name: str, password: str) -> int:
        """A named account for a shared server; the password is kept as an argon2 hash."""
        if not name or len(name) > 64 or not name.replace("-", "").replace("_", "").isalnum():
            raise IllegalAction("a player name is 1 to 64 letters, digits, - or _")
        if name == LOCAL_PLAYER:
            raise IllegalAction(f"the name {LOCAL_PLAYER!r} belongs to the local player")
        if len(password) < 8:
            raise IllegalAction("a password has at least 8 characters")
        with Session(self.engine) as session:
            if session.scalar(select(Player.id).where(Player.name == name)) is not None:
                raise IllegalAction(f"the name {name!r} is taken")
        return self._player(name, _hasher.hash(password))

    def _player(self, name: str, password_hash: str | None) -> int:
        def work(session: Session) -> int:
            existing = session.scalar(select(Player).where(Player.name == name))
            if existing is not None:
                if password_hash is not None:  # registered meanwhile by someone else
                    raise IllegalAction(f"the name {name!r} is taken")
                return existing.id
            player = Player(name=name, password_hash=password_hash, failed_logins=0)
            session.add(player)
            session.flush()
            txn = Transaction(kind="credit", player_id=player.id)
            session.add(txn)
            session.flush()
            self._move(
                session,
                txn,
                [(_player_account(player.id), STARTING_CREDIT), ("house", -STARTING_CREDIT)],
            )
            return player.id

        try:
            return self._write(work)
        except IntegrityError:
            return self._write(work)  # created concurrently: read it

    def login(self, name: str, password: str, address: str = "local") -> int:
        """The player's id, or a refusal. Five failures from one address lock that
        address out of the name for a while, whether the name exists or not; fifty from
        all addresses together lock the account. So a stranger can shut out their own
        address, not the player's, unless they guess from many."""
        key = (name, address[:64])
        now = datetime.now(UTC).replace(tzinfo=None)
        with self._failures_lock:  # count the attempt as failed until it succeeds, so
            failures, until = self._failures.get(key, (0, None))  # guesses at once count
            locked = until is not None and until > now
            if not locked:
                failures += 1
                until = now + LOCKOUT if failures >= LOCKOUT_AFTER else None
                self._failures[key] = (0, until) if until else (failures, None)
        if locked:
            _spend_a_hash(password)
            raise IllegalAction(
                f"{LOCKOUT_AFTER} failed log-ins from here: try again in a quarter of an hour"
            )

        def work(session: Session) -> tuple[int | None, str]:
            player = session.scalar(select(Player).where(Player.name == name).with_for_update())
            if player is None or player.password_hash is None:
                _spend_a_hash(password)
                return None, "unknown name or wrong password"
            if player.locked_until is not None and player.locked_until.replace(tzinfo=None) > now:
                _spend_a_hash(password)
                return None, "the account is locked after many failed log-ins; try later"
            try:
                _hasher.verify(player.password_hash, password)
            except VerificationError:
                player.failed_logins += 1
                if player.failed_logins >= ACCOUNT_LOCKOUT_AFTER:
                    player.locked_until = now + LOCKOUT
                    player.failed_logins = 0
                return None, "unknown name or wrong password"
            player.failed_logins = 0
            return player.id, ""

        player_id, problem = self._write(work)
        if player_id is not None:
            with self._failures_lock:
                self._failures.pop(key, None)
        if player_id is None:
            raise IllegalAction(problem)
        return player_id

    def name(self, player_id: int) -> str:
        """The player's name, as other players at a shared table see it."""
        with Session(self.engine) as session:
            name = session.scalar(select(Player.name).where(Player.id == player_id))
        if name is None:
            raise IllegalAction(f"there is no player {player_id}")
        return name

    def balance(self, player_id: int) -> Cents:
        with Session(self.engine) as session:
            return self._balance(session, player_id)

    def top_up(self, player_id: int, idempotency_key: str | None = None) -> Cents:
        """Below $100 of play money, a top-up brings the balance back to $1,000."""

        def work(session: Session, txn: Transaction) -> BalanceView:
            self._lock(session, player_id)
            balance = self._balance(session, player_id)
            if balance >= TOP_UP_BELOW:
                raise IllegalAction(
                    f"a top-up is for balances below {format_money(TOP_UP_BELOW)}; "
                    f"the balance is {format_money(balance)}"
                )
            txn.player_id = player_id
            self._move(
                session,
                txn,
                [
                    (_player_account(player_id), STARTING_CREDIT - balance),
                    ("house", balance - STARTING_CREDIT),
                ],
            )
            return BalanceView(balance=STARTING_CREDIT)

        request = {"player": player_id}
        return self._idempotent(idempotency_key, "top-up", request, work, BalanceView).balance

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
        shared table's deck or shoe instead of a fresh one of the round's own.
        """
        kind = find_game(game)
        request = {
            "player": player_id,
            "game": game,
            "wagers": dict(wagers),
            "second": dict(second) if second is not None else None,
            "client_seed": client_seed,
            "variant": variant,
            "shared": [shared.deal_id, list(shared.places)] if shared else None,
        }

        def work(session: Session, txn: Transaction) -> RoundView:
            self._lock(session, player_id)
            unfinished = session.scalar(
                select(RoundRow.id).where(
                    RoundRow.player_id == player_id,
                    RoundRow.game == game,
                    RoundRow.status == "open",
                    _at_table(shared is not None),
                )
            )
            if unfinished is not None:
                raise IllegalAction(f"finish round {unfinished} at this table first (G7)")
            deal = self._shared_deal(session, shared, game) if shared else None
            rules = from_json(kind.rules_type, json.loads(deal.rules)) if deal else None
            game_round = kind.new_round(rules or kind.rules(variant))
            game_round.place_wagers(wagers)
            if second is not None:
                game_round.place_wagers(second, blind=True)  # C8
            balance = self._balance(session, player_id)
            if deal is not None and shared is not None:
                source = FairSource(deal.server_seed, deal.client_seed or "", 0)
                order = _fair_cards(game, json.loads(deal.rules), source).order
                try:
                    game_round.deal(Deck.stacked(order[place] for place in shared.places))
                except IndexError:
                    raise IllegalAction(f"deal {deal.id} has no such places") from None
                places = list(shared.places)
            elif game == "baccarat":  # the player's own shoe, coup after coup (B1)
                deal, shoe, first = self._own_shoe(
                    session, player_id, client_seed, to_json(game_round.rules)
                )
                places = list(range(first, min(first + COUP_CARDS, shoe.size)))
                game_round.deal(Deck.stacked(shoe.order[place] for place in places))
                source = FairSource(deal.server_seed, deal.client_seed or "", 0)
                left = shoe.size - first - len(game_round.drawn)
                if cut_card_reached(left, shoe.cut_card_from_end):
                    deal.revealed = True  # the shoe is done: its seed may be shown
            else:
                nonce = (
                    session.scalar(select(func.count()).where(RoundRow.player_id == player_id))
                    or 0
                )
                committed = self._next_seed(session, player_id, game)  # shown beforehand
                source = FairSource.new(client_seed, nonce, committed.server_seed)
                session.delete(committed)  # each seed deals once; the next is made when asked
                game_round.deal(_fair_cards(game, to_json(game_round.rules), source))
                places = None
            staked = sum(p.staked for p in game_round.positions)  # with a blind Play (C8)
            if staked > balance:
                raise IllegalAction(
                    f"the wagers come to {format_money(staked)}; "
                    f"the balance is {format_money(balance)}"
                )
            row = RoundRow(
                player_id=player_id,
                game=game,
                status="open",
                server_seed=source.server_seed,
                commitment=source.commitment,
                client_seed=source.client_seed,
                nonce=source.nonce,
                balance_before=balance,
                deal_id=deal.id if deal else None,
                deal_cards=json.dumps(places[: len(game_round.drawn)]) if places else None,
            )
            session.add(row)
            session.flush()
            txn.player_id, txn.round_id = player_id, row.id
            self._move(
                session,
                txn,
                [(_player_account(player_id), -staked), (_round_account(row.id), staked)],
            )
            return self._store(session, row, game_round)

        return self._idempotent(idempotency_key, "wager", request, work, RoundView)

    def act(
        self,
        player_id: int,
        round_id: int,
        action: str,
        amount: Cents | None = None,
        idempotency_key: str | None = None,
    ) -> RoundView:
        """A decision in an open round; its Play, Raise or fee is debited first.

        A shared table's round is decided at its table's showdown (:meth:`showdown`).
        """
        request = {"player": player_id, "round": round_id, "action": action, "amount": amount}

        def work(session: Session, txn: Transaction) -> RoundView:
            self._lock(session, player_id)
            row = self._owned(session, player_id, round_id, lock=True)
            if row.status != "open":
                raise IllegalAction(f"round {round_id} is {row.status}; start a new round")
            if _reveal_state(session, row)[1]:
                raise IllegalAction(f"round {round_id} is played at a shared table: decide there")
            game_round = self._resume(row)
            cost = self._cost(session, player_id, game_round, action, amount)
            txn.player_id, txn.round_id = player_id, row.id
            self._move(
                session, txn, [(_player_account(player_id), -cost), (_round_account(row.id), cost)]
            )
            game_round.act(action, amount)
            return self._store(session, row, game_round)

        return self._idempotent(idempotency_key, "decision", request, work, RoundView)

    def showdown(
        self, decisions: Sequence[tuple[int, int, str, Cents | None]]
    ) -> dict[int, str]:
        """A shared table's decisions, ``(player, round, action, amount)``, carried out
        in one transaction, so no round settles, and no dealer card shows, before the
        others (C8). A decision no longer legal or affordable folds; a round no longer
        open is left as it is. Notes for the players, by round.
        """

        def work(session: Session) -> dict[int, str]:
            notes = {}
            for player_id in sorted({player_id for player_id, *_ in decisions}):
                self._lock(session, player_id)  # in one order: no deadlock between tables
            for player_id, round_id, action, amount in decisions:
                row = self._owned(session, player_id, round_id, lock=True)
                if row.status != "open":
                    notes[round_id] = f"round {round_id} was {row.status} before the showdown"
                    continue
                game_round = self._resume(row)
                try:
                    cost = self._cost(session, player_id, game_round, action, amount)
                except IllegalAction as error:
                    notes[round_id] = f"{error}: the hand folds"
                    action, amount, cost = "fold", None, 0
                request = json.dumps(
                    {"player": player_id, "round": round_id, "action": action, "amount": amount}
                )
                txn = Transaction(
                    kind="decision", player_id=player_id, round_id=round_id, request=request
                )
                session.add(txn)
                session.flush()
                stake = [(_player_account(player_id), -cost), (_round_account(round_id), cost)]
                self._move(session, txn, stake)
                game_round.act(action, amount)
                self._store(session, row, game_round)
            return notes

        return self._write(work)

    def check_decision(
        self, player_id: int, round_id: int, action: str, amount: Cents | None = None
    ) -> Cents:
        """What the decision would cost, or :class:`IllegalAction` if it is not legal
        now or not affordable; changes nothing (a shared table checks, then waits)."""
        with Session(self.engine) as session:
            row = self._owned(session, player_id, round_id)
            if row.status != "open":
                raise IllegalAction(f"round {round_id} is {row.status}; start a new round")
            return self._cost(session, player_id, self._resume(row), action, amount)

    def _cost(
        self,
        session: Session,
        player_id: int,
        game_round: Round[Any],
        action: str,
        amount: Cents | None,
    ) -> Cents:
        """The decision's cost, once the rules allow it and the balance covers it (G6)."""
        choice = game_round.check_action(action, amount)
        cost = choice.minimum if amount is None else amount
        balance = self._balance(session, player_id)
        if cost > balance:
            raise IllegalAction(
                f"{choice.label} needs {format_money(cost)}; "
                f"the balance is {format_money(balance)}"
            )
        return cost

    def quick_replay(
        self,
        player_id: int,
        game: str,
        idempotency_key: str | None = None,
        client_seed: str | None = None,
    ) -> RoundView:
        """Deal again with the last round's wagers, checked as new wagers (R10)."""
        find_game(game)
        with Session(self.engine) as session:
            last = session.scalar(
                select(RoundRow)
                .where(
                    RoundRow.player_id == player_id, RoundRow.game == game, _at_table(False)
                )
                .order_by(RoundRow.id.desc())
                .limit(1)
            )
            if last is None:
                raise IllegalAction("there is no previous round to replay: place wagers and deal")
            placed = [e for e in records.load(last)["events"] if e["kind"] == "wagers"]
            balance = self._balance(session, player_id)
        wagers = placed[0]["wagers"]
        second = placed[1]["wagers"] if len(placed) > 1 else None  # a blind position (C8)
        kind = find_game(game)
        probe = kind.new_round()
        quick_replay(wagers, probe.spots, balance, probe.at_least_one)
        return self.start_round(
            player_id, game, wagers, client_seed, idempotency_key, second=second
        )

    def _store(self, session: Session, row: RoundRow, game_round: Round[Any]) -> RoundView:
        """Save the round's record; settle its money when it has settled or is void."""
        records.append(session, row, game_round)
        if game_round.settled:
            staked = sum(p.staked for p in game_round.positions)
            returned = staked + game_round.net() if game_round.phase is Phase.SETTLED else staked
            settle = Transaction(
                kind="settle" if game_round.phase is Phase.SETTLED else "void",
                player_id=row.player_id,
                round_id=row.id,
            )
            session.add(settle)
            session.flush()
            self._move(
                session,
                settle,
                [
                    (_round_account(row.id), -staked),
                    (_player_account(row.player_id), returned),
                    ("house", staked - returned),
                ],
            )
            row.status = "settled" if game_round.phase is Phase.SETTLED else "void"
            session.flush()
            row.balance_after = self._balance(session, row.player_id)
        balance = self._balance(session, row.player_id)
        return _view(row, game_round, balance, *_reveal_state(session, row))

    @staticmethod
    def _owned(session: Session, player_id: int, round_id: int, lock: bool = False) -> RoundRow:
        query = select(RoundRow).where(RoundRow.id == round_id)
        row = session.scalar(query.with_for_update() if lock else query)
        if row is None or row.player_id != player_id:
            raise IllegalAction(f"there is no round {round_id} of yours")  # never say whose it is
        return row

    @staticmethod
    def _resume(row: RoundRow) -> Round[Any]:
        """The round rebuilt from its record, dealing on from its provably fair deck."""
        record = records.load(row)
        source = FairSource(row.server_seed, row.client_seed, row.nonce)
        cards = _fair_cards(row.game, record["rules"], source)
        if row.deal_cards is not None:  # its places in a shared deal
            cards = Deck.stacked(cards.order[place] for place in json.loads(row.deal_cards))
        return replay(record, cards)

    # ------------------------------------------------ committed server seeds
    def next_commitment(self, player_id: int, game: str) -> str:
        """The commitment to the server seed of the player's next round at their own
        table of ``game``, the same until that round is dealt. Show it before they
        choose a client seed: the house is bound to its seed before it sees theirs.

        >>> service = TableService("sqlite://")
        >>> me = service.local_player()
        >>> shown = service.next_commitment(me, "baccarat")
        >>> service.start_round(me, "baccarat", {"banker": 500}, "mine").commitment == shown
        True
        """
        find_game(game)

        def work(session: Session) -> str:
            self._lock(session, player_id)
            shoe = self._running_shoe(session, player_id) if game == "baccarat" else None
            return (shoe or self._next_seed(session, player_id, game)).commitment

        return self._write(work)

    def _own_shoe(
        self,
        session: Session,
        player_id: int,
        client_seed: str | None,
        rules: Mapping[str, Any],
    ) -> tuple[Deal, Shoe, int]:
        """The player's own Baccarat shoe, dealing coup after coup until its cut card
        (B1): the one in play, or a new one on their committed seed, sealed with this
        client seed. With the place its next coup starts."""
        deal = self._running_shoe(session, player_id)
        if deal is not None and json.loads(deal.rules) != rules:
            raise IllegalAction("the shoe in play deals by its own rules until its cut card")
        if deal is None:
            deal = self._next_seed(session, player_id, "baccarat")
            deal.client_seed = client_seed or new_client_seed()
            deal.rules = json.dumps(rules)
        source = FairSource(deal.server_seed, deal.client_seed or "", 0)
        shoe = Shoe(rules["decks"], rules["cut_card_from_end"], source)
        dealt = session.scalars(select(RoundRow.deal_cards).where(RoundRow.deal_id == deal.id))
        last = max((json.loads(c)[-1] for c in dealt if c), default=len(shoe.burned) - 1)
        return deal, shoe, last + 1

    def end_shoe(self, player_id: int) -> bool:
        """End the player's own Baccarat shoe before its cut card: its seed shows, so
        its coups can be checked now, and the next coup starts a new shoe. Whether a
        shoe was in play."""

        def work(session: Session) -> bool:
            self._lock(session, player_id)
            shoe = self._running_shoe(session, player_id)
            if shoe is not None:
                shoe.revealed = True
            return shoe is not None

        return self._write(work)

    def shoe_in_play(self, player_id: int) -> bool:
        """Whether the player's own Baccarat shoe has coups dealt and more to come: its
        seed and client seed are then fixed, and the next coup deals on from it."""
        with Session(self.engine) as session:
            return self._running_shoe(session, player_id) is not None

    @staticmethod
    def _running_shoe(session: Session, player_id: int) -> Deal | None:
        return session.scalar(
            select(Deal).where(
                Deal.player_id == player_id,
                Deal.game == "baccarat",
                Deal.client_seed.is_not(None),
                Deal.revealed.is_(False),
            )
        )

    @staticmethod
    def _next_seed(session: Session, player_id: int, game: str) -> Deal:
        """The player's committed seed for their next round of ``game``, made if none."""
        deal = session.scalar(
            select(Deal).where(
                Deal.player_id == player_id, Deal.game == game, Deal.client_seed.is_(None)
            )
        )
        if deal is None:
            source = FairSource.new()
            deal = Deal(
                game=game,
                rules="{}",
                server_seed=source.server_seed,
                commitment=source.commitment,
                revealed=False,
                player_id=player_id,
            )
            session.add(deal)
            session.flush()
        return deal

    # -------------------------------------------------------- shared tables
    def new_deal(self, game: str, variant: str | None = None) -> NewDeal:
        """A shared table's next deck or shoe: a fresh server seed, committed to now,
        before any player's client seed is known."""
        kind = find_game(game)
        rules = json.dumps(to_json(kind.rules(variant)))
        source = FairSource.new("", 0)

        def work(session: Session) -> NewDeal:
            deal = Deal(
                game=game,
                rules=rules,
                server_seed=source.server_seed,
                commitment=source.commitment,
                revealed=False,
            )
            session.add(deal)
            session.flush()
            return NewDeal(id=deal.id, commitment=deal.commitment)

        return self._write(work)

    def seal_deal(self, deal_id: int, client_seed: str) -> DealLayout:
        """Fix the deal's client seed (the seated players' seeds, joined) before its
        first cards; the layout of the cards it gives. A sealed deal keeps its seed."""
        if len(client_seed) > 128:
            raise IllegalAction("a shared table's client seed is at most 128 characters")

        def work(session: Session) -> DealLayout:
            deal = self._open_deal(session, deal_id)
            if deal.client_seed is None:
                deal.client_seed = client_seed
            source = FairSource(deal.server_seed, deal.client_seed, 0)
            cards = _fair_cards(deal.game, json.loads(deal.rules), source)
            if isinstance(cards, Shoe):
                return DealLayout(cards.size, len(cards.burned), cards.cut_card_from_end)
            return DealLayout(len(cards.order), 0, None)

        return self._write(work)

    def reveal_deal(self, deal_id: int) -> None:
        """Nothing from this deal is in play any more: its seed may be shown (again)."""

        def work(session: Session) -> None:
            deal = session.get(Deal, deal_id, with_for_update=True)
            if deal is None:
                raise IllegalAction(f"there is no deal {deal_id}")
            deal.revealed = True

        self._write(work)

    @staticmethod
    def _open_deal(session: Session, deal_id: int) -> Deal:
        deal = session.get(Deal, deal_id, with_for_update=True)
        if deal is None or deal.revealed:
            raise IllegalAction(f"deal {deal_id} is not open")
        return deal

    def _shared_deal(self, session: Session, shared: SharedCards, game: str) -> Deal:
        deal = self._open_deal(session, shared.deal_id)
        if deal.game != game or deal.client_seed is None:
            raise IllegalAction(f"deal {deal.id} is not a sealed {game} deal")
        return deal

    def open_round(self, player_id: int, game: str) -> RoundView | None:
        """The player's unfinished round at their own table of the game, to resume it
        (G7), or None; a shared table's round is resumed at the shared table."""
        find_game(game)
        with Session(self.engine) as session:
            row = session.scalar(
                select(RoundRow).where(
                    RoundRow.player_id == player_id,
                    RoundRow.game == game,
                    RoundRow.status == "open",
                    _at_table(False),
                )
            )
            if row is None:
                return None
            return self._shown(session, row)

    def _shown(self, session: Session, row: RoundRow) -> RoundView:
        balance = self._balance(session, row.player_id)
        return _view(row, self._resume(row), balance, *_reveal_state(session, row))

    def round(self, player_id: int, round_id: int) -> RoundView:
        with Session(self.engine) as session:
            row = self._owned(session, player_id, round_id)
            return self._shown(session, row)

    def history(
        self, player_id: int, limit: int = 20, commitment: str | None = None
    ) -> list[ExportedRound]:
        """The player's last rounds, newest first, each with its seeds once finished;
        with ``commitment``, only the rounds dealt on that seed (a shoe's coups)."""
        if not 1 <= limit <= 1000:
            raise IllegalAction(f"history shows 1 to 1000 rounds, not {limit}")
        query = select(RoundRow).where(RoundRow.player_id == player_id)
        if commitment is not None:
            query = query.where(RoundRow.commitment == commitment)
        with Session(self.engine) as session:
            rows = session.scalars(query.order_by(RoundRow.id.desc()).limit(limit)).all()
            return [export_round(row, *_reveal_state(session, row)) for row in rows]

    # ------------------------------------------------------------ recovery
    def recover(self) -> list[int]:
        """After a crash: open rounds still waiting for the player's first decision are
        void and refunded (G7); rounds past it stay open and resume with the same cards."""

        def work(session: Session) -> list[int]:
            voided = []
            for row in session.scalars(select(RoundRow).where(RoundRow.status == "open")).all():
                try:
                    game_round = self._resume(row)
                except ValueError:
                    continue  # a damaged record: left for audit to report
                if any(isinstance(e, Decision) and e.by_player for e in game_round.events):
                    continue
                game_round.void("interrupted before the first decision")
                self._store(session, row, game_round)
                voided.append(row.id)
            in_play = select(RoundRow.deal_id).where(
                RoundRow.status == "open", RoundRow.deal_id.is_not(None)
            )
            for deal in session.scalars(
                select(Deal).where(
                    Deal.revealed.is_(False),
                    Deal.id.not_in(in_play),
                    Deal.player_id.is_(None),  # a player's next seed stays secret
                )
            ):
                deal.revealed = True  # its table is gone: no more cards come from it
            return voided

        return self._write(work)

    def audit(self) -> list[str]:
        """Re-settle every stored round and check the ledger; the problems found."""
        problems = []
        with Session(self.engine) as session:
            for row in session.scalars(select(RoundRow).order_by(RoundRow.id)).all():
                try:
                    game_round = self._resume(row)
                except ValueError as error:
                    problems.append(f"round {row.id}: {error}")
                    continue
                held = session.scalar(
                    select(func.coalesce(func.sum(LedgerEntry.amount), 0)).where(
                        LedgerEntry.account == _round_account(row.id)
                    )
                )
                staked = sum(p.staked for p in game_round.positions)
                expected = staked if row.status == "open" else 0
                if held != expected:
                    problems.append(f"round {row.id}: holds {held} cents, expected {expected}")
                paid = session.scalar(
                    select(func.coalesce(func.sum(LedgerEntry.amount), 0))
                    .join(Transaction, Transaction.id == LedgerEntry.transaction_id)
                    .where(
                        Transaction.round_id == row.id,
                        LedgerEntry.account == _player_account(row.player_id),
                    )
                )
                owed = {"open": -staked, "void": 0}.get(row.status, game_round.net())
                if paid != owed:
                    problems.append(
                        f"round {row.id}: the player's entries come to {paid} cents, "
                        f"the record says {owed}"
                    )
                if row.status != "open" and not game_round.settled:
                    problems.append(
                        f"round {row.id}: stored {row.status} but its record is not settled"
                    )
            unbalanced = session.execute(
                select(LedgerEntry.transaction_id, func.sum(LedgerEntry.amount))
                .group_by(LedgerEntry.transaction_id)
                .having(func.sum(LedgerEntry.amount) != 0)
            ).all()
            problems += [f"transaction {t}: entries sum to {s}, not 0" for t, s in unbalanced]
        return problems


def _fair_cards(game: str, rules: Mapping[str, Any], source: FairSource) -> Deck | Shoe:
    """The round's cards from its provably fair stream: a deck, or a fresh shoe that
    shows and burns its first card (B1) before the coup."""
    if game == "baccarat":
        return Shoe(rules["decks"], rules["cut_card_from_end"], source)
    return Deck(source)


def _at_table(shared: bool) -> ColumnElement[bool]:
    """Rounds at a shared table of the game, or at the player's own: two tables, each
    with at most one unfinished round (G7). A shared table's deals belong to no player."""
    shared_deal = exists().where(Deal.id == RoundRow.deal_id, Deal.player_id.is_(None))
    return shared_deal if shared else ~shared_deal


def _reveal_state(session: Session, row: RoundRow) -> tuple[bool, bool]:
    """Whether the round's server seed may be shown (once it is over and, if it came
    from a deck or shoe that deals on, once nothing of that is in play), and whether
    it was played at a shared table."""
    deal = session.get(Deal, row.deal_id) if row.deal_id is not None else None
    shared = deal is not None and deal.player_id is None
    revealed = row.status != "open" and (deal is None or deal.revealed)
    return revealed, shared


def _view(
    row: RoundRow, game_round: Round[Any], balance: Cents, revealed: bool, shared: bool
) -> RoundView:
    """What the player may see: their own cards while the round is open (never the blind
    second position's, C8), everything after; the seed once ``revealed``."""
    finished = row.status != "open"
    visible = (
        game_round.cards
        if finished
        else {
            hand: cards for hand, cards in game_round.cards.items() if hand in ("player", "rabbit")
        }
    )
    positions = game_round.positions
    return RoundView(
        id=row.id,
        game=row.game,
        status=row.status,
        shared=shared,
        commitment=row.commitment,
        client_seed=row.client_seed,
        nonce=row.nonce,
        server_seed=row.server_seed if revealed else None,
        cards={hand: [str(c) for c in cards] for hand, cards in visible.items()},
        face_down=sum(len(c) for hand, c in game_round.cards.items() if hand not in visible),
        totals=_totals(game_round) if finished else None,
        winner=_winner(game_round) if finished else None,
        choices=[
            ChoiceView(action=c.action, label=c.label, minimum=c.minimum, maximum=c.maximum)
            for c in game_round.legal_actions()
        ],
        wagers=dict(positions[0].wagers),
        second=dict(positions[1].wagers) if len(positions) > 1 else None,
        result=positions[0].result if finished else None,
        second_result=positions[1].result if finished and len(positions) > 1 else None,
        net=game_round.net() if finished else None,
        description=game_round.describe() if finished else None,
        balance=balance,
    )


def _winner(game_round: Round[Any]) -> str | None:
    """A Baccarat coup's winning side (for the bead plate and big road), else None."""
    totals = _totals(game_round)
    return baccarat_winner(*totals) if totals else None


def _totals(game_round: Round[Any]) -> list[int] | None:
    """Baccarat's Player and Banker totals (for the bead plate and big road)."""
    if game_round.game != "baccarat" or not game_round.cards:
        return None
    return list(game_round.totals())  # type: ignore[attr-defined]


def export_round(row: RoundRow, revealed: bool, shared: bool) -> ExportedRound:
    """A round as the player may keep it: the record once the round is over, the seed
    once ``revealed`` (see :func:`_reveal_state`).

    ``places`` are the places in the seeds' deck or shoe that the round's cards came
    from: the top of a fresh deck, a coup's run of its shoe after the burn (B1), or at
    a shared Crazy 4 table the places its deal gave this round.
    """
    finished = row.status != "open"
    record = records.load(row)
    played = replay(record) if finished else None
    totals = _totals(played) if played and row.game == "baccarat" else None
    places = None
    if revealed:
        places = _places(row.game, record, row.server_seed, row.client_seed, row.nonce)
        if row.deal_cards is not None:
            places = json.loads(row.deal_cards)
    return ExportedRound(
        totals=totals,
        winner=_winner(played) if played else None,
        id=row.id,
        game=row.game,
        status=row.status,
        shared=shared,
        commitment=row.commitment,
        server_seed=row.server_seed if revealed else None,
        client_seed=row.client_seed,
        nonce=row.nonce,
        places=places,
        balance_before=row.balance_before,
        balance_after=row.balance_after,
        net=played.net() if played else None,  # other rounds may fall between the balances
        played_at=row.created_at.isoformat(),
        record=RoundRecord.model_validate(record) if finished else None,
    )


def _places(
    game: str, record: Mapping[str, Any], server_seed: str, client_seed: str, nonce: int
) -> list[int]:
    """Where a round of its own drew its cards: the top of its deck, or after the burn."""
    cards = _fair_cards(game, record["rules"], FairSource(server_seed, client_seed, nonce))
    first = len(cards.burned) if isinstance(cards, Shoe) else 0
    return list(range(first, first + len(record["cards_drawn"])))


def verify_round(exported: Mapping[str, Any] | ExportedRound) -> list[str]:
    """Check an exported round (its JSON, or the model): its seed matches the
    commitment, its cards come from (server seed, client seed, nonce), and it
    re-settles to its record. The problems."""
    if isinstance(exported, ExportedRound):
        exported = exported.model_dump(mode="json")
    problems = []
    missing = {"game", "commitment", "client_seed", "nonce", "server_seed", "record"} - set(
        exported
    )
    if missing:
        return [f"not a round as history exports it: no {', '.join(sorted(missing))}"]
    seed = exported.get("server_seed")
    if not seed:
        return ["the round's server seed is not revealed yet (a shared shoe's, at its end)"]
    record = exported["record"]
    if commit_to(seed) != exported["commitment"]:
        problems.append("the server seed does not match the commitment made before the deal")
    game, client_seed, nonce = exported["game"], exported["client_seed"], exported["nonce"]
    order = _fair_cards(game, record["rules"], FairSource(seed, client_seed, nonce)).order
    places = _places(game, record, seed, client_seed, nonce)
    if exported.get("shared") or game == "baccarat":  # as the table deals, or coups go
        after_burn = places[0] if places else 0
        places = list(exported.get("places") or [])
        problem = _shared_layout_problem(game, places, len(order), after_burn)
        if problem:
            return [*problems, problem]
    if [order[p] for p in places] != record["cards_drawn"]:
        problems.append("the cards dealt are not the ones the seeds give")
    try:
        replay(record)
    except ValueError as error:
        problems.append(str(error))
    return problems


def verify_shoe(coups: Sequence[Mapping[str, Any] | ExportedRound]) -> list[str]:
    """Check a whole Baccarat shoe of a player's own table, its coups as history
    exports them: each verifies, and in order of play they run end to end from the
    first place after the burn, so the house could not choose where any coup began
    (B1). A shoe ends at its cut card, or earlier when its player ends it. The problems."""
    shoe_coups = [c.model_dump(mode="json") if isinstance(c, ExportedRound) else c for c in coups]
    if not shoe_coups or any(
        c.get("game") != "baccarat" or c.get("shared") for c in shoe_coups
    ):
        return ["a shoe is the coups of one's own Baccarat table"]
    if len({c.get("commitment") for c in shoe_coups}) != 1:
        return ["the coups are not of one shoe: their commitments differ"]
    ordered = sorted(shoe_coups, key=lambda c: c.get("id", 0))
    problems = [f"coup {c.get('id')}: {p}" for c in ordered for p in verify_round(c)]
    if problems:
        return problems
    first = ordered[0]
    rules = first["record"]["rules"]
    seeds = (first["server_seed"], first["client_seed"], first["nonce"])
    shoe = _fair_cards("baccarat", rules, FairSource(*seeds))
    expected = len(shoe.burned)  # type: ignore[union-attr]
    for coup in ordered:
        if coup["places"][0] != expected:
            return [f"coup {coup['id']} starts at place {coup['places'][0]}, not {expected}"]
        expected = coup["places"][-1] + 1
    return []


def _shared_layout_problem(
    game: str, places: Sequence[int], size: int, after_burn: int
) -> str | None:
    """What is wrong with a shared round's places, if anything (docs/fairness.md): a
    coup's run on after the shoe's burn; a Crazy 4 seat's hands are whole blocks of
    five in a row, then the dealer's block, which comes after every seat's."""
    if not places or len(set(places)) != len(places) or not all(0 <= p < size for p in places):
        return "the places are missing, repeated or outside the deal"
    run = list(range(places[0], places[0] + len(places)))
    if game == "baccarat":
        if places[0] < after_burn or list(places) != run:
            return "a coup's places must run on, unbroken, after the shoe's burn"
        return None
    hand = HAND_CARDS
    *own, dealer = [list(places[i : i + hand]) for i in range(0, len(places), hand)]
    mine = [p for block in own for p in block]
    if (
        len(places) % hand
        or not own
        or places[0] % hand
        or mine != run[: len(mine)]
        or dealer[0] % hand
        or dealer != list(range(dealer[0], dealer[0] + hand))
        or dealer[0] <= mine[-1]
    ):
        return "a seat's places must be whole blocks of five in a row, then the dealer's after"
    return None
