"""What the tests of bench/ share: a bench command run as a program from the
repository's root, and a skip where no git history holds a commit to compare with."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run_bench(name: str, *arguments: str, timeout: float = 900) -> subprocess.CompletedProcess[str]:
    """``python bench/NAME.py ARGUMENTS``: its exit code and what it printed."""
    command = [sys.executable, str(ROOT / "bench" / f"{name}.py"), *arguments]
    return subprocess.run(
        command, cwd=ROOT, capture_output=True, text=True, timeout=timeout, check=False
    )


def needs_git() -> None:
    """Skip a bench run that checks HEAD out in a worktree, outside a git checkout."""
    git = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True)
    if git.returncode != 0:
        pytest.skip("not a git checkout: no base to check out")
