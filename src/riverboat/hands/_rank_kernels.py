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
  sorts their ranks.
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

A kernel takes the hands ``BLOCK`` at a time, in two loops. The first sorts each
hand with a sorting network, checks it, counts its suits and works out its multiset
index by arithmetic (no table), all of it straight-line code on the hands as they
lie in memory (``k`` bytes a hand), which the compiler turns into vector instructions
that handle 16 hands at once; it writes each hand's *entry*. The second reads each
entry's value from the table, or, for the few hands with enough cards of one suit,
works out that suit's rank mask from the hand's cards first.

Every kernel returns -1, or the first row that is not a hand (a card outside 0..51
or a card twice); ``out`` is then only partly written.
"""

from __future__ import annotations

from itertools import combinations, combinations_with_replacement
from math import comb

import numpy as np
import numpy.typing as npt

from riverboat._jit import nb
from riverboat.hands._kernels import Int, cas, sort5

Hands = npt.NDArray[np.uint8]
Table = npt.NDArray[np.int16]
Values = npt.NDArray[np.int32]
Entries = npt.NDArray[np.int32]

#: multisets of k ranks: where a table's part by flush rank mask starts
MULTISETS = {k: comb(12 + k, k) for k in (5, 6, 7)}
#: the five-card table's second half: five cards of one suit, by the multiset of ranks
FLUSH5 = MULTISETS[5]
#: the six- and seven-card tables' part by flush rank mask
FLUSH6, FLUSH7 = MULTISETS[6], MULTISETS[7]
#: hands indexed at once: a loop the compiler turns into vector instructions works out
#: a block's entries, then another reads their values
BLOCK = 1024
#: an entry's bits from SUITS on: bit ``SUITS + 4 * suit`` for each suit holding
#: enough cards for a flush; below, the multiset index (the table's entry)
SUITS = 16
#: the entry of a row that is not a hand
NOT_A_HAND = -1
#: the multiset index in an entry
_INDEX = (1 << SUITS) - 1

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
def _sort6(a: Int, b: Int, c: Int, d: Int, e: Int, f: Int) -> tuple[Int, Int, Int, Int, Int, Int]:
    """Six values in ascending order: a 12-comparator sorting network."""
    a, f = cas(a, f)
    b, d = cas(b, d)
    c, e = cas(c, e)
    b, c = cas(b, c)
    d, e = cas(d, e)
    a, d = cas(a, d)
    c, f = cas(c, f)
    a, b = cas(a, b)
    c, d = cas(c, d)
    e, f = cas(e, f)
    b, c = cas(b, c)
    d, e = cas(d, e)
    return a, b, c, d, e, f


@nb.njit(inline="always")
def _sort7(
    a: Int, b: Int, c: Int, d: Int, e: Int, f: Int, g: Int
) -> tuple[Int, Int, Int, Int, Int, Int, Int]:
    """Seven values in ascending order: a 16-comparator sorting network."""
    a, g = cas(a, g)
    c, d = cas(c, d)
    e, f = cas(e, f)
    a, c = cas(a, c)
    b, e = cas(b, e)
    d, g = cas(d, g)
    a, b = cas(a, b)
    c, f = cas(c, f)
    d, e = cas(d, e)
    b, c = cas(b, c)
    e, g = cas(e, g)
    c, d = cas(c, d)
    e, f = cas(e, f)
    b, c = cas(b, c)
    d, e = cas(d, e)
    f, g = cas(f, g)
    return a, b, c, d, e, f, g


# The multiset index's term C(rank + i, i + 1) of the i-th sorted card, in float32
# arithmetic so that the loop over hands is vectorised: each product is of integers
# below 2**24, so exact, but the seventh term's last (within a few parts in 10**7);
# each term and their sum stay within 0.05 of the index, so rounding the sum gives it
# exactly (tests/test_hands.py checks every multiset).
@nb.njit(inline="always")
def _rank(card: Int) -> np.float32:
    return np.float32(card >> 2)


@nb.njit(inline="always")
def _term2(r: np.float32) -> np.float32:
    return r * (r + np.float32(1)) * np.float32(1 / 2)


@nb.njit(inline="always")
def _term3(r: np.float32) -> np.float32:
    return r * (r + np.float32(1)) * (r + np.float32(2)) * np.float32(1 / 6)


@nb.njit(inline="always")
def _term4(r: np.float32) -> np.float32:
    return r * (r + np.float32(1)) * (r + np.float32(2)) * (r + np.float32(3)) * np.float32(1 / 24)


@nb.njit(inline="always")
def _term5(r: np.float32) -> np.float32:
    product = r * (r + np.float32(1)) * (r + np.float32(2)) * (r + np.float32(3))
    return product * (r + np.float32(4)) * np.float32(1 / 120)


@nb.njit(inline="always")
def _term6(r: np.float32) -> np.float32:
    product = r * (r + np.float32(1)) * (r + np.float32(2)) * (r + np.float32(3))
    return product * (r + np.float32(4)) * (r + np.float32(5)) * np.float32(1 / 720)


@nb.njit(inline="always")
def _term7(r: np.float32) -> np.float32:
    product = r * (r + np.float32(1)) * (r + np.float32(2)) * (r + np.float32(3))
    product *= (r + np.float32(4)) * (r + np.float32(5)) * (r + np.float32(6))
    return product * np.float32(1 / 5040)


@nb.njit(inline="always")
def _rounded(index: np.float32) -> np.int32:
    return np.int32(index + np.float32(0.5))


@nb.njit(inline="always")
def _suit(card: Int) -> np.int32:
    """One in the card's suit's 4-bit field: a sum of these counts cards by suit."""
    return np.int32(1) << ((card & 3) << 2)


@nb.njit(inline="always")
def _suits_of(counts: Int, most: int) -> np.int32:
    """Bit ``SUITS + 4 * suit`` of an entry for each suit counted at least ``most``
    times (at most 8)."""
    return (((counts + (8 - most) * 0x1111) & 0x8888) >> 3) << SUITS


@_compiled
def _index5(cards: Hands, entries: Entries) -> None:
    for i in range(entries.shape[0]):
        a, b, c, d, e = sort5(
            np.int32(cards[5 * i]),
            np.int32(cards[5 * i + 1]),
            np.int32(cards[5 * i + 2]),
            np.int32(cards[5 * i + 3]),
            np.int32(cards[5 * i + 4]),
        )
        hand = (e < 52) & (a < b) & (b < c) & (c < d) & (d < e)
        flush = np.int32(((a ^ b) | (a ^ c) | (a ^ d) | (a ^ e)) & 3 == 0)
        r = _rank(a) + _term2(_rank(b)) + _term3(_rank(c)) + _term4(_rank(d)) + _term5(_rank(e))
        entries[i] = _rounded(r) + FLUSH5 * flush if hand else np.int32(NOT_A_HAND)


@_compiled
def _index4of5(cards: Hands, entries: Entries) -> None:
    for i in range(entries.shape[0]):
        a, b, c, d, e = sort5(
            np.int32(cards[5 * i]),
            np.int32(cards[5 * i + 1]),
            np.int32(cards[5 * i + 2]),
            np.int32(cards[5 * i + 3]),
            np.int32(cards[5 * i + 4]),
        )
        hand = (e < 52) & (a < b) & (b < c) & (c < d) & (d < e)
        suits = _suits_of(_suit(a) + _suit(b) + _suit(c) + _suit(d) + _suit(e), 4)
        r = _rank(a) + _term2(_rank(b)) + _term3(_rank(c)) + _term4(_rank(d)) + _term5(_rank(e))
        entries[i] = _rounded(r) | suits if hand else np.int32(NOT_A_HAND)


@_compiled
def _index6(cards: Hands, entries: Entries) -> None:
    for i in range(entries.shape[0]):
        a, b, c, d, e, f = _sort6(
            np.int32(cards[6 * i]),
            np.int32(cards[6 * i + 1]),
            np.int32(cards[6 * i + 2]),
            np.int32(cards[6 * i + 3]),
            np.int32(cards[6 * i + 4]),
            np.int32(cards[6 * i + 5]),
        )
        hand = (f < 52) & (a < b) & (b < c) & (c < d) & (d < e) & (e < f)
        suits = _suits_of(_suit(a) + _suit(b) + _suit(c) + _suit(d) + _suit(e) + _suit(f), 5)
        r = _rank(a) + _term2(_rank(b)) + _term3(_rank(c)) + _term4(_rank(d)) + _term5(_rank(e))
        r += _term6(_rank(f))
        entries[i] = _rounded(r) | suits if hand else np.int32(NOT_A_HAND)


@_compiled
def _index7(cards: Hands, entries: Entries) -> None:
    for i in range(entries.shape[0]):
        a, b, c, d, e, f, g = _sort7(
            np.int32(cards[7 * i]),
            np.int32(cards[7 * i + 1]),
            np.int32(cards[7 * i + 2]),
            np.int32(cards[7 * i + 3]),
            np.int32(cards[7 * i + 4]),
            np.int32(cards[7 * i + 5]),
            np.int32(cards[7 * i + 6]),
        )
        hand = (g < 52) & (a < b) & (b < c) & (c < d) & (d < e) & (e < f) & (f < g)
        counts = _suit(a) + _suit(b) + _suit(c) + _suit(d) + _suit(e) + _suit(f) + _suit(g)
        r = _rank(a) + _term2(_rank(b)) + _term3(_rank(c)) + _term4(_rank(d)) + _term5(_rank(e))
        r += _term6(_rank(f)) + _term7(_rank(g))
        entries[i] = _rounded(r) | _suits_of(counts, 5) if hand else np.int32(NOT_A_HAND)


@nb.njit(inline="always")
def _suited_ranks(hands: Hands, row: int, suits: Int) -> np.int64:
    """The mask of the ranks of the row's cards in the lowest of ``suits``."""
    suit = 0 if suits & 0x1 else 1 if suits & 0x10 else 2 if suits & 0x100 else 3
    mask = np.int64(0)
    for p in range(hands.shape[1]):
        card = np.int64(hands[row, p])
        if card & 3 == suit:
            mask |= np.int64(1) << (card >> 2)
    return mask


