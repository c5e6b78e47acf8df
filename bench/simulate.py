"""Benchmark the simulator: rounds per second per game on 1 and 2 threads (workers),
and `riverboat simulate GAME --rounds 10000000` end to end in a fresh process, this
tree beside the code of another commit (issue 28, item 1).

    python bench/simulate.py [--base GIT_REF | --base-tree PATH | --base none]
                             [--games tri-card,baccarat,crazy4,rabbit-hunter]
                             [--rate-rounds 5000000] [--rounds 10000000] [--runs 3]
                             [--json FILE]

Each version runs in processes of its own (PYTHONPATH at its src; ``--base`` checks
the ref out in a temporary worktree, by default 55d80d7, main before issue 28's
simulator work; ``--base-tree`` uses a checkout already there)
with an analysis cache of its own (a copy of this machine's, filled by an untimed
first run of each game), the versions taking turns so that the machine's load falls
on both alike. Figures:

* rounds/s: ``riverboat.sim.simulate(GAME, RATE_ROUNDS, workers=W)`` with the
  optimal strategy and the game's required wagers, in one process per game after an
  untimed run of the same (kernels loaded, strategy table and exact figures in the
  analysis cache); each of ``--runs`` timed runs is the wall time of the simulation
  proper (``riverboat.sim._executor_map``: every chunk dealt and settled, worker
  processes started where a version uses them), and for one worker also the CPU time
  of the process over it ("per core"). W = 1 and 2.
* end to end: ``python -m riverboat simulate GAME --rounds ROUNDS --seed N`` (and
  ``--workers 2``), wall seconds from start to exit, after one untimed run.

One worker and two take turns as well.

Each is printed as the median (min - max) of the runs, with the ratio of the medians
(this tree over the base: higher is better for rates, lower for seconds). The machine
is shared with other work: the load average is printed before and after; read the
ratios, and the CPU figures, rather than the wall clock alone. "CPU/wall" is the
process's CPU time over the wall time of the simulation: about 2 where two threads
truly run at once on an idle machine, never above 1 if they took turns.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

from worktrees import checked_out

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("tri-card", "baccarat", "crazy4", "rabbit-hunter")
#: issue 28's targets: M rounds/s on one core, and the end to end seconds of ROUNDS
TARGETS = {"tri-card": 10.0, "baccarat": 10.0, "crazy4": 5.0, "rabbit-hunter": 5.0}
END_TO_END = 5.0
DEFAULT_BASE = "55d80d7"  # main before issue 28's simulator work

#: what a measuring process runs: argv = game, rounds, runs; prints one JSON line
CHILD = r"""
import json, sys, time
import riverboat.sim as sim

game, rounds, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
timed = []
inner = sim._executor_map

def executor_map(*arguments):
    wall, cpu = time.perf_counter(), time.process_time()
    totals = inner(*arguments)
    timed.append((time.perf_counter() - wall, time.process_time() - cpu))
    return totals

sim._executor_map = executor_map
figures = {1: [], 2: []}
for workers in (1, 2):
    sim.simulate(game, rounds, seed=0, workers=workers)  # untimed: everything loaded
for run in range(runs):  # one worker and two in turns, under the same load
    for workers in (1, 2):
        timed.clear()
        sim.simulate(game, rounds, seed=run + 1, workers=workers)
        figures[workers].append(list(timed[0]))
print(json.dumps(figures))
"""


@dataclass
class Version:
    """One version of the code, its analysis cache and its figures."""

    name: str
    tree: Path
    cache: Path
    rates: dict[str, dict[int, list[list[float]]]] = field(default_factory=dict)
    seconds: dict[str, dict[int, list[float]]] = field(default_factory=dict)

    def env(self) -> dict[str, str]:
        keep = {k: v for k, v in os.environ.items() if not k.startswith("RIVERBOAT_")}
        return {
            **keep,
            "PYTHONPATH": str(self.tree / "src"),
            "RIVERBOAT_CACHE_DIR": str(self.cache),
        }

    def measure_rates(self, game: str, rounds: int, runs: int) -> None:
        done = subprocess.run(
            [sys.executable, "-c", CHILD, game, str(rounds), str(runs)],
            env=self.env(),
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise SystemExit(f"{self.name}: simulating {game}: {done.stderr}")
        found = json.loads(done.stdout.splitlines()[-1])
        self.rates[game] = {int(workers): runs for workers, runs in found.items()}

    def end_to_end(self, game: str, rounds: int, workers: int, seed: int) -> float:
        """`riverboat simulate` of this version in a fresh process: wall seconds."""
        command = [sys.executable, "-m", "riverboat", "simulate", game]
        command += ["--rounds", str(rounds), "--seed", str(seed), "--workers", str(workers)]
        start = time.perf_counter()
        done = subprocess.run(command, env=self.env(), capture_output=True, text=True)
        wall = time.perf_counter() - start
        if done.returncode != 0:
            raise SystemExit(f"{self.name}: {' '.join(command[2:])}: {done.stderr}")
        return wall


def own_cache(folder: Path) -> Path:
    """An analysis cache of a version's own in ``folder``, seeded with a copy of this
    machine's: two versions whose counting code differs would otherwise remove each
    other's tables (and yours) at every run, and count the analysis again each time."""
    sys.path.insert(0, str(ROOT / "src"))
    from riverboat.analysis.disk_cache import cache_dir

    yours = cache_dir()
    if yours.is_dir():
        shutil.copytree(yours, folder, ignore=shutil.ignore_patterns("*.tmp"))
    else:
        folder.mkdir(parents=True)
    return folder


