"""A game's optimal strategy, read from the exact analysis: each hand's best option
(:class:`Strategy`), each option's value for one hand (:class:`OptionValue`), and the
summary in words ("Raise with Q-6-4 or better").
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from riverboat.cards import format_cards
from riverboat.games.rules import RulesError
from riverboat.hands import HandRanking

if TYPE_CHECKING:  # the counting code (and numba) load only when something is counted
    from riverboat.analysis.headsup import HeadsUpGame
    from riverboat.analysis.solution import Solution

__all__ = ["OptionValue", "Strategy", "short_name"]


@dataclass(frozen=True)
class OptionValue:
    """An option's expected result for one hand, in units of the base wager (the Ante).

    ``option`` names it among the analyzer's options (CSV columns, ``play3x``);
    ``action`` and ``bet`` (in Antes) are what the engine takes: ``wager(ante)``.
    """

    option: str
    label: str
    expected: Fraction
    action: str | None = None
    bet: Fraction = Fraction(0)

    def wager(self, ante: int) -> tuple[str, int]:
        """The engine's ``(action, amount)`` on an Ante of ``ante`` cents.

        >>> from riverboat.analysis import best_action
        >>> best_action("crazy4", "Ac Ad 7s 5c 2d")[0].wager(500)
        ('play', 1500)
        """
        if self.action is None:
            raise RulesError(f"{self.label} is not a decision the engine takes")
        return self.action, int(self.bet * ante)

    def __str__(self) -> str:
        return f"{self.label}: {float(self.expected):+.4f}"


@dataclass(frozen=True, eq=False)
class Strategy:
    """The best option for every player hand class, with each option's value: the
    :class:`~riverboat.analysis.headsup.Solution` ``find()`` gives, found when first
    needed. A report kept on disk (:mod:`riverboat.analysis.kept`) brings its
    ``kept_summary`` and option ``kept_labels``, so it is written without counting.

    >>> kept = Strategy(lambda: 1 / 0, ("Play with every hand.",), {"play": "Play"})
    >>> kept.summary(), kept.labels()   # kept: nothing is counted (1 / 0 never runs)
    (['Play with every hand.'], {'play': 'Play'})
    """

    find: Callable[[], Solution]
    kept_summary: tuple[str, ...] | None = field(default=None, repr=False)
    kept_labels: Mapping[str, str] | None = field(default=None, repr=False)

    @cached_property
    def solution(self) -> Solution:
        return self.find()

    @property
    def game(self) -> HeadsUpGame:
        return self.solution.game

    def labels(self) -> dict[str, str]:
        """Each option's label by name: ``{"fold": "Fold", "play": "Play", ...}``."""
        if self.kept_labels is not None:
            return dict(self.kept_labels)
        return {option.name: option.label for option in self.game.options}

    def _short(self, value: int) -> str:
        return short_name(self.game.player_ranking, value)

    def summary(self) -> list[str]:
        """Human rules: ``"Raise with Q-6-4 or better (every hand); Fold below."``

        Where the best play follows the hand's rank, as thresholds; where it does not
        (a drawing hand may beat a made one), the share of each play per category.
        """
        return list(self._summary)

    @cached_property
    def _summary(self) -> tuple[str, ...]:
        if self.kept_summary is not None:
            return self.kept_summary
        from riverboat.analysis.solution import colex_index

        solution, game = self.solution, self.game
        values = game.player_values[colex_index(solution.hands)]
        levels = game.player_ranking.count
        weight = np.zeros((levels, len(game.options)), dtype=np.int64)
        np.add.at(weight, (values, solution.choice), solution.weights)
        runs = self._runs(weight, np.flatnonzero(weight.sum(axis=1)))
        if len(runs) <= 4:
            return tuple(self._thresholds(weight, runs))
        lines = []
        categories = game.player_ranking.category(np.arange(levels))
        for category in sorted(
            set(categories[np.flatnonzero(weight.sum(axis=1))].tolist()), reverse=True
        ):
            present = np.flatnonzero((categories == category) & (weight.sum(axis=1) > 0))
            name = game.player_ranking.categories(category).name.replace("_", " ").title()
            inner = self._runs(weight, present)
            if len(inner) <= 2:
                lines.append(f"{name}: " + "; ".join(self._thresholds(weight, inner)))
            else:
                shares = weight[present].sum(axis=0) / weight[present].sum()
                parts = [
                    f"{o.label} {s:.0%}" for o, s in zip(game.options, shares, strict=True) if s
                ]
                lines.append(
                    f"{name}: " + ", ".join(parts) + " (depends on the cards, not just the rank)"
                )
        return tuple(lines)

    @staticmethod
    def _runs(weight: npt.NDArray[np.int64], present: npt.NDArray[np.int64]) -> list[list[int]]:
        """Consecutive values (ascending) whose most common best option is the same."""
        majority = weight.argmax(axis=1)
        runs: list[list[int]] = []
        for value in present:
            if runs and majority[runs[-1][-1]] == majority[value]:
                runs[-1].append(int(value))
            else:
                runs.append([int(value)])
        return runs

    def _thresholds(self, weight: npt.NDArray[np.int64], runs: list[list[int]]) -> list[str]:
        options = self.game.options
        chosen = [int(weight[run].sum(axis=0).argmax()) for run in runs]
        label = [options[c].label for c in chosen]
        if len(runs) == 1:
            exceptions = self._exceptions(weight, runs[0], chosen[0])
            return [f"{label[0]}{exceptions}." if exceptions else f"{label[0]} with every hand."]
        lines = []
        for index, run in enumerate(reversed(runs)):
            option = label[len(runs) - 1 - index]
            exceptions = self._exceptions(weight, run, chosen[len(runs) - 1 - index])
            if index == 0:
                span = f"{self._short(run[0])} or better"
            elif index == len(runs) - 1:
                span = f"{self._short(run[-1])} or worse"
            else:
                span = f"{self._short(run[0])} to {self._short(run[-1])}"
            lines.append(f"{option} with {span}{exceptions or ' (every hand)'}")
        if len(runs) == 2:
            below = self._exceptions(weight, runs[0], chosen[0])
            return [f"{lines[0]}; {label[0]} below{below}."]
        return lines

    def _exceptions(self, weight: npt.NDArray[np.int64], run: list[int], chosen: int) -> str:
        """``", except 600 of 10,200 hands (Buy & Play)"`` where some hands of the run
        are best played otherwise than ``chosen``, else ``""``."""
        counts = weight[run].sum(axis=0)
        others = int(counts.sum() - counts[chosen])
        if not others:
            return ""
        labels = [self.game.options[i].label for i in np.flatnonzero(counts) if i != chosen]
        return f", except {others:,} of {int(counts.sum()):,} hands ({' or '.join(labels)})"

    def rows(self) -> list[dict[str, str | int | float]]:
        """One row per hand class: cards, how many hands it stands for, value, each
        legal option's expected value (in antes) and the best option."""
        from riverboat.analysis.solution import colex_index

        solution, game = self.solution, self.game
        denominator = solution.deals_per_hand() * game.unit * solution.scale
        rows = []
        for n, hand in enumerate(solution.hands):
            row: dict[str, str | int | float] = {
                "cards": format_cards(hand),
                "hands": int(solution.weights[n]),
                "hand": game.player_ranking.describe(
                    int(game.player_values[colex_index(hand[None])][0])
                ),
            }
            for i, option in enumerate(game.options):
                if solution.allowed[n, i]:
                    row[option.name] = float(Fraction(int(solution.values[n, i]), denominator))
            row["best"] = game.options[solution.choice[n]].name
            rows.append(row)
        return rows

    def to_csv(self) -> str:
        rows = self.rows()
        names = ["cards", "hands", "hand", *(o.name for o in self.game.options), "best"]
        out = io.StringIO()
        writer = csv.DictWriter(out, fieldnames=names, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        return out.getvalue()


def short_name(ranking: HandRanking, value: int) -> str:
    """``"Q-6-4"`` for high-card hands, ``"Pair of Tens, K-7-2"`` for pairs, else the name."""
    category, *ranks = ranking.key(value)
    symbols = ["23456789TJQKA"[r] for r in ranks]
    name = ranking.categories(category).name
    if name == "HIGH_CARD":
        return "-".join(symbols)
    if name == "PAIR":
        return ranking.describe(value) + (", " + "-".join(symbols[1:]) if len(symbols) > 1 else "")
    return ranking.describe(value)
