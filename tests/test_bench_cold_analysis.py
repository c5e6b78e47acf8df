"""bench/cold_analysis.py stays runnable: Tri-Card (the shortest analysis) once in each
setting against HEAD checked out in a temporary worktree prints and writes every
figure it promises (never judged on its speed here)."""

import json
from pathlib import Path

from bench_support import needs_git, run_bench


def test_bench_cold_analysis_runs_and_reports_every_figure(tmp_path: Path) -> None:
    needs_git()
    out = tmp_path / "figures.json"
    arguments = ["--games", "tri-card", "--runs", "1", "--base", "HEAD", "--profile"]
    done = run_bench("cold_analysis", *arguments, "--json", str(out))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("cores: ")
    assert lines[-1].startswith("load average: at the start")
    assert any(line.startswith("profile, this tree, tri-card") for line in lines)
    figures = json.loads(out.read_text())
    assert figures["base"] == "HEAD"
    assert [(row["setting"], row["game"]) for row in figures["runs"]] == [
        ("warm", "tri-card"),
        ("first", "tri-card"),
    ]
    for row in figures["runs"]:
        assert min(row["wall"]) > 0
        assert min(row["cpu"]) > 0
        assert min(row["base_wall"]) > 0
        assert row["ratio_wall"] > 0
        assert row["ratio_cpu"] > 0
    assert figures["targets"] == []  # Tri-Card has none
    assert "ncalls" in figures["profiles"]["tri-card"]["base"]
