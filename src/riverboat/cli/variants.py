"""``riverboat variant``: a game's rules written as a TOML file a designer edits
(``new``), checked (``check``), its JSON Schema (``schema``) and the hands a rule
may name (``hands``). docs/design.md walks through them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from riverboat.cli._output import write_text
from riverboat.cli.games import GAME_HELP

variant = typer.Typer(
    help="Variants written as files: write one, check it, its schema, the hands it names.",
    no_args_is_help=True,
)

_Game = Annotated[str, typer.Argument(help=GAME_HELP, show_default=False)]
_File = Annotated[Path, typer.Argument(help="A variant file (TOML).", show_default=False)]


def _game(name: str) -> None:
    from riverboat.games import GAMES

    if name not in GAMES:
        raise typer.BadParameter(
            f"{name!r} is not a game; the games are {', '.join(GAMES)}", param_hint="GAME"
        )


@variant.command("new")
def variant_new(
    game: _Game,
    based_on: Annotated[
        str | None,
        typer.Option("--from", help="The named variant to start from (default: the game's)."),
    ] = None,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write here (default: standard output).")
    ] = None,
    force: Annotated[bool, typer.Option(help="Write over a file that is there.")] = False,
) -> None:
    """Write a variant of GAME as a commented TOML file, ready to edit.

    Every pay, qualifier, limit, cap and chip of the variant it starts from."""
    from riverboat.games import find_game
    from riverboat.games.variant_files import variant_text

    _game(game)
    known = find_game(game).variants
    if based_on is not None and based_on not in known:
        raise typer.BadParameter(
            f"{based_on!r} is not a variant of {game}; they are {', '.join(known)}",
            param_hint="--from",
        )
    text = variant_text(game, based_on)
    if output is None:
        typer.echo(text, nl=False)
        return
    write_text(output, text, "--output", force)
    typer.echo(f"wrote {output}: edit it, then `riverboat variant check {output}`", err=True)


@variant.command("check")
def variant_check(file: _File) -> None:
    """Check a variant file: each mistake by its line and field.

    Every mistake is said with what is allowed; a file that plays says so."""
    from riverboat.games.variant_files import VariantError, read_variant

    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise typer.BadParameter(f"cannot read {file}: {error}", param_hint="FILE") from None
    try:
        kind, rules = read_variant(text)
    except VariantError as error:
        for problem in error.problems:
            typer.echo(f"{file}:{problem.removeprefix('line ')}" if problem.startswith("line ")
                       else f"{file}: {problem}", err=True)  # fmt: skip
        count = len(error.problems)
        typer.echo(f"{count} problem{'' if count == 1 else 's'}: not a variant yet", err=True)
        raise typer.Exit(1) from None
    typer.echo(f"{file}: a {kind.title} variant, {rules.variant!r}: it plays")


@variant.command("schema")
def variant_schema(game: _Game) -> None:
    """The JSON Schema of GAME's variant files (for an editor's checks)."""
    from riverboat.games.variant_files import variant_schema as schema

    _game(game)
    typer.echo(json.dumps(schema(game), indent=2))


@variant.command("hands")
def variant_hands(game: _Game) -> None:
    """The hands a rule of GAME may name, weakest first.

    A qualifier, a Bad Beat's least hand: each rule that names a hand, by its name."""
    import dataclasses

    from riverboat.games import find_game
    from riverboat.games.variant_model import hand_names, hand_ranking

    _game(game)
    rules = find_game(game).rules()
    shown = False
    for field in dataclasses.fields(rules):
        ranking = hand_ranking(field)
        if ranking is None:
            continue
        shown = True
        typer.echo(f"{field.name}:")
        typer.echo("  " + ", ".join(hand_names(ranking)))
    if not shown:
        typer.echo(f"no rule of {game} names a hand")
