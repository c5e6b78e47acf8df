"""Rounds: start (check and debit the wagers, deal), decide, the shared showdown,
quick replay, resuming and history.

A player has two tables of each game: their own, and a shared table's seat. Each
holds at most one unfinished round (G7).
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import ColumnElement, bindparam, exists, func, insert, select
from sqlalchemy.orm import Session, object_session

from riverboat.deck import Deck
from riverboat.errors import Conflict, IllegalAction, NotFound
from riverboat.games import Phase, Round, find_game, replay
from riverboat.games.chips import quick_replay
from riverboat.money import Cents, format_money
from riverboat.rng import FairSource
from riverboat.store.models import Deal, RoundEvent, RoundRow, Transaction
from riverboat.table import records
from riverboat.table.exports import export_round, reveal_state, round_view
from riverboat.table.felt_rounds import totals, winner
from riverboat.table.ledger import (
    Ledger,
    affordable,
    first,
    inserted,
    player_account,
    round_account,
    scalar,
)
from riverboat.table.live.across.live_state import Fence, check_fence
from riverboat.table.sources import Dealt, card_source, running_shoe
from riverboat.table.states import RoundStatus
from riverboat.table.verify import fair_cards, own_places
from riverboat.table.views import ExportedRound, RoundRecord, RoundView

__all__ = [
    "CUT_OFF",
    "CUT_OFF_REASON",
    "HISTORY_LIMIT",
    "SETTLING",
    "KeptRounds",
    "Rounds",
    "at_table",
    "outcome",
    "resume",
    "round_values",
    "settlement",
    "wager_request",
]

#: the most rounds one page of history shows
HISTORY_LIMIT = 1000
#: a shared table's showdown "decision" for a seat whose connection the servers lost
#: (its process died) and that never came back before its decision: void (G7)
CUT_OFF = "(cut off)"
CUT_OFF_REASON = "the servers lost your connection before your decision"
#: the open rounds a process keeps rebuilt (:class:`KeptRounds`): about 5 KB each
KEPT_ROUNDS = 4096
_NEW_ROUND = insert(RoundRow)
_STORED_EVENTS = select(func.count()).where(RoundEvent.round_id == bindparam("round"))


def at_table(shared: bool) -> ColumnElement[bool]:
    """Rounds at a shared table of the game, or at the player's own: two tables, each
    with at most one unfinished round (G7). A shared table's deals belong to no player."""
    shared_deal = exists().where(Deal.id == RoundRow.deal_id, Deal.player_id.is_(None))
    return shared_deal if shared else ~shared_deal


#: the id of the player's unfinished round of a game at their own table
_UNFINISHED = select(RoundRow.id).where(
    RoundRow.player_id == bindparam("player"),
    RoundRow.game == bindparam("game"),
    RoundRow.status == RoundStatus.OPEN,
    at_table(False),
)


def resume(row: RoundRow, session: Session | None = None) -> Round[Any]:
    """The round rebuilt from its record, dealing on from its provably fair deck; its
    events read in ``session``, else in the row's own."""
    record = records.load(row, session)
    seeds = FairSource(row.server_seed, row.client_seed, row.nonce)
    cards = fair_cards(row.game, record["rules"], seeds)
    if row.deal_cards is not None:  # its places in a shoe or a shared deal
        cards = Deck.stacked(cards.order[place] for place in json.loads(row.deal_cards))
    return replay(record, cards)


_ROUNDS = RoundRow.__table__
_ROUND_KEYS = tuple(_ROUNDS.columns.keys())
_OWNED = select(*_ROUNDS.columns).where(_ROUNDS.c.id == bindparam("round"))
_OWNED_LOCKED = _OWNED.with_for_update()


def owned(session: Session, player_id: int, round_id: int, lock: bool = False) -> RoundRow:
    """The player's round, or :class:`NotFound` (whether it is nobody's or another's).

    Read as one Core statement (:func:`~riverboat.table.ledger.first`), not through the
    ORM: the row is a :class:`RoundRow` outside the session, as :func:`_new_row` makes
    one, so its record is read with the session given (``resume(row, session)``)."""
    found = first(session, _OWNED_LOCKED if lock else _OWNED, {"round": round_id})
    row = None if found is None else RoundRow(**dict(zip(_ROUND_KEYS, found, strict=True)))
    if row is None or row.player_id != player_id:
        raise NotFound(f"there is no round {round_id} of yours")  # never say whose it is
    return row


