"""Compiled counting for the exact analysis of heads-up poker games.

The question every poker game asks: given the player's cards, how many dealer hands
(from the cards left) fall into each *outcome class*, a run of dealer values
``[b_k, b_k+1)`` over which settlement does not change. Counting hands below a
value with some cards removed is inclusion-exclusion over the removed cards:

    #{hands avoiding E with value < x} = sum over S subset of E of
        (-1)**|S| * #{hands containing S with value < x}

The terms for |S| <= 3 are read from cumulative tables built once over all
C(52, 5) dealer hands, one row per value x (:func:`counting_tables`); for |S| = 4
the values of the 48 hands holding those four cards, and |S| = 5 is the one hand.
A game that draws no card needs no tables (:func:`swept_class_counts`): the dealer
hands are added in order of value to running counts, and every hand's terms at x
are read when the hands below x are in.
A hand that draws a card r (the rabbit) needs the dealer hands avoiding r too:
those are the hands avoiding the player's cards less the ones among them holding r,
counted by the same sum with r added to every S, so each card drawn costs a few
lookups. The (hand, card) pairs are taken in order of the best value they make, so
the few rows of the tables that value's classes read stay in the processor's cache.
Player hands are reduced by suit symmetry (24 relabellings) before counting.

The kernels hold no lock: :mod:`riverboat.analysis.headsup` runs parts of one count
on several threads.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from riverboat._jit import nb
from riverboat.hands._kernels import BINOMIAL, next_combination, sort5

Cards = npt.NDArray[np.uint8]
Table = npt.NDArray[np.int16]
#: the five-card counting tables of :func:`counting_tables`
Tables = tuple[
    npt.NDArray[np.int64],
    npt.NDArray[np.int32],
    npt.NDArray[np.int16],
    npt.NDArray[np.int16],
    npt.NDArray[np.int16],
]

#: compiled once and kept on disk; the compiler inlines the small steps where they pay
#: (numba's own inlining, ``inline="always"``, made the first compile twice as long)
_compiled = nb.njit(cache=True, nogil=True, boundscheck=False)


@_compiled
def canonical_hands(k: int) -> npt.NDArray[np.int64]:
    """For every k-card hand (colex order): the colex index of its least form under
    the 24 relabellings of the suits.

    Colex order is the order of the hands' 52-bit card masks (card ``4 * rank +
    suit``). With each suit's ranks spread four bits apart (``s0`` .. ``s3``), a
    relabelling gives the mask ``sum s << label``; swapping the labels i < j of two
    suits a and b changes it by ``(s_a - s_b) * (2**i - 2**j)``, so the least mask
    labels the suits 0, 1, 2, 3 in order of their masks, greatest first (equal ones
    either way). The least form's cards are the hand's cards so relabelled."""
    total = BINOMIAL[k, 52]
    least = np.empty(total, np.int64)
    cards = np.arange(k)
    mapped = np.empty(k, np.int64)
    for index in range(total):
        s0 = s1 = s2 = s3 = np.int64(0)
        for i in range(k):
            bit = np.int64(1) << (cards[i] & ~3)
            suit = cards[i] & 3
            s0 |= bit if suit == 0 else 0
            s1 |= bit if suit == 1 else 0
            s2 |= bit if suit == 2 else 0
            s3 |= bit if suit == 3 else 0
        # each suit's label, two bits a suit: the suits with a greater mask (or an
        # equal one and a lower suit) come before it
        labels = np.int64((s1 > s0) + (s2 > s0) + (s3 > s0))
        labels |= ((s0 >= s1) + (s2 > s1) + (s3 > s1)) << 2
        labels |= ((s0 >= s2) + (s1 >= s2) + (s3 > s2)) << 4
        labels |= ((s0 >= s3) + (s1 >= s3) + (s2 >= s3)) << 6
        for i in range(k):  # relabelled and sorted: only cards of one rank change places
            card = (cards[i] & ~3) | ((labels >> (2 * (cards[i] & 3))) & 3)
            j = i
            while j > 0 and mapped[j - 1] > card:
                mapped[j] = mapped[j - 1]
                j -= 1
            mapped[j] = card
        colex = 0
        for i in range(k):
            colex += BINOMIAL[i + 1, mapped[i]]
        least[index] = colex
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
def _by_value(values: Table, levels: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int32]]:
    """Every five-card hand in order of value: where each value's hands begin, and
    the hands, five cards of six bits each packed in one integer (colex order
    within a value)."""
    total = values.shape[0]
    start = np.zeros(levels + 1, np.int64)
    for index in range(total):
        start[values[index] + 1] += 1
    for x in range(levels):
        start[x + 1] += start[x]
    packed = np.empty(total, np.int32)
    fill = start[:levels].copy()
    cards = np.arange(5)
    for index in range(total):
        value = values[index]
        packed[fill[value]] = (
            cards[0] | cards[1] << 6 | cards[2] << 12 | cards[3] << 18 | cards[4] << 24
        )
        fill[value] += 1
        next_combination(cards, 5)
    return start, packed


@_compiled
def _add_hand(
    packed: int | np.int32,
    run1: npt.NDArray[np.int32],
    run2: npt.NDArray[np.int16],
    run3: npt.NDArray[np.int16],
    fours: npt.NDArray[np.int64],
) -> None:
    """Count one five-card hand (packed by :func:`_by_value`) in the running counts of
    the hands holding each of its cards, pairs and triples, by colex index ``c_i +
    C(c_j, 2) + C(c_m, 3)``, and put the indexes of its four-card subsets in ``fours``;
    each binomial looked up once (written out: as loops over the subsets the compiler
    looked them up again, 2.6 times slower)."""
    c0, c1, c2 = packed & 63, (packed >> 6) & 63, (packed >> 12) & 63
    c3, c4 = (packed >> 18) & 63, (packed >> 24) & 63
    two1, two2, two3, two4 = BINOMIAL[2, c1], BINOMIAL[2, c2], BINOMIAL[2, c3], BINOMIAL[2, c4]
    three2, three3, three4 = BINOMIAL[3, c2], BINOMIAL[3, c3], BINOMIAL[3, c4]
    four3, four4 = BINOMIAL[4, c3], BINOMIAL[4, c4]
    run1[c0] += 1
    run1[c1] += 1
    run1[c2] += 1
    run1[c3] += 1
    run1[c4] += 1
    run2[c0 + two1] += 1
    run2[c0 + two2] += 1
    run2[c0 + two3] += 1
    run2[c0 + two4] += 1
    run2[c1 + two2] += 1
    run2[c1 + two3] += 1
    run2[c1 + two4] += 1
    run2[c2 + two3] += 1
    run2[c2 + two4] += 1
    run2[c3 + two4] += 1
    run3[c0 + two1 + three2] += 1
    run3[c0 + two1 + three3] += 1
    run3[c0 + two1 + three4] += 1
    run3[c0 + two2 + three3] += 1
    run3[c0 + two2 + three4] += 1
    run3[c0 + two3 + three4] += 1
    run3[c1 + two2 + three3] += 1
    run3[c1 + two2 + three4] += 1
    run3[c1 + two3 + three4] += 1
    run3[c2 + two3 + three4] += 1
    fours[0] = c1 + two2 + three3 + four4
    fours[1] = c0 + two2 + three3 + four4
    fours[2] = c0 + two1 + three3 + four4
    fours[3] = c0 + two1 + three2 + four4
    fours[4] = c0 + two1 + three2 + four3


@_compiled
def counting_tables(values: Table, levels: int) -> Tables:
    """The five-card counting tables of ``values`` (the hands' values by colex index).

    ``cdf0[x]`` counts hands with value < x; ``cdf1[x, card]``, ``cdf2[x, pair]`` and
    ``cdf3[x, triple]`` count those holding one given card, two, three (by colex index
    of the cards), one row per x so that the counts of every subset at one value lie
    together; ``quads[four]`` holds the values of the 48 hands holding four given
    cards, sorted. The hands are walked in order of value, so each row is the one
    before it plus the hands of one value, and every quad row fills already sorted.
    """
    start, packed = _by_value(values, levels)
    cdf0 = np.zeros(levels + 1, np.int64)
    cdf1 = np.zeros((levels + 1, 52), np.int32)
    cdf2 = np.zeros((levels + 1, 1326), np.int16)  # at most C(50, 3) = 19,600
    cdf3 = np.zeros((levels + 1, 22100), np.int16)  # at most C(49, 2) = 1,176
    quads = np.empty((BINOMIAL[4, 52], 48), np.int16)
    filled = np.zeros(BINOMIAL[4, 52], np.int32)
    run1 = np.zeros(52, np.int32)
    run2 = np.zeros(1326, np.int16)
    run3 = np.zeros(22100, np.int16)
    fours = np.empty(5, np.int64)
    for x in range(levels + 1):
        cdf0[x] = start[x]
        for i in range(52):  # loops: numba compiles them faster than row copies
            cdf1[x, i] = run1[i]
        for i in range(1326):
            cdf2[x, i] = run2[i]
        for i in range(22100):
            cdf3[x, i] = run3[i]
        if x == levels:
            break
        for o in range(start[x], start[x + 1]):
            _add_hand(packed[o], run1, run2, run3, fours)
            for quad in fours:
                quads[quad, filled[quad]] = x
                filled[quad] += 1
    return cdf0, cdf1, cdf2, cdf3, quads


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
    """How many of a row's values are below x (no branch: vector code)."""
    count = 0
    for i in range(row.shape[0]):
        count += row[i] < x
    return count


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
        count -= cdf1[x, removed[i]]
        count += _below(holding[quads[i]], x)
    for i in range(10):
        count += cdf2[x, pairs[i]]
        count -= cdf3[x, triples[i]]
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
    rows: npt.NDArray[np.int64],
    out: npt.NDArray[np.int64],
) -> None:
    """For the 5-card player hands ``rows`` (best in order of value: the tables' rows
    they read stay in cache), the dealer hands (from the 47 cards left) in each
    outcome class ``[boundaries[p, k], boundaries[p, k + 1])`` of the hand's value p;
    ``tables``: :func:`counting_tables` of the dealer's values."""
    classes = boundaries.shape[1] - 1
    subsets = (np.empty(10, np.int64), np.empty(10, np.int64), np.empty(10, np.int64))
    for n in rows:
        removed = hands[n]
        _subsets(removed, -1, *subsets)
        own = _value5(removed[0], removed[1], removed[2], removed[3], removed[4], dealer_values)
        p = player_values[n]
        below = _below_avoiding(removed, boundaries[p, 0], own, subsets, tables)
        for k in range(classes):
            upper = _below_avoiding(removed, boundaries[p, k + 1], own, subsets, tables)
            out[n, k] = upper - below
            below = upper


