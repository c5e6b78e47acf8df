"""Players and their money as an operator sees and changes them.

An operator finds a player by name, reads their file (balance, open rounds, history,
account, the back office's actions on them), credits or debits play money with a
reason, locks or unlocks the account, and ends its sessions. Each change is one
transaction: a ledger movement (for money) or an entry-less transaction of the
player's (a lock, an unlock, sessions ended), so it shows in the player's own
history, and the log's row (:mod:`riverboat.table.office.actions`) in the same
commit. Money is never edited: a debit is entries that sum to zero, like any other.
An operator acts on other players' accounts, never their own.

>>> from riverboat.table.service import TableService
>>> service = TableService("sqlite://")
>>> boss, ann = service.register("boss", "a password"), service.register("ann", "a password")
>>> office = service.office
>>> office.adjust(boss, ann, 2500, "goodwill: the table froze").balance
102500
>>> office.adjust(boss, ann, -200_000, "a mistake")
Traceback (most recent call last):
...
riverboat.errors.IllegalAction: a debit of $2,000 is more than the balance, $1,025
>>> [(c.kind, c.amount, c.reason) for c in service.credits(ann)][0]
('adjustment', 2500, 'goodwill: the table froze')
"""

from __future__ import annotations

import json

from sqlalchemy import Engine, select, update
from sqlalchemy.orm import Session

from riverboat.errors import Forbidden, IllegalAction, NotFound
from riverboat.money import Cents, format_money
from riverboat.store.models import Player, RoundRow, Transaction
from riverboat.table.accounts.credits import credits
from riverboat.table.accounts.ledger import Ledger, player_account
from riverboat.table.accounts.names import name_key
from riverboat.table.office import actions
from riverboat.table.office.recall import recall
from riverboat.table.office.views import (
    ActionKind,
    AdjustedView,
    PlayerFile,
    PlayerFound,
    RecallView,
)
from riverboat.table.rounds.own import Rounds
from riverboat.table.states import RoundStatus

__all__ = ["FOUND_LIMIT", "LARGEST_ADJUSTMENT", "NOT_AN_OPERATOR", "BackOffice"]

#: the most players a search lists; the largest credit or debit, in cents ($1,000,000)
FOUND_LIMIT, LARGEST_ADJUSTMENT = 50, 100_000_000
#: the one refusal of the back office to a session that is not an operator's
NOT_AN_OPERATOR = "the back office is for operators; this account is not one"
#: how much of the player's history and account their file shows
FILE_ROUNDS = 20


