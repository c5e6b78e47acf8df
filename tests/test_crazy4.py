"""Crazy 4 Poker, one test or more per ruling C1-C9 (RULINGS.md), cards given explicitly.

Cards are dealt five to each position in the order the wagers were placed, then five
to the dealer.
"""

import pytest

from riverboat.cards import parse_cards
from riverboat.deck import Deck
from riverboat.games import IllegalAction, find_game
from riverboat.games.crazy4 import Crazy4Round, Crazy4Rules

from gameplay import play

RULE_CARD = Crazy4Rules()
STANDARD = Crazy4Rules.standard()
KING_HIGH_DEALER = "Ks Qd 9h 4c 3d"  # best four: K-Q-9-4, qualifies
QUEEN_HIGH_DEALER = "Qs Jd 9h 4c 3d"  # does not qualify
BASE = {"ante": 1000, "super_bonus": 1000}


def new(rules: Crazy4Rules = RULE_CARD) -> Crazy4Round:
    return Crazy4Round(rules)


def test_c1_ante_and_super_bonus_required_and_equal_queens_up_optional() -> None:
    game = new()
    with pytest.raises(IllegalAction, match="Super Bonus is required"):
        game.place_wagers({"ante": 1000})
    with pytest.raises(IllegalAction, match=r"Super Bonus must equal the Ante \(\$10\), not \$20"):
        game.place_wagers({"ante": 1000, "super_bonus": 2000})
    with pytest.raises(
        IllegalAction, match=r"Queens Up of \$150 is outside the table limits: \$5 to \$100"
    ):
        game.place_wagers({**BASE, "queens_up": 15_000})
    assert game.positions == []
    game.place_wagers({**BASE, "queens_up": 500})


def test_c2_best_four_of_five_in_crazy4_order() -> None:
    # three sevens against the dealer's ace-high flush: among four-card hands three
    # of a kind ranks above a flush (C2)
    result = play(new(), "7h 7d 7c 2s 9d  Ah Kh 8h 5h 2h", BASE, "play")
    assert result["ante"] == 1000
    assert result["super_bonus"] == 2000  # three of a kind pays 2 to 1


def test_c3_play_1x_or_up_to_3x_with_a_pair_of_aces() -> None:
    game = new()
    play(game, "Ac Ad 7s 5c 2d " + KING_HIGH_DEALER, BASE)
    (_fold, play_choice) = game.legal_actions()
    assert (play_choice.minimum, play_choice.maximum, play_choice.step) == (1000, 3000, 100)
    with pytest.raises(
        IllegalAction, match=r"puts \$10 to \$30 in play, in steps of \$1; not \$35"
    ):
        game.act("play", 3500)
    game.act("play", 2500)  # any whole-dollar amount
    assert game.positions[0].result["play"] == 2500
    game = new()
    play(game, "Kc Kd 7s 5c 2d " + QUEEN_HIGH_DEALER, BASE)
    assert game.legal_actions()[1].maximum == 1000
    with pytest.raises(IllegalAction, match="not \\$20"):
        game.act("play", 2000)


def test_c3_fold_loses_every_wager() -> None:
    result = play(new(), "7c 6d 4s 3c 2d " + KING_HIGH_DEALER, {**BASE, "queens_up": 500}, "fold")
    assert result == {"ante": -1000, "play": 0, "super_bonus": -1000, "queens_up": -500}


def test_c4_dealer_below_king_high_ante_pushes_play_paid() -> None:
    result = play(new(), "7c 6d 4s 3c 2d " + QUEEN_HIGH_DEALER, BASE, "play")
    assert (result["ante"], result["play"]) == (0, 1000)
    assert result["super_bonus"] == -1000  # the dealer's hand is higher (C6)


def test_c5_higher_wins_and_ties_lose_on_the_rule_card() -> None:
    tie = "Kc Qc 9d 4s 3h " + KING_HIGH_DEALER
    result = play(new(), tie, BASE, "play")
    assert (result["ante"], result["play"]) == (-1000, -1000)
    result = play(new(STANDARD), tie, BASE, "play")  # variant ties_push
    assert (result["ante"], result["play"]) == (0, 0)
    win = play(new(), "Ac 5d 4s 3c 2h " + KING_HIGH_DEALER, BASE, "play")  # A-2-3-4 straight (G3)
    assert (win["ante"], win["play"], win["super_bonus"]) == (1000, 1000, 1000)