@_compiled
def swept_class_counts(
    hands: npt.NDArray[np.int64],
    player_values: npt.NDArray[np.int64],
    boundaries: npt.NDArray[np.int64],
    dealer_values: Table,
    levels: int,
    out: npt.NDArray[np.int64],
) -> None:
    """:func:`class_counts` for every hand at once, without the tables: the dealer
    hands are added in order of value to running counts of the hands holding each
    card, pair, triple and four cards, and each hand's count below a class boundary
    x is read (by the same sum over subsets) when the hands below x are in. The
    running counts fit in the processor's cache; the tables, a row per value, do not."""
    n, classes = hands.shape[0], boundaries.shape[1] - 1
    # the questions (hand, boundary k) by x, as n * (classes + 1) + k
    asked = np.zeros(levels + 2, np.int64)
    for h in range(n):
        for k in range(classes + 1):
            asked[min(boundaries[player_values[h], k], levels) + 1] += 1
    for x in range(levels + 1):
        asked[x + 1] += asked[x]
    questions = np.empty(asked[levels + 1], np.int64)
    fill = asked[: levels + 1].copy()
    for h in range(n):
        for k in range(classes + 1):
            x = min(boundaries[player_values[h], k], levels)
            questions[fill[x]] = h * (classes + 1) + k
            fill[x] += 1
    start, packed = _by_value(dealer_values, levels)
    run1 = np.zeros(52, np.int32)
    run2 = np.zeros(1326, np.int16)  # at most C(50, 3) = 19,600
    run3 = np.zeros(22100, np.int16)  # at most C(49, 2) = 1,176
    run4 = np.zeros(BINOMIAL[4, 52], np.uint8)  # at most 48
    below = np.empty((n, classes + 1), np.int64)
    pairs, triples, quads = np.empty(10, np.int64), np.empty(10, np.int64), np.empty(5, np.int64)
    fours = np.empty(5, np.int64)
    for x in range(levels + 1):
        for q in range(asked[x], asked[x + 1]):
            h, k = questions[q] // (classes + 1), questions[q] % (classes + 1)
            removed = hands[h]
            _subsets(removed, -1, pairs, triples, quads)
            count = start[x]
            for i in range(5):
                count -= run1[removed[i]]
                count += run4[quads[i]]
            for i in range(10):
                count += run2[pairs[i]]
                count -= run3[triples[i]]
            r0, r1, r2, r3, r4 = removed[0], removed[1], removed[2], removed[3], removed[4]
            if _value5(r0, r1, r2, r3, r4, dealer_values) < x:  # the hand itself
                count -= 1
            below[h, k] = count
        if x == levels:
            break
        for o in range(start[x], start[x + 1]):
            _add_hand(packed[o], run1, run2, run3, fours)
            for quad in fours:
                run4[quad] += 1
    for h in range(n):
        for k in range(classes):
            out[h, k] = below[h, k + 1] - below[h, k]


