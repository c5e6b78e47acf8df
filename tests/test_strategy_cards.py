"""Strategy cards: the rules found in the exact tables, their exact cost against the
optimal play, the command that prints them and the rules overlay that shows them."""

import json
import re
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest
from typer.testing import CliRunner

from riverboat.analysis.kept_cards import kept_card
from riverboat.analysis.solution import colex_index
from riverboat.analysis.strategy_cards import StrategyCard, strategy_card
from riverboat.cli import app
from riverboat.games import RulesError
from riverboat.table.edges import card_info
from riverboat.web.routes import games

if TYPE_CHECKING:
    from playwright.sync_api import Page

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent


def _cost_by_hand(card: StrategyCard) -> Fraction:
    """The card's cost per Ante a second way: each hand class's exact value of the
    option the card takes against the best option's, over every deal of its hands."""
    solution = card.solution
    rows = np.arange(len(solution.hands))
    lost = (solution.values[rows, solution.choice] - solution.values[rows, card.choice]).astype(
        object
    ) * solution.weights.astype(object)
    deals = solution.game.cycle * solution.game.unit * solution.scale
    return Fraction(int(lost.sum()), deals) / solution.wagers["ante"]


def _exact_and_cheap(card: StrategyCard) -> None:
    assert card.cost >= 0
    assert card.cost == _cost_by_hand(card)  # the outcome distribution and the values agree
    legal = card.solution.allowed[np.arange(len(card.choice)), card.choice]
    assert legal.all()  # the card never takes an option the hand may not take
    agree = card.solution.weights[card.choice == card.solution.choice].sum()
    assert card.agreement == Fraction(int(agree), int(card.solution.weights.sum()))
    assert sum(card.rule_costs) == card.cost  # each rule's share, exactly
    assert all(cost >= 0 for cost in card.rule_costs)
    assert card.rules[-1].hands == "every other hand"  # no hand is left without a rule
    _the_words_say_what_the_card_does(card)


# ------------------------------------------------ the words, read as a player reads them
_RANKS = {str(n): n - 2 for n in range(2, 11)} | {"T": 8, "J": 9, "Q": 10, "K": 11, "A": 12}
_RANKS |= {"jack": 9, "queen": 10, "king": 11, "ace": 12}
_CATEGORIES = {
    "no pair": "HIGH_CARD",
    "a pair": "PAIR",
    "two pair": "TWO_PAIR",
    "three of a kind": "THREE_OF_A_KIND",
    "a straight": "STRAIGHT",
    "a flush": "FLUSH",
    "a full house": "FULL_HOUSE",
    "four of a kind": "FOUR_OF_A_KIND",
    "a straight flush": "STRAIGHT_FLUSH",
    "a royal flush": "ROYAL_FLUSH",
}
Key = tuple[int, ...]
Cards = list[tuple[int, int]]  # (rank 0..12, suit)


def _rank(word: str) -> int:
    word = word.lower().removesuffix("s") if len(word) > 2 else word.removesuffix("s")
    return _RANKS[word]


def _prefix(words: str, card: StrategyCard) -> Key:
    """A hand named in words (``"a pair of 10s"``, ``"ace-high"``, ``"K-Q-8-4"``) as
    the start of the analyzer's hand keys it stands for."""
    kinds = card.solution.game.player_ranking.categories
    if words in _CATEGORIES:
        return (kinds[_CATEGORIES[words]],)
    if match := re.fullmatch(r"a pair of (\w+)(?: with ([2-9TJQKA-]+))?", words):
        kickers = match[2].split("-") if match[2] else []
        return (kinds["PAIR"], _rank(match[1]), *(_RANKS[k] for k in kickers))
    if match := re.fullmatch(r"(\w+)-high", words):
        return (kinds["HIGH_CARD"], _rank(match[1]))
    if re.fullmatch(r"[2-9TJQKA](-[2-9TJQKA])+", words):
        return (kinds["HIGH_CARD"], *(_RANKS[r] for r in words.split("-")))
    raise AssertionError(f"a rule names hands in words a player would not know: {words!r}")


