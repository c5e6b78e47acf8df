"""The ledger: accounts' entries, balances, transactions and idempotency keys.

Money moves only as ledger entries of one transaction that sum to zero: a player's
account (``player:N``), a round's (``round:N``, what is staked in it while it is
open) and the house's. A balance is the sum of an account's entries; a player's is
also kept as a running total on their row, moved in the same transaction as the
entries, so reading it costs the same however long their history (the audit checks
the two agree).

Only transactions that write take SQLite's write lock; reads begin deferred and, in
WAL mode, never wait for a writer.

>>> from riverboat.store import connect
>>> ledger = Ledger(connect("sqlite://"))
>>> player_account(7), round_account(3)
('player:7', 'round:3')
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple, TypeVar

from pydantic import BaseModel
from sqlalchemy import (
    Connection,
    Engine,
    Executable,
    bindparam,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.orm import Session

from riverboat.errors import Conflict, IllegalAction, NotFound, Unavailable
from riverboat.money import Cents, format_money
from riverboat.rng import SecureSource
from riverboat.store import statements, write_turn, writer
from riverboat.store.commits import (
    BUSY,
    LOCKED_RETRY_SECONDS,
    TURN_SECONDS,
    grouped,
    locked,
    reason,
    unreachable,
)
from riverboat.store.models import LedgerEntry, Player, RoundRow, Transaction
from riverboat.store.statements import Parameters, Read
from riverboat.table.states import RoundStatus
from riverboat.table.views import BalanceView

__all__ = [
    "RETRIES",
    "STARTING_CREDIT",
    "TOP_UP_BELOW",
    "Held",
    "Ledger",
    "affordable",
    "first",
    "inserted",
    "player_account",
    "request_body",
    "round_account",
    "run",
    "scalar",
]

#: a new player's play money, and the top-up rule: below $100, back up to $1,000
STARTING_CREDIT: Cents = 100_000
TOP_UP_BELOW: Cents = 10_000
#: attempts at a transaction that PostgreSQL could not serialise
RETRIES = 60
_JITTER = SecureSource()

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)


_PLAYER = "player:"

# The ledger's statements, built once (building and coercing one costs more than
# running it): each runs on the session's connection, as Core, with its parameters.
_LOCK = (
    select(Player.balance, Player.rounds_dealt)
    .where(Player.id == bindparam("player"))
    .with_for_update()
)
_BALANCE = select(Player.balance).where(Player.id == bindparam("player"))
_COUNT_ROUND = (
    update(Player)
    .where(Player.id == bindparam("player"))
    .values(rounds_dealt=Player.rounds_dealt + 1)
)
_MOVE_BALANCE = (
    update(Player)
    .where(Player.id == bindparam("player"))
    .values(balance=Player.balance + bindparam("amount"))
)
_ENTRIES = insert(LedgerEntry)
_NEW_TRANSACTION = insert(Transaction)
_ANSWERED = (
    update(Transaction)
    .where(Transaction.id == bindparam("txn"))
    .values(round_id=bindparam("round"), response=bindparam("response"))
)


def run(
    session: Session, statement: Executable, parameters: Parameters | Sequence[Parameters]
) -> None:
    """``statement`` (Core, built once: an INSERT, UPDATE or DELETE) on the session's
    connection, in its transaction, with ``parameters`` (a dict, or a list of them for
    many rows); no flush of the session's ORM objects first. It runs on the driver's
    cursor, and on PostgreSQL goes with the transaction's next statement or its
    ``COMMIT`` (:mod:`riverboat.store.statements`)."""
    statements.write(session.connection(), statement, parameters)


def first(session: Session, statement: Executable, parameters: Parameters) -> Any:
    """The first row a Core SELECT (built once) gives, a tuple of its columns, or None;
    as :func:`run` runs it."""
    found = statements.rows(session.connection(), statement, parameters)
    return found[0] if found else None


def scalar(session: Session, statement: Executable, parameters: Parameters) -> Any:
    """The first column of :func:`first`'s row, or None."""
    found = first(session, statement, parameters)
    return None if found is None else found[0]


def inserted(
    session: Session, statement: Executable, values: Parameters, ahead: Sequence[Read] = ()
) -> int:
    """The id of the row that ``statement``, an insert, adds with ``values``; the reads
    ``ahead`` sent with it, on PostgreSQL, for :func:`first` to find
    (:func:`riverboat.store.statements.insert`)."""
    return statements.insert(session.connection(), statement, values, ahead)


def affordable(staked: Cents, balance: Cents) -> None:
    """Refuse wagers that come to more than the balance, saying both.

    >>> affordable(500, 2350)
    >>> affordable(3000, 2350)
    Traceback (most recent call last):
    riverboat.errors.IllegalAction: the wagers come to $30; the balance is $23.50
    """
    if staked > balance:
        raise IllegalAction(
            f"the wagers come to {format_money(staked)}; the balance is {format_money(balance)}"
        )