@_compiled
def draw_bests(
    hands: npt.NDArray[np.int64],
    values: Table,
    best: npt.NDArray[np.int16],
    rank: npt.NDArray[np.int8],
    distinct: npt.NDArray[np.int16],
    kinds: npt.NDArray[np.int64],
) -> None:
    """A 5-card player hand that draws a sixth card (Rabbit Hunter's Buy): for each
    hand n and each of the 47 cards it may draw (in card order, skipping its own),
    ``best[n, j]`` gets the best-of-six value; ``distinct[n, :kinds[n]]`` the
    different best values, ascending, and ``rank[n, j]`` the place of ``best[n, j]``
    among them."""
    sorted_best = np.empty(47, np.int64)
    for n in range(hands.shape[0]):
        p0, p1, p2, p3, p4 = hands[n, 0], hands[n, 1], hands[n, 2], hands[n, 3], hands[n, 4]
        own = _value5(p0, p1, p2, p3, p4, values)
        j = 0
        for rabbit in range(52):
            if rabbit in (p0, p1, p2, p3, p4):
                continue
            value = max(
                own,
                _value5(p1, p2, p3, p4, rabbit, values),
                _value5(p0, p2, p3, p4, rabbit, values),
                _value5(p0, p1, p3, p4, rabbit, values),
                _value5(p0, p1, p2, p4, rabbit, values),
                _value5(p0, p1, p2, p3, rabbit, values),
            )
            best[n, j] = value
            sorted_best[j] = value
            j += 1
        sorted_best.sort()
        count = 0
        for j in range(47):
            if count == 0 or sorted_best[j] != distinct[n, count - 1]:
                distinct[n, count] = sorted_best[j]
                count += 1
        kinds[n] = count
        for j in range(47):
            place = 0
            while distinct[n, place] != best[n, j]:
                place += 1
            rank[n, j] = place


