"""``riverboat accounts``: named play-money accounts."""

from __future__ import annotations

from typing import Annotated

import typer

from riverboat.cli import _database
from riverboat.cli._database import _Database, _PlayerName, _who
from riverboat.errors import Refusal

accounts = typer.Typer(
    help="Play-money accounts (the local player needs none).", no_args_is_help=True
)


@accounts.command("create")
def accounts_create(
    name: Annotated[str, typer.Argument(help="1 to 64 letters, digits, - or _.")],
    database: _Database = None,
) -> None:
    """Create a named account with its starting play money; asks for a password."""
    from riverboat.money import format_money

    service = _database._service(database)
    password = typer.prompt(
        "Password (8 characters or more)", hide_input=True, confirmation_prompt=True
    )
    try:
        player = service.register(name, password)
    except Refusal as error:
        raise typer.BadParameter(str(error), param_hint="NAME") from None
    typer.echo(
        f"Account {name} created with {format_money(service.balance(player))} of play money."
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
