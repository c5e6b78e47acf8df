"""Compiled counting for the exact analysis of heads-up poker games.

The question every poker game asks: given the player's cards, how many dealer hands
(from the cards left) fall into each *outcome class*, a run of dealer values
``[b_k, b_k+1)`` over which settlement does not change. Counting hands below a
value with some cards removed is inclusion-exclusion over the removed cards:

    #{hands avoiding E with value < x} = sum over S subset of E of
        (-1)**|S| * #{hands containing S with value < x}

The terms for |S| <= 3 are read from cumulative tables built once over all
C(52, 5) dealer hands; for |S| = 4 a binary search in the sorted values of the 48
hands holding those four cards (:func:`quad_table`), and |S| = 5 is the one hand.
A hand that draws a card r (the rabbit) needs the dealer hands avoiding r too:
those are the hands avoiding the player's cards less the ones among them holding r,
counted by the same sum with r added to every S, so each card drawn costs a few
lookups. Player hands are reduced by suit symmetry (24 relabellings) before counting.
"""

from __future__ import annotations

import numba as nb
import numpy as np
import numpy.typing as npt

from riverboat.hands._kernels import BINOMIAL, next_combination, sort5

Cards = npt.NDArray[np.uint8]
Table = npt.NDArray[np.int16]
#: the five-card counting tables: :func:`subset_tables`' four and :func:`quad_table`
Tables = tuple[
    npt.NDArray[np.int64],
    npt.NDArray[np.int32],
    npt.NDArray[np.int32],
    npt.NDArray[np.int16],
    npt.NDArray[np.int16],
]

# one thread each: the machines it runs on share their cores between processes
_compiled = nb.njit(cache=True, nogil=True)
#: the steps of an inner loop, compiled into the loop that calls them
_inlined = nb.njit(cache=True, nogil=True, inline="always")


@_compiled
def _sort(cards: npt.NDArray[np.int64], k: int) -> None:
    for i in range(1, k):
        x = cards[i]
        j = i - 1
        while j >= 0 and cards[j] > x:
            cards[j + 1] = cards[j]
            j -= 1
        cards[j + 1] = x


@_compiled
def _colex(cards: npt.NDArray[np.int64], k: int) -> int:
    """Colex index of k sorted cards."""
    index = 0
    for i in range(k):
        index += BINOMIAL[i + 1, cards[i]]
    return index


@_compiled
def canonical_hands(k: int) -> npt.NDArray[np.int64]:
    """For every k-card hand (colex order): the colex index of its least form under
    the 24 relabellings of the suits."""
    total = BINOMIAL[k, 52]
    least = np.empty(total, np.int64)
    cards = np.arange(k)
    mapped = np.empty(k, np.int64)
    perms = np.empty((24, 4), np.int64)
    n = 0
    for a in range(4):
        for b in range(4):
            for c in range(4):
                for d in range(4):
                    if a != b and a != c and a != d and b != c and b != d and c != d:
                        perms[n, 0], perms[n, 1], perms[n, 2], perms[n, 3] = a, b, c, d
                        n += 1
    for index in range(total):
        best = index
        for p in range(24):
            for i in range(k):
                mapped[i] = (cards[i] & ~3) | perms[p, cards[i] & 3]
            _sort(mapped, k)
            best = min(best, _colex(mapped, k))
        least[index] = best
        next_combination(cards, k)
    return least


@_compiled
def all_hands(k: int) -> npt.NDArray[np.uint8]:
    """Every k-card hand, sorted cards, one per row in colex order."""
    total = BINOMIAL[k, 52]
    hands = np.empty((total, k), np.uint8)
    cards = np.arange(k)
    for index in range(total):
        for i in range(k):
            hands[index, i] = cards[i]
        next_combination(cards, k)
    return hands


