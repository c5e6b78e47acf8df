"""The server's instructions per settled round: `riverboat serve` under valgrind's
callgrind, one player playing Tri-Card rounds (deal, then raise) one after another
over loopback, on SQLite and PostgreSQL, for this tree and (with --baseline-ref)
another commit's in the same run.

Seconds of CPU a round are a poor measure on a shared 2-core machine: the client, the
server and PostgreSQL's backends take turns on the cores, and PostgreSQL's server
CPU a round over SQLite's read 1.07x to 1.62x in runs of bench/load.py on one
evening, the code unchanged. Callgrind counts the
instructions the server carries out instead: the same count whatever else the machine
is doing (runs of one tree agree within 0.5%), so a change to a round's path shows
as a ratio that is not the machine's mood. What it does not see: the kernel's work
(system calls, waking threads) and the waiting and contention of a loaded server,
which bench/load.py's CPU figures do include. A PostgreSQL backend's own work is not
the server's and is not counted; SQLite's is (it runs in the server's threads).

The server starts with instrumentation off (callgrind's --instr-atstart=no: a start
some 5 times slower, not 50), plays --warm rounds, then counts --rounds rounds
(``callgrind_control -i on``, ``-z``, then ``-d``): millions of instructions a
round, split into the event loop's thread (HTTP, middleware, routing) and the rest
(the threads that carry a round's database work; on PostgreSQL also the rate limit's
sharing of its counts and the listener to the kept state's deletions), and the wall
seconds a round took. That last work runs on the clock (a sharing 0.1 s after a
count, a heartbeat a second), not once a round: under callgrind a round takes some
seventeen times as long as at full speed (0.164 s against 9.9 ms on PostgreSQL
here), so this bench charges a round some seventeen times the clock's work it would
bear at full speed (bench/server_cpu.py measures at full speed).

    python bench/server_instructions.py [--rounds 50] [--warm 20]
                                        [--databases sqlite,postgresql]
                                        [--baseline-ref GIT_REF] [--json FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import nullcontext
from pathlib import Path

from arguments import at_least
from load import (
    PASSWORD,
    ROOT,
    SERVERS,
    add_postgres_option,
    database,
    log_in,
    refuse_unreachable_postgres,
    serving,
)
from worktrees import checked_out, is_commit

#: a Tri-Card round as bench/load.py plays it: the ante, then the raise
DEAL = {"game": "tri-card", "wagers": {"ante": 500}}


async def play_rounds(
    base: str, warm: int, rounds: int, between: Callable[[], object] = lambda: None
) -> None:
    """One player's ``warm`` rounds, then ``between()`` (counting started), then
    ``rounds`` more, each request after the last one's answer."""
    client = await log_in(base, "127.0.0.1", "player0", PASSWORD)
    try:
        for count, counted_after in ((warm, True), (rounds, False)):
            for _ in range(count):
                dealt = await client.post("/api/rounds", json=DEAL)
                if dealt.status_code == 422 and "balance" in dealt.text:  # as bench/load.py
                    (await client.post("/api/top-up", json={})).raise_for_status()
                    dealt = await client.post("/api/rounds", json=DEAL)
                dealt.raise_for_status()
                decided = f"/api/rounds/{dealt.json()['id']}/actions"
                (await client.post(decided, json={"action": "raise"})).raise_for_status()
            if counted_after:
                between()
    finally:
        await client.aclose()


def _control(*arguments: str) -> None:
    """``callgrind_control ARGUMENTS``: a running callgrind told what to do."""
    subprocess.run(["callgrind_control", *arguments], check=True, capture_output=True)


def _summary(path: Path) -> int:
    """The instructions a callgrind dump counted (its ``summary:`` line)."""
    for line in path.read_text().splitlines():
        if line.startswith("summary:"):
            return int(line.split()[1])
    raise SystemExit(f"callgrind wrote no summary in {path}")


