"""A player's credits of play money that are not rounds: the starting credit a new
player is given and each top-up, newest first, in keyset pages like the history.

A page is one query: the player's transactions of those kinds (the index
``transactions_player_kind``: player, kind, id) joined to their own account's entry in
each (``ledger_account_transaction``: account, transaction), so it costs the same
however many rounds the player has played.

>>> from riverboat.table.service import TableService
>>> service = TableService("sqlite://")
>>> me = service.local_player()
>>> [(c.kind, c.amount, c.balance_after) for c in service.credits(me)]
[('start', 100000, 100000)]
"""

from __future__ import annotations

import json
from datetime import UTC, datetime

from sqlalchemy import Engine, bindparam, select
from sqlalchemy.orm import Session

from riverboat.errors import IllegalAction
from riverboat.money import Cents
from riverboat.store.models import LedgerEntry, Transaction
from riverboat.table.accounts.ledger import player_account
from riverboat.table.views import CreditKind, CreditView

__all__ = ["CREDITS_LIMIT", "CREDIT_KINDS", "credits"]

#: the ledger's transaction kinds that change a player's account outside a round, and
#: how the history names each (:data:`~riverboat.table.views.CreditKind`): the house's
#: are :mod:`riverboat.table.office`'s
CREDIT_KINDS: dict[str, CreditKind] = {
    "credit": "start",
    "top-up": "top_up",
    "adjustment": "adjustment",
    "lock": "locked",
    "unlock": "unlocked",
    "end-sessions": "sessions_ended",
}
#: the longest page
CREDITS_LIMIT = 1000

_AMOUNT = (
    select(LedgerEntry.amount)
    .where(
        LedgerEntry.account == bindparam("account"),
        LedgerEntry.transaction_id == Transaction.id,
    )
    .correlate(Transaction)
    .scalar_subquery()
)
# the player's own entry in each credit, a subquery per row of the page: a join would
# let the planner start from the account's entries, every round's among them
_PAGE = (
    select(
        Transaction.id,
        Transaction.kind,
        Transaction.created_at,
        Transaction.response,
        _AMOUNT.label("amount"),
    )
    .where(
        Transaction.player_id == bindparam("player"),
        Transaction.kind.in_(list(CREDIT_KINDS)),
    )
    .order_by(Transaction.id.desc())
    .limit(bindparam("limit"))
)
_OLDER = _PAGE.where(Transaction.id < bindparam("before"))


def credits(
    engine: Engine, player_id: int, limit: int = 20, before: int | None = None
) -> list[CreditView]:
    """The player's credits, newest first (``limit`` of 1 to :data:`CREDITS_LIMIT`);
    with ``before`` (a credit's id), those older than it: the next page."""
    if not 1 <= limit <= CREDITS_LIMIT:
        raise IllegalAction(f"credits show 1 to {CREDITS_LIMIT} at a time, not {limit}")
    if before is not None and before < 1:
        raise IllegalAction(f"before is a credit's id (1 or more), not {before}")
    parameters: dict[str, object] = {
        "account": player_account(player_id),
        "player": player_id,
        "limit": limit,
    }
    if before is not None:
        parameters["before"] = before
    with Session(engine) as session:
        rows = session.execute(_PAGE if before is None else _OLDER, parameters).all()
    return [
        _credit(row.id, row.kind, int(row.amount or 0), row.response, row.created_at)
        for row in rows
    ]


def _credit(txn: int, kind: str, amount: Cents, response: str | None, at: datetime) -> CreditView:
    """One row of the page. The balance a credit left: a new player's is what it
    credited (they had nothing); a top-up's or the house's is the balance it answered
    with (stored for its idempotency, or by the back office with its reason)."""
    try:
        answered = json.loads(response or "")
    except ValueError:
        answered = None
    answered = answered if isinstance(answered, dict) else {}
    balance, reason = answered.get("balance"), answered.get("reason")
    return CreditView(
        id=txn,
        kind=CREDIT_KINDS[kind],
        amount=amount,
        balance_after=amount if kind == "credit" else balance if isinstance(balance, int) else None,
        at=_utc(at),
        reason=reason if isinstance(reason, str) else None,
    )


def _utc(at: datetime) -> datetime:
    """A stored time (SQLite keeps it without its zone; it is UTC) as UTC."""
    return at.replace(tzinfo=UTC) if at.tzinfo is None else at.astimezone(UTC)
