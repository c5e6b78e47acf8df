"""Rabbit Hunter (R1-R11): everything riverboat knows about it, and its one
definition, :data:`GAME`.

``play`` holds the rules, settlement, spec and round; ``analysis`` how the analyzer
and the simulator meet it; ``words`` its circles and pay tables in words.
"""

from __future__ import annotations

from riverboat.games.definition import GameDefinition, variants
from riverboat.games.rabbit_hunter import analysis, words
from riverboat.games.rabbit_hunter.play import (
    BONUS_TABLE,
    BUY,
    FOLD,
    PLAY,
    RabbitHunterRound,
    RabbitHunterRules,
    settle,
    spec,
)

__all__ = [
    "BONUS_TABLE",
    "BUY",
    "FOLD",
    "GAME",
    "PLAY",
    "RabbitHunterRound",
    "RabbitHunterRules",
    "settle",
    "spec",
]

GAME: GameDefinition[RabbitHunterRules] = GameDefinition(
    name="rabbit-hunter",
    title="Rabbit Hunter",
    rules_type=RabbitHunterRules,
    round_type=RabbitHunterRound,
    variants=variants(RabbitHunterRules()),
    make_spec=spec,
    math=analysis.MATH,
    line_words=words.line_words,
    pay_sections=words.pay_sections,
    how_to_play=words.how_to_play,
)
