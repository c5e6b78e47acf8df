"""Benchmark the exact analyzer: each game's full analysis, beside a brute force.

Each game's analysis runs in a fresh Python process (compiled kernels come from
numba's on-disk cache after the first run; every table is built anew), timed from
the call to the figures. The brute-force reference settles every dealer hand (and
every rabbit) of a sample of player hands directly through the game's settle
function, vectorised with numpy, and is scaled to all the player hands the analysis
covers; the ratio says how many times faster the analysis is than that.

    python bench/analysis.py [--games tri-card,baccarat,crazy4,rabbit-hunter] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from math import comb

TARGETS = {"tri-card": 2.0, "baccarat": 2.0, "crazy4": 10.0, "rabbit-hunter": 60.0}
WAGERS = {
    "tri-card": {"ante": 1, "pair_plus": 1},
    "baccarat": {"banker": 1},
    "crazy4": {"ante": 1, "super_bonus": 1, "queens_up": 1},
    "rabbit-hunter": {"ante": 1, "bonus": 1, "bad_beat": 1},
}

_TIMED = """
import json, sys, time
from riverboat.analysis import analyze
game, wagers = sys.argv[1], json.loads(sys.argv[2])
start = time.perf_counter()
result = analyze(game, wagers=wagers)
print(json.dumps({"seconds": time.perf_counter() - start,
                  "house_edge": float(result.figures.house_edge)}))
"""


def analysis_seconds(game: str) -> dict[str, float]:
    """Time one full analysis in a fresh process."""
    done = subprocess.run(
        [sys.executable, "-c", _TIMED, game, json.dumps(WAGERS[game])],
        check=True,
        capture_output=True,
        text=True,
    )
    result: dict[str, float] = json.loads(done.stdout)
    return result


def brute_force_seconds(game: str, sample: int) -> tuple[float, int]:
    """Seconds for a brute force over every deal, scaled up from ``sample`` player hands."""
    import numpy as np

    from riverboat.analysis._counting import all_hands
    from riverboat.games import crazy4, rabbit_hunter, tri_card
    from riverboat.hands import evaluate3, evaluate4of5, evaluate5, evaluate6

    size = 3 if game == "tri-card" else 5
    generator = np.random.default_rng(1)
    combos = all_hands(size)
    players = combos[generator.choice(len(combos), sample, replace=False)]
    start = time.perf_counter()
    for player in players:
        rest = np.setdiff1d(np.arange(52), player)
        dealers = rest[combos[: comb(len(rest), size)]]
        if game == "tri-card":
            for code in (tri_card.FOLD, tri_card.RAISE):
                tri_card.settle(
                    tri_card.TriCardRules(), evaluate3(player), evaluate3(dealers), code, 1, 1
                )
        elif game == "crazy4":
            rules = crazy4.Crazy4Rules()
            for play in (0, 2, 6):
                crazy4.settle(rules, evaluate4of5(player), evaluate4of5(dealers), play, 2, 2, 2)
        else:
            rules = rabbit_hunter.RabbitHunterRules(max_payout=None)
            for code in (rabbit_hunter.FOLD, rabbit_hunter.PLAY):
                rabbit_hunter.settle(rules, evaluate5(player), evaluate5(dealers), code, 1, 1, 1)
            for rabbit in rest:
                fewer = np.setdiff1d(rest, [rabbit])[combos[: comb(46, 5)]]
                six = evaluate6([*map(int, player), int(rabbit)])
                rabbit_hunter.settle(rules, six, evaluate5(fewer), rabbit_hunter.BUY, 1, 1, 1)
    per_hand = (time.perf_counter() - start) / sample
    # the analysis covers one hand per suit-symmetry class; a brute force would too
    classes = {"tri-card": 1_755, "crazy4": 134_459, "rabbit-hunter": 134_459}[game]
    return per_hand * classes, classes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="tri-card,baccarat,crazy4,rabbit-hunter")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    rows = []
    print(f"cores: {os.cpu_count()}  python: {sys.version.split()[0]}")
    print(
        f"{'game':<14} {'analysis s':>10} {'target s':>8} {'brute force s':>14} {'ratio':>8}  note"
    )
    for game in games:
        timed = analysis_seconds(game)
        brute, note = None, "no brute force: 5e18 ordered deals (the analysis counts by card value)"
        if game != "baccarat":
            sample = {"tri-card": 40, "crazy4": 3, "rabbit-hunter": 1}[game]
            brute, classes = brute_force_seconds(game, sample)
            note = f"brute force timed on {sample} hands, scaled to {classes:,}"
        ratio = f"{brute / timed['seconds']:8.0f}x" if brute else "       -"
        met = "met" if timed["seconds"] <= TARGETS[game] else "NOT met"
        print(
            f"{game:<14} {timed['seconds']:10.2f} {TARGETS[game]:8.0f} "
            f"{(f'{brute:14.0f}' if brute else '             -')} {ratio}  target {met}; {note}"
        )
        rows.append({"game": game, **timed, "target": TARGETS[game], "brute_force_seconds": brute})
    if args.json:
        with open(args.json, "w") as out:
            json.dump(rows, out, indent=2)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
