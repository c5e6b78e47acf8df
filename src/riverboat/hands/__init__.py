"""Hand evaluators and hand rankings.

>>> from riverboat.hands import evaluate5, FIVE_CARD
>>> FIVE_CARD.describe(evaluate5("Kd Kh 7c 7s 2d"))
'Two Pair, Kings and Sevens'
"""

from riverboat.hands.evaluate import (
    Evaluator,
    HandError,
    evaluate3,
    evaluate4of5,
    evaluate5,
    evaluate6,
    evaluate7,
    hand_table,
)
from riverboat.hands.rankings import (
    FIVE_CARD,
    FOUR_CARD,
    THREE_CARD,
    FiveCard,
    FourCard,
    HandRanking,
    ThreeCard,
)

__all__ = [
    "FIVE_CARD",
    "FOUR_CARD",
    "THREE_CARD",
    "Evaluator",
    "FiveCard",
    "FourCard",
    "HandError",
    "HandRanking",
    "ThreeCard",
    "evaluate3",
    "evaluate4of5",
    "evaluate5",
    "evaluate6",
    "evaluate7",
    "hand_table",
]
