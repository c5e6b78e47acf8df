"""``riverboat operator``: who may use the back office. The role is granted and revoked
here, by whoever runs the server's database, and never through the web; each grant
and revoke is a row of the operators' log, with the reason given."""

from __future__ import annotations

import getpass
from typing import Annotated

import typer

from riverboat.cli import _database
from riverboat.cli._database import _Database, _no_answer
from riverboat.errors import Refusal, Unavailable

operator = typer.Typer(
    help="The back office's operators: grant, revoke, list (never through the web).",
    no_args_is_help=True,
)

_Name = Annotated[str, typer.Argument(help="A named account (it has a password).")]
_Reason = Annotated[
    str, typer.Option("--reason", help="Why, for the operators' log (1 to 500 characters).")
]


def _by() -> str:
    """Who ran the command, as the log names them."""
    try:
        user = getpass.getuser()
    except (KeyError, OSError):  # no name for this user id (a container's)
        user = "unknown"
    return f"command line ({user})"


def _set(name: str, reason: str, database: str | None, granting: bool) -> None:
    from sqlalchemy.exc import DBAPIError

    from riverboat.table.office.actions import check_reason, grant, revoke

    try:
        check_reason(reason)
    except Refusal as error:
        raise typer.BadParameter(str(error), param_hint="--reason") from None
    service = _database._service(database)
    change = grant if granting else revoke
    try:
        typer.echo(change(service.engine, name, by=_by(), reason=reason))
    except Refusal as error:
        if isinstance(error, Unavailable):
            _no_answer(error)
        raise typer.BadParameter(str(error), param_hint="NAME") from None
    except DBAPIError as error:
        _no_answer(error)


@operator.command("grant")
def operator_grant(name: _Name, reason: _Reason, database: _Database = None) -> None:
    """Make the account an operator: it logs in as before and may open /office."""
    _set(name, reason, database, granting=True)


@operator.command("revoke")
def operator_revoke(name: _Name, reason: _Reason, database: _Database = None) -> None:
    """The account is no longer an operator: its next request to the back office is
    refused, whatever session it holds."""
    _set(name, reason, database, granting=False)


@operator.command("list")
def operator_list(database: _Database = None) -> None:
    """The operators now, and the log's grants and revokes, newest first."""
    from sqlalchemy import select
    from sqlalchemy.orm import Session

    from riverboat.store.models import Player
    from riverboat.table.office.actions import ACTIONS_LIMIT, actions

    service = _database._service(database)
    with Session(service.engine) as session:
        names = session.scalars(
            select(Player.name).where(Player.operator.is_(True)).order_by(Player.name)
        ).all()
    typer.echo(f"Operators: {', '.join(names) if names else 'none'}")
    for action in actions(service.engine, limit=ACTIONS_LIMIT, operators=True):
        typer.echo(
            f"{action.at:%Y-%m-%d %H:%M:%S}  {action.action:<6} {action.player}  "
            f"by {action.by}: {action.reason}"
        )