@pytest.mark.parametrize(
    ("player", "pays"),
    [
        ("Ac Ad Ah As 2c", 200),
        ("9c 9d 9h 9s 2c", 30),
        ("9c Tc Jc Qc 2d", 15),
        ("9c 9d 9h 5s 2c", 2),
        ("Jc 9c 6c 5c 2d", 1.5),
        ("9c Td Jh Qs 2c", 1),
    ],
)
def test_c6_super_bonus_on_a_straight_or_better_win_or_lose(player: str, pays: float) -> None:
    # the dealer's four kings beat every one of these but Four Aces
    result = play(new(), f"{player} Kc Kd Kh Ks 3d", BASE, "play")
    assert result["super_bonus"] == int(pays * 1000)


def test_c6_below_a_straight_pushes_on_beat_or_tie_loses_to_higher_qualified_or_not() -> None:
    beats = play(new(), "Ac Ad 7s 5c 2d " + KING_HIGH_DEALER, BASE, "play")
    ties = play(new(), "Kc Qc 9d 4s 3h " + KING_HIGH_DEALER, BASE, "play")
    loses_unqualified = play(new(), "Jc Td 8s 5c 2d " + QUEEN_HIGH_DEALER, BASE, "play")
    assert (beats["super_bonus"], ties["super_bonus"], loses_unqualified["super_bonus"]) == (
        0,
        0,
        -1000,
    )
    # variant super_bonus_pushes_on_no_qualify
    standard = play(new(STANDARD), "Jc Td 8s 5c 2d " + QUEEN_HIGH_DEALER, BASE, "play")
    assert standard["super_bonus"] == 0


def test_c6_fractional_flush_payout_rounds_down_g8() -> None:
    odd = {"ante": 555, "super_bonus": 555}  # 3 to 2 on $5.55 is $8.325
    result = play(new(), "Jc 9c 6c 5c 2d Kh Kd Ks Kc 3d", odd, "play")
    assert result["super_bonus"] == 832


@pytest.mark.parametrize(
    ("player", "pays"),
    [
        ("Ac Ad Ah As 2c", 50),
        ("9c Tc Jc Qc 2d", 30),
        ("9c 9d 9h 5s 2c", 8),
        ("Jc 9c 6c 5c 2d", 4),
        ("9c Td Jh Qs 2c", 3),
        ("9c 9d 5h 5s 2c", 2),
        ("Qc Qd 5h 4s 2c", 1),
        ("Jc Jd 5h 4s 2c", -1),
    ],
)
def test_c7_queens_up_on_the_player_hand_alone(player: str, pays: int) -> None:
    result = play(new(), f"{player} Kc Kd Kh Ks 3d", {**BASE, "queens_up": 1000}, "play")
    assert result["queens_up"] == pays * 1000


def test_c8_six_positions_two_per_seat_second_blind() -> None:
    game = new()
    for seat in ("a", "b", "c", "d", "e"):
        game.place_wagers(BASE, seat=seat)
    with pytest.raises(IllegalAction, match="second position is played blind"):
        game.place_wagers(BASE, seat="a")
    game.place_wagers(BASE, seat="a", blind=True)
    with pytest.raises(IllegalAction, match="6 betting position"):
        game.place_wagers(BASE, seat="f")
    two_seats = new()
    two_seats.place_wagers(BASE, seat="a")
    two_seats.place_wagers(BASE, seat="a", blind=True)
    with pytest.raises(IllegalAction, match="already plays 2 position"):
        two_seats.place_wagers(BASE, seat="a", blind=True)
    game.deal(Deck.stacked(range(52)))
    assert set(game.cards) == {"a", "b", "c", "d", "e", "a:blind", "dealer"}
    blind = game.positions[-1]
    assert (blind.decision, blind.amount) == ("blind", 1000)  # always a 1x Play
    for seat in ("a", "b", "c", "d"):
        game.act("fold", seat=seat)
    assert not game.settled
    assert [c.action for c in game.legal_actions("a")] == []  # acted on the first only
    game.act("play", seat="e")
    assert game.settled
    assert blind.result["play"] != 0


def test_c8_blind_position_needs_a_first_position() -> None:
    with pytest.raises(IllegalAction, match="second position"):
        new().place_wagers(BASE, seat="a", blind=True)


def test_c9_standard_rule_set_available_by_name() -> None:
    game = find_game("crazy4")
    assert game.rules("standard") == STANDARD
    assert STANDARD.ties_push
    assert STANDARD.super_bonus_pushes_on_no_qualify
    assert game.rules() == RULE_CARD  # the rule card's reading is the default


def test_deal_order_is_positions_then_dealer() -> None:
    game = new()
    game.place_wagers(BASE, seat="a")
    game.place_wagers(BASE, seat="b")
    game.deal(Deck.stacked(parse_cards("2c 3c 4c 5c 6c 2d 3d 4d 5d 6d 2h 3h 4h 5h 6h")))
    assert [str(game.cards[h][0]) for h in ("a", "b", "dealer")] == ["2c", "2d", "2h"]
