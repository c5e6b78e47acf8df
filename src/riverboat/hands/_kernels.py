"""Compiled kernels: sort each hand with a sorting network, index a table.

A hand of k distinct cards, sorted ``c0 < c1 < ... < c(k-1)``, has the
combinatorial (colex) index ``C(c0, 1) + C(c1, 2) + ... + C(c(k-1), k)``, which
numbers the ``C(52, k)`` hands 0, 1, 2, ... without gaps. A table indexed by it
holds each hand's value: the analysis walks hands in that order, and a table of
the best ``size`` of k cards is filled by taking the best of the subsets' values.
The evaluators of 5, 6 and 7 cards read smaller tables (:mod:`._rank_kernels`).

Every kernel returns -1, or the first row that is not a hand (a card outside
0..51 or a card twice); ``out`` is then only partly written.
"""

from __future__ import annotations

from math import comb
from typing import Any

import numpy as np
import numpy.typing as npt

from riverboat._jit import nb

MAX_CARDS = 7
Hands = npt.NDArray[np.uint8]
Table = npt.NDArray[np.int16]
Values = npt.NDArray[np.int32]
#: the integers a sorting network sorts (int64, or int32 for vectors of twice as many)
Int = np.signedinteger[Any]

#: ``BINOMIAL[j, c] = C(c, j)`` for j >= 1; row 0 is zero so that a dropped card adds nothing.
BINOMIAL = np.array(
    [[comb(c, j) if j else 0 for c in range(53)] for j in range(MAX_CARDS + 1)],
    dtype=np.int32,
)


def subset_rows(k: int, size: int) -> npt.NDArray[np.int64]:
    """For each ``size``-subset of k sorted positions, the binomial row of each position.

    >>> subset_rows(3, 2).tolist()
    [[1, 2, 0], [1, 0, 2], [0, 1, 2]]
    """
    from itertools import combinations

    rows = []
    for kept in combinations(range(k), size):
        row = [0] * k
        for place, position in enumerate(kept):
            row[position] = place + 1
        rows.append(row)
    return np.array(rows, dtype=np.int64)


#: compiled once and cached on disk; no GIL, so callers may run kernels in threads
_compiled = nb.njit(cache=True, nogil=True, boundscheck=False)


@nb.njit(inline="always")
def cas(x: Int, y: Int) -> tuple[Int, Int]:
    """Compare and swap: the smaller, then the larger."""
    return min(x, y), max(x, y)


@_compiled
def lookup3(hands: Hands, table: Table, out: Values) -> int:
    b1, b2, b3 = BINOMIAL[1], BINOMIAL[2], BINOMIAL[3]
    for i in range(hands.shape[0]):
        a, b, c = np.int64(hands[i, 0]), np.int64(hands[i, 1]), np.int64(hands[i, 2])
        a, c = cas(a, c)
        a, b = cas(a, b)
        b, c = cas(b, c)
        if c >= 52 or a == b or b == c:
            return i
        out[i] = table[b1[a] + b2[b] + b3[c]]
    return -1


@nb.njit(inline="always")
def sort5(a: Int, b: Int, c: Int, d: Int, e: Int) -> tuple[Int, Int, Int, Int, Int]:
    """Five values in ascending order: a 9-comparator sorting network."""
    a, d = cas(a, d)
    b, e = cas(b, e)
    a, c = cas(a, c)
    b, d = cas(b, d)
    a, b = cas(a, b)
    c, e = cas(c, e)
    b, c = cas(b, c)
    d, e = cas(d, e)
    c, d = cas(c, d)
    return a, b, c, d, e


@_compiled
def lookup5(hands: Hands, table: Table, out: Values) -> int:
    b1, b2, b3, b4, b5 = BINOMIAL[1], BINOMIAL[2], BINOMIAL[3], BINOMIAL[4], BINOMIAL[5]
    for i in range(hands.shape[0]):
        a, b, c, d, e = sort5(
            np.int64(hands[i, 0]),
            np.int64(hands[i, 1]),
            np.int64(hands[i, 2]),
            np.int64(hands[i, 3]),
            np.int64(hands[i, 4]),
        )
        if e >= 52 or a == b or b == c or c == d or d == e:
            return i
        out[i] = table[b1[a] + b2[b] + b3[c] + b4[d] + b5[e]]
    return -1


@nb.njit(inline="always")
def next_combination(cards: npt.NDArray[np.int64], k: int) -> None:
    """Step k sorted cards to the next hand in colex order: raise the lowest card
    that can rise and reset the ones below it."""
    p = 0
    while p < k - 1 and cards[p] + 1 == cards[p + 1]:
        cards[p] = p
        p += 1
    cards[p] += 1


@_compiled
def fill_table(
    k: int,
    by_ranks: npt.NDArray[np.int16],
    by_flush: npt.NDArray[np.int16],
    table: Table,
) -> None:
    """Give every k-card hand (k <= 5) its value, walking the hands in colex order.

    ``by_ranks`` is indexed by the sorted ranks read as a base-13 number (lowest
    rank first) and ``by_flush`` by the 13-bit mask of ranks of a one-suit hand.
    """
    cards = np.arange(k)
    for index in range(table.shape[0]):
        ranks_key = 0
        mask = 0
        suits = 0
        for p in range(k - 1, -1, -1):
            rank = cards[p] >> 2
            ranks_key = ranks_key * 13 + rank
            mask |= 1 << rank
            suits |= 1 << (cards[p] & 3)
        one_suit = suits & (suits - 1) == 0
        table[index] = by_flush[mask] if one_suit else by_ranks[ranks_key]
        next_combination(cards, k)


@_compiled
def fill_best_of(
    table_in: npt.NDArray[np.int16],
    k: int,
    rows: npt.NDArray[np.int64],
    table_out: npt.NDArray[np.int16],
) -> None:
    """``table_out`` over k-card hands: the best subset value of ``table_in``.

    The hands are walked in colex order (:func:`next_combination`), each subset's
    index moved by the terms of the cards that move: mostly the lowest alone."""
    cards = np.arange(k)
    subsets = rows.shape[0]
    index_of = np.zeros(subsets, np.int64)  # each subset's colex index
    for m in range(subsets):
        for p in range(k):
            index_of[m] += BINOMIAL[rows[m, p], cards[p]]
    for index in range(table_out.shape[0]):
        best = 0
        for m in range(subsets):
            best = max(best, table_in[index_of[m]])
        table_out[index] = best
        p = 0  # next_combination, with the subsets' indexes
        while p < k - 1 and cards[p] + 1 == cards[p + 1]:
            for m in range(subsets):
                index_of[m] += BINOMIAL[rows[m, p], p] - BINOMIAL[rows[m, p], cards[p]]
            cards[p] = p
            p += 1
        for m in range(subsets):
            index_of[m] += BINOMIAL[rows[m, p], cards[p] + 1] - BINOMIAL[rows[m, p], cards[p]]
        cards[p] += 1
