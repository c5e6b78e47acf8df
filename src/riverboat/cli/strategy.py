"""The strategy command: a card a person can memorise, from the exact tables, with
what following it costs against the optimal play."""

from __future__ import annotations

from typing import Annotated

import typer

from riverboat.cli._output import Format, _echo_report, _progress_bar
from riverboat.cli._wagers import _parse_wagers
from riverboat.errors import Refusal


def strategy(
    game: Annotated[
        str,
        typer.Argument(
            help="A game played against a dealer (riverboat games lists them), or a variant file."
        ),
    ],
    wagers: Annotated[
        str | None,
        typer.Option(
            help="Wagers in base units: 'ante,bonus,bad_beat'. Default: the game's required wagers."
        ),
    ] = None,
    variant: Annotated[
        str | None, typer.Option(help="A named rules variant ('standard') or a variant file.")
    ] = None,
    output: Annotated[Format, typer.Option("--format", help="Output format.")] = Format.text,
) -> None:
    """A strategy card: short rules, the first that matches wins, and their exact cost."""
    from riverboat.analysis.kept_cards import kept_card
    from riverboat.analysis.strategy_cards import percent_cost
    from riverboat.cli._variant_files import game_and_rules
    from riverboat.games.rules import RulesError

    try:
        placed = _parse_wagers(wagers) if wagers is not None else None
        game, rules = game_and_rules(game, variant)
        with _progress_bar() as progress:
            card = kept_card(game, rules, wagers=placed, progress=progress)
    except (RulesError, Refusal) as error:
        raise typer.BadParameter(str(error)) from None
    rows = [
        [n, rule.label, rule.hands, percent_cost(cost)]
        for n, (rule, cost) in enumerate(zip(card.rules, card.rule_costs, strict=True), 1)
    ]
    header = ["rule", "action", "hands", "cost per hand (% of the Ante)"]
    _echo_report(output, card.to_json(), card.to_text(), header, rows, card.summary())