@nb.njit(inline="always")
def _read(
    hands: Hands, entries: Entries, start: int, table: Table, flushes: int, out: Values
) -> int:
    """Each entry's value into ``out`` from ``start`` on: the multiset's, or a flush's by
    its suit's rank mask (``flushes`` > 0: where the table's mask part starts; < 0:
    minus that, for the best four of five, which takes the larger of both); the first
    row that is not a hand, or -1."""
    for i in range(entries.shape[0]):
        entry = entries[i]
        if entry < 0:
            return start + i
        suits = entry >> SUITS
        if suits == 0:
            out[start + i] = table[entry]
        elif flushes > 0:
            out[start + i] = table[flushes + _suited_ranks(hands, start + i, suits)]
        else:
            best = table[entry & _INDEX]
            out[start + i] = max(best, table[-flushes + _suited_ranks(hands, start + i, suits)])
    return -1


@_compiled
def value5(hands: Hands, table: Table, out: Values) -> int:
    cards, entries = hands.reshape(-1), np.empty(BLOCK, np.int32)
    for start in range(0, hands.shape[0], BLOCK):
        block = entries[: min(BLOCK, hands.shape[0] - start)]
        _index5(cards[5 * start : 5 * (start + block.shape[0])], block)
        for i in range(block.shape[0]):  # a flush is in the entry: no suits to read
            entry = block[i]
            if entry < 0:
                return start + i
            out[start + i] = table[entry]
    return -1


