"""Hand rankings: the order of hands in each game, their categories and names.

A ranking orders every hand of its size into dense integer values ``0 ..
count - 1`` (larger is stronger, equal means equal). Its *key* of a value is the
plain comparison tuple ``(category, ranks...)``, from which names are made.

* :data:`FIVE_CARD`: standard poker (G3, G4), also the best 5 of 6 or 7 cards.
* :data:`THREE_CARD`: Tri-Card Poker (T2): straights beat flushes.
* :data:`FOUR_CARD`: Crazy 4 Poker (C2): Four Aces on top, flushes beat straights.

>>> from riverboat.hands import FIVE_CARD, evaluate5
>>> value = evaluate5("Th Tc 8s 4d 2c")
>>> FIVE_CARD.describe(value), FIVE_CARD.category(value).name
('Pair of Tens', 'PAIR')
>>> value >= FIVE_CARD.lowest(FiveCard.PAIR, Rank.TEN)
True
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from functools import cached_property
from itertools import combinations, combinations_with_replacement
from typing import overload

import numpy as np
import numpy.typing as npt

from riverboat.cards import Rank

__all__ = [
    "FIVE_CARD",
    "FOUR_CARD",
    "THREE_CARD",
    "FiveCard",
    "FourCard",
    "HandRanking",
    "ThreeCard",
]

Key = tuple[int, ...]


class FiveCard(IntEnum):
    """Categories of a five-card poker hand, weakest first."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    ROYAL_FLUSH = 9


class ThreeCard(IntEnum):
    """Categories of a Tri-Card hand (T2), weakest first."""

    HIGH_CARD = 0
    PAIR = 1
    FLUSH = 2
    STRAIGHT = 3
    THREE_OF_A_KIND = 4
    STRAIGHT_FLUSH = 5


class FourCard(IntEnum):
    """Categories of a Crazy 4 hand, the best four of five cards (C2), weakest first."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    STRAIGHT = 3
    FLUSH = 4
    THREE_OF_A_KIND = 5
    STRAIGHT_FLUSH = 6
    FOUR_OF_A_KIND = 7
    FOUR_ACES = 8


def _straight_top(ranks: tuple[int, ...]) -> int | None:
    """The top rank of a straight of these ranks (ace low in the lowest, G3), or None."""
    distinct = sorted(set(ranks))
    if len(distinct) != len(ranks):
        return None
    if distinct[-1] - distinct[0] == len(ranks) - 1:
        return distinct[-1]
    if distinct == [*range(len(ranks) - 1), Rank.ACE]:
        return len(ranks) - 2
    return None


def _grouped(ranks: tuple[int, ...]) -> tuple[tuple[int, ...], Key]:
    """The count pattern, largest group first, and the ranks in that order.

    >>> _grouped((3, 8, 3, 12, 8))
    ((2, 2, 1), (8, 3, 12))
    """
    groups = sorted(Counter(ranks).items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    return tuple(c for _, c in groups), tuple(r for r, _ in groups)


def _classify_five(ranks: tuple[int, ...], flush: bool) -> Key:
    top = _straight_top(ranks)
    pattern, order = _grouped(ranks)
    if top is not None and flush:
        return (FiveCard.ROYAL_FLUSH if top == Rank.ACE else FiveCard.STRAIGHT_FLUSH, top)
    if pattern == (4, 1):
        return (FiveCard.FOUR_OF_A_KIND, *order)
    if pattern == (3, 2):
        return (FiveCard.FULL_HOUSE, *order)
    if flush:
        return (FiveCard.FLUSH, *order)
    if top is not None:
        return (FiveCard.STRAIGHT, top)
    named = {
        (3, 1, 1): FiveCard.THREE_OF_A_KIND,
        (2, 2, 1): FiveCard.TWO_PAIR,
        (2, 1, 1, 1): FiveCard.PAIR,
    }
    return (named.get(pattern, FiveCard.HIGH_CARD), *order)


def _classify_three(ranks: tuple[int, ...], flush: bool) -> Key:
    top = _straight_top(ranks)
    pattern, order = _grouped(ranks)
    if top is not None:
        return (ThreeCard.STRAIGHT_FLUSH if flush else ThreeCard.STRAIGHT, top)
    if pattern == (3,):
        return (ThreeCard.THREE_OF_A_KIND, *order)
    if flush:
        return (ThreeCard.FLUSH, *order)
    return (ThreeCard.PAIR if pattern == (2, 1) else ThreeCard.HIGH_CARD, *order)


def _classify_four(ranks: tuple[int, ...], flush: bool) -> Key:
    top = _straight_top(ranks)
    pattern, order = _grouped(ranks)
    if pattern == (4,):
        return (FourCard.FOUR_ACES if order[0] == Rank.ACE else FourCard.FOUR_OF_A_KIND, *order)
    if top is not None and flush:
        return (FourCard.STRAIGHT_FLUSH, top)
    if pattern == (3, 1):
        return (FourCard.THREE_OF_A_KIND, *order)
    if flush:
        return (FourCard.FLUSH, *order)
    if top is not None:
        return (FourCard.STRAIGHT, top)
    named = {(2, 2): FourCard.TWO_PAIR, (2, 1, 1): FourCard.PAIR}
    return (named.get(pattern, FourCard.HIGH_CARD), *order)


def _name(category: str, ranks: Key) -> str:
    """A name for people from a category's name and its key ranks."""
    words = [Rank(r) for r in ranks]
    first = words[0]
    names: dict[str, Callable[[], str]] = {
        "HIGH_CARD": lambda: f"{first.word}-high",
        "PAIR": lambda: f"Pair of {first.plural}",
        "TWO_PAIR": lambda: f"Two Pair, {first.plural} and {words[1].plural}",
        "THREE_OF_A_KIND": lambda: f"Three {first.plural}",
        "STRAIGHT": lambda: f"{first.word}-high Straight",
        "FLUSH": lambda: f"{first.word}-high Flush",
        "FULL_HOUSE": lambda: f"Full House, {first.plural} over {words[1].plural}",
        "FOUR_OF_A_KIND": lambda: f"Four {first.plural}",
        "FOUR_ACES": lambda: "Four Aces",
        "STRAIGHT_FLUSH": lambda: f"{first.word}-high Straight Flush",
        "ROYAL_FLUSH": lambda: "Royal Flush",
    }
    return names[category]()


