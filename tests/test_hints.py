"""Instant hints: one hand's exact values by enumerating the unseen cards, equal to the
full analysis' values for that hand.

The hint's line totals (each line's result over every deal of the hand, each wager one
unit) are compared with the full analyzer's; any wager combination's values are the
same weighted sum of those lines, so equal totals mean equal values for every wager
combination. A few combinations are also checked through ``best_action`` itself.
"""

from dataclasses import fields
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from riverboat.analysis import best_action, heads_up, wager_units
from riverboat.analysis._dealing import dealer_counts
from riverboat.analysis.headsup import HeadsUpGame
from riverboat.analysis.hints import kept_line_totals, line_totals, solve
from riverboat.analysis.solution import colex_index
from riverboat.games import GameRules, RulesError, crazy4, find_game
from riverboat.hands import FIVE_CARD, THREE_CARD, HandRanking, hand_table
from riverboat.settings import overridden

Cards = npt.NDArray[np.uint8]


def _random_hands(size: int, count: int, seed: int) -> Cards:
    rng = np.random.default_rng(seed)  # test data only; play draws from riverboat.rng
    return np.array([rng.permutation(52)[:size] for _ in range(count)], dtype=np.uint8)


def _hint_totals(model: HeadsUpGame, hands: Cards) -> npt.NDArray[np.int64]:
    return np.concatenate([line_totals(model, hand).totals for hand in hands])


def _model(game: str, rules: GameRules | None = None) -> HeadsUpGame:
    return heads_up(game, rules or find_game(game).rules())


# ------------------------------------------------------ the kernel


@pytest.mark.parametrize(("size", "ranking"), [(3, THREE_CARD), (5, FIVE_CARD)])
def test_dealer_counts_and_card_incidence_match_a_brute_force(
    size: int, ranking: HandRanking
) -> None:
    unseen = np.sort(np.random.default_rng(size).permutation(52)[:13]).astype(np.int64)
    table = hand_table(ranking)
    counts = np.zeros(table.max() + 1, dtype=np.int64)
    holding = np.zeros((len(counts), len(unseen)), dtype=np.int32)
    dealer_counts(unseen, size, table, counts, holding)
    want_counts = np.zeros_like(counts)
    want_holding = np.zeros_like(holding)
    for hand in combinations(range(len(unseen)), size):
        value = table[colex_index(unseen[list(hand)][None].astype(np.uint8))[0]]
        want_counts[value] += 1
        for position in hand:
            want_holding[value, position] += 1
    assert (counts == want_counts).all()
    assert (holding == want_holding).all()


# -------------------------------------- equal to the full analysis, exactly


def test_tri_card_every_hand_class_equals_the_full_analysis() -> None:
    model = _model("tri-card")
    representatives, _ = model.hands  # one hand per suit class: all 1,755
    full = model.counted().totals
    assert (_hint_totals(model, representatives) == full).all()


def test_tri_card_random_hands_equal_the_full_analysis() -> None:
    model = _model("tri-card")
    hands = _random_hands(3, 2000, seed=3)
    assert (_hint_totals(model, hands) == model.line_totals(hands).totals).all()


@pytest.mark.parametrize("variant", ["rule-card", "standard"])
def test_crazy4_random_hands_equal_the_full_analysis(variant: str) -> None:
    model = _model("crazy4", find_game("crazy4").rules(variant))
    hands = _random_hands(5, 500, seed=4)
    assert (_hint_totals(model, hands) == model.line_totals(hands).totals).all()


def test_rabbit_hunter_random_hands_equal_the_full_analysis() -> None:
    # Play, Fold and Buy & Play (every rabbit, every dealer hand from the other 46
    # cards) with the Bonus and the 2-Way Bad Beat lines (R4-R8)
    model = _model("rabbit-hunter")
    hands = _random_hands(5, 200, seed=5)
    assert (_hint_totals(model, hands) == model.line_totals(hands).totals).all()


