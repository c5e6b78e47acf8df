"""The ``riverboat`` command: every user mistake ends in a clear message, exit code 2.

riverboat serve                      the tables in the browser
riverboat games                      the games installed (riverboat's and plug-ins')
riverboat play [GAME]                the tables in the terminal; --auto for scripts
riverboat deal / deck / name         a fair showdown, a deck re-derived, a hand named
riverboat analyze GAME               exact house edge, strategy and return tables
riverboat strategy GAME              a strategy card to memorise, and what it costs
riverboat variant / compare / design variants as files, side by side, pay tables searched
riverboat simulate / bankroll GAME   Monte Carlo beside the exact figures; sessions
riverboat accounts create|balance|top-up, history, verify, audit, recover
riverboat report                     each game's hold against theory over a period
riverboat operator grant|revoke|list  the back office's operators (never through the web)
riverboat cache [clear]              the analyses' tables kept on this machine

The commands live in ``games``, ``cards``, ``analysis``, ``strategy``, ``variants``,
``compare``, ``design``, ``rounds``, ``report``, ``tables`` and ``accounts``; what several
share in ``_extras``, ``_wagers``, ``_output``, ``_variant_files`` and ``_database``. This
module builds the app and registers them in the order ``riverboat --help`` lists them.
"""

from __future__ import annotations

from typing import Annotated

import typer

from riverboat.cli.accounts import accounts
from riverboat.cli.analysis import analyze, bankroll, simulate
from riverboat.cli.cache import cache
from riverboat.cli.cards import deal, deck, name
from riverboat.cli.compare import compare
from riverboat.cli.design import design
from riverboat.cli.games import games
from riverboat.cli.operators import operator
from riverboat.cli.report import report
from riverboat.cli.rounds import audit, history, recover, verify
from riverboat.cli.strategy import strategy
from riverboat.cli.tables import play, serve
from riverboat.cli.variants import variant

# Only the standard library and Typer at import time: `riverboat --help` and the
# commands that compute nothing start at once. numpy, numba, SQLAlchemy, the games,
# the analyzer, the simulator and the front ends load inside the commands using them.

def _version(show: bool) -> None:
    if show:
        from riverboat import __version__

        typer.echo(f"riverboat {__version__}")
        raise typer.Exit()


def main(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version."),
    ] = False,
) -> None:
    """riverboat: casino table games, dealt fairly, with every number behind them exact."""
    from riverboat.settings import forget

    forget()  # a command reads the environment's settings as it is then


#: the commands, then the groups of commands, in the order ``riverboat --help`` lists them
COMMANDS = (
    games, deal, deck, name, analyze, strategy, compare, design, simulate, bankroll,
    history, verify, audit, recover, report, serve, play,
)  # fmt: skip
GROUPS = {"accounts": accounts, "operator": operator, "cache": cache, "variant": variant}


def _app(only: str | None = None) -> typer.Typer:
    """The ``riverboat`` app with every command, or with only the one called ``only``
    (and the options before it): Typer builds every command's parameters before it
    runs one, so a command run alone skips building the others'.

    >>> [command.callback.__name__ for command in _app("history").registered_commands]
    ['history']
    >>> len(_app().registered_commands), len(_app().registered_groups)
    (17, 4)
    """
    made = typer.Typer(
        help="riverboat: casino table games, dealt fairly, with every number behind them exact.",
        no_args_is_help=True,
        add_completion=False,
    )
    made.callback()(main)
    for command in COMMANDS:
        if only in (None, command.__name__):
            made.command()(command)
    for group_name, group in GROUPS.items():
        if only in (None, group_name):
            made.add_typer(group, name=group_name)
    return made


def _called(arguments: list[str]) -> str | None:
    """The command or group that ``arguments`` name first, if they name one.

    >>> _called(["--version"]), _called(["history", "-n", "3"]), _called(["histroy"])
    (None, 'history', None)
    """
    named = {command.__name__ for command in COMMANDS} | set(GROUPS)
    for argument in arguments:
        if not argument.startswith("-"):
            return argument if argument in named else None
    return None


def run() -> None:
    """The commands, in this process: a setting the environment holds that is not
    allowed said in one line (it is read when first needed, not at every start).
    Ends by raising ``SystemExit``, as Typer does."""
    import os
    import sys

    from riverboat.settings import SettingsError

    # no command's work leans on BLAS (integer products, one-row dot products): OpenBLAS
    # gets one thread, not one per core started at numpy's import (docs/settings.md)
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    only = _called(sys.argv[1:])
    try:
        (app if only is None else _app(only))(prog_name="riverboat")
    except SettingsError as error:
        typer.echo(f"Error: {error} (docs/settings.md)", err=True)
        raise SystemExit(2) from None


def run_and_exit() -> None:
    """``riverboat``, the process: :func:`run`, started without the collector's passes
    over what it loads and ended as the command did, without the interpreter's
    teardown (:mod:`riverboat.cli._process`)."""
    from riverboat.cli._process import finish, start

    start()
    try:
        run()
    except SystemExit as done:
        finish(done.code)
    finish(None)


#: every command: ``riverboat --help``, a mistyped command's suggestions, the tests
app = _app()

__all__ = ["app", "run", "run_and_exit"]
