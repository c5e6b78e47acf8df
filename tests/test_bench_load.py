"""``bench/load.py`` and ``bench/multi.py`` stay runnable: a few players for a second
or two on SQLite and PostgreSQL (one server), and on PostgreSQL and Redis (one and two
servers, shared-table seats included), each figure they promise given (never judged
on its speed here)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run(script: str, *arguments: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / script), *arguments],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done


def test_the_load_bench_plays_on_both_databases_and_costs_each_round(tmp_path: Path) -> None:
    found = tmp_path / "load.json"
    done = _run("load.py", "--players", "3", "--seconds", "1", "--json", str(found))
    rows = {row["database"]: row for row in json.loads(found.read_text())}
    assert set(rows) == {"sqlite", "postgresql"}
    for database, row in rows.items():
        (run,) = row["runs"]
        assert run["settled"] > 0
        assert run["paced_settled"] > 0
        assert run["rounds_per_s"] > 0
        assert run["paced_p99_ms"] > 0
        assert run["server_ms"] > 0
        assert run["paced_server_ms"] > 0
        assert (run["database_ms"] > 0) == (database == "postgresql")  # its backends'
        assert 0 < run["machine_busy"] <= 1
        assert run["tracebacks"] == 0
    assert "postgresql / sqlite, same run" in done.stdout


def test_the_multi_process_bench_plays_own_and_shared_tables(tmp_path: Path) -> None:
    found = tmp_path / "multi.json"
    done = _run(
        "multi.py", "--players", "2", "--seats", "2", "--seconds", "2", "--json", str(found)
    )
    medians = json.loads(found.read_text())["medians"]
    assert set(medians) == {"1 local", "1", "2"}
    for setup, kinds in medians.items():
        assert kinds["own"]["settled"] > 0, setup
        assert kinds["shared"]["settled"] > 0, setup  # the shared table's seats played
        assert kinds["cost"]["server_ms"] > 0
        assert kinds["cost"]["database_ms"] > 0
    assert "2 processes / 1, both on Redis, same run" in done.stdout