def round_values(
    player_id: int,
    game: str,
    balance: Cents,
    seeds: FairSource,
    deal_id: int | None,
    places: Sequence[int] | None,
    record: dict[str, Any],
) -> dict[str, Any]:
    """A new round's row, open, as its columns: its seeds, the balance before it, the
    deal and places its cards came from and the columns of its ``record``."""
    now = datetime.now(UTC)
    return {
        "player_id": player_id,
        "game": game,
        "status": RoundStatus.OPEN,
        "server_seed": seeds.server_seed,
        "commitment": seeds.commitment,
        "client_seed": seeds.client_seed,
        "nonce": seeds.nonce,
        "balance_before": balance,
        "balance_after": None,
        "created_at": now,
        "updated_at": now,
        "deal_id": deal_id,
        "deal_cards": json.dumps(list(places)) if places else None,
        "record_format": record["format"],
        "rules": json.dumps(record["rules"]),
        "cards_drawn": json.dumps(record["cards_drawn"]),
        "result": None,
    }


#: the kind of the transaction that finishes a round, by the status it leaves
SETTLING = {RoundStatus.SETTLED: "settle", RoundStatus.VOID: "void"}


def settlement(game_round: Round[Any]) -> tuple[Cents, Cents, RoundStatus]:
    """A finished round's money: what it staked (a blind Play with it, C8), what goes
    back to the player (the stakes of a void round) and its status."""
    staked = sum(p.staked for p in game_round.positions)
    if game_round.phase is Phase.SETTLED:
        return staked, staked + game_round.net(), RoundStatus.SETTLED
    return staked, staked, RoundStatus.VOID


def wager_request(
    player_id: int,
    game: str,
    wagers: Mapping[str, Cents],
    second: Mapping[str, Cents] | None,
    client_seed: str | None = None,
    variant: str | None = None,
    shared: tuple[int, Sequence[int]] | None = None,
) -> dict[str, Any]:
    """What a wager asked for, as its transaction keeps it (its idempotency key's
    request): ``shared``, a shared table's deal and places."""
    return {
        "player": player_id,
        "game": game,
        "wagers": dict(wagers),
        "second": dict(second) if second is not None else None,
        "client_seed": client_seed,
        "variant": variant,
        "shared": [shared[0], list(shared[1])] if shared else None,
    }


def _new_row(
    session: Session,
    player_id: int,
    game: str,
    balance: Cents,
    dealt: Dealt,
    record: dict[str, Any],
) -> RoundRow:
    """A new round's row, inserted now (one Core statement, no flush); the row as a
    :class:`RoundRow` outside the session, its ``id`` set."""
    deal_id = dealt.deal.id if dealt.deal else None
    values = round_values(player_id, game, balance, dealt.seeds, deal_id, dealt.places, record)
    row = RoundRow(**values)
    row.id = inserted(session, _NEW_ROUND, values)
    return row


class KeptRounds:
    """Open rounds as this process last stored them, rebuilt, by round id: a decision
    takes its round from here instead of replaying its record and shuffling its deck
    again. A round is kept only once its transaction committed, and taken out to be
    used (so two threads never share one); the decision's transaction still checks
    that the database stores as many events, and the same cards drawn, as it was kept
    with (another process may have played it on), and rebuilds it if not.

    >>> kept = KeptRounds(size=1)
    >>> kept.keep(1, "[]", "round one"); kept.keep(2, "[]", "round two")
    >>> kept.take(1), kept.take(2), kept.take(2)
    (None, ('[]', 'round two'), None)
    """

    def __init__(self, size: int = KEPT_ROUNDS) -> None:
        self.size = size
        self._rounds: OrderedDict[int, tuple[str | None, Round[Any]]] = OrderedDict()
        self._lock = threading.Lock()

    def keep(self, round_id: int, cards_drawn: str | None, game_round: Round[Any]) -> None:
        """Keep the round as stored (its ``cards_drawn`` column), the oldest dropped."""
        with self._lock:
            self._rounds[round_id] = (cards_drawn, game_round)
            self._rounds.move_to_end(round_id)
            while len(self._rounds) > self.size:
                self._rounds.popitem(last=False)

    def take(self, round_id: int) -> tuple[str | None, Round[Any]] | None:
        """The round kept (its cards drawn, the round), no longer kept; or None."""
        with self._lock:
            return self._rounds.pop(round_id, None)


