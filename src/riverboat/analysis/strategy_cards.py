"""Strategy cards: a short list of rules a person can memorise, found in the exact
tables, with what following it costs against the optimal strategy, measured exactly.

A card is an ordered list of rules, the first that matches a hand wins; the last
takes every other hand. Each rule is a hand's value range (``"Q-6-4 or better"``,
``"Pair of Twos to Pair of Nines"``), for a game that may draw a card also a draw it
holds (four to a flush, an open-ended straight draw), and an action. A greedy search
over those shapes adds, one at a time, the rule that makes the card agree with the
optimal choice on the most deals (every hand weighs the deals it stands for), simple
words breaking near-ties, until a rule would add less than :data:`MIN_GAIN` of the
deals. The card's cost is then exact: its choice for every hand class goes through
the analyzer's own counting (:class:`~riverboat.analysis.headsup.Solution` with that
choice ``fixed``), so its house edge is a fraction like the optimal one.

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

from riverboat.analysis import analyze, heads_up_outcomes
from riverboat.analysis.headsup import Solution, colex_index
from riverboat.analysis.report import Figures, figures, percent
from riverboat.games import GameRules, find_game
from riverboat.games.rules import RulesError
from riverboat.hands import HandRanking

__all__ = ["MIN_GAIN", "CardRule", "StrategyCard", "strategy_card"]

#: a rule earns its place on the card by agreeing with the optimal choice on at least
#: this share of the deals more than the card without it
MIN_GAIN = Fraction(1, 1000)
#: the price of a word: a simpler rule wins unless the longer one agrees on this share
#: of the deals more (per extra rank named or draw required)
WORD_PRICE = Fraction(1, 10_000)
#: the most rules a card has before its last (every other hand)
MAX_RULES = 8

Bools = npt.NDArray[np.bool_]
Ints = npt.NDArray[np.int64]


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

    def summary(self) -> str:
        """``"Following this card: house edge X% vs optimal Y% (cost Z% of the Ante)"``,
        per Ante; a cost too small for four places is given to its first digit."""
        card, optimal = self.edges
        places = 4
        while places < 10 and self.cost and round(float(self.cost) * 100, places) == 0:
            places += 1
        return (
            f"Following this card: house edge {percent(card)} vs optimal {percent(optimal)} "
            f"(cost {percent(self.cost, places)} of the Ante); it agrees with the optimal "
            f"play on {percent(self.agreement, 2)} of deals."
        )

    def to_text(self) -> str:
        title = find_game(self.game).title
        wagers = ", ".join(f"{name} {amount}" for name, amount in self.wagers.items() if amount)
        return "\n".join(
            [
                f"{title} ({self.variant}), wagers {wagers}: strategy card",
                "The first rule that matches your hand wins.",
                "",
                *self.lines(),
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
                {"option": r.option, "label": r.label, "hands": r.hands, "text": str(r)}
                for r in self.rules
            ],
            "house_edge_per_ante": float(card),
            "optimal_house_edge_per_ante": float(optimal),
            "cost_per_ante": float(self.cost),
            "cost_per_ante_exact": str(self.cost),
            "agreement": float(self.agreement),
            "summary": self.summary(),
        }


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
        raise RulesError(
            f"{', '.join(n for n, a in result.wagers.items() if a)} alone has no decision: "
            "place the Ante for a strategy card"
        )
    found = _search(solution)
    choice = found.choice
    card_figures = figures(heads_up_outcomes(replace(solution, fixed=choice)), result.wagers)
    agree = int(solution.weights[choice == solution.choice].sum())
    return StrategyCard(
        game=game,
        variant=getattr(result.rules, "variant", ""),
        wagers=result.wagers,
        rules=found.rules,
        agreement=Fraction(agree, int(solution.weights.sum())),
        card=card_figures,
        optimal=result.figures,
        choice=choice,
        solution=solution,
    )


# ------------------------------------------------------------------ search
@dataclass(frozen=True)
class _Found:
    rules: tuple[CardRule, ...]
    choice: Ints  # the card's option for every hand class


@dataclass(frozen=True)
class _Range:
    """Hand values ``lo <= v < hi``, with their words and how many words they take."""

    lo: int
    hi: int
    words: str
    price: int


def _search(solution: Solution) -> _Found:
    """The greedy search over rule shapes (module docstring): each round tries every
    rule shape at every place in the card (a rule put before others takes their hands
    first) and keeps the one that adds the most agreement, words priced."""
    game = solution.game
    values = game.player_values[colex_index(solution.hands)].astype(np.int64)
    weights = solution.weights.astype(np.int64)
    target, allowed = solution.choice, solution.allowed
    options, levels = len(game.options), game.player_ranking.count
    total = int(weights.sum())
    draws = _draws(solution.hands) if game.extra_card else {"": np.ones(len(values), bool)}
    ranges = _ranges(game.player_ranking, np.unique(values))
    lo = np.array([r.lo for r in ranges])
    hi = np.array([r.hi for r in ranges])
    price = np.array([r.price for r in ranges], dtype=np.float64)
    word = float(WORD_PRICE) * total

    def per_range(mask: Bools, key: Ints, width: int) -> Ints:
        """Deals of the masked hands by range and ``key`` (0 .. width - 1); exact: the
        float sums stay far below 2**53."""
        counts = np.bincount(
            values[mask] * width + key[mask], weights[mask], (levels + 1) * width
        ).reshape(levels + 1, width)
        above: Ints = np.cumsum(counts[::-1], axis=0)[::-1].round().astype(np.int64)
        tally: Ints = above[lo] - above[hi]  # above[t]: every value >= t
        return tally

    def illegal(mask: Bools) -> Ints:
        """Deals by range and option on which the option is not allowed."""
        none = np.zeros_like(values)
        banned: Ints = np.stack(
            [per_range(mask & ~allowed[:, o], none, 1)[:, 0] for o in range(options)], axis=1
        )
        return banned

    picked: list[tuple[Bools, int, CardRule]] = []
    while True:
        # the card so far: what each rule takes, and the best default for the rest
        left = [np.ones(len(values), dtype=bool)]
        for matched, _, _ in picked:
            left.append(left[-1] & ~matched)
        rest_right = per_range(left[-1], target, options)[0]
        rest_banned = illegal(left[-1])[0]
        default, base = _best_default(rest_right, rest_banned)
        choice = np.full(len(values), default, dtype=np.int64)
        for k in reversed(range(len(picked))):
            choice[left[k] & picked[k][0]] = picked[k][1]
        correct = (choice == target).astype(np.int64)
        if len(picked) == MAX_RULES:
            break
        best: tuple[float, int, str, int, int] | None = None
        for place, before in enumerate(left):
            last = place == len(picked)
            for name, held in draws.items():
                mask = before & held
                right = per_range(mask, target, options)
                banned = illegal(mask)
                if last:  # appended: the default is chosen again for what is left
                    rest = np.where(
                        rest_banned[None, :] - banned == 0, rest_right[None, :] - right, -1
                    ).max(axis=1)
                    gain = right + (rest - base)[:, None]
                else:  # put before rule ``place``: the hands it takes change hands
                    gain = right - per_range(mask, correct, 2)[:, 1:]
                gain = np.where(banned == 0, gain, -1)
                score = gain - word * (price + (1 if name else 0))[:, None]
                r, o = (int(i) for i in np.unravel_index(int(np.argmax(score)), score.shape))
                if gain[r, o] > 0 and (best is None or score[r, o] > best[0]):
                    best = (float(score[r, o]), place, name, r, o)
        if best is None or best[0] < float(MIN_GAIN) * total:
            break
        _, place, name, r, chosen = best
        matched = draws[name] & (values >= lo[r]) & (values < hi[r])
        picked.insert(place, (matched, chosen, _rule(game.options[chosen], ranges[r].words, name)))
    fallback = game.options[default]
    rules = [rule for _, _, rule in picked]
    rules.append(CardRule(fallback.name, fallback.label, "every other hand"))
    return _Found(tuple(rules), choice)


def _best_default(right: Ints, illegal: Ints) -> tuple[int, int]:
    """The option legal for every hand left that is optimal for most of them."""
    scored = np.where(illegal == 0, right, -1)
    best = int(np.argmax(scored))
    return best, int(scored[best])


def _rule(option: Any, hands: str, draw: str) -> CardRule:
    if draw and hands == "any hand":
        hands = draw
    elif draw:
        hands = f"{hands} holding {draw}"
    return CardRule(option.name, option.label, hands)


# ----------------------------------------------------------------- shapes
def _draws(hands: npt.NDArray[np.uint8]) -> dict[str, Bools]:
    """The draws a five-card hand may hold, each a mask over the hands ("" = any)."""
    ranks = (hands >> 2).astype(np.int64)
    suits = (hands & 3).astype(np.int64)
    per_suit = np.stack([(suits == s).sum(axis=1) for s in range(4)], axis=1)
    four_flush = per_suit.max(axis=1) == 4
    held = np.zeros((len(hands), 14), dtype=bool)  # index 0: the ace low, 1..13: 2..A
    held[np.arange(len(hands))[:, None], ranks + 1] = True
    held[:, 0] = held[:, 13]
    windows = np.stack([held[:, s : s + 5].sum(axis=1) for s in range(10)], axis=1)
    made = (windows == 5).any(axis=1)
    four_straight = (windows == 4).any(axis=1) & ~made
    runs = np.stack([held[:, s : s + 4].all(axis=1) for s in range(1, 10)], axis=1)
    open_ended = runs.any(axis=1) & ~made  # four in a row, 2-5 up to T-K: either end fills
    return {
        "": np.ones(len(hands), dtype=bool),
        "four to a flush": four_flush,
        "four to a straight": four_straight,
        "an open-ended straight draw": open_ended,
        "four to a flush and four to a straight": four_flush & four_straight,
        "four to a flush and an open-ended straight draw": four_flush & open_ended,
    }


def _ranges(ranking: HandRanking, present: Ints) -> list[_Range]:
    """The value ranges a rule may name: every hand, "X or better" and "below X" at
    every value, and "X to Y" between a category's or a top rank's bounds."""
    count = ranking.count
    keys = ranking.keys
    depth = [1] * (count + 1)
    for value in range(count):
        key = keys[value]
        depth[value] = next(
            d for d in range(1, len(key) + 1) if ranking.lowest(*key[:d]) == value
        )
    index = np.searchsorted(present, np.arange(count + 1)) - 1
    below = np.where(index >= 0, present[np.maximum(index, 0)], -1)  # highest present < t

    def name(value: int, d: int) -> str:
        return _words(ranking, keys[value][:d])

    ranges = [_Range(0, count, "any hand", 0)]
    for t in range(1, count):
        ranges.append(_Range(t, count, f"{name(t, depth[t])} or better", depth[t]))
        ranges.append(_Range(0, t, f"anything below {name(t, depth[t])}", depth[t]))
    coarse = [t for t in range(count) if depth[t] <= 2] + [count]
    for i, low in enumerate(coarse):
        for high in coarse[i + 2 :]:
            top = int(below[high])
            if top < low:
                continue
            d = max(depth[low], depth[high] if high < count else 1)
            first = keys[low][:d]
            last = keys[top][:d]
            if d == 1 and first == last:
                words = f"any {_category(ranking, first[0])}"
            elif first == last:
                words = name(low, d)
            else:
                words = f"{_words(ranking, first)} to {_words(ranking, last)}"
            ranges.append(_Range(low, high, words, 2 * d))
    return ranges


def _category(ranking: HandRanking, category: int) -> str:
    words = ranking.categories(category).name.replace("_", " ").title()
    return words.replace(" Of A ", " of a ")


def _words(ranking: HandRanking, prefix: tuple[int, ...]) -> str:
    """A prefix of a hand's key in words: ``"Pair"``, ``"Pair of Tens"``, ``"K-Q-8"``,
    ``"Pair of Aces, 5-3"``.

    >>> from riverboat.hands import FIVE_CARD, FiveCard
    >>> _words(FIVE_CARD, (FiveCard.HIGH_CARD, 12, 10, 6)), _words(FIVE_CARD, (1, 8))
    ('A-Q-8', 'Pair of Tens')
    """
    if len(prefix) == 1:
        return _category(ranking, prefix[0])
    lowest = ranking.lowest(*prefix)
    if len(prefix) == 2:
        return ranking.describe(lowest)
    category = ranking.categories(prefix[0]).name
    symbols = "-".join("23456789TJQKA"[r] for r in prefix[1:])
    if category == "HIGH_CARD":
        return symbols
    if category == "PAIR":
        return f"{ranking.describe(lowest)}, {symbols[2:]}"
    return ranking.describe(lowest)