def _value_test(words: str, card: StrategyCard) -> Callable[[Key], bool]:
    if words == "any hand":
        return lambda key: True
    if match := re.fullmatch(r"(.+) or better", words):
        low = _prefix(match[1], card)
        return lambda key: key[: len(low)] >= low
    if match := re.fullmatch(r"anything less than (.+)", words):
        high = _prefix(match[1], card)
        return lambda key: key[: len(high)] < high
    if match := re.fullmatch(r"a pair of (\w+) to (\w+)", words):
        low, high = _prefix(f"a pair of {match[1]}", card), _prefix(f"a pair of {match[2]}", card)
        return lambda key: low <= key[:2] <= high
    if match := re.fullmatch(r"(.+) to (.+)", words):
        low, high = _prefix(match[1], card), _prefix(match[2], card)
        return lambda key: key[: len(low)] >= low and key[: len(high)] <= high
    if " or " in words:  # whole categories: "a pair, two pair or three of a kind"
        named = [_prefix(w, card) for w in re.split(r", | or ", words)]
        return lambda key: key[:1] in named
    if words.startswith("any "):
        words = "a " + words.removeprefix("any ")
    exact = _prefix(words, card)
    return lambda key: key[: len(exact)] == exact


def _ranks_in_a_row(ranks: set[int]) -> list[set[int]]:
    """Each window of five ranks (the ace also low) and the hand's ranks in it."""
    low = ranks | ({-1} if 12 in ranks else set())
    return [low & set(range(start, start + 5)) for start in range(-1, 9)]


def _held(cards: Cards) -> dict[str, bool]:
    ranks = {rank for rank, _ in cards}
    suits = [suit for _, suit in cards]
    windows = _ranks_in_a_row(ranks)
    by_suit = [{rank for rank, suit in cards if suit == s} for s in range(4)]
    # read literally, as a player reads them: a made flush holds four to a flush, a
    # made straight four to a straight (a rule above the drawing one must take them)
    flush4 = max(suits.count(s) for s in range(4)) >= 4
    straight4 = any(len(w) >= 4 for w in windows)
    high = sum(rank >= 8 for rank, _ in cards)
    return {
        "four to a flush": flush4,
        "four to a straight": straight4,
        "an open-ended straight draw": any(set(range(r, r + 4)) <= ranks for r in range(9)),
        "four to a straight flush": any(len(w) >= 4 for s in by_suit for w in _ranks_in_a_row(s)),
        "four to a flush and four to a straight": flush4 and straight4,
        "two or more cards 10 or higher": high >= 2,
        "three or more cards 10 or higher": high >= 3,
        "four or more cards 10 or higher": high >= 4,
    }


def _the_words_say_what_the_card_does(card: StrategyCard, most: int = 3_000) -> None:
    """Each rule's words, read by a second reading of them (this one), pick the hands
    the card gives its option: over ``most`` hand classes (every one with fewer), those
    where the card leaves the optimal play among them."""
    solution = card.solution
    tests = []
    for rule in card.rules[:-1]:
        words, _, holding = rule.hands.partition(" holding ")
        if words in _held([]):
            words, holding = "any hand", words
        tests.append((_value_test(words, card), holding, rule.option))
    values = solution.game.player_values[colex_index(solution.hands)]
    ranking = solution.game.player_ranking
    picked = np.random.default_rng(15).permutation(len(values))[:most]
    differ = np.flatnonzero(card.choice != solution.choice)[:most]
    names = [option.name for option in solution.game.options]
    for n in np.union1d(picked, differ):
        key = ranking.key(int(values[n]))
        cards = [(int(c) >> 2, int(c) & 3) for c in solution.hands[n]]
        held = _held(cards) if solution.game.extra_card else {}
        option = next(
            (o for test, holding, o in tests if test(key) and (not holding or held[holding])),
            card.rules[-1].option,
        )
        assert option == names[card.choice[n]], (cards, key, card.lines())


def test_tri_card_is_q64_under_default_rules_with_the_ante_alone() -> None:
    # Wizard of Odds, "Three Card Poker": raise with Q-6-4 or better, fold the rest;
    # that is the optimal strategy, so the card costs nothing and agrees everywhere
    card = strategy_card("tri-card", wagers={"ante": 1})
    assert card.lines() == ["1. Raise with Q-6-4 or better.", "2. Fold every other hand."]
    assert card.cost == 0
    assert card.agreement == 1
    _exact_and_cheap(card)


