"""Compiled counting for the exact analysis of heads-up poker games.

The question every poker game asks: given the player's cards, how many dealer hands
(from the cards left) fall into each *outcome class*, a run of dealer values
``[b_k, b_k+1)`` over which settlement does not change. Counting hands below a
value with some cards removed is inclusion-exclusion over the removed cards:

    #{hands avoiding E with value < x} = sum over S subset of E of
        (-1)**|S| * #{hands containing S with value < x}

The terms for |S| <= 3 are read from cumulative tables built once over all
C(52, 5) dealer hands; |S| = 4 and 5 are counted directly (48 hands and 1).
Player hands are reduced by suit symmetry (24 relabellings) before counting.
"""

from __future__ import annotations

import numba as nb
import numpy as np
import numpy.typing as npt

from riverboat.hands._kernels import BINOMIAL, next_combination, sort5

Cards = npt.NDArray[np.uint8]
Table = npt.NDArray[np.int16]

_compiled = nb.njit(cache=True, nogil=True)
_parallel = nb.njit(cache=True, nogil=True, parallel=True)


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
def _below_avoiding(
    removed: npt.NDArray[np.int64],
    x: int,
    cdf0: npt.NDArray[np.int64],
    cdf1: npt.NDArray[np.int32],
    cdf2: npt.NDArray[np.int32],
    cdf3: npt.NDArray[np.int16],
    quads: npt.NDArray[np.int16],
    quad_signs: npt.NDArray[np.int64],
) -> int:
    """Dealer hands avoiding the 5 ``removed`` cards (sorted) with value < x.

    ``quads`` holds the values of every hand holding 4 removed cards, and the
    removed hand itself, each with its inclusion-exclusion sign in ``quad_signs``.
    """
    count: int = cdf0[x]
    for i in range(5):
        count -= cdf1[removed[i], x]
        for j in range(i + 1, 5):
            count += cdf2[BINOMIAL[1, removed[i]] + BINOMIAL[2, removed[j]], x]
            for m in range(j + 1, 5):
                t = BINOMIAL[1, removed[i]] + BINOMIAL[2, removed[j]] + BINOMIAL[3, removed[m]]
                count -= cdf3[t, x]
    for q in range(quads.shape[0]):
        if quads[q] < x:
            count += quad_signs[q]
    return count


@_compiled
def _direct_terms(
    removed: npt.NDArray[np.int64],
    values: Table,
    quads: npt.NDArray[np.int16],
    signs: npt.NDArray[np.int64],
) -> None:
    """Values and signs of the hands holding 4 of the 5 removed cards (+) and of
    the removed hand itself (-)."""
    n = 0
    for skip in range(5):
        rest = [removed[i] for i in range(5) if i != skip]
        for card in range(52):
            if card != rest[0] and card != rest[1] and card != rest[2] and card != rest[3]:
                quads[n] = _value5(rest[0], rest[1], rest[2], rest[3], card, values)
                signs[n] = 1
                n += 1
    quads[n] = _value5(removed[0], removed[1], removed[2], removed[3], removed[4], values)
    signs[n] = -1


@_parallel
def class_counts(
    hands: npt.NDArray[np.int64],
    player_values: npt.NDArray[np.int64],
    boundaries: npt.NDArray[np.int64],
    dealer_values: Table,
    cdf0: npt.NDArray[np.int64],
    cdf1: npt.NDArray[np.int32],
    cdf2: npt.NDArray[np.int32],
    cdf3: npt.NDArray[np.int16],
    out: npt.NDArray[np.int64],
) -> None:
    """For each 5-card player hand, the dealer hands (from the 47 cards left) in
    each outcome class ``[boundaries[p, k], boundaries[p, k + 1])`` of its value p."""
    classes = boundaries.shape[1] - 1
    for n in nb.prange(hands.shape[0]):
        removed = hands[n].copy()
        quads = np.empty(5 * 48 + 1, np.int16)
        signs = np.empty(5 * 48 + 1, np.int64)
        _direct_terms(removed, dealer_values, quads, signs)
        p = player_values[n]
        below = _below_avoiding(removed, boundaries[p, 0], cdf0, cdf1, cdf2, cdf3, quads, signs)
        for k in range(classes):
            upper = _below_avoiding(
                removed, boundaries[p, k + 1], cdf0, cdf1, cdf2, cdf3, quads, signs
            )
            out[n, k] = upper - below
            below = upper


