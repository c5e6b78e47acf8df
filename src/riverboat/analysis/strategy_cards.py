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

import numpy as np
import numpy.typing as npt

from riverboat.analysis import GivenWagers, analyze
from riverboat.analysis._card_search import MIN_GAIN, WORD_PRICE, CardRule, search
from riverboat.analysis.outcomes import heads_up_outcomes
from riverboat.analysis.report import Figures, figures, percent
from riverboat.analysis.solution import Solution
from riverboat.games import GameRules, find_game
from riverboat.games.rules import RulesError
from riverboat.json_types import JsonObject

__all__ = ["MIN_GAIN", "WORD_PRICE", "CardRule", "StrategyCard", "percent_cost", "strategy_card"]

Ints = npt.NDArray[np.int64]


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

    def to_json(self) -> JsonObject:
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
    wagers: GivenWagers | None = None,
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
    found = search(solution)
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