def measure(tree: Path, url: str, warm: int, rounds: int) -> dict[str, float]:
    """``tree``'s server on ``url`` under callgrind: millions of instructions a round,
    in all, on the event loop's thread and on the others."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "callgrind.out"
        wrap = [
            "valgrind", "--tool=callgrind", "--instr-atstart=no", "--separate-threads=yes",
            f"--callgrind-out-file={out}",
        ]  # fmt: skip
        with serving(tree, url, 1, wrap=wrap) as base:
            pid = str(SERVERS[base][0])

            started: list[float] = []

            def counting() -> None:
                for step in (["-i", "on"], ["-z"]):  # counting from here, from nothing
                    _control(*step, pid)
                started.append(time.monotonic())

            asyncio.run(play_rounds(base, warm, rounds, counting))
            seconds = (time.monotonic() - started[0]) / rounds
            _control("-d", pid)
            dumps = sorted(Path(folder).glob("callgrind.out.1-*"))  # this dump, by thread
            if not dumps:
                raise SystemExit("callgrind wrote no dump: is callgrind_control working?")
            counts = [_summary(dump) for dump in dumps]
    loop = counts[0]  # thread 1: the main thread, which runs the event loop
    return {
        "total": sum(counts) / rounds / 1e6,
        "loop": loop / rounds / 1e6,
        "threads": (sum(counts) - loop) / rounds / 1e6,
        "seconds": seconds,
    }


def add_round_options(parser: argparse.ArgumentParser, rounds: int, warm: int) -> None:
    """The options of the benches of a server playing one player's rounds (this one and
    bench/server_cpu.py), with their defaults of ``rounds`` and ``warm``."""
    parser.add_argument("--rounds", type=at_least(1, int), default=rounds, help="rounds measured")
    parser.add_argument("--warm", type=at_least(0, int), default=warm, help="rounds played first")
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--baseline-ref", help="also this git ref's server: new/old ratios")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    add_postgres_option(parser)


def databases_asked(parser: argparse.ArgumentParser, args: argparse.Namespace) -> list[str]:
    """The databases ``--databases`` names, once it and ``--baseline-ref`` are checked."""
    kinds: list[str] = args.databases.split(",")
    if unknown := set(kinds) - {"sqlite", "postgresql"}:
        parser.error(f"--databases: {', '.join(sorted(unknown))}? (sqlite, postgresql)")
    if args.baseline_ref and not is_commit(args.baseline_ref):
        parser.error(f"--baseline-ref: {args.baseline_ref!r} names no commit of this repository")
    refuse_unreachable_postgres(parser, kinds, args.postgres)
    return kinds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    add_round_options(parser, rounds=50, warm=20)
    args = parser.parse_args(argv)
    kinds = databases_asked(parser, args)
    for tool in ("valgrind", "callgrind_control"):
        if shutil.which(tool) is None:
            parser.error(f"{tool} is not installed (Debian's valgrind package)")
    found: dict[tuple[str, str], dict[str, float]] = {}
    baseline = checked_out(args.baseline_ref) if args.baseline_ref else nullcontext(None)
    print(f"millions of instructions a round, {args.rounds} rounds after {args.warm}")
    print(f"{'database':<11}{'tree':<6}{'total':>8}{'loop':>8}{'threads':>9}{'s a round':>10}")
    with tempfile.TemporaryDirectory() as folder, baseline as old:
        trees = {"new": ROOT, **({"old": old} if old else {})}
        for kind in kinds:
            for version, tree in trees.items():
                with database(kind, Path(folder), args.postgres) as url:
                    figures = measure(tree, url, args.warm, args.rounds)
                found[kind, version] = figures
                print(
                    f"{kind:<11}{version:<6}{figures['total']:>8.3f}{figures['loop']:>8.3f}"
                    f"{figures['threads']:>9.3f}{figures['seconds']:>10.3f}",
                    flush=True,
                )
    for version in ("new", "old"):
        if ("sqlite", version) in found and ("postgresql", version) in found:
            ratio = found["postgresql", version]["total"] / found["sqlite", version]["total"]
            print(f"postgresql / sqlite ({version}): {ratio:.3f}x")
    for kind in kinds:
        if (kind, "old") in found:
            ratio = found[kind, "new"]["total"] / found[kind, "old"]["total"]
            print(f"{kind} new / old ({args.baseline_ref}): {ratio:.3f}x")
    if args.json:
        rows = [{"database": k, "tree": v, **f} for (k, v), f in found.items()]
        args.json.write_text(json.dumps({"rounds": args.rounds, "runs": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
