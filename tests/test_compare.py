"""``riverboat compare``: variants of one game side by side, each figure the exact
analyzer's own."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from riverboat.analysis import analyze
from riverboat.analysis.compare import compare
from riverboat.cli import app
from riverboat.games import find_game
from riverboat.games.variant_files import variant_text

runner = CliRunner(env={"COLUMNS": "200", "NO_COLOR": "1"})


def test_each_column_is_the_variants_own_exact_analysis() -> None:
    """Crazy 4 on the rule card against the standard rules (C9: ties push and the Super
    Bonus pushes when the dealer does not qualify); the standard game's 3.4189% per
    Ante is the published figure (Wizard of Odds, Crazy 4 Poker)."""
    game = find_game("crazy4")
    found = compare([game.rules("rule-card"), game.rules("standard")])
    for column, variant in zip(found.columns, ("rule-card", "standard"), strict=True):
        alone = analyze("crazy4", game.rules(variant)).figures
        assert column.house_edge == alone.house_edge
        assert column.house_edge_per_ante == alone.house_edge_per_ante
        assert column.element_of_risk == alone.element_of_risk
    assert f"{float(found.columns[1].house_edge_per_ante or 0):.4%}" == "3.4189%"
    # a tie pushes only in the standard game: its net of 0 is there, not on the rule card
    differ = found.differing_lines()
    assert "Net +0" in differ
    assert found.columns[0].net_table.get("Net +0") is None
    assert found.columns[1].net_table["Net +0"].probability > 0


def test_an_optional_wagers_own_edge_is_its_line_beside_the_required_wagers() -> None:
    """Pair Plus (T8) counted by hand: of 22,100 three-card hands 48 are straight
    flushes, 52 trips, 720 straights, 1,096 flushes and 3,744 pairs, so 1-4-6-30-40
    loses 512/22,100 = 2.3167% and 1-3-6-30-40 1,608/22,100 = 7.2760% (the Wizard of
    Odds' Three Card Poker page: 2.32% and 7.28%)."""
    tri = find_game("tri-card")
    lower = tri.rules().with_tables(pair_plus="1-3-6-30-40")  # type: ignore[attr-defined]
    found = compare([tri.rules(), lower])
    assert found.columns[1].wager_edges["pair_plus"] == Fraction(1608, 22100)
    assert found.columns[0].wager_edges["pair_plus"] == Fraction(512, 22100)
    assert found.columns[0].card_cost is not None


def test_variants_of_different_games_or_one_alone_are_refused() -> None:
    with pytest.raises(ValueError, match="different games: baccarat, tri-card"):
        compare([find_game("tri-card").rules(), find_game("baccarat").rules()])
    with pytest.raises(ValueError, match="two variants or more"):
        compare([find_game("tri-card").rules()])


def test_the_command_takes_named_variants_and_files(tmp_path: Path) -> None:
    path = tmp_path / "commission-4.toml"
    text = variant_text("baccarat").replace('variant = "8 decks"', 'variant = "4%"')
    path.write_text(text.replace("commission = 0.05", 'commission = "1/25"'))
    shown = runner.invoke(app, ["compare", "baccarat", "baccarat:6 decks", str(path)])
    assert shown.exit_code == 0, shown.output
    assert "8 decks" in shown.output
    assert "6 decks" in shown.output
    assert "4%" in shown.output
    assert "banker: its own house edge" in shown.output
    data = json.loads(
        runner.invoke(app, ["compare", "baccarat", str(path), "--format", "json"]).output
    )
    banker = [v["own_house_edges"]["banker"] for v in data["variants"]]
    assert banker[1] < banker[0]  # a lower commission, a lower edge (B7)
    assert set(data["variants"][0]) >= {
        "house_edge_per_ante",
        "house_edge_per_total_initial_wager",
        "std_dev_per_total_initial_wager",
        "element_of_risk",
    }
    wrong = runner.invoke(app, ["compare", "baccarat", "tri-card"])
    assert wrong.exit_code == 2
    assert "different games" in wrong.output
