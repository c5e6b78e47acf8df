"""The pay-table search (riverboat.analysis.design, `riverboat design`): every figure it
ranks by equals the analyzer's own for the same rules, analysed from nothing; it
finds a published table from a range around it; its mistakes are named."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from riverboat.analysis import analyze, heads_up
from riverboat.analysis.design import Band, Rank, Target, search, vary, with_pays
from riverboat.cli import app
from riverboat.games import find_game
from riverboat.games.rules import RulesError
from riverboat.games.variant_files import read_variant

TRI_CARD = find_game("tri-card").rules()


def _edge(game: str, rules: object, wagers: dict[str, Fraction]) -> Fraction:
    """The analyzer's own edge for ``rules`` (per Ante where one is placed)."""
    figures = analyze(game, rules, wagers).figures  # type: ignore[arg-type]
    per_ante = figures.house_edge_per_ante
    return figures.house_edge if per_ante is None else per_ante


def test_the_search_finds_the_published_pair_plus_table_from_a_range_around_it() -> None:
    # Pair Plus 40-30-6-3-1 (the "common version"): 7.28%, the Wizard of Odds and
    # John Grochowski; 7.2760% by the hand counts of test_variant_goldens
    varies = [
        vary(TRI_CARD, "pair_plus.Flush=2..5"),
        vary(TRI_CARD, "pair_plus.Straight=4..7"),
        vary(TRI_CARD, "pair_plus.Three of a Kind=25..35"),
    ]
    found = search("tri-card", TRI_CARD, varies, target=Target(edge=Band.parse("7.27..7.29", "e")))
    assert found.weighed == 4 * 4 * 11
    assert [c.pays for c in found.kept] == [(3, 6, 30)]
    assert f"{float(found.kept[0].house_edge):.2%}" == "7.28%"
    assert found.wagers == {"ante": 0, "pair_plus": 1}  # a side wager alone


def test_the_search_finds_the_published_ante_bonus_table_by_its_element_of_risk() -> None:
    # John Grochowski: Ante Bonus 5-4-1 gives an element of risk of 2.01% on the
    # Ante and Play, 3 to 1 on trips (5-3-1) 2.16%
    varies = [
        vary(TRI_CARD, "ante_bonus.Straight Flush=3..6"),
        vary(TRI_CARD, "ante_bonus.Three of a Kind=2..5"),
        vary(TRI_CARD, "ante_bonus.Straight=0..2"),
    ]
    found = search("tri-card", TRI_CARD, varies)
    by_risk = {f"{float(c.element_of_risk):.2%}": c.pays for c in found.kept}
    assert by_risk["2.01%"] == (5, 4, 1)
    assert by_risk["2.16%"] == (5, 3, 1)


def test_every_kept_candidate_is_the_analysis_of_its_own_rules() -> None:
    # what a won Raise pays changes when to raise: each candidate's strategy is its own
    varies = [
        vary(TRI_CARD, "raise.Any winning hand=0.5..2:0.5"),
        vary(TRI_CARD, "ante_bonus.Straight=0..3"),
    ]
    found = search("tri-card", TRI_CARD, varies, {"ante": 1}, top=16)
    assert found.weighed == len(found.kept) == 16
    summaries = set()
    for candidate, exact in found.best:
        rules = with_pays(TRI_CARD, varies, candidate.pays)
        alone = analyze("tri-card", rules, {"ante": 1})
        assert candidate.house_edge == alone.figures.house_edge_per_ante
        assert exact.figures == alone.figures
        assert exact.strategy is not None
        assert alone.strategy is not None
        assert exact.strategy.summary() == alone.strategy.summary()
        summaries.add(tuple(alone.strategy.summary()))
    assert len(summaries) > 2  # the best play moved with the pays


