"""Compiled evaluators of 5, 6 and 7 cards through small tables, indexed by ranks.

A poker hand's value depends on the multiset of its ranks alone, unless enough of
its cards share a suit to make a flush. So each evaluator reads one table of a few
tens of kilobytes, small enough to stay in the CPU's own caches however the hands
come (a table over all 2,598,960 five-card hands by colex index, 5 MB, does not,
and random hands then wait on memory):

* **No flush: the multiset of ranks.** The ranks sorted ``r0 <= r1 <= ... <= r(k-1)``
  become ``r0 < r1 + 1 < ... < r(k-1) + k - 1`` ("stars and bars"), a set of k
  numbers below ``12 + k``, and its colex index ``C(r0, 1) + C(r1 + 1, 2) + ... +
  C(r(k-1) + k - 1, k)`` numbers the multisets 0, 1, 2, ... without gaps:
  C(17, 5) = 6,188 for five cards, C(18, 6) = 18,564 for six, C(19, 7) = 50,388 for
  seven (a few of them hold a rank five times and are never read). The entry is the
  best value of any ``size`` of those ranks. Sorting the cards (``4 * rank + suit``)
  sorts their ranks, and ``RANK_TERMS[i, card]`` is the term of the i-th sorted card,
  plus one in its suit's 4-bit field above bit 32: one sum of k terms is the index
  and, above it, how many cards the hand holds of each suit.
* **A flush.** Five cards of one suit are the multiset index of their (distinct)
  ranks in a second half of the five-card table. With six or seven cards, at most
  one suit holds five or more, no other hand beats its flush (a full house or four of
  a kind beside it would take eight cards), and its value is that of its 13-bit mask of
  ranks, after the multiset part of the table (8,192 entries). Crazy 4's best four of
  five (:data:`~riverboat.hands.rankings.FOUR_CARD`) reads the multiset entry and,
  when four or five cards share a suit, the larger of it and their mask's entry: a
  four-card flush does not always beat the hand the ranks make.

The tables are built from a ranking's ``value_tables`` (values by sorted ranks and by
one-suit rank mask), so their values are the ranking's own, the ones
:func:`~riverboat.hands.evaluate.hand_table` holds by colex index.

Every kernel returns -1, or the first row that is not a hand (a card outside 0..51
or a card twice); ``out`` is then only partly written.
"""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement
from math import comb

import numba as nb
import numpy as np
import numpy.typing as npt

from riverboat.hands._kernels import _cas, sort5

Hands = npt.NDArray[np.uint8]
Table = npt.NDArray[np.int16]
Values = npt.NDArray[np.int32]
Terms = npt.NDArray[np.int64]

