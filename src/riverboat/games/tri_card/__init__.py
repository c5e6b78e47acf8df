"""Tri-Card Poker (T1-T8): everything riverboat knows about it, and its one
definition, :data:`GAME`.

``play`` holds the rules, settlement, spec and round; ``analysis`` how the analyzer
and the simulator meet it; ``words`` its circles and pay tables in words.
"""

from __future__ import annotations

from riverboat.games.definition import GameDefinition, variants
from riverboat.games.tri_card import analysis, words
from riverboat.games.tri_card.play import (
    ANTE_BONUS_TABLES,
    FOLD,
    NO_DECISION,
    PAIR_PLUS_TABLES,
    RAISE,
    TriCardRound,
    TriCardRules,
    settle,
    spec,
)

__all__ = [
    "ANTE_BONUS_TABLES",
    "FOLD",
    "GAME",
    "NO_DECISION",
    "PAIR_PLUS_TABLES",
    "RAISE",
    "TriCardRound",
    "TriCardRules",
    "settle",
    "spec",
]

GAME: GameDefinition[TriCardRules] = GameDefinition(
    name="tri-card",
    title="Tri-Card Poker",
    rules_type=TriCardRules,
    round_type=TriCardRound,
    variants=variants(TriCardRules()),
    make_spec=spec,
    math=analysis.MATH,
    line_words=words.line_words,
    pay_sections=words.pay_sections,
    how_to_play=words.how_to_play,
)