def test_hit_frequency_and_spread_bounds_keep_only_what_meets_them() -> None:
    varies = [vary(TRI_CARD, "pair_plus.Pair=1..3"), vary(TRI_CARD, "pair_plus.Flush=3..5")]
    every = search("tri-card", TRI_CARD, varies, rank=Rank.spread, top=9)
    spreads = [c.std_dev for c in every.kept]
    assert spreads == sorted(spreads)  # type: ignore[type-var]
    for candidate, exact in every.best:
        assert candidate.std_dev == pytest.approx(exact.figures.std_dev, rel=1e-12)
        assert candidate.hit_frequency == pytest.approx(float(exact.figures.hit_frequency))
    bounded = search(
        "tri-card",
        TRI_CARD,
        varies,
        target=Target(hit_frequency=Band.parse("20..", "h"), std_dev=Band(high=Fraction(3))),
    )
    assert 0 < len(bounded.kept) < len(every.kept)
    assert all(c.hit_frequency >= 0.2 and c.std_dev <= 3 for c in bounded.kept)  # type: ignore[operator]


def test_crazy4_with_a_pay_at_zero_counts_finer_classes_and_stays_exact() -> None:
    # a Super Bonus straight paying 0 settles like a hand below a straight would not:
    # the search counts once with the finer outcome classes of both
    rules = find_game("crazy4").rules()
    varies = [vary(rules, "super_bonus.Straight=0..1"), vary(rules, "super_bonus.Flush=1..2:0.5")]
    found = search("crazy4", rules, varies, top=6)
    assert found.wagers == {"ante": 1, "super_bonus": 1, "queens_up": 0}
    for candidate, exact in found.best:
        mine = with_pays(rules, varies, candidate.pays)
        assert candidate.house_edge == _edge("crazy4", mine, dict(found.wagers))
        assert exact.blind is not None  # C8's blind hand comes with it


def test_baccarat_commission_and_tie_pays_are_searched_on_the_exact_shoe() -> None:
    rules = find_game("baccarat").rules()
    varies = [vary(rules, "commission=0.04..0.05:0.01"), vary(rules, "tie_pays=8..9")]
    found = search("baccarat", rules, varies, {"banker": 1, "tie": 0})
    assert found.basis == "total initial wager"
    by_pays = {c.pays: f"{float(c.house_edge):.4%}" for c in found.kept}
    # the Wizard of Odds, 8 decks: Banker 1.0579% at 5%, 0.5993% at 4%
    # (test_variant_goldens)
    assert by_pays[(Fraction(1, 20), Fraction(8))] == "1.0579%"
    assert by_pays[(Fraction(1, 25), Fraction(9))] == "0.5993%"


def test_rabbit_hunter_reuses_the_kept_count_and_reoptimises_the_rabbit() -> None:
    rules = find_game("rabbit-hunter").rules()
    varies = [vary(rules, "bonus.Flush=9,10"), vary(rules, "bonus.Straight=7")]
    found = search("rabbit-hunter", rules, varies, top=1)
    assert found.wagers["bonus"] == 1  # the Bonus's own pays: the Bonus placed
    [(candidate, exact)] = found.best
    assert candidate.pays == (10, 7)  # the lower edge first
    # the analyzer counts the 10-to-1 flush from nothing
    mine = with_pays(rules, varies, candidate.pays)
    assert candidate.house_edge == _edge("rabbit-hunter", mine, dict(found.wagers))
    assert exact.strategy is not None
    assert "Buy & Play" in " ".join(exact.strategy.summary())


def test_recounting_another_games_counts_gives_the_counts_own_totals() -> None:
    model = heads_up("crazy4", find_game("crazy4").rules())
    counted = model.counted()
    assert np.array_equal(model.recounted(counted).totals, counted.totals)


@pytest.mark.parametrize(
    ("game", "given", "said"),
    [
        ("tri-card", "pair_plus.Flsh=3", "pair_plus pays on Straight Flush, Three Of A Kind"),
        ("tri-card", "pair_plus=3", "(e.g. pair_plus.Pair)"),
        ("tri-card", "pairplus.Flush=3", "has no pay of that name; the pays are ante_bonus"),
        ("tri-card", "pair_plus.Flush", "a pay to vary is NAME=VALUES"),
        ("tri-card", "pair_plus.Flush=three", "'three' is not a number"),
        ("tri-card", "pair_plus.Flush=-1..2", "a pay cannot be negative"),
        ("tri-card", "pair_plus.Flush=5..3", "LOW <= HIGH"),
        ("tri-card", "pair_plus.Flush=3,4:1", "a step goes with a range"),
        ("tri-card", "pair_plus.Flush=0..2000000", "at most 1,000,000"),
        ("baccarat", "tie_pays.Tie=9", "tie_pays is one pay, not a table"),
    ],
)
def test_a_vary_that_cannot_be_searched_is_named(game: str, given: str, said: str) -> None:
    with pytest.raises(RulesError) as refused:
        vary(find_game(game).rules(), given)
    assert said in str(refused.value)


