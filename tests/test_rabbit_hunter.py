"""Rabbit Hunter, one test or more per ruling R1-R11 (RULINGS.md), cards given explicitly.

Cards are dealt player five, dealer five, then the rabbit.
"""

from dataclasses import replace

import pytest

from riverboat.cards import parse_cards
from riverboat.deck import Deck
from riverboat.games import IllegalAction, find_game
from riverboat.games.chips import hold, quick_replay, tap
from riverboat.games.rabbit_hunter import RabbitHunterRound, RabbitHunterRules

from gameplay import play

RULES = RabbitHunterRules()
SPOTS = (RULES.ante, RULES.bonus, RULES.bad_beat)
ACE_HIGH_DEALER = "As Qd 9h 4c 3d"
KING_HIGH_DEALER = "Ks Qd 9h 4c 3d"


def new(rules: RabbitHunterRules = RULES) -> RabbitHunterRound:
    return RabbitHunterRound(rules)


def test_r1_wager_limits_and_bonus_equals_ante() -> None:
    game = new()
    with pytest.raises(IllegalAction, match=r"Ante is required: place \$5 to \$500"):
        game.place_wagers({"bonus": 1000})
    with pytest.raises(IllegalAction, match=r"Bonus must equal the Ante \(\$10\), not \$5"):
        game.place_wagers({"ante": 1000, "bonus": 500})
    with pytest.raises(
        IllegalAction, match=r"Bad Beat of \$200 is outside the table limits: \$5 to \$100"
    ):
        game.place_wagers({"ante": 1000, "bad_beat": 20_000})
    with pytest.raises(IllegalAction, match=r"Ante of \$501 is outside"):
        game.place_wagers({"ante": 50_100})
    assert game.positions == []
    game.place_wagers({"ante": 50_000, "bonus": 50_000, "bad_beat": 500})


def test_r1_placed_bonus_follows_the_ante() -> None:
    wagers = tap(tap({}, "ante", 500, SPOTS), "bonus", 500, SPOTS)
    assert tap(wagers, "ante", 2_500, SPOTS)["bonus"] == 3_000


def test_r2_tap_adds_up_to_maximum_then_resets_and_hold_resets() -> None:
    wagers = tap({}, "bad_beat", 2_500, SPOTS)
    wagers = tap(
        tap(tap(wagers, "bad_beat", 2_500, SPOTS), "bad_beat", 2_500, SPOTS),
        "bad_beat",
        2_500,
        SPOTS,
    )
    assert wagers["bad_beat"] == 10_000  # capped at the $100 maximum
    wagers = tap(tap(wagers, "bad_beat", 2_500, SPOTS), "ante", 10_000, SPOTS)
    assert wagers["bad_beat"] == 0  # a tap at the maximum resets it
    assert hold(wagers, "ante", SPOTS)["ante"] == 0
    with pytest.raises(IllegalAction, match="place the Ante first"):
        tap({}, "bonus", 500, SPOTS)


def test_r3_five_cards_each() -> None:
    game = new()
    play(game, "2c 3c 4s 5c 7d " + ACE_HIGH_DEALER, {"ante": 500})
    assert [len(game.cards[h]) for h in ("player", "dealer")] == [5, 5]
    assert "rabbit" not in game.cards


def test_r4_fold_loses_every_wager() -> None:
    result = play(
        new(),
        "2c 3c 4s 5c 7d " + ACE_HIGH_DEALER,
        {"ante": 1000, "bonus": 1000, "bad_beat": 500},
        "fold",
    )
    assert result == {
        "ante": -1000,
        "play": 0,
        "fee": 0,
        "bonus": -1000,
        "bad_beat": -500,
        "cap": 0,
    }


def test_r4_buy_and_play_pays_a_fee_places_play_and_deals_a_sixth_card() -> None:
    game = new()
    # 2-3-4-5 + 9: the rabbit, a six, makes a straight; best five of six (R4)
    result = play(
        game, "2c 3c 4d 5c 9d " + ACE_HIGH_DEALER + " 6h", {"ante": 1000, "bonus": 1000}, "buy"
    )
    assert [card.name() for card in game.cards["rabbit"]] == ["6h"]
    assert game.positions[0].amount == 2000  # fee and Play
    assert result == {
        "ante": 1000,
        "play": 1000,
        "fee": -1000,
        "bonus": 7000,
        "bad_beat": 0,
        "cap": 0,
    }


