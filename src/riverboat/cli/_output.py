"""How results leave a command: the --format choices, CSV and Markdown tables, the
files --plot and --strategy write, and a progress bar for long counts."""

from __future__ import annotations

import csv
import io
import json
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:
    from riverboat.analysis import Analysis


class Lines(StrEnum):
    """A line of text or of JSON per item (``play --auto``, ``games``)."""

    text = "text"
    json = "json"


class Format(StrEnum):
    text = "text"
    json = "json"
    csv = "csv"
    markdown = "markdown"


_PLOT_FORMATS = (".png", ".svg", ".pdf")


def _check_writable(path: Path | None, option: str) -> None:
    """Refuse an output path before the work, not after it."""
    if path is None:
        return
    if not path.parent.is_dir():
        raise typer.BadParameter(f"the folder {path.parent} does not exist", param_hint=option)
    if option == "--plot" and path.suffix.lower() not in _PLOT_FORMATS:
        raise typer.BadParameter(
            f"a plot is {', '.join(_PLOT_FORMATS)}, not {path.suffix or 'no extension'}",
            param_hint=option,
        )


def new_file(path: Path, option: str, force: bool) -> None:
    """Refuse to write over a file that is there unless ``force`` (before the work)."""
    if path.exists() and not force:
        raise typer.BadParameter(f"{path} is there already (--force writes over it)",
                                 param_hint=option)  # fmt: skip


def write_text(path: Path, text: str, option: str, force: bool) -> None:
    """``text`` into ``path`` (a file there only with ``force``); a failure named."""
    new_file(path, option, force)
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise typer.BadParameter(f"cannot write {path}: {error.strerror}",
                                 param_hint=option) from None  # fmt: skip


def _write_plot(draw: Callable[[str], object], path: Path) -> None:
    try:
        draw(str(path))
    except OSError as error:
        raise typer.BadParameter(
            f"cannot write {path}: {error.strerror}", param_hint="--plot"
        ) from None


def _csv_table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """Rows as CSV text (the csv module quotes what needs quoting); None is empty."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(["" if value is None else value for value in row] for row in rows)
    return out.getvalue()


def _echo_report(
    output: Format,
    data: Mapping[str, object],
    text: str,
    header: Sequence[str],
    rows: Sequence[Sequence[object]],
    footer: str,
) -> None:
    """A report in the chosen format: ``data`` as JSON, ``text`` as is, ``rows`` as
    CSV, or the text's first line, the rows as a Markdown table and ``footer``; a float
    in Markdown shows five signed decimals."""
    if output is Format.json:
        typer.echo(json.dumps(data, indent=2))
    elif output is Format.text:
        typer.echo(text, nl=False)
    elif output is Format.csv:
        typer.echo(_csv_table(header, rows), nl=False)
    else:
        shown = [[f"{v:+.5f}" if isinstance(v, float) else v for v in row] for row in rows]
        lead = text.splitlines()[0]
        typer.echo(f"{lead}\n\n{_markdown_table(header, shown)}\n{footer}\n", nl=False)


def _markdown_table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """Rows as a Markdown (GitHub) table; a ``|`` inside a cell is escaped."""

    def cell(value: object) -> str:
        return ("-" if value is None else str(value)).replace("|", "\\|")

    lines = ["| " + " | ".join(map(cell, header)) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(map(cell, row)) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def _flat_items(data: Mapping[str, object], prefix: str = "") -> list[list[object]]:
    """A JSON object's leaves as (dotted name, value) rows."""
    rows: list[list[object]] = []
    for key, value in data.items():
        if isinstance(value, Mapping):
            rows += _flat_items(value, f"{prefix}{key}.")
        else:
            rows.append([f"{prefix}{key}", value])
    return rows


def _return_tables_csv(result: Analysis) -> str:
    """Each wager's return table, one row per event; each row also says what the
    wager's figures cover (``scope``) and carries the round's house edge in both
    conventions and its element of risk (empty per Ante where there is no Ante)."""
    figures = result.figures
    per_ante = figures.house_edge_per_ante
    round_figures = [
        "" if per_ante is None else float(per_ante),
        float(figures.house_edge),
        float(figures.element_of_risk),
    ]
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(
        ["wager", "event", "pays", "combinations", "probability", "contribution", "scope",
         "round_house_edge_per_ante", "round_house_edge_per_total_initial_wager",
         "round_element_of_risk"]
    )  # fmt: skip
    for wager in figures.per_wager:
        for row in wager.return_table:
            writer.writerow(
                [wager.name, row.event, float(row.pays), row.combinations,
                 float(row.probability), float(row.contribution),
                 result.wager_scope(wager.name), *round_figures]
            )  # fmt: skip
    return out.getvalue()


@contextmanager
def _progress_bar() -> Iterator[Callable[[int, int], None] | None]:
    """A progress bar on standard error for long counts, when it is a terminal."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task("counting every deal", total=None)
        yield lambda done, total: bar.update(task, completed=done, total=total)
