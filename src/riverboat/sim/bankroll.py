"""Bankroll studies: how long a bankroll lasts at a table, session by session.

Each session starts with the bankroll and plays up to ``rounds`` rounds with the same
wagers (in cents, paid as the table pays: rounded down to the cent, G8; Rabbit
Hunter's maximum payout applies). A session ends early when the bankroll cannot cover
the most a round may take (the wagers plus the largest decision: a 3x Play, a Buy)
- ruin - or when it reaches the target.

>>> study = bankroll("baccarat", 10_000, {"banker": 500}, rounds=100, sessions=200, seed=3)
>>> 0 <= study.ruin <= 1
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TypedDict

import numpy as np
import numpy.typing as npt

from riverboat.analysis import heads_up, wagers_in_units
from riverboat.games import GameRules, find_game
from riverboat.games.rules import RulesError, check_wagers
from riverboat.money import format_money
from riverboat.rng import SecureSource, chunk_generator
from riverboat.sim.batches import play_batch
from riverboat.sim.strategies import strategy_table

__all__ = ["BankrollStudy", "bankroll"]

BLOCK = 2_000  # sessions dealt together


class BankrollSummary(TypedDict):
    """A bankroll study in figures (money in dollars), as ``--format json`` prints it."""

    game: str
    seed: int
    sessions: int
    rounds_per_session: int
    bankroll: float
    target: float | None
    probability_of_ruin: float
    probability_of_target: float
    median_rounds_played: float
    mean_result: float
    result_quantiles: dict[str, float]


@dataclass(frozen=True)
class BankrollStudy:
    game: str
    start: int
    target: int | None
    rounds: int
    seed: int
    final: npt.NDArray[np.int64]  # each session's closing bankroll, in cents
    played: npt.NDArray[np.int64]  # rounds each session played
    paths: list[npt.NDArray[np.int64]]  # the first sessions' bankroll after each round

    @property
    def sessions(self) -> int:
        return len(self.final)

    @property
    def ruin(self) -> float:
        """The share of sessions that ran out of money before their last round."""
        return float(np.mean(self.ended_broke))

    @property
    def ended_broke(self) -> npt.NDArray[np.bool_]:
        reached = self.reached_target
        return (self.played < self.rounds) & ~reached

    @property
    def reached_target(self) -> npt.NDArray[np.bool_]:
        if self.target is None:
            return np.zeros(self.sessions, dtype=bool)
        return self.final >= self.target

    def to_json(self) -> BankrollSummary:
        quantiles = np.percentile(self.final - self.start, [5, 25, 50, 75, 95])
        return {
            "game": self.game,
            "seed": self.seed,
            "sessions": self.sessions,
            "rounds_per_session": self.rounds,
            "bankroll": self.start / 100,
            "target": None if self.target is None else self.target / 100,
            "probability_of_ruin": self.ruin,
            "probability_of_target": float(np.mean(self.reached_target)),
            "median_rounds_played": float(np.median(self.played)),
            "mean_result": float(np.mean(self.final - self.start)) / 100,
            "result_quantiles": {
                f"{p}%": q / 100 for p, q in zip((5, 25, 50, 75, 95), quantiles, strict=True)
            },
        }

    def to_text(self) -> str:
        data = self.to_json()
        lines = [
            f"{find_game(self.game).title}: {self.sessions:,} sessions of up to "
            f"{self.rounds:,} rounds from {format_money(self.start)}, seed {self.seed}",
            f"  probability of ruin:       {data['probability_of_ruin']:.2%}",
        ]
        if self.target is not None:
            reach = data["probability_of_target"]
            lines.append(f"  probability of reaching {format_money(self.target)}: {reach:.2%}")
        lines += [
            f"  median rounds played:      {data['median_rounds_played']:,.0f}",
            f"  mean session result:       {_dollars(data['mean_result'])}",
            "  session result quantiles:  "
            + ", ".join(f"{k} {_dollars(v)}" for k, v in data["result_quantiles"].items()),
        ]
        return "\n".join(lines) + "\n"

    def plot(self, path: str) -> None:
        """A histogram of closing bankrolls and the first sessions' paths."""
        try:
            import matplotlib

            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            raise RulesError("plots need matplotlib: pip install 'riverboat[plot]'") from None
        figure, (left, right) = plt.subplots(1, 2, figsize=(11, 4.5))
        left.hist(self.final / 100, bins=60)
        left.set_xlabel("closing bankroll ($)")
        left.set_ylabel("sessions")
        left.set_title(f"ruin {self.ruin:.1%}")
        for path_cents in self.paths:
            right.plot(path_cents / 100, linewidth=0.8)
        right.set_xlabel("round")
        right.set_ylabel("bankroll ($)")
        right.set_title(f"{len(self.paths)} sample sessions")
        figure.suptitle(find_game(self.game).title)
        figure.tight_layout()
        figure.savefig(path)
        plt.close(figure)


