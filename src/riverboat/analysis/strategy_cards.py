"""Strategy cards: a short list of rules a person can memorise, found in the exact
tables, with what following it (and each rule) costs against the optimal strategy,
measured exactly.

A card is an ordered list of rules, the first that matches a hand wins; the last
(Fold, what the weakest hands take) takes every other hand. Each rule names hands in
a player's words (:mod:`~riverboat.analysis._card_shapes`): a range of hand values
(``"Q-6-4 or better"``, ``"a pair of 10s to Aces"``) and, for a game that may draw a
card, something the hand holds (four to a flush, three or more cards 10 or higher),
with an action. A greedy search over those shapes adds, one at a time, the rule that
saves the most expected value (every hand class weighs the deals it stands for),
each word priced at :data:`WORD_PRICE`, while a rule saves :data:`MIN_GAIN`; each
rule is then swapped for the best other while that pays, said in the plainest words
and put in the order a player reads a hand, strongest first. The card's cost is
exact: its choice for every hand class goes through the analyzer's own counting
(:class:`~riverboat.analysis.headsup.Solution` with that choice ``fixed``), so its
house edge is a fraction like the optimal one.

>>> from riverboat.analysis.strategy_cards import strategy_card
>>> card = strategy_card("tri-card", wagers={"ante": 1})
>>> print("\\n".join(card.lines()))
1. Raise with Q-6-4 or better.
2. Fold every other hand.
>>> card.cost, card.agreement
(Fraction(0, 1), Fraction(1, 1))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from riverboat.analysis import _card_shapes as shapes
from riverboat.analysis import analyze
from riverboat.analysis.outcomes import heads_up_outcomes
from riverboat.analysis.report import Figures, figures, percent
from riverboat.analysis.solution import Solution, colex_index
from riverboat.games import GameRules, find_game
from riverboat.games.rules import RulesError

__all__ = ["MIN_GAIN", "WORD_PRICE", "CardRule", "StrategyCard", "percent_cost", "strategy_card"]

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
class StrategyCard:
    """A card for one game, rules and wager combination, with its exact cost.

    ``agreement``: the share of deals on which the card's choice is the optimal one;
    ``card`` and ``optimal``: the figures under each; ``cost``: the card's extra
    house edge per Ante (>= 0, exactly); ``choice``: the card's option for every hand
    class of the optimal ``solution``.
    """

    game: str
    variant: str
    wagers: Mapping[str, Fraction]
    rules: tuple[CardRule, ...]
    #: what each rule costs per Ante against the optimal play (they sum to ``cost``)
    rule_costs: tuple[Fraction, ...]
    agreement: Fraction
    card: Figures
    optimal: Figures
    #: the card's option for every hand class of ``solution`` (the optimal play's)
    choice: Ints = field(repr=False, compare=False)
    solution: Solution = field(repr=False, compare=False)

    @property
    def edges(self) -> tuple[Fraction, Fraction]:
        """The house edge per Ante following the card, and under optimal play."""
        card, optimal = self.card.house_edge_per_ante, self.optimal.house_edge_per_ante
        assert card is not None  # a card needs a decision, made with an Ante
        assert optimal is not None
        return card, optimal

    @property
    def cost(self) -> Fraction:
        """What following the card costs per Ante against the optimal strategy."""
        card, optimal = self.edges
        return card - optimal

    def lines(self) -> list[str]:
        """The rules, numbered: the first that matches a hand wins."""
        return [f"{n}. {rule}" for n, rule in enumerate(self.rules, 1)]

    def costed_lines(self) -> list[str]:
        """The rules, numbered, each with what it costs against the optimal play in %
        of the Ante per hand dealt: ``"1. Raise with Q-6-4 or better. [0.0000%]"``."""
        return [
            f"{line} [{percent_cost(cost)}]"
            for line, cost in zip(self.lines(), self.rule_costs, strict=True)
        ]

    def summary(self) -> str:
        """``"Following this card: house edge X% vs optimal Y% (cost Z% of the Ante)"``,
        per Ante; a cost too small for four places is given to its first digit."""
        card, optimal = self.edges
        return (
            f"Following this card: house edge {percent(card)} vs optimal {percent(optimal)} "
            f"(cost {percent_cost(self.cost)} of the Ante); it agrees with the optimal "
            f"play on {percent(self.agreement, 2)} of deals."
        )

    def to_text(self) -> str:
        title = find_game(self.game).title
        wagers = ", ".join(f"{name} {amount}" for name, amount in self.wagers.items() if amount)
        return "\n".join(
            [
                f"{title} ({self.variant}), wagers {wagers}: strategy card",
                "The first rule that matches your hand wins. In brackets: what each rule",
                "costs against the optimal play, in % of the Ante per hand dealt.",
                "",
                *self.costed_lines(),
                "",
                self.summary(),
                "",
            ]
        )

    def to_json(self) -> dict[str, Any]:
        card, optimal = self.edges
        return {
            "game": self.game,
            "variant": self.variant,
            "wagers": {name: str(amount) for name, amount in self.wagers.items()},
            "rules": [
                {
                    "option": r.option,
                    "label": r.label,
                    "hands": r.hands,
                    "text": str(r),
                    "cost_per_ante": float(cost),
                    "cost_per_ante_exact": str(cost),
                }
                for r, cost in zip(self.rules, self.rule_costs, strict=True)
            ],
            "house_edge_per_ante": float(card),
            "optimal_house_edge_per_ante": float(optimal),
            "cost_per_ante": float(self.cost),
            "cost_per_ante_exact": str(self.cost),
            "agreement": float(self.agreement),
            "summary": self.summary(),
        }


def percent_cost(cost: Fraction) -> str:
    """A cost in % to four places; one too small for them, to its first digit."""
    places = 4
    while places < 10 and cost and round(float(cost) * 100, places) == 0:
        places += 1
    return percent(cost, places)


def strategy_card(
    game: str,
    rules: GameRules | None = None,
    wagers: Mapping[str, Any] | None = None,
    variant: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> StrategyCard:
    """The strategy card of ``game`` under ``rules`` (or a named variant) with
    ``wagers`` in units of the Ante, as :func:`riverboat.analysis.analyze` takes them."""
    result = analyze(game, rules, wagers, variant, progress)
    if result.strategy is None:
        raise RulesError(f"{game} has no decision: every bet stands alone, no card to follow")
    solution = result.strategy.solution
    if result.figures.house_edge_per_ante is None:
        spots = find_game(game).spec(result.rules).spots
        placed = " and ".join(s.label for s in spots if result.wagers.get(s.name))
        raise RulesError(f"{placed} alone has no decision: place the Ante for a strategy card")
    found = _search(solution)
    choice = found.choice
    card_figures = figures(heads_up_outcomes(replace(solution, fixed=choice)), result.wagers)
    agree = int(solution.weights[choice == solution.choice].sum())
    return StrategyCard(
        game=game,
        variant=getattr(result.rules, "variant", ""),
        wagers=result.wagers,
        rules=found.rules,
        rule_costs=_rule_costs(solution, choice, found.taken, len(found.rules)),
        agreement=Fraction(agree, int(solution.weights.sum())),
        card=card_figures,
        optimal=result.figures,
        choice=choice,
        solution=solution,
    )


def _rule_costs(solution: Solution, choice: Ints, taken: Ints, rules: int) -> tuple[Fraction, ...]:
    """What each rule costs per Ante against the optimal play, exactly: the value
    its hands lose by its option, over every deal; together the card's cost."""
    rows = np.arange(len(choice))
    lost = solution.values[rows, solution.choice] - solution.values[rows, choice]
    each = lost.astype(object) * solution.weights.astype(object)
    deals = solution.game.cycle * solution.game.unit * solution.scale
    ante = Fraction(solution.wagers["ante"])
    return tuple(Fraction(int(each[taken == k].sum()), deals) / ante for k in range(rules))


# ------------------------------------------------------------------ search
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


def _search(solution: Solution) -> _Found:
    """The card for ``solution``'s optimal play (module docstring)."""
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
                for i in np.argsort(flat)[::-1][:most]:
                    if flat[i] > -np.inf:
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
