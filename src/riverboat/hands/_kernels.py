"""Compiled kernels: sort each hand with a sorting network, index a table.

A hand of k distinct cards, sorted ``c0 < c1 < ... < c(k-1)``, has the
combinatorial (colex) index ``C(c0, 1) + C(c1, 2) + ... + C(c(k-1), k)``, which
numbers the ``C(52, k)`` hands 0, 1, 2, ... without gaps. A table indexed by it
holds each hand's value. The best 5 of 6 or 7 cards is the maximum over the
5-card subsets; each subset's index is a sum over the sorted cards with the
binomial row shifted past the dropped positions.

Every kernel returns -1, or the first row that is not a hand (a card outside
0..51 or a card twice); ``out`` is then only partly written.
"""

from __future__ import annotations

from math import comb

import numba as nb
import numpy as np
import numpy.typing as npt

MAX_CARDS = 7
Hands = npt.NDArray[np.uint8]
Table = npt.NDArray[np.int16]
Values = npt.NDArray[np.int32]

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
def _cas(x: np.int64, y: np.int64) -> tuple[np.int64, np.int64]:
    return min(x, y), max(x, y)


@_compiled
def lookup3(hands: Hands, table: Table, out: Values) -> int:
    b1, b2, b3 = BINOMIAL[1], BINOMIAL[2], BINOMIAL[3]
    for i in range(hands.shape[0]):
        a, b, c = np.int64(hands[i, 0]), np.int64(hands[i, 1]), np.int64(hands[i, 2])
        a, c = _cas(a, c)
        a, b = _cas(a, b)
        b, c = _cas(b, c)
        if c >= 52 or a == b or b == c:
            return i
        out[i] = table[b1[a] + b2[b] + b3[c]]
    return -1


@nb.njit(inline="always")
def sort5(
    a: np.int64, b: np.int64, c: np.int64, d: np.int64, e: np.int64
) -> tuple[np.int64, np.int64, np.int64, np.int64, np.int64]:
    """Five values in ascending order: a 9-comparator sorting network."""
    a, d = _cas(a, d)
    b, e = _cas(b, e)
    a, c = _cas(a, c)
    b, d = _cas(b, d)
    a, b = _cas(a, b)
    c, e = _cas(c, e)
    b, c = _cas(b, c)
    d, e = _cas(d, e)
    c, d = _cas(c, d)
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
def _best_of_sorted6(
    a: np.int64,
    b: np.int64,
    c: np.int64,
    d: np.int64,
    e: np.int64,
    f: np.int64,
    table: Table,
) -> np.int16:
    """The best 5 of six sorted cards: a card before the dropped one keeps its
    place in the colex sum, a card after it moves down one place."""
    b1, b2, b3, b4, b5 = BINOMIAL[1], BINOMIAL[2], BINOMIAL[3], BINOMIAL[4], BINOMIAL[5]
    below = b1[a], b1[a] + b2[b], b1[a] + b2[b] + b3[c], b1[a] + b2[b] + b3[c] + b4[d]
    above = b5[f], b4[e] + b5[f], b3[d] + b4[e] + b5[f], b2[c] + b3[d] + b4[e] + b5[f]
    best = max(table[b1[b] + above[3]], table[below[0] + above[3]])
    best = max(best, table[below[1] + above[2]])
    best = max(best, table[below[2] + above[1]])
    best = max(best, table[below[3] + above[0]])
    return max(best, table[below[3] + b5[e]])


@_compiled
def best5of6(hands: Hands, table: Table, out: Values) -> int:
    for i in range(hands.shape[0]):
        a, b, c = np.int64(hands[i, 0]), np.int64(hands[i, 1]), np.int64(hands[i, 2])
        d, e, f = np.int64(hands[i, 3]), np.int64(hands[i, 4]), np.int64(hands[i, 5])
        a, f = _cas(a, f)
        b, d = _cas(b, d)
        c, e = _cas(c, e)
        b, c = _cas(b, c)
        d, e = _cas(d, e)
        a, d = _cas(a, d)
        c, f = _cas(c, f)
        a, b = _cas(a, b)
        c, d = _cas(c, d)
        e, f = _cas(e, f)
        b, c = _cas(b, c)
        d, e = _cas(d, e)
        if f >= 52 or a == b or b == c or c == d or d == e or e == f:
            return i
        out[i] = _best_of_sorted6(a, b, c, d, e, f, table)
    return -1


@_compiled
def best5of7(hands: Hands, table: Table, out: Values) -> int:
    for i in range(hands.shape[0]):
        a, b, c = np.int64(hands[i, 0]), np.int64(hands[i, 1]), np.int64(hands[i, 2])
        d, e, f = np.int64(hands[i, 3]), np.int64(hands[i, 4]), np.int64(hands[i, 5])
        g = np.int64(hands[i, 6])
        a, g = _cas(a, g)
        c, d = _cas(c, d)
        e, f = _cas(e, f)
        a, c = _cas(a, c)
        b, e = _cas(b, e)
        d, g = _cas(d, g)
        a, b = _cas(a, b)
        c, f = _cas(c, f)
        d, e = _cas(d, e)
        b, c = _cas(b, c)
        e, g = _cas(e, g)
        c, d = _cas(c, d)
        e, f = _cas(e, f)
        b, c = _cas(b, c)
        d, e = _cas(d, e)
        f, g = _cas(f, g)
        if g >= 52 or a == b or b == c or c == d or d == e or e == f or f == g:
            return i
        # every five of the seven lie within one of the seven sixes
        best = max(
            _best_of_sorted6(b, c, d, e, f, g, table), _best_of_sorted6(a, c, d, e, f, g, table)
        )
        best = max(best, _best_of_sorted6(a, b, d, e, f, g, table))
        best = max(best, _best_of_sorted6(a, b, c, e, f, g, table))
        best = max(best, _best_of_sorted6(a, b, c, d, f, g, table))
        best = max(best, _best_of_sorted6(a, b, c, d, e, g, table))
        out[i] = max(best, _best_of_sorted6(a, b, c, d, e, f, table))
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
    """``table_out`` over k-card hands: the best subset value of ``table_in``."""
    cards = np.arange(k)
    for index in range(table_out.shape[0]):
        best = 0
        for m in range(rows.shape[0]):
            sub = 0
            for p in range(k):
                sub += BINOMIAL[rows[m, p], cards[p]]
            best = max(best, table_in[sub])
        table_out[index] = best
        next_combination(cards, k)
