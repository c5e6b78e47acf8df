"""``riverboat design``: pay tables searched to a target, exactly."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from riverboat.cli._output import Lines, _check_writable, _progress_bar, new_file, write_text
from riverboat.cli._wagers import _parse_wagers

if TYPE_CHECKING:
    from riverboat.analysis.design import Design, Target

_VARY = (
    "A pay and its values: 'pair_plus.Flush=3..5', 'ante_bonus.Straight=1..2:0.5', "
    "'tie_pays=8,9'. Give it once per pay."
)


def _bands(edge: str | None, hit: str | None, spread: str | None) -> Target:
    from riverboat.analysis.design import Band, Target
    from riverboat.games.rules import RulesError

    bands = []
    for text, option, percent in (
        (edge, "--edge", True),
        (hit, "--hit-frequency", True),
        (spread, "--std-dev", False),
    ):
        try:
            bands.append(Band() if text is None else Band.parse(text, option, percent))
        except RulesError as error:
            said = str(error).removeprefix(f"{option}: ")
            raise typer.BadParameter(said, param_hint=option) from None
    return Target(*bands)


def _write(found: Design, path: Path, force: bool) -> None:
    """The best candidate as a variant file named for the file (``pp-flush-3.toml``
    is the variant "pp-flush-3")."""
    import dataclasses

    from riverboat.games import find_game
    from riverboat.games.variant_files import rules_text

    if not found.best:
        raise typer.BadParameter("no candidate meets the target: nothing to write",
                                 param_hint="--write")  # fmt: skip
    rules = dataclasses.replace(found.best[0][1].rules, variant=path.stem[:60])  # type: ignore[type-var]
    text = rules_text(find_game(found.game), rules)
    write_text(path, text, "--write", force)
    typer.echo(f"wrote {path}: `riverboat analyze {path}` or serve it at a table", err=True)


def design(
    game: Annotated[
        str,
        typer.Argument(help="A game, or a variant file (TOML) to start from.", metavar="GAME"),
    ],
    vary: Annotated[list[str], typer.Option("--vary", help=_VARY, show_default=False)],
    variant: Annotated[
        str | None, typer.Option(help="The named variant (or variant file) to start from.")
    ] = None,
    edge: Annotated[
        str | None,
        typer.Option(help="Keep a house edge in this band, in percent: '2..3', '..2.5'."),
    ] = None,
    hit_frequency: Annotated[
        str | None, typer.Option(help="Keep a hit frequency in this band, in percent: '30..'.")
    ] = None,
    std_dev: Annotated[
        str | None,
        typer.Option(help="Keep a standard deviation per initial wager in this band: '..3'."),
    ] = None,
    wagers: Annotated[
        str | None,
        typer.Option(
            help="Wagers in base units. Default: the wagers the pays settle (a side wager "
            "alone; with a required wager, the required wagers)."
        ),
    ] = None,
    rank: Annotated[
        str,
        typer.Option(
            help="Order: target (edge nearest the band's middle), edge (lowest), "
            "hit (highest hit frequency), spread (lowest std dev)."
        ),
    ] = "target",
    top: Annotated[int, typer.Option(help="How many candidates to show, each exact.")] = 10,
    write: Annotated[
        Path | None,
        typer.Option(help="Write the best candidate here as a variant file, named for it."),
    ] = None,
    force: Annotated[bool, typer.Option(help="With --write: write over a file.")] = False,
    output: Annotated[Lines, typer.Option("--format", help="text or json.")] = Lines.text,
) -> None:
    """Search pay tables to a target: every combination of the varied pays weighed,
    each with its own optimal strategy, the best ranked and analysed exactly.

    The house edge is per Ante where an Ante is placed, else per total initial wager
    (a side wager alone: its own edge). Counting is done once; each candidate after
    it costs milliseconds.
    """
    from riverboat.analysis.design import Rank, search
    from riverboat.analysis.design import vary as parse_vary
    from riverboat.cli._variant_files import game_and_rules
    from riverboat.games.rules import RulesError

    try:
        ranked = Rank(rank)
    except ValueError:
        raise typer.BadParameter(
            f"{rank!r}: one of {', '.join(Rank)}", param_hint="--rank"
        ) from None
    target = _bands(edge, hit_frequency, std_dev)
    game, rules = game_and_rules(game, variant)
    placed = _parse_wagers(wagers) if wagers is not None else None
    try:
        varies = [parse_vary(rules, given) for given in vary]
    except RulesError as error:
        raise typer.BadParameter(str(error), param_hint="--vary") from None
    if write is not None:  # refused before the search, not after it
        _check_writable(write, "--write")
        new_file(write, "--write", force)
    try:
        with _progress_bar() as progress:
            found = search(game, rules, varies, placed, target, ranked, top, progress)
    except RulesError as error:
        raise typer.BadParameter(str(error)) from None
    if output is Lines.json:
        typer.echo(json.dumps(found.to_json(), indent=2))
    else:
        typer.echo(found.to_text(), nl=False)
    if write is not None:
        _write(found, write, force)