def test_r4_play_places_a_wager_equal_to_the_ante() -> None:
    game = new()
    play(game, "Kc Kd 4s 5c 7d " + ACE_HIGH_DEALER, {"ante": 1500})
    assert [(c.action, c.minimum) for c in game.legal_actions()] == [
        ("fold", 0),
        ("play", 1500),
        ("buy", 3000),
    ]
    game.act("play")
    assert game.positions[0].result["play"] == 1500


def test_r5_dealer_without_an_ace_or_pair_does_not_qualify_ante_pushes() -> None:
    result = play(new(), "Kc Kd 4s 5c 7d " + KING_HIGH_DEALER, {"ante": 1000}, "play")
    assert (result["ante"], result["play"]) == (0, 1000)
    result = play(new(), "Kc Kd 4s 5c 7d " + ACE_HIGH_DEALER, {"ante": 1000}, "play")
    assert (result["ante"], result["play"]) == (1000, 1000)


@pytest.mark.parametrize(
    ("player", "dealer", "play_result"),
    [
        ("Qc Jd 4s 5c 7d", KING_HIGH_DEALER, -1000),  # loses to an unqualified dealer
        ("Kc Qc 9d 4s 3h", KING_HIGH_DEALER, 0),  # equal hands push (G4)
        ("Kc Qc 9d 4s 2h", KING_HIGH_DEALER, -1000),  # the last kicker decides (G4)
    ],
)
def test_r6_play_always_settled_against_the_dealer(
    player: str, dealer: str, play_result: int
) -> None:
    result = play(new(), f"{player} {dealer}", {"ante": 1000}, "play")
    assert result["play"] == play_result
    assert result["ante"] == 0  # the dealer did not qualify (R5)


@pytest.mark.parametrize(
    ("player", "pays"),
    [
        ("As Ks Qs Js Ts", 500),
        ("9s 8s 7s 6s 5s", 100),
        ("9s 9h 9d 9c 5s", 50),
        ("9s 9h 9d 5c 5s", 30),
        ("Kh 9h 7h 5h 3h", 9),
        ("9s 8h 7d 6c 5s", 7),
        ("9s 9h 9d 6c 5s", 5),
        ("9s 9h 6d 6c 5s", 2),
        ("Ts Th 6d 4c 3c", 1),
        ("9s 9h 6d 4c 3c", -1),
    ],
)
def test_r7_bonus_pays_on_the_final_hand_whatever_the_dealer_holds(player: str, pays: int) -> None:
    # the dealer's four deuces beat everything below four of a kind
    result = play(new(), f"{player} 2s 2h 2d 2c 3d", {"ante": 1000, "bonus": 1000}, "play")
    assert result["bonus"] == pays * 1000


def test_r7_bonus_lost_on_fold() -> None:
    result = play(new(), "Ah Kh Qh Jh Th " + ACE_HIGH_DEALER, {"ante": 1000, "bonus": 1000}, "fold")
    assert result["bonus"] == -1000


@pytest.mark.parametrize(
    ("player", "dealer", "bad_beat"),
    [
        ("Ts Th 6d 4c 2s", "Js Jh 6c 4d 2d", 5000),  # the player's losing tens pay
        ("Js Jh 6c 4d 2d", "Ts Th 6d 4c 2s", 5000),  # the dealer's losing tens pay: two-way
        ("9s 9h 6d 4c 2s", "Js Jh 6c 4d 2d", -500),  # losing nines do not
        ("Js Jh 6c 4d 2d", "Jc Jd 6s 4h 2h", -500),  # a tie is not a loss
        ("Kc Kd Kh 4c 2s", "Js Jh Jd 4h 2h", 5000),  # trips and above count
    ],
)
def test_r8_two_way_bad_beat(player: str, dealer: str, bad_beat: int) -> None:
    result = play(new(), f"{player} {dealer}", {"ante": 1000, "bad_beat": 500}, "play")
    assert result["bad_beat"] == bad_beat


def test_r8_bad_beat_lost_on_fold() -> None:
    result = play(new(), "Ts Th 6d 4c 2s Js Jh 6c 4d 2d", {"ante": 1000, "bad_beat": 500}, "fold")
    assert result["bad_beat"] == -500