@_parallel
def draw_class_counts(
    hands: npt.NDArray[np.int64],
    boundaries: npt.NDArray[np.int64],
    values: Table,
    cdf0: npt.NDArray[np.int64],
    cdf1: npt.NDArray[np.int32],
    cdf2: npt.NDArray[np.int32],
    cdf3: npt.NDArray[np.int16],
    best_out: npt.NDArray[np.int64],
    out: npt.NDArray[np.int64],
) -> None:
    """A 5-card player hand that draws a sixth card (Rabbit Hunter's Buy).

    For each hand n and each of the 47 cards it may draw (in card order, skipping
    its own), ``best_out[n, j]`` gets the best-of-six value and ``out[n, j, k]`` the
    dealer hands from the 46 cards left in outcome class k of that value. The
    dealer's five come before the sixth card from the same 47, so the (sixth card,
    dealer hand) pairs count every deal once. ``values`` serves both the player's
    and the dealer's five-card hands.
    """
    classes = boundaries.shape[1] - 1
    for n in nb.prange(hands.shape[0]):
        player = hands[n].copy()
        quads = np.empty(5 * 48 + 1, np.int16)
        signs = np.empty(5 * 48 + 1, np.int64)
        _direct_terms(player, values, quads, signs)
        own = _value5(player[0], player[1], player[2], player[3], player[4], values)
        terms = np.empty(10 * 48 + 5, np.int16)
        term_signs = np.empty(10 * 48 + 5, np.int64)
        triple = np.empty(3, np.int64)
        j = 0
        for rabbit in range(52):
            if rabbit in (player[0], player[1], player[2], player[3], player[4]):
                continue
            best = own
            for skip in range(5):
                rest = [player[i] for i in range(5) if i != skip]
                best = max(best, _value5(rest[0], rest[1], rest[2], rest[3], rabbit, values))
                terms[skip] = _value5(rest[0], rest[1], rest[2], rest[3], rabbit, values)
                term_signs[skip] = 1  # the rabbit and 4 of the player's cards
            t = 5
            for a in range(5):
                for b in range(a + 1, 5):
                    for c in range(b + 1, 5):
                        for card in range(52):
                            if (
                                card != rabbit
                                and card != player[a]
                                and card != player[b]
                                and card != player[c]
                            ):
                                terms[t] = _value5(
                                    player[a], player[b], player[c], rabbit, card, values
                                )
                                term_signs[t] = -1  # the rabbit and 3 of the player's cards
                                t += 1
            best_out[n, j] = best
            previous = 0
            for k in range(classes + 1):
                x = boundaries[best, k]
                # hands that hold the rabbit but none of the player's cards
                holding = cdf1[rabbit, x]
                for a in range(5):
                    low, high = min(rabbit, player[a]), max(rabbit, player[a])
                    holding -= cdf2[BINOMIAL[1, low] + BINOMIAL[2, high], x]
                    for b in range(a + 1, 5):
                        triple[0], triple[1], triple[2] = rabbit, player[a], player[b]
                        _sort(triple, 3)
                        holding += cdf3[
                            BINOMIAL[1, triple[0]]
                            + BINOMIAL[2, triple[1]]
                            + BINOMIAL[3, triple[2]],
                            x,
                        ]
                for q in range(t):
                    if terms[q] < x:
                        holding += term_signs[q]
                below = _below_avoiding(player, x, cdf0, cdf1, cdf2, cdf3, quads, signs) - holding
                if k > 0:
                    out[n, j, k - 1] = below - previous
                previous = below
            j += 1
