"""Crazy 4 Poker (C1-C8): everything riverboat knows about it, and its one
definition, :data:`GAME`.

``play`` holds the rules, settlement, spec and round; ``analysis`` how the analyzer
and the simulator meet it; ``words`` its circles and pay tables in words.
"""

from __future__ import annotations

from riverboat.games.crazy4 import analysis, words
from riverboat.games.crazy4.play import (
    QUEENS_UP_TABLE,
    SUPER_BONUS_TABLE,
    Crazy4Round,
    Crazy4Rules,
    settle,
    spec,
)
from riverboat.games.definition import GameDefinition, variants

__all__ = [
    "GAME",
    "QUEENS_UP_TABLE",
    "SUPER_BONUS_TABLE",
    "Crazy4Round",
    "Crazy4Rules",
    "settle",
    "spec",
]

GAME: GameDefinition[Crazy4Rules] = GameDefinition(
    name="crazy4",
    title="Crazy 4 Poker",
    rules_type=Crazy4Rules,
    round_type=Crazy4Round,
    variants=variants(Crazy4Rules(), Crazy4Rules.standard()),
    make_spec=spec,
    math=analysis.MATH,
    line_words=words.line_words,
    pay_sections=words.pay_sections,
    how_to_play=words.how_to_play,
)
