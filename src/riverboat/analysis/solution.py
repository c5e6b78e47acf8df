"""What the heads-up analysis counts and solves: :class:`Counted` (every hand's dealer
counts per outcome class and its results per option and line, kept on disk) and
:class:`Solution` (the best option of every hand for one combination of wagers,
its expected values and the weight of each outcome).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from math import comb, lcm
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from riverboat.analysis.headsup import HeadsUpGame

__all__ = ["Counted", "Solution", "colex_index", "narrow"]

Int64s = npt.NDArray[np.int64]

#: ``BINOMIAL[j, c] = C(c, j)``, the terms of a colex index, as the compiled kernels
#: (:mod:`riverboat.hands._kernels`) hold them: here too, so that finding a hand's
#: row loads no compiled code
BINOMIAL = np.array([[comb(c, j) if j else 0 for c in range(53)] for j in range(8)], dtype=np.int64)


@dataclass(frozen=True)
class Counted:
    """Dealer counts per outcome class for a set of player hands, and line totals."""

    values: Int64s  # [n] player values
    counts: Int64s  # [n, k]
    #: drawing games: for each hand and each best value a drawn card can make, the
    #: hand's row [m], that value [m] and the dealer hands per class over those cards [m, k]
    draw_hand: Int64s
    draw_value: Int64s
    draw_counts: Int64s
    totals: Int64s  # [n, option, line]

    def arrays(self) -> dict[str, npt.NDArray[np.integer]]:
        """The arrays to store, each in the narrowest type its values need."""
        return {
            "values": narrow(self.values),
            "counts": narrow(self.counts),
            "draw_hand": narrow(self.draw_hand),
            "draw_value": narrow(self.draw_value),
            "draw_counts": narrow(self.draw_counts),
            "totals": self.totals,
        }

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, npt.NDArray[np.integer]]) -> Counted:
        """Stored arrays back; ValueError if their shapes disagree."""
        values = arrays["values"].astype(np.int64, copy=False)
        counts = arrays["counts"].astype(np.int64, copy=False)
        hand = arrays["draw_hand"].astype(np.int64, copy=False)
        value = arrays["draw_value"].astype(np.int64, copy=False)
        drawn = arrays["draw_counts"].astype(np.int64, copy=False)
        totals = arrays["totals"].astype(np.int64, copy=False)
        n = len(values)
        if (
            values.ndim != 1
            or counts.ndim != 2
            or len(counts) != n
            or hand.ndim != 1
            or value.shape != hand.shape
            or drawn.shape[:1] != hand.shape
            or (len(hand) > 0 and (hand.min() < 0 or hand.max() >= n))
            or totals.ndim != 3
            or len(totals) != n
        ):
            raise ValueError("its arrays disagree on the number of hands")
        return cls(values, counts, hand, value, drawn, totals)


@dataclass
class Solution:
    """Every hand class's expected value per option, and the best option, for one
    wager combination."""

    game: HeadsUpGame
    wagers: dict[str, Fraction]
    hands: npt.NDArray[np.uint8]
    weights: Int64s
    counted: Counted
    #: a given strategy instead of the best: one option for every hand (a Crazy 4
    #: blind hand), or one per hand class
    fixed: int | Int64s | None = None

    @property
    def totals(self) -> Int64s:
        """[hand, option, line] over every deal of the hand, in 1/unit stakes."""
        return self.counted.totals

    @cached_property
    def scale(self) -> int:
        """A common denominator of the wagers, so that weighted totals stay integers."""
        return lcm(*(Fraction(w).denominator for w in self.wagers.values()))

    @cached_property
    def allowed(self) -> npt.NDArray[np.bool_]:
        """[hand, option]: the option is legal for the hand and the wagers placed."""
        values = self.counted.values  # each hand's value, as counted
        allowed = np.ones((len(self.hands), len(self.game.options)), dtype=bool)
        for i, option in enumerate(self.game.options):
            allowed[:, i] = values >= option.from_value
            if option.needs is not None and not self.wagers.get(option.needs):
                allowed[:, i] = False
            if option.excludes is not None and self.wagers.get(option.excludes):
                allowed[:, i] = False
        return allowed

    @cached_property
    def values(self) -> Int64s:
        """[hand, option]: total result over every deal of the hand, in
        1/(unit * scale) antes, with the wagers' weights."""
        weights = np.array(
            [
                int(Fraction(self.wagers.get(self.game.line_wagers[line], 0)) * self.scale)
                for line in self.game.lines
            ],
            dtype=np.int64,
        )
        values: Int64s = np.einsum("nol,l->no", self.totals, weights)
        return values

    @cached_property
    def choice(self) -> Int64s:
        """The best legal option of each hand (the first of equals)."""
        if isinstance(self.fixed, int):
            return np.full(len(self.hands), self.fixed, dtype=np.int64)
        if self.fixed is not None:
            return self.fixed
        masked = np.where(self.allowed, self.values, np.iinfo(np.int64).min)
        best: Int64s = np.argmax(masked, axis=1)
        return best

    def outcome_weights(self) -> Int64s:
        """Deals ``[option, p, k]`` under the best play: option chosen, player value
        (after any draw) and outcome class, over the whole cycle."""
        game = self.game
        boundaries, _ = game.classes
        tally = np.zeros(
            (len(game.options), boundaries.shape[0], boundaries.shape[1] - 1), dtype=np.int64
        )
        counted = self.counted
        for i, option in enumerate(game.options):
            chosen = self.choice == i
            if not chosen.any():
                continue
            if option.draws:
                rows = chosen[counted.draw_hand]
                hands = counted.draw_hand[rows]
                weight = counted.draw_counts[rows] * self.weights[hands, None]
                np.add.at(tally[i], counted.draw_value[rows], weight)
            else:
                weight = counted.counts[chosen] * (self.weights[chosen, None] * game.extra_factor)
                np.add.at(tally[i], counted.values[chosen], weight)
        return tally

    def deals_per_hand(self) -> int:
        game = self.game
        return self.game.cycle // comb(52, game.size)

    def expected(self, hand: int, option: int) -> Fraction:
        """The expected result of an option for one hand, in antes."""
        return Fraction(
            int(self.values[hand, option]), self.deals_per_hand() * self.game.unit * self.scale
        )


def narrow(array: Int64s) -> npt.NDArray[np.integer]:
    """``array`` in the narrowest signed integer type that holds its values.

    >>> narrow(np.array([0, 40_000])).dtype
    dtype('int32')
    """
    for kind in (np.int16, np.int32):
        if array.size == 0 or (
            array.min() >= np.iinfo(kind).min and array.max() <= np.iinfo(kind).max
        ):
            return array.astype(kind)
    return array


def colex_index(hands: npt.NDArray[np.uint8]) -> Int64s:
    """Each hand's colex index (its row in the tables)."""
    ordered = np.sort(hands.astype(np.int64), axis=1)
    index: Int64s = np.sum([BINOMIAL[j + 1][ordered[:, j]] for j in range(hands.shape[1])], axis=0)
    return index
