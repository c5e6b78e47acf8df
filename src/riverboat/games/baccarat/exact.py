"""Exact baccarat: every ordered six-card deal from the shoe, through the production
drawing rules (:func:`riverboat.games.baccarat.coup_totals`) and settlement.

A deal is counted by the values of its first six cards (cards a coup leaves unused
count too, so every deal of six has equal weight): 10**6 value sequences, each
weighted by how many ordered card sequences give it.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import numpy as np
import numpy.typing as npt

from riverboat.analysis.headsup import unit_stake
from riverboat.analysis.report import Outcomes
from riverboat.games.baccarat import BaccaratRules, coup_totals, settle, spec

__all__ = ["baccarat_outcomes", "coup_counts"]


@cache
def coup_counts(decks: int) -> npt.NDArray[np.int64]:
    """Ordered six-card deals ``[player total, banker total]`` from ``decks`` decks."""
    counts = np.array([16 * decks] + [4 * decks] * 9, dtype=np.int64)  # cards of value 0..9
    values = np.indices((10,) * 6).reshape(6, -1).T
    weight = np.ones(len(values), dtype=np.int64)
    for i in range(6):
        earlier = (values[:, :i] == values[:, i : i + 1]).sum(axis=1)
        weight *= counts[values[:, i]] - earlier
    player, banker = coup_totals(values)
    table = np.zeros((10, 10), dtype=np.int64)
    np.add.at(table, (player, banker), weight)
    return table


def baccarat_outcomes(rules: BaccaratRules) -> Outcomes:
    """The 100 (Player total, Banker total) classes with their deals and results."""
    table = coup_counts(rules.decks)
    player, banker = np.indices((10, 10)).reshape(2, -1)
    unit = unit_stake(rules)
    lines = settle(rules, player, banker, unit, unit, unit)
    results = np.stack([lines[name] for name in ("player", "banker", "tie")], axis=1)
    outcome = np.where(
        player > banker, "Player wins", np.where(banker > player, "Banker wins", "Tie")
    )
    labels = [str(o) for o in outcome]
    return Outcomes(
        game=spec(rules).name,
        weights=table.reshape(-1),
        option=np.zeros(100, dtype=np.int64),
        results=results.astype(np.int64),
        lines=("player", "banker", "tie"),
        line_wagers={"player": "player", "banker": "banker", "tie": "tie"},
        option_names=("bet",),
        option_bets=(Fraction(0),),
        unit=unit,
        qualifies=None,
        labels=dict.fromkeys(("player", "banker", "tie"), labels),
    )
