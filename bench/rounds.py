"""Benchmark the service layer's cost of a round: CPU milliseconds per round played
through :class:`~riverboat.table.service.TableService` (no HTTP), single-threaded,
of this tree and of a baseline ref's tree, measured in the same run.

Each round is a deal and a decision: Tri-Card (ante, raise), Crazy 4 (ante and Super
Bonus, play) and Rabbit Hunter (ante, buy), on a fresh SQLite file (and PostgreSQL with
``--postgres``). Each tree runs in its own subprocess (its own ``src`` on the path);
trees take turns, ``--repeats`` times, and the best of each is kept; the ratio is the
baseline's CPU per round over this tree's (above 1: this tree is cheaper).

    python bench/rounds.py [--rounds 200] [--repeats 3] [--baseline-ref b786f1d]
                           [--postgres [URL]] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import uuid
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from load import ROOT, checked_out, database  # the load benchmark's trees and databases

POSTGRES = os.environ.get("RIVERBOAT_TEST_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432")
PASSWORD = "a long password"
#: each game's round: its wagers and the decision that settles it
GAMES: dict[str, tuple[dict[str, int], str]] = {
    "tri-card": ({"ante": 500}, "raise"),
    "crazy4": ({"ante": 500, "super_bonus": 500}, "play"),
    "rabbit-hunter": ({"ante": 500}, "buy"),
}


def measure(url: str, rounds: int) -> dict[str, dict[str, float]]:
    """CPU and wall milliseconds per round of each game on the database at ``url``
    (run inside the tree's subprocess)."""
    from riverboat.table.service import TableService

    service = TableService(url)
    player = service.register(f"b{uuid.uuid4().hex[:8]}", PASSWORD)
    found = {}
    for game, (wagers, action) in GAMES.items():

        def play(count: int) -> None:
            for _ in range(count):
                view = service.start_round(player, game, wagers)  # noqa: B023
                done = service.act(player, view.id, action)  # noqa: B023
                if done.balance < 10_000:  # the top-up rule: below $100
                    service.top_up(player)  # rare: a few per thousand rounds

        play(10)  # warm up
        cpu, wall = time.process_time(), time.perf_counter()
        play(rounds)
        found[game] = {
            "cpu_ms": (time.process_time() - cpu) / rounds * 1000,
            "wall_ms": (time.perf_counter() - wall) / rounds * 1000,
        }
    service.engine.dispose()
    return found


def run_tree(tree: Path, url: str, rounds: int) -> dict[str, dict[str, float]]:
    """:func:`measure` in a subprocess running ``tree``'s code."""
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    command = [sys.executable, str(Path(__file__).resolve()), "--measure", url, str(rounds)]
    done = subprocess.run(command, env=env, cwd=tree, check=True, stdout=subprocess.PIPE, text=True)
    found: dict[str, dict[str, float]] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def main() -> None:
    if sys.argv[1:2] == ["--measure"]:
        print(json.dumps(measure(sys.argv[2], int(sys.argv[3]))))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=200, help="rounds of each game per run")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each tree (best kept)")
    parser.add_argument("--baseline-ref", default="b786f1d", help="git ref to compare against")
    parser.add_argument("--postgres", nargs="?", const=POSTGRES, default=None,
                        help="also on PostgreSQL (server URL, no database)")  # fmt: skip
    parser.add_argument("--json", type=Path, help="write the figures here too")
    args = parser.parse_args()
    kinds = ["sqlite"] + (["postgresql"] if args.postgres else [])
    best: dict[str, dict[str, dict[str, dict[str, float]]]] = {}
    with ExitStack() as stack, tempfile.TemporaryDirectory() as folder:
        trees = {"new": ROOT, "old": stack.enter_context(checked_out(args.baseline_ref))}
        for _ in range(args.repeats):
            for kind in kinds:
                for name, tree in trees.items():
                    with database(kind, Path(folder), args.postgres or POSTGRES) as url:
                        found = run_tree(tree, url, args.rounds)
                    kept = best.setdefault(kind, {}).setdefault(name, found)
                    for game, figures in found.items():
                        if figures["cpu_ms"] < kept[game]["cpu_ms"]:
                            kept[game] = figures
    report: dict[str, Any] = {"baseline_ref": args.baseline_ref, "rounds": args.rounds}
    print(f"ms per round (deal + decision), best of {args.repeats}; ratio = old / new CPU")
    print(f"{'database':<11}{'game':<15}{'new cpu':>9}{'new wall':>10}"
          f"{'old cpu':>9}{'old wall':>10}{'ratio':>8}")  # fmt: skip
    for kind, by_tree in best.items():
        for game in GAMES:
            new, old = by_tree["new"][game], by_tree["old"][game]
            ratio = old["cpu_ms"] / new["cpu_ms"]
            report[f"{kind}/{game}"] = {"new": new, "old": old, "ratio": ratio}
            print(f"{kind:<11}{game:<15}{new['cpu_ms']:>9.2f}{new['wall_ms']:>10.2f}"
                  f"{old['cpu_ms']:>9.2f}{old['wall_ms']:>10.2f}{ratio:>7.2f}x")  # fmt: skip
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
