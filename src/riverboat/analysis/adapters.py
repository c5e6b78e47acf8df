"""How each game meets the analyzer and the simulator: one :class:`GameMath` per game.

Every payout comes from the game's own ``settle``; a :class:`GameMath` only says
which arguments it takes, how a hand is valued and which settlement line belongs to
which wager. The game's shape (hands, decisions and their stakes) comes from its
spec (:mod:`riverboat.games.spec`), so the analyzer's options carry the engine's own
actions. The one registry, :data:`MATH`, is keyed by the rules type.

>>> from riverboat.games import find_game
>>> model = heads_up_game(find_game("crazy4").rules("standard"))
>>> [(o.name, o.action, o.bet, o.label) for o in model.options]  # doctest: +NORMALIZE_WHITESPACE
[('fold', 'fold', Fraction(0, 1), 'Fold'), ('play', 'play', Fraction(1, 1), 'Play 1x'),
 ('play3x', 'play', Fraction(3, 1), 'Play 3x')]
>>> model.options[2].wager(500)
('play', 1500)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Generic, TypeAlias, TypeVar, cast

import numpy as np
import numpy.typing as npt

from riverboat.analysis.headsup import HeadsUpGame, Option
from riverboat.analysis.report import Outcomes
from riverboat.cards import Rank
from riverboat.games import GameRules, baccarat, crazy4, rabbit_hunter, tri_card
from riverboat.games.rules import PayTable
from riverboat.games.spec import GameSpec
from riverboat.hands import (
    FIVE_CARD,
    FOUR_CARD,
    THREE_CARD,
    FiveCard,
    FourCard,
    HandRanking,
    ThreeCard,
    evaluate3,
    evaluate4of5,
    evaluate5,
    evaluate6,
    hand_table,
)
from riverboat.hands.evaluate import Values, _best_four_of_five

__all__ = [
    "MATH",
    "GameMath",
    "SomeGameMath",
    "Threshold",
    "game_math",
    "heads_up_game",
    "options_of",
]

Cards = npt.NDArray[np.uint8]
Ints = npt.NDArray[np.int64]
#: a settle function's results: each settlement line's net result per round
Lines = Mapping[str, Ints]
RulesT = TypeVar("RulesT", bound=GameRules)
#: ``settle(rules, first, second, code, stakes)``: the game's settle with a hand's (or
#: coup's) two values, the decision code (scalar or array) and the wagers by name
Settle: TypeAlias = Callable[
    [RulesT, npt.ArrayLike, npt.ArrayLike, npt.ArrayLike, Mapping[str, npt.ArrayLike]], Lines
]


@dataclass(frozen=True)
class Threshold:
    """A rule of thumb: take ``action`` (its largest stake if ``most``) with a hand at
    least as good as the ranking key ``at_least``."""

    action: str
    at_least: tuple[int, ...]
    most: bool = False


def _no_pay_tables(rules: GameRules) -> Mapping[str, PayTable]:
    return {}


def _same_rules(rules: RulesT) -> RulesT:
    return rules


@dataclass(frozen=True)
class GameMath(Generic[RulesT]):
    """What the analyzer and the simulator need of a game beyond its spec.

    ``spec`` gives the game's shape under its rules. ``settle`` maps a code and
    named wagers to the game's own settle; ``code`` is the code of a decision (an
    action and its stake in Antes). ``ranking`` and ``table`` value a position's
    hand (``table()``: every hand by colex index), ``evaluate`` values dealt hands in
    bulk and ``evaluate_with`` a hand with the cards a decision deals (the rabbit,
    R4). ``per_unit`` gives the rules the analyzer counts with (R9's cap left out);
    ``simple`` is the rule of thumb. A game without decisions has ``outcomes`` (its
    exact distribution) and, dealt from a shoe, ``card_values`` and ``coup`` (the
    drawing rules: values of the next cards -> totals and cards used).
    """

    spec: Callable[[RulesT], GameSpec]
    line_wagers: Mapping[str, str]
    settle: Settle[RulesT]
    code: Callable[[str, Fraction], int] = lambda action, bet: 0
    ranking: HandRanking | None = None
    table: Callable[[], npt.NDArray[np.int16]] | None = None
    evaluate: Callable[[Cards], Values] | None = None
    evaluate_with: Callable[[Cards], Values] | None = None
    pay_tables: Callable[[RulesT], Mapping[str, PayTable]] = _no_pay_tables
    per_unit: Callable[[RulesT], RulesT] = _same_rules
    simple: tuple[Threshold, ...] = ()
    no_decision: int = 0  # the code when the deciding wager is absent (Pair Plus alone)
    outcomes: Callable[[RulesT], Outcomes] | None = None
    card_values: Callable[[npt.ArrayLike], Ints] | None = None
    coup: Callable[[npt.ArrayLike], tuple[Ints, Ints, Ints]] | None = None


#: the math of one of the games, whichever
SomeGameMath: TypeAlias = (
    GameMath[tri_card.TriCardRules]
    | GameMath[rabbit_hunter.RabbitHunterRules]
    | GameMath[crazy4.Crazy4Rules]
    | GameMath[baccarat.BaccaratRules]
)


def _tri_card_settle(
    rules: tri_card.TriCardRules,
    p: npt.ArrayLike,
    d: npt.ArrayLike,
    code: npt.ArrayLike,
    stakes: Mapping[str, npt.ArrayLike],
) -> Lines:
    ante = np.where(np.asarray(code) == tri_card.NO_DECISION, 0, stakes["ante"])
    return tri_card.settle(rules, p, d, code, ante, stakes["pair_plus"])


def _rabbit_settle(
    rules: rabbit_hunter.RabbitHunterRules,
    p: npt.ArrayLike,
    d: npt.ArrayLike,
    code: npt.ArrayLike,
    stakes: Mapping[str, npt.ArrayLike],
) -> Lines:
    return rabbit_hunter.settle(
        rules, p, d, code, stakes["ante"], stakes["bonus"], stakes["bad_beat"]
    )


def _crazy4_settle(
    rules: crazy4.Crazy4Rules,
    p: npt.ArrayLike,
    d: npt.ArrayLike,
    code: npt.ArrayLike,
    stakes: Mapping[str, npt.ArrayLike],
) -> Lines:
    play = np.multiply(code, stakes["ante"])  # the code is the Play in Antes (C3)
    return crazy4.settle(
        rules, p, d, play, stakes["ante"], stakes["super_bonus"], stakes["queens_up"]
    )


def _baccarat_settle(
    rules: baccarat.BaccaratRules,
    p: npt.ArrayLike,
    b: npt.ArrayLike,
    code: npt.ArrayLike,
    stakes: Mapping[str, npt.ArrayLike],
) -> Lines:
    return baccarat.settle(rules, p, b, stakes["player"], stakes["banker"], stakes["tie"])


def _baccarat_outcomes(rules: baccarat.BaccaratRules) -> Outcomes:
    from riverboat.analysis.baccarat import baccarat_outcomes

    return baccarat_outcomes(rules)


_TRI_CARD_CODES = {"fold": tri_card.FOLD, "raise": tri_card.RAISE}
_RABBIT_CODES = {"fold": rabbit_hunter.FOLD, "play": rabbit_hunter.PLAY, "buy": rabbit_hunter.BUY}

#: the one registry: each game's math, by its rules type
MATH: dict[type[GameRules], SomeGameMath] = {
    tri_card.TriCardRules: GameMath(
        spec=tri_card.spec,
        line_wagers={
            "ante": "ante",
            "raise": "ante",
            "ante_bonus": "ante",
            "pair_plus": "pair_plus",
        },
        settle=_tri_card_settle,
        code=lambda action, bet: _TRI_CARD_CODES[action],
        ranking=THREE_CARD,
        table=lambda: hand_table(THREE_CARD),
        evaluate=evaluate3,
        pay_tables=lambda rules: {"pair_plus": rules.pair_plus_table},
        simple=(Threshold("raise", (ThreeCard.HIGH_CARD, Rank.QUEEN)),),
        no_decision=tri_card.NO_DECISION,
    ),
    rabbit_hunter.RabbitHunterRules: GameMath(
        spec=rabbit_hunter.spec,
        line_wagers={
            "ante": "ante",
            "play": "ante",
            "fee": "ante",
            "bonus": "bonus",
            "bad_beat": "bad_beat",
        },
        settle=_rabbit_settle,
        code=lambda action, bet: _RABBIT_CODES[action],
        ranking=FIVE_CARD,
        table=lambda: hand_table(FIVE_CARD),
        evaluate=evaluate5,
        evaluate_with=evaluate6,  # the best five of six after a Buy (R4)
        pay_tables=lambda rules: {"bonus": rules.bonus_table},
        per_unit=lambda rules: replace(rules, max_payout=None),  # R9: results per unit stake
        simple=(Threshold("play", (FiveCard.HIGH_CARD, Rank.ACE)),),
    ),
    crazy4.Crazy4Rules: GameMath(
        spec=crazy4.spec,
        line_wagers={
            "ante": "ante",
            "play": "ante",
            "super_bonus": "super_bonus",
            "queens_up": "queens_up",
        },
        settle=_crazy4_settle,
        code=lambda action, bet: int(bet),
        ranking=FOUR_CARD,
        table=_best_four_of_five,
        evaluate=evaluate4of5,
        pay_tables=lambda rules: {
            "super_bonus": rules.super_bonus_table,
            "queens_up": rules.queens_up_table,
        },
        simple=(
            Threshold("play", (FourCard.PAIR, Rank.ACE), most=True),
            Threshold("play", (FourCard.HIGH_CARD, Rank.KING)),
        ),
    ),
    baccarat.BaccaratRules: GameMath(
        spec=baccarat.spec,
        line_wagers={"player": "player", "banker": "banker", "tie": "tie"},
        settle=_baccarat_settle,
        outcomes=_baccarat_outcomes,
        card_values=baccarat.card_values,
        coup=baccarat.coup,
    ),
}


def game_math(rules: RulesT) -> GameMath[RulesT]:
    """The :class:`GameMath` of the game ``rules`` belong to."""
    some_rules: GameRules = rules
    # MATH is keyed by the rules type, so the entry found is the math of these rules
    return cast("GameMath[RulesT]", MATH[type(some_rules)])


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
    assert math.ranking is not None
    assert math.table is not None
    assert not isinstance(rules, baccarat.BaccaratRules)  # no ranking: not heads-up
    spec = math.spec(rules)
    counted = math.per_unit(rules)
    lines = tuple(math.line_wagers)

    def settle(
        p: npt.ArrayLike, d: npt.ArrayLike, option: Option, stakes: Mapping[str, int]
    ) -> Lines:
        result = math.settle(counted, p, d, option.settle_code, stakes)
        return {line: result[line] for line in lines}

    table = math.table()
    player = next(hand for hand in spec.hands if hand.each_position)
    return HeadsUpGame(
        name=spec.name,
        rules=rules,
        size=player.cards,
        player_values=table,
        dealer_values=table,
        player_ranking=math.ranking,
        dealer_ranking=math.ranking,
        dealer_qualifies=math.ranking.lowest(*rules.dealer_qualifies),
        wagers=tuple(spot.name for spot in spec.spots),
        line_wagers=math.line_wagers,
        options=options_of(spec, math),
        settle=settle,
        extra_card=any(o.deals is not None for o in spec.options),
        pay_tables=math.pay_tables(rules),
    )