class Rounds:
    """The rounds of one ledger's database."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger
        self.kept = KeptRounds()

    def start_round(
        self,
        player_id: int,
        game: str,
        wagers: Mapping[str, Cents],
        client_seed: str | None = None,
        idempotency_key: str | None = None,
        variant: str | None = None,
        second: Mapping[str, Cents] | None = None,
    ) -> RoundView:
        """Check and debit the wagers, commit to a fresh server seed and deal (G2, G6),
        at the player's own table (a shared table's: :mod:`~riverboat.table.shared_rounds`).

        ``second`` opens a second, blind position (Crazy 4, C8).
        """
        kind = find_game(game)
        source = card_source(game, variant, client_seed)
        request = wager_request(player_id, game, wagers, second, client_seed, variant)

        made: list[tuple[RoundRow, Round[Any]]] = []

        def work(session: Session, txn: Transaction) -> RoundView:
            made.clear()
            held = self.ledger.lock(session, player_id)
            unfinished = scalar(session, _UNFINISHED, {"player": player_id, "game": game})
            if unfinished is not None:
                raise Conflict(f"finish round {unfinished} at this table first (G7)")
            game_round = kind.new_round(source.rules(session, kind, variant))
            game_round.place_wagers(wagers)
            if second is not None:
                game_round.place_wagers(second, blind=True)  # C8
            balance = held.balance
            dealt = source.deal(session, player_id, game_round, held.rounds_dealt)
            if dealt.deal is not None and dealt.last:
                dealt.deal.revealed = True  # nothing more comes from it: its seed may show
            staked = sum(p.staked for p in game_round.positions)  # with a blind Play (C8)
            affordable(staked, balance)
            record = game_round.record()  # built once: its row's columns, its events
            row = _new_row(session, player_id, game, balance, dealt, record)
            self.ledger.count_round(session, player_id)
            txn.player_id, txn.round_id = player_id, row.id
            self._stake(session, txn, player_id, row.id, staked)
            made.append((row, game_round))
            left = balance - staked
            return self.store(session, row, game_round, have=0, balance=left, record=record)

        view = self.ledger.idempotent(player_id, idempotency_key, "wager", request, work, RoundView)
        self._keep(view, made)
        return view

    def _stake(
        self, session: Session, txn: Transaction, player_id: int, round_id: int, cost: Cents
    ) -> None:
        """Move ``cost`` from the player's account into the round's."""
        entries = [(player_account(player_id), -cost), (round_account(round_id), cost)]
        self.ledger.move(session, txn, entries)

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
        The round is the one this process kept (:class:`KeptRounds`), else rebuilt (its
        deck and replay, the slow part) before the write transaction; inside it, only if
        nothing was added to the round meanwhile is that used, else it is rebuilt again.
        """
        request = {"player": player_id, "round": round_id, "action": action, "amount": amount}
        kept = self.kept.take(round_id)  # its cards drawn as stored, or None: not kept
        cards, ahead = (
            kept if kept is not None else (None, self._resumed_ahead(player_id, round_id))
        )
        made: list[tuple[RoundRow, Round[Any]]] = []

        def work(session: Session, txn: Transaction) -> RoundView:
            made.clear()
            balance = self.ledger.lock(session, player_id).balance
            row = owned(session, player_id, round_id, lock=True)
            if row.status != RoundStatus.OPEN:
                raise IllegalAction(f"round {round_id} is {row.status}; start a new round")
            if reveal_state(session, row)[1]:
                raise IllegalAction(f"round {round_id} is played at a shared table: decide there")
            stored: int | None = scalar(session, _STORED_EVENTS, {"round": row.id})
            game_round = ahead
            if (
                game_round is None
                or len(game_round.events) != stored
                or cards not in (None, row.cards_drawn)
            ):
                # played on meanwhile: rebuilt, checked
                game_round, stored = resume(row, session), None
            cost = _cost(game_round, action, amount, balance)
            txn.player_id, txn.round_id = player_id, row.id
            self._stake(session, txn, player_id, row.id, cost)
            game_round.act(action, amount)
            made.append((row, game_round))
            return self.store(session, row, game_round, have=stored, balance=balance - cost)

        view = self.ledger.idempotent(
            player_id, idempotency_key, "decision", request, work, RoundView
        )
        self._keep(view, made)
        return view

    def _keep(self, view: RoundView, made: list[tuple[RoundRow, Round[Any]]]) -> None:
        """Keep the round a committed transaction left open (:class:`KeptRounds`): the
        one its last attempt made, if that is the answer given (not a stored one). A
        shared table's round is not kept: it is decided at its table's showdown."""
        if (
            made
            and view.status == RoundStatus.OPEN
            and not view.shared
            and made[0][0].id == view.id
        ):
            row, game_round = made[0]
            self.kept.keep(row.id, row.cards_drawn, game_round)

    def _resumed_ahead(self, player_id: int, round_id: int) -> Round[Any] | None:
        """The player's open round rebuilt outside any write transaction, or None if it
        is not one or does not rebuild (the write transaction then says why)."""
        with Session(self.ledger.engine) as session:
            row = session.scalar(
                select(RoundRow).where(
                    RoundRow.id == round_id,
                    RoundRow.player_id == player_id,
                    RoundRow.status == RoundStatus.OPEN,
                )
            )
            if row is None:
                return None
            try:
                return resume(row)
            except ValueError:
                return None

    def showdown(
        self,
        decisions: Sequence[tuple[int, int, str, Cents | None]],
        fence: Fence | None = None,
    ) -> dict[int, str]:
        """A shared table's decisions, ``(player, round, action, amount)``, carried out
        in one transaction, so no round settles, and no dealer card shows, before the
        others (C8). A decision no longer legal or affordable folds; the action
        :data:`CUT_OFF` voids the round and returns its wagers (G7: the servers lost the
        seat's connection before its decision); a round no longer open is left as it
        is. Notes for the players, by round. With ``fence``, only while that lease
        still runs the table.
        """

        def work(session: Session) -> dict[int, str]:
            check_fence(session, fence)
            notes = {}
            for player_id in sorted({player_id for player_id, *_ in decisions}):
                self.ledger.lock(session, player_id)  # in one order: no deadlock between tables
            for player_id, round_id, action, amount in decisions:
                row = owned(session, player_id, round_id, lock=True)
                if row.status != RoundStatus.OPEN:
                    notes[round_id] = f"round {round_id} was {row.status} before the showdown"
                    continue
                game_round = resume(row, session)
                if action == CUT_OFF:  # G7: a failure of ours before the first decision
                    game_round.void(CUT_OFF_REASON)
                    self.store(session, row, game_round)
                    notes[round_id] = f"{CUT_OFF_REASON}: the round is void and its wagers returned"
                    continue
                try:
                    balance = self.ledger.balance(session, player_id)
                    cost = _cost(game_round, action, amount, balance)
                except IllegalAction as error:
                    notes[round_id] = f"{error}: the hand folds"
                    action, amount, cost = "fold", None, 0
                request = json.dumps(
                    {"player": player_id, "round": round_id, "action": action, "amount": amount}
                )
                txn = self.ledger.transaction(
                    session, "decision", player_id, round_id, request=request
                )
                self._stake(session, txn, player_id, round_id, cost)
                game_round.act(action, amount)
                self.store(session, row, game_round)
            return notes

        return self.ledger.write(work)

    def void_shared(
        self, seats: Sequence[tuple[int, int]], reason: str, fence: Fence | None = None
    ) -> dict[int, Cents]:
        """A shared table's rounds, ``(player, round)``, that its showdown could not carry
        out: each still open is void and its wagers returned (G7: no decision of it was
        carried out), in one transaction. What each voided round returned, by round; a
        round no longer open (its showdown did reach the database) is left as it is.
        """

        def work(session: Session) -> dict[int, Cents]:
            check_fence(session, fence)
            returned = {}
            for player_id in sorted({player_id for player_id, _ in seats}):
                self.ledger.lock(session, player_id)
            for player_id, round_id in seats:
                row = owned(session, player_id, round_id, lock=True)
                if row.status != RoundStatus.OPEN:
                    continue
                game_round = resume(row, session)
                game_round.void(reason)
                self.store(session, row, game_round)
                returned[round_id] = sum(p.staked for p in game_round.positions)
            return returned

        return self.ledger.write(work)

    def check_decision(
        self, player_id: int, round_id: int, action: str, amount: Cents | None = None
    ) -> Cents:
        """What the decision would cost, or :class:`IllegalAction` if it is not legal
        now or not affordable; changes nothing (a shared table checks, then waits)."""
        with Session(self.ledger.engine) as session:
            row = owned(session, player_id, round_id)
            if row.status != RoundStatus.OPEN:
                raise IllegalAction(f"round {round_id} is {row.status}; start a new round")
            balance = self.ledger.balance(session, player_id)
            return _cost(resume(row, session), action, amount, balance)

    def quick_replay(
        self,
        player_id: int,
        game: str,
        idempotency_key: str | None = None,
        client_seed: str | None = None,
    ) -> RoundView:
        """Deal again with the last round's wagers, checked as new wagers (R10)."""
        kind = find_game(game)
        with Session(self.ledger.engine) as session:
            last = session.scalar(
                select(RoundRow)
                .where(RoundRow.player_id == player_id, RoundRow.game == game, at_table(False))
                .order_by(RoundRow.id.desc())
                .limit(1)
            )
            if last is None:
                raise IllegalAction("there is no previous round to replay: place wagers and deal")
            placed = [e for e in records.load(last)["events"] if e["kind"] == "wagers"]
            balance = self.ledger.balance(session, player_id)
        wagers = placed[0]["wagers"]
        second = placed[1]["wagers"] if len(placed) > 1 else None  # a blind position (C8)
        probe = kind.new_round()
        quick_replay(wagers, probe.spots, balance, probe.at_least_one)
        return self.start_round(
            player_id, game, wagers, client_seed, idempotency_key, second=second
        )

    def store(
        self,
        session: Session,
        row: RoundRow,
        game_round: Round[Any],
        have: int | None = None,
        balance: Cents | None = None,
        record: dict[str, Any] | None = None,
    ) -> RoundView:
        """Save the round's record (``have``, ``record``: see :func:`records.append`);
        settle its money when it has settled or is void. ``balance``: the player's now,
        if the caller knows it (else it is read)."""
        records.append(session, row, game_round, have, record)
        if game_round.settled:
            staked, returned, status = settlement(game_round)
            settle = self.ledger.transaction(session, SETTLING[status], row.player_id, row.id)
            self.ledger.move(
                session,
                settle,
                [
                    (round_account(row.id), -staked),
                    (player_account(row.player_id), returned),
                    ("house", staked - returned),
                ],
            )
            found = outcome(game_round, row.deal_cards, row.server_seed, row.client_seed, row.nonce)
            if balance is None:
                balance = self.ledger.balance(session, row.player_id)
            else:
                balance += returned
            records.update_row(
                session, row, status=status, result=json.dumps(found), balance_after=balance
            )
            return self.shown(session, row, game_round, balance)
        return self.shown(session, row, game_round, balance)

    def shown(
        self,
        session: Session,
        row: RoundRow,
        game_round: Round[Any] | None = None,
        balance: Cents | None = None,
    ) -> RoundView:
        """The round as its player sees it now (``balance``: theirs, if already read)."""
        if balance is None:
            balance = self.ledger.balance(session, row.player_id)
        played = resume(row, session) if game_round is None else game_round
        return round_view(row, played, balance, *reveal_state(session, row))

    def open_round(self, player_id: int, game: str) -> RoundView | None:
        """The player's unfinished round at their own table of the game, to resume it
        (G7), or None; a shared table's round is resumed at the shared table."""
        find_game(game)
        with Session(self.ledger.engine) as session:
            row = session.scalar(
                select(RoundRow).where(
                    RoundRow.player_id == player_id,
                    RoundRow.game == game,
                    RoundRow.status == RoundStatus.OPEN,
                    at_table(False),
                )
            )
            return None if row is None else self.shown(session, row)

    def round(self, player_id: int, round_id: int) -> RoundView:
        with Session(self.ledger.engine) as session:
            return self.shown(session, owned(session, player_id, round_id))

    def shoe_winners(self, player_id: int, game: str) -> list[str]:
        """The winners, in order, of the finished coups of the player's own shoe of
        ``game`` in play; none once that shoe has ended (cut card or ended early), until
        the next coup starts a new one."""
        find_game(game)
        with Session(self.ledger.engine) as session:
            shoe = running_shoe(session, player_id, game)
            if shoe is None:
                return []
            rows = session.scalars(
                select(RoundRow)
                .where(
                    RoundRow.player_id == player_id,
                    RoundRow.deal_id == shoe.id,
                    RoundRow.status == RoundStatus.SETTLED,
                )
                .order_by(RoundRow.id)
            ).all()
            found = (winner(replay(records.load(row))) for row in rows)
            return [side for side in found if side is not None]

    def history(
        self,
        player_id: int,
        limit: int = 20,
        commitment: str | None = None,
        before: int | None = None,
    ) -> list[ExportedRound]:
        """The player's last rounds, newest first, each with its seeds once finished;
        with ``commitment``, only the rounds dealt on that seed (a shoe's coups); with
        ``before``, the page of those older than that round (keyset pages).

        A page costs three queries whatever the history holds: its rounds, their events
        and their deals. A finished round's outcome is read from its stored ``result``,
        not replayed.
        """
        if not 1 <= limit <= HISTORY_LIMIT:  # a bad value for the query, at either end
            raise IllegalAction(f"history shows 1 to {HISTORY_LIMIT} rounds, not {limit}")
        if before is not None and before < 1:
            raise IllegalAction(f"before is a round id (1 or more), not {before}")
        query = select(RoundRow).where(RoundRow.player_id == player_id)
        if commitment is not None:
            query = query.where(RoundRow.commitment == commitment)
        if before is not None:
            query = query.where(RoundRow.id < before)
        with Session(self.ledger.engine) as session:
            rows = session.scalars(query.order_by(RoundRow.id.desc()).limit(limit)).all()
            events = records.stored_events(session, [row.id for row in rows])
            deal_ids = {row.deal_id for row in rows if row.deal_id is not None}
            deals = {
                deal.id: deal
                for deal in (
                    session.scalars(select(Deal).where(Deal.id.in_(deal_ids))) if deal_ids else []
                )
            }
            return [_exported(row, events[row.id], deals.get(row.deal_id or 0)) for row in rows]