@dataclass(frozen=True, eq=False)
class HandRanking:
    """The order of the hands of one size in one game.

    Values are dense: ``0 .. count - 1``, larger is stronger, equal means equal.
    """

    name: str
    size: int
    categories: type[IntEnum]
    classify: Callable[[tuple[int, ...], bool], Key]

    @cached_property
    def keys(self) -> list[Key]:
        """The key ``(category, ranks...)`` of every value, in value order."""
        return sorted({key for _, _, key in self._classified})

    @cached_property
    def _classified(self) -> list[tuple[tuple[int, ...], bool, Key]]:
        """Every rank pattern (:meth:`_rank_patterns`) with its key: classified once
        for :attr:`keys` and :attr:`value_tables` both."""
        return [
            (ranks, flush, self.classify(ranks, flush)) for ranks, flush in self._rank_patterns()
        ]

    def _rank_patterns(self) -> list[tuple[tuple[int, ...], bool]]:
        """Every sorted rank tuple a hand can hold, with and without a flush."""
        patterns = []
        for ranks in combinations_with_replacement(range(13), self.size):
            if max(Counter(ranks).values()) <= 4:
                patterns.append((ranks, False))
                if len(set(ranks)) == self.size:
                    patterns.append((ranks, True))
        return patterns

    @cached_property
    def _value_of_key(self) -> dict[Key, int]:
        return {key: value for value, key in enumerate(self.keys)}

    def value(self, cards: Sequence[int]) -> int:
        """The value of one hand of :attr:`size` different cards (indices 0..51), or of
        the best :attr:`size` of more, found by its key in plain Python: one hand valued
        without the compiled evaluators (a command that settles one round never loads
        them), to the same value their tables hold.

        >>> from riverboat.cards import parse_cards
        >>> THREE_CARD.describe(THREE_CARD.value(parse_cards("Kh Qh Jh")))
        'King-high Straight Flush'
        >>> FIVE_CARD.describe(FIVE_CARD.value(parse_cards("As Ad Ah 9c 9d 2s")))
        'Full House, Aces over Nines'
        """
        best = -1
        for hand in combinations(cards, self.size):
            ranks = tuple(sorted(card >> 2 for card in hand))
            flush = len({card & 3 for card in hand}) == 1
            best = max(best, self._value_of_key[self.classify(ranks, flush)])
        return best

    @property
    def count(self) -> int:
        """How many distinct values (classes of equal hands) there are."""
        return len(self.keys)

    @cached_property
    def _category_of(self) -> npt.NDArray[np.int8]:
        return np.array([key[0] for key in self.keys], dtype=np.int8)

    @cached_property
    def value_tables(self) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int16]]:
        """Values by sorted ranks read in base 13 (lowest first) and by one-suit rank mask."""
        position = {key: value for value, key in enumerate(self.keys)}
        by_ranks = np.full(13**self.size, -1, dtype=np.int16)
        by_flush = np.full(1 << 13, -1, dtype=np.int16)
        for ranks, flush, key in self._classified:
            value = position[key]
            if flush:
                by_flush[sum(1 << r for r in ranks)] = value
            else:
                by_ranks[sum(r * 13**p for p, r in enumerate(ranks))] = value
        return by_ranks, by_flush

    def key(self, value: int) -> Key:
        """The comparison tuple ``(category, ranks...)`` of a value."""
        return self.keys[self._checked(value)]

    @overload
    def category(self, value: int) -> IntEnum: ...
    @overload
    def category(self, value: npt.NDArray[np.integer]) -> npt.NDArray[np.int8]: ...
    def category(self, value: int | npt.NDArray[np.integer]) -> IntEnum | npt.NDArray[np.int8]:
        """The category of one value (an enum member) or of an array of values."""
        if isinstance(value, np.ndarray):
            categories: npt.NDArray[np.int8] = self._category_of[value]
            return categories
        return self.categories(self._category_of[self._checked(value)])

    def describe(self, value: int) -> str:
        """A name for people: ``"Pair of Tens"``, ``"King-high"``, ``"Four Aces"``."""
        category, *ranks = self.key(value)
        return _name(self.categories(category).name, tuple(ranks))

    def lowest(self, category: int, *ranks: int) -> int:
        """The smallest value whose key is at least ``(category, *ranks)``.

        ``values >= FIVE_CARD.lowest(FiveCard.PAIR, Rank.TEN)`` is "a pair of tens
        or better".
        """
        return bisect_left(self.keys, (int(category), *map(int, ranks)))

    def _checked(self, value: int) -> int:
        index = int(value)
        if not 0 <= index < self.count:
            raise ValueError(f"{value} is not a {self.name} hand value (0..{self.count - 1})")
        return index

    def __repr__(self) -> str:
        return f"HandRanking({self.name!r})"


FIVE_CARD = HandRanking("five-card poker", 5, FiveCard, _classify_five)
THREE_CARD = HandRanking("Tri-Card", 3, ThreeCard, _classify_three)
FOUR_CARD = HandRanking("Crazy 4", 4, FourCard, _classify_four)
