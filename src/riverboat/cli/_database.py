"""The table service behind a command: --database and --player, and a database that
does not answer said in one line."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

if TYPE_CHECKING:
    from riverboat.table.service import TableService

from riverboat.cli._extras import _need_extra, installed
from riverboat.errors import Refusal, Unavailable

_Database = Annotated[
    str | None,
    typer.Option(
        "--database",
        envvar="RIVERBOAT_DATABASE_URL",
        help="SQLAlchemy URL; default an SQLite file in your data folder.",
    ),
]
_PlayerName = Annotated[
    str | None, typer.Option("--player", help="A named account (asks its password).")
]


def _check_database_url(database: str | None) -> None:
    """A PostgreSQL URL needs the postgres extra's driver; say so before connecting."""
    scheme = (database or "").partition("://")[0].lower()
    dialect, _, driver = scheme.partition("+")
    if dialect not in ("postgresql", "postgres"):
        return
    if driver in ("", "psycopg2") and not installed("psycopg2"):
        typer.echo(
            f"Error: --database: {scheme}:// needs the psycopg2 driver, which is not "
            "installed; use postgresql+psycopg://USER@HOST/DB with "
            "pip install 'riverboat[postgres]'",
            err=True,
        )
        raise typer.Exit(2)
    if driver == "psycopg":
        _need_extra("postgres", "--database postgresql+psycopg://")


def _service(database: str | None) -> TableService:
    _check_database_url(database)
    from riverboat.table.service import TableService

    try:
        return TableService(database)
    except Exception as error:  # a bad URL or an unreachable server, said plainly
        raise typer.BadParameter(
            f"cannot open the database: {error}", param_hint="--database"
        ) from None


def _who(service: TableService, player: str | None) -> int:
    if player is None:
        return int(service.local_player())
    password = typer.prompt(f"Password for {player}", hide_input=True)
    try:
        return int(service.login(player, password))
    except Refusal as error:
        raise typer.BadParameter(str(error), param_hint="--player") from None


def _no_answer(error: Exception, before: str = "") -> NoReturn:
    """The database did not answer (away, or locked by another program for longer than
    the busy timeout): one line on standard error and exit code 1, no traceback."""
    reason = getattr(error, "orig", None) or error
    said = (
        str(error) if isinstance(error, Unavailable) else f"the database did not answer: {reason}"
    )
    typer.echo(f"{before}{said}", err=True)
    raise typer.Exit(1)
