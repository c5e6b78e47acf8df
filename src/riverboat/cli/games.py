"""``riverboat games``: the games installed, riverboat's own and the plug-ins'."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from riverboat.cli._output import Lines

#: what a command's GAME argument says
GAME_HELP = "A game's name (riverboat games lists them)."


def games(
    output: Annotated[Lines, typer.Option("--format", help="text or json.")] = Lines.text,
) -> None:
    """The games installed: each one's name, title, variants and package."""
    from importlib.metadata import packages_distributions

    from riverboat.games import GAMES

    distributions = packages_distributions()
    rows = []
    for game in GAMES.values():
        package = game.rules_type.__module__.partition(".")[0]
        rows.append(
            {
                "name": game.name,
                "title": game.title,
                "variants": list(game.variants),
                "package": package,
                "distribution": (distributions.get(package) or [package])[0],
            }
        )
    if output is Lines.json:
        typer.echo(json.dumps(rows, indent=2))
        return
    width = max(len(row["name"]) for row in rows)
    for row in rows:
        variants = ", ".join(row["variants"])
        typer.echo(
            f"{row['name']:<{width}}  {row['title']} ({variants}) from {row['distribution']}"
        )
