"""Benchmark the simulator: rounds per second on one core, per game, with the optimal
strategy, beside a plain Python loop that plays rounds one at a time through the
round engine (deal from a seeded deck, decide from the same strategy table, settle).

    python bench/simulate.py [--rounds 1000000] [--loop-rounds 3000] [--json FILE]

The process pins itself to one core; the batch figure is the best of three runs
after a warm-up (strategy tables and compiled code ready).
"""

from __future__ import annotations

import argparse
import json
import os
import time

TARGETS = {"tri-card": 5.0, "baccarat": 5.0, "crazy4": 2.0, "rabbit-hunter": 2.0}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1_000_000)
    parser.add_argument("--loop-rounds", type=int, default=3_000)
    parser.add_argument("--json")
    args = parser.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    os.environ["NUMBA_NUM_THREADS"] = "1"

    import numpy as np

    from riverboat.analysis import heads_up, wager_units
    from riverboat.analysis.headsup import colex_index
    from riverboat.deck import Deck
    from riverboat.games import find_game
    from riverboat.games.baccarat import BaccaratTable
    from riverboat.rng import SeededSource, chunk_generator
    from riverboat.sim.batches import play_batch
    from riverboat.sim.strategies import strategy_table

    rows = []
    print(f"{'game':<14} {'batch M/s':>10} {'target':>7} {'loop rounds/s':>14} {'ratio':>8}")
    for game in TARGETS:
        kind = find_game(game)
        rules = kind.rules()
        placed = wager_units(game, None)
        stakes = {k: int(v) * 1000 for k, v in placed.items()}  # $10 units
        table, codes, options = None, np.zeros(1, dtype=np.int64), ["bet"]
        if kind.spec(rules).options:  # a game with decisions looks them up
            model = heads_up(game, rules)
            table = strategy_table(game, rules, placed, "optimal")
            codes = np.array([o.settle_code for o in model.options], dtype=np.int64)
            options = [o.name for o in model.options]
        play_batch(game, rules, chunk_generator(1, 0), 10_000, stakes, table, codes)
        best = float("inf")
        for repeat in range(3):
            start = time.perf_counter()
            play_batch(game, rules, chunk_generator(1, repeat), args.rounds, stakes, table, codes)
            best = min(best, time.perf_counter() - start)
        batch_rate = args.rounds / best

        source = SeededSource(1)
        table_for = None if table is None else table
        shoe = BaccaratTable(rules, source) if game == "baccarat" else None
        start = time.perf_counter()
        for _ in range(args.loop_rounds):
            game_round = shoe.new_round() if shoe else kind.new_round(rules)
            game_round.place_wagers(stakes)
            game_round.deal(shoe.shoe if shoe else Deck(source))
            if not game_round.settled:
                hand = np.array([game_round.cards["player"]], dtype=np.uint8)
                assert table_for is not None
                option = options[int(table_for[colex_index(hand)[0]])]
                choice = {"play3x": ("play", 3 * stakes["ante"])}.get(option, (option, None))
                game_round.act(*choice)
        loop_rate = args.loop_rounds / (time.perf_counter() - start)
        met = "met" if batch_rate / 1e6 >= TARGETS[game] else "NOT met"
        print(
            f"{game:<14} {batch_rate / 1e6:10.2f} {TARGETS[game]:7.1f} {loop_rate:14,.0f} "
            f"{batch_rate / loop_rate:7.0f}x  target {met}"
        )
        rows.append({"game": game, "batch_per_s": batch_rate, "loop_per_s": loop_rate})
    print("batch: one core, optimal strategy; loop: the round engine one round at a time")
    if args.json:
        with open(args.json, "w") as out:
            json.dump(rows, out, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