class BackOffice:
    """What operators do, over one ledger's database."""

    def __init__(self, ledger: Ledger, rounds: Rounds) -> None:
        self.ledger, self.rounds = ledger, rounds

    @property
    def engine(self) -> Engine:
        return self.ledger.engine

    def operator(self, player_id: int) -> str:
        """The operator's name, read now (a revoke or a lock counts at once), or
        :class:`Forbidden` for any other player."""
        with Session(self.engine) as session:
            found = session.execute(
                select(Player.name, Player.operator, Player.locked).where(Player.id == player_id)
            ).first()
        if found is None or not found.operator or found.locked:
            raise Forbidden(NOT_AN_OPERATOR)
        return str(found.name)

    def find(self, text: str, limit: int = FOUND_LIMIT) -> list[PlayerFound]:
        """Players whose name begins with ``text``, or looks as if it did (by the
        names' key), the exact name first; at most ``limit``."""
        wanted = text.strip()
        if not 1 <= len(wanted) <= 64:
            raise IllegalAction("search for 1 to 64 characters of a name")
        if not 1 <= limit <= FOUND_LIMIT:
            raise IllegalAction(f"a search lists 1 to {FOUND_LIMIT} players, not {limit}")
        query = (
            select(Player)
            .where(
                Player.name.startswith(wanted, autoescape=True)
                | Player.name_key.startswith(name_key(wanted), autoescape=True)
            )
            .order_by((Player.name == wanted).desc(), Player.name)
            .limit(limit)
        )
        with Session(self.engine) as session:
            return [_found(player) for player in session.scalars(query)]

    def player_file(self, player_id: int, sessions: int) -> PlayerFile:
        """Everything the back office shows of one player (``sessions``: how many they
        hold open, which the web layer counts)."""
        with Session(self.engine) as session:
            player = session.get(Player, player_id)
            if player is None:
                raise NotFound(f"there is no player {player_id}")
            open_rows = session.scalars(
                select(RoundRow)
                .where(RoundRow.player_id == player_id, RoundRow.status == RoundStatus.OPEN)
                .order_by(RoundRow.id)
            ).all()
            shown = [self.rounds.shown(session, row, balance=player.balance) for row in open_rows]
            found = _found(player)
        return PlayerFile(
            **found.model_dump(),
            created_at=player.created_at,
            rounds_dealt=player.rounds_dealt,
            sessions=sessions,
            open_rounds=shown,
            history=self.rounds.history(player_id, FILE_ROUNDS),
            account=credits(self.engine, player_id, FILE_ROUNDS),
            actions=actions.actions(self.engine, player_id, FILE_ROUNDS),
        )

    def adjust(self, operator_id: int, player_id: int, amount: Cents, reason: str) -> AdjustedView:
        """Credit (``amount`` above 0) or debit (below 0) the player's play money from
        or to the house, with the reason shown to them; a debit takes no more than
        the balance. The transaction and the log's row in one commit."""
        why = actions.check_reason(reason)
        if not 1 <= abs(amount) <= LARGEST_ADJUSTMENT:
            raise IllegalAction(
                f"a credit or debit is 1 cent to {format_money(LARGEST_ADJUSTMENT)}, "
                f"not {format_money(abs(amount))}"
            )
        kind: ActionKind = "credit" if amount > 0 else "debit"

        def work(session: Session) -> AdjustedView:
            name = self._other(session, operator_id, player_id)
            balance = self.ledger.lock(session, player_id).balance
            if balance + amount < 0:
                raise IllegalAction(
                    f"a debit of {format_money(-amount)} is more than the balance, "
                    f"{format_money(balance)}"
                )
            txn = self.ledger.transaction(session, "adjustment", player_id)
            self.ledger.move(
                session, txn, [(player_account(player_id), amount), ("house", -amount)]
            )
            after = balance + amount
            _answered(session, txn.id, {"balance": after, "reason": why})
            detail = {"amount": abs(amount), "balance": after}
            actions.record(
                session, by=name, action=kind, reason=why, operator_id=operator_id,
                player_id=player_id, transaction_id=txn.id, detail=detail,
            )  # fmt: skip
            return AdjustedView(transaction_id=txn.id, amount=amount, balance=after)

        return self.ledger.write(work)

    def set_locked(self, operator_id: int, player_id: int, locked: bool, reason: str) -> None:
        """Lock the account (log-in refused, saying the reason, until it is unlocked;
        the web layer ends its sessions too) or unlock it."""
        why = actions.check_reason(reason)

        def work(session: Session) -> None:
            name = self._other(session, operator_id, player_id)
            changed = session.execute(
                update(Player)
                .where(Player.id == player_id, Player.locked != locked)
                .values(locked=locked)
            ).rowcount  # type: ignore[attr-defined]
            if not changed:
                raise IllegalAction(
                    f"the account is {'locked' if locked else 'not locked'} already"
                )
            self._entry_less(session, name, operator_id, player_id, locked, why)

        self.ledger.write(work)

    def _entry_less(
        self, session: Session, name: str, operator_id: int, player_id: int, locked: bool,
        why: str,
    ) -> None:  # fmt: skip
        kind: ActionKind = "lock" if locked else "unlock"
        txn = self.ledger.transaction(session, kind, player_id)
        _answered(session, txn.id, {"reason": why})
        actions.record(
            session, by=name, action=kind, reason=why, operator_id=operator_id,
            player_id=player_id, transaction_id=txn.id,
        )  # fmt: skip

    def sessions_ended(self, operator_id: int, player_id: int, ended: int, reason: str) -> None:
        """Log that the web layer ended ``ended`` sessions of the player's."""
        why = actions.check_reason(reason)

        def work(session: Session) -> None:
            name = self._other(session, operator_id, player_id)
            txn = self.ledger.transaction(session, "end-sessions", player_id)
            _answered(session, txn.id, {"reason": why, "ended": ended})
            actions.record(
                session, by=name, action="end_sessions", reason=why, operator_id=operator_id,
                player_id=player_id, transaction_id=txn.id, detail={"ended": ended},
            )  # fmt: skip

        self.ledger.write(work)

    def check_target(self, operator_id: int, player_id: int) -> None:
        """:meth:`_other`'s refusals, before anything is done (ending sessions)."""
        with Session(self.engine) as session:
            self._other(session, operator_id, player_id)

    def locked(self, player_id: int) -> str | None:
        """Why the account is locked (the reason of its last lock), or None."""
        with Session(self.engine) as session:
            if not session.scalar(select(Player.locked).where(Player.id == player_id)):
                return None
            response = session.scalar(
                select(Transaction.response)
                .where(Transaction.player_id == player_id, Transaction.kind == "lock")
                .order_by(Transaction.id.desc())
                .limit(1)
            )
        reason = json.loads(response or "{}").get("reason")
        return str(reason) if reason else "locked by the house"

    def recall(self, round_id: int) -> RecallView:
        """Any round by id: :func:`~riverboat.table.office.recall.recall`."""
        return recall(self.rounds, round_id)

    def _other(self, session: Session, operator_id: int, player_id: int) -> str:
        """The operator's name, acting on another player who exists; else a refusal."""
        if operator_id == player_id:
            raise Forbidden("an operator does not act on their own account: ask another")
        wanted = select(Player.id, Player.name).where(Player.id.in_([operator_id, player_id]))
        names: dict[int, str] = {row.id: row.name for row in session.execute(wanted)}
        if player_id not in names:
            raise NotFound(f"there is no player {player_id}")
        return names[operator_id]


def _found(player: Player) -> PlayerFound:
    return PlayerFound(
        id=player.id,
        name=player.name,
        balance=player.balance,
        locked=player.locked,
        operator=player.operator,
    )


def _answered(session: Session, txn: int, response: dict[str, object]) -> None:
    """What a transaction of the back office answered: the balance it left and its
    reason, which the player's history shows."""
    session.execute(
        update(Transaction).where(Transaction.id == txn).values(response=json.dumps(response))
    )
