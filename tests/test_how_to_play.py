"""The rules in brief (R11) follow the rules they describe: each game's how_to_play is
built from its rules object, so a variant's qualifier, tie rule, pays, commission,
cap and shoe show in its sentences, and the table data and the pages carry them."""

from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from riverboat.cards import Rank
from riverboat.games import GAMES, RulesError, discover, find_game
from riverboat.games.baccarat import BaccaratRules
from riverboat.games.baccarat import settle as baccarat_settle
from riverboat.games.crazy4 import Crazy4Rules
from riverboat.games.crazy4 import settle as crazy4_settle
from riverboat.games.rabbit_hunter import BONUS_TABLE, RabbitHunterRules
from riverboat.games.rules import PayLine, PayTable
from riverboat.games.tri_card import TriCardRules
from riverboat.hands import FOUR_CARD, FiveCard, FourCard, ThreeCard
from riverboat.table.views import GameInfo
from riverboat.terminal.screens import RulesScreen

OWN_GAMES = ["rabbit-hunter", "tri-card", "crazy4", "baccarat"]


def text(rules: object) -> str:
    """The rules in brief of ``rules``' game, as one string."""
    game = next(game for game in GAMES.values() if isinstance(rules, game.rules_type))
    return " ".join(game.how_to_play(rules))


@pytest.mark.parametrize("name", OWN_GAMES)
def test_r11_every_variant_has_its_own_sentences_in_the_table_data(name: str) -> None:
    game = find_game(name)
    for rules in game.variants.values():
        sentences = game.how_to_play(rules)
        assert sentences
        assert all(isinstance(s, str) and s.endswith(".") for s in sentences)
        assert game.table_info(rules)["how_to_play"] == list(sentences)
        assert GameInfo.of(game, rules=rules).how_to_play == list(sentences)
    assert game.table_info()["how_to_play"] == list(game.how_to_play(game.rules()))


# Crazy 4 Poker


def _tie_at_a_qualifying_dealer(rules: Crazy4Rules) -> dict[str, int]:
    """Net cents of a 1x Play when the player's hand equals a qualifying dealer's."""
    king_high = FOUR_CARD.lowest(FourCard.HIGH_CARD, Rank.KING, Rank.QUEEN)
    lines = crazy4_settle(rules, king_high, king_high, 1000, 1000, 1000, 0)
    return {name: int(value) for name, value in lines.items()}


def test_c5_c9_the_standard_variant_says_ties_push_and_the_rule_card_that_they_lose() -> None:
    rule_card, standard = Crazy4Rules(), Crazy4Rules.standard()
    assert find_game("crazy4").variants == {"rule-card": rule_card, "standard": standard}
    assert "A hand that does not beat a qualifying dealer loses." in text(rule_card)
    assert "equal hands push" not in text(rule_card)
    assert "Against a qualifying dealer, equal hands push; a lower hand loses." in text(standard)
    assert "does not beat a qualifying dealer loses" not in text(standard)
    # the words say what settle does with a tie at a qualifying dealer
    assert _tie_at_a_qualifying_dealer(rule_card)["ante"] == -1000
    assert _tie_at_a_qualifying_dealer(standard)["ante"] == 0


def test_c6_the_super_bonus_below_a_straight_follows_its_variant() -> None:
    rule_card = "below that it pushes unless the dealer's hand is higher."
    standard = "below that it pushes unless a qualifying dealer's hand is higher."
    assert rule_card in text(Crazy4Rules())
    assert standard in text(Crazy4Rules.standard())
    ties_only = Crazy4Rules(ties_push=True)  # one field at a time: the other sentence stays
    assert rule_card in text(ties_only)
    assert "equal hands push" in text(ties_only)


def test_c3_c4_the_play_and_the_qualifier_come_from_the_rules() -> None:
    assert "Fold, or play 1x the Ante; with a pair of aces or better, up to 3x." in text(
        Crazy4Rules()
    )
    other = Crazy4Rules(
        dealer_qualifies=(FourCard.HIGH_CARD, Rank.QUEEN),
        raise_up_to_3x_at_least=(FourCard.PAIR, Rank.KING),
        max_play_multiple=2,
    )
    assert "The dealer qualifies with queen-high or better" in text(other)
    assert "with a pair of kings or better, up to 2x." in text(other)
    assert "king-high" not in text(other)
    assert "Fold, or play 1x the Ante." in text(Crazy4Rules(max_play_multiple=1))


# Rabbit Hunter


def test_r8_r9_another_bad_beat_pay_and_cap_show() -> None:
    default = text(RabbitHunterRules())
    assert "Bad Beat pays 10 to 1" in default
    assert "A round's winnings are capped at $50,000." in default
    other = text(RabbitHunterRules(bad_beat_pays=Fraction(15, 2), max_payout=10_000_000))
    assert "Bad Beat pays 15 to 2 when the losing hand" in other
    assert "A round's winnings are capped at $100,000." in other
    assert "10 to 1" not in other
    assert "$50,000" not in other
    assert "capped" not in text(RabbitHunterRules(max_payout=None))


