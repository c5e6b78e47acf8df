"""Every command in bench/ stays runnable: each answers ``--help``; each is run for real
by a test (here, briefly, for those without a test file of their own); and a new
command without a test is noticed. Speed is never judged here: bench/ measures it."""

import re
from pathlib import Path

import pytest

from bench_support import ROOT, needs_git, run_bench

BENCH = ROOT / "bench"
TESTS = ROOT / "tests"

#: bench/ commands: every script that runs as a program (the others are its modules)
COMMANDS = sorted(
    path.stem for path in BENCH.glob("*.py") if 'if __name__ == "__main__"' in path.read_text()
)

#: short runs of the commands no other test file runs, and a line each must print
QUICK: dict[str, tuple[list[str], str]] = {
    "analysis": (
        ["--games", "tri-card", "--runs", "1"],
        r"^tri-card +[\d.]+/[\d.]+ +[\d.]+/[\d.]+",
    ),
    "hints": (["--games", "tri-card", "--hands", "2", "--repeat", "1"], r"^\| tri-card \| \d"),
    "history": (["--rounds", "120", "--wagers", "2"], r"^sqlite +\d"),
    "paint": (
        ["--rounds", "1", "--repeats", "1", "--shots", "1", "--baseline-ref", "HEAD"],
        r"^Tri-Card round 390x844 vs HEAD +[\d.]+ +[\d.]+ +[\d.]+x$",
    ),
    "requests": (["--rounds", "4", "--repeats", "1"], r"^new +\d"),
    "round_parts": (
        ["--games", "tri-card", "--repeats", "1", "--baseline-ref", "HEAD", "--seconds", "0.05"],
        r"^tri-card +round +\d",
    ),
    "rounds": (
        ["--rounds", "3", "--repeats", "1", "--baseline-ref", "HEAD"],
        r"^sqlite +rabbit-hunter +\d",
    ),
    "server_cpu": (  # PostgreSQL's path: its database made and dropped too
        ["--databases", "postgresql", "--rounds", "3", "--warm", "0", "--repeat", "1"],
        r"^postgresql +new +[\d.]+ +[\d.]+ +[\d.]+$",
    ),
    "server_instructions": (  # a server under callgrind starts some five times slower
        ["--databases", "sqlite", "--rounds", "1", "--warm", "0"],
        r"^sqlite +new +[\d.]+ +[\d.]+ +[\d.]+ +[\d.]+$",
    ),
    "state": (["--requests", "20"], r"^sqlite +redis +\d+"),
    "threads": (
        ["--threads", "4,2", "--players", "3", "--seconds", "0.3", "--repeats", "1",
         "--database", "sqlite"],
        r"^ +2 +[\d.]+ +[\d.]+x +[\d.]+ +[\d.]+x$",
    ),
}


def run_by_another_test(name: str) -> bool:
    """Whether a test file other than this one runs ``bench/NAME.py``."""
    quoted = rf"""["'/]{name}\.py["']"""
    pattern = re.compile(rf'{quoted}|"bench"\s*/\s*"{name}\.py"|run_bench\(\s*"{name}"')
    for path in TESTS.glob("test_*.py"):
        if path.name != Path(__file__).name and pattern.search(path.read_text()):
            return True
    return False


def test_the_bench_commands_are_found() -> None:
    assert {"simulate", "evaluators", "load", "multi", "hints"} <= set(COMMANDS)
    assert "worktrees" not in COMMANDS
    assert "arguments" not in COMMANDS


@pytest.mark.parametrize("name", COMMANDS)
def test_every_bench_command_answers_help(name: str) -> None:
    done = run_bench(name, "--help", timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: "), done.stdout


@pytest.mark.parametrize("name", COMMANDS)
def test_every_bench_command_is_run_by_a_test(name: str) -> None:
    assert name in QUICK or run_by_another_test(name), (
        f"bench/{name}.py is run by no test: add its short run to QUICK here "
        "or a tests/test_bench_*.py of its own"
    )


@pytest.mark.parametrize("name", sorted(QUICK))
def test_a_short_run_prints_its_figures(name: str) -> None:
    if "--baseline-ref" in QUICK[name][0]:
        needs_git()
    arguments, line = QUICK[name]
    done = run_bench(name, *arguments, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    assert re.search(line, done.stdout, re.MULTILINE), done.stdout


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (["--baseline-ref", "no-such-ref"], "--baseline-ref: 'no-such-ref' names no commit"),
        (
            ["--databases", "postgresql", "--postgres", "postgresql+psycopg://postgres@127.0.0.1:1"],
            "no database there",
        ),
        (["--databases", "mysql"], "--databases: mysql? (sqlite, postgresql)"),
    ],
)
@pytest.mark.parametrize("bench", ["server_instructions", "server_cpu"])
def test_the_server_benches_refuse_a_bad_argument_in_a_line(
    bench: str, arguments: list[str], said: str
) -> None:
    needs_git()
    done = run_bench(bench, "--rounds", "1", *arguments, timeout=120)
    assert done.returncode == 2
    assert said in done.stderr
    assert "Traceback" not in done.stderr


def test_the_load_bench_refuses_a_postgres_that_does_not_answer_in_a_line() -> None:
    arguments = ["--databases", "postgresql", "--postgres", "postgresql+psycopg://postgres@127.0.0.1:1"]
    done = run_bench("load", "--players", "1", "--seconds", "0.1", *arguments, timeout=120)
    assert done.returncode == 2
    assert "no database there" in done.stderr
    assert "Traceback" not in done.stderr
