"""How each poker game meets the analyzer: its hands, options and settle function.

Every payout comes from the game's own ``settle``; these adapters only say which
arguments it takes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction
from typing import Any

from riverboat.analysis.headsup import HeadsUpGame, Option
from riverboat.games import crazy4, rabbit_hunter, tri_card
from riverboat.hands import FIVE_CARD, FOUR_CARD, THREE_CARD, hand_table
from riverboat.hands.evaluate import _best_four_of_five

__all__ = ["crazy4_game", "rabbit_hunter_game", "tri_card_game"]


def tri_card_game(rules: tri_card.TriCardRules) -> HeadsUpGame:
    def settle(p: Any, d: Any, option: Option, stakes: Mapping[str, int]) -> Mapping[str, Any]:
        ante = stakes["ante"] if option.needs else 0
        return tri_card.settle(rules, p, d, option.settle_code, ante, stakes["pair_plus"])

    table = hand_table(THREE_CARD)
    return HeadsUpGame(
        name="tri-card",
        rules=rules,
        size=3,
        player_values=table,
        dealer_values=table,
        player_ranking=THREE_CARD,
        dealer_ranking=THREE_CARD,
        dealer_qualifies=THREE_CARD.lowest(*rules.dealer_qualifies),
        wagers=("ante", "pair_plus"),
        line_wagers={
            "ante": "ante",
            "raise": "ante",
            "ante_bonus": "ante",
            "pair_plus": "pair_plus",
        },
        options=(
            Option("fold", "Fold", tri_card.FOLD),
            Option("raise", "Raise", tri_card.RAISE, bet=Fraction(1)),
            Option("stand", "Pair Plus alone", tri_card.NO_DECISION, needs=None, excludes="ante"),
        ),
        settle=settle,
        pay_tables={"pair_plus": rules.pair_plus_table},
    )


def rabbit_hunter_game(rules: rabbit_hunter.RabbitHunterRules) -> HeadsUpGame:
    uncapped = replace(rules, max_payout=None)  # R9: results per unit stake, without the cap

    def settle(p: Any, d: Any, option: Option, stakes: Mapping[str, int]) -> Mapping[str, Any]:
        lines = rabbit_hunter.settle(
            uncapped, p, d, option.settle_code, stakes["ante"], stakes["bonus"], stakes["bad_beat"]
        )
        return {name: lines[name] for name in ("ante", "play", "fee", "bonus", "bad_beat")}

    table = hand_table(FIVE_CARD)
    return HeadsUpGame(
        name="rabbit-hunter",
        rules=rules,
        size=5,
        player_values=table,
        dealer_values=table,
        player_ranking=FIVE_CARD,
        dealer_ranking=FIVE_CARD,
        dealer_qualifies=FIVE_CARD.lowest(*rules.dealer_qualifies),
        wagers=("ante", "bonus", "bad_beat"),
        line_wagers={
            "ante": "ante",
            "play": "ante",
            "fee": "ante",
            "bonus": "bonus",
            "bad_beat": "bad_beat",
        },
        options=(
            Option("fold", "Fold", rabbit_hunter.FOLD),
            Option("play", "Play", rabbit_hunter.PLAY, bet=Fraction(1)),
            Option("buy", "Buy & Play", rabbit_hunter.BUY, bet=Fraction(2), draws=True),
        ),
        settle=settle,
        extra_card=True,
        pay_tables={"bonus": rules.bonus_table},
    )


def crazy4_game(rules: crazy4.Crazy4Rules) -> HeadsUpGame:
    def settle(p: Any, d: Any, option: Option, stakes: Mapping[str, int]) -> Mapping[str, Any]:
        play = option.settle_code * stakes["ante"]
        return crazy4.settle(
            rules, p, d, play, stakes["ante"], stakes["super_bonus"], stakes["queens_up"]
        )

    table = _best_four_of_five()
    most = rules.max_play_multiple
    return HeadsUpGame(
        name="crazy4",
        rules=rules,
        size=5,
        player_values=table,
        dealer_values=table,
        player_ranking=FOUR_CARD,
        dealer_ranking=FOUR_CARD,
        dealer_qualifies=FOUR_CARD.lowest(*rules.dealer_qualifies),
        wagers=("ante", "super_bonus", "queens_up"),
        line_wagers={
            "ante": "ante",
            "play": "ante",
            "super_bonus": "super_bonus",
            "queens_up": "queens_up",
        },
        options=(
            Option("fold", "Fold", 0),
            Option("play", "Play 1x", 1, bet=Fraction(1)),
            Option(
                f"play{most}x",
                f"Play {most}x",
                most,
                bet=Fraction(most),
                from_value=FOUR_CARD.lowest(*rules.raise_up_to_3x_at_least),
            ),
        ),
        settle=settle,
        pay_tables={"super_bonus": rules.super_bonus_table, "queens_up": rules.queens_up_table},
    )
