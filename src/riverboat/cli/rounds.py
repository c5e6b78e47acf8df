"""The commands about stored rounds: history, verify, audit and recover."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from riverboat.cli import _database
from riverboat.cli._database import _Database, _no_answer, _PlayerName, _who
from riverboat.cli._output import Format, _csv_table, _markdown_table
from riverboat.errors import Unavailable

if TYPE_CHECKING:
    from riverboat.table.service import TableService


def _deals_from_shoe(game: object) -> bool:
    """Whether ``game`` names a game whose rounds deal on from one shoe (B1)."""
    from riverboat.games import GAMES

    return isinstance(game, str) and game in GAMES and GAMES[game].spec().shoe is not None


#: history's options
_Rounds = Annotated[int, typer.Option("-n", "--rounds", min=1, max=1000, help="How many.")]
_Before = Annotated[
    int | None, typer.Option("--before", min=1, help="Only rounds older than this round id.")
]
_HistoryOutput = Annotated[
    Format, typer.Option("--format", help="text, json (records with seeds), csv or markdown.")
]
_Credits = Annotated[
    bool,
    typer.Option(
        "--credits",
        help="The account's changes instead (starting credit, top-ups, the house's "
        "adjustments and locks, with its reasons); --before takes a credit's id.",
    ),
]


def history(
    rounds: _Rounds = 20,
    before: _Before = None,
    player: _PlayerName = None,
    database: _Database = None,
    output: _HistoryOutput = Format.text,
    credits: _Credits = False,
) -> None:
    """The last rounds, newest first; JSON gives each round's record and seeds.
    ``--before`` the oldest id shown gives the next page. ``--credits``: the starting
    credit and each top-up instead."""
    from sqlalchemy.exc import DBAPIError

    from riverboat.money import format_money

    service = _database._service(database)
    if credits:
        _credits(service, _who(service, player), rounds, before, output)
        return
    try:
        found = service.history(_who(service, player), rounds, before=before)
    except (DBAPIError, Unavailable) as error:
        _no_answer(error)
    if output is Format.json:
        typer.echo(json.dumps([item.model_dump(mode="json") for item in found], indent=2))
        return
    # the round's own net: other rounds may have been played between its balances
    if output is Format.csv:
        header = ["id", "played_at", "game", "status", "net_cents", "balance_after_cents"]
        rows = [[i.id, i.played_at, i.game, i.status, i.net, i.balance_after] for i in found]
        typer.echo(_csv_table(header, rows), nl=False)
        return

    def money(cents: int | None, signed: bool = False) -> str:
        return "-" if cents is None else format_money(cents, signed=signed)

    if output is Format.markdown:
        header = ["round", "played at", "game", "status", "net", "balance after"]
        rows = [
            [f"#{i.id}", i.played_at[:19], i.game, i.status,
             money(i.net, signed=True), money(i.balance_after)]
            for i in found
        ]  # fmt: skip
        typer.echo(_markdown_table(header, rows), nl=False)
        return
    for item in found:
        typer.echo(
            f"#{item.id:<6} {item.played_at[:19]}  {item.game:<14} {item.status:<8} "
            f"{money(item.net, signed=True):>10}  balance {money(item.balance_after)}"
        )


def _credits(
    service: TableService, player_id: int, limit: int, before: int | None, output: Format
) -> None:
    """``riverboat history --credits``: the player's credits, newest first."""
    from sqlalchemy.exc import DBAPIError

    from riverboat.money import format_money

    try:
        found = service.credits(player_id, limit, before)
    except (DBAPIError, Unavailable) as error:
        _no_answer(error)
    if output is Format.json:
        typer.echo(json.dumps([item.model_dump(mode="json") for item in found], indent=2))
        return
    if output is Format.csv:
        header = ["id", "at", "kind", "amount_cents", "balance_after_cents", "reason"]
        rows = [
            [c.id, c.at.isoformat(), c.kind, c.amount, c.balance_after, c.reason or ""]
            for c in found
        ]
        typer.echo(_csv_table(header, rows), nl=False)
        return

    def after(cents: int | None) -> str:
        return "-" if cents is None else format_money(cents)

    lines = [
        [f"#{c.id}", c.at.strftime("%Y-%m-%d %H:%M:%S"), _CREDIT_NAMES[c.kind],
         format_money(c.amount, signed=True), after(c.balance_after), c.reason or ""]
        for c in found
    ]  # fmt: skip
    if output is Format.markdown:
        header = ["credit", "at (UTC)", "kind", "amount", "balance after", "reason"]
        typer.echo(_markdown_table(header, lines), nl=False)
        return
    for ident, at, kind, amount, balance, why in lines:
        reason = f"  ({why})" if why else ""
        typer.echo(f"{ident:<7} {at}  {kind:<16} {amount:>10}  balance {balance}{reason}")


