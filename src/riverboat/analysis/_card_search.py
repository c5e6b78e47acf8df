"""The search behind a strategy card (:mod:`riverboat.analysis.strategy_cards`): a
greedy pick of rule shapes by the expected value each saves, each word priced, then
each rule swapped for a better one while that pays, said in the plainest words and
put in the order a player reads a hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from riverboat.analysis import _card_shapes as shapes
from riverboat.analysis.solution import Solution, colex_index

__all__ = ["MAX_RULES", "MIN_GAIN", "WORD_PRICE", "CardRule", "search"]

#: a rule earns its place on the card by saving at least this share of the Ante per
#: hand against the card without it
MIN_GAIN = Fraction(1, 10_000)
#: the price of a word: a simpler rule wins unless the longer one saves this share of
#: the Ante per hand more (per extra rank named or thing held)
WORD_PRICE = Fraction(3, 2_000_000)
#: the most rules a card has before its last (every other hand)
MAX_RULES = 8

Bools = npt.NDArray[np.bool_]
Ints = npt.NDArray[np.int64]
Floats = npt.NDArray[np.float64]


@dataclass(frozen=True)
class CardRule:
    """One line of a card: take ``label`` (the option ``option``) with ``hands``."""

    option: str
    label: str
    hands: str

    def __str__(self) -> str:
        return f"{self.label} {'' if self.hands == 'every other hand' else 'with '}{self.hands}."


@dataclass(frozen=True)
class _Found:
    rules: tuple[CardRule, ...]
    choice: Ints  # the card's option for every hand class
    taken: Ints  # the rule (its index in ``rules``) that takes every hand class


@dataclass
class _Rule:
    """A rule while the card is being found: the hands it names (wherever it stands),
    its option, its words and their price."""

    matched: Bools
    option: int
    rule: CardRule
    price: float


def search(solution: Solution) -> _Found:
    """The card for ``solution``'s optimal play (:mod:`riverboat.analysis.strategy_cards`)."""
    search = _Search(solution)
    picked = search.improved(search.greedy([]))
    picked = search.plainest(_in_table_order(picked, search.values))
    picked = _in_table_order(picked, search.values)
    fallback = solution.game.options[search.default]
    rules = [rule.rule for rule in picked]
    rules.append(CardRule(fallback.name, fallback.label, "every other hand"))
    left, _, choice = search.card_of(picked)
    taken = np.full(len(choice), len(picked), dtype=np.int64)
    for k in reversed(range(len(picked))):
        taken[left[k] & picked[k].matched] = k
    return _Found(tuple(rules), choice[search.group], taken[search.group])


def _highest(scores: Floats, most: int) -> Ints:
    """The places of the ``most`` highest finite ``scores``, highest first, and of equal
    scores the later place first, whichever sort numpy has on the machine (equal scores
    are common: one rule at two places of a card). Only the scores at or above the
    ``most``-th are sorted, not all of them.

    >>> _highest(np.array([1.0, 3.0, -np.inf, 3.0, 2.0]), 2).tolist()
    [3, 1]
    >>> _highest(np.array([-np.inf, 5.0]), 3).tolist()
    [1]
    """
    finite = np.flatnonzero(scores > -np.inf)
    if most < len(finite):
        kth = len(finite) - most
        finite = finite[scores[finite] >= np.partition(scores[finite], kth)[kth]]
    top: Ints = finite[np.lexsort((-finite, -scores[finite]))][:most]
    return top