def _cost(game_round: Round[Any], action: str, amount: Cents | None, balance: Cents) -> Cents:
    """The decision's cost, once the rules allow it and ``balance`` covers it (G6)."""
    choice = game_round.check_action(action, amount)
    cost = choice.minimum if amount is None else amount
    if cost > balance:
        raise IllegalAction(
            f"{choice.label} needs {format_money(cost)}; the balance is {format_money(balance)}"
        )
    return cost


def outcome(
    game_round: Round[Any],
    deal_cards: str | None,
    server_seed: str,
    client_seed: str,
    nonce: int,
) -> dict[str, Any]:
    """What history shows of a finished round besides its record (stored as the
    round's ``result``): its net, its hands' totals and the side they favour (a coup's,
    B7), and the places its cards came from: ``deal_cards`` (a JSON list) at a shared
    table or in a shoe, else the top of a fresh deck, or its run after a shoe's burn."""
    if deal_cards is not None:
        places = json.loads(deal_cards)
    elif game_round.spec.shoe is None:  # a fresh deck: its top cards, no burn
        places = list(range(len(game_round.drawn)))
    else:
        record = game_round.record()
        places = own_places(record["game"], record, server_seed, client_seed, nonce)
    return {
        "net": game_round.net(),
        "totals": totals(game_round),
        "winner": winner(game_round),
        "places": places,
    }