def request_body(kind: str, request: Mapping[str, object]) -> str:
    """What a transaction of ``kind`` asked for, as it keeps it (JSON, keys sorted).

    >>> request_body("top-up", {"player": 7})
    '{"kind": "top-up", "player": 7}'
    """
    return json.dumps({"kind": kind, **request}, sort_keys=True, default=str)


class Held(NamedTuple):
    """A player's row as :meth:`Ledger.lock` found it: their running balance and how
    many rounds they have been dealt."""

    balance: Cents
    rounds_dealt: int


def player_account(player_id: int) -> str:
    return f"{_PLAYER}{player_id}"


def round_account(round_id: int) -> str:
    return f"round:{round_id}"


class Ledger:
    """Transactions over one database, and the entries they make."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    @property
    def writer(self) -> Engine:
        """The database for transactions that write (:func:`riverboat.store.writer`)."""
        return writer(self.engine)

    def write(self, work: Callable[[Session], T]) -> T:
        """Run ``work`` in a transaction that writes; its result once that transaction
        has committed. A database that does not answer is :class:`Unavailable`. Reads
        need no lock: ``Session(engine)``. ``work`` returns plain values, not rows.

        On SQLite ``work`` joins the next group commit (:mod:`riverboat.store.commits`):
        one transaction for the writes queued together, each in a SAVEPOINT, so what
        ``work`` raises undoes only its own writes. With group commit off, it waits for
        this process's turn to write (:func:`~riverboat.store.write_turn`), then takes
        the write lock as it begins; a lock held by another process is waited for (the
        busy timeout) and, if it was brief, tried again. On PostgreSQL serialization
        failures and deadlocks (should any occur) are tried again after a short random
        pause that grows each time.
        """
        group = grouped(self.engine)
        if group is not None:
            try:
                return group.run(lambda connection: _in_session(connection, work))
            except DBAPIError as error:
                if unreachable(error):
                    raise Unavailable(f"the database did not answer: {reason(error)}") from error
                raise
        turn = write_turn(self.engine)
        began = time.monotonic()
        for attempt in range(RETRIES):
            if turn is not None and not turn.acquire(timeout=TURN_SECONDS):
                raise Unavailable(BUSY)
            try:
                with Session(self.writer) as session, session.begin():
                    return work(session)
            except DBAPIError as error:
                code = getattr(error.orig, "sqlstate", None) or getattr(error.orig, "pgcode", None)
                if code in ("40001", "40P01") and attempt < RETRIES - 1:
                    time.sleep(_JITTER.randbelow(1 + 2 ** min(attempt, 8)) / 1000)
                    continue
                if locked(error) and time.monotonic() - began < LOCKED_RETRY_SECONDS:
                    continue  # rolled back: nothing was written
                if unreachable(error):
                    raise Unavailable(f"the database did not answer: {reason(error)}") from error
                raise
            finally:
                if turn is not None:
                    turn.release()
        raise AssertionError("unreachable")  # pragma: no cover

    def idempotent(
        self,
        player_id: int,
        key: str | None,
        kind: str,
        request: Mapping[str, object],
        work: Callable[[Session, Transaction], M],
        answer_type: type[M],
        ahead: Sequence[Read] = (),
    ) -> M:
        """Do ``work`` once per idempotency key of the player's; a repeat returns the
        stored answer, and the key with another request is a :class:`Conflict`. Keys
        are each player's own: another player's use of the same key is not seen. The
        reads ``work`` begins with, and the ids its INSERTs will take
        (:func:`riverboat.store.statements.next_id`), may be given as ``ahead``: on
        PostgreSQL they go with the transaction's own INSERT (:meth:`transaction`)."""
        body = request_body(kind, request)

        def attempt(session: Session) -> M:
            if key is not None:
                earlier = session.scalar(
                    select(Transaction).where(
                        Transaction.player_id == player_id, Transaction.request_key == key
                    )
                )
                if earlier is not None:
                    if earlier.request != body:
                        raise Conflict(
                            f"idempotency key {key!r} was used for another request; use a new key"
                        )
                    return answer_type.model_validate_json(earlier.response or "{}")
            txn = self.transaction(
                session, kind, player_id, request_key=key, request=body, ahead=ahead
            )
            response = work(session, txn)
            answer = response.model_dump_json()
            run(session, _ANSWERED, {"txn": txn.id, "round": txn.round_id, "response": answer})
            return response

        try:
            return self.write(attempt)
        except IntegrityError:
            if key is None:
                raise
            return self.write(attempt)  # a concurrent twin committed first: its answer

    @staticmethod
    def transaction(
        session: Session,
        kind: str,
        player_id: int | None,
        round_id: int | None = None,
        request_key: str | None = None,
        request: str | None = None,
        ahead: Sequence[Read] = (),
    ) -> Transaction:
        """A new transaction, inserted now (its entries refer to it): the row as a
        :class:`Transaction` outside the session, its ``id`` set. What is set on it
        later is not written, except by :meth:`idempotent` (its round and answer).
        The reads ``ahead`` go with the INSERT, on PostgreSQL in one round trip
        (:func:`inserted`)."""
        txn = Transaction(
            kind=kind,
            player_id=player_id,
            round_id=round_id,
            request_key=request_key,
            request=request,
        )
        values = {
            "kind": kind,
            "player_id": player_id,
            "round_id": round_id,
            "request_key": request_key,
            "request": request,
        }
        txn.id = inserted(session, _NEW_TRANSACTION, values, ahead)
        return txn

    @staticmethod
    def move(session: Session, txn: Transaction, entries: list[tuple[str, Cents]]) -> None:
        """Ledger entries of one transaction, which must sum to zero, written in one
        statement; a player's running balance moves with their account's entries."""
        if sum(amount for _, amount in entries) != 0:
            raise AssertionError(f"ledger entries must sum to zero: {entries}")
        rows = [
            {"transaction_id": txn.id, "account": account, "amount": amount}
            for account, amount in entries
            if amount
        ]
        if not rows:
            return
        run(session, _ENTRIES, rows)
        for account, amount in entries:
            if amount and account.startswith(_PLAYER):
                player = int(account.removeprefix(_PLAYER))
                run(session, _MOVE_BALANCE, {"player": player, "amount": amount})

    @staticmethod
    def lock(session: Session, player_id: int) -> Held:
        """Take the player's row lock: calls that move their money take turns. What the
        row holds as it is locked (read in the same statement)."""
        found = first(session, *Ledger.lock_read(player_id))
        if found is None:
            raise NotFound(f"there is no player {player_id}")
        return Held(int(found[0]), int(found[1]))

    @staticmethod
    def lock_read(player_id: int) -> Read:
        """:meth:`lock`'s statement, to send ahead (:meth:`idempotent`'s ``ahead``)."""
        return _LOCK, {"player": player_id}

    @staticmethod
    def balance(session: Session, player_id: int) -> Cents:
        """The player's running balance (0 for no such player)."""
        return int(scalar(session, _BALANCE, {"player": player_id}) or 0)

    @staticmethod
    def count_round(session: Session, player_id: int) -> None:
        """One more round dealt to the player, in the transaction that stores it."""
        run(session, _COUNT_ROUND, {"player": player_id})

    @staticmethod
    def staked(session: Session, player_id: int) -> Cents:
        """What the player's open rounds hold: money not yet settled back to them."""
        open_rounds = select(RoundRow.id).where(
            RoundRow.player_id == player_id, RoundRow.status == RoundStatus.OPEN
        )
        accounts = [round_account(round_id) for round_id in session.scalars(open_rounds)]
        if not accounts:
            return 0
        total = session.scalar(
            select(func.coalesce(func.sum(LedgerEntry.amount), 0)).where(
                LedgerEntry.account.in_(accounts)
            )
        )
        return int(total or 0)

    @staticmethod
    def held(session: Session, account: str) -> Cents:
        """The sum of an account's entries (what a player's running balance must equal)."""
        total = session.scalar(
            select(func.coalesce(func.sum(LedgerEntry.amount), 0)).where(
                LedgerEntry.account == account
            )
        )
        return int(total or 0)

    def credit(self, session: Session, player_id: int) -> None:
        """A new player's starting play money, from the house."""
        txn = self.transaction(session, "credit", player_id)
        self.move(
            session,
            txn,
            [(player_account(player_id), STARTING_CREDIT), ("house", -STARTING_CREDIT)],
        )

    def top_up(self, player_id: int, idempotency_key: str | None = None) -> Cents:
        """Below $100 of play money, counting what the player's open rounds hold, a
        top-up brings the balance back to $1,000."""

        def work(session: Session, txn: Transaction) -> BalanceView:
            balance = self.lock(session, player_id).balance
            if balance >= TOP_UP_BELOW:
                raise IllegalAction(
                    f"a top-up is for balances below {format_money(TOP_UP_BELOW)}; "
                    f"the balance is {format_money(balance)}"
                )
            staked = self.staked(session, player_id)
            if balance + staked >= TOP_UP_BELOW:
                raise IllegalAction(
                    f"a top-up is for balances below {format_money(TOP_UP_BELOW)}, counting "
                    f"open rounds; the balance is {format_money(balance)} and open rounds "
                    f"hold {format_money(staked)} more: finish them first"
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
        return self.idempotent(
            player_id, idempotency_key, "top-up", request, work, BalanceView
        ).balance


def _in_session(connection: Connection, work: Callable[[Session], T]) -> T:
    """``work`` in a Session of its own on a group commit's connection, inside the
    SAVEPOINT the group made for it: flushed, then closed, so nothing of the Session
    (its rows) outlives the write."""
    with Session(bind=connection, join_transaction_mode="rollback_only") as session:
        result = work(session)
        session.flush()
        return result
