"""Rounds: start (check and debit the wagers, deal), decide, the shared showdown,
quick replay and resuming; what is read of them (a round, history) is
:mod:`~riverboat.table.rounds.reads`, a round's row :mod:`~riverboat.table.rounds.rows`.

A player has two tables of each game: their own, and a shared table's seat. Each
holds at most one unfinished round (G7).
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence

from sqlalchemy import bindparam, func, insert, select
from sqlalchemy.orm import Session

from riverboat.errors import Conflict, IllegalAction
from riverboat.games import GameRules, Round, RoundRecord, SomeGame, find_game
from riverboat.games.chips import quick_replay
from riverboat.games.events import Wagered, event_from_json
from riverboat.games.rules import RulesError
from riverboat.money import Cents, format_money
from riverboat.store.models import RoundEvent, RoundRow, Transaction
from riverboat.store.statements import next_id
from riverboat.table.accounts.ledger import (
    Ledger,
    affordable,
    inserted,
    player_account,
    round_account,
    scalar,
)
from riverboat.table.live.across.live_state import Fence, check_fence
from riverboat.table.rounds import records
from riverboat.table.rounds.exports import reveal_state
from riverboat.table.rounds.reads import RoundReads, outcome
from riverboat.table.rounds.rows import (
    SETTLING,
    at_table,
    owned,
    owned_read,
    resume,
    round_values,
    settlement,
    wager_request,
)
from riverboat.table.rounds.sources import Dealt, card_source
from riverboat.table.states import RoundStatus
from riverboat.table.views import RoundView

__all__ = ["CUT_OFF", "CUT_OFF_REASON", "KeptRounds", "Rounds"]

#: a shared table's showdown "decision" for a seat whose connection the servers lost
#: (its process died) and that never came back before its decision: void (G7)
CUT_OFF = "(cut off)"
CUT_OFF_REASON = "the servers lost your connection before your decision"
#: the open rounds a process keeps rebuilt (:class:`KeptRounds`): about 5 KB each
KEPT_ROUNDS = 4096
_NEW_ROUND = insert(RoundRow)
_STORED_EVENTS = select(func.count()).where(RoundEvent.round_id == bindparam("round"))


#: the id of the player's unfinished round of a game at their own table
_UNFINISHED = select(RoundRow.id).where(
    RoundRow.player_id == bindparam("player"),
    RoundRow.game == bindparam("game"),
    RoundRow.status == RoundStatus.OPEN,
    at_table(False),
)


def _new_row(
    session: Session,
    player_id: int,
    game: str,
    balance: Cents,
    dealt: Dealt,
    record: RoundRecord,
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
        self._rounds: OrderedDict[int, tuple[str | None, Round[GameRules]]] = OrderedDict()
        self._lock = threading.Lock()

    def keep(self, round_id: int, cards_drawn: str | None, game_round: Round[GameRules]) -> None:
        """Keep the round as stored (its ``cards_drawn`` column), the oldest dropped."""
        with self._lock:
            self._rounds[round_id] = (cards_drawn, game_round)
            self._rounds.move_to_end(round_id)
            while len(self._rounds) > self.size:
                self._rounds.popitem(last=False)

    def take(self, round_id: int) -> tuple[str | None, Round[GameRules]] | None:
        """The round kept (its cards drawn, the round), no longer kept; or None."""
        with self._lock:
            return self._rounds.pop(round_id, None)


class Rounds(RoundReads):
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
        at the player's own table (a shared table's: :mod:`~riverboat.table.rounds.shared`).

        ``second`` opens a second, blind position (Crazy 4, C8).
        """
        kind = find_game(game)
        source = card_source(game, variant, client_seed)
        request = wager_request(player_id, game, wagers, second, client_seed, variant)

        made: list[tuple[RoundRow, Round[GameRules]]] = []
        unfinished_read = (_UNFINISHED, {"player": player_id, "game": game})

        def work(session: Session, txn: Transaction) -> RoundView:
            made.clear()
            held = self.ledger.lock(session, player_id)
            unfinished = scalar(session, *unfinished_read)
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

        opening = [
            self.ledger.lock_read(player_id),
            unfinished_read,
            *source.reads(player_id),
            next_id(RoundRow.__tablename__),  # the round's INSERT is then held, as a write
        ]
        view = self.ledger.idempotent(
            player_id, idempotency_key, "wager", request, work, RoundView, opening
        )
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
        made: list[tuple[RoundRow, Round[GameRules]]] = []
        stored_read = (_STORED_EVENTS, {"round": round_id})

        def work(session: Session, txn: Transaction) -> RoundView:
            made.clear()
            balance = self.ledger.lock(session, player_id).balance
            row = owned(session, player_id, round_id, lock=True)
            if row.status != RoundStatus.OPEN:
                raise IllegalAction(f"round {round_id} is {row.status}; start a new round")
            if reveal_state(session, row)[1]:
                raise IllegalAction(f"round {round_id} is played at a shared table: decide there")
            stored: int | None = scalar(session, *stored_read)  # row.id is round_id
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

        opening = [
            self.ledger.lock_read(player_id),
            owned_read(round_id, lock=True),
            stored_read,
            next_id(Transaction.__tablename__),  # for the settling transaction, if it settles
        ]
        view = self.ledger.idempotent(
            player_id, idempotency_key, "decision", request, work, RoundView, opening
        )
        self._keep(view, made)
        return view

    def _keep(self, view: RoundView, made: list[tuple[RoundRow, Round[GameRules]]]) -> None:
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

    def _resumed_ahead(self, player_id: int, round_id: int) -> Round[GameRules] | None:
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
            record = records.load(last)
            placed = [e for e in map(event_from_json, record["events"]) if isinstance(e, Wagered)]
            balance = self.ledger.balance(session, player_id)
        wagers = placed[0].wagers
        second = placed[1].wagers if len(placed) > 1 else None  # a blind position (C8)
        variant = _known_variant(kind, record["rules"].get("variant"))
        probe = kind.new_round(kind.rules(variant))
        quick_replay(wagers, probe.spots, balance, probe.at_least_one)
        return self.start_round(
            player_id, game, wagers, client_seed, idempotency_key, variant, second
        )

    def store(
        self,
        session: Session,
        row: RoundRow,
        game_round: Round[GameRules],
        have: int | None = None,
        balance: Cents | None = None,
        record: RoundRecord | None = None,
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


def _cost(game_round: Round[GameRules], action: str, amount: Cents | None, balance: Cents) -> Cents:
    """The decision's cost, once the rules allow it and ``balance`` covers it (G6)."""
    choice = game_round.check_action(action, amount)
    cost = choice.minimum if amount is None else amount
    if cost > balance:
        raise IllegalAction(
            f"{choice.label} needs {format_money(cost)}; the balance is {format_money(balance)}"
        )
    return cost


def _known_variant(kind: SomeGame, variant: object) -> str | None:
    """The last round's variant where this process knows it (a named one, or a variant
    file's loaded here), so a replay deals by the same rules; else the game's default."""
    if not isinstance(variant, str):
        return None
    try:
        kind.rules(variant)
    except RulesError:
        return None
    return variant
