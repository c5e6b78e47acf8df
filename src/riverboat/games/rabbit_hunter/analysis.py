"""How the analyzer and the simulator meet Rabbit Hunter: its :class:`GameMath`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

import numpy.typing as npt

from riverboat.cards import Rank
from riverboat.games.game_math import GameMath, Lines, Threshold, ranking_keys
from riverboat.games.rabbit_hunter.play import BUY, FOLD, PLAY, RabbitHunterRules, settle
from riverboat.hands import FIVE_CARD, FiveCard, evaluate5, evaluate6, hand_table

__all__ = ["MATH"]

_CODES = {"fold": FOLD, "play": PLAY, "buy": BUY}


def _settle(
    rules: RabbitHunterRules,
    p: npt.ArrayLike,
    d: npt.ArrayLike,
    code: npt.ArrayLike,
    stakes: Mapping[str, npt.ArrayLike],
) -> Lines:
    return settle(rules, p, d, code, stakes["ante"], stakes["bonus"], stakes["bad_beat"])


MATH: GameMath[RabbitHunterRules] = GameMath(
    line_wagers={
        "ante": "ante",
        "play": "ante",
        "fee": "ante",
        "bonus": "bonus",
        "bad_beat": "bad_beat",
    },
    settle=_settle,
    code=lambda action, bet: _CODES[action],
    ranking=FIVE_CARD,
    table=lambda: hand_table(FIVE_CARD),
    evaluate=evaluate5,
    evaluate_with=evaluate6,  # the best five of six after a Buy (R4)
    dealer_qualifies=lambda rules: rules.dealer_qualifies,  # R5
    pay_tables=lambda rules: {"bonus": rules.bonus_table},
    per_unit=lambda rules: replace(rules, max_payout=None),  # R9: results per unit stake
    simple=(Threshold("play", (FiveCard.HIGH_CARD, Rank.ACE)),),
    settle_keys=ranking_keys,  # settle reads hands by comparing them and these keys
)