@_compiled
def subset_tables(
    values: Table, levels: int
) -> tuple[
    npt.NDArray[np.int64], npt.NDArray[np.int32], npt.NDArray[np.int32], npt.NDArray[np.int16]
]:
    """Cumulative counts of 5-card hands below each value, over all hands and over
    the hands holding one given card, two, three: ``table[subset, x]`` counts hands
    with value < x. ``values`` are the hands' values by colex index."""
    total = values.shape[0]
    cdf0 = np.zeros(levels + 1, np.int64)
    cdf1 = np.zeros((52, levels + 1), np.int32)
    cdf2 = np.zeros((1326, levels + 1), np.int32)
    cdf3 = np.zeros((22100, levels + 1), np.int16)
    cards = np.arange(5)
    for index in range(total):
        v = values[index] + 1
        cdf0[v] += 1
        for i in range(5):
            cdf1[cards[i], v] += 1
            for j in range(i + 1, 5):
                cdf2[BINOMIAL[1, cards[i]] + BINOMIAL[2, cards[j]], v] += 1
                for m in range(j + 1, 5):
                    t = BINOMIAL[1, cards[i]] + BINOMIAL[2, cards[j]] + BINOMIAL[3, cards[m]]
                    cdf3[t, v] += 1
        next_combination(cards, 5)
    for x in range(1, levels + 1):
        cdf0[x] += cdf0[x - 1]
    for s in range(52):
        for x in range(1, levels + 1):
            cdf1[s, x] += cdf1[s, x - 1]
    for s in range(1326):
        for x in range(1, levels + 1):
            cdf2[s, x] += cdf2[s, x - 1]
    for s in range(22100):
        for x in range(1, levels + 1):
            cdf3[s, x] += cdf3[s, x - 1]
    return cdf0, cdf1, cdf2, cdf3


@_compiled
def _four_of(cards: npt.NDArray[np.int64], skip: int) -> int:
    """The colex index of five sorted cards but the one at ``skip``."""
    index = 0
    place = 1
    for i in range(5):
        if i != skip:
            index += BINOMIAL[place, cards[i]]
            place += 1
    return index


@_compiled
def quad_table(values: Table) -> Table:
    """For every 4-card set (by colex index), the values of the 48 five-card hands
    holding it, sorted: how many of them rank below x is a binary search."""
    table = np.empty((BINOMIAL[4, 52], 48), np.int16)
    filled = np.zeros(BINOMIAL[4, 52], np.int64)
    cards = np.arange(5)
    for index in range(values.shape[0]):
        for skip in range(5):
            quad = _four_of(cards, skip)
            table[quad, filled[quad]] = values[index]
            filled[quad] += 1
        next_combination(cards, 5)
    for quad in range(table.shape[0]):
        table[quad].sort()
    return table


@_compiled
def _value5(
    a: int | np.int64,
    b: int | np.int64,
    c: int | np.int64,
    d: int | np.int64,
    e: int | np.int64,
    values: Table,
) -> int:
    """The table value of five distinct cards in any order."""
    a, b, c, d, e = sort5(np.int64(a), np.int64(b), np.int64(c), np.int64(d), np.int64(e))
    return int(
        values[BINOMIAL[1, a] + BINOMIAL[2, b] + BINOMIAL[3, c] + BINOMIAL[4, d] + BINOMIAL[5, e]]
    )


@_compiled
def _below(row: Table, x: int | np.int64) -> int:
    """How many of a sorted row's values are below x."""
    low, high = 0, row.shape[0]
    while low < high:
        middle = (low + high) >> 1
        if row[middle] < x:
            low = middle + 1
        else:
            high = middle
    return low


