"""Monte Carlo simulation through the production deal and settlement code.

A run is cut into chunks of fixed size; chunk i draws from a generator seeded by
(seed, i) alone (:func:`riverboat.rng.chunk_generator`) and returns exact integer
totals, which add up in any order: the same seed gives the same result whether the
chunks run one after another, on several threads of this process (``workers``: the
compiled kernels release Python's lock, so threads use the cores) or on a Dask
cluster. A chunk's rounds are counted by what the game's settle looks at and settled
one of each kind (:mod:`riverboat.sim.batches`): the same totals as settling every
round.

>>> result = simulate("baccarat", 100_000, wagers={"banker": 1}, seed=7)
>>> abs(result.wagers["banker"].z) < 4
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from fractions import Fraction
from math import lcm
from pathlib import Path
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from riverboat.analysis import GivenWagers, analyze, heads_up, wager_units
from riverboat.analysis.adapters import game_math
from riverboat.analysis.report import Figures, figures
from riverboat.games import GameRules, find_game
from riverboat.games.rules import RulesError
from riverboat.json_types import JsonObject
from riverboat.rng import SecureSource, chunk_generator
from riverboat.sim.batches import (
    Counting,
    count_batch,
    counting,
    deal_batch,
    play_batch,
    settle_counts,
)
from riverboat.sim.strategies import NAMED, strategy_table

__all__ = ["Simulation", "Totals", "WagerEstimate", "simulate"]

CHUNK = 250_000
Progress = Callable[[int, int], None]
Key = TypeVar("Key")


@dataclass(frozen=True)
class Spec:
    """Everything a chunk needs; small enough to send to another process."""

    game: str
    rules: GameRules
    stakes: dict[str, int]  # each wager in integer stake units
    table: npt.NDArray[np.int16] | None
    codes: npt.NDArray[np.int64]
    bets: tuple[int, ...]  # what each option adds to the amount wagered, in stake units
    lines: dict[str, str]  # settlement line -> wager
    seed: int
    rounds: int
    chunk: int = CHUNK
    counting: Counting | None = None  # None: settle round by round

    @property
    def chunks(self) -> int:
        return -(-self.rounds // self.chunk)


@dataclass(frozen=True)
class Totals:
    """Exact sums over some rounds; they add up in any order."""

    rounds: int = 0
    sums: dict[str, int] = field(default_factory=dict)
    squares: dict[str, int] = field(default_factory=dict)
    wagered: int = 0
    options: dict[int, int] = field(default_factory=dict)

    def __add__(self, other: Totals) -> Totals:
        return Totals(
            self.rounds + other.rounds,
            _merge(self.sums, other.sums),
            _merge(self.squares, other.squares),
            self.wagered + other.wagered,
            _merge(self.options, other.options),
        )


def _merge(a: Mapping[Key, int], b: Mapping[Key, int]) -> dict[Key, int]:
    return {k: a.get(k, 0) + b.get(k, 0) for k in {*a, *b}}


def run_chunk(spec: Spec, index: int) -> Totals:
    """Deal and settle chunk ``index`` of a run."""
    rounds = min(spec.chunk, spec.rounds - index * spec.chunk)
    generator = chunk_generator(spec.seed, index)
    if spec.counting is None:
        batch = play_batch(
            spec.game, spec.rules, generator, rounds, spec.stakes, spec.table, spec.codes
        )
        return _totals(spec, rounds, np.ones(rounds, dtype=np.int64), batch.lines, batch.option)
    dealt = deal_batch(spec.game, spec.rules, generator, rounds, spec.table, spec.codes)
    counted = count_batch(dealt, spec.counting)
    weights, lines, option = settle_counts(
        spec.game, spec.rules, counted, spec.counting, spec.stakes, spec.codes
    )
    return _totals(spec, rounds, weights, lines, option)


def _totals(
    spec: Spec,
    rounds: int,
    weights: npt.NDArray[np.int64],
    lines: Mapping[str, npt.NDArray[np.int64]],
    option: npt.NDArray[np.int64],
) -> Totals:
    """The totals of ``rounds`` rounds: ``weights[i]`` rounds settled as ``lines[.][i]``
    with option ``option[i]``."""
    kinds = len(weights)
    results: dict[str, npt.NDArray[np.int64]] = {}
    for line, values in lines.items():
        wager = spec.lines[line]
        results[wager] = results.get(wager, 0) + np.broadcast_to(values, kinds).astype(np.int64)
    results["net"] = sum(results.values(), np.zeros(kinds, dtype=np.int64))
    options = np.zeros(len(spec.bets), dtype=np.int64)
    np.add.at(options, option, weights)
    initial = sum(spec.stakes.values())
    return Totals(
        rounds,
        {k: int(np.dot(weights, v)) for k, v in results.items()},
        {k: int(np.dot(weights, v * v)) for k, v in results.items()},
        int(initial * rounds + np.dot(options, spec.bets)),
        {i: int(c) for i, c in enumerate(options) if c},
    )


@dataclass(frozen=True)
class WagerEstimate:
    """A simulated house edge per unit wagered (the house's side, as the exact figures
    and the element of risk are: below zero, the player wins), its 95% interval and
    the exact figure."""

    house_edge: float
    standard_error: float
    exact: float

    @property
    def interval(self) -> tuple[float, float]:
        spread = 1.96 * self.standard_error
        return self.house_edge - spread, self.house_edge + spread

    @property
    def z(self) -> float:
        """How many standard errors the estimate lies from the exact figure."""
        if not self.standard_error:
            return 0.0
        return (self.house_edge - self.exact) / self.standard_error


@dataclass(frozen=True)
class Simulation:
    game: str
    rules: GameRules
    strategy: str
    seed: int
    totals: Totals
    wagers: dict[str, WagerEstimate]  # per wager, and "net" per unit of initial wager
    stakes: dict[str, Fraction]
    option_names: tuple[str, ...]

    @property
    def element_of_risk(self) -> float:
        """Simulated loss per unit of everything wagered (decisions included)."""
        return -self.totals.sums.get("net", 0) / self.totals.wagered

    def to_json(self) -> JsonObject:
        return {
            "game": self.game,
            "strategy": self.strategy,
            "seed": self.seed,
            "rounds": self.totals.rounds,
            "element_of_risk": self.element_of_risk,
            "wagers_placed": {k: str(v) for k, v in self.stakes.items()},
            "decisions": {
                self.option_names[i]: c / self.totals.rounds
                for i, c in sorted(self.totals.options.items())
            },
            # the house's side, per unit of each wager (its Play, Raise or fee
            # included); "net" per unit of the total initial wager
            "house_edge": {
                name: {
                    "simulated": e.house_edge,
                    "ci95": list(e.interval),
                    "standard_error": e.standard_error,
                    "exact": e.exact,
                    "z": e.z,
                }
                for name, e in self.wagers.items()
            },
        }

    def to_text(self) -> str:
        out = [
            f"{find_game(self.game).title}: {self.totals.rounds:,} rounds, "
            f"strategy {self.strategy}, seed {self.seed}",
            "",
            f"{'wager':<12} {'house edge':>12} {'95% interval':>24} {'exact':>10} {'z':>7}",
        ]
        for name, e in self.wagers.items():
            low, high = e.interval
            label = "whole game" if name == "net" else name
            interval = f"[{low:+.5f}, {high:+.5f}]"
            row = f"{label:<12} {e.house_edge:>+12.5f} {interval:>24} {e.exact:>+10.5f}"
            out.append(f"{row} {e.z:>+7.2f}")
        out.append("")
        out.append(f"Element of risk (per total wagered): {self.element_of_risk:.5f}")
        out.append("The house's side throughout (below zero, the player wins): each wager's")
        out.append("edge per unit of it (its Play, Raise or fee included), the whole game's")
        out.append("per unit of the total initial wager.")
        return "\n".join(out) + "\n"


def _executor_map(
    spec: Spec, workers: int, scheduler: str | None, progress: Progress | None
) -> Totals:
    total = Totals()
    done = 0
    if scheduler is not None:
        try:
            from distributed import Client
            from distributed import as_completed as dask_completed
        except ImportError:
            raise RulesError(
                "a Dask scheduler needs the cluster extra: pip install 'riverboat[cluster]'"
            ) from None
        try:
            client = Client(scheduler, timeout=10)  # type: ignore[no-untyped-call]
        except (OSError, TimeoutError) as error:
            raise RulesError(f"cannot reach the Dask scheduler at {scheduler}: {error}") from None
        with client:
            shared = client.scatter(spec, broadcast=True)  # type: ignore[no-untyped-call]
            futures = client.map(run_chunk, [shared] * spec.chunks, range(spec.chunks), pure=False)
            for future in dask_completed(futures):  # type: ignore[no-untyped-call]
                total += future.result()
                done += 1
                if progress:
                    progress(done, spec.chunks)
        return total
    if workers <= 1:
        for index in range(spec.chunks):
            total += run_chunk(spec, index)
            if progress:
                progress(index + 1, spec.chunks)
        return total
    with ThreadPoolExecutor(max_workers=workers) as pool:
        pending = [pool.submit(run_chunk, spec, index) for index in range(spec.chunks)]
        for done_chunk in as_completed(pending):
            total += done_chunk.result()
            done += 1
            if progress:
                progress(done, spec.chunks)
    return total


def simulate(
    game: str,
    rounds: int,
    rules: GameRules | None = None,
    wagers: GivenWagers | None = None,
    strategy: str | Path = "optimal",
    seed: int | None = None,
    workers: int = 1,
    scheduler: str | None = None,
    progress: Progress | None = None,
    chunk: int = CHUNK,
) -> Simulation:
    """Simulate ``rounds`` rounds of ``game``; wagers in units of the base wager.

    ``strategy`` is ``optimal``, ``simple``, ``always-play`` or a CSV file (cards,
    best). ``workers`` threads deal the chunks side by side. The same ``seed`` (and
    ``chunk``) gives the same result for any ``workers`` or scheduler.
    """
    _check_run(rounds, workers, strategy)
    rules = find_game(game).rules() if rules is None else rules
    placed = wager_units(game, wagers)
    seed = SecureSource().randbelow(2**63) if seed is None else seed
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise RulesError(f"the seed must be a whole number >= 0, not {seed!r}")
    spec, exact, options = _plan(game, rounds, rules, placed, strategy, seed, chunk)
    totals = _executor_map(spec, workers, scheduler, progress)
    estimates = _estimates(totals, spec.stakes, exact)
    return Simulation(game, rules, str(strategy), seed, totals, estimates, placed, options)


def _plan(
    game: str,
    rounds: int,
    rules: GameRules,
    placed: dict[str, Fraction],
    strategy: str | Path,
    seed: int,
    chunk: int = CHUNK,
) -> tuple[Spec, Figures, tuple[str, ...]]:
    """A run's spec, the exact figures it is held against and its options' names."""
    kind = find_game(game)
    scale = lcm(*(v.denominator for v in placed.values()))
    if not kind.spec(rules).options:  # nothing to decide: every round bets as placed
        outcomes = game_math(rules).outcomes
        if outcomes is None:
            raise RulesError(f"{game} has no decision and no exact outcomes to count")
        distribution = outcomes(rules)
        unit = distribution.unit
        stakes = {k: int(v * scale * unit) for k, v in placed.items()}
        spec = Spec(game, rules, stakes, None, np.zeros(1, dtype=np.int64), (0,),
                    dict(distribution.line_wagers), seed, rounds, chunk,
                    counting(game, rules, 1))  # fmt: skip
        return spec, figures(distribution, placed), ("bet",)
    model = heads_up(game, rules)
    unit = model.unit
    stakes = {k: int(v * scale * unit) for k, v in placed.items()}
    table = strategy_table(game, rules, placed, strategy)
    codes = np.array([o.settle_code for o in model.options], dtype=np.int64)
    ante = stakes.get(kind.spec(rules).decides_with or "", 0)
    bets = tuple(int(o.bet * ante) for o in model.options)
    spec = Spec(
        game, rules, stakes, table, codes, bets, dict(model.line_wagers), seed, rounds, chunk,
        counting(game, rules, len(codes)),
    )  # fmt: skip
    exact = _exact_for(game, rules, placed, table)
    return spec, exact, tuple(o.name for o in model.options)


def _check_run(rounds: int, workers: int, strategy: str | Path) -> None:
    """Whole numbers of rounds and workers from 1, and a strategy named or on disk."""
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise RulesError(f"rounds must be a whole number >= 1, not {rounds!r}")
    if not isinstance(workers, int) or workers < 1:
        raise RulesError(f"workers must be a whole number >= 1, not {workers!r}")
    if isinstance(strategy, str) and strategy not in NAMED and not Path(strategy).exists():
        raise RulesError(f"strategy {strategy!r}: use {', '.join(NAMED)} or a CSV file that exists")


def _estimates(
    totals: Totals, stakes: Mapping[str, int], exact: Figures
) -> dict[str, WagerEstimate]:
    """Each wager's simulated house edge per unit staked and its standard error, beside
    the exact figure; ``net`` for the whole round per unit of initial wager."""
    estimates = {}
    per_wager_exact = {w.name: float(w.house_edge) for w in exact.per_wager}
    for name, stake in [*stakes.items(), ("net", sum(stakes.values()))]:
        if not stake:
            continue
        mean = totals.sums.get(name, 0) / totals.rounds
        variance = totals.squares.get(name, 0) / totals.rounds - mean * mean
        error = math.sqrt(max(variance, 0.0) / totals.rounds)
        exact_value = float(exact.house_edge) if name == "net" else per_wager_exact[name]
        estimates[name] = WagerEstimate(-mean / stake, error / stake, exact_value)
    return estimates


def _exact_for(
    game: str, rules: GameRules, placed: dict[str, Fraction], table: npt.NDArray[np.int16]
) -> Figures:
    """The analyzer's exact figures under the simulated strategy."""
    from dataclasses import replace

    from riverboat.analysis.outcomes import heads_up_outcomes
    from riverboat.analysis.solution import colex_index

    model = heads_up(game, rules)
    solution = model.solve(placed)
    chosen = table[colex_index(solution.hands)].astype(np.int64)
    if np.array_equal(chosen, solution.choice):
        return analyze(game, rules, placed).figures
    return figures(heads_up_outcomes(replace(solution, fixed=chosen)), placed)