#: multisets of k ranks: where a table's part by flush rank mask starts
MULTISETS = {k: comb(12 + k, k) for k in (5, 6, 7)}
#: the five-card table's second half: five cards of one suit, by the multiset of ranks
FLUSH5 = MULTISETS[5]
#: the six- and seven-card tables' part by flush rank mask
FLUSH6, FLUSH7 = MULTISETS[6], MULTISETS[7]
#: ``RANK_TERMS[i, card]``: the i-th of k sorted cards' term of the multiset index,
#: plus one in its suit's 4-bit field above bit 32: their sum is the hand's index and,
#: above it, how many cards it holds of each suit
RANK_TERMS = np.array(
    [
        [comb(card // 4 + i, i + 1) + (1 << (32 + 4 * (card % 4))) for card in range(52)]
        for i in range(7)
    ],
    dtype=np.int64,
)
#: the multiset index in a sum of terms
_INDEX = (1 << 32) - 1

#: ``_BINOMIAL[j, x] = C(x, j)`` for the multiset indices worked out by numpy
_BINOMIAL = np.array([[comb(x, j) for x in range(20)] for j in range(8)], dtype=np.int64)

_compiled = nb.njit(cache=True, nogil=True, boundscheck=False)


def multisets(k: int) -> npt.NDArray[np.int64]:
    """Every sorted k-tuple of ranks (a rank may repeat), one per row."""
    return np.array(list(combinations_with_replacement(range(13), k)), dtype=np.int64)


def multiset_index(ranks: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The colex index of each row of sorted ranks as a multiset (see above).

    >>> multiset_index(np.array([[0, 0, 0, 0, 0], [0, 0, 0, 0, 1], [12, 12, 12, 12, 12]])).tolist()
    [0, 1, 6187]
    """
    index = np.zeros(len(ranks), dtype=np.int64)
    for i in range(ranks.shape[1]):
        index += _BINOMIAL[i + 1][ranks[:, i] + i]
    return index


def _best(
    values: npt.NDArray[np.int16], ranks: npt.NDArray[np.int64], size: int, key: str
) -> npt.NDArray[np.int16]:
    """For each row of sorted ranks, the best value of any ``size`` of them, read in
    ``values`` by the subset's sorted ranks in base 13 (lowest first) or by its mask."""
    best = np.full(len(ranks), -1, dtype=np.int16)
    for kept in combinations(range(ranks.shape[1]), size):
        sub = ranks[:, list(kept)]
        if key == "base 13":
            at = (sub * 13 ** np.arange(size)).sum(axis=1)
        else:
            at = (1 << sub).sum(axis=1)
        best = np.maximum(best, values[at])
    return best


def _by_multiset(by_ranks: npt.NDArray[np.int16], size: int, k: int) -> Table:
    """The best ``size`` of k ranks without a flush, by multiset index (-1: not a hand)."""
    ranks = multisets(k)
    possible = np.all(ranks[:, : k - 4] != ranks[:, 4:], axis=1)  # no rank five times
    table = np.full(MULTISETS[k], -1, dtype=np.int16)
    table[multiset_index(ranks[possible])] = _best(by_ranks, ranks[possible], size, "base 13")
    return table


def _by_mask(by_flush: npt.NDArray[np.int16], size: int, k: int) -> Table:
    """The best ``size`` cards of one suit, by the mask of the ranks of up to k cards of
    that suit (-1 for fewer than ``size``)."""
    table = np.full(1 << 13, -1, dtype=np.int16)
    for suited in range(size, k + 1):
        ranks = np.array(list(combinations(range(13), suited)), dtype=np.int64)
        table[(1 << ranks).sum(axis=1)] = _best(by_flush, ranks, size, "mask")
    return table


def five_table(by_ranks: npt.NDArray[np.int16], by_flush: npt.NDArray[np.int16]) -> Table:
    """Five cards by multiset index, then five of one suit by the same index."""
    distinct = multisets(5)
    distinct = distinct[np.all(np.diff(distinct, axis=1) > 0, axis=1)]
    flushes = np.full(FLUSH5, -1, dtype=np.int16)
    flushes[multiset_index(distinct)] = by_flush[(1 << distinct).sum(axis=1)]
    return np.concatenate([_by_multiset(by_ranks, 5, 5), flushes])


def best_table(
    by_ranks: npt.NDArray[np.int16], by_flush: npt.NDArray[np.int16], size: int, k: int
) -> Table:
    """The best ``size`` of k cards: by multiset index, then by a suit's rank mask."""
    return np.concatenate([_by_multiset(by_ranks, size, k), _by_mask(by_flush, size, k)])


@nb.njit(inline="always")
def _full_suits(key: np.int64, most: int) -> np.int64:
    """A bit set in the field of each suit that holds at least ``most`` of the cards
    (``most`` >= 4, so that no count overflows its field)."""
    return ((key >> 32) + (8 - most) * 0x1111) & 0x8888


@nb.njit(inline="always")
def _first_suit(full: np.int64) -> np.int64:
    """The suit of the lowest field set in ``full`` (not 0)."""
    if full & 0x8:
        return np.int64(0)
    if full & 0x80:
        return np.int64(1)
    return np.int64(2) if full & 0x800 else np.int64(3)


@nb.njit(inline="always")
def _in_suit(a: np.int64, suit: np.int64) -> np.int64:
    """The card's rank bit if it is of ``suit``."""
    return np.int64(1) << (a >> 2) if a & 3 == suit else np.int64(0)


@_compiled
def value5(hands: Hands, terms: Terms, table: Table, out: Values) -> int:
    t0, t1, t2, t3, t4 = terms[0], terms[1], terms[2], terms[3], terms[4]
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
        key = t0[a] + t1[b] + t2[c] + t3[d] + t4[e]
        flush = _full_suits(key, 5) != 0
        out[i] = table[(key & _INDEX) + (FLUSH5 if flush else 0)]
    return -1


@_compiled
def best5of6(hands: Hands, terms: Terms, table: Table, out: Values) -> int:
    t0, t1, t2, t3, t4, t5 = terms[0], terms[1], terms[2], terms[3], terms[4], terms[5]
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
        key = t0[a] + t1[b] + t2[c] + t3[d] + t4[e] + t5[f]
        full = _full_suits(key, 5)
        if full == 0:
            out[i] = table[key & _INDEX]
        else:
            suit = _first_suit(full)
            mask = _in_suit(a, suit) | _in_suit(b, suit) | _in_suit(c, suit)
            mask |= _in_suit(d, suit) | _in_suit(e, suit) | _in_suit(f, suit)
            out[i] = table[FLUSH6 + mask]
    return -1


@_compiled
def best5of7(hands: Hands, terms: Terms, table: Table, out: Values) -> int:
    t0, t1, t2, t3 = terms[0], terms[1], terms[2], terms[3]
    t4, t5, t6 = terms[4], terms[5], terms[6]
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
        key = t0[a] + t1[b] + t2[c] + t3[d] + t4[e] + t5[f] + t6[g]
        full = _full_suits(key, 5)
        if full == 0:
            out[i] = table[key & _INDEX]
        else:
            suit = _first_suit(full)
            mask = _in_suit(a, suit) | _in_suit(b, suit) | _in_suit(c, suit) | _in_suit(d, suit)
            mask |= _in_suit(e, suit) | _in_suit(f, suit) | _in_suit(g, suit)
            out[i] = table[FLUSH7 + mask]
    return -1


@_compiled
def best4of5(hands: Hands, terms: Terms, table: Table, out: Values) -> int:
    t0, t1, t2, t3, t4 = terms[0], terms[1], terms[2], terms[3], terms[4]
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
        key = t0[a] + t1[b] + t2[c] + t3[d] + t4[e]
        value = table[key & _INDEX]
        full = _full_suits(key, 4)
        if full != 0:
            suit = _first_suit(full)
            mask = _in_suit(a, suit) | _in_suit(b, suit) | _in_suit(c, suit)
            mask |= _in_suit(d, suit) | _in_suit(e, suit)
            value = max(value, table[FLUSH5 + mask])
        out[i] = value
    return -1


def table_indices(hands: npt.NDArray[np.integer], flushes: bool = True) -> npt.NDArray[np.intp]:
    """Where the kernel for hands of this many cards reads each hand's value, worked
    out by numpy: for tests and the benchmark's baseline. The hands must be valid.
    ``flushes=False``: the multiset entry of every hand, the one the best four of five
    reads for all hands."""
    k = hands.shape[1]
    cards = np.sort(hands.astype(np.int64), axis=1)
    index = multiset_index(cards >> 2)
    suits = cards & 3
    if not flushes:
        return index.astype(np.intp)
    if k == 5:
        flush = np.all(suits == suits[:, :1], axis=1)
        return np.where(flush, index + FLUSH5, index).astype(np.intp)
    counts = np.stack([(suits == s).sum(axis=1) for s in range(4)], axis=1)
    suit = counts.argmax(axis=1)
    mask = np.where(suits == suit[:, None], 1 << (cards >> 2), 0).sum(axis=1)
    flush = counts.max(axis=1) >= 5
    return np.where(flush, MULTISETS[k] + mask, index).astype(np.intp)
