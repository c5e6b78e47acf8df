"""``riverboat accounts``: named play-money accounts."""

from __future__ import annotations

from typing import Annotated

import typer

from riverboat.cli import _database
from riverboat.cli._database import _Database, _PlayerName, _who
from riverboat.errors import Refusal

#: what a name may be, as riverboat.table.accounts.names.NAME_RULE says it (kept here so the help
#: needs no import of the table package; tests/test_accounts.py checks they agree)
NAME_HELP = (
    "1 to 24 characters: letters and digits of one writing system, and _ - or ., "
    "beginning with a letter or digit."
)

accounts = typer.Typer(
    help="Play-money accounts (the local player needs none).", no_args_is_help=True
)


@accounts.command("create")
def accounts_create(
    name: Annotated[str, typer.Argument(help=NAME_HELP)],
    database: _Database = None,
) -> None:
    """Create a named account with its starting play money; asks for a password."""
    from riverboat.money import format_money
    from riverboat.table.accounts.names import PASSWORD_RULE, check_name, check_password, reserved

    try:  # the name first, so a name that cannot be is said before any password
        reserved(check_name(name))
    except Refusal as error:
        raise typer.BadParameter(str(error), param_hint="NAME") from None
    service = _database._service(database)
    password = typer.prompt(
        f"Password ({PASSWORD_RULE.removeprefix('a password is ')})",
        hide_input=True,
        confirmation_prompt=True,
    )
    try:
        check_password(password)
    except Refusal as error:
        raise typer.BadParameter(str(error), param_hint="password") from None
    try:
        player = service.register(name, password)
    except Refusal as error:
        raise typer.BadParameter(str(error), param_hint="NAME") from None
    typer.echo(
        f"Account {service.name(player)} created with "
        f"{format_money(service.balance(player))} of play money."
    )


@accounts.command("balance")
def accounts_balance(player: _PlayerName = None, database: _Database = None) -> None:
    """The play-money balance."""
    from riverboat.money import format_money

    service = _database._service(database)
    typer.echo(format_money(service.balance(_who(service, player))))


@accounts.command("top-up")
def accounts_top_up(player: _PlayerName = None, database: _Database = None) -> None:
    """Below $100, bring the balance back to $1,000 of play money."""
    from riverboat.money import format_money

    service = _database._service(database)
    try:
        typer.echo(f"Balance: {format_money(service.top_up(_who(service, player)))}")
    except Refusal as error:
        raise typer.BadParameter(str(error)) from None
