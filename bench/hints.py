"""Benchmark the instant hints: the first hint in a fresh process, and warm hints.

For each game with a decision, with every wager placed:

* **first**: a fresh Python process imports ``riverboat.analysis`` and asks
  ``best_action`` for one random hand; timed from the call to its answer (the
  game's hand tables are built and the compiled kernels loaded from numba's
  on-disk cache in that time). Beside it, the wall time of a whole fresh process
  that imports the package, gives one hint and exits, and of one that only imports
  the package (the peer), measured in the same run: their difference is what the
  first hint costs a command such as ``riverboat play --auto optimal``.
* **warm**: in the same process, ``--hands`` more random hands, one call each; the
  median and the slowest. Beside it, the peer: the project's own batch evaluator
  valuing the same number of dealer hands as one hint enumerates (C(49, 3) or
  C(47, 5)), on a ready array, in the same process.

The processes keep the analyses' tables in an empty folder of their own
(``RIVERBOAT_CACHE_DIR``): where the game's full count is kept, a hint reads its hand's
row there instead of enumerating (:func:`riverboat.analysis.hints.kept_line_totals`),
which is not what is measured here.

An untimed process runs first so that numba's cache is warm. Every figure is the
best of ``--repeat`` fresh processes; beside the wall times, the CPU time the process
spent (``time.process_time``), which a shared machine's load inflates less: read
the ratios and the CPU times.

    python bench/hints.py [--games tri-card,crazy4,rabbit-hunter] [--hands 50]
                          [--repeat 3] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

GAMES = ("tri-card", "crazy4", "rabbit-hunter")
WAGERS = {
    "tri-card": {"ante": 1, "pair_plus": 1},
    "crazy4": {"ante": 1, "super_bonus": 1, "queens_up": 1},
    "rabbit-hunter": {"ante": 1, "bonus": 1, "bad_beat": 1},
}
TARGET_FIRST, TARGET_WARM = 1.0, 0.050

_HINTS = """
import json, sys, time
started = time.perf_counter()
import numpy as np
from riverboat.analysis import best_action
from riverboat.games import find_game
from riverboat.hands import evaluate3, evaluate4of5, evaluate5
imported = time.perf_counter()
game, wagers, count = sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3])
size = 3 if game == "tri-card" else 5
rng = np.random.default_rng(2026)  # benchmark data only
hands = [rng.permutation(52)[:size].tolist() for _ in range(count + 1)]
start, cpu = time.perf_counter(), time.process_time()
best_action(game, hands[0], wagers)
first, first_cpu = time.perf_counter() - start, time.process_time() - cpu
if count == 0:
    raise SystemExit(0)
warm, warm_cpu = [], []
for hand in hands[1:]:
    start, cpu = time.perf_counter(), time.process_time()
    best_action(game, hand, wagers)
    warm.append(time.perf_counter() - start)
    warm_cpu.append(time.process_time() - cpu)
# the peer: the batch evaluator on as many dealer hands as one hint values
unseen = np.setdiff1d(np.arange(52), hands[0])
from itertools import combinations
dealer = np.array(list(combinations(unseen.tolist(), size)), dtype=np.uint8)
evaluate = {"tri-card": evaluate3, "crazy4": evaluate4of5}.get(game, evaluate5)
evaluate(dealer[:10])
peer = []
for _ in range(5):
    start = time.perf_counter()
    evaluate(dealer)
    peer.append(time.perf_counter() - start)
print(json.dumps({"import": imported - started, "first": first, "first_cpu": first_cpu,
                  "warm": warm, "warm_cpu": warm_cpu,
                  "peer": min(peer), "dealer_hands": len(dealer)}))
"""


#: the hints' processes: the analyses' tables kept in a folder of their own, empty
_CACHE = tempfile.TemporaryDirectory(prefix="riverboat-hints-")
_ENV = {**os.environ, "RIVERBOAT_CACHE_DIR": _CACHE.name}


def _run(args: list[str]) -> tuple[float, str]:
    """A fresh process's wall time and what it printed."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, *args], check=True, capture_output=True, text=True, env=_ENV
    )
    return time.perf_counter() - start, done.stdout


def measure(game: str, hands: int, repeat: int) -> dict[str, float | int | str]:
    """The best of ``repeat`` fresh processes for one game, and the import-only peer."""
    args = ["-c", _HINTS, game, json.dumps(WAGERS[game]), str(hands)]
    _run(args)  # numba's cache warm, the files in the page cache
    runs = []
    for _ in range(repeat):
        out = _run(args)[1]
        runs.append(json.loads(out))
    one = ["-c", _HINTS, game, json.dumps(WAGERS[game]), "0"]
    processes = [_run(one)[0] for _ in range(repeat)]
    imports = [_run(["-c", "import riverboat.analysis"])[0] for _ in range(repeat)]
    best = min(runs, key=lambda r: r["first"])
    warm = [w for r in runs for w in r["warm"]]
    median = statistics.median(warm)
    cpu = statistics.median([w for r in runs for w in r["warm_cpu"]])
    peer = min(r["peer"] for r in runs)
    return {
        "game": game,
        "first_s": best["first"],
        "first_cpu_s": min(r["first_cpu"] for r in runs),
        "warm_median_cpu_s": cpu,
        "process_s": min(processes),
        "import_only_s": min(imports),
        "warm_median_s": median,
        "warm_slowest_s": max(warm),
        "peer_evaluate_s": peer,
        "dealer_hands": best["dealer_hands"],
        "warm_vs_peer": median / peer,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--hands", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", help="also write the figures to this file")
    options = parser.parse_args()
    figures = [measure(g, options.hands, options.repeat) for g in options.games.split(",")]
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print(
        "| game | first hint (CPU) | process with one hint / import only "
        "| warm median (CPU) | warm slowest | evaluator on the same dealer hands "
        "| warm / evaluator |"
    )
    print("|---" * 7 + "|")
    for f in figures:
        process, imports = float(f["process_s"]), float(f["import_only_s"])
        print(
            f"| {f['game']} | {f['first_s']:.3f} s ({f['first_cpu_s']:.3f} s) "
            f"| {process:.2f} s / {imports:.2f} s = {process / imports:.2f}x "
            f"| {1000 * float(f['warm_median_s']):.1f} ms "
            f"({1000 * float(f['warm_median_cpu_s']):.1f} ms) "
            f"| {1000 * float(f['warm_slowest_s']):.1f} ms "
            f"| {1000 * float(f['peer_evaluate_s']):.1f} ms ({f['dealer_hands']:,} hands) "
            f"| {float(f['warm_vs_peer']):.2f}x |"
        )
    print(f"targets: first <= {TARGET_FIRST:g} s, warm <= {1000 * TARGET_WARM:g} ms")
    for f in figures:
        first, warm = float(f["first_s"]), float(f["warm_median_s"])
        met = first <= TARGET_FIRST and warm <= TARGET_WARM
        print(f"  {f['game']}: {'met' if met else 'NOT met'}")
    if options.json:
        with open(options.json, "w") as out:
            json.dump(figures, out, indent=2)


if __name__ == "__main__":
    main()