@_compiled
def draw_class_counts(
    hands: npt.NDArray[np.int64],
    best: npt.NDArray[np.int16],
    row_of: npt.NDArray[np.int64],
    pairs_in_order: npt.NDArray[np.int64],
    boundaries: npt.NDArray[np.int64],
    values: Table,
    tables: Tables,
    out: npt.NDArray[np.int64],
) -> None:
    """Add the dealer hands of each (hand, drawn card) pair in ``pairs_in_order`` (n * 47
    + j, by best value then hand: :func:`draw_bests`) to ``out[row_of[n, j], k]``, the
    dealer hands from the 46 cards left in outcome class k of the best value.

    The dealer's five come before the sixth card from the same 47, so the (sixth
    card, dealer hand) pairs count every deal once. ``values`` serves both the
    player's and the dealer's five-card hands; ``tables`` are :func:`counting_tables`.
    Hands avoiding the player's cards and the drawn card are those avoiding the
    player's (counted once for the pairs of a hand and best value) less those holding
    the drawn card: the sum over S within the player's cards of (-1)**|S| hands
    holding S and the drawn card (the four-card subsets with it are single hands).
    Pairs of one best value read the same few rows of the tables, which stay in cache.
    """
    cdf0, cdf1, cdf2, cdf3, holding = tables
    classes, levels = boundaries.shape[1] - 1, cdf0.shape[0] - 1
    everything = BINOMIAL[5, 46]  # dealer hands from the 46 cards left
    subsets = (np.empty(10, np.int64), np.empty(10, np.int64), np.empty(10, np.int64))
    with_pairs, with_triples, with_fours = np.empty((3, 10), np.int64)
    fives = np.empty(5, np.int64)
    avoiding = np.zeros(classes + 1, np.int64)  # dealer hands avoiding the player's, by k
    last_hand, last_best = -1, -1
    for pair in pairs_in_order:
        n, j = pair // 47, pair % 47
        player = hands[n]
        value = best[n, j]
        if n != last_hand or value != last_best:
            last_hand, last_best = n, value
            _subsets(player, -1, *subsets)
            own = _value5(player[0], player[1], player[2], player[3], player[4], values)
            for k in range(classes + 1):
                x = boundaries[value, k]
                if 0 < x < levels:
                    avoiding[k] = _below_avoiding(player, x, own, subsets, tables)
        rabbit = j  # the j-th card the player does not hold
        for i in range(5):
            if player[i] <= rabbit:
                rabbit += 1
        p0, p1, p2, p3, p4 = player[0], player[1], player[2], player[3], player[4]
        # the rabbit and four of the player's cards: fives[i] leaves out the i-th
        fives[0] = _value5(p1, p2, p3, p4, rabbit, values)
        fives[1] = _value5(p0, p2, p3, p4, rabbit, values)
        fives[2] = _value5(p0, p1, p3, p4, rabbit, values)
        fives[3] = _value5(p0, p1, p2, p4, rabbit, values)
        fives[4] = _value5(p0, p1, p2, p3, rabbit, values)
        _subsets(player, rabbit, with_pairs, with_triples, with_fours)
        row = row_of[n, j]
        previous = 0
        for k in range(classes + 1):
            x = boundaries[value, k]
            if x == 0:
                below = 0
            elif x >= levels:
                below = everything
            else:
                holding_rabbit = cdf1[x, rabbit]
                for i in range(5):
                    holding_rabbit -= cdf2[x, with_pairs[i]]
                    if fives[i] < x:
                        holding_rabbit += 1
                for i in range(10):
                    holding_rabbit += cdf3[x, with_triples[i]]
                    holding_rabbit -= _below(holding[with_fours[i]], x)
                below = avoiding[k] - holding_rabbit
            if k > 0:
                out[row, k - 1] += below - previous
            previous = below
