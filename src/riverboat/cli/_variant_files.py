"""A command's game and rules from its GAME argument and --variant: a named variant,
or a variant file (``riverboat variant new`` writes one) given as either."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:
    from riverboat.games import GameRules


def a_file(given: str) -> bool:
    """Whether a GAME or --variant given names a variant file (TOML) rather than a name."""
    return given.endswith(".toml") or Path(given).is_file()


def game_and_rules(game: str, variant: str | None) -> tuple[str, GameRules]:
    """The game's name and its rules: GAME a game and --variant a name or a file, or
    GAME a variant file (then no --variant). A file that is not a variant, or a variant
    of another game, is refused with every mistake named."""
    from riverboat.games import find_game
    from riverboat.games.variant_files import VariantError, read_variant

    if a_file(game) or (variant is not None and a_file(variant)):
        if a_file(game) and variant is not None:
            raise typer.BadParameter("a variant file is the whole variant: leave out --variant",
                                     param_hint="--variant")  # fmt: skip
        path = Path(game if a_file(game) else str(variant))
        hint = "GAME" if a_file(game) else "--variant"
        try:
            kind, rules = read_variant(path)
        except OSError as error:
            raise typer.BadParameter(
                f"cannot read {path}: {error.strerror}", param_hint=hint
            ) from None
        except VariantError as error:
            said = "; ".join(error.problems)
            raise typer.BadParameter(f"{path} is not a variant: {said}", param_hint=hint) from None
        if not a_file(game) and kind.name != game:
            raise typer.BadParameter(f"{path} is a {kind.title} variant, not {game}'s",
                                     param_hint="--variant")  # fmt: skip
        return kind.name, rules
    return game, find_game(game).rules(variant)  # RulesError: no such game or variant