def test_r5_r7_r8_the_qualifier_bonus_and_bad_beat_hands_come_from_the_rules() -> None:
    from_jacks = PayTable(
        "jacks",
        (
            *BONUS_TABLE.lines[:-1],
            replace(
                BONUS_TABLE.lines[-1],
                label="Pair of Jacks or Higher",
                at_least=(FiveCard.PAIR, Rank.JACK),
            ),
        ),
    )
    rules = RabbitHunterRules(
        dealer_qualifies=(FiveCard.PAIR,),
        bonus_table=from_jacks,
        bad_beat_at_least=(FiveCard.TWO_PAIR,),
    )
    assert "The dealer qualifies with a pair or better" in text(rules)
    assert "from a pair of jacks up" in text(rules)
    assert "is two pair or better; a tie is not a loss." in text(rules)
    default = text(RabbitHunterRules())
    assert "The dealer qualifies with ace-high or better" in default
    assert "from a pair of tens up" in default
    assert "is a pair of tens or better; a tie is not a loss." in default


# Baccarat


def test_b7_another_commission_shows_in_the_words_and_is_what_settle_takes() -> None:
    four = BaccaratRules(commission=Fraction(1, 25))
    assert four.banker_pays == Fraction(24, 25)
    assert "Banker 1 to 1 less 4% commission" in text(four)
    assert "5%" not in text(four)
    assert "Banker 1 to 1 less 5% commission, Tie 8 to 1" in text(BaccaratRules())
    assert find_game("baccarat").line_words(four).pays["banker"] == "96 to 100 (4% commission)"
    won = baccarat_settle(four, 3, 7, 0, 1000, 0)["banker"]  # the Banker's 7 wins
    assert int(won) == 1000 * four.banker_pays == 960
    free = text(BaccaratRules(commission=Fraction(0), tie_pays=Fraction(9)))
    assert "Banker 1 to 1, Tie 9 to 1" in free
    assert "commission" not in free


def test_b1_the_shoe_of_each_variant_shows() -> None:
    assert "a shoe of 8 decks; when the cut card, 14 cards from the end" in text(BaccaratRules())
    assert "a shoe of 6 decks;" in text(BaccaratRules.six_decks())
    one = BaccaratRules(decks=1, cut_card_from_end=20)
    assert "a shoe of 1 deck; when the cut card, 20 cards from the end" in text(one)
    info = GameInfo.of(find_game("baccarat"), rules=BaccaratRules.six_decks())
    assert info.variant == "6 decks"
    assert "The shoe holds 6 decks." in info.pay_table[-1].notes  # every part from one rules


# Tri-Card Poker


def test_t4_another_qualifier_shows() -> None:
    assert "The dealer qualifies with queen-high or better;" in text(TriCardRules())
    jack = text(TriCardRules(dealer_qualifies=(ThreeCard.HIGH_CARD, Rank.JACK)))
    assert "The dealer qualifies with jack-high or better;" in jack
    assert "queen" not in jack
    pair = text(TriCardRules(dealer_qualifies=(ThreeCard.PAIR,)))
    assert "The dealer qualifies with a pair or better;" in pair


def test_t6_t7_the_raise_and_the_ante_bonus_follow_their_tables() -> None:
    assert "Otherwise the higher hand wins both at 1 to 1." in text(TriCardRules())
    assert "The Ante Bonus pays on a straight or better when you raise" in text(TriCardRules())
    by_table = PayTable(
        "straights 2",
        (
            PayLine("Straight or better", (ThreeCard.STRAIGHT,), Fraction(2)),
            PayLine("Any winning hand", (ThreeCard.HIGH_CARD,), Fraction(1)),
        ),
    )
    raise_table = text(TriCardRules(raise_table=by_table))
    assert "wins the Ante at 1 to 1 and the Raise by the Raise table." in raise_table
    even_two = PayTable("2", (PayLine("Any winning hand", (ThreeCard.HIGH_CARD,), Fraction(2)),))
    assert "the Raise at 2 to 1." in text(TriCardRules(raise_table=even_two))
    trips_up = PayTable(
        "trips",
        (
            PayLine("Straight Flush", (ThreeCard.STRAIGHT_FLUSH,), Fraction(5)),
            PayLine("Three of a Kind", (ThreeCard.THREE_OF_A_KIND,), Fraction(4)),
        ),
    )
    trips = text(TriCardRules(ante_bonus_table=trips_up))
    assert "The Ante Bonus pays on three of a kind or better when you raise" in trips


# the pages and the plug-in check


def test_r11_the_terminal_rules_page_shows_the_sentences() -> None:
    page = " ".join(str(RulesScreen("rabbit-hunter", edges=False).page()).split())
    for sentence in find_game("rabbit-hunter").how_to_play(RabbitHunterRules()):
        assert f"* {sentence}" in page


def test_a_how_to_play_that_is_not_a_function_of_the_rules_is_refused() -> None:
    with pytest.raises(RulesError, match="how_to_play is a function of the rules"):
        replace(find_game("tri-card"), how_to_play=("Place an Ante.",))  # the old tuple


@pytest.mark.parametrize(
    ("module", "body", "message"),
    [
        ("mute_game", "lambda rules: ()", "how_to_play says nothing under 'standard'"),
        ("listed_game", "lambda rules: ['Place an Ante.']", "gives a tuple of sentences"),
    ],
)
def test_a_plug_in_without_rules_in_brief_is_left_out_as_it_loads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, module: str, body: str, message: str
) -> None:
    (tmp_path / f"{module}.py").write_text(
        "from dataclasses import replace\n"
        "from riverboat.games.tri_card import GAME as TRI_CARD\n"
        f"GAME = replace(TRI_CARD, name='{module}', how_to_play={body})\n"
    )
    info = tmp_path / f"{module}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {module}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[riverboat.games]\n{module} = {module}:GAME\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.warns(RuntimeWarning, match=message):
        assert discover() == []
    assert list(GAMES) == OWN_GAMES