def bankroll(
    game: str,
    start: int,
    wagers: Mapping[str, int],
    rounds: int,
    sessions: int,
    target: int | None = None,
    strategy: str | Path = "optimal",
    seed: int | None = None,
    rules: GameRules | None = None,
) -> BankrollStudy:
    """Play ``sessions`` sessions of up to ``rounds`` rounds from ``start`` cents with
    ``wagers`` in cents (the table's limits apply)."""
    _check_study(start, rounds, sessions, target)
    kind = find_game(game)
    rules = kind.rules() if rules is None else rules
    game_round = kind.new_round(rules)
    placed = check_wagers(game_round.spots, wagers, game_round.at_least_one)
    seed = SecureSource().randbelow(2**63) if seed is None else seed
    table, codes, most = _decisions(game, rules, placed, strategy)
    needed = sum(placed.values()) + most
    if start < needed:
        raise RulesError(
            f"a round may take {format_money(needed)}; the bankroll is {format_money(start)}"
        )
    finals: list[npt.NDArray[np.int64]] = []
    played: list[npt.NDArray[np.int64]] = []
    paths: list[npt.NDArray[np.int64]] = []
    for block, first in enumerate(range(0, sessions, BLOCK)):
        count = min(BLOCK, sessions - first)
        batch = play_batch(
            game,
            rules,
            chunk_generator(seed, block),
            count * rounds,
            placed,
            table,
            codes,
            capped=True,
        )
        net = sum(np.broadcast_to(v, count * rounds).astype(np.int64) for v in batch.lines.values())
        money = start + np.cumsum(np.asarray(net).reshape(count, rounds), axis=1)
        final, ended = _sessions_end(money, start, needed, target)
        finals.append(final)
        played.append(ended)
        if not paths:
            paths = [
                np.concatenate([[start], row[:end]])
                for row, end in zip(money[:20], ended[:20], strict=True)
            ]
    return BankrollStudy(
        game,
        start,
        target,
        rounds,
        seed,
        np.concatenate(finals).astype(np.int64),
        np.concatenate(played).astype(np.int64),
        paths,
    )


def _decisions(
    game: str, rules: GameRules, placed: Mapping[str, int], strategy: str | Path
) -> tuple[npt.NDArray[np.int16] | None, npt.NDArray[np.int64], int]:
    """The strategy's table for these wagers (it depends on them relative to the Ante),
    each option's settle code, and the most a decision adds to a round, in cents."""
    spec = find_game(game).spec(rules)
    if not spec.options:  # nothing to decide
        return None, np.zeros(1, dtype=np.int64), 0
    model = heads_up(game, rules)
    units = wagers_in_units(placed, spec.decides_with)
    table = strategy_table(game, rules, units, strategy)
    codes = np.array([o.settle_code for o in model.options], dtype=np.int64)
    most = int(max(o.bet for o in model.options) * placed.get(spec.decides_with or "", 0))
    return table, codes, most


def _check_study(start: int, rounds: int, sessions: int, target: int | None) -> None:
    """A study's figures, each a whole number from 1 and the target above the start."""
    for name, value in (
        ("bankroll", start),
        ("rounds per session", rounds),
        ("sessions", sessions),
    ):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise RulesError(f"the {name} must be a whole number >= 1, not {value!r}")
    if target is not None and target <= start:
        raise RulesError(
            f"the target ({format_money(target)}) must be above the bankroll "
            f"({format_money(start)})"
        )


def _sessions_end(
    money: npt.NDArray[np.int64], start: int, needed: int, target: int | None
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Each session's final bankroll and rounds played, from its bankroll after each
    round: it stops before a round it cannot cover, or once it reaches ``target``."""
    count, rounds = money.shape
    before = np.concatenate([np.full((count, 1), start), money[:, :-1]], axis=1)
    stop = before < needed
    if target is not None:
        stop |= before >= target
    ended = np.where(stop.any(axis=1), stop.argmax(axis=1), rounds)
    final = np.where(
        ended < rounds, before[np.arange(count), np.minimum(ended, rounds - 1)], money[:, -1]
    )
    return final, ended


def _dollars(amount: float) -> str:
    return format_money(round(amount * 100), signed=True)
