"""``tools/code_metrics.py`` stays runnable, and what it counts that must stay at nought
does: no module reads the environment but the settings, nothing outside a game's
package names it or imports it, the page names no game."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_code_metrics_run_and_keep_the_environment_to_the_settings() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "code_metrics.py"), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    found = json.loads(done.stdout)
    assert found["environment_reads_outside_settings"] == 0
    assert found["game_names_in_the_page"] == 0
    assert found["game_names_outside_games_python"] == 0
    assert found["game_modules_imported_outside_games"] == 0  # each game read by its definition
    assert len(found["largest_modules"]) == 3
    assert found["lines_mentioning_any"] > 0