@pytest.mark.parametrize(
    ("game", "count"), [("tri-card", 2000), ("crazy4", 300), ("rabbit-hunter", 100)]
)
def test_a_hint_read_from_the_kept_count_equals_the_enumerated_one(
    game: str, count: int, tmp_path: Path
) -> None:
    """Where the full count is kept on disk, a hint reads its hand's suit class's row
    (no compiled code): the same totals and value as enumerating the unseen cards, for
    hands in any suits and order. Where none is kept, it reads nothing."""
    model = _model(game)
    # kept on disk in this run's folder (counted here if it is not): a copy of the
    # model, since the shared one may hold a count made in memory for another folder
    HeadsUpGame(**{f.name: getattr(model, f.name) for f in fields(model)}).counted()
    fresh = HeadsUpGame(**{f.name: getattr(model, f.name) for f in fields(model)})
    for hand in _random_hands(model.size, count, seed=len(game)):
        kept, counted = kept_line_totals(fresh, hand), line_totals(model, hand)
        assert kept is not None
        assert (kept.totals == counted.totals).all()
        assert (kept.values == counted.values).all()
    with overridden(cache_dir=tmp_path):  # nothing kept here
        nowhere = HeadsUpGame(**{f.name: getattr(model, f.name) for f in fields(model)})
        assert kept_line_totals(nowhere, hand) is None


@pytest.mark.parametrize(
    ("game", "wagers"),
    [
        ("tri-card", {"ante": 1}),
        ("tri-card", {"ante": 1, "pair_plus": Fraction(1, 2)}),
        ("tri-card", {"ante": 0, "pair_plus": 1}),  # T3: Pair Plus alone, no decision
        ("crazy4", {"ante": 1, "super_bonus": 1}),
        ("crazy4", {"ante": 1, "super_bonus": 1, "queens_up": Fraction(1, 5)}),
        ("rabbit-hunter", {"ante": 1}),
        ("rabbit-hunter", {"ante": 1, "bonus": 1}),
        ("rabbit-hunter", {"ante": 1, "bad_beat": Fraction(1, 2)}),
        ("rabbit-hunter", {"ante": 1, "bonus": 1, "bad_beat": 1}),
    ],
)
def test_best_action_values_equal_the_full_analysis(
    game: str, wagers: dict[str, Fraction | int]
) -> None:
    model = _model(game)
    hands = _random_hands(model.size, 4, seed=len(str(wagers)))
    units = wager_units(game, wagers)
    full = model.solve(units, hands)
    for n, hand in enumerate(hands):
        hint = {v.option: v.expected for v in best_action(game, hand.tolist(), wagers)}
        want = {
            option.name: full.expected(n, i)
            for i, option in enumerate(model.options)
            if full.allowed[n, i]
        }
        assert hint == want
        assert max(want, key=lambda name: want[name]) == next(iter(hint))


def test_a_hint_does_not_depend_on_how_the_cards_are_ordered_or_suited() -> None:
    first = best_action("rabbit-hunter", "Kh Kc 7d 7s 2c", {"ante": 1, "bonus": 1})
    # the same hand with the suits relabelled (h<->s, c<->d) and in another order
    second = best_action("rabbit-hunter", "2d 7h 7c Kd Ks", {"ante": 1, "bonus": 1})
    assert [(v.option, v.expected) for v in first] == [(v.option, v.expected) for v in second]


def test_a_known_hand_from_the_rule_card() -> None:
    # C3: with a pair of aces the Play may be 3x, and it is worth more than 1x
    options = solve(
        _model("crazy4", crazy4.Crazy4Rules.standard()),
        wager_units("crazy4", None),
        "Ac Ad 7s 5c 2d",
    )
    assert int(options.choice[0]) == 2  # play3x


def test_a_hand_of_the_wrong_size_is_refused_and_names_the_size() -> None:
    with pytest.raises(RulesError, match="a Crazy 4 Poker hand has 5 cards, not 4"):
        solve(_model("crazy4"), wager_units("crazy4", None), "Ac Ad 7s 5c")
