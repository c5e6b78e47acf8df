"""riverboat: casino table games, dealt fairly, with every number behind them exact.

The stable nouns live here; everything else is in the submodules. They load on
first use, so that importing a light part (the command line, the fairness module)
does not pull in numpy and numba.

>>> from riverboat import Card, evaluate5, FIVE_CARD
>>> FIVE_CARD.describe(evaluate5("As Ad Ah 9c 9d"))
'Full House, Aces over Nines'
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
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

    __version__: str

#: each exported name and the module it comes from
_HOMES = {
    **dict.fromkeys(
        ("Card", "CardError", "Rank", "Suit", "format_cards", "parse_cards"), "riverboat.cards"
    ),
    **dict.fromkeys(("Deck", "Shoe"), "riverboat.deck"),
    **dict.fromkeys(("IllegalAction", "find_game", "replay"), "riverboat.games"),
    **dict.fromkeys(
        (
            "FIVE_CARD",
            "FOUR_CARD",
            "THREE_CARD",
            "HandError",
            "evaluate3",
            "evaluate4of5",
            "evaluate5",
            "evaluate6",
            "evaluate7",
        ),
        "riverboat.hands",
    ),
}


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("riverboat")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "0.0.0"


def __getattr__(name: str) -> object:
    """Load an exported name from its module on first use (PEP 562)."""
    if name == "__version__":
        value: object = _version()
    elif name in _HOMES:
        value = getattr(import_module(_HOMES[name]), name)
    else:
        raise AttributeError(f"module 'riverboat' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


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
