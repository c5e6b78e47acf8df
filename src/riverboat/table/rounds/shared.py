"""A shared table's rounds, every seat of one deal in one transaction.

A Baccarat shoe deals one coup to everyone who bet on it; a Crazy 4 table deals one
deck to its seats. Each seat's round is checked, debited and stored exactly as a
round at the player's own table is (the same rows, entries and events), but the
seats of a deal share one transaction and a few statements: the table's lease and
the deal are checked once, the players' rows are locked in one statement (in id
order, so two deals never deadlock), and the rounds, transactions, ledger entries
and events are each written many rows at a time. A thousand players' coup then
costs about as many statements as one player's.

A seat whose round is refused (short of money, a round unfinished, wagers the rules
refuse) is told why and writes nothing; the others are dealt. A lost lease, a deal
that is not open or a database that fails refuses the whole deal: nothing of it is
written.

>>> from riverboat.table.service import TableService
>>> service = TableService("sqlite://")
>>> me = service.local_player()
>>> deal = service.new_deal("baccarat")
>>> layout = service.seal_deal(deal.id, "my seed")
>>> stake = Stake(me, {"banker": 500}, range(layout.first, layout.first + 6))
>>> [view.status.value for view in service.start_shared("baccarat", deal.id, [stake])]
['settled']
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.orm import Session

from riverboat.deck import Deck
from riverboat.errors import Conflict, IllegalAction, NotFound, Refusal
from riverboat.games import GameRules, Round, RoundRecord, find_game
from riverboat.games.codec import from_json
from riverboat.money import Cents
from riverboat.rng import FairSource
from riverboat.store.models import LedgerEntry, Player, RoundEvent, RoundRow, Transaction
from riverboat.table.accounts.ledger import (
    Ledger,
    affordable,
    player_account,
    request_body,
    round_account,
    run,
)
from riverboat.table.live.across.live_state import Fence, check_fence
from riverboat.table.rounds.exports import round_view
from riverboat.table.rounds.reads import outcome
from riverboat.table.rounds.rows import (
    SETTLING,
    NewRound,
    at_table,
    round_values,
    settlement,
    wager_request,
)
from riverboat.table.rounds.sources import open_deal, sealed_order
from riverboat.table.states import RoundStatus
from riverboat.table.views import RoundView

__all__ = ["SharedRounds", "Stake"]

_LOCK_PLAYERS = (
    select(Player.id, Player.balance)
    .where(Player.id.in_(bindparam("players", expanding=True)))
    .order_by(Player.id)
    .with_for_update()
)
_OPEN_HERE = select(RoundRow.player_id, RoundRow.id).where(
    RoundRow.player_id.in_(bindparam("players", expanding=True)),
    RoundRow.game == bindparam("game"),
    RoundRow.status == RoundStatus.OPEN,
    at_table(True),
)
_NEW_ROUNDS = insert(RoundRow).returning(RoundRow.id, sort_by_parameter_order=True)
_NEW_TRANSACTIONS = insert(Transaction).returning(Transaction.id, sort_by_parameter_order=True)
_ENTRIES = insert(LedgerEntry)
_EVENTS = insert(RoundEvent)
_DEALT_TO = (
    update(Player)
    .where(Player.id == bindparam("player"))
    .values(balance=Player.balance + bindparam("amount"), rounds_dealt=Player.rounds_dealt + 1)
)


@dataclass(frozen=True)
class Stake:
    """One seat's stake in a deal: its player, wagers (and a blind second position's,
    Crazy 4's C8) and the places of the deal its round draws, in the order it draws
    them (its positions' cards, then the dealer's or the coup's)."""

    player: int
    wagers: Mapping[str, Cents]
    places: Sequence[int]
    second: Mapping[str, Cents] | None = None


@dataclass
class _Made:
    """A seat's round, played as far as the deal takes it, before it is written."""

    index: int
    stake: Stake
    game_round: Round[GameRules]
    record: RoundRecord
    before: Cents  # the player's balance as the round begins
    staked: Cents
    returned: Cents | None  # None: still open (it waits for the showdown)
    status: RoundStatus
    balance: Cents  # the player's once this round is written


class SharedRounds:
    """A shared table's deals, each written in one transaction."""

    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger

    def start(
        self, game: str, deal_id: int, stakes: Sequence[Stake], fence: Fence | None = None
    ) -> list[RoundView | Refusal]:
        """Deal every seat's round from the deal's places (G2, G6), in one transaction
        that, with ``fence``, writes only while that lease runs the table; by seat, the
        round as its player sees it, or why it was refused."""
        kind = find_game(game)

        def work(session: Session) -> list[RoundView | Refusal]:
            answers: list[RoundView | Refusal | None] = [None] * len(stakes)
            check_fence(session, fence)
            deal = open_deal(session, deal_id, shared=True)
            if deal.game != game or deal.client_seed is None:
                raise IllegalAction(f"deal {deal.id} is not a sealed {game} deal")
            rules = from_json(kind.rules_type, json.loads(deal.rules))
            seeds = FairSource(deal.server_seed, deal.client_seed, 0)
            order = sealed_order(game, deal.rules, seeds.server_seed, seeds.client_seed)
            players = sorted({stake.player for stake in stakes})
            found = session.execute(_LOCK_PLAYERS, {"players": players}).all()
            balances: dict[int, Cents] = {int(p): int(b) for p, b in found}
            found = session.execute(_OPEN_HERE, {"players": players, "game": game}).all()
            unfinished: dict[int, int] = {int(p): int(r) for p, r in found}
            dealt_open: set[int] = set()  # players with an open round of this deal
            made: list[_Made] = []
            for index, stake in enumerate(stakes):
                try:
                    if stake.player not in balances:
                        raise NotFound(f"there is no player {stake.player}")
                    if stake.player in unfinished:
                        raise Conflict(
                            f"finish round {unfinished[stake.player]} at this table first (G7)"
                        )
                    if stake.player in dealt_open:
                        raise Conflict("one round a seat: this deal has dealt yours (G7)")
                    one = _play(index, stake, kind.new_round(rules), order, balances[stake.player])
                except Refusal as error:
                    answers[index] = error
                    continue
                balances[stake.player] = one.balance
                if one.returned is None:  # open till the showdown: the seat's one round
                    dealt_open.add(stake.player)
                made.append(one)
            for one, view in zip(made, _write(session, game, deal_id, seeds, made), strict=True):
                answers[one.index] = view
            assert all(answer is not None for answer in answers)
            return [answer for answer in answers if answer is not None]

        return self.ledger.write(work)


def _play(
    index: int, stake: Stake, game_round: Round[GameRules], order: Sequence[int], balance: Cents
) -> _Made:
    """The seat's round dealt from ``order`` at its places, checked against its
    player's ``balance``, and settled where the deal settles it (a coup)."""
    game_round.place_wagers(stake.wagers)
    if stake.second is not None:
        game_round.place_wagers(stake.second, blind=True)  # C8
    try:
        game_round.deal(Deck.stacked(order[place] for place in stake.places))
    except IndexError:
        raise IllegalAction("the deal has no such places") from None
    staked = sum(p.staked for p in game_round.positions)  # with a blind Play (C8)
    affordable(staked, balance)
    returned: Cents | None = None
    status = RoundStatus.OPEN
    if game_round.settled:  # a coup: settled as dealt (a void one returns its stakes)
        _, returned, status = settlement(game_round)
    after = balance - staked + (returned or 0)
    record = game_round.record()
    return _Made(index, stake, game_round, record, balance, staked, returned, status, after)


def _write(
    session: Session, game: str, deal_id: int, seeds: FairSource, made: list[_Made]
) -> list[RoundView]:
    """The rounds ``made`` written many rows to a statement: their rows, then each one's
    wager transaction (and its settlement's), entries and events, then the players'
    balances; each round as its player sees it."""
    if not made:
        return []
    rows: list[NewRound] = []
    for one in made:
        places = list(one.stake.places)[: len(one.game_round.drawn)]
        row = round_values(one.stake.player, game, one.before, seeds, deal_id, places, one.record)
        if one.returned is not None:
            found = outcome(
                one.game_round, row["deal_cards"], seeds.server_seed, seeds.client_seed, 0
            )
            row["status"], row["balance_after"] = one.status, one.balance
            row["result"] = json.dumps(found)
        rows.append(row)
    round_ids = list(session.connection().execute(_NEW_ROUNDS, rows).scalars())
    views: list[RoundView] = []
    transactions: list[dict[str, object]] = []
    for one, round_id, row in zip(made, round_ids, rows, strict=True):
        view = round_view(RoundRow(id=round_id, **row), one.game_round, one.balance, False, True)
        views.append(view)
        shared = (deal_id, one.stake.places)
        asked = wager_request(
            one.stake.player, game, one.stake.wagers, one.stake.second, shared=shared
        )
        transactions.append(
            _transaction("wager", one.stake.player, round_id, request_body("wager", asked), view)
        )
        if one.returned is not None:
            kind = SETTLING[one.status]
            transactions.append(_transaction(kind, one.stake.player, round_id))
    transaction_ids = iter(session.connection().execute(_NEW_TRANSACTIONS, transactions).scalars())
    entries: list[dict[str, object]] = []
    events: list[dict[str, object]] = []
    moved: list[dict[str, int]] = []
    for one, round_id in zip(made, round_ids, strict=True):
        player, account = player_account(one.stake.player), round_account(round_id)
        wager = next(transaction_ids)
        entries += [_entry(wager, player, -one.staked), _entry(wager, account, one.staked)]
        if one.returned is not None:
            settle = next(transaction_ids)
            entries += [
                _entry(settle, account, -one.staked),
                _entry(settle, player, one.returned),
                _entry(settle, "house", one.staked - one.returned),
            ]
        events += [
            {"round_id": round_id, "seq": seq, "kind": event["kind"], "body": json.dumps(event)}
            for seq, event in enumerate(one.record["events"])
        ]
        moved.append({"player": one.stake.player, "amount": one.balance - one.before})
    run(session, _ENTRIES, [entry for entry in entries if entry["amount"]])
    run(session, _EVENTS, events)
    run(session, _DEALT_TO, moved)
    return views


def _transaction(
    kind: str, player: int, round_id: int, request: str | None = None, view: RoundView | None = None
) -> dict[str, object]:
    """A transaction row: a wager keeps what it asked for and its answer, as one at the
    player's own table does (:meth:`~riverboat.table.accounts.ledger.Ledger.idempotent`)."""
    return {
        "kind": kind,
        "player_id": player,
        "round_id": round_id,
        "request_key": None,
        "request": request,
        "response": None if view is None else view.model_dump_json(),
    }


def _entry(transaction_id: int, account: str, amount: Cents) -> dict[str, object]:
    return {"transaction_id": transaction_id, "account": account, "amount": amount}
