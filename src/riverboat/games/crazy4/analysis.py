"""How the analyzer and the simulator meet Crazy 4 Poker: its :class:`GameMath`."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

from riverboat.cards import Rank
from riverboat.games.crazy4.play import Crazy4Rules, settle
from riverboat.games.game_math import GameMath, Lines, Threshold, ranking_keys
from riverboat.hands import FOUR_CARD, FourCard, evaluate4of5
from riverboat.hands.evaluate import _best_four_of_five

__all__ = ["MATH"]


def _settle(
    rules: Crazy4Rules,
    p: npt.ArrayLike,
    d: npt.ArrayLike,
    code: npt.ArrayLike,
    stakes: Mapping[str, npt.ArrayLike],
) -> Lines:
    play = np.multiply(code, stakes["ante"])  # the code is the Play in Antes (C3)
    return settle(rules, p, d, play, stakes["ante"], stakes["super_bonus"], stakes["queens_up"])


MATH: GameMath[Crazy4Rules] = GameMath(
    line_wagers={
        "ante": "ante",
        "play": "ante",
        "super_bonus": "super_bonus",
        "queens_up": "queens_up",
    },
    settle=_settle,
    code=lambda action, bet: int(bet),
    ranking=FOUR_CARD,
    table=_best_four_of_five,
    evaluate=evaluate4of5,
    dealer_qualifies=lambda rules: rules.dealer_qualifies,  # C4
    pay_tables=lambda rules: {
        "super_bonus": rules.super_bonus_table,
        "queens_up": rules.queens_up_table,
    },
    simple=(
        Threshold("play", (FourCard.PAIR, Rank.ACE), most=True),
        Threshold("play", (FourCard.HIGH_CARD, Rank.KING)),
    ),
    settle_keys=ranking_keys,  # settle reads hands by comparing them and these keys
)
