"""bench/simulate.py stays runnable: a short run of one game against HEAD checked out
in a temporary worktree prints and writes every figure it promises (never judged on
its speed here)."""

import json
from pathlib import Path

from bench_support import needs_git, run_bench


def test_bench_simulate_runs_and_reports_every_figure(tmp_path: Path) -> None:
    needs_git()
    out = tmp_path / "figures.json"
    arguments = ["--games", "tri-card", "--rate-rounds", "300000", "--rounds", "300000"]
    done = run_bench("simulate", *arguments, "--runs", "1", "--base", "HEAD", "--json", str(out))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("cores: ")
    assert lines[-1].startswith("load average: at the start")
    assert any(line.startswith("tri-card ") and "M/s per core" in line for line in lines)
    figures = json.loads(out.read_text())
    assert figures["base"] == "HEAD"
    assert [(row["game"], row["workers"]) for row in figures["rates"]] == [
        ("tri-card", 1),
        ("tri-card", 2),
    ]
    for row in figures["rates"]:
        assert min(row["wall"]) > 0
        assert min(row["base_wall"]) > 0
        assert row["ratio"] > 0
    assert len(figures["rates"][0]["cpu"]) == 1
    for end in figures["end_to_end"]:
        assert min(end["seconds"]) > 0
        assert end["ratio"] > 0
    assert figures["targets"][0]["end_to_end"] is None  # judged on 10 M rounds only
