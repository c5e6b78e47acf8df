"""Operators and their log: who may use the back office, and every thing done from it.

The role is granted and revoked only from the command line (:func:`grant`,
``riverboat operator grant NAME``), never through the web. Every operator action, and
every grant and revoke, is a row of ``operator_actions``, only ever added to (the
store refuses an update or a delete): who, when, what, to whom, why. An action that
touches a player's account (a credit or debit, a lock, an unlock, their sessions
ended) is also a transaction of theirs, so it shows in the player's own history
(:mod:`riverboat.table.accounts.credits`); :func:`log_problems` is the audit's check
that the two agree, one action row for each such transaction and no more.

>>> from riverboat.table.service import TableService
>>> service = TableService("sqlite://")
>>> ann = service.register("ann", "a password")
>>> grant(service.engine, "ann", by="root", reason="runs the Friday game")
'ann is an operator now'
>>> [(a.action, a.player, a.by) for a in actions(service.engine)]
[('grant', 'ann', 'root')]
>>> grant(service.engine, "ann", by="root", reason="again")
Traceback (most recent call last):
...
riverboat.errors.Conflict: ann is an operator already
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import cast, get_args

from sqlalchemy import Engine, or_, select
from sqlalchemy.orm import Session, aliased

from riverboat.errors import Conflict, IllegalAction, NotFound
from riverboat.store.models import LedgerEntry, OperatorAction, Player, Transaction
from riverboat.table.accounts.ledger import Ledger, player_account
from riverboat.table.office.views import ActionKind, ActionView

__all__ = [
    "ACCOUNT_ACTIONS",
    "ACTIONS_LIMIT",
    "REASON_LENGTH",
    "actions",
    "check_reason",
    "grant",
    "log_problems",
    "record",
    "revoke",
]

#: the longest reason an action keeps; the most actions one page lists
REASON_LENGTH, ACTIONS_LIMIT = 500, 200
#: the actions that are also a transaction of the player's, by the transaction's kind
ACCOUNT_ACTIONS: dict[str, ActionKind] = {
    "adjustment": "credit",  # or "debit": the sign of the player's entry says which
    "lock": "lock",
    "unlock": "unlock",
    "end-sessions": "end_sessions",
}
Detail = Mapping[str, int | str | bool | None]


def check_reason(reason: str) -> str:
    """The reason an operator gives, stripped: 1 to :data:`REASON_LENGTH` characters
    of readable text, or :class:`IllegalAction` saying so.

    >>> check_reason("  goodwill after an outage ")
    'goodwill after an outage'
    >>> check_reason(" ")
    Traceback (most recent call last):
    ...
    riverboat.errors.IllegalAction: a reason is 1 to 500 characters of text, no control characters
    """
    stripped = reason.strip()
    readable = all(ch.isprintable() or ch == " " for ch in stripped)
    if not 1 <= len(stripped) <= REASON_LENGTH or not readable:
        raise IllegalAction(
            f"a reason is 1 to {REASON_LENGTH} characters of text, no control characters"
        )
    return stripped


def record(
    session: Session,
    *,
    by: str,
    action: ActionKind,
    reason: str,
    operator_id: int | None = None,
    player_id: int | None = None,
    transaction_id: int | None = None,
    detail: Detail | None = None,
) -> int:
    """One row of the log, in the transaction ``session`` writes in; its id."""
    row = OperatorAction(
        by=by,
        action=action,
        reason=reason,
        operator_id=operator_id,
        player_id=player_id,
        transaction_id=transaction_id,
        detail=json.dumps(dict(detail), sort_keys=True) if detail else None,
    )
    session.add(row)
    session.flush()
    return row.id


def _set_role(engine: Engine, name: str, by: str, reason: str, operator: bool) -> str:
    """The named player made an operator, or no longer one, with the log's row."""
    from riverboat.table.accounts.names import name_key  # ICU: only to find a name

    why = check_reason(reason)
    action: ActionKind = "grant" if operator else "revoke"

    def work(session: Session) -> str:
        player = session.scalar(
            select(Player)
            .where(or_(Player.name == name, Player.name_key == name_key(name)))
            .order_by((Player.name == name).desc())  # the exact name before a look-alike
            .limit(1)
        )
        if player is None:
            raise NotFound(f"there is no player named {name!r}")
        if player.password_hash is None:
            raise IllegalAction(
                f"{player.name} has no password: an operator logs in, and confirms each "
                "movement of money with their password"
            )
        if player.operator == operator:
            raise Conflict(f"{player.name} is {'an' if operator else 'not an'} operator already")
        player.operator = operator
        record(session, by=by, action=action, reason=why, player_id=player.id)
        return f"{player.name} is {'an operator now' if operator else 'no longer an operator'}"

    return Ledger(engine).write(work)


