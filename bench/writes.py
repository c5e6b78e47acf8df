"""Benchmark SQLite's group commit: settled Tri-Card rounds per second with N threads
each playing rounds (deal, then raise) through ``TableService`` on an SQLite file,
with group commit (the default) and with one transaction per write
(``RIVERBOAT_GROUP_COMMIT=0``, the peer), measured alternately in one run.

No web server: the service alone, as the web app's worker threads call it. Each
configuration runs on a copy of the same database (players registered once), for
--seconds, --repeats times, alternating; the figures are medians: rounds per second,
COMMITs per settled round (each round is two writes), the process's CPU seconds per
round, the milliseconds per round that the process's write turn was held (writes are
serial there: its inverse bounds the rounds per second whatever the CPUs), and the
ratio of group commit's rounds per second to the peer's.

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

from riverboat import store
from riverboat.settings import reload
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


class TimedTurn:
    """The process's write turn (:func:`riverboat.store.write_turn`), timing how long it
    is held: the serial part of every write."""

    def __init__(self) -> None:
        self._lock = threading.RLock()
        self._depth = 0
        self._since = 0.0
        self.held = 0.0

    def acquire(self, blocking: bool = True, timeout: float = -1) -> bool:
        if not self._lock.acquire(blocking, timeout):
            return False
        self._depth += 1
        if self._depth == 1:
            self._since = time.perf_counter()
        return True

    def release(self) -> None:
        self._depth -= 1
        if self._depth == 0:
            self.held += time.perf_counter() - self._since
        self._lock.release()

    def __enter__(self) -> bool:
        return self.acquire()

    def __exit__(self, *_: object) -> None:
        self.release()


def measure(template: Path, threads: int, seconds: float, mode: str) -> dict[str, float]:
    """Rounds per second, COMMITs and CPU seconds per round, for ``threads`` players."""
    os.environ[GROUP_COMMIT] = MODES[mode]
    reload()  # the settings read the environment again: this mode's
    path = template.with_name(f"{mode}-{threads}.db")
    shutil.copy(template, path)
    turn = store._TURNS[os.path.abspath(path)] = TimedTurn()  # type: ignore[assignment]
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
    commits[0], turn.held = 0, 0.0
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
        "turn_ms_per_round": 1000 * turn.held / settled,
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
        for mode in MODES:  # warm up: imports, caches, the first rounds' setup
            measure(template, 1, 0.5, mode)
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
          f"{'CPU ms/round':>13} {'turn ms/round':>14} {'vs single':>10}")  # fmt: skip
    for threads, modes in found.items():
        for mode, row in modes.items():
            ratio = row["rounds_per_second"] / modes["single"]["rounds_per_second"]
            print(f"{threads:>7} {mode:<7} {row['rounds_per_second']:>9.1f} "
                  f"{row['commits_per_round']:>14.2f} {row['cpu_ms_per_round']:>13.2f} "
                  f"{row['turn_ms_per_round']:>14.2f} "
                  f"{ratio:>10.2f}")  # fmt: skip
    if args.json:
        args.json.write_text(json.dumps(found, indent=2))


if __name__ == "__main__":
    main()
