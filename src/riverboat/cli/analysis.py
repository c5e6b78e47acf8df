"""The commands that count and simulate: analyze (exact figures), simulate (Monte
Carlo beside them) and bankroll (sessions until ruin or a target)."""

from __future__ import annotations

import json
import math
import re
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from riverboat.analysis import Analysis
    from riverboat.games import GameRules

from riverboat.cli._extras import _need_extra
from riverboat.cli._output import (
    Format,
    _check_writable,
    _csv_table,
    _echo_report,
    _flat_items,
    _markdown_table,
    _progress_bar,
    _return_tables_csv,
    _write_plot,
)
from riverboat.cli._wagers import _parse_money_wagers, _parse_wagers
from riverboat.cli.games import GAME_HELP
from riverboat.errors import Refusal

#: a Dask scheduler's address: [PROTOCOL://]HOST:PORT, HOST a name or [IPv6]
_SCHEDULER = re.compile(r"(?:[a-z]+://)?(?:\[[0-9A-Fa-f:.]+\]|[^\s:/\[\]]+):[0-9]{1,5}")


def _rules_with_tables(game: str, variant: str | None, tables: list[str]) -> tuple[str, GameRules]:
    """The game and rules a command plays: a named variant, a variant file given as
    GAME or as --variant, and Tri-Card's --paytable choices on top."""
    import inspect

    from riverboat.cli._variant_files import game_and_rules

    game, rules = game_and_rules(game, variant)
    if not tables:
        return game, rules
    kinds = (
        [name for name, p in inspect.signature(rules.with_tables).parameters.items()
         if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
        if hasattr(rules, "with_tables")
        else []
    )  # fmt: skip
    if not kinds:  # only some games choose tables one by one
        raise typer.BadParameter(
            f"{game} has one pay table per variant; choose with --variant", param_hint="--paytable"
        )
    chosen = {}
    for table in tables:
        kind, _, name = table.partition("=")
        key = kind.strip().replace("-", "_")
        if key not in kinds or not name:
            uses = " or ".join(f"{kind.replace('_', '-')}=NAME" for kind in kinds)
            raise typer.BadParameter(f"{table!r}: use {uses}", param_hint="--paytable")
        chosen[key] = name.strip()
    with_tables: GameRules = rules.with_tables(**chosen)  # type: ignore[attr-defined]
    return game, with_tables


class AnalysisFormat(StrEnum):
    """analyze's formats: html is a PAR sheet, a page an operator files."""

    text = "text"
    json = "json"
    csv = "csv"
    markdown = "markdown"
    html = "html"


#: analyze's arguments and options
_Game = Annotated[str, typer.Argument(help=f"{GAME_HELP} Or a variant file (TOML).")]
_Variant = Annotated[
    str | None,
    typer.Option(help="A named rules variant ('standard', '6 decks') or a variant file."),
]
_Paytable = Annotated[
    list[str] | None,
    typer.Option(help="Tri-Card tables: ante-bonus=1-3-4, pair-plus=1-3-6-30-40."),
]
_Wagers = Annotated[
    str | None,
    typer.Option(
        help="Wagers in base units: 'ante,bonus,bad_beat=0.5'. Default: the game's required "
        "wagers (Rabbit Hunter: the Ante alone)."
    ),
]
_AnalyzeOutput = Annotated[
    AnalysisFormat, typer.Option("--format", help="Output format (html: a PAR sheet).")
]
_Page = Annotated[
    Path | None, typer.Option("--output", help="With --format html: write the page here.")
]
_Plot = Annotated[
    Path | None, typer.Option(help="Write a chart of the net result (PNG, SVG or PDF).")
]
_Strategy = Annotated[
    Path | None, typer.Option(help="Write every hand's option values (.csv or .json).")
]


def analyze(
    game: _Game,
    variant: _Variant = None,
    paytable: _Paytable = None,
    wagers: _Wagers = None,
    output: _AnalyzeOutput = AnalysisFormat.text,
    page: _Page = None,
    plot: _Plot = None,
    strategy: _Strategy = None,
) -> None:
    """Exact house edge, element of risk, strategy and return tables of a game."""
    if plot is not None:
        _need_extra("plot", "--plot")
    from riverboat.analysis import analyze as run
    from riverboat.games.rules import RulesError

    try:
        game, rules = _rules_with_tables(game, variant, paytable or [])
        placed = _parse_wagers(wagers) if wagers is not None else None
        if output is AnalysisFormat.html and placed is None:
            from riverboat.analysis.par_sheet import default_wagers

            placed = default_wagers(game)
        elif page is not None and output is not AnalysisFormat.html:
            raise typer.BadParameter(
                "--output writes a PAR sheet: add --format html", param_hint="--output"
            )
        _check_writable(plot, "--plot")
        _check_writable(strategy, "--strategy")
        _check_writable(page, "--output")
        with _progress_bar() as progress:
            result = run(game, rules, placed, progress=progress)
        if plot is not None:
            _write_plot(result.plot, plot)
    except (RulesError, Refusal) as error:
        raise typer.BadParameter(str(error)) from None
    if strategy is not None:
        if result.strategy is None:
            raise typer.BadParameter(f"{game} has no decisions", param_hint="--strategy")
        if strategy.suffix == ".json":
            strategy.write_text(json.dumps(result.strategy.rows()))
        else:
            strategy.write_text(result.strategy.to_csv())
    if output is AnalysisFormat.html:
        _write_par_sheet(result, page)
    elif output is AnalysisFormat.json:
        typer.echo(json.dumps(result.to_json(), indent=2))
    elif output is AnalysisFormat.csv:
        typer.echo(_return_tables_csv(result), nl=False)
    else:
        typer.echo(result.to_text(markdown=output is AnalysisFormat.markdown), nl=False)


def _write_par_sheet(result: Analysis, path: Path | None) -> None:
    """The PAR sheet of an analysis, with the game's rules in words, to ``path`` (or
    standard output)."""
    from riverboat.analysis.par_sheet import card_for, render
    from riverboat.games import find_game
    from riverboat.table.paytables import pay_sections

    sheet = render(result, pay_sections(find_game(result.game), result.rules), card_for(result))
    if path is None:
        typer.echo(sheet, nl=False)
        return
    try:
        path.write_text(sheet, encoding="utf-8")
    except OSError as error:
        raise typer.BadParameter(
            f"cannot write {path}: {error.strerror}", param_hint="--output"
        ) from None
    typer.echo(f"PAR sheet written to {path}", err=True)


def simulate(
    game: _Game,
    rounds: Annotated[int, typer.Option(min=1, help="Rounds to play.")] = 1_000_000,
    strategy: Annotated[
        str, typer.Option(help="optimal, simple, always-play or a CSV file (cards,best).")
    ] = "optimal",
    wagers: Annotated[
        str | None,
        typer.Option(
            help="Wagers in base units: 'ante,bonus'. Default: the game's required wagers."
        ),
    ] = None,
    variant: _Variant = None,
    seed: Annotated[
        int | None, typer.Option(min=0, help="Seed; the same seed, the same result.")
    ] = None,
    workers: Annotated[int, typer.Option(min=1, help="Threads dealing side by side.")] = 1,
    scheduler: Annotated[
        str | None, typer.Option(help="A Dask scheduler, tcp://HOST:PORT (the cluster extra).")
    ] = None,
    output: Annotated[
        Format, typer.Option("--format", help="text, json, csv or markdown.")
    ] = Format.text,
) -> None:
    """Monte Carlo: each wager's house edge with a 95% interval, beside the exact figure."""
    if scheduler is not None:
        _need_extra("cluster", "--scheduler")
        if not _SCHEDULER.fullmatch(scheduler):
            raise typer.BadParameter(
                f"{scheduler!r}: a Dask scheduler's address is tcp://HOST:PORT, "
                "e.g. tcp://10.0.0.5:8786",
                param_hint="--scheduler",
            )
    from riverboat.games.rules import RulesError
    from riverboat.sim import simulate as run

    try:
        game, rules = _rules_with_tables(game, variant, [])
        placed = _parse_wagers(wagers) if wagers is not None else None
        with _progress_bar() as progress:
            result = run(game, rounds, rules, placed, strategy, seed, workers, scheduler, progress)
    except (RulesError, Refusal) as error:
        raise typer.BadParameter(str(error)) from None
    header = ["wager", "house_edge", "ci95_low", "ci95_high", "standard_error", "exact", "z"]
    rows = [
        [name, e.house_edge, *e.interval, e.standard_error, e.exact, e.z]
        for name, e in result.wagers.items()
    ]
    footer = f"Element of risk (per total wagered): {result.element_of_risk:.5f}"
    _echo_report(output, result.to_json(), result.to_text(), header, rows, footer)


def bankroll(
    game: _Game,
    bankroll: Annotated[float, typer.Option(help="Starting bankroll in dollars.")],
    wagers: Annotated[str, typer.Option(help="Wagers in dollars: 'ante=10,bonus=10'.")],
    rounds_per_session: Annotated[int, typer.Option(min=1, help="Rounds in a session.")] = 200,
    sessions: Annotated[int, typer.Option(min=1, help="Sessions to play.")] = 10_000,
    target: Annotated[float | None, typer.Option(help="Stop a session on reaching this.")] = None,
    strategy: Annotated[
        str, typer.Option(help="optimal, simple, always-play or a CSV file.")
    ] = "optimal",
    variant: _Variant = None,
    seed: Annotated[
        int | None, typer.Option(min=0, help="Seed; the same seed, the same result.")
    ] = None,
    plot: Annotated[Path | None, typer.Option(help="Write a histogram and sample paths.")] = None,
    output: Annotated[
        Format, typer.Option("--format", help="text, json, csv or markdown.")
    ] = Format.text,
) -> None:
    """How a bankroll fares: ruin, reaching a target, rounds survived, session results."""
    if plot is not None:
        _need_extra("plot", "--plot")
    from riverboat.games import find_game
    from riverboat.games.rules import RulesError
    from riverboat.sim.bankroll import bankroll as run

    for name, value in (("--bankroll", bankroll), ("--target", target)):
        if value is not None and not (math.isfinite(value) and value > 0):
            raise typer.BadParameter(f"a positive number of dollars, not {value}", param_hint=name)
    try:
        _check_writable(plot, "--plot")
        game, rules = _rules_with_tables(game, variant, [])
        study = run(
            game,
            round(bankroll * 100),
            _parse_money_wagers(wagers, find_game(game).new_round(rules).spots),
            rounds_per_session,
            sessions,
            None if target is None else round(target * 100),
            strategy,
            seed,
            rules,
        )
        if plot is not None:
            _write_plot(study.plot, plot)
    except (RulesError, Refusal) as error:
        raise typer.BadParameter(str(error)) from None
    if output is Format.json:
        typer.echo(json.dumps(study.to_json(), indent=2))
    elif output is Format.text:
        typer.echo(study.to_text(), nl=False)
    else:
        rows = _flat_items(study.to_json())
        if output is Format.csv:
            typer.echo(_csv_table(["measure", "value"], rows), nl=False)
        else:
            typer.echo(_markdown_table(["measure", "value"], rows), nl=False)
