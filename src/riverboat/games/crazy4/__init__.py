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
    how_to_play=(
        "Ante and Super Bonus (equal) are required; Queens Up is optional.",
        "Five cards each; the best four count. Four Aces top the ranking, and a flush "
        "beats a straight.",
        "Fold, or play 1x the Ante; with a pair of aces or better, up to 3x.",
        "The dealer qualifies with king-high or better; if not, the Ante pushes and "
        "the Play wins. A hand that does not beat a qualifying dealer loses.",
        "The Super Bonus pays on a straight or better, win or lose; below that it pushes "
        "unless the dealer's hand is higher.",
    ),
)
