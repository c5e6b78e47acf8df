"""How the analyzer and the simulator meet Baccarat: its :class:`GameMath`.

Baccarat has no decisions: the analyzer counts its exact outcomes
(:mod:`riverboat.games.baccarat.exact`) and the simulator deals coups by the drawing
rules (``card_values`` and ``coup``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import numpy.typing as npt

from riverboat.games.baccarat.play import BaccaratRules, card_values, coup, settle
from riverboat.games.game_math import GameMath, Lines

if TYPE_CHECKING:
    from riverboat.analysis.report import Outcomes

__all__ = ["MATH"]


def _settle(
    rules: BaccaratRules,
    p: npt.ArrayLike,
    b: npt.ArrayLike,
    code: npt.ArrayLike,
    stakes: Mapping[str, npt.ArrayLike],
) -> Lines:
    return settle(rules, p, b, stakes["player"], stakes["banker"], stakes["tie"])


def _outcomes(rules: BaccaratRules) -> Outcomes:
    from riverboat.games.baccarat.exact import baccarat_outcomes

    return baccarat_outcomes(rules)


MATH: GameMath[BaccaratRules] = GameMath(
    line_wagers={"player": "player", "banker": "banker", "tie": "tie"},
    settle=_settle,
    outcomes=_outcomes,
    card_values=card_values,
    coup=coup,
)
