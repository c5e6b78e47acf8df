"""Monte Carlo through the production code: agreement with the exact figures, seeds that
give the same result on any number of workers (or a Dask cluster), bankroll studies."""

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from riverboat.analysis import analyze, heads_up, wager_units
from riverboat.analysis.adapters import game_math
from riverboat.cli import app
from riverboat.games import RulesError, find_game
from riverboat.rng import chunk_generator
from riverboat.sim import _plan, run_chunk, simulate
from riverboat.sim.bankroll import bankroll
from riverboat.sim.batches import Counting, count_batch, counting, deal_batch, settle_counts

runner = CliRunner(env={"COLUMNS": "200", "NO_COLOR": "1"})


@pytest.mark.parametrize(
    ("game", "wagers"),
    [
        ("tri-card", {"ante": 1, "pair_plus": 1}),
        ("baccarat", {"player": 1, "banker": 1, "tie": 1}),
        ("crazy4", {"ante": 1, "super_bonus": 1, "queens_up": 1}),
        ("rabbit-hunter", {"ante": 1, "bonus": 1, "bad_beat": 1}),
    ],
)
def test_a_million_rounds_agree_with_the_exact_figures(game: str, wagers: dict[str, int]) -> None:
    result = simulate(game, 1_000_000, wagers=wagers, seed=20261130)
    assert result.totals.rounds == 1_000_000
    for name, estimate in result.wagers.items():
        assert abs(estimate.z) < 4, (name, estimate)
        assert estimate.standard_error < 0.02


def test_the_same_seed_gives_the_same_result_on_any_number_of_workers() -> None:
    one = simulate("tri-card", 400_000, wagers={"ante": 1}, seed=11, chunk=100_000)
    two = simulate("tri-card", 400_000, wagers={"ante": 1}, seed=11, workers=2, chunk=100_000)
    assert one.totals == two.totals
    other = simulate("tri-card", 400_000, wagers={"ante": 1}, seed=12, chunk=100_000)
    assert other.totals != one.totals


@pytest.mark.parametrize(
    ("game", "wagers", "strategy"),
    [
        ("tri-card", {"ante": 1, "pair_plus": 1}, "optimal"),
        ("tri-card", {"pair_plus": 1}, "optimal"),  # Pair Plus alone: no decision
        ("baccarat", {"player": 1, "banker": 1, "tie": 1}, "optimal"),
        ("crazy4", {"ante": 1, "super_bonus": 1, "queens_up": 1}, "optimal"),
        ("crazy4", {"ante": 1, "super_bonus": 1}, "simple"),
        ("rabbit-hunter", {"ante": 1, "bonus": 1, "bad_beat": 1}, "optimal"),  # buys too
        ("rabbit-hunter", {"ante": 1, "bonus": 1}, "always-play"),
    ],
)
def test_rounds_counted_by_cell_total_what_settling_each_round_totals(
    game: str, wagers: dict[str, int], strategy: str
) -> None:
    rules = find_game(game).rules()
    spec, _, _ = _plan(game, 400_000, rules, wager_units(game, wagers), strategy, 17, 200_000)
    assert spec.counting is not None
    for index in range(spec.chunks):
        assert run_chunk(spec, index) == run_chunk(replace(spec, counting=None), index)


