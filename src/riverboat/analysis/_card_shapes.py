"""The shapes a strategy card's rule may take, in the words a player uses: ranges of
hand values (``"Q-6-4 or better"``, ``"a pair of 2s to 9s"``, ``"ace-high"``), each
with its price in words, and what else a five-card hand that may draw holds (four to
a flush, an open-ended straight draw, three cards 10 or higher).

>>> from riverboat.hands import FIVE_CARD, FiveCard
>>> words(FIVE_CARD, (FiveCard.HIGH_CARD, 12, 10, 6)), words(FIVE_CARD, (1, 8))
('A-Q-8', 'a pair of 10s')
>>> between(FIVE_CARD, (1, 0), (1, 7)), between(FIVE_CARD, (1,), (3,))
('a pair of 2s to 9s', 'a pair, two pair or three of a kind')
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from riverboat.hands import HandRanking

__all__ = ["Range", "between", "features", "ranges", "words"]

Bools = npt.NDArray[np.bool_]
Ints = npt.NDArray[np.int64]

#: a category's name in a sentence ("three of a kind or better", "any pair")
_CATEGORY = {
    "HIGH_CARD": "no pair",
    "PAIR": "a pair",
    "TWO_PAIR": "two pair",
    "THREE_OF_A_KIND": "three of a kind",
    "STRAIGHT": "a straight",
    "FLUSH": "a flush",
    "FULL_HOUSE": "a full house",
    "FOUR_OF_A_KIND": "four of a kind",
    "FOUR_ACES": "four aces",
    "STRAIGHT_FLUSH": "a straight flush",
    "ROYAL_FLUSH": "a royal flush",
}
_FACES = {9: "Jack", 10: "Queen", 11: "King", 12: "Ace"}


@dataclass(frozen=True)
class Range:
    """Hand values ``lo <= v < hi``, with their words and how many words they take."""

    lo: int
    hi: int
    words: str
    price: int


def _rank(rank: int, plural: bool = False) -> str:
    """``"10"``, ``"Jack"``; plural ``"10s"``, ``"Jacks"``."""
    word = _FACES.get(rank, str(rank + 2))
    return word + "s" if plural else word


def features(hands: npt.NDArray[np.uint8]) -> dict[str, tuple[Bools, int]]:
    """What a five-card hand that may draw a sixth card holds besides its value, each
    a mask over the hands with its price in words ("" = any hand, free)."""
    ranks = (hands >> 2).astype(np.int64)
    suits = (hands & 3).astype(np.int64)
    rows = np.arange(len(hands))[:, None]
    per_suit = np.stack([(suits == s).sum(axis=1) for s in range(4)], axis=1)
    held = np.zeros((len(hands), 14), dtype=bool)  # index 0: the ace low, 1..13: 2..A
    held[rows, ranks + 1] = True
    held[:, 0] = held[:, 13]
    windows = np.stack([held[:, s : s + 5].sum(axis=1) for s in range(10)], axis=1)
    runs = np.stack([held[:, s : s + 4].all(axis=1) for s in range(1, 10)], axis=1)
    suited = np.zeros((len(hands), 4, 14), dtype=bool)
    suited[rows, suits, ranks + 1] = True
    suited[:, :, 0] = suited[:, :, 13]
    in_window = np.stack([suited[:, :, s : s + 5].sum(axis=2) for s in range(10)], axis=2)
    high = (ranks >= 8).sum(axis=1)  # cards 10, J, Q, K or A
    # each as a player reads it: a made flush holds four to a flush too, so a card
    # whose made hands must not buy says so by a rule above the drawing one
    found: dict[str, tuple[Bools, int]] = {
        "": (np.ones(len(hands), dtype=bool), 0),
        "four to a flush": (per_suit.max(axis=1) >= 4, 1),
        "four to a straight": (np.asarray((windows >= 4).any(axis=1)), 1),
        # four in a row, 2-5 up to 10-K: a card at either end makes the straight
        "an open-ended straight draw": (np.asarray(runs.any(axis=1)), 1),
        "four to a straight flush": (np.asarray((in_window >= 4).any(axis=(1, 2))), 2),
    }
    found["four to a flush and four to a straight"] = (
        found["four to a flush"][0] & found["four to a straight"][0],
        2,
    )
    for n in (2, 3, 4):
        found[f"{('two', 'three', 'four')[n - 2]} or more cards 10 or higher"] = (high >= n, 2)
    return found


def ranges(ranking: HandRanking, present: Ints) -> list[Range]:
    """The value ranges a rule may name: every hand, "X or better" and "anything less
    than X" at every value, and "X to Y" between a category's or a top rank's bounds."""
    count = ranking.count
    keys = ranking.keys
    depth = [1] * (count + 1)
    for value in range(count):
        key = keys[value]
        depth[value] = next(d for d in range(1, len(key) + 1) if ranking.lowest(*key[:d]) == value)
    index = np.searchsorted(present, np.arange(count + 1)) - 1
    below = np.where(index >= 0, present[np.maximum(index, 0)], -1)  # highest present < t

    def name(value: int, d: int) -> str:
        return words(ranking, keys[value][:d])

    found = [Range(0, count, "any hand", 0)]
    for t in range(1, count):
        if depth[t] > 2 and keys[t][0] > 0:
            continue  # "a pair of 9s with K": kickers only name no-pair hands ("Q-6-4")
        found.append(Range(t, count, f"{name(t, depth[t])} or better", depth[t]))
        less = "no pair" if keys[t] == (1,) else f"anything less than {name(t, depth[t])}"
        found.append(Range(0, t, less, 2 * depth[t]))
    coarse = [t for t in range(count) if depth[t] <= 2] + [count]
    for i, low in enumerate(coarse):
        for high in coarse[i + 1 :]:
            top = int(below[high])
            if top < low:
                continue
            d = max(depth[low], depth[high] if high < count else 1)
            first, last = keys[low][:d], keys[top][:d]
            said = between(ranking, first, last)
            # two names: dearer than one; across categories dearer still
            price = d if first == last else 2 * d + 1 if first[0] == last[0] else 4 * d + 1
            found.append(Range(low, high, said, price))
    cheapest: dict[tuple[int, int], Range] = {}
    for shape in found:  # of the words for the same values, the shortest
        if (shape.lo, shape.hi) not in cheapest or shape.price < cheapest[shape.lo, shape.hi].price:
            cheapest[shape.lo, shape.hi] = shape
    return list(cheapest.values())


