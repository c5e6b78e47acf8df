"""Baccarat, punto banco (B1-B8): everything riverboat knows about it, and its one
definition, :data:`GAME`.

``play`` holds the rules, drawing rules, settlement, spec, round and shoe;
``analysis`` how the analyzer and the simulator meet it, ``exact`` its exact
outcomes; ``words`` its circles and pay tables in words. A shoe's roads (its
scoreboard) are :mod:`riverboat.games.roads`, drawn from the coups' winners.
"""

from __future__ import annotations

from riverboat.games.baccarat import analysis, words
from riverboat.games.baccarat.play import (
    BaccaratRound,
    BaccaratRules,
    BaccaratTable,
    banker_draws,
    card_values,
    coup,
    coup_totals,
    player_draws,
    settle,
    spec,
    winner,
)
from riverboat.games.definition import GameDefinition, variants

__all__ = [
    "GAME",
    "BaccaratRound",
    "BaccaratRules",
    "BaccaratTable",
    "banker_draws",
    "card_values",
    "coup",
    "coup_totals",
    "player_draws",
    "settle",
    "spec",
    "winner",
]

GAME: GameDefinition[BaccaratRules] = GameDefinition(
    name="baccarat",
    title="Baccarat",
    rules_type=BaccaratRules,
    round_type=BaccaratRound,
    variants=variants(BaccaratRules(), BaccaratRules.six_decks()),
    make_spec=spec,
    math=analysis.MATH,
    line_words=words.line_words,
    pay_sections=words.pay_sections,
    how_to_play=words.how_to_play,
)
