"""bench/commands.py stays runnable: one timed run of each small command prints every
figure it promises (this tree alone: a worktree of another commit is the bench's own
business)."""

import shutil

import pytest

from bench_support import run_bench


def test_bench_commands_runs_and_prints_its_figures() -> None:
    done = run_bench("commands", "--runs", "1", "--commands", "help,history,verify,audit")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("cores: ")
    rows = {line.split()[0]: line.split()[1:] for line in lines if line.split()}
    for command in ("play", "--help", "history", "verify", "audit"):
        first, wall, spread, cpu = rows[command]
        assert min(float(first), float(wall), float(cpu)) > 0, rows[command]
        assert "-" in spread
    assert any(line.startswith("0.5 s or more (median wall):") for line in lines)
    assert lines[-1].startswith("load: before")


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="--instructions counts with valgrind")
def test_bench_commands_counts_instructions() -> None:
    done = run_bench("commands", "--runs", "1", "--commands", "help", "--instructions")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    counted = lines.index("instructions carried out, one run under callgrind each")
    assert lines[counted + 1].split() == ["riverboat", "...", "M", "instr"]
    name, millions = lines[counted + 2].split()
    assert name == "--help"
    assert float(millions) > 10  # a Python process that imports Typer: tens of millions