@_compiled
def best4of5(hands: Hands, table: Table, out: Values) -> int:
    cards, entries = hands.reshape(-1), np.empty(BLOCK, np.int32)
    for start in range(0, hands.shape[0], BLOCK):
        block = entries[: min(BLOCK, hands.shape[0] - start)]
        _index4of5(cards[5 * start : 5 * (start + block.shape[0])], block)
        bad = _read(hands, block, start, table, -FLUSH5, out)
        if bad >= 0:
            return bad
    return -1


@_compiled
def best5of6(hands: Hands, table: Table, out: Values) -> int:
    cards, entries = hands.reshape(-1), np.empty(BLOCK, np.int32)
    for start in range(0, hands.shape[0], BLOCK):
        block = entries[: min(BLOCK, hands.shape[0] - start)]
        _index6(cards[6 * start : 6 * (start + block.shape[0])], block)
        bad = _read(hands, block, start, table, FLUSH6, out)
        if bad >= 0:
            return bad
    return -1


@_compiled
def best5of7(hands: Hands, table: Table, out: Values) -> int:
    cards, entries = hands.reshape(-1), np.empty(BLOCK, np.int32)
    for start in range(0, hands.shape[0], BLOCK):
        block = entries[: min(BLOCK, hands.shape[0] - start)]
        _index7(cards[7 * start : 7 * (start + block.shape[0])], block)
        bad = _read(hands, block, start, table, FLUSH7, out)
        if bad >= 0:
            return bad
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