#: how the command line names each kind of credit (riverboat.table.views.CreditKind)
_CREDIT_NAMES = {
    "start": "starting credit",
    "top_up": "top-up",
    "adjustment": "house adjustment",
    "locked": "locked",
    "unlocked": "unlocked",
    "sessions_ended": "sessions ended",
}


def verify(
    path: Annotated[
        Path,
        typer.Argument(
            help="A round, or a list of them, as `riverboat history --format json` gives; "
            "a list of one Baccarat shoe's coups is checked as a whole shoe too."
        ),
    ],
) -> None:
    """Re-derive a round's cards from its seeds and re-settle it."""
    # the database-free verifier alone: no SQLAlchemy, no table service
    from riverboat.table.rounds.verify import balance_note, verify_round, verify_shoe

    try:
        data = json.loads(path.read_text())
    except OSError as error:
        raise typer.BadParameter(
            f"cannot read {path}: {error.strerror}", param_hint="PATH"
        ) from None
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise typer.BadParameter(f"{path} is not JSON", param_hint="PATH") from None
    items = data if isinstance(data, list) else [data]
    failed = 0
    for number, item in enumerate(items, 1):
        if not isinstance(item, dict):
            problems = [
                f"not a round record: a round is a JSON object as `riverboat history "
                f"--format json` gives, not {type(item).__name__}"
            ]
        else:
            try:
                problems = verify_round(item)
            except (KeyError, TypeError, ValueError) as error:
                problems = [f"not a round record ({error})"]
        name = f"round {item.get('id', '?')}" if isinstance(item, dict) else f"item {number}"
        if problems:
            failed += 1
            typer.echo(f"{name}: FAILED: " + "; ".join(problems))
        else:
            typer.echo(f"{name}: verified: the seed matches its commitment, the cards come "
                       "from the seeds and the settlement replays")  # fmt: skip
            note = balance_note(item) if isinstance(item, dict) else None
            if note:
                typer.echo(f"{name}: note: {note}")
    shoe = [i for i in items if isinstance(i, dict) and _deals_from_shoe(i.get("game"))]
    if len(shoe) > 1 and len(shoe) == len(items) and not failed:  # a whole shoe (B1)
        problems = verify_shoe(shoe)
        failed += bool(problems)
        typer.echo(
            f"shoe: FAILED: {'; '.join(problems)}"
            if problems
            else f"shoe: verified: its {len(shoe)} coups run end to end from the burn"
        )
    if failed:
        raise typer.Exit(1)


def audit(database: _Database = None) -> None:
    """Re-settle every stored round and check the ledger; exit 1 on any mismatch."""
    service = _database._service(database)
    problems = service.audit()
    for problem in problems:
        typer.echo(problem)
    typer.echo(f"{len(problems)} problem(s)" if problems else "audit clean: every round re-settles")
    if problems:
        raise typer.Exit(1)


def recover(database: _Database = None) -> None:
    """After a crash: void and refund rounds still waiting for the first decision (G7)."""
    voided = _database._service(database).recover()
    typer.echo(
        f"voided and refunded: {', '.join(map(str, voided))}" if voided else "nothing to recover"
    )
