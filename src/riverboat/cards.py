"""Cards for people and for arrays.

Inside riverboat a card is an integer ``4 * rank + suit``: rank 0..12 is 2..A and
suit 0..3 is clubs, diamonds, hearts, spades. :class:`Card` is that integer with a
name, for people and APIs; bulk code uses plain ``uint8`` numpy arrays.

>>> parse_cards("As Kd 10h Tc")
[Card('As'), Card('Kd'), Card('Th'), Card('Tc')]
>>> int(Card.parse("2c")), int(Card.parse("A♠"))
(0, 51)
>>> format_cards(parse_cards("Qh 3s"), unicode=True)
'Q♥ 3♠'
"""

from __future__ import annotations

import operator
import re
from collections.abc import Iterable
from enum import IntEnum
from numbers import Integral
from typing import SupportsIndex

__all__ = [
    "DECK_SIZE",
    "Card",
    "CardError",
    "Rank",
    "Suit",
    "format_cards",
    "parse_cards",
]

DECK_SIZE = 52


class CardError(ValueError):
    """A card string or card list that is not valid, with a message a player can read."""


class Rank(IntEnum):
    """Card ranks, ``TWO`` (0) to ``ACE`` (12)."""

    TWO = 0
    THREE = 1
    FOUR = 2
    FIVE = 3
    SIX = 4
    SEVEN = 5
    EIGHT = 6
    NINE = 7
    TEN = 8
    JACK = 9
    QUEEN = 10
    KING = 11
    ACE = 12

    @property
    def symbol(self) -> str:
        """One character: ``2``..``9``, ``T``, ``J``, ``Q``, ``K``, ``A``."""
        return _RANK_SYMBOLS[self]

    @property
    def word(self) -> str:
        """The rank as a word: ``"Ten"``, ``"Ace"``."""
        return _RANK_WORDS[self]

    @property
    def plural(self) -> str:
        """The rank's plural as in "Pair of Sixes"."""
        return "Sixes" if self is Rank.SIX else self.word + "s"


class Suit(IntEnum):
    """Suits, which never rank (G3); the order only fixes card indices."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def symbol(self) -> str:
        """One ASCII letter: ``c``, ``d``, ``h``, ``s``."""
        return "cdhs"[self]

    @property
    def glyph(self) -> str:
        """The Unicode suit symbol."""
        return "♣♦♥♠"[self]


_RANK_SYMBOLS = "23456789TJQKA"
_RANK_WORDS = [
    "Two",
    "Three",
    "Four",
    "Five",
    "Six",
    "Seven",
    "Eight",
    "Nine",
    "Ten",
    "Jack",
    "Queen",
    "King",
    "Ace",
]
_RANK_INPUT = {s: Rank(i) for i, s in enumerate(_RANK_SYMBOLS)} | {"10": Rank.TEN}
_SUIT_INPUT = {
    **{s: Suit(i) for i, s in enumerate("cdhs")},
    **{s: Suit(i) for i, s in enumerate("♣♦♥♠")},
    **{s: Suit(i) for i, s in enumerate("♧♢♡♤")},
}
_CARD_PATTERN = re.compile(r"^(10|[2-9tjqka])(.)$", re.IGNORECASE)
_EXPECTED = (
    "a card is a rank (2-9, T or 10, J, Q, K, A) followed by a suit "
    "(c, d, h, s or ♣ ♦ ♥ ♠), for example 'As', '10h' or 'Q♦'"
)


class Card(int):
    """A card: an ``int`` in 0..51 with a rank, a suit and a name.

    >>> Card.parse("10h").rank, Card.parse("10h").suit
    (<Rank.TEN: 8>, <Suit.HEARTS: 2>)
    >>> Card.of(Rank.ACE, Suit.SPADES)
    Card('As')
    """

    def __new__(cls, index: SupportsIndex) -> Card:
        if type(index) is int and 0 <= index < DECK_SIZE:  # the common case, checked at once
            return super().__new__(cls, index)
        if isinstance(index, bool) or not isinstance(index, Integral):
            raise CardError(f"a card index must be an integer 0..51, not {index!r}")
        index = operator.index(index)
        if not 0 <= index < DECK_SIZE:
            raise CardError(f"a card index must be 0..51, not {index}")
        return super().__new__(cls, index)

    @classmethod
    def of(cls, rank: Rank | int, suit: Suit | int) -> Card:
        """The card of a rank (0..12) and a suit (0..3)."""
        if not (0 <= rank < 13 and 0 <= suit < 4):
            raise CardError(f"rank must be 0..12 and suit 0..3, not {rank}, {suit}")
        return cls(4 * int(rank) + int(suit))

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read one card such as ``"As"``, ``"10h"``, ``"Td"`` or ``"K♣"``."""
        match = _CARD_PATTERN.match(text.strip())
        if match is None or match.group(2).lower() not in _SUIT_INPUT:
            raise CardError(f"{text!r} is not a card: {_EXPECTED}")
        rank = _RANK_INPUT[match.group(1).upper()]
        return cls.of(rank, _SUIT_INPUT[match.group(2).lower()])

    @property
    def rank(self) -> Rank:
        return Rank(int(self) >> 2)

    @property
    def suit(self) -> Suit:
        return Suit(int(self) & 3)

    def name(self, unicode: bool = False) -> str:
        """``"As"``, or ``"A♠"`` with ``unicode=True``."""
        return (_GLYPH_NAMES if unicode else _NAMES)[self]

    def __str__(self) -> str:
        return _NAMES[self]

    def __repr__(self) -> str:
        return f"Card({self.name()!r})"


#: every card's name by index, ASCII and with the suit's glyph
_NAMES = tuple(Rank(i >> 2).symbol + Suit(i & 3).symbol for i in range(DECK_SIZE))
_GLYPH_NAMES = tuple(Rank(i >> 2).symbol + Suit(i & 3).glyph for i in range(DECK_SIZE))


def parse_cards(
    text: str | Iterable[str | SupportsIndex], *, allow_duplicates: bool = False
) -> list[Card]:
    """Read cards from a string (``"As Kd 10h"``, commas allowed) or a sequence.

    A card that appears twice is refused unless ``allow_duplicates`` (a multi-deck
    shoe may hold two of a card).

    >>> parse_cards("A♠,K♦")
    [Card('As'), Card('Kd')]
    >>> parse_cards("As as")
    Traceback (most recent call last):
    ...
    riverboat.cards.CardError: As appears twice; a deck holds each card once
    """
    items: Iterable[str | SupportsIndex] = (
        text.replace(",", " ").split() if isinstance(text, str) else text
    )
    cards = [Card.parse(item) if isinstance(item, str) else Card(item) for item in items]
    if not allow_duplicates:
        seen: set[int] = set()
        for card in cards:
            if card in seen:
                raise CardError(f"{card} appears twice; a deck holds each card once")
            seen.add(card)
    return cards


def format_cards(cards: Iterable[int], unicode: bool = False) -> str:
    """Card names separated by spaces: ``"As Kd"``."""
    names = _GLYPH_NAMES if unicode else _NAMES
    return " ".join(names[Card(int(c))] for c in cards)
