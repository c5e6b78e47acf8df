"""bench/evaluators.py stays runnable: a short run, against this checkout's own colex
kernels as the baseline, prints and writes every figure it promises (never judged
on its speed here)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_bench_evaluators_runs_and_reports_every_figure(tmp_path: Path) -> None:
    git = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True)
    if git.returncode != 0:
        pytest.skip("not a git checkout: no baseline ref to read")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    out = tmp_path / "figures.json"
    command = [sys.executable, str(ROOT / "bench" / "evaluators.py"), "--hands", "20000"]
    command += ["--peer-hands", "300", "--repeat", "2", "--baseline-ref", "HEAD"]
    done = subprocess.run(
        [*command, "--json", str(out)],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "load average:" in done.stdout
    assert "baseline: HEAD's colex kernels give the same values" in done.stdout
    document = json.loads(out.read_text())
    ours = {f["evaluator"]: f for f in document["figures"] if f["kind"] == "riverboat"}
    assert set(ours) == {"evaluate5", "evaluate6", "evaluate7", "evaluate3", "evaluate4of5"}
    for figure in ours.values():
        assert figure["slowest"] <= figure["median"] <= figure["fastest"]
        assert figure["vs_numpy_lookup"] > 0
    baseline = {f["evaluator"] for f in document["figures"] if f["kind"] == "baseline"}
    assert {"HEAD evaluate5", "HEAD evaluate4of5"} <= baseline
    assert ours["evaluate5"]["vs_baseline"] > 0
    assert [t["target"].split(" ")[0] for t in document["targets"]] == [
        "5",
        "best",
        "7",
        "best",
        "3",
    ]
    if "phevaluator" in {f["evaluator"].split(".")[0] for f in document["figures"]}:
        assert ours["evaluate7"]["vs_best_peer"] > 0
