"""The shapes a strategy card's rule may take: ranges of hand values named in words
(``"Q-6-4 or better"``, ``"Pair of Twos to Pair of Nines"``, ``"Ace-high"``), each
with its price in words, and the draws a five-card hand may hold.

>>> from riverboat.hands import FIVE_CARD, FiveCard
>>> words(FIVE_CARD, (FiveCard.HIGH_CARD, 12, 10, 6)), words(FIVE_CARD, (1, 8))
('A-Q-8', 'Pair of Tens')
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from riverboat.hands import HandRanking

__all__ = ["Range", "draws", "ranges", "words"]

Bools = npt.NDArray[np.bool_]
Ints = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Range:
    """Hand values ``lo <= v < hi``, with their words and how many words they take."""

    lo: int
    hi: int
    words: str
    price: int


def draws(hands: npt.NDArray[np.uint8]) -> dict[str, Bools]:
    """The draws a five-card hand may hold, each a mask over the hands ("" = any)."""
    ranks = (hands >> 2).astype(np.int64)
    suits = (hands & 3).astype(np.int64)
    per_suit = np.stack([(suits == s).sum(axis=1) for s in range(4)], axis=1)
    four_flush = per_suit.max(axis=1) == 4
    held = np.zeros((len(hands), 14), dtype=bool)  # index 0: the ace low, 1..13: 2..A
    held[np.arange(len(hands))[:, None], ranks + 1] = True
    held[:, 0] = held[:, 13]
    windows = np.stack([held[:, s : s + 5].sum(axis=1) for s in range(10)], axis=1)
    made = (windows == 5).any(axis=1)
    four_straight = (windows == 4).any(axis=1) & ~made
    runs = np.stack([held[:, s : s + 4].all(axis=1) for s in range(1, 10)], axis=1)
    open_ended = runs.any(axis=1) & ~made  # four in a row, 2-5 up to T-K: either end fills
    return {
        "": np.ones(len(hands), dtype=bool),
        "four to a flush": four_flush,
        "four to a straight": four_straight,
        "an open-ended straight draw": open_ended,
        "four to a flush and four to a straight": four_flush & four_straight,
        "four to a flush and an open-ended straight draw": four_flush & open_ended,
    }


def ranges(ranking: HandRanking, present: Ints) -> list[Range]:
    """The value ranges a rule may name: every hand, "X or better" and "below X" at
    every value, and "X to Y" between a category's or a top rank's bounds."""
    count = ranking.count
    keys = ranking.keys
    depth = [1] * (count + 1)
    for value in range(count):
        key = keys[value]
        depth[value] = next(
            d for d in range(1, len(key) + 1) if ranking.lowest(*key[:d]) == value
        )
    index = np.searchsorted(present, np.arange(count + 1)) - 1
    below = np.where(index >= 0, present[np.maximum(index, 0)], -1)  # highest present < t

    def name(value: int, d: int) -> str:
        return words(ranking, keys[value][:d])

    found = [Range(0, count, "any hand", 0)]
    for t in range(1, count):
        found.append(Range(t, count, f"{name(t, depth[t])} or better", depth[t]))
        found.append(Range(0, t, f"anything below {name(t, depth[t])}", depth[t]))
    coarse = [t for t in range(count) if depth[t] <= 2] + [count]
    for i, low in enumerate(coarse):
        for high in coarse[i + 1 :]:
            top = int(below[high])
            if top < low:
                continue
            d = max(depth[low], depth[high] if high < count else 1)
            first = keys[low][:d]
            last = keys[top][:d]
            if d == 1 and first == last:
                said = f"any {_category(ranking, first[0])}"
            elif first == last:
                said = name(low, d)
            else:  # two names: dearer than one for the same hands
                said = f"{words(ranking, first)} to {words(ranking, last)}"
            found.append(Range(low, high, said, 2 * d + (first != last)))
    return found


def _category(ranking: HandRanking, category: int) -> str:
    said = ranking.categories(category).name.replace("_", " ").title()
    return said.replace(" Of A ", " of a ")


def words(ranking: HandRanking, prefix: tuple[int, ...]) -> str:
    """A prefix of a hand's key in words: ``"Pair"``, ``"Pair of Tens"``, ``"K-Q-8"``,
    ``"Pair of Aces, 5-3"``."""
    if len(prefix) == 1:
        return _category(ranking, prefix[0])
    lowest = ranking.lowest(*prefix)
    if len(prefix) == 2:
        return ranking.describe(lowest)
    category = ranking.categories(prefix[0]).name
    symbols = "-".join("23456789TJQKA"[r] for r in prefix[1:])
    if category == "HIGH_CARD":
        return symbols
    if category == "PAIR":
        return f"{ranking.describe(lowest)}, {symbols[2:]}"
    return ranking.describe(lowest)
