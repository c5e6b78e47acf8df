"""``bench/shoe.py`` stays runnable, and at a table too big to show every seat (more
than COMPANY_AT_ONCE players, on two processes over Redis) every player bets, is
answered and gets each coup's result, and the books balance after."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from riverboat.table.live.snapshots import COMPANY_AT_ONCE

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = COMPANY_AT_ONCE + 15


def test_a_big_shoe_on_two_processes_answers_every_bet_and_deals_everyone() -> None:
    command = [sys.executable, str(ROOT / "bench" / "shoe.py"), "--players", str(PLAYERS)]
    done = subprocess.run(
        [*command, "--seconds", "5", "--betting", "3", "--json"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    print(f"\nshoe: {found}")
    assert found["audit_problems"] == []
    assert found["refusals"] == 0, found["first_refusal"]
    assert found["coups"] >= 2
    # each coup deals everyone at most once, and nearly everyone each time (a bet that
    # misses the clock waits for the next coup)
    assert 0.9 * PLAYERS * found["coups"] <= found["rounds"] <= PLAYERS * found["coups"]
    assert found["bet_ack_p50_ms"] > 0
