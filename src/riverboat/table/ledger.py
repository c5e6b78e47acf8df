"""The ledger: accounts' entries, balances, transactions and idempotency keys.

Money moves only as ledger entries of one transaction that sum to zero: a player's
account (``player:N``), a round's (``round:N``, what is staked in it while it is
open) and the house's. A balance is the sum of an account's entries.

>>> from riverboat.store import connect
>>> ledger = Ledger(connect("sqlite://"))
>>> player_account(7), round_account(3)
('player:7', 'round:3')
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from typing import TypeVar

from pydantic import BaseModel
from sqlalchemy import Engine, func, select
from sqlalchemy.exc import DBAPIError, IntegrityError, OperationalError
from sqlalchemy.orm import Session

from riverboat.errors import Conflict, IllegalAction, NotFound, Unavailable
from riverboat.money import Cents, format_money
from riverboat.rng import SecureSource
from riverboat.store.models import LedgerEntry, Player, Transaction
from riverboat.table.views import BalanceView

__all__ = [
    "RETRIES",
    "STARTING_CREDIT",
    "TOP_UP_BELOW",
    "Ledger",
    "player_account",
    "round_account",
]

#: a new player's play money, and the top-up rule: below $100, back up to $1,000
STARTING_CREDIT: Cents = 100_000
TOP_UP_BELOW: Cents = 10_000
#: attempts at a transaction that PostgreSQL could not serialise
RETRIES = 60
_JITTER = SecureSource()

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)


def player_account(player_id: int) -> str:
    return f"player:{player_id}"


def round_account(round_id: int) -> str:
    return f"round:{round_id}"


class Ledger:
    """Transactions over one database, and the entries they make."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def write(self, work: Callable[[Session], T]) -> T:
        """Run ``work`` in one transaction; retry PostgreSQL serialization failures and
        deadlocks (should any occur) after a short random pause that grows each time.
        A database that does not answer is :class:`Unavailable`."""
        for attempt in range(RETRIES):
            try:
                with Session(self.engine) as session, session.begin():
                    return work(session)
            except DBAPIError as error:
                code = getattr(error.orig, "sqlstate", None) or getattr(error.orig, "pgcode", None)
                if code in ("40001", "40P01") and attempt < RETRIES - 1:
                    time.sleep(_JITTER.randbelow(1 + 2 ** min(attempt, 8)) / 1000)
                    continue
                if _unreachable(error):
                    raise Unavailable(f"the database did not answer: {_reason(error)}") from error
                raise
        raise AssertionError("unreachable")  # pragma: no cover

    def idempotent(
        self,
        key: str | None,
        kind: str,
        request: Mapping[str, object],
        work: Callable[[Session, Transaction], M],
        answer_type: type[M],
    ) -> M:
        """Do ``work`` once per idempotency key; a repeat returns the stored answer, and
        the key with another request is a :class:`Conflict`."""
        body = json.dumps({"kind": kind, **request}, sort_keys=True, default=str)

        def attempt(session: Session) -> M:
            if key is not None:
                earlier = session.scalar(
                    select(Transaction).where(Transaction.idempotency_key == key)
                )
                if earlier is not None:
                    if earlier.request != body:
                        raise Conflict(
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
            return self.write(attempt)
        except IntegrityError:
            if key is None:
                raise
            return self.write(attempt)  # a concurrent twin committed first: its answer

    @staticmethod
    def move(session: Session, txn: Transaction, entries: list[tuple[str, Cents]]) -> None:
        """Ledger entries of one transaction; they must sum to zero."""
        if sum(amount for _, amount in entries) != 0:
            raise AssertionError(f"ledger entries must sum to zero: {entries}")
        for account, amount in entries:
            if amount:
                session.add(LedgerEntry(transaction_id=txn.id, account=account, amount=amount))

    @staticmethod
    def lock(session: Session, player_id: int) -> None:
        """Take the player's row lock: calls that move their money take turns."""
        if (
            session.scalar(select(Player.id).where(Player.id == player_id).with_for_update())
            is None
        ):
            raise NotFound(f"there is no player {player_id}")

    @staticmethod
    def balance(session: Session, player_id: int) -> Cents:
        return Ledger.held(session, player_account(player_id))

    @staticmethod
    def held(session: Session, account: str) -> Cents:
        """The sum of an account's entries."""
        total = session.scalar(
            select(func.coalesce(func.sum(LedgerEntry.amount), 0)).where(
                LedgerEntry.account == account
            )
        )
        return int(total or 0)

    def credit(self, session: Session, player_id: int) -> None:
        """A new player's starting play money, from the house."""
        txn = Transaction(kind="credit", player_id=player_id)
        session.add(txn)
        session.flush()
        self.move(
            session,
            txn,
            [(player_account(player_id), STARTING_CREDIT), ("house", -STARTING_CREDIT)],
        )

    def top_up(self, player_id: int, idempotency_key: str | None = None) -> Cents:
        """Below $100 of play money, a top-up brings the balance back to $1,000."""

        def work(session: Session, txn: Transaction) -> BalanceView:
            self.lock(session, player_id)
            balance = self.balance(session, player_id)
            if balance >= TOP_UP_BELOW:
                raise IllegalAction(
                    f"a top-up is for balances below {format_money(TOP_UP_BELOW)}; "
                    f"the balance is {format_money(balance)}"
                )
            txn.player_id = player_id
            self.move(
                session,
                txn,
                [
                    (player_account(player_id), STARTING_CREDIT - balance),
                    ("house", balance - STARTING_CREDIT),
                ],
            )
            return BalanceView(balance=STARTING_CREDIT)

        request = {"player": player_id}
        return self.idempotent(idempotency_key, "top-up", request, work, BalanceView).balance


def _unreachable(error: DBAPIError) -> bool:
    """Whether the database did not answer (its connection failed or was lost, or it
    stayed locked), rather than refusing the statement."""
    if not isinstance(error, OperationalError):
        return False
    said = str(error.orig).lower()
    return error.connection_invalidated or any(
        word in said for word in ("connect", "database is locked", "timeout", "timed out")
    )


def _reason(error: DBAPIError) -> str:
    """Why, in words that give nothing of the server away."""
    if "database is locked" in str(error.orig).lower():
        return "database is locked"  # another program is writing (SQLite)
    return "try again shortly"