@pytest.mark.parametrize("game", ["tri-card", "crazy4", "rabbit-hunter"])
def test_values_between_the_same_settle_keys_settle_alike(game: str) -> None:
    # the claim each game makes with settle_keys, against its own settle: every value
    # against every value next to a key (and 64 others), both ways round, every code
    rules = find_game(game).rules()
    math = game_math(rules)
    assert math.ranking is not None
    assert math.settle_keys is not None
    count = math.ranking.count
    cuts = sorted({math.ranking.lowest(*key) for key in math.settle_keys(rules)})
    near = {v for cut in cuts for v in (cut - 1, cut, cut + 1) if 0 <= v < count}
    near |= set(range(0, count, max(count // 64, 1)))
    everything, others = np.repeat(np.arange(count), len(near)), np.tile(sorted(near), count)
    first, second = np.concatenate([everything, others]), np.concatenate([others, everything])
    how = counting(game, rules, 1)
    assert how is not None
    assert how.n == len(cuts) + 1
    cell = (how.classes[first] * how.n + how.classes[second]) * 3 + np.sign(first - second) + 1
    stakes = {spot.name: 100 for spot in find_game(game).spec(rules).spots}
    codes = {option.settle_code for option in heads_up(game, rules).options}
    # the pairs by cell, and each pair's cell's first pair: every line settles every pair
    # of a cell as that one (an integer sort: the three games 2.5 s against 14 with
    # np.unique over the rows)
    order = np.argsort(cell, kind="stable")
    first_of_cell = np.searchsorted(cell[order], cell[order])
    for code in sorted(codes | {math.no_decision}):
        lines = math.settle(rules, first, second, code, stakes)
        for name, values in lines.items():
            by_cell = np.broadcast_to(values, cell.shape)[order]
            assert np.array_equal(by_cell, by_cell[first_of_cell]), (code, name)


def test_a_cell_whose_rounds_settle_differently_stops_the_run() -> None:
    rules = find_game("tri-card").rules()
    spec, _, _ = _plan("tri-card", 10_000, rules, wager_units("tri-card", None), "optimal", 3)
    dealt = deal_batch("tri-card", rules, chunk_generator(3, 0), 10_000, spec.table, spec.codes)
    assert spec.counting is not None
    how = Counting(np.zeros_like(spec.counting.classes), 1, len(spec.codes))  # one class
    with pytest.raises(RulesError, match=r"settle differently .* miss a key"):
        settle_counts("tri-card", rules, count_batch(dealt, how), how, spec.stakes, spec.codes)


def test_a_loopback_dask_cluster_gives_the_local_result() -> None:
    from distributed import LocalCluster

    local = simulate("baccarat", 300_000, wagers={"banker": 1}, seed=5, chunk=100_000)
    with LocalCluster(
        n_workers=2, threads_per_worker=1, host="127.0.0.1", dashboard_address=None, processes=True
    ) as cluster:
        remote = simulate(
            "baccarat",
            300_000,
            wagers={"banker": 1},
            seed=5,
            chunk=100_000,
            scheduler=cluster.scheduler_address,
        )
    assert remote.totals == local.totals


def test_strategies_change_the_result_and_a_file_reproduces_optimal(tmp_path: Path) -> None:
    optimal = simulate("tri-card", 200_000, wagers={"ante": 1}, seed=3)
    simple = simulate("tri-card", 200_000, wagers={"ante": 1}, seed=3, strategy="simple")
    always = simulate("tri-card", 200_000, wagers={"ante": 1}, seed=3, strategy="always-play")
    assert always.totals.options == {1: 200_000}  # every hand raised
    assert simple.totals != optimal.totals
    assert abs(always.wagers["ante"].z) < 4  # checked against its own exact figure
    table = tmp_path / "tri.csv"
    table.write_text(analyze("tri-card", wagers={"ante": 1}).strategy.to_csv())  # type: ignore[union-attr]
    from_file = simulate("tri-card", 200_000, wagers={"ante": 1}, seed=3, strategy=str(table))
    assert from_file.totals == optimal.totals


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: simulate("tri-card", 0), "rounds must be"),
        (lambda: simulate("tri-card", 10, workers=0), "workers must be"),
        (lambda: simulate("tri-card", 10, strategy="best"), "use optimal, simple, always-play"),
        (lambda: simulate("tri-card", 10, seed=-1), "seed must be"),
        (lambda: simulate("poker", 10), "no game 'poker'"),
        (lambda: bankroll("baccarat", 100, {"banker": 500}, 10, 10), "the bankroll is"),
        (lambda: bankroll("baccarat", 10_000, {"banker": 100}, 10, 10), "outside the table limits"),
        (
            lambda: bankroll("baccarat", 10_000, {"banker": 500}, 10, 10, target=5_000),
            "must be above",
        ),
        (lambda: bankroll("baccarat", 10_000, {"banker": 500}, 0, 10), "rounds per session"),
    ],
)
def test_bad_arguments_get_clear_errors(call: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):  # RulesError or IllegalAction
        call()  # type: ignore[operator]


def test_a_strategy_file_that_does_not_cover_every_hand_is_refused(tmp_path: Path) -> None:
    table = tmp_path / "short.csv"
    table.write_text("cards,best\nQh 6d 4c,raise\n")
    with pytest.raises(RulesError, match="no row covers"):
        simulate("tri-card", 10, wagers={"ante": 1}, strategy=str(table))
    table.write_text("cards,best\nQh 6d,raise\n")
    with pytest.raises(RulesError, match="line 2: need 3 cards"):
        simulate("tri-card", 10, wagers={"ante": 1}, strategy=str(table))


def test_bankroll_study_ruin_target_and_reproducibility(tmp_path: Path) -> None:
    study = bankroll(
        "baccarat", 10_000, {"banker": 1_000}, rounds=300, sessions=3_000, target=20_000, seed=9
    )
    again = bankroll(
        "baccarat", 10_000, {"banker": 1_000}, rounds=300, sessions=3_000, target=20_000, seed=9
    )
    assert np.array_equal(study.final, again.final)
    assert 0 < study.ruin < 1
    assert 0 < study.reached_target.mean() < 1
    broke = study.ended_broke
    assert (study.final[broke] < 1_000).all()  # ruined sessions could not cover a wager
    assert (study.final[study.reached_target] >= 20_000).all()
    assert (study.played[~broke & ~study.reached_target] == 300).all()
    rich = bankroll("baccarat", 10_000_000, {"banker": 500}, rounds=100, sessions=100, seed=1)
    assert rich.ruin == 0
    path = tmp_path / "bankroll.png"
    study.plot(str(path))
    assert path.read_bytes()[:4] == b"\x89PNG"


def test_simulate_and_bankroll_commands() -> None:
    result = runner.invoke(
        app,
        [
            "simulate",
            "baccarat",
            "--rounds",
            "200000",
            "--wagers",
            "banker",
            "--seed",
            "1",
            "--format",
            "json",
        ],
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["rounds"] == 200_000
    banker = data["house_edge"]["banker"]
    assert abs(banker["z"]) < 4
    assert banker["ci95"][0] < banker["simulated"] < banker["ci95"][1]
    assert banker["exact"] > 0  # the house's side: the Banker bet loses 1.06%
    text = runner.invoke(
        app,
        [
            "bankroll",
            "baccarat",
            "--bankroll",
            "500",
            "--wagers",
            "banker=10",
            "--sessions",
            "500",
            "--seed",
            "2",
        ],
    )
    assert text.exit_code == 0, text.output
    assert "probability of ruin" in text.output
    bad = runner.invoke(
        app, ["bankroll", "baccarat", "--bankroll", "500", "--wagers", "banker=10.001"]
    )
    assert bad.exit_code == 2
    assert "whole cents" in bad.output