def grant(engine: Engine, name: str, by: str, reason: str) -> str:
    """Make the named player an operator (the command line's ``by``); what was done."""
    return _set_role(engine, name, by, reason, operator=True)


def revoke(engine: Engine, name: str, by: str, reason: str) -> str:
    """The named player is no longer an operator: their next request to the back office
    is refused, whatever session they hold."""
    return _set_role(engine, name, by, reason, operator=False)


def actions(
    engine: Engine,
    player_id: int | None = None,
    limit: int = 50,
    before: int | None = None,
    operators: bool = False,
) -> list[ActionView]:
    """The log, newest first: every action, or those on one player; with ``before`` (an
    action's id) the next page; with ``operators``, only grants and revokes."""
    if not 1 <= limit <= ACTIONS_LIMIT:
        raise IllegalAction(f"the log shows 1 to {ACTIONS_LIMIT} actions at a time, not {limit}")
    subject = aliased(Player)
    query = (
        select(OperatorAction, subject.name)
        .outerjoin(subject, subject.id == OperatorAction.player_id)
        .order_by(OperatorAction.id.desc())
        .limit(limit)
    )
    if player_id is not None:
        query = query.where(OperatorAction.player_id == player_id)
    if before is not None:
        query = query.where(OperatorAction.id < before)
    if operators:
        query = query.where(OperatorAction.action.in_(["grant", "revoke"]))
    with Session(engine) as session:
        return [_view(row, name) for row, name in session.execute(query)]


def _view(row: OperatorAction, player: str | None) -> ActionView:
    return ActionView(
        id=row.id,
        at=row.at,
        by=row.by,
        action=cast(ActionKind, row.action),
        player=player,
        player_id=row.player_id,
        transaction_id=row.transaction_id,
        reason=row.reason,
        detail=json.loads(row.detail) if row.detail else {},
    )


def log_problems(session: Session) -> list[str]:
    """What the audit finds wrong between the log and the ledger: a transaction of an
    operator's without its one row in the log (or with more), a row whose transaction
    is another player's or another kind, an action the log does not know, a credit or
    debit whose amount is not what the player's entry moved."""
    problems: list[str] = []
    known = set(get_args(ActionKind))
    logged: dict[int, list[OperatorAction]] = {}
    for row in session.scalars(select(OperatorAction).order_by(OperatorAction.id)):
        if row.action not in known:
            problems.append(f"operator action {row.id}: unknown action {row.action!r}")
        if row.transaction_id is not None:
            logged.setdefault(row.transaction_id, []).append(row)
        elif row.action in ACCOUNT_ACTIONS.values() or row.action == "debit":
            problems.append(f"operator action {row.id}: a {row.action} with no transaction")
    made = session.execute(
        select(Transaction.id, Transaction.kind, Transaction.player_id).where(
            Transaction.kind.in_(list(ACCOUNT_ACTIONS))
        )
    ).all()
    for txn, kind, player in made:
        rows = logged.pop(txn, [])
        if len(rows) != 1:
            problems.append(f"transaction {txn} ({kind}): {len(rows)} rows in the operators' log")
            continue
        problems += _row_problems(session, rows[0], txn, kind, player)
    problems += [
        f"operator action {rows[0].id}: transaction {txn} is not an operator's"
        for txn, rows in logged.items()
    ]
    return problems


def _row_problems(
    session: Session, row: OperatorAction, txn: int, kind: str, player: int | None
) -> list[str]:
    """One transaction of an operator's against its row of the log."""
    problems = []
    if row.player_id != player:
        problems.append(f"operator action {row.id}: player {row.player_id}, transaction {player}")
    moved = session.scalar(
        select(LedgerEntry.amount).where(
            LedgerEntry.transaction_id == txn,
            LedgerEntry.account == player_account(player or 0),
        )
    )
    expected = ACCOUNT_ACTIONS[kind]
    if kind == "adjustment":
        expected = "credit" if (moved or 0) > 0 else "debit"
        amount = json.loads(row.detail or "{}").get("amount")
        if amount != abs(moved or 0):
            problems.append(f"operator action {row.id}: amount {amount}, the ledger moved {moved}")
    elif moved:
        problems.append(f"operator action {row.id}: a {kind} moved {moved} cents")
    if row.action != expected:
        problems.append(f"operator action {row.id}: {row.action}, transaction {txn} is a {kind}")
    return problems
