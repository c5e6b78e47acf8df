"""Strategy cards: the rules found in the exact tables, their exact cost against the
optimal play, the command that prints them and the rules overlay that shows them."""

import json
from fractions import Fraction

import numpy as np
import pytest
from typer.testing import CliRunner

from riverboat.analysis.strategy_cards import StrategyCard, strategy_card
from riverboat.cli import app
from riverboat.games import RulesError

runner = CliRunner()


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


@pytest.mark.parametrize("variant", ["standard", None])
def test_crazy4_card_3x_with_aces_1x_with_kq84(variant: str | None) -> None:
    # Wizard of Odds, "Crazy 4 Poker", strategy: raise 3x with a pair of aces or better,
    # 1x with K-Q-8-4 or better, fold less; card removal makes the optimal play differ
    # on 1,440 of the 2,598,960 hands (exactly counted), costing almost nothing
    card = strategy_card("crazy4", variant=variant)
    assert card.lines() == [
        "1. Play 3x with Pair of Aces or better.",
        "2. Play 1x with K-Q-8-4 or better.",
        "3. Fold every other hand.",
    ]
    assert card.agreement >= Fraction(999, 1000)
    assert card.agreement == 1 - Fraction(1_440, 2_598_960) if variant else card.agreement < 1
    assert 0 < card.cost < Fraction(1, 100_000)
    _exact_and_cheap(card)


def test_rabbit_hunter_card_with_the_bonus_buys_draws_and_costs_little() -> None:
    # the one Rabbit Hunter case here (its analysis takes half a minute): with the
    # Bonus paid on the final hand, drawing hands buy the rabbit (docs/analysis.md)
    card = strategy_card("rabbit-hunter", wagers={"ante": 1, "bonus": 1})
    assert card.rules[0].option == "buy"
    assert "four to a flush" in card.rules[0].hands
    assert len(card.rules) <= 9
    assert card.agreement >= Fraction(99, 100)
    assert card.cost < Fraction(1, 100)
    _exact_and_cheap(card)


# ------------------------------------------------------------------- command


def test_strategy_command_prints_the_card_and_its_cost() -> None:
    text = runner.invoke(app, ["strategy", "crazy4", "--variant", "standard"])
    assert text.exit_code == 0, text.output
    assert "1. Play 3x with Pair of Aces or better." in text.output
    assert "Following this card: house edge 3.4189% vs optimal 3.4189% (cost 0.0001" in text.output
    data = json.loads(runner.invoke(app, ["strategy", "tri-card", "--format", "json"]).output)
    assert data["rules"][0]["text"] == "Raise with Q-6-4 or better."
    assert data["cost_per_ante_exact"] == "0"
    assert round(data["house_edge_per_ante"] * 100, 4) == 3.3730  # Wizard of Odds
    table = runner.invoke(app, ["strategy", "tri-card", "--format", "csv"]).output
    assert table.splitlines() == [
        "rule,action,hands",
        "1,Raise,Q-6-4 or better",
        "2,Fold,every other hand",
    ]
    markdown = runner.invoke(app, ["strategy", "tri-card", "--format", "markdown"]).output
    assert "| 1 | Raise | Q-6-4 or better |" in markdown


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
