"""How a game meets the analyzer: its options and its heads-up model, from the
game's spec and its :class:`~riverboat.games.game_math.GameMath` (each game
package's ``analysis`` module, carried by its definition).

>>> from riverboat.games import find_game
>>> model = heads_up_game(find_game("crazy4").rules("standard"))
>>> [(o.name, o.action, o.bet, o.label) for o in model.options]  # doctest: +NORMALIZE_WHITESPACE
[('fold', 'fold', Fraction(0, 1), 'Fold'), ('play', 'play', Fraction(1, 1), 'Play 1x'),
 ('play3x', 'play', Fraction(3, 1), 'Play 3x')]
>>> model.options[2].wager(500)
('play', 1500)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar, cast

import numpy.typing as npt

from riverboat.analysis.headsup import HeadsUpGame, Option
from riverboat.games import GameRules, game_of
from riverboat.games.game_math import GameMath, Lines
from riverboat.games.rules import RulesError
from riverboat.games.spec import GameSpec

__all__ = ["game_math", "heads_up_game", "options_of"]

RulesT = TypeVar("RulesT", bound=GameRules)


def game_math(rules: RulesT) -> GameMath[RulesT]:
    """The :class:`GameMath` of the game ``rules`` belong to."""
    # a game is registered by its rules type, so its math is the math of these rules
    return cast("GameMath[RulesT]", game_of(rules).math)


def options_of(spec: GameSpec, math: GameMath[RulesT]) -> tuple[Option, ...]:
    """The analyzer's options from the spec's decisions: one per stake a decision may
    take (``play`` and ``play3x`` for C3's 1x or 3x), and where the deciding wager
    may be absent (T1), the option of playing without it."""
    assert math.ranking is not None
    options = []
    for decision in spec.options:
        bets = [decision.stake]
        if decision.most != decision.stake:
            bets.append(decision.most)
        for bet in bets:
            several = len(bets) > 1
            least = several and bet == decision.most and bool(decision.most_from)
            options.append(
                Option(
                    decision.action if bet == decision.stake else f"{decision.action}{bet}x",
                    f"{decision.label} {bet}x" if several else decision.label,
                    math.code(decision.action, bet),
                    bet=bet,
                    draws=decision.deals is not None,
                    from_value=math.ranking.lowest(*decision.most_from) if least else 0,
                    needs=spec.decides_with,
                    action=decision.action,
                )
            )
    if spec.decides_with in spec.at_least_one:
        others = [
            spot.label
            for spot in spec.spots
            if spot.name in spec.at_least_one and spot.name != spec.decides_with
        ]
        options.append(
            Option(
                "stand",
                " and ".join(others) + " alone",
                math.no_decision,
                needs=None,
                excludes=spec.decides_with,
                action=None,
            )
        )
    return tuple(options)


def heads_up_game(rules: GameRules) -> HeadsUpGame:
    """The analyzer's view of a game where a position meets the dealer, under ``rules``."""
    math = game_math(rules)
    if math.ranking is None or math.table is None or math.dealer_qualifies is None:
        raise RulesError(f"{game_of(rules).title} is not played heads-up against a dealer")
    spec = game_of(rules).spec(rules)
    counted = math.per_unit(rules)
    lines = tuple(math.line_wagers)

    def settle(
        p: npt.ArrayLike, d: npt.ArrayLike, option: Option, stakes: Mapping[str, int]
    ) -> Lines:
        result = math.settle(counted, p, d, option.settle_code, stakes)
        return {line: result[line] for line in lines}

    player = next(hand for hand in spec.hands if hand.each_position)
    return HeadsUpGame(
        name=spec.name,
        rules=rules,
        size=player.cards,
        player_table=math.table,  # made when first read: the kernels load then
        dealer_table=math.table,
        player_ranking=math.ranking,
        dealer_ranking=math.ranking,
        dealer_qualifies=math.ranking.lowest(*math.dealer_qualifies(rules)),
        wagers=tuple(spot.name for spot in spec.spots),
        line_wagers=math.line_wagers,
        options=options_of(spec, math),
        settle=settle,
        extra_card=any(o.deals is not None for o in spec.options),
        pay_tables=math.pay_tables(rules),
        settle_cuts=None
        if math.settle_keys is None
        else tuple(sorted({math.ranking.lowest(*key) for key in math.settle_keys(counted)})),
    )
