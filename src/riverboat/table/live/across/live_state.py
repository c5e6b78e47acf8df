"""A shared table's live state in the database, fenced: what the process that runs the
table's clock keeps there so that another process can take the table over.

The state is a row of ``shared_tables`` per table key: the phase, the pending step's
deadline, the deal in play and the seats' bets and decisions. A process that gets the
table's lease (:mod:`riverboat.table.live.across.lease`) claims the row, which hands it the next
fencing token: one more than the row's, in the same transaction, so tokens never
repeat, whatever happened to Redis, and a claim is one step however many came before
it. Every write of the table's (its state, a new deal, sealing and revealing its
seed, a deal of rounds, the showdown, a void) checks in its own transaction that its
token is still the row's (:func:`check_fence`), and is refused with
:class:`LeaseLostError` once a successor has claimed the table: a holder that paused
past its lease changes nothing.

>>> from riverboat.store import connect
>>> engine = connect("sqlite://")
>>> first, state = claim(engine, "crazy4")
>>> first, state
(Fence(key='crazy4', token=1), None)
>>> save(engine, first, "betting", None, None, {"seats": []})
>>> second, state = claim(engine, "crazy4")
>>> second.token, state.phase
(2, 'betting')
>>> try:
...     save(engine, first, "deciding", None, None, {})
... except LeaseLostError as error:
...     print(error)
the crazy4 table is run by a newer lease (2) than this one (1)
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from riverboat.store import writer
from riverboat.store.models import Deal, RoundRow, SharedTableRow

__all__ = [
    "DealtRound",
    "Fence",
    "LeaseLostError",
    "Seen",
    "Stored",
    "check_fence",
    "claim",
    "coup_winners",
    "deal_rounds",
    "read_all",
    "save",
]


class LeaseLostError(Exception):
    """This process no longer runs the table: a newer lease has claimed it. Not a
    refusal of a player's: the step stops, and the process stops running the table."""


@dataclass(frozen=True)
class Fence:
    """The table's key and the fencing token of the lease this process holds on it."""

    key: str
    token: int


@dataclass(frozen=True)
class Stored:
    """A table's state as it was last written."""

    phase: str
    deadline: float | None
    deal_id: int | None
    deal_revealed: bool
    deal_sealed: bool  # its client seed is fixed: cards may have been dealt from it
    state: dict[str, Any]


def check_fence(session: Session, fence: Fence | None) -> None:
    """Refuse (:class:`LeaseLostError`) unless ``fence`` is still the token its table's
    row was last claimed with; nothing to check without one (one process runs every
    table). The row stays share-locked to the end of the transaction, so no claim
    lands between this check and the transaction's writes."""
    if fence is None:
        return
    token = session.scalar(
        select(SharedTableRow.token)
        .where(SharedTableRow.key == fence.key)
        .with_for_update(read=True)
    )
    if token != fence.token:
        newer = "no claim" if token is None else f"a newer lease ({token})"
        raise LeaseLostError(
            f"the {fence.key} table is run by {newer} than this one ({fence.token})"
        )


def claim(engine: Engine, key: str) -> tuple[Fence, Stored | None]:
    """Take the table ``key`` over: the next fencing token (from now on every older one
    writes nothing) and the table's state as last written, None if it has none yet."""
    with Session(writer(engine)) as session, session.begin():
        _insert_if_absent(session, key)
        row = session.get(SharedTableRow, key, with_for_update=True, populate_existing=True)
        assert row is not None  # inserted above, if it was not there
        row.token += 1
        fence = Fence(key, row.token)
        if not row.phase:
            return fence, None
        deal = session.get(Deal, row.deal_id) if row.deal_id is not None else None
        revealed = deal is None or deal.revealed
        sealed = deal is not None and deal.client_seed is not None
        state = json.loads(row.state)
        return fence, Stored(row.phase, row.deadline, row.deal_id, revealed, sealed, state)


def _insert_if_absent(session: Session, key: str) -> None:
    """The table's row, made with token 0 unless it is there: two processes' first
    claims of a new table both find one row, never a duplicate key."""
    from sqlalchemy.dialects import postgresql, sqlite  # a shared table's only: here

    dialect = session.get_bind().dialect.name
    make = postgresql.insert if dialect == "postgresql" else sqlite.insert
    session.execute(
        make(SharedTableRow)
        .values(key=key, token=0, phase="", state="{}")
        .on_conflict_do_nothing(index_elements=[SharedTableRow.key])
    )


@dataclass(frozen=True)
class Seen:
    """A table's state as last written, as an onlooker reads it (no deal looked up)."""

    phase: str
    deadline: float | None
    state: dict[str, Any]


def read_all(engine: Engine, keys: list[str]) -> dict[str, Seen]:
    """The tables ``keys``' states as last written, in one query (a table never
    written is left out): what the lobby shows of a table another process runs."""
    with Session(engine) as session:
        rows = session.execute(
            select(
                SharedTableRow.key,
                SharedTableRow.phase,
                SharedTableRow.deadline,
                SharedTableRow.state,
            ).where(SharedTableRow.key.in_(keys), SharedTableRow.phase != "")
        ).all()
    return {key: Seen(phase, deadline, json.loads(state)) for key, phase, deadline, state in rows}


def save(
    engine: Engine,
    fence: Fence,
    phase: str,
    deadline: float | None,
    deal_id: int | None,
    state: dict[str, Any],
) -> None:
    """Write the table's state, unless a newer lease has claimed the table."""
    with Session(writer(engine)) as session, session.begin():
        check_fence(session, fence)
        row = session.get(SharedTableRow, fence.key, with_for_update=True)
        assert row is not None  # the fence's claim made it
        row.phase, row.deadline, row.deal_id = phase, deadline, deal_id
        row.state = json.dumps(state)


@dataclass(frozen=True)
class DealtRound:
    """A round dealt from a shared deal: its player, status, places and winner (B7)."""

    id: int
    player: int
    status: str
    places: list[int]
    winner: str | None


def deal_rounds(engine: Engine, deal_id: int) -> list[DealtRound]:
    """The rounds dealt from a shared deal, in the order they were made."""
    query = (
        select(RoundRow.id, RoundRow.player_id, RoundRow.status, RoundRow.deal_cards)
        .add_columns(RoundRow.result)
        .where(RoundRow.deal_id == deal_id)
        .order_by(RoundRow.id)
    )
    with Session(engine) as session:
        rows = session.execute(query).all()
    return [
        DealtRound(
            r, p, status, json.loads(places or "[]"), json.loads(result or "{}").get("winner")
        )
        for r, p, status, places, result in rows
    ]


def coup_winners(rounds: list[DealtRound]) -> list[str]:
    """A shoe's road so far: each coup's winner once, in the order of its places.

    >>> coup_winners([DealtRound(1, 1, "settled", [9, 10, 11, 12], "Banker"),
    ...               DealtRound(2, 2, "settled", [9, 10, 11, 12], "Banker"),
    ...               DealtRound(3, 1, "settled", [5, 6, 7, 8], "Tie")])
    ['Tie', 'Banker']
    """
    coups = {r.places[0]: r.winner for r in rounds if r.places and r.winner}
    return [coups[place] for place in sorted(coups)]
