"""Benchmark the exact analyzer end to end: `riverboat analyze GAME` in a fresh
process, counting (cold) and reading what is kept on disk (cached), beside the same
commands of another git ref (the old code) and, with --brute-force, a brute force
through settle; every ratio is between peers measured in the same run.

Each version runs once untimed first, so numba's compiled code is on disk (its
cost is a first run's only, per machine) and the timed runs compile nothing. A cold
run starts with an empty RIVERBOAT_CACHE_DIR; the cached runs (--runs, three by
default, the median kept) read what the cold run kept, for each of the cached commands: the analysis
with every wager and with the default ones, the PAR sheet (`--format html`) and
the strategy card (`riverboat strategy GAME`), each run once untimed first to keep
its report. Each run gives its wall seconds and its CPU seconds (user + system, of
the process and its children): the machine is shared, so CPU seconds are the
steadier figure. The brute force settles every dealer hand (and every rabbit) of a
sample of player hands through the game's settle function, vectorised with numpy,
scaled to every hand class the analysis counts.

    python bench/analysis.py [--games tri-card,baccarat,crazy4,rabbit-hunter] [--runs 3]
                             [--baseline-ref GIT_REF] [--brute-force] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from math import comb
from pathlib import Path

from arguments import at_least
from load import ROOT, checked_out

#: seconds: Rabbit Hunter's from issue 15 (cold, cached), the others' from the start
TARGETS = {
    "tri-card": (2.0, 1.0),
    "baccarat": (2.0, 1.0),
    "crazy4": (10.0, 1.0),
    "rabbit-hunter": (15.0, 1.0),
}
WAGERS = {
    "tri-card": "ante,pair_plus",
    "baccarat": "banker",
    "crazy4": "ante,super_bonus,queens_up",
    "rabbit-hunter": "ante,bonus,bad_beat",
}
#: the commands timed from the cache, by name; the first is also timed cold
COMMANDS = {
    "analyze": lambda game: ["analyze", game, "--wagers", WAGERS[game]],
    "default wagers": lambda game: ["analyze", game],
    "PAR sheet": lambda game: ["analyze", game, "--format", "html"],
    "strategy card": lambda game: ["strategy", game],
}


def commands(game: str) -> dict[str, list[str]]:
    """The commands timed for ``game`` (Baccarat has no strategy card)."""
    return {
        name: command(game)
        for name, command in COMMANDS.items()
        if game != "baccarat" or name != "strategy card"
    }


def timed_run(tree: Path, arguments: list[str], cache: Path) -> dict[str, float]:
    """`riverboat ARGUMENTS` of the code in ``tree``: wall and CPU seconds."""
    env = {**os.environ, "PYTHONPATH": str(tree / "src"), "RIVERBOAT_CACHE_DIR": str(cache)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "riverboat", *arguments],
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return {"wall": wall, "cpu": cpu}


def measure(tree: Path, game: str, folder: Path, runs: int = 3) -> dict[str, float]:
    """Cold and cached figures of one version on one game: ``cold_wall``,
    ``cold_cpu``, and ``cached_wall``/``cached_cpu`` (the first command's) and
    ``<name> wall``/``<name> cpu`` for each command, the medians of ``runs`` runs."""
    timed = commands(game)
    first = next(iter(timed.values()))
    warm_up = Path(tempfile.mkdtemp(dir=folder))
    timed_run(tree, first, warm_up)  # numba's compiled code to disk; untimed
    cache = Path(tempfile.mkdtemp(dir=folder))
    cold = timed_run(tree, first, cache)
    figures = {"cold_wall": cold["wall"], "cold_cpu": cold["cpu"]}
    for name, arguments in timed.items():
        timed_run(tree, arguments, cache)  # what the command keeps, kept; untimed
        done = [timed_run(tree, arguments, cache) for _ in range(runs)]
        figures[f"{name} wall"] = statistics.median(r["wall"] for r in done)
        figures[f"{name} cpu"] = statistics.median(r["cpu"] for r in done)
    figures["cached_wall"], figures["cached_cpu"] = figures["analyze wall"], figures["analyze cpu"]
    return figures


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
    parser.add_argument(
        "--runs", type=at_least(1, int), default=3, help="cached runs of each command (median)"
    )
    parser.add_argument("--baseline-ref", help="also time this git ref's code: new/old ratios")
    parser.add_argument("--brute-force", action="store_true", help="also time a brute force")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)
    games = [g.strip() for g in args.games.split(",") if g.strip()]
    print(f"cores: {os.cpu_count()}  python: {sys.version.split()[0]}  load: {os.getloadavg()}")
    rows = []
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        old_tree = (
            stack.enter_context(checked_out(args.baseline_ref)) if args.baseline_ref else None
        )
        for game in games:
            row: dict[str, object] = {"game": game, **measure(ROOT, game, folder, args.runs)}
            if old_tree is not None:
                old = measure(old_tree, game, folder, args.runs)
                row |= {f"old {name}": value for name, value in old.items()}
            if args.brute_force and game != "baccarat":
                sample = {"tri-card": 40, "crazy4": 3, "rabbit-hunter": 1}[game]
                row["brute_force_s"], _ = brute_force_seconds(game, sample)
            rows.append(row)
            _print(rows, args.baseline_ref)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2))
    return 0


def _print(rows: list[dict[str, object]], ref: str | None) -> None:
    """The tables so far: seconds wall / CPU, then ratios of CPU seconds (old and
    brute force over new); then each cached command, new beside old."""
    old_header = f" {'old s':>14} {'old/cold':>9} {'old cached':>14} {'old/new cached':>14}"
    print(
        f"\n{'game':<14} {'cold s (wall/cpu)':>18} {'cached s':>14} {'targets':>9}"
        + (old_header if ref else "")
        + f" {'cold/cached':>11}"
    )
    for row in rows:
        f = {k: v for k, v in row.items() if isinstance(v, float)}
        cold, cached = TARGETS[str(row["game"])]
        line = (
            f"{row['game']!s:<14} {f['cold_wall']:8.2f}/{f['cold_cpu']:<8.2f} "
            f"{f['cached_wall']:6.2f}/{f['cached_cpu']:<6.2f} {cold:4.0f}/{cached:<4.0f}"
        )
        if ref:
            line += (
                f" {f['old cold_wall']:6.2f}/{f['old cold_cpu']:<7.2f} "
                f"{f['old cold_cpu'] / f['cold_cpu']:8.1f}x "
                f"{f['old cached_wall']:6.2f}/{f['old cached_cpu']:<7.2f} "
                f"{f['old cached_cpu'] / f['cached_cpu']:13.1f}x"
            )
        line += f" {f['cold_cpu'] / f['cached_cpu']:10.1f}x"
        if "brute_force_s" in f:
            brute = f["brute_force_s"]
            line += f"  brute force {brute:,.0f} s: {brute / f['cold_cpu']:,.0f}x cold"
        print(line, flush=True)
    print("ratios of CPU seconds; targets: cold/cached seconds")
    print(
        f"\n{'cached command':<30} {'s (wall/cpu)':>14}"
        + (f" {'old s':>14} {'old/new':>8}" if ref else "")
    )
    for row in rows:
        f = {k: v for k, v in row.items() if isinstance(v, float)}
        for name in commands(str(row["game"])):
            label = f"{row['game']} {name}"
            line = f"{label:<30} {f[name + ' wall']:6.2f}/{f[name + ' cpu']:<7.2f}"
            if ref:
                old_wall, old_cpu = f[f"old {name} wall"], f[f"old {name} cpu"]
                line += f" {old_wall:6.2f}/{old_cpu:<7.2f} {old_cpu / f[name + ' cpu']:7.1f}x"
            print(line, flush=True)


if __name__ == "__main__":
    raise SystemExit(main())
