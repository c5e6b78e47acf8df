"""``bench/writes.py`` stays runnable and measures two different things: with group
commit on, 8 writers share commits; with it off (``RIVERBOAT_GROUP_COMMIT=0``, read
again for each mode) every write commits alone."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_group_commit_bench_runs_and_its_two_modes_differ(tmp_path: Path) -> None:
    found = tmp_path / "writes.json"
    command = [sys.executable, str(ROOT / "bench" / "writes.py"), "--threads", "8"]
    done = subprocess.run(
        [*command, "--seconds", "1", "--repeats", "1", "--json", str(found)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    modes = json.loads(found.read_text())["8"]
    # each round is two writes: one commit each alone, fewer when they share
    assert modes["single"]["commits_per_round"] >= 1.9
    assert modes["group"]["commits_per_round"] < modes["single"]["commits_per_round"]