def test_pair_plus_leaves_the_card_at_q64_t3() -> None:
    # T3: a fold loses the Pair Plus too, which could lower the raising threshold;
    # derived, not assumed: the Pair Plus pays on a pair or better, hands that raise
    # anyway, so the card and its agreement stay the same
    card = strategy_card("tri-card", wagers={"ante": 1, "pair_plus": 1})
    assert [str(rule) for rule in card.rules] == [
        "Raise with Q-6-4 or better.",
        "Fold every other hand.",
    ]
    assert card.cost == 0
    assert card.agreement == 1


@pytest.mark.parametrize(
    ("variant", "differ", "cost"),
    [("standard", 1_440, Fraction(2_077, 2_323_220_340)), (None, 1_092, None)],
)
def test_crazy4_card_3x_with_aces_1x_with_kq84(
    variant: str | None, differ: int, cost: Fraction | None
) -> None:
    # Wizard of Odds, "Crazy 4 Poker", strategy: raise 3x with a pair of aces or better,
    # 1x with K-Q-8-4 or better, fold less. Card removal makes the optimal play differ
    # on a few of the 2,598,960 hands (counted exactly here), costing almost nothing
    card = strategy_card("crazy4", variant=variant)
    assert card.lines() == [
        "1. Play 3x with a pair of Aces or better.",
        "2. Play 1x with K-Q-8-4 or better.",
        "3. Fold every other hand.",
    ]
    assert card.agreement == 1 - Fraction(differ, 2_598_960)
    assert card.agreement >= Fraction(999, 1000)
    assert 0 < card.cost < Fraction(1, 100_000)
    if cost is not None:
        assert card.cost == cost
    _exact_and_cheap(card)


@pytest.mark.parametrize(
    ("wagers", "most"),
    [
        ({"ante": 1}, Fraction(3, 10_000)),
        ({"ante": 1, "bonus": 1}, Fraction(3, 10_000)),
        ({"ante": 1, "bad_beat": 1}, Fraction(12, 10_000)),
        # read literally (a made flush holds four to a flush) this card costs 0.2854%
        ({"ante": 1, "bonus": 1, "bad_beat": 1}, Fraction(30, 10_000)),
    ],
)
def test_rabbit_hunter_cards_are_short_and_cost_little(
    wagers: dict[str, int], most: Fraction
) -> None:
    # the analysis takes half a minute once, each wager combination a few seconds more;
    # with the Bonus paid on the final hand, drawing hands buy the rabbit. The card is
    # found as `riverboat strategy` finds it, and kept in the run's folder, so that the
    # command in the docs' test below reads it back instead of finding it again (a card
    # kept already is read back here, and its choices found again for the checks)
    card = kept_card("rabbit-hunter", wagers=wagers)
    assert len(card.rules) <= 9
    assert card.cost < most  # each below what the first cards cost (0.03% to 0.55%)
    _exact_and_cheap(card)
    if "bonus" in wagers:  # the first hands bought are draws to a straight or a flush
        buys = [str(rule) for rule in card.rules if rule.option == "buy"][:2]
        assert all(" four to a " in rule for rule in buys), buys


# ------------------------------------------------------------------- command


def test_strategy_command_prints_the_card_and_its_cost() -> None:
    text = runner.invoke(app, ["strategy", "crazy4", "--variant", "standard"])
    assert text.exit_code == 0, text.output
    assert "1. Play 3x with a pair of Aces or better. [0.0000%]" in text.output
    assert "2. Play 1x with K-Q-8-4 or better. [0.00002%]" in text.output
    assert "Following this card: house edge 3.4189% vs optimal 3.4189% (cost 0.0001" in text.output
    data = json.loads(runner.invoke(app, ["strategy", "tri-card", "--format", "json"]).output)
    assert data["rules"][0]["text"] == "Raise with Q-6-4 or better."
    assert data["rules"][0]["cost_per_ante_exact"] == "0"
    assert data["cost_per_ante_exact"] == "0"
    assert round(data["house_edge_per_ante"] * 100, 4) == 3.3730  # Wizard of Odds
    table = runner.invoke(app, ["strategy", "tri-card", "--format", "csv"]).output
    assert table.splitlines() == [
        "rule,action,hands,cost per hand (% of the Ante)",
        "1,Raise,Q-6-4 or better,0.0000%",
        "2,Fold,every other hand,0.0000%",
    ]
    markdown = runner.invoke(app, ["strategy", "tri-card", "--format", "markdown"]).output
    assert "| 1 | Raise | Q-6-4 or better | 0.0000% |" in markdown


