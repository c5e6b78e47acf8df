"""Baccarat, one test or more per ruling B1-B8 (RULINGS.md), and the exact count of every deal."""

import numpy as np
import pytest

from riverboat.deck import Shoe
from riverboat.games import IllegalAction, find_game
from riverboat.games.baccarat import (
    BaccaratRound,
    BaccaratRules,
    BaccaratTable,
    banker_draws,
    card_values,
    coup_totals,
    player_draws,
)
from riverboat.rng import SeededSource

from gameplay import play

RULES = BaccaratRules()


def new(rules: BaccaratRules = RULES) -> BaccaratRound:
    return BaccaratRound(rules)


def test_b1_eight_deck_shoe_with_a_six_deck_variant() -> None:
    assert find_game("baccarat").rules().decks == 8
    assert find_game("baccarat").rules("6 decks").decks == 6
    game = new()
    game.place_wagers({"player": 500})
    game.deal()  # a fresh shoe by default
    assert game.settled


def test_b1_table_reshuffles_after_the_cut_card() -> None:
    table = BaccaratTable(RULES, SeededSource(11))
    first_burn = len(table.shoe.burned)
    coups = 0
    while (coup := table.new_round()) and table.shoes_started == 1:
        assert not table.shoe.cut_card_reached  # every coup starts ahead of the cut card
        coup.place_wagers({"banker": 500})
        table.deal(coup)
        coups += 1
    usable = 416 - first_burn - 14  # cards in front of the cut card
    assert usable / 6 <= coups <= usable / 4 + 1  # a coup takes 4 to 6 cards
    assert table.shoe.remaining == 416 - len(table.shoe.burned)  # a new shoe, burned again


def test_b2_any_combination_at_least_one_and_limits() -> None:
    game = new()
    with pytest.raises(IllegalAction, match="place at least one wager: Player or Banker or Tie"):
        game.place_wagers({})
    with pytest.raises(
        IllegalAction, match=r"Tie of \$101 is outside the table limits: \$5 to \$100"
    ):
        game.place_wagers({"tie": 10_100})
    game.place_wagers({"player": 50_000, "banker": 500, "tie": 10_000})


def test_b3_card_values_and_dealing_order() -> None:
    assert card_values([0, 28, 32, 36, 40, 44, 48]).tolist() == [2, 9, 0, 0, 0, 0, 1]
    game = new()
    play(game, "Ah 2c 3d 4s 5h 6h", {"player": 500})  # P: A, 3 = 4; B: 2, 4 = 6
    assert [str(c) for c in game.cards["player"][:2]] == ["Ah", "3d"]
    assert [str(c) for c in game.cards["banker"][:2]] == ["2c", "4s"]


def test_b4_natural_both_stand() -> None:
    game = new()
    play(game, "4h Kc 4d 2s 9h 9c", {"player": 500})  # Player 8, a natural
    assert (len(game.cards["player"]), len(game.cards["banker"])) == (2, 2)
    assert game.positions[0].result["player"] == 500


@pytest.mark.parametrize(("player_two", "draws"), [(0, True), (5, True), (6, False), (7, False)])
def test_b5_player_draws_on_0_to_5(player_two: int, draws: bool) -> None:
    assert bool(player_draws(player_two, 4)) is draws


@pytest.mark.parametrize(
    ("banker_two", "player_third", "draws"),
    [
        (5, -1, True),  # the Player stood: Banker draws on 0-5
        (6, -1, False),
        (2, 8, True),
        (3, 8, False),
        (3, 9, True),
        (4, 1, False),
        (4, 2, True),
        (4, 7, True),
        (4, 8, False),
        (5, 3, False),
        (5, 4, True),
        (5, 7, True),
        (6, 5, False),
        (6, 6, True),
        (6, 7, True),
        (7, 6, False),
    ],
)
def test_b6_banker_third_card_table(banker_two: int, player_third: int, draws: bool) -> None:
    assert bool(banker_draws(3, banker_two, player_third)) is draws


def test_b6_in_a_round() -> None:
    game = new()
    # P: 4 + K = 4, draws an 8 -> 2; B: 3 + 3 = 6 stands (third card 8)
    play(game, "4h 3c Kd 3s 8c 9d", {"banker": 1000})
    assert [len(game.cards[h]) for h in ("player", "banker")] == [3, 2]
    assert game.totals() == (2, 6)


def test_b7_payouts_with_commission_and_tie() -> None:
    banker_wins = play(new(), "4h 3c Kd 3s 8c 9d", {"player": 1000, "banker": 1000, "tie": 500})
    assert banker_wins == {"player": -1000, "banker": 950, "tie": -500}
    tie = play(new(), "4h 4c 3d 3s 9c 9d", {"player": 1000, "banker": 1000, "tie": 500})  # 7 - 7
    assert tie == {"player": 0, "banker": 0, "tie": 4000}


def test_b7_commission_rounds_down_g8_and_variants() -> None:
    odd = play(new(), "4h 3c Kd 3s 8c 9d", {"banker": 505})  # 95% of $5.05 is $4.7975
    assert odd["banker"] == 479
    nine_to_one = BaccaratRules(tie_pays=9, commission=0)
    tie = play(new(nine_to_one), "4h 4c 3d 3s 9c 9d", {"tie": 500})
    assert tie["tie"] == 4500
    no_commission = play(new(nine_to_one), "4h 3c Kd 3s 8c 9d", {"banker": 505})
    assert no_commission["banker"] == 505


def test_b8_only_four_games() -> None:
    from riverboat.games import GAMES

    assert sorted(GAMES) == ["baccarat", "crazy4", "rabbit-hunter", "tri-card"]


def test_every_ordered_six_card_deal_of_an_eight_deck_shoe() -> None:
    # Wizard of Odds, "Baccarat": of 4,998,398,275,503,360 ordered six-card deals
    # from 8 decks, Banker wins 2,292,252,566,437,888, Player 2,230,518,282,592,256
    # and Tie 475,627,426,473,216.
    counts = np.array([128] + [32] * 9, dtype=np.int64)  # cards of each value 0..9
    values = np.indices((10,) * 6).reshape(6, -1).T  # every sequence of six values
    weight = np.ones(len(values), dtype=np.int64)
    for i in range(6):
        earlier = (values[:, :i] == values[:, i : i + 1]).sum(axis=1)
        weight *= counts[values[:, i]] - earlier
    player, banker = coup_totals(values)
    totals = {
        "banker": int(weight[banker > player].sum()),
        "player": int(weight[player > banker].sum()),
        "tie": int(weight[player == banker].sum()),
    }
    assert totals == {
        "banker": 2_292_252_566_437_888,
        "player": 2_230_518_282_592_256,
        "tie": 475_627_426_473_216,
    }
    assert sum(totals.values()) == 416 * 415 * 414 * 413 * 412 * 411


def test_shoe_allows_a_card_twice_across_decks() -> None:
    game = new()
    game.place_wagers({"player": 500})
    game.deal(Shoe(8, 14, SeededSource(3)))
    assert game.settled
