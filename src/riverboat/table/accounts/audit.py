"""Audit and recovery: re-settle every stored round against the ledger, check each
player's running balance against their entries, and after a crash void the rounds
that never reached their player's first decision (G7)."""

from __future__ import annotations

from sqlalchemy import func, select, text
from sqlalchemy.orm import Session

from riverboat.store.models import Deal, LedgerEntry, Player, RoundRow, Transaction
from riverboat.table.accounts.ledger import Ledger, player_account, round_account
from riverboat.table.office.actions import log_problems
from riverboat.table.rounds.own import Rounds
from riverboat.table.rounds.rows import resume
from riverboat.table.states import RoundStatus

__all__ = ["Audit", "one_snapshot"]


class Audit:
    """Checks and repairs over one ledger's database."""

    def __init__(self, ledger: Ledger, rounds: Rounds) -> None:
        self.ledger, self.rounds = ledger, rounds

    def recover(self) -> list[int]:
        """After a crash: open rounds still waiting for the player's first decision are
        void and refunded (G7); rounds past it stay open and resume with the same cards."""

        def work(session: Session) -> list[int]:
            voided = []
            for row in session.scalars(
                select(RoundRow).where(RoundRow.status == RoundStatus.OPEN)
            ).all():
                try:
                    game_round = resume(row)
                except ValueError:
                    continue  # a damaged record: left for audit to report
                if game_round.player_decided:
                    continue  # past the first decision: it resumes with the same cards
                game_round.void("interrupted before the first decision")
                self.rounds.store(session, row, game_round)
                voided.append(row.id)
            in_play = select(RoundRow.deal_id).where(
                RoundRow.status == RoundStatus.OPEN, RoundRow.deal_id.is_not(None)
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

        return self.ledger.write(work)

    def audit(self) -> list[str]:
        """Re-settle every stored round and check the ledger, the players' running
        balances and the operators' log against the transactions it made; the problems
        found."""
        problems = []
        with Session(self.ledger.engine) as session:
            one_snapshot(session)
            problems += _balance_problems(session)
            for row in session.scalars(select(RoundRow).order_by(RoundRow.id)).all():
                problems += _round_problems(session, row)
            unbalanced = session.execute(
                select(LedgerEntry.transaction_id, func.sum(LedgerEntry.amount))
                .group_by(LedgerEntry.transaction_id)
                .having(func.sum(LedgerEntry.amount) != 0)
            ).all()
            problems += [f"transaction {t}: entries sum to {s}, not 0" for t, s in unbalanced]
            problems += log_problems(session)
        return problems


def one_snapshot(session: Session) -> None:
    """``session``, made to read the database as of one moment: on PostgreSQL its
    transaction is read-only REPEATABLE READ, so its statements share one snapshot
    (READ COMMITTED gives each its own, and would see a round settle between two of
    them); SQLite's deferred transaction already reads one snapshot of its WAL. Set
    by the transaction's first statement, not on the pooled connection (a pre-ping
    leaves that in a transaction, where psycopg refuses to change it).

    >>> from riverboat.store import connect
    >>> from sqlalchemy import text
    >>> with Session(connect("sqlite://")) as session:
    ...     one_snapshot(session)  # SQLite: nothing to set
    ...     session.execute(text("SELECT 1")).scalar()
    1
    """
    if session.get_bind().dialect.name == "postgresql":
        session.execute(text("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY"))


def _balance_problems(session: Session) -> list[str]:
    """The players whose running balance is not the sum of their account's entries."""
    query = (
        select(LedgerEntry.account, func.sum(LedgerEntry.amount))
        .where(LedgerEntry.account.like("player:%"))
        .group_by(LedgerEntry.account)
    )
    sums: dict[str, int] = {account: total for account, total in session.execute(query)}  # noqa: C416
    problems = []
    running = select(Player.id, Player.balance).order_by(Player.id)
    for player_id, balance in session.execute(running):
        total = int(sums.get(player_account(player_id)) or 0)
        if balance != total:
            problems.append(
                f"player {player_id}: the running balance is {balance} cents, "
                f"the entries sum to {total}"
            )
    return problems


def _round_problems(session: Session, row: RoundRow) -> list[str]:
    """What is wrong with one stored round: its record, what its account holds, what
    its player's entries come to."""
    try:
        game_round = resume(row)
    except ValueError as error:
        return [f"round {row.id}: {error}"]
    problems = []
    held = Ledger.held(session, round_account(row.id))
    staked = sum(p.staked for p in game_round.positions)
    expected = staked if row.status == RoundStatus.OPEN else 0
    if held != expected:
        problems.append(f"round {row.id}: holds {held} cents, expected {expected}")
    paid = session.scalar(
        select(func.coalesce(func.sum(LedgerEntry.amount), 0))
        .join(Transaction, Transaction.id == LedgerEntry.transaction_id)
        .where(
            Transaction.round_id == row.id,
            LedgerEntry.account == player_account(row.player_id),
        )
    )
    owed = {RoundStatus.OPEN: -staked, RoundStatus.VOID: 0}.get(
        RoundStatus(row.status), game_round.net()
    )
    if paid != owed:
        problems.append(
            f"round {row.id}: the player's entries come to {paid} cents, the record says {owed}"
        )
    if row.status != RoundStatus.OPEN and not game_round.settled:
        problems.append(f"round {row.id}: stored {row.status} but its record is not settled")
    return problems
