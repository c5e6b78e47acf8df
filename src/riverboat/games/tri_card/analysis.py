"""How the analyzer and the simulator meet Tri-Card: its :class:`GameMath`."""

from __future__ import annotations

from collections.abc import Mapping

import numpy.typing as npt

from riverboat.cards import Rank
from riverboat.games.game_math import GameMath, Lines, Threshold, ranking_keys
from riverboat.games.tri_card.play import FOLD, NO_DECISION, RAISE, TriCardRules, settle
from riverboat.hands import THREE_CARD, ThreeCard, evaluate3, hand_table

__all__ = ["MATH"]

_CODES = {"fold": FOLD, "raise": RAISE}


def _settle(
    rules: TriCardRules,
    p: npt.ArrayLike,
    d: npt.ArrayLike,
    code: npt.ArrayLike,
    stakes: Mapping[str, npt.ArrayLike],
) -> Lines:
    return settle(rules, p, d, code, stakes["ante"], stakes["pair_plus"])  # T3 in settle


MATH: GameMath[TriCardRules] = GameMath(
    line_wagers={"ante": "ante", "raise": "ante", "ante_bonus": "ante", "pair_plus": "pair_plus"},
    settle=_settle,
    code=lambda action, bet: _CODES[action],
    ranking=THREE_CARD,
    table=lambda: hand_table(THREE_CARD),
    evaluate=evaluate3,
    dealer_qualifies=lambda rules: rules.dealer_qualifies,  # T4
    pay_tables=lambda rules: {"pair_plus": rules.pair_plus_table},
    simple=(Threshold("raise", (ThreeCard.HIGH_CARD, Rank.QUEEN)),),
    no_decision=NO_DECISION,
    settle_keys=ranking_keys,  # settle reads hands by comparing them and these keys
)
