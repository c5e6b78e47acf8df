"""Benchmark a cold exact analysis: `riverboat analyze GAME` in a fresh process with an
empty analysis cache, this tree beside the code of another commit (issue 28, item 3).

    python bench/cold_analysis.py [--base GIT_REF | --base-tree PATH | --base none]
                                  [--games crazy4,rabbit-hunter] [--runs 3]
                                  [--profile] [--json FILE]

Each version runs from its own src (PYTHONPATH; ``--base`` checks the ref out in a
temporary worktree, by default 55d80d7, main before issue 28's work; ``--base-tree``
uses a checkout already there), every timed run a new process with an empty
RIVERBOAT_CACHE_DIR of its own, in two settings:

* first run: an empty NUMBA_CACHE_DIR too, as on a fresh install: every kernel the
  command needs is compiled;
* numba warm: numba's compiled kernels already on disk (NUMBA_CACHE_DIR, one folder
  per version and game, filled by that game's first first-run run), so the run counts
  and compiles nothing.

The first runs come first, so that no untimed run is needed to compile the warm runs'
kernels; each version's sources are compiled to bytecode first (compileall), as an
installed package has them, so that no timed run compiles Python.

The versions take turns, run by run, so that the machine's other work falls on both
alike. Each figure is the median (min - max) of --runs runs, in wall seconds and CPU
seconds (user and system, of the process); the ratio is of the medians, this tree
over the base (lower is better). The machine may be shared: the load average is
printed before and after, and the CPU seconds are the steadier figure. The targets
(10 s for Rabbit Hunter, 2 s for Crazy 4, 20 s for Rabbit Hunter's first run) are
judged on the wall medians. ``--profile`` also runs each version once under cProfile
(numba warm, empty cache) and prints where its time went.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import pstats
import resource
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
DEFAULT_BASE = "55d80d7"  # main before issue 28
#: issue 28's targets, wall seconds: (setting, game) -> seconds
TARGETS = {
    ("warm", "rabbit-hunter"): 10.0,
    ("warm", "crazy4"): 2.0,
    ("first", "rabbit-hunter"): 20.0,
}
SETTINGS = {"warm": "numba warm, empty analysis cache", "first": "first run (empty numba cache)"}


@dataclass
class Version:
    """One version of the code and its runs: (setting, game) -> [(wall, cpu)]."""

    name: str
    tree: Path
    numba: Path
    runs: dict[tuple[str, str], list[tuple[float, float]]] = field(default_factory=dict)


def run(
    version: Version, game: str, cache: Path, numba: Path, profile: Path | None = None
) -> tuple[float, float]:
    """`riverboat analyze GAME` of ``version`` in a new process: wall and CPU seconds."""
    env = {
        **os.environ,
        "PYTHONPATH": str(version.tree / "src"),
        "RIVERBOAT_CACHE_DIR": str(cache),
        "NUMBA_CACHE_DIR": str(numba),
    }
    python = [sys.executable, *(["-m", "cProfile", "-o", str(profile)] if profile else [])]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(
        [*python, "-m", "riverboat", "analyze", game],
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def spread(values: list[float]) -> str:
    """``median (min - max)``."""
    return f"{statistics.median(values):.2f} ({min(values):.2f} - {max(values):.2f})"


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def profile_summary(path: Path, top: int = 12) -> str:
    """The functions that took longest (internal time) in a cProfile file."""
    out = io.StringIO()
    pstats.Stats(str(path), stream=out).sort_stats("tottime").print_stats(top)
    lines = out.getvalue().splitlines()
    start = next(i for i, line in enumerate(lines) if "ncalls" in line)
    return "\n".join(line for line in lines[start:] if line.strip())


def measure(versions: list[Version], games: list[str], runs: int, folder: Path) -> None:
    """Every timed run, the versions taking turns: the first runs, then the warm ones.
    A version's first first-run run of a game compiles its kernels into the folder its
    warm runs of that game read (``version.numba / game``); each other first run
    compiles into an empty folder of its own."""
    for setting in ("first", "warm"):
        for game in games:
            for _ in range(runs):
                for version in versions:
                    cache = Path(tempfile.mkdtemp(dir=folder))
                    numba = version.numba / game
                    if setting == "first" and numba.exists():
                        numba = Path(tempfile.mkdtemp(dir=folder))
                    figures = run(version, game, cache, numba)
                    version.runs.setdefault((setting, game), []).append(figures)
                    print(
                        f"  {version.name:<9} {game:<14} {setting:<5} "
                        f"{figures[0]:7.2f} s wall {figures[1]:7.2f} s CPU",
                        flush=True,
                    )


def _order(key: tuple[str, str]) -> int:
    """The report's order: the settings as :data:`SETTINGS` lists them (games in the
    order they were run: the sort is stable)."""
    return list(SETTINGS).index(key[0])


def report(versions: list[Version], games: list[str]) -> dict[str, object]:
    """Print the table and the targets; return every figure for --json."""
    new, base = versions[0], (versions[1] if len(versions) > 1 else None)
    rows: list[dict[str, object]] = []
    head = f"\n{'setting':<6} {'game':<14} {'wall s':>22} {'CPU s':>22}"
    if base:
        head += f" {'base wall s':>22} {'base CPU s':>22} {'wall':>7} {'CPU':>7}"
    print(head)
    for (setting, game), figures in sorted(new.runs.items(), key=lambda item: _order(item[0])):
        wall, cpu = [w for w, _ in figures], [c for _, c in figures]
        row: dict[str, object] = {"setting": setting, "game": game, "wall": wall, "cpu": cpu}
        line = f"{setting:<6} {game:<14} {spread(wall):>22} {spread(cpu):>22}"
        if base:
            old = base.runs[setting, game]
            old_wall, old_cpu = [w for w, _ in old], [c for _, c in old]
            ratios = (
                statistics.median(wall) / statistics.median(old_wall),
                statistics.median(cpu) / statistics.median(old_cpu),
            )
            row |= {"base_wall": old_wall, "base_cpu": old_cpu, "ratio_wall": ratios[0]}
            row["ratio_cpu"] = ratios[1]
            line += f" {spread(old_wall):>22} {spread(old_cpu):>22}"
            line += f" {ratios[0]:6.2f}x {ratios[1]:6.2f}x"
        rows.append(row)
        print(line)
    print("settings: " + "; ".join(f"{key}: {words}" for key, words in SETTINGS.items()))
    print("\ntargets (issue 28, item 3), wall medians of this tree:")
    targets = []
    for (setting, game), seconds in TARGETS.items():
        if (setting, game) not in new.runs:
            continue
        median = statistics.median(w for w, _ in new.runs[setting, game])
        met = median <= seconds
        targets.append({"setting": setting, "game": game, "target": seconds, "met": met})
        print(
            f"  {game} {SETTINGS[setting]}: {median:.2f} s vs {seconds:g} s: "
            + ("met" if met else "NOT met")
        )
    return {"runs": rows, "targets": targets}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default=DEFAULT_BASE, help="git ref to compare, or none")
    parser.add_argument("--base-tree", type=Path, help="time the code checked out here instead")
    parser.add_argument("--games", default="crazy4,rabbit-hunter")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--profile", action="store_true", help="also profile one run each")
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)
    games = [game.strip() for game in args.games.split(",") if game.strip()]
    started = load()
    print(f"cores: {os.cpu_count()}  python: {sys.version.split()[0]}  load: {started}")
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        versions = [Version("this tree", ROOT, folder / "numba-new")]
        base_name = None
        if args.base_tree is not None:
            base_name = str(args.base_tree)
            versions.append(Version("base", args.base_tree.resolve(), folder / "numba-base"))
        elif args.base.lower() != "none":
            base_name = args.base
            tree = stack.enter_context(checked_out(args.base))
            versions.append(Version("base", tree, folder / "numba-base"))
        for version in versions:  # bytecode written, as an installed package has it
            compileall = [sys.executable, "-m", "compileall", "-q", str(version.tree / "src")]
            subprocess.run(compileall, check=True, stdout=subprocess.DEVNULL)
        measure(versions, games, args.runs, folder)
        profiles: dict[str, dict[str, str]] = {}
        if args.profile:
            for game in games:
                for version in versions:
                    path = folder / f"{version.name.replace(' ', '-')}-{game}.prof"
                    cache = Path(tempfile.mkdtemp(dir=folder))
                    run(version, game, cache, version.numba / game, path)
                    summary = profile_summary(path)
                    profiles.setdefault(game, {})[version.name] = summary
                    print(f"\nprofile, {version.name}, {game} (numba warm, empty cache):")
                    print(summary)
        figures = report(versions, games)
    ended = load()
    print(f"load average: at the start {started}, at the end {ended}")
    if args.json:
        out = {"base": base_name, **figures, "profiles": profiles, "load": [started, ended]}
        Path(args.json).write_text(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
