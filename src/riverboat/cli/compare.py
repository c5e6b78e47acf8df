"""``riverboat compare``: variants of one game side by side, exactly."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated

import typer

from riverboat.cli._output import Lines, _progress_bar

if TYPE_CHECKING:
    from riverboat.analysis.compare import Comparison
    from riverboat.games import GameRules

_HELP = "Variants: a variant file, GAME (its default variant) or GAME:VARIANT ('baccarat:6 decks')."


def _rules(given: str) -> GameRules:
    from riverboat.cli._variant_files import a_file, game_and_rules

    if a_file(given):
        return game_and_rules(given, None)[1]
    game, _, variant = given.partition(":")
    return game_and_rules(game, variant or None)[1]


def _percent(value: object) -> str:
    return "-" if value is None else f"{float(value):.4%}"  # type: ignore[arg-type]


def _text(found: Comparison) -> str:
    names = [c.variant for c in found.columns]
    width = max(14, *(len(n) + 2 for n in names))
    placed = ", ".join(f"{name} {units}" for name, units in found.wagers.items())
    rows: list[tuple[str, list[str]]] = [
        ("house edge per Ante", [_percent(c.house_edge_per_ante) for c in found.columns]),
        ("per total initial wager", [_percent(c.house_edge) for c in found.columns]),
        ("element of risk", [_percent(c.element_of_risk) for c in found.columns]),
        ("std dev per total initial wager", [f"{c.std_dev:.4f}" for c in found.columns]),
        ("hit frequency", [_percent(c.hit_frequency) for c in found.columns]),
        ("strategy card's cost / Ante", [_percent(c.card_cost) for c in found.columns]),
    ]
    wagers = dict.fromkeys(w for c in found.columns for w in c.wager_edges)
    rows += [(f"{w}: its own house edge", [_percent(c.wager_edges.get(w)) for c in found.columns])
             for w in wagers]  # fmt: skip
    for event in found.differing_lines():
        cells = []
        for column in found.columns:
            row = column.net_table.get(event)
            cells.append("-" if row is None else f"{float(row.probability):.4g}")
        rows.append((f"P({event})", cells))
    label = max(len(r[0]) for r in rows)
    lines = [f"{found.game}: the round with {placed}; each optional wager's own edge below", ""]
    lines.append(" " * label + "".join(f"{n:>{width}}" for n in names))
    lines += [f"{name:<{label}}" + "".join(f"{c:>{width}}" for c in cells) for name, cells in rows]
    return "\n".join(lines) + "\n"


def compare(
    variants: Annotated[list[str], typer.Argument(help=_HELP, show_default=False)],
    output: Annotated[Lines, typer.Option("--format", help="text or json.")] = Lines.text,
) -> None:
    """Variants of one game side by side: house edge, risk, spread, each wager alone.

    Exact figures under the game's required wagers, the strategy card's cost and the
    return table's lines that differ."""
    from riverboat.analysis.compare import compare as run
    from riverboat.games.rules import RulesError

    try:
        chosen = [_rules(given) for given in variants]
        with _progress_bar() as progress:
            found = run(chosen, progress)
    except (RulesError, ValueError) as error:
        raise typer.BadParameter(str(error), param_hint="VARIANTS") from None
    if output is Lines.json:
        typer.echo(json.dumps(found.to_json(), indent=2))
    else:
        typer.echo(_text(found), nl=False)