@_compiled
def _subsets(
    cards: npt.NDArray[np.int64],
    extra: int,
    pairs: npt.NDArray[np.int64],
    triples: npt.NDArray[np.int64],
    quads: npt.NDArray[np.int64],
) -> None:
    """Colex indexes of the subsets of 5 sorted ``cards`` with ``extra`` added (-1:
    nothing added): ``pairs`` of one card and the extra (or pairs of cards), then
    ``triples`` and ``quads`` likewise, each in a fixed order."""
    if extra < 0:
        n = 0
        for i in range(5):
            for j in range(i + 1, 5):
                pairs[n] = BINOMIAL[1, cards[i]] + BINOMIAL[2, cards[j]]
                n += 1
        n = 0
        for i in range(5):
            for j in range(i + 1, 5):
                for m in range(j + 1, 5):
                    triples[n] = (
                        BINOMIAL[1, cards[i]] + BINOMIAL[2, cards[j]] + BINOMIAL[3, cards[m]]
                    )
                    n += 1
        for skip in range(5):
            quads[skip] = _four_of(cards, skip)
        return
    # a card below the extra keeps its place among those chosen; one above moves up one
    for i in range(5):
        pairs[i] = (
            BINOMIAL[1, cards[i]] + BINOMIAL[2, extra]
            if cards[i] < extra
            else BINOMIAL[1, extra] + BINOMIAL[2, cards[i]]
        )
    n = 0
    for i in range(5):
        for j in range(i + 1, 5):
            below = (cards[i] < extra) + (cards[j] < extra)
            triples[n] = (
                BINOMIAL[1 + (cards[i] > extra), cards[i]]
                + BINOMIAL[2 + (cards[j] > extra), cards[j]]
                + BINOMIAL[below + 1, extra]
            )
            n += 1
    n = 0
    for i in range(5):
        for j in range(i + 1, 5):
            for m in range(j + 1, 5):
                below = (cards[i] < extra) + (cards[j] < extra) + (cards[m] < extra)
                quads[n] = (
                    BINOMIAL[1 + (cards[i] > extra), cards[i]]
                    + BINOMIAL[2 + (cards[j] > extra), cards[j]]
                    + BINOMIAL[3 + (cards[m] > extra), cards[m]]
                    + BINOMIAL[below + 1, extra]
                )
                n += 1


@_compiled
def _below_avoiding(
    removed: npt.NDArray[np.int64],
    x: int | np.int64,
    own: int,
    subsets: tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]],
    tables: Tables,
) -> int:
    """Dealer hands avoiding the 5 ``removed`` cards with value < x, given the
    indexes of their pairs, triples and fours (:func:`_subsets` with nothing added)
    and their own value."""
    cdf0, cdf1, cdf2, cdf3, holding = tables
    pairs, triples, quads = subsets
    count: int = cdf0[x]
    for i in range(5):
        count -= cdf1[removed[i], x]
        count += _below(holding[quads[i]], x)
    for i in range(10):
        count += cdf2[pairs[i], x]
        count -= cdf3[triples[i], x]
    if own < x:
        count -= 1
    return count


@_compiled
def class_counts(
    hands: npt.NDArray[np.int64],
    player_values: npt.NDArray[np.int64],
    boundaries: npt.NDArray[np.int64],
    dealer_values: Table,
    tables: Tables,
    out: npt.NDArray[np.int64],
) -> None:
    """For each 5-card player hand, the dealer hands (from the 47 cards left) in
    each outcome class ``[boundaries[p, k], boundaries[p, k + 1])`` of its value p;
    ``tables``: :func:`subset_tables` and :func:`quad_table` of the dealer's values."""
    classes = boundaries.shape[1] - 1
    subsets = (np.empty(10, np.int64), np.empty(10, np.int64), np.empty(10, np.int64))
    for n in range(hands.shape[0]):
        removed = hands[n]
        _subsets(removed, -1, *subsets)
        own = _value5(removed[0], removed[1], removed[2], removed[3], removed[4], dealer_values)
        p = player_values[n]
        below = _below_avoiding(removed, boundaries[p, 0], own, subsets, tables)
        for k in range(classes):
            upper = _below_avoiding(removed, boundaries[p, k + 1], own, subsets, tables)
            out[n, k] = upper - below
            below = upper


