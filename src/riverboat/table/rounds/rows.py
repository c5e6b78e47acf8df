"""A round's row: which table it is at, the player's own (:func:`owned`), rebuilt
from its record (:func:`resume`), a new one's columns (:func:`round_values`), a
finished one's money (:func:`settlement`) and what a wager asked for
(:func:`wager_request`). Shared by a player's own rounds, a shared table's deal and
the audit.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import TypedDict

from sqlalchemy import ColumnElement, bindparam, exists, select
from sqlalchemy.orm import Session

from riverboat.deck import Deck
from riverboat.errors import NotFound
from riverboat.games import GameRules, Phase, Round, RoundRecord, replay
from riverboat.money import Cents
from riverboat.rng import FairSource
from riverboat.store.models import Deal, RoundRow
from riverboat.store.statements import Read
from riverboat.table.accounts.ledger import first
from riverboat.table.rounds import records
from riverboat.table.rounds.verify import fair_cards
from riverboat.table.states import RoundStatus

__all__ = [
    "SETTLING",
    "NewRound",
    "WagerRequest",
    "at_table",
    "owned",
    "resume",
    "round_values",
    "settlement",
    "wager_request",
]


class NewRound(TypedDict):
    """A new round's columns (:func:`round_values`), as a statement inserts them."""

    player_id: int
    game: str
    status: RoundStatus
    server_seed: str
    commitment: str
    client_seed: str
    nonce: int
    balance_before: Cents
    balance_after: Cents | None
    created_at: datetime
    updated_at: datetime
    deal_id: int | None
    deal_cards: str | None
    record_format: int
    rules: str
    cards_drawn: str
    result: str | None


class WagerRequest(TypedDict):
    """What a wager asked for (:func:`wager_request`)."""

    player: int
    game: str
    wagers: dict[str, Cents]
    second: dict[str, Cents] | None
    client_seed: str | None
    variant: str | None
    shared: list[int | list[int]] | None


def at_table(shared: bool) -> ColumnElement[bool]:
    """Rounds at a shared table of the game, or at the player's own: two tables, each
    with at most one unfinished round (G7). A shared table's deals belong to no player."""
    shared_deal = exists().where(Deal.id == RoundRow.deal_id, Deal.player_id.is_(None))
    return shared_deal if shared else ~shared_deal


def resume(row: RoundRow, session: Session | None = None) -> Round[GameRules]:
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


def owned_read(round_id: int, lock: bool = False) -> Read:
    """:func:`owned`'s statement, to send ahead (``Ledger.idempotent``'s ``ahead``)."""
    return _OWNED_LOCKED if lock else _OWNED, {"round": round_id}


def owned(session: Session, player_id: int, round_id: int, lock: bool = False) -> RoundRow:
    """The player's round, or :class:`NotFound` (whether it is nobody's or another's).

    Read as one Core statement (:func:`~riverboat.table.accounts.ledger.first`), not through the
    ORM: the row is a :class:`RoundRow` outside the session, as a new round's row is
    made, so its record is read with the session given (``resume(row, session)``)."""
    found = first(session, *owned_read(round_id, lock))
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
    record: RoundRecord,
) -> NewRound:
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


def settlement(game_round: Round[GameRules]) -> tuple[Cents, Cents, RoundStatus]:
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
) -> WagerRequest:
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