_CARD_BLOCK = re.compile(r"```console\n\$ (riverboat strategy [^\n]*)\n(.*?)```", re.S)


@pytest.mark.parametrize(
    ("page", "command", "shown"),
    [
        pytest.param(page, block[1], block[2], id=f"{page}: {block[1]}")
        for page in ("docs/analysis.md", "README.md")
        for block in _CARD_BLOCK.finditer((ROOT / page).read_text(encoding="utf-8"))
    ],
)
def test_the_cards_in_the_docs_are_what_the_command_prints(
    page: str, command: str, shown: str
) -> None:
    """Every strategy card quoted in the docs and the README is the command's output,
    so neither can drift from the program."""
    printed = runner.invoke(app, command.split()[1:])
    assert printed.exit_code == 0, printed.output
    assert printed.output == shown, f"{page}: update the block of `{command}`"


def test_the_docs_quote_every_card() -> None:
    page = (ROOT / "docs/analysis.md").read_text(encoding="utf-8")
    commands = [block[1] for block in _CARD_BLOCK.finditer(page)]
    for wagers in ("ante", "ante,bonus", "ante,bad_beat", "ante,bonus,bad_beat"):
        assert f"riverboat strategy rabbit-hunter --wagers {wagers}" in commands
    assert "riverboat strategy tri-card" in commands
    assert "riverboat strategy crazy4 --variant standard" in commands
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(_CARD_BLOCK.findall(readme)) == 1


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["strategy", "baccarat"], "no decision"),
        (["strategy", "tri-card", "--wagers", "pair_plus"], "place the Ante"),
        (["strategy", "tri-card", "--wagers", "bonus"], "no wager bonus"),
        (["strategy", "crazy4", "--variant", "house"], "no variant 'house'"),
        (["strategy", "poker"], "no game 'poker'"),
    ],
)
def test_strategy_command_refuses_bad_input_clearly(arguments: list[str], message: str) -> None:
    result = runner.invoke(app, arguments)
    assert result.exit_code == 2
    assert message in " ".join(result.output.replace("│", " ").split())
    assert "Traceback" not in result.output


def test_a_game_without_decisions_has_no_card() -> None:
    with pytest.raises(RulesError, match="no decision"):
        strategy_card("baccarat")


# ------------------------------------------------------------------- the overlay


def test_the_rules_overlay_shows_the_card(page: "Page", monkeypatch: pytest.MonkeyPatch) -> None:
    """The pay table and rules (the #rules overlay) ends with the card for the required
    wagers and its cost; while it is being worked out it says so."""
    from playwright.sync_api import expect

    from browser_support import choose, shoot

    ready = card_info("tri-card")
    assert ready is not None
    monkeypatch.setattr(games, "strategy_card", lambda name: ready if name == "tri-card" else None)
    page.reload()
    page.wait_for_selector(".spot")
    for width, height in ((390, 844), (1440, 900)):
        page.set_viewport_size({"width": width, "height": height})
        choose(page, "Tri-Card Poker")
        page.click("#rules")
        card = page.locator("#strategy-card li")
        expect(card).to_have_text(["Raise with Q-6-4 or better.", "Fold every other hand."])
        dialog = page.locator("#paytable")
        expect(dialog).to_contain_text("With the Ante: the first rule that matches your hand wins.")
        expect(dialog).to_contain_text("Following this card: house edge 3.3730% vs optimal 3.3730%")
        card.last.scroll_into_view_if_needed()
        shoot(page, f"strategy-card-{width}")
        page.keyboard.press("Escape")
        expect(dialog).to_be_hidden()
    choose(page, "Rabbit Hunter")
    page.click("#rules")
    expect(page.locator("#card-pending")).to_contain_text("Being worked out")
    page.keyboard.press("Escape")
    choose(page, "Baccarat")  # no decisions: no card
    page.click("#rules")
    expect(page.locator("#paytable")).not_to_contain_text("Strategy card")
    page.keyboard.press("Escape")
