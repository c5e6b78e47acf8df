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
    how_to_play=(
        "Place an Ante; the Bonus (equal to the Ante) and the 2-Way Bad Beat are optional.",
        "You and the dealer get five cards. Fold (every wager lost), Play (a Play wager "
        "equal to the Ante) or Buy & Play: pay a fee equal to the Ante for a sixth card, "
        "the rabbit, and play the best five of six.",
        "The dealer qualifies with ace-high or better; if not, the Ante pushes. The Play "
        "wager always meets the dealer's hand: higher wins 1 to 1, equal pushes.",
        "The Bonus pays on your final hand, from a pair of tens up, win or lose.",
        "Bad Beat pays 10 to 1 when the losing hand, yours or the dealer's, is a pair of "
        "tens or better; a tie is not a loss.",
        "A round's winnings are capped at $50,000.",
    ),
)
