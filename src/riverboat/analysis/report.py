"""Figures from an exact outcome distribution: house edge, element of risk, variance,
return tables, decision frequencies. Every game's analysis ends here.

An :class:`Outcomes` lists classes of deals: how many deals fall in each (an exact
integer), the option played, and each settlement line's result. Whole-game figures
are per unit of the total initial wager; a wager's figures per unit of that wager.
The house edge comes in both conventions: per total initial wager (``house_edge``)
and per Ante (``house_edge_per_ante``), the one published references and PAR sheets
quote for a game with an Ante; the element of risk divides the same loss by the
average total wagered, the decision's bet included.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm, sqrt
from statistics import NormalDist
from typing import Any

import numpy as np
import numpy.typing as npt

from riverboat.json_types import JsonObject

__all__ = ["Figures", "Outcomes", "ReturnRow", "figures"]


@dataclass(frozen=True)
class Outcomes:
    """Classes of deals with exact counts and per-line results.

    ``results[i, line]`` is in 1/``unit`` of a unit stake on that line's wager;
    ``labels[wager][i]`` names the event for that wager's return table.
    """

    game: str
    weights: npt.NDArray[np.int64]
    option: npt.NDArray[np.int64]
    results: npt.NDArray[np.int64]
    lines: tuple[str, ...]
    line_wagers: Mapping[str, str]
    option_names: tuple[str, ...]
    option_bets: tuple[Fraction, ...]  # in multiples of the base (first) wager
    unit: int
    qualifies: npt.NDArray[np.bool_] | None
    labels: Mapping[str, Sequence[str]]
    #: the wager the decisions are made with (the Ante); None: there is none (Baccarat)
    base: str | None = None


@dataclass(frozen=True)
class ReturnRow:
    event: str
    pays: Fraction  # net result per unit wagered
    combinations: int
    probability: Fraction
    contribution: Fraction


@dataclass(frozen=True)
class WagerFigures:
    name: str
    stake: Fraction  # in units of the base wager
    house_edge: Fraction
    return_table: tuple[ReturnRow, ...]
    hit_frequency: Fraction


@dataclass(frozen=True)
class Figures:
    """Exact figures of one game, rules and wager combination."""

    game: str
    wagers: Mapping[str, Fraction]
    cycle: int
    expected: Fraction  # mean net result per unit of initial wager
    house_edge: Fraction  # per unit of the total initial wager
    #: the same loss per unit of the Ante (as references quote it); None: no Ante
    #: placed (Baccarat, Pair Plus alone)
    house_edge_per_ante: Fraction | None
    element_of_risk: Fraction  # per unit of the average total wagered
    average_total_bet: Fraction
    variance: Fraction
    win: Fraction
    push: Fraction
    loss: Fraction
    hit_frequency: Fraction
    decisions: Mapping[str, Fraction]
    dealer_qualifies: Fraction | None
    per_wager: tuple[WagerFigures, ...]
    net_table: tuple[ReturnRow, ...]

    @property
    def std_dev(self) -> float:
        return sqrt(self.variance)

    def volatility_index(self, confidence: float) -> float:
        """``z * std_dev`` with z the two-sided normal quantile (1.645 at 90%)."""
        return NormalDist().inv_cdf(0.5 + confidence / 2) * self.std_dev


def _table(values: dict[tuple[str, Fraction], int], total: int) -> tuple[ReturnRow, ...]:
    rows = [
        ReturnRow(event, pays, count, Fraction(count, total), pays * Fraction(count, total))
        for (event, pays), count in values.items()
        if count
    ]
    return tuple(sorted(rows, key=lambda r: (-r.pays, r.event)))


def _grouped(keys: npt.NDArray[np.int64], weights: npt.NDArray[np.int64]) -> dict[int, int]:
    """Exact sums of ``weights`` by key (integers all the way)."""
    unique, inverse = np.unique(keys, return_inverse=True)
    sums = np.zeros(len(unique), dtype=np.int64)
    np.add.at(sums, inverse.reshape(-1), weights)
    return {int(k): int(v) for k, v in zip(unique, sums, strict=True)}


def _wager_figures(
    outcomes: Outcomes, wager: str, stake: Fraction, weights: npt.NDArray[np.int64]
) -> WagerFigures:
    """One wager's house edge, return table and hit frequency: its lines' results
    summed, the outcomes grouped by their label and pay."""
    total = int(weights.sum())
    columns = [j for j, line in enumerate(outcomes.lines) if outcomes.line_wagers[line] == wager]
    pays = outcomes.results[:, columns].sum(axis=1)
    names, label_index = np.unique(np.asarray(outcomes.labels[wager]), return_inverse=True)
    keys = label_index.reshape(-1).astype(np.int64) * (1 << 40) + (pays + (1 << 39))
    table = {
        (
            str(names[key >> 40]),
            Fraction((key & ((1 << 40) - 1)) - (1 << 39), outcomes.unit),
        ): count
        for key, count in _grouped(keys, weights).items()
    }
    returns = _table(table, total)
    return WagerFigures(
        wager,
        stake,
        -sum((r.contribution for r in returns), Fraction(0)),
        returns,
        Fraction(int(weights[pays > 0].sum()), total),
    )


def figures(outcomes: Outcomes, wagers: Mapping[str, Fraction]) -> Figures:
    """The figures of a distribution for stakes ``wagers`` (in units of the base wager)."""
    weights = outcomes.weights.astype(np.int64)
    total = int(weights.sum())
    stakes = {name: Fraction(amount) for name, amount in wagers.items() if amount}
    initial = sum(stakes.values(), Fraction(0))
    base_stake = Fraction(wagers.get(next(iter(wagers)), 0))
    scale = lcm(*(s.denominator for s in stakes.values()))
    line_stakes = np.array(
        [int(stakes.get(outcomes.line_wagers[line], 0) * scale) for line in outcomes.lines],
        dtype=np.int64,
    )
    per = outcomes.unit * scale  # nets below are in 1/per of the base wager
    nets = outcomes.results @ line_stakes
    by_net = {Fraction(k, per): v for k, v in _grouped(nets, weights).items()}
    mean = sum((v * c for v, c in by_net.items()), Fraction(0)) / total
    second = sum((v * v * c for v, c in by_net.items()), Fraction(0)) / total
    by_option = _grouped(outcomes.option, weights)
    bets = sum(
        (
            count * (initial + outcomes.option_bets[option] * base_stake)
            for option, count in by_option.items()
        ),
        Fraction(0),
    )
    hit = ((outcomes.results > 0) & (line_stakes > 0)).any(axis=1)
    per_wager = [_wager_figures(outcomes, wager, stake, weights) for wager, stake in stakes.items()]
    qualifies = None
    if outcomes.qualifies is not None:
        qualifies = Fraction(int(weights[outcomes.qualifies].sum()), total)
    average_bet = bets / total
    ante = stakes.get(outcomes.base) if outcomes.base is not None else None
    return Figures(
        game=outcomes.game,
        wagers=stakes,
        cycle=total,
        expected=mean / initial,
        house_edge=-mean / initial,
        house_edge_per_ante=-mean / ante if ante else None,
        element_of_risk=-mean / average_bet,
        average_total_bet=average_bet / initial,
        variance=(second - mean * mean) / (initial * initial),
        win=Fraction(sum(c for v, c in by_net.items() if v > 0), total),
        push=Fraction(sum(c for v, c in by_net.items() if v == 0), total),
        loss=Fraction(sum(c for v, c in by_net.items() if v < 0), total),
        hit_frequency=Fraction(int(weights[hit].sum()), total),
        decisions={outcomes.option_names[o]: Fraction(c, total) for o, c in by_option.items()},
        dealer_qualifies=qualifies,
        per_wager=tuple(per_wager),
        net_table=_table({("Net", v / initial): c for v, c in by_net.items()}, total),
    )


def percent(value: Fraction, places: int = 4) -> str:
    return f"{float(value) * 100:.{places}f}%"


def _optional(value: Fraction | None) -> float | None:
    return None if value is None else float(value)


def to_json(result: Figures, extra: Mapping[str, Any] | None = None) -> JsonObject:
    """JSON-ready figures, each key naming its basis; edges as fractions of a unit
    (0.0337 for 3.37%), each exact value also as a string such as
    ``"686689/20358520"``."""

    def row(r: ReturnRow) -> JsonObject:
        return {
            "event": r.event,
            "pays": float(r.pays),
            "combinations": r.combinations,
            "probability": float(r.probability),
            "contribution": float(r.contribution),
        }

    return {
        "game": result.game,
        **(extra or {}),
        "wagers_placed": {k: str(v) for k, v in result.wagers.items()},
        "cycle": result.cycle,
        "house_edge_per_total_initial_wager": float(result.house_edge),
        "house_edge_per_total_initial_wager_exact": str(result.house_edge),
        "house_edge_per_ante": _optional(result.house_edge_per_ante),
        "house_edge_per_ante_exact": None
        if result.house_edge_per_ante is None
        else str(result.house_edge_per_ante),
        "element_of_risk": float(result.element_of_risk),
        "element_of_risk_exact": str(result.element_of_risk),
        "average_total_bet": float(result.average_total_bet),
        "variance_per_total_initial_wager": float(result.variance),
        "std_dev_per_total_initial_wager": result.std_dev,
        "volatility_index": {
            "90%": result.volatility_index(0.90),
            "95%": result.volatility_index(0.95),
        },
        "win": float(result.win),
        "push": float(result.push),
        "loss": float(result.loss),
        "hit_frequency": float(result.hit_frequency),
        "decisions": {k: float(v) for k, v in result.decisions.items()},
        "dealer_qualifies": _optional(result.dealer_qualifies),
        "wagers": {
            w.name: {
                "stake": str(w.stake),
                # its own lines' result per unit of it, under the round's play
                "lines_house_edge": float(w.house_edge),
                "lines_house_edge_exact": str(w.house_edge),
                "hit_frequency": float(w.hit_frequency),
                "return_table": [row(r) for r in w.return_table],
            }
            for w in result.per_wager
        },
        "net_distribution": [row(r) for r in result.net_table],
    }