def spread(values: list[float], scale: float = 1.0) -> str:
    """``median (min - max)`` of ``values`` times ``scale``."""
    low, mid, high = min(values), statistics.median(values), max(values)
    return f"{mid * scale:.2f} ({low * scale:.2f} - {high * scale:.2f})"


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def report(
    versions: list[Version], games: list[str], rate_rounds: int, rounds: int
) -> dict[str, object]:
    """Print the tables; return every figure for --json."""
    new, base = versions[0], (versions[1] if len(versions) > 1 else None)
    rows: list[dict[str, object]] = []
    print(f"\nrounds/s, M ({rate_rounds:,} rounds a run; median (min - max))")
    head = f"{'game':<14} {'workers':>7} {'wall':>22} {'per core (CPU)':>22} {'CPU/wall':>8}"
    if base:
        head += f" {'base wall':>22} {'ratio':>7}"
    print(head)
    for game in games:
        for workers in (1, 2):
            runs = new.rates[game][workers]
            wall = [rate_rounds / w / 1e6 for w, _ in runs]
            cpu = [rate_rounds / c / 1e6 for _, c in runs] if workers == 1 else []
            busy = statistics.median(c / w for w, c in runs)
            row: dict[str, object] = {
                "game": game,
                "workers": workers,
                "wall": wall,
                "cpu": cpu,
                "cpu_over_wall": busy,
            }
            shown = spread(cpu) if cpu else ""
            line = f"{game:<14} {workers:>7} {spread(wall):>22} {shown:>22} {busy:8.2f}"
            if base:
                old = [rate_rounds / w / 1e6 for w, _ in base.rates[game][workers]]
                ratio = statistics.median(wall) / statistics.median(old)
                row |= {"base_wall": old, "ratio": ratio}
                line += f" {spread(old):>22} {ratio:6.2f}x"
            rows.append(row)
            print(line)
    print(f"\nriverboat simulate GAME --rounds {rounds:,}: seconds, start to exit")
    head = f"{'game':<14} {'workers':>7} {'this tree':>22}"
    if base:
        head += f" {'base':>22} {'new/old':>8}"
    print(head)
    ends: list[dict[str, object]] = []
    for game in games:
        for workers in (1, 2):
            seconds = new.seconds[game][workers]
            end: dict[str, object] = {"game": game, "workers": workers, "seconds": seconds}
            line = f"{game:<14} {workers:>7} {spread(seconds):>22}"
            if base:
                old_seconds = base.seconds[game][workers]
                ratio = statistics.median(seconds) / statistics.median(old_seconds)
                end |= {"base_seconds": old_seconds, "ratio": ratio}
                line += f" {spread(old_seconds):>22} {ratio:7.2f}x"
            ends.append(end)
            print(line)
    print("\ntargets (issue 28): one core, medians; 10 M rounds end to end < 5 s; 2 workers faster")
    targets = []
    for game in games:
        core_rate = statistics.median(rate_rounds / c / 1e6 for _, c in new.rates[game][1])
        one = statistics.median(new.seconds[game][1])
        two_faster = statistics.median(w for w, _ in new.rates[game][2]) < statistics.median(
            w for w, _ in new.rates[game][1]
        )
        verdict = {
            "game": game,
            "per_core": core_rate >= TARGETS[game],
            "end_to_end": one < END_TO_END if rounds >= 10_000_000 else None,
            "two_workers_faster": two_faster,
        }
        targets.append(verdict)
        per_core = "met" if verdict["per_core"] else "NOT met"
        said = [
            f"{core_rate:.1f} M/s per core vs {TARGETS[game]:g}: {per_core}",
            f"{one:.2f} s end to end: "
            + (
                "met"
                if verdict["end_to_end"]
                else "n/a"
                if verdict["end_to_end"] is None
                else "NOT met"
            ),
            f"2 workers {'faster' if two_faster else 'NOT faster'} (wall)",
        ]
        print(f"{game:<14} " + "; ".join(said))
    return {"rates": rows, "end_to_end": ends, "targets": targets}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--base", default=DEFAULT_BASE, help="a git ref to time beside ('none': no base)"
    )
    parser.add_argument("--base-tree", type=Path, help="time the code checked out here instead")
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--rate-rounds", type=int, default=5_000_000)
    parser.add_argument("--rounds", type=int, default=10_000_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)
    # stopped (SIGTERM): the temporary worktree is removed all the same
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    games = [game.strip() for game in args.games.split(",") if game.strip()]
    started = load()
    print(f"cores: {os.cpu_count()}  load average at the start: {started}")
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        versions = [Version("this tree", ROOT, own_cache(folder / "this"))]
        if args.base_tree is not None:
            base = Version(str(args.base_tree), args.base_tree, own_cache(folder / "base"))
            versions.append(base)
        elif args.base != "none":
            tree = stack.enter_context(checked_out(args.base))
            versions.append(Version(args.base, tree, own_cache(folder / "base")))
        for game in games:
            for version in versions:  # untimed: kernels compiled and cached, tables on disk
                version.end_to_end(game, 1_000, 1, 0)
        for game in games:
            for version in versions:
                version.measure_rates(game, args.rate_rounds, args.runs)
            for version in versions:
                version.seconds[game] = {1: [], 2: []}
            for run in range(args.runs):
                for workers in (1, 2):
                    for version in versions:
                        seconds = version.end_to_end(game, args.rounds, workers, run + 1)
                        version.seconds[game][workers].append(seconds)
        figures = report(versions, games, args.rate_rounds, args.rounds)
    ended = load()
    print(f"\nload average: at the start {started}, at the end {ended}")
    if args.json:
        figures |= {
            "base": None if len(versions) == 1 else versions[1].name,
            "load": {"start": started, "end": ended},
            "rate_rounds": args.rate_rounds,
            "rounds": args.rounds,
            "runs": args.runs,
        }
        Path(args.json).write_text(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
