"""A solved heads-up game's outcomes: every (decision, hand value, dealer class) with
its weight and result lines, each named for the return tables ("Win", "Push, dealer
does not qualify", a pay line's hand), for :func:`~riverboat.analysis.report.figures`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from riverboat.analysis.report import Outcomes

if TYPE_CHECKING:  # the counting code (and numba) load only when something is counted
    from riverboat.analysis.solution import Solution

__all__ = ["heads_up_outcomes"]


def heads_up_outcomes(solution: Solution) -> Outcomes:
    game = solution.game
    boundaries, results = game.classes
    tally = solution.outcome_weights()
    option, value, k = np.nonzero(tally)
    rows = results[option, value, k]
    qualifies = boundaries[value, k] >= game.dealer_qualifies
    labels: dict[str, list[str]] = {}
    for wager in game.wagers:
        columns = [j for j, line in enumerate(game.lines) if game.line_wagers[line] == wager]
        pays = rows[:, columns].sum(axis=1)
        table = game.pay_tables.get(wager)
        # each row's pay line, looked up at once (-1: none pays)
        reached = table.lookup(game.player_ranking, value) if table is not None else None
        names = []
        for i, (o, q, paid) in enumerate(zip(option, qualifies, pays, strict=True)):
            name = game.options[o].name
            if name == "fold":
                names.append("Fold")
            elif table is not None and reached is not None and paid > 0:
                names.append(table.lines[reached[i]].label if reached[i] >= 0 else "Win")
            else:
                outcome = "Win" if paid > 0 else "Push" if paid == 0 else "Loss"
                names.append(outcome if q else f"{outcome}, dealer does not qualify")
        labels[wager] = names
    return Outcomes(
        game=game.name,
        weights=tally[option, value, k],
        option=option,
        results=rows,
        lines=game.lines,
        line_wagers=game.line_wagers,
        option_names=tuple(o.name for o in game.options),
        option_bets=tuple(o.bet for o in game.options),
        unit=game.unit,
        qualifies=qualifies,
        labels=labels,
        base=game.wagers[0],
    )