def test_r9_winnings_capped_at_50000_dollars() -> None:
    # a royal flush on a $500 Bonus pays $250,000 before the cap
    royal = "Ah Kh Qh Jh Th " + ACE_HIGH_DEALER
    result = play(new(), royal, {"ante": 50_000, "bonus": 50_000}, "play")
    winnings = sum(v for k, v in result.items() if v > 0)
    assert winnings == 50_000 + 50_000 + 25_000_000
    assert sum(result.values()) == 5_000_000  # the round's net is the cap
    assert result["cap"] == 5_000_000 - winnings
    uncapped = replace(RULES, max_payout=None)
    assert play(new(uncapped), royal, {"ante": 50_000, "bonus": 50_000}, "play")["cap"] == 0


def test_r10_quick_replay_checks_the_wagers_again() -> None:
    previous = {"ante": 1000, "bonus": 1000, "bad_beat": 500}
    assert quick_replay(previous, SPOTS, balance=2_500) == previous
    with pytest.raises(IllegalAction, match=r"Quick Replay needs \$25 and the balance is \$24.99"):
        quick_replay(previous, SPOTS, balance=2_499)
    smaller = replace(RULES, bad_beat=replace(RULES.bad_beat, minimum=100, maximum=400))
    with pytest.raises(IllegalAction, match="Bad Beat of"):
        quick_replay(previous, (smaller.ante, smaller.bonus, smaller.bad_beat), balance=10_000)
    with pytest.raises(IllegalAction, match="no previous round"):
        quick_replay({}, SPOTS, balance=10_000)


def test_r11_pay_table_and_rules_viewable_without_betting() -> None:
    info = find_game("rabbit-hunter").table_info()
    assert info["pay_tables"]["bonus_table"][0] == ["Royal Flush", "500 to 1"]
    assert info["pay_tables"]["bonus_table"][-1] == ["Pair of 10s or Higher", "1 to 1"]
    assert [w["name"] for w in info["wagers"]] == ["ante", "bonus", "bad_beat"]
    assert info["rules"]["max_payout"] == 5_000_000


def test_a_buy_with_no_card_left_changes_nothing_g6() -> None:
    game = new()
    game.place_wagers({"ante": 1000})
    game.deal(Deck.stacked(parse_cards("2c 3c 4s 5c 7d " + ACE_HIGH_DEALER)))  # no rabbit
    with pytest.raises(ValueError, match="cannot deal 1 cards"):
        game.act("buy")
    assert game.positions[0].decision is None
    assert [c.action for c in game.legal_actions()] == ["fold", "play", "buy"]
    game.void("the deck ran out")  # still before the first decision (G7)
    assert game.net() == 0


def test_an_amount_must_be_whole_cents() -> None:
    game = new()
    play(game, "Kc Kd 4s 5c 7d " + ACE_HIGH_DEALER, {"ante": 1000})
    with pytest.raises(IllegalAction, match="whole number of cents"):
        game.act("play", 1000.0)  # type: ignore[arg-type]


def test_r4_the_rabbit_and_the_decision_that_deals_it_name_each_other() -> None:
    from riverboat.games.rules import RulesError
    from riverboat.games.spec import HandSpec, OptionSpec

    spec = find_game("rabbit-hunter").spec()
    rabbit = spec.hand("rabbit")
    assert (rabbit.dealt_on, spec.option("buy").deals) == ("buy", "rabbit")
    fold, play, buy = spec.options
    with pytest.raises(RulesError, match="'play' deals 'rabbit'"):  # dealt on buy, not play
        replace(spec, options=(fold, replace(play, deals="rabbit"), buy))
    with pytest.raises(RulesError, match="'buy' deals 'rabbit'"):  # no hand is dealt on buy
        replace(spec, hands=(*spec.hands[:2], replace(rabbit, dealt_on="play")))
    with pytest.raises(RulesError, match="hand 'rabbit' is dealt on 'buy'"):  # buy deals none
        replace(spec, options=(fold, play, replace(buy, deals=None)))
    with pytest.raises(RulesError, match="hand 'owl' is dealt on 'fold'"):
        replace(spec, hands=(*spec.hands, HandSpec("owl", "An owl", 1, dealt_on="fold")))
    with pytest.raises(RulesError, match="hand 'owl' is dealt on 'hoot'"):
        replace(
            spec,
            hands=(*spec.hands, HandSpec("owl", "An owl", 1, dealt_on="hoot")),
            options=(*spec.options, OptionSpec("peek", "Peek")),
        )