class _Search:
    """The rule shapes of one optimal play, and what a card of them is worth."""

    def __init__(self, solution: Solution) -> None:
        self.game = game = solution.game
        values = game.player_values[colex_index(solution.hands)].astype(np.int64)
        held = (
            shapes.features(solution.hands)
            if game.extra_card
            else {"": (np.ones(len(values), dtype=bool), 0)}
        )
        # hands of one value holding the same things take the same rules: one group
        signature = sum((mask.astype(np.int64) << k for k, (mask, _) in enumerate(held.values())))
        keys, first, self.group = np.unique(
            values * (1 << len(held)) + signature, return_index=True, return_inverse=True
        )
        groups = len(keys)
        weights = solution.weights.astype(np.float64)

        def summed(amounts: Floats) -> Floats:
            return np.stack(
                [np.bincount(self.group, amounts[:, c], groups) for c in range(amounts.shape[1])],
                axis=1,
            )

        self.values = values[first]
        self.weights = summed(weights[:, None])[:, 0]
        #: [group, option]: the group's total over all its deals
        self.worth = summed(solution.values.astype(np.float64) * weights[:, None])
        self.banned = summed((~solution.allowed).astype(np.float64))
        self.held = {name: (mask[first], extra) for name, (mask, extra) in held.items()}
        self.ranges = shapes.ranges(game.player_ranking, np.unique(self.values))
        self.lo = np.array([r.lo for r in self.ranges])
        self.hi = np.array([r.hi for r in self.ranges])
        self.price = np.array([r.price for r in self.ranges], dtype=np.float64)
        self.total = float(self.weights.sum())
        per_ante = float(game.cycle * game.unit * solution.scale * solution.wagers["ante"])
        self.word, self.least = float(WORD_PRICE) * per_ante, float(MIN_GAIN) * per_ante
        # the last line takes what the weakest hands holding nothing else take ("Fold
        # every other hand"), so the rules read from the strongest hand down to it
        plain = np.ones(groups, dtype=bool)
        for name, (mask, _) in self.held.items():
            plain &= ~mask if name else plain
        weakest = plain & (self.values == self.values[plain].min())
        legal = self.banned.sum(axis=0) == 0
        self.default = int(np.argmax(np.where(legal, self.worth[weakest].sum(axis=0), -np.inf)))

    def per_range(self, mask: Bools, amounts: Floats) -> Floats:
        """``amounts`` ([hand, column]) of the masked hands summed by range."""
        columns = [
            np.bincount(self.values[mask], amounts[mask, c], self.game.player_ranking.count + 1)
            for c in range(amounts.shape[1])
        ]
        above = np.cumsum(np.stack(columns, axis=1)[::-1], axis=0)[::-1]
        tally: Floats = above[self.lo] - above[self.hi]  # above[t]: every value >= t
        return tally

    def card_of(self, picked: list[_Rule]) -> tuple[list[Bools], float, Ints]:
        """A card's hands left before each rule, its worth and its choice."""
        left = [np.ones(len(self.values), dtype=bool)]
        for rule in picked:
            left.append(left[-1] & ~rule.matched)
        choice = np.full(len(self.values), self.default, dtype=np.int64)
        for k in reversed(range(len(picked))):
            choice[left[k] & picked[k].matched] = picked[k].option
        return left, float(self.worth[np.arange(len(self.values)), choice].sum()), choice

    def score(self, picked: list[_Rule]) -> float:
        """What the card is worth, less its words and its rules."""
        words = sum(rule.price for rule in picked)
        return self.card_of(picked)[1] - self.word * words - self.least * len(picked)

    def rule(self, name: str, r: int, option: int) -> _Rule:
        mask, extra = self.held[name]
        matched = mask & (self.values >= self.lo[r]) & (self.values < self.hi[r])
        said = _rule(self.game.options[option], self.ranges[r].words, name)
        named = float(self.weights[matched].sum()) / (2 * self.total)
        return _Rule(matched, option, said, float(self.price[r]) + extra + named)

    def additions(self, picked: list[_Rule], most: int = 1) -> list[tuple[float, list[_Rule]]]:
        """The ``most`` rules, each at its place in ``picked``, that add most to its
        score, with the card each makes; every rule shape at every place (a rule put
        before others takes their hands first). A rule names a draw or hands narrower
        than any hand; "any hand" is the last line's."""
        left, _, choice = self.card_of(picked)
        now = self.worth[np.arange(len(self.values)), choice][:, None]
        options = self.worth.shape[1]
        found: list[tuple[float, int, str, int, int]] = []
        for place, before in enumerate(left):
            for name, (mask, extra) in self.held.items():
                # the hands the rule takes change from the option they had to its own
                tally = self.per_range(before & mask, np.hstack([self.worth - now, self.banned]))
                gain = np.where(tally[:, options:] < 0.5, tally[:, :options], -np.inf)
                if not name:
                    gain[0] = -np.inf
                score = gain - self.word * (self.price + extra)[:, None] - self.least
                score[gain <= 0] = -np.inf
                flat = score.ravel()
                for i in _highest(flat, most):
                    r, o = (int(j) for j in np.unravel_index(int(i), score.shape))
                    found.append((float(flat[i]), place, name, r, o))
        found.sort(key=lambda f: -f[0])
        return [
            (gained, [*picked[:place], self.rule(name, r, option), *picked[place:]])
            for gained, place, name, r, option in found[:most]
        ]

    def greedy(self, picked: list[_Rule]) -> list[_Rule]:
        """``picked`` grown one rule at a time, the best addition, while one pays."""
        while len(picked) < MAX_RULES:
            added = self.additions(picked)
            if not added or added[0][0] <= 0:
                break
            picked = added[0][1]
        return picked

    def improved(self, picked: list[_Rule]) -> list[_Rule]:
        """Each rule in turn taken out and the best addition put in its stead, while
        that raises the score; then a rule that does not pay its way goes."""
        now, tries, k = self.score(picked), 0, 0
        while k < len(picked) and tries < 4 * MAX_RULES:
            tries += 1
            added = self.additions(picked[:k] + picked[k + 1 :])
            better = added[0][1] if added and self.score(added[0][1]) > now + self.word else None
            if better is not None:
                picked, now, k = better, self.score(better), 0
            else:
                k += 1
        while picked:
            without = [self.score(picked[:k] + picked[k + 1 :]) for k in range(len(picked))]
            k = int(np.argmax(without))
            if without[k] < now:
                break
            del picked[k]
            now = without[k]
        return picked

    def plainest(self, picked: list[_Rule]) -> list[_Rule]:
        """Each rule in the plainest words that take the same hands of those left to
        it; of equal words, the ones naming fewest hands the rules before it took."""
        left = self.card_of(picked)[0]
        said = list(picked)
        ones = self.weights[:, None]
        for k, rule in enumerate(picked):
            takes = left[k] & rule.matched
            need = float(self.weights[takes].sum())
            for name, (mask, extra) in self.held.items():
                got = self.per_range(left[k] & mask & takes, ones)[:, 0]
                alls = self.per_range(left[k] & mask, ones)[:, 0]
                named = self.per_range(mask, ones)[:, 0] / (2 * self.total)
                same = (got == need) & (alls == need)
                if not name:
                    same[0] = False
                price = np.where(same, self.price + extra + named, np.inf)
                r = int(np.argmin(price))
                if same[r] and price[r] < said[k].price:
                    said[k] = self.rule(name, r, rule.option)
        return said


def _in_table_order(picked: list[_Rule], values: Ints) -> list[_Rule]:
    """The rules in the order a player reads a hand, strongest first: a rule moves
    above the one before it when its weakest hand is stronger, unless that would
    change the option of a hand both name."""
    order = list(picked)
    weakest = {id(r): int(values[r.matched].max()) if r.matched.any() else -1 for r in order}
    moved = True
    while moved:
        moved = False
        left = np.ones(len(values), dtype=bool)
        for k in range(len(order) - 1):
            first, second = order[k], order[k + 1]
            both = left & first.matched & second.matched
            if weakest[id(second)] > weakest[id(first)] and (
                first.option == second.option or not both.any()
            ):
                order[k], order[k + 1] = second, first
                moved = True
            left &= ~order[k].matched
    return order


def _rule(option: Any, hands: str, draw: str) -> CardRule:
    if draw and hands == "any hand":
        hands = draw
    elif draw:
        hands = f"{hands} holding {draw}"
    return CardRule(option.name, option.label, hands)