@_inlined
def _best_with(
    player: npt.NDArray[np.int64],
    rabbit: int,
    own: int,
    values: Table,
    fives: npt.NDArray[np.int64],
) -> int:
    """The best five of the player's five and ``rabbit``: ``fives[skip]`` gets the value
    of the rabbit with the player's cards but the one at ``skip``."""
    best = own
    for skip in range(5):  # the rabbit and four of the player's cards
        rest = [player[i] for i in range(5) if i != skip]
        fives[skip] = _value5(rest[0], rest[1], rest[2], rest[3], rabbit, values)
        best = max(best, fives[skip])
    return best


@_inlined
def _holding_rabbit(
    rabbit: int,
    x: int,
    fives: npt.NDArray[np.int64],
    with_pairs: npt.NDArray[np.int64],
    with_triples: npt.NDArray[np.int64],
    with_fours: npt.NDArray[np.int64],
    tables: Tables,
) -> int:
    """Dealer hands below value ``x`` that avoid the player's cards but hold the drawn
    card ``rabbit``: the sum over S within the player's cards of (-1)**|S| hands
    holding S and the rabbit (the four-card subsets with it are single hands)."""
    _, cdf1, cdf2, cdf3, holding = tables
    count = cdf1[rabbit, x]
    for i in range(5):
        count -= cdf2[with_pairs[i], x]
        if fives[i] < x:
            count += 1
    for i in range(10):
        count += cdf3[with_triples[i], x]
        count -= _below(holding[with_fours[i]], x)
    return int(count)


@_compiled
def draw_class_counts(
    hands: npt.NDArray[np.int64],
    boundaries: npt.NDArray[np.int64],
    values: Table,
    tables: Tables,
    best_out: npt.NDArray[np.int64],
    out: npt.NDArray[np.int32],
) -> None:
    """A 5-card player hand that draws a sixth card (Rabbit Hunter's Buy).

    For each hand n and each of the 47 cards it may draw (in card order, skipping
    its own), ``best_out[n, j]`` gets the best-of-six value and ``out[n, j, k]`` the
    dealer hands from the 46 cards left in outcome class k of that value. The
    dealer's five come before the sixth card from the same 47, so the (sixth card,
    dealer hand) pairs count every deal once. ``values`` serves both the player's
    and the dealer's five-card hands; ``tables`` are their :func:`subset_tables`
    and :func:`quad_table`. Hands avoiding the player's cards and the drawn card are
    those avoiding the player's (counted once per hand and value, remembered) less
    those holding the drawn card (:func:`_holding_rabbit`).
    """
    classes, levels = boundaries.shape[1] - 1, tables[0].shape[0] - 1
    everything = BINOMIAL[5, 46]  # dealer hands from the 46 cards left
    subsets = (np.empty(10, np.int64), np.empty(10, np.int64), np.empty(10, np.int64))
    with_pairs, with_triples, with_fours = np.empty((3, 10), np.int64)
    fives = np.empty(5, np.int64)
    known = np.full(levels + 1, -1, np.int64)  # hands avoiding the player's, by x
    seen = np.empty(levels + 1, np.int64)
    for n in range(hands.shape[0]):
        player = hands[n]
        _subsets(player, -1, *subsets)
        own = _value5(player[0], player[1], player[2], player[3], player[4], values)
        remembered = 0
        j = 0
        for rabbit in range(52):
            if rabbit in (player[0], player[1], player[2], player[3], player[4]):
                continue
            best = _best_with(player, rabbit, own, values, fives)
            best_out[n, j] = best
            _subsets(player, rabbit, with_pairs, with_triples, with_fours)
            previous = 0
            for k in range(classes + 1):
                x = boundaries[best, k]
                if x == 0:
                    below = 0
                elif x >= levels:
                    below = everything
                else:
                    if known[x] < 0:
                        known[x] = _below_avoiding(player, x, own, subsets, tables)
                        seen[remembered] = x
                        remembered += 1
                    below = known[x] - _holding_rabbit(
                        rabbit, x, fives, with_pairs, with_triples, with_fours, tables
                    )
                if k > 0:
                    out[n, j, k - 1] = below - previous
                previous = below
            j += 1
        for i in range(remembered):
            known[seen[i]] = -1
