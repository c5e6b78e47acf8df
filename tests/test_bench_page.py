"""bench/page.py stays runnable: its shortest run prints every figure it promises."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_bench_page_runs_and_prints_its_figures() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "page.py"), "--taps", "3"],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    for figure in ("first visit:", "second visit", "chip tap to chip drawn:", "drawn / answered:"):
        assert figure in done.stdout, done.stdout
