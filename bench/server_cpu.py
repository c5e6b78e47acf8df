"""The server's CPU per settled round: `riverboat serve` at full speed, one player
playing Tri-Card rounds (deal, then raise) one after another over loopback, on SQLite
and PostgreSQL, for this tree and (with --baseline-ref) another commit's, each
measured --repeat times in turn (SQLite, PostgreSQL, SQLite, ...), so that the
machine's changing load falls on every figure alike.

The figure is the server process's user and system CPU (``/proc/PID/stat``: every
thread, the kernel's work for it included; SQLite's own work is the server's, a
PostgreSQL backend's is not) over --rounds rounds, after --warm rounds, in
milliseconds a round; min, median and max over the repeats, and the ratios of the
medians. It is the measure bench/server_instructions.py stands in for where it must
not move with the machine's load: this one moves (the clock ticks are 10 ms, and
the client shares the cores), but it counts time, not instructions, and it counts
the work a server does on a clock (the rate limit sharing its counts, the listener to
the kept state's deletions) at the pace of a server at full speed, not one slowed
some fifty times by callgrind.

    python bench/server_cpu.py [--rounds 400] [--warm 50] [--repeat 3]
                               [--databases sqlite,postgresql]
                               [--baseline-ref GIT_REF] [--json FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
from contextlib import nullcontext
from pathlib import Path

from arguments import at_least
from load import ROOT, SERVERS, database, serving
from server_instructions import add_round_options, databases_asked, play_rounds
from worktrees import checked_out

#: one player at full speed asks far more than the default limit of 60 requests a
#: second of one address: the servers measured get a limit no round reaches
UNLIMITED = {"RIVERBOAT_RATE_LIMIT": "1000000"}


def _cpu_seconds(pid: int) -> float:
    """Process ``pid``'s user and system CPU so far, every thread's."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure(tree: Path, url: str, warm: int, rounds: int) -> float:
    """``tree``'s server on ``url``: milliseconds of its CPU a round."""
    with serving(tree, url, 1) as base:
        pid = SERVERS[base][0]
        started: list[float] = []
        asyncio.run(play_rounds(base, warm, rounds, lambda: started.append(_cpu_seconds(pid))))
        return (_cpu_seconds(pid) - started[0]) / rounds * 1e3


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    add_round_options(parser, rounds=400, warm=50)
    parser.add_argument("--repeat", type=at_least(1, int), default=3, help="runs of each")
    args = parser.parse_args(argv)
    kinds = databases_asked(parser, args)
    os.environ.update(UNLIMITED)
    found: dict[tuple[str, str], list[float]] = {}
    baseline = checked_out(args.baseline_ref) if args.baseline_ref else nullcontext(None)
    print(f"the server's CPU ms a round, {args.rounds} rounds after {args.warm}, one player")
    with tempfile.TemporaryDirectory() as folder, baseline as old:
        trees = {"new": ROOT, **({"old": old} if old else {})}
        for run in range(1, args.repeat + 1):
            for kind in kinds:
                for version, tree in trees.items():
                    with database(kind, Path(folder), args.postgres) as url:
                        figure = measure(tree, url, args.warm, args.rounds)
                    found.setdefault((kind, version), []).append(figure)
                    print(f"run {run}  {kind:<11}{version:<5}{figure:8.3f}", flush=True)
    medians = {key: statistics.median(figures) for key, figures in found.items()}
    print(f"{'database':<11}{'tree':<6}{'min':>8}{'median':>8}{'max':>8}")
    for (kind, version), figures in found.items():
        low, middle, high = min(figures), medians[kind, version], max(figures)
        print(f"{kind:<11}{version:<6}{low:8.3f}{middle:8.3f}{high:8.3f}")
    for version in ("new", "old"):
        if ("sqlite", version) in medians and ("postgresql", version) in medians:
            ratio = medians["postgresql", version] / medians["sqlite", version]
            runs = zip(found["postgresql", version], found["sqlite", version], strict=True)
            pairs = [postgresql / sqlite for postgresql, sqlite in runs]
            spread = f"runs {min(pairs):.3f}-{max(pairs):.3f}x"
            print(f"postgresql / sqlite ({version}): {ratio:.3f}x of the medians ({spread})")
    for kind in kinds:
        if (kind, "old") in medians:
            ratio = medians[kind, "new"] / medians[kind, "old"]
            print(f"{kind} new / old ({args.baseline_ref}): {ratio:.3f}x of the medians")
    if args.json:
        rows = [{"database": k, "tree": v, "ms": f} for (k, v), f in found.items()]
        args.json.write_text(json.dumps({"rounds": args.rounds, "runs": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
