"""Slow, obviously correct reference evaluators, written apart from riverboat's own.

They work on whole numpy arrays of hands, one card per column, and give each hand
a comparison key: an integer ``category * 13**k + tie-break`` where the tie-break
lists the ranks ordered by (how many of the rank, the rank), highest first, read
in base 13. That ordering is the poker tie-break rule for every pattern (G4); a
straight is ranked by its top card, the ace low in the lowest straight (G3).
"""

from functools import cache
from math import comb

import numpy as np

# Category numbers in each game's order, weakest first.
POKER = ["high", "pair", "two pair", "trips", "straight", "flush", "full house", "quads",
         "straight flush", "royal flush"]  # fmt: skip
TRI_CARD = ["high", "pair", "flush", "straight", "trips", "straight flush"]  # T2
CRAZY4 = ["high", "pair", "two pair", "straight", "flush", "trips", "straight flush", "quads",
          "four aces"]  # fmt: skip  # C2


@cache
def all_hands(k: int) -> np.ndarray:
    """Every k-card hand, one per row, in colex order (row i has colex index i): made
    once a process (0.1 CPU s for the five-card ones, which the brute-force tests ask
    for at every hand they value) and read-only, shared by every caller."""
    hands = np.zeros((1, 0), dtype=np.uint8)
    for size in range(1, k + 1):
        parts = [
            np.column_stack([hands[: comb(top, size - 1)], np.full(comb(top, size - 1), top)])
            for top in range(size - 1, 52)
        ]
        hands = np.concatenate(parts).astype(np.uint8)
    hands.flags.writeable = False
    return hands


#: ``BINOMIAL[j][c]`` is C(c, j): how many j-card hands lie below card c in colex order
BINOMIAL = np.array([[comb(c, j) for c in range(52)] for j in range(8)], dtype=np.int64)


def colex_index(hands: np.ndarray) -> np.ndarray:
    """Each hand's row number in :func:`all_hands`."""
    return _colex_of_ordered(np.sort(hands, axis=1))


def _colex_of_ordered(ordered: np.ndarray) -> np.ndarray:
    """:func:`colex_index` of hands whose cards are in increasing order already."""
    return sum(BINOMIAL[j + 1][ordered[:, j]] for j in range(ordered.shape[1]))


def reference_keys(hands: np.ndarray, order: list[str]) -> np.ndarray:
    """Comparison keys of 3-, 4- or 5-card hands in one game's order."""
    hands = hands.astype(np.int64)
    n, k = hands.shape
    ranks, suits = hands // 4, hands % 4
    flush = (suits == suits[:, :1]).all(axis=1)
    same = (ranks[:, :, None] == ranks[:, None, :]).sum(axis=2)  # copies of each card's rank
    by_group = np.take_along_axis(ranks, np.argsort(-(same * 16 + ranks), axis=1), axis=1)
    low_to_high = np.sort(ranks, axis=1)
    distinct = 1 + (np.diff(low_to_high, axis=1) != 0).sum(axis=1)
    wheel = (low_to_high == [*range(k - 1), 12]).all(axis=1)
    run = distinct == k
    straight = run & ((low_to_high[:, -1] - low_to_high[:, 0] == k - 1) | wheel)
    largest = same.max(axis=1)

    conditions = {
        "royal flush": straight & flush & (low_to_high[:, 0] == 8),
        "straight flush": straight & flush,
        "four aces": (largest == 4) & (by_group[:, 0] == 12) & (k == 4),
        "quads": largest == 4,
        "full house": (largest == 3) & (distinct == 2),
        "flush": flush,
        "straight": straight,
        "trips": largest == 3,
        "two pair": (largest == 2) & (distinct == k - 2),
        "pair": largest == 2,
        "high": np.ones(n, dtype=bool),
    }
    category = np.full(n, -1)
    for name in sorted(order, key=order.index, reverse=True):  # strongest first
        category = np.where((category < 0) & conditions[name], order.index(name), category)

    top = np.where(wheel, k - 2, low_to_high[:, -1])
    tie_break = sum(by_group[:, i] * 13 ** (k - 1 - i) for i in range(k))
    tie_break = np.where(straight, top * 13 ** (k - 1), tie_break)
    return category * 13**k + tie_break


def dense(keys: np.ndarray) -> np.ndarray:
    """Keys renumbered 0, 1, 2, ... in order: what a dense evaluator must return."""
    return np.unique(keys, return_inverse=True)[1].reshape(-1)


def best_of(values_by_colex: np.ndarray, hands: np.ndarray, size: int) -> np.ndarray:
    """The best ``size``-card subset of each hand, by a table of subset values."""
    from itertools import combinations

    ordered = np.sort(hands, axis=1)  # so is every subset of its columns, taken in order
    return np.max(
        [values_by_colex[_colex_of_ordered(ordered[:, list(cols)])]
         for cols in combinations(range(hands.shape[1]), size)],
        axis=0,
    )  # fmt: skip
