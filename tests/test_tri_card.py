"""Tri-Card Poker, one test or more per ruling T1-T8 (RULINGS.md), cards given explicitly."""

from dataclasses import replace

import numpy as np
import pytest

from riverboat.games import IllegalAction, RulesError
from riverboat.games.tri_card import (
    ANTE_BONUS_TABLES,
    FOLD,
    NO_DECISION,
    PAIR_PLUS_TABLES,
    RAISE,
    TriCardRound,
    TriCardRules,
    settle,
)
from riverboat.hands import evaluate3

from gameplay import play

RULES = TriCardRules()
# player's three cards, then the dealer's
QUEEN_HIGH_DEALER = "Qs 7h 2c"
JACK_HIGH_DEALER = "Js 7h 2c"


def new() -> TriCardRound:
    return TriCardRound(RULES)


def test_t1_ante_and_or_pair_plus_at_least_one() -> None:
    game = new()
    with pytest.raises(IllegalAction, match="place at least one wager: Ante or Pair Plus"):
        game.place_wagers({})
    with pytest.raises(
        IllegalAction, match=r"Pair Plus of \$101 is outside the table limits: \$5 to \$100"
    ):
        game.place_wagers({"pair_plus": 10_100})
    with pytest.raises(
        IllegalAction, match=r"Ante of \$4 is outside the table limits: \$5 to \$500"
    ):
        game.place_wagers({"ante": 400})
    assert game.positions == []  # nothing changed (G6)
    game.place_wagers({"pair_plus": 500})
    assert game.positions[0].wagers == {"ante": 0, "pair_plus": 500}


def test_t2_three_cards_each() -> None:
    game = new()
    play(game, "Ah Kh Qh " + QUEEN_HIGH_DEALER, {"ante": 500})
    assert [len(game.cards[h]) for h in ("player", "dealer")] == [3, 3]


def test_t3_fold_loses_ante_and_pair_plus() -> None:
    result = play(new(), "Ah Ad 4c " + QUEEN_HIGH_DEALER, {"ante": 1000, "pair_plus": 500}, "fold")
    assert result == {"ante": -1000, "raise": 0, "ante_bonus": 0, "pair_plus": -500}


def test_t3_pair_plus_alone_has_no_decision() -> None:
    game = new()
    result = play(game, "Ah Ad 4c " + QUEEN_HIGH_DEALER, {"pair_plus": 500})
    assert game.settled
    assert result["pair_plus"] == 500  # a pair pays 1 to 1
    with pytest.raises(IllegalAction, match="cannot decide now: the round is settled"):
        game.act("raise")


def test_t4_dealer_below_queen_high_ante_wins_raise_pushes() -> None:
    result = play(new(), "3h 4d 6c " + JACK_HIGH_DEALER, {"ante": 1000}, "raise")
    assert (result["ante"], result["raise"]) == (1000, 0)


def test_t4_queen_high_qualifies() -> None:
    result = play(new(), "3h 4d 6c " + QUEEN_HIGH_DEALER, {"ante": 1000}, "raise")
    assert (result["ante"], result["raise"]) == (-1000, -1000)


@pytest.mark.parametrize(
    ("player", "expected"),
    [("Kh 8d 2s", 1000), ("Qh 7d 2s", 0), ("Qh 6d 4s", -1000)],
    ids=["higher", "equal", "lower-kicker"],
)
def test_t5_higher_wins_equal_pushes_lower_loses(player: str, expected: int) -> None:
    # G4: Q-7-2 against Q-6-4 is decided by the second card
    result = play(new(), f"{player} {QUEEN_HIGH_DEALER}", {"ante": 1000}, "raise")
    assert (result["ante"], result["raise"]) == (expected, expected)


def test_t6_raise_table_pays_even_by_default_and_by_table_when_set() -> None:
    result = play(new(), "Ah Ad 4c " + QUEEN_HIGH_DEALER, {"ante": 1000}, "raise")
    assert result["raise"] == 1000
    paid_pairs = replace(
        RULES,
        raise_table=replace(
            RULES.raise_table,
            lines=(
                replace(RULES.raise_table.lines[0], label="Pair", at_least=(1,), pays=3),
                RULES.raise_table.lines[0],
            ),
        ),
    )
    result = play(
        TriCardRound(paid_pairs), "Ah Ad 4c " + QUEEN_HIGH_DEALER, {"ante": 1000}, "raise"
    )
    assert result["raise"] == 3000


@pytest.mark.parametrize(
    ("player", "bonus"),
    [("Ah Kd Qc", 1000), ("7h 7d 7c", 4000), ("5h 4h 3h", 5000), ("Ah Ad Kc", 0)],
)
def test_t7_ante_bonus_whatever_the_dealer_holds(player: str, bonus: int) -> None:
    # the dealer's straight flush beats every one of these, and the bonus is still paid
    result = play(new(), f"{player} 9s Ts Js", {"ante": 1000}, "raise")
    assert result["ante_bonus"] == bonus
    assert play(new(), f"{player} 9s Ts Js", {"ante": 1000}, "fold")["ante_bonus"] == 0


def test_t7_ante_bonus_variants() -> None:
    assert sorted(ANTE_BONUS_TABLES) == ["1-10-12.5", "1-2-3", "1-3-4", "1-3-5", "1-4-5", "1-8-9"]
    rules = RULES.with_tables(ante_bonus="1-10-12.5")
    result = play(TriCardRound(rules), "5h 4h 3h 9s Ts Js", {"ante": 1000}, "raise")
    assert result["ante_bonus"] == 12_500


@pytest.mark.parametrize(
    ("player", "pays"),
    [
        ("Ah Ad 4c", 1),
        ("Ah 9h 4h", 4),
        ("Ah Kd Qc", 6),
        ("7h 7d 7c", 30),
        ("5h 4h 3h", 40),
        ("Ah Kd 4c", -1),
    ],
)
def test_t8_pair_plus_on_the_player_hand_alone(player: str, pays: int) -> None:
    result = play(new(), f"{player} 9s Ts Js", {"ante": 500, "pair_plus": 1000}, "raise")
    assert result["pair_plus"] == pays * 1000


def test_t8_pair_plus_variants() -> None:
    assert list(PAIR_PLUS_TABLES) == [
        "1-4-6-30-40",
        "1-3-6-30-40",
        "1-4-6-25-40",
        "1-4-5-30-40",
        "1-4-6-33-35",
    ]
    rules = RULES.with_tables(pair_plus="1-3-6-30-40")
    result = play(TriCardRound(rules), "Ah 9h 4h 9s Ts Js", {"pair_plus": 1000})
    assert result["pair_plus"] == 3000
    with pytest.raises(RulesError, match="no Pair Plus table '9-9'; the tables are 1-4-6-30-40"):
        RULES.with_tables(pair_plus="9-9")


def test_vectorised_settlement_equals_one_hand_at_a_time() -> None:
    generator = np.random.default_rng(3)
    deals = np.argsort(generator.random((2_000, 52)), axis=1)[:, :6].astype(np.uint8)
    player, dealer = evaluate3(deals[:, :3]), evaluate3(deals[:, 3:])
    decision = generator.choice([FOLD, RAISE], 2_000)
    lines = settle(RULES, player, dealer, decision, 1000, 500)
    for i in range(0, 2_000, 97):
        one = settle(RULES, player[i], dealer[i], decision[i], 1000, 500)
        assert {k: int(v) for k, v in one.items()} == {k: int(v[i]) for k, v in lines.items()}
    assert (lines["pair_plus"][decision == NO_DECISION] == 0).all()
