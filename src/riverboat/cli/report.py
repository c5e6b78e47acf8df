"""``riverboat report``: each game's hold against theory over a period
(:mod:`riverboat.table.office.hold`), as a table, JSON or CSV."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from textwrap import wrap
from typing import TYPE_CHECKING, Annotated

import typer

from riverboat.cli import _database
from riverboat.cli._database import _Database, _no_answer
from riverboat.cli._output import _csv_table
from riverboat.errors import Unavailable

if TYPE_CHECKING:
    from riverboat.table.office.views import HoldReport, HoldRow


class ReportFormat(StrEnum):
    text = "text"
    json = "json"
    csv = "csv"


class Bucket(StrEnum):
    hour = "hour"
    day = "day"


_WHEN = "a date or a time: 2026-12-01, 2026-12-01T18:30 (UTC unless it gives a zone: +01:00)"
_Since = Annotated[
    str | None, typer.Option("--since", help="Rounds settled from then on; " + _WHEN + ".")
]
_Until = Annotated[str | None, typer.Option("--until", help="Rounds settled before then.")]
_Game = Annotated[str | None, typer.Option("--game", help="One game (riverboat games lists them).")]
_Band = Annotated[
    float,
    typer.Option(
        "--band",
        help="The two-sided probability of the band around the expected win; "
        "beyond it the alarm rings (0.999: |z| > 3.29).",
    ),
]
_Bucketed = Annotated[
    Bucket | None,
    typer.Option(
        "--bucket", help="The series' step (JSON): hour or day; default by the period's span."
    ),
]
_Output = Annotated[
    ReportFormat,
    typer.Option("--format", help="text (a table), json (the report with its series), csv."),
]


def report(
    since: _Since = None,
    until: _Until = None,
    game: _Game = None,
    band: _Band = 0.999,
    bucket: _Bucketed = None,
    output: _Output = ReportFormat.text,
    database: _Database = None,
) -> None:
    """Hold against theory: each game, variant and table's win over the period beside
    the exact analysis' for the wagers placed and the decisions made, with z and an
    alarm outside the band."""
    from sqlalchemy.exc import DBAPIError

    from riverboat.errors import IllegalAction
    from riverboat.games import find_game
    from riverboat.games.rules import RulesError
    from riverboat.table.office.hold import hold_report, period, z_limit

    start, end = _when(since, "--since"), _when(until, "--until")
    try:
        z_limit(band)
    except IllegalAction as error:
        raise typer.BadParameter(str(error), param_hint="--band") from None
    try:
        period(start, end)
    except IllegalAction as error:
        raise typer.BadParameter(str(error), param_hint="--since/--until") from None
    if game is not None:
        try:
            find_game(game)
        except RulesError as error:
            raise typer.BadParameter(str(error), param_hint="--game") from None
    service = _database._service(database)
    try:
        found = hold_report(
            service, start, end, game, band, None if bucket is None else bucket.value
        )
    except (DBAPIError, Unavailable) as error:
        _no_answer(error)
    if output is ReportFormat.json:
        typer.echo(found.model_dump_json(indent=2))
    elif output is ReportFormat.csv:
        typer.echo(_csv_table(_CSV_HEADER, [_csv_row(row) for row in found.rows]), nl=False)
    else:
        typer.echo(text(found), nl=False)


def _when(given: str | None, option: str) -> datetime | None:
    """A date or time as typed, or a message naming the option and the forms it takes."""
    if given is None:
        return None
    try:
        return datetime.fromisoformat(given.strip())
    except ValueError:
        raise typer.BadParameter(f"{given!r} is not {_WHEN}", param_hint=option) from None


_CSV_HEADER = [
    "game", "variant", "table", "rounds", "wagered_cents", "initial_cents", "house_win_cents",
    "hold", "edge_optimal", "edge_optimal_exact", "edge_played", "edge_played_exact",
    "decisions", "best", "decision_cost_cents", "expected_cents", "std_dev_cents", "z",
    "alarm", "unweighed", "unweighed_reasons",
]  # fmt: skip


def _csv_row(row: HoldRow) -> list[object]:
    reasons = "; ".join(f"{why}: {count}" for why, count in row.unweighed_reasons.items())
    return [
        row.game, row.variant, row.table, row.rounds, row.wagered, row.initial, row.house_win,
        row.hold, row.edge_optimal, row.edge_optimal_exact, row.edge_played,
        row.edge_played_exact, row.decisions, row.best, row.decision_cost, row.expected,
        row.std_dev, row.z, row.alarm, row.unweighed, reasons,
    ]  # fmt: skip


def text(found: HoldReport) -> str:
    """The report as a table for people, with what the figures mean and what was left
    out under it."""
    from riverboat.money import format_money

    def money(cents: float) -> str:
        return format_money(round(cents))

    def share(value: float | None, places: int = 2) -> str:
        return "-" if value is None else f"{value:.{places}%}"

    begins = "the first round" if found.since is None else _at(found.since)
    ends = "the last" if found.until is None else _at(found.until)
    lines = [
        f"Hold against theory, {begins} to {ends}: the alarm rings beyond |z| "
        f"{found.z_limit:.2f} (band {found.band:.1%})",
        "",
    ]
    if not found.rows:
        return "\n".join([*lines, "No round was settled in the period.", ""])
    header = ["game", "variant", "table", "rounds", "wagered", "house win", "hold",
              "edge optimal", "edge played", "expected", "std dev", "z", ""]  # fmt: skip
    rows = [
        [row.game, row.variant, row.table, f"{row.rounds:,}", money(row.wagered),
         money(row.house_win), share(row.hold), share(row.edge_optimal, 4),
         share(row.edge_played, 4), money(row.expected), money(row.std_dev),
         "-" if row.z is None else f"{row.z:+.2f}", "ALARM" if row.alarm else ""]
        for row in found.rows
    ]  # fmt: skip
    right = {3, 4, 5, 6, 7, 8, 9, 10, 11}
    widths = [max(len(line[i]) for line in [header, *rows]) for i in range(len(header))]
    for line in [header, *rows]:
        cells = [
            c.rjust(w) if i in right else c.ljust(w)
            for i, (c, w) in enumerate(zip(line, widths, strict=True))
        ]
        lines.append("  ".join(cells).rstrip())
    lines += ["", *wrap(_MEANING, 88)]
    for row in found.rows:
        name = f"{row.game} {row.variant} ({row.table})"
        if row.decisions:
            said = (
                "all the best play."
                if row.best == row.decisions
                else f"{row.best:,} the best play; the others gave up "
                f"{money(row.decision_cost)} in expected value."
            )
            lines += wrap(
                f"{name}: {row.decisions:,} decision{'s' * (row.decisions != 1)}, {said}",
                88,
                subsequent_indent="  ",
            )
        if row.unweighed:
            why = ", ".join(
                f"{reason} {count:,}" for reason, count in row.unweighed_reasons.items()
            )
            lines += wrap(
                f"{name}: {row.unweighed:,} round{'s' * (row.unweighed != 1)} not weighed "
                f"({why}), left out of every figure.",
                88,
                subsequent_indent="  ",
            )
    return "\n".join(lines) + "\n"


_MEANING = (
    "hold: house win / wagered (every stake, the decisions' too). edge: the exact house edge "
    "per initial wager under optimal play, and under the decisions made (optimal plus what "
    "each decision gave up against the best one for its hand). expected: the house's "
    "expected win for the decisions made; z = (house win - expected) / std dev."
)


def _at(at: datetime) -> str:
    return at.strftime("%Y-%m-%d %H:%M UTC")
