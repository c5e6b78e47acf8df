"""What several benchmarks share: another commit of this repository checked out beside
this tree, to be measured in the same run (``from worktrees import checked_out``; a
bench script's own folder is on its import path)."""

from __future__ import annotations

import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@contextmanager
def checked_out(ref: str) -> Iterator[Path]:
    """``ref`` in a temporary detached worktree of this repository, removed after."""
    with tempfile.TemporaryDirectory() as folder:
        tree = Path(folder) / "base"
        git = ["git", "-C", str(ROOT)]
        subprocess.run([*git, "worktree", "add", "--detach", "-q", str(tree), ref], check=True)
        try:
            yield tree
        finally:
            subprocess.run([*git, "worktree", "remove", "--force", str(tree)], check=True)


def is_commit(ref: str) -> bool:
    """Whether ``ref`` names a commit of this repository (a ``--baseline-ref`` to check
    before a worktree of it is made)."""
    asked = ["git", "-C", str(ROOT), "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"]
    return subprocess.run(asked, capture_output=True, check=False).returncode == 0
