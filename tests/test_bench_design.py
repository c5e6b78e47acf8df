"""bench/design.py stays runnable: its quick games print every figure it promises."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_bench_design_runs_and_prints_its_figures(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "RIVERBOAT_CACHE_DIR": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "design.py"), "--games", "tri-card,baccarat"],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == ["tri-card", "baccarat"]
    for line in lines:
        for figure in ("candidates", "kept", "setup", "ms a candidate", "from nothing", "x faster"):
            assert figure in line, line
        weighed = int(line.split(": ")[1].split(" candidates")[0].replace(",", ""))
        assert weighed >= 1000
