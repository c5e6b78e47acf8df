"""Compiled kernels for one hand's hint: the dealer's hands from the unseen cards, by value.

Every dealer hand that avoids the player's cards is valued once, by its colex index
into the game's table of hand values, and counted by value. A drawing option (the
rabbit, R4) also needs, for each card it may draw, the dealer hands *without* that
card: they are all the hands less those holding it, so the kernels keep one more
count per value and unseen card, of the hands that hold it (card incidence), and
every card's counts follow by one subtraction instead of another enumeration.
``holding`` is laid out ``[value, card]`` so that a hand's five increments fall on
neighbouring memory.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from riverboat._jit import nb
from riverboat.hands._kernels import BINOMIAL, next_combination

__all__ = ["dealer_counts"]

Ints = npt.NDArray[np.int64]
Table = npt.NDArray[np.int16]
Holding = npt.NDArray[np.int32]

_compiled = nb.njit(cache=True, nogil=True, boundscheck=False)


def dealer_counts(unseen: Ints, k: int, table: Table, counts: Ints, holding: Holding) -> None:
    """Count the hands of k cards drawn from ``unseen`` (card indices, ascending) by
    their value in ``table`` (by colex index over the 52 cards) into ``counts[value]``;
    if ``holding`` has a column per unseen card, ``holding[value, i]`` counts the hands
    among them that hold ``unseen[i]``.

    >>> from riverboat.hands import THREE_CARD, hand_table
    >>> counts = np.zeros(THREE_CARD.count, dtype=np.int64)
    >>> holding = np.zeros((THREE_CARD.count, 4), dtype=np.int32)
    >>> dealer_counts(np.array([0, 1, 2, 3]), 3, hand_table(THREE_CARD), counts, holding)
    >>> int(counts.sum()), holding.sum(axis=0).tolist()   # four trips of deuces
    (4, [3, 3, 3, 3])
    """
    if k == 5:
        _five(unseen, table, counts, holding)
    else:
        hands = int(BINOMIAL[k, len(unseen)])
        _any(unseen, k, hands, table, counts, holding)


@_compiled
def _five(unseen: Ints, table: Table, counts: Ints, holding: Holding) -> None:
    """Five-card hands as nested loops, each level adding its card's colex term."""
    n = unseen.shape[0]
    incidence = holding.shape[1] > 0
    b1, b2, b3, b4, b5 = BINOMIAL[1], BINOMIAL[2], BINOMIAL[3], BINOMIAL[4], BINOMIAL[5]
    for e in range(4, n):
        index_e = b5[unseen[e]]
        for d in range(3, e):
            index_d = index_e + b4[unseen[d]]
            for c in range(2, d):
                index_c = index_d + b3[unseen[c]]
                for b in range(1, c):
                    index_b = index_c + b2[unseen[b]]
                    for a in range(b):
                        value = table[index_b + b1[unseen[a]]]
                        counts[value] += 1
                        if incidence:
                            holding[value, a] += 1
                            holding[value, b] += 1
                            holding[value, c] += 1
                            holding[value, d] += 1
                            holding[value, e] += 1


@_compiled
def _any(unseen: Ints, k: int, hands: int, table: Table, counts: Ints, holding: Holding) -> None:
    """Hands of any size k, stepped through in colex order of their positions."""
    positions = np.arange(k)
    incidence = holding.shape[1] > 0
    for _ in range(hands):
        index = 0
        for j in range(k):
            index += BINOMIAL[j + 1, unseen[positions[j]]]
        value = table[index]
        counts[value] += 1
        if incidence:
            for j in range(k):
                holding[value, positions[j]] += 1
        next_combination(positions, k)
