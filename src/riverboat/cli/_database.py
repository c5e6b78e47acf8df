"""The table service behind a command: --database and --player, and a database that
does not answer said in one line."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
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


#: the databases riverboat keeps its tables in, by URL scheme's dialect
_POSTGRES = ("postgresql", "postgres")
_DIALECTS = ("sqlite", *_POSTGRES)
_FORMS = "an SQLite file is sqlite:///PATH, PostgreSQL postgresql+psycopg://USER@HOST/DB"


def _refuse_database(why: str) -> NoReturn:
    """``why`` said on standard error as a bad --database, and exit code 2."""
    typer.echo(f"Error: --database: {why}", err=True)
    raise typer.Exit(2)


def _check_database_url(database: str | None) -> None:
    """Before connecting: the URL is one of an SQLite file or a PostgreSQL database, in
    SQLAlchemy's form, and a PostgreSQL URL's driver is installed.

    >>> _check_database_url("sqlite:///games.db")  # nothing said: it may be opened
    >>> _check_database_url("games.db")  # said on standard error, with the URL it means
    Traceback (most recent call last):
    typer.exceptions.Exit: 2
    """
    if database is None:
        return
    if "://" not in database:
        example = f"sqlite:///{Path(database).expanduser().resolve()}"
        _refuse_database(f"{database!r} is not a database URL; {_FORMS} (this file: {example})")
    scheme = database.partition("://")[0].lower()
    dialect, _, driver = scheme.partition("+")
    if dialect not in _DIALECTS:
        _refuse_database(
            f"riverboat keeps its tables in SQLite or PostgreSQL, not {dialect!r}; {_FORMS}"
        )
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError

    try:
        make_url(database)
    except (ArgumentError, ValueError) as error:
        _refuse_database(f"{database!r} is not a database URL ({error}); {_FORMS}")
    if dialect not in _POSTGRES:
        return
    if driver in ("", "psycopg2") and not installed("psycopg2"):
        _refuse_database(
            f"{scheme}:// needs the psycopg2 driver, which is not installed; use "
            "postgresql+psycopg://USER@HOST/DB with pip install 'riverboat[postgres]'"
        )
    if driver == "psycopg":
        _need_extra("postgres", "--database postgresql+psycopg://")


def _service(database: str | None) -> TableService:
    _check_database_url(database)
    from riverboat.table.service import TableService

    with _opening():
        return TableService(database)


@contextmanager
def _opening() -> Iterator[None]:
    """What fails while the database is opened (a bad URL, a server that does not
    answer, a folder that is not there) said as a bad --database, not a traceback."""
    try:
        yield
    except Exception as error:
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
