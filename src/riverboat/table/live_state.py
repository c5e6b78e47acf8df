"""A shared table's live state in the database, fenced: what the process that runs the
table's clock keeps there so that another process can take the table over.

The state is a row of ``shared_tables`` per table key: the phase, the pending step's
deadline, the deal in play and the seats' bets and decisions. Each writer holds a
lease with a fencing token (:mod:`riverboat.table.lease`); the row keeps the largest
token that has written, and a write with a smaller one is refused with
:class:`LeaseLostError`, so a holder that paused past its lease (and lost it) changes
nothing once its successor has claimed the table. The writes of the table's rounds
(a deal, the showdown, a void) check the same token in their own transactions
(:func:`check_fence`).

>>> from riverboat.store import connect
>>> engine = connect("sqlite://")
>>> claim(engine, Fence("crazy4", 1)) is None
True
>>> save(engine, Fence("crazy4", 1), "betting", None, None, {"seats": []})
>>> claim(engine, Fence("crazy4", 2)).phase
'betting'
>>> try:
...     save(engine, Fence("crazy4", 1), "deciding", None, None, {})
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
    "Stored",
    "check_fence",
    "claim",
    "coup_winners",
    "deal_rounds",
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
    """Refuse (:class:`LeaseLostError`) if a newer lease than ``fence`` has claimed its
    table; nothing to check without one (one process runs every table)."""
    if fence is None:
        return
    token = session.scalar(
        select(SharedTableRow.token)
        .where(SharedTableRow.key == fence.key)
        .with_for_update(read=True)
    )
    if token is not None and token > fence.token:
        raise LeaseLostError(
            f"the {fence.key} table is run by a newer lease ({token}) than this one ({fence.token})"
        )


def claim(engine: Engine, fence: Fence) -> Stored | None:
    """Take the table over with ``fence``'s token (from now on older tokens write
    nothing) and read its state; None if it has none yet."""
    with Session(writer(engine)) as session, session.begin():
        row = session.get(SharedTableRow, fence.key, with_for_update=True)
        if row is None:  # claimed all the same: an older token writes nothing from now
            session.add(SharedTableRow(key=fence.key, token=fence.token, phase="", state="{}"))
            return None
        if not row.phase:
            check_fence(session, fence)
            row.token = fence.token
            return None
        check_fence(session, fence)
        row.token = fence.token
        deal = session.get(Deal, row.deal_id) if row.deal_id is not None else None
        revealed = deal is None or deal.revealed
        sealed = deal is not None and deal.client_seed is not None
        return Stored(row.phase, row.deadline, row.deal_id, revealed, sealed, json.loads(row.state))


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
        row = session.get(SharedTableRow, fence.key, with_for_update=True)
        if row is None:
            row = SharedTableRow(key=fence.key, token=fence.token)
            session.add(row)
        check_fence(session, fence)
        row.token, row.phase, row.deadline, row.deal_id = fence.token, phase, deadline, deal_id
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
