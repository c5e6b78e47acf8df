"""How riverboat's analyzer and simulator meet Two-Card Showdown."""

from __future__ import annotations

from collections.abc import Mapping

import numpy.typing as npt

from riverboat.cards import Rank
from riverboat.games import GameMath
from riverboat.games.game_math import Lines, Threshold
from riverboat_showdown.play import (
    FOLD,
    PLAY,
    TWO_CARD,
    ShowdownRules,
    TwoCard,
    _table,
    evaluate2,
    settle,
)

__all__ = ["MATH"]


def _settle(
    rules: ShowdownRules,
    player: npt.ArrayLike,
    dealer: npt.ArrayLike,
    code: npt.ArrayLike,
    stakes: Mapping[str, npt.ArrayLike],
) -> Lines:
    return settle(rules, player, dealer, code, stakes["ante"], stakes["pair_up"])


MATH: GameMath[ShowdownRules] = GameMath(
    line_wagers={"ante": "ante", "play": "ante", "pair_up": "pair_up"},
    settle=_settle,
    code=lambda action, bet: PLAY if action == "play" else FOLD,
    ranking=TWO_CARD,
    table=_table,
    evaluate=evaluate2,
    dealer_qualifies=lambda rules: rules.dealer_qualifies,
    pay_tables=lambda rules: {"pair_up": rules.pair_up_table},
    simple=(Threshold("play", (TwoCard.HIGH_CARD, Rank.JACK)),),
)