def test_the_search_refuses_a_pay_named_twice_and_too_many_candidates() -> None:
    flush = vary(TRI_CARD, "pair_plus.Flush=3..5")
    with pytest.raises(RulesError, match="each pay is varied once"):
        search("tri-card", TRI_CARD, [flush, vary(TRI_CARD, "pair_plus_table.Flush=3")])
    wide = [vary(TRI_CARD, f"pair_plus.{hand}=0..200") for hand in ("Flush", "Straight", "Pair")]
    with pytest.raises(RulesError, match="candidates; at most 1,000,000"):
        search("tri-card", TRI_CARD, wide)
    with pytest.raises(RulesError, match="vary at least one pay"):
        search("tri-card", TRI_CARD, [])


def test_design_on_the_command_line_writes_the_best_as_a_variant_to_serve(tmp_path: Path) -> None:
    runner = CliRunner()
    best = tmp_path / "pair-plus-7.toml"
    done = runner.invoke(
        app,
        ["design", "tri-card", "--vary", "pair_plus.Flush=2..5", "--vary",
         "pair_plus.Straight=4..7", "--edge", "7.2..7.3", "--write", str(best)],
    )  # fmt: skip
    assert done.exit_code == 0, done.output
    assert "Weighed 16 candidates, kept 1" in done.output
    assert "ms a candidate" in done.output
    game, rules = read_variant(best)
    assert game.name == "tri-card"
    assert rules.variant == "pair-plus-7"  # type: ignore[attr-defined]
    assert (
        f"{float(analyze('tri-card', rules, {'pair_plus': 1}).figures.house_edge):.4%}" == "7.2760%"
    )
    as_json = runner.invoke(
        app, ["design", "tri-card", "--vary", "pair_plus.Flush=3,4", "--format", "json"]
    )
    data = json.loads(as_json.output)
    assert data["edge_basis"] == "house edge per total initial wager"
    assert [b["pays"] for b in data["best"]] == [{"pair_plus.Flush": "4"}, {"pair_plus.Flush": "3"}]


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (["--vary", "pair_plus.Flush=3..5", "--rank", "best"], "one of target, edge, hit, spread"),
        (["--vary", "pair_plus.Flush=3..5", "--edge", "3"], "a band is LOW..HIGH"),
        (["--vary", "pair_plus.Flush=3..5", "--edge", "5..3"], "runs high to low"),
        (["--vary", "pair_plus.Flush=3..5", "--wagers", "ante,bonus"], "has no wager bonus"),
        (["--vary", "pair_plus.Straight=x"], "'x' is not a number"),
    ],
)
def test_design_mistakes_are_named_on_the_command_line(arguments: list[str], said: str) -> None:
    done = CliRunner().invoke(app, ["design", "tri-card", *arguments])
    assert done.exit_code == 2
    assert said in " ".join(done.output.split()), done.output


def test_a_pay_of_zero_that_settles_as_no_pay_is_weighed_apart() -> None:
    # a Pair Plus line that pays 0 settles as no line (the wager loses), so 0, 1 and
    # 2 to 1 are not on one line: 0 is weighed on its own, the rest together
    varies = [vary(TRI_CARD, "pair_plus.Pair=0..2"), vary(TRI_CARD, "pair_plus.Flush=3,4")]
    found = search("tri-card", TRI_CARD, varies, top=6)
    assert found.weighed == len(found.kept) == 6
    assert found.wagers == {"ante": 0, "pair_plus": 1}
    for candidate, _ in found.best:
        mine = with_pays(TRI_CARD, varies, candidate.pays)
        assert candidate.house_edge == _edge("tri-card", mine, {"pair_plus": Fraction(1)})
    edges = {c.pays: c.house_edge for c in found.kept}
    assert edges[(0, 4)] - edges[(1, 4)] != edges[(1, 4)] - edges[(2, 4)]  # the kink at 0