def between(ranking: HandRanking, first: tuple[int, ...], last: tuple[int, ...]) -> str:
    """Every hand from the key prefix ``first`` up to ``last`` (of the same length)."""
    name = words(ranking, first)
    if first == last:
        return f"any {name[2:]}" if len(first) == 1 and name.startswith("a ") else name
    if len(first) == 1:  # whole categories: "a pair, two pair or three of a kind"
        said = [words(ranking, (c,)) for c in range(first[0], last[0] + 1)]
        return f"{', '.join(said[:-1])} or {said[-1]}"
    if len(first) == 2 and first[0] == last[0]:
        category = ranking.categories(first[0]).name
        if category == "PAIR":
            return f"a pair of {_rank(first[1], True)} to {_rank(last[1], True)}"
        if category == "HIGH_CARD":
            return f"{_rank(first[1]).lower()}-high to {_rank(last[1]).lower()}-high"
    return f"{words(ranking, first)} to {words(ranking, last)}"


def words(ranking: HandRanking, prefix: tuple[int, ...]) -> str:
    """A prefix of a hand's key in words: ``"a pair"``, ``"a pair of 10s"``,
    ``"ace-high"``, ``"K-Q-8"``, ``"a pair of Aces with 5-3"``."""
    category = ranking.categories(prefix[0]).name
    if len(prefix) == 1:
        return _CATEGORY[category]
    rank, plural = _rank(prefix[1]).lower(), _rank(prefix[1], True)
    symbols = "-".join("23456789TJQKA"[r] for r in prefix[1:])
    if category == "HIGH_CARD":
        return f"{rank}-high" if len(prefix) == 2 else symbols
    if category == "PAIR":
        return f"a pair of {plural}" + (f" with {symbols[2:]}" if len(prefix) > 2 else "")
    if category in ("ROYAL_FLUSH", "FOUR_ACES"):
        return _CATEGORY[category]
    if len(prefix) == 2:
        named = {
            "TWO_PAIR": f"two pair, {plural} up",
            "THREE_OF_A_KIND": f"three {plural}",
            "FULL_HOUSE": f"a full house, {plural} full",
            "FOUR_OF_A_KIND": f"four {plural}",
        }
        article = "an" if rank[0] in "a8" else "a"
        return named.get(category, f"{article} {rank}-high {_CATEGORY[category][2:]}")
    said = ranking.describe(ranking.lowest(*prefix))
    return said[0].lower() + said[1:]
