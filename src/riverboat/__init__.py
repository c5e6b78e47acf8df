"""riverboat: casino table games, dealt fairly, with every number behind them exact.

The stable nouns live here; everything else is in the submodules.

>>> from riverboat import Card, evaluate5, FIVE_CARD
>>> FIVE_CARD.describe(evaluate5("As Ad Ah 9c 9d"))
'Full House, Aces over Nines'
"""

from importlib.metadata import PackageNotFoundError, version

from riverboat.cards import Card, CardError, Rank, Suit, format_cards, parse_cards
from riverboat.deck import Deck, Shoe
from riverboat.games import IllegalAction, find_game, replay
from riverboat.hands import (
    FIVE_CARD,
    FOUR_CARD,
    THREE_CARD,
    HandError,
    evaluate3,
    evaluate4of5,
    evaluate5,
    evaluate6,
    evaluate7,
)

try:
    __version__ = version("riverboat")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0.0.0"

__all__ = [
    "FIVE_CARD",
    "FOUR_CARD",
    "THREE_CARD",
    "Card",
    "CardError",
    "Deck",
    "HandError",
    "IllegalAction",
    "Rank",
    "Shoe",
    "Suit",
    "__version__",
    "evaluate3",
    "evaluate4of5",
    "evaluate5",
    "evaluate6",
    "evaluate7",
    "find_game",
    "format_cards",
    "parse_cards",
    "replay",
]
