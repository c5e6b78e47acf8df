"""Benchmark SQLite's group commit: settled Tri-Card rounds per second with N threads
each playing rounds (deal, then raise) through ``TableService`` on an SQLite file,
with group commit (the default) and with one transaction per write
(``RIVERBOAT_GROUP_COMMIT=0``, the peer), measured alternately in one run.

No web server: the service alone, as the web app's worker threads call it. Each
configuration runs on a copy of the same database (players registered once), for
--seconds, --repeats times, alternating; the figures are medians: rounds per second,
COMMITs per settled round (each round is two writes), the process's CPU seconds per
round, and the ratio of group commit's rounds per second to the peer's.

    python bench/writes.py [--threads 1,8,64] [--seconds 4] [--repeats 3] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import tempfile
import threading
import time
from pathlib import Path

from sqlalchemy import event, select
from sqlalchemy.orm import Session

from riverboat.store.commits import GROUP_COMMIT
from riverboat.store.models import Player
from riverboat.table.service import TableService

PASSWORD = "bench-password"
MODES = {"group": "1", "single": "0"}


def prepare(folder: Path, players: int) -> Path:
    """A database with ``players`` registered players, to copy for each measurement."""
    path = folder / "template.db"
    service = TableService(f"sqlite:///{path}")
    for number in range(players):
        service.register(f"player{number}", PASSWORD)
    service.engine.dispose()
    return path


def measure(template: Path, threads: int, seconds: float, mode: str) -> dict[str, float]:
    """Rounds per second, COMMITs and CPU seconds per round, for ``threads`` players."""
    os.environ[GROUP_COMMIT] = MODES[mode]
    path = template.with_name(f"{mode}-{threads}.db")
    shutil.copy(template, path)
    service = TableService(f"sqlite:///{path}")
    commits = [0]
    event.listen(service.engine, "commit", lambda _c: commits.__setitem__(0, commits[0] + 1))
    with Session(service.engine) as session:
        players = list(session.scalars(select(Player.id).order_by(Player.id).limit(threads)))
    stop, rounds = threading.Event(), [0] * threads

    def play(index: int) -> None:
        while not stop.is_set():
            view = service.start_round(players[index], "tri-card", {"ante": 500})
            service.act(players[index], view.id, "raise")
            rounds[index] += 1

    workers = [threading.Thread(target=play, args=(n,)) for n in range(threads)]
    commits[0] = 0
    cpu, began = time.process_time(), time.perf_counter()
    for worker in workers:
        worker.start()
    time.sleep(seconds)
    stop.set()
    for worker in workers:
        worker.join()
    elapsed, cpu = time.perf_counter() - began, time.process_time() - cpu
    settled = sum(rounds)
    assert service.audit() == [], "the ledger does not audit clean"
    service.engine.dispose()
    path.unlink()
    return {
        "rounds_per_second": settled / elapsed,
        "commits_per_round": commits[0] / settled,
        "cpu_ms_per_round": 1000 * cpu / settled,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", default="1,8,64")
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    counts = [int(n) for n in args.threads.split(",")]
    found: dict[str, dict[str, dict[str, float]]] = {}
    with tempfile.TemporaryDirectory() as folder:
        template = prepare(Path(folder), max(counts))
        for threads in counts:
            runs: dict[str, list[dict[str, float]]] = {mode: [] for mode in MODES}
            for _ in range(args.repeats):
                for mode in MODES:
                    runs[mode].append(measure(template, threads, args.seconds, mode))
            found[str(threads)] = {
                mode: {key: statistics.median(r[key] for r in runs[mode]) for key in runs[mode][0]}
                for mode in MODES
            }
    print(f"{'threads':>7} {'mode':<7} {'rounds/s':>9} {'commits/round':>14} "
          f"{'CPU ms/round':>13} {'vs single':>10}")  # fmt: skip
    for threads, modes in found.items():
        for mode, row in modes.items():
            ratio = row["rounds_per_second"] / modes["single"]["rounds_per_second"]
            print(f"{threads:>7} {mode:<7} {row['rounds_per_second']:>9.1f} "
                  f"{row['commits_per_round']:>14.2f} {row['cpu_ms_per_round']:>13.2f} "
                  f"{ratio:>10.2f}")  # fmt: skip
    if args.json:
        args.json.write_text(json.dumps(found, indent=2))


if __name__ == "__main__":
    main()