def _exported(row: RoundRow, events: Sequence[RoundEvent], deal: Deal | None) -> ExportedRound:
    """A round of a history page as :func:`~riverboat.table.exports.export_round` gives
    it, from its stored outcome, events and deal (a round finished without a stored
    outcome is replayed)."""
    if row.status != RoundStatus.OPEN and row.result is None:
        session = object_session(row)
        assert session is not None  # read in the page's session
        return export_round(row, *reveal_state(session, row))
    shared = deal is not None and deal.player_id is None
    revealed = row.status != RoundStatus.OPEN and (deal is None or deal.revealed)
    found = json.loads(row.result) if row.result is not None else {}
    record = records.build(row, events) if row.status != RoundStatus.OPEN else None
    return ExportedRound(
        totals=found.get("totals"),
        winner=found.get("winner"),
        id=row.id,
        game=row.game,
        status=RoundStatus(row.status),
        shared=shared,
        commitment=row.commitment,
        server_seed=row.server_seed if revealed else None,
        client_seed=row.client_seed,
        seeds=deal.seeds if deal is not None else None,
        nonce=row.nonce,
        places=found.get("places") if revealed else None,
        balance_before=row.balance_before,
        balance_after=row.balance_after,
        net=found.get("net"),
        played_at=row.created_at.isoformat(),
        record=RoundRecord.model_validate(record) if record is not None else None,
    )
