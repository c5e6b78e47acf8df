"""Benchmark how many threads should carry the database work: settled Tri-Card rounds
per second, and the process's CPU per round, with --players clients served by a pool
of T threads (``riverboat.web.threads``), for each T in --threads, measured in turns.

No web server: each client's next request (a deal, then a raise) is handed to the
pool the moment its last one is answered, as the web app hands the round routes'
work to its database threads. Each client plays a player of its own on a fresh
database (PostgreSQL, or SQLite with --database sqlite). Each pool size runs for
--seconds, --repeats times, the sizes taking turns in every repeat; the figures are
medians over the repeats, and each size's ratio is its median over the first size's
(above 1 for rounds a second: more; below 1 for CPU: cheaper). The server's rate-limit
counts, which run in a pool of their own beside these, are not part of it.

    python bench/threads.py [--threads 40,6,4] [--players 64] [--seconds 4]
                            [--repeats 3] [--database postgresql|sqlite] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

from load import add_postgres_option, database  # the load benchmark's databases

if TYPE_CHECKING:  # imported once the arguments are read: --help answers without it
    from riverboat.table.service import TableService

PASSWORD = "bench-password"


def measure(
    service: TableService, players: list[int], size: int, seconds: float
) -> dict[str, float]:
    """Rounds a second and CPU milliseconds a round with a pool of ``size`` threads."""
    pool = ThreadPoolExecutor(size)
    stop = time.monotonic() + seconds
    settled, finished, failed = [0], threading.Semaphore(0), []
    lock = threading.Lock()

    def step(player: int, round_id: int | None) -> None:
        try:
            if round_id is None:
                round_id = service.start_round(player, "tri-card", {"ante": 500}).id
            else:
                view = service.act(player, round_id, "raise")
                if view.balance < 10_000:  # the top-up rule: below $100
                    service.top_up(player)
                round_id = None
                with lock:
                    settled[0] += 1
        except Exception as error:  # this client stops, and the run fails at its end
            failed.append(error)
            finished.release()
            return
        if round_id is not None or time.monotonic() < stop:  # a dealt round is settled
            pool.submit(step, player, round_id)
        else:
            finished.release()

    cpu, began = time.process_time(), time.perf_counter()
    for player in players:
        pool.submit(step, player, None)
    for _ in players:
        finished.acquire()
    elapsed, cpu = time.perf_counter() - began, time.process_time() - cpu
    pool.shutdown()
    if failed:
        raise failed[0]
    return {
        "rounds_per_second": settled[0] / elapsed,
        "cpu_ms_per_round": 1000 * cpu / max(settled[0], 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", default="40,6,4", help="pool sizes, the peer first")
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--database", choices=("postgresql", "sqlite"), default="postgresql")
    add_postgres_option(parser)  # RIVERBOAT_TEST_POSTGRES, as the other benches read it
    parser.add_argument("--json", type=Path, help="write the figures here too")
    args = parser.parse_args()
    from riverboat.table.service import TableService

    sizes = [int(size) for size in args.threads.split(",")]
    with (
        tempfile.TemporaryDirectory() as folder,
        database(args.database, Path(folder), args.postgres) as url,
    ):
        service = TableService(url)
        players = [service.register(f"p{n}", PASSWORD) for n in range(args.players)]
        measure(service, players, sizes[0], 1.0)  # warm up: connections, caches
        runs: dict[int, list[dict[str, float]]] = {size: [] for size in sizes}
        for _ in range(args.repeats):
            for size in sizes:
                runs[size].append(measure(service, players, size, args.seconds))
        assert service.audit() == [], "the ledger does not audit clean"
        service.engine.dispose()
    medians = {
        size: {key: statistics.median(run[key] for run in found) for key in found[0]}
        for size, found in runs.items()
    }
    peer = medians[sizes[0]]
    print(
        f"{args.database}, {args.players} clients, median of {args.repeats} runs of "
        f"{args.seconds:g} s; ratios of the medians against {sizes[0]} threads"
    )
    print(f"{'threads':>8} {'rounds/s':>9} {'ratio':>6} {'cpu ms/round':>13} {'ratio':>6}")
    for size in sizes:
        found = medians[size]
        print(
            f"{size:>8} {found['rounds_per_second']:>9.1f} "
            f"{found['rounds_per_second'] / peer['rounds_per_second']:>5.2f}x "
            f"{found['cpu_ms_per_round']:>13.2f} "
            f"{found['cpu_ms_per_round'] / peer['cpu_ms_per_round']:>5.2f}x"
        )
    if args.json:
        args.json.write_text(json.dumps({str(size): runs[size] for size in sizes}, indent=2))


if __name__ == "__main__":
    main()
