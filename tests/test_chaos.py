"""The chaos suite in CI: ``bench/chaos.py`` for one turn of every fault, a fault every
4 seconds (tests/chaos.py is its harness). Two server processes, a Redis and a
PostgreSQL database of the suite's own, two players at each shared table and one at
their own, and every fault in turn (the holder killed, the holder frozen past its
lease, Redis killed and started again empty, the database's connections terminated,
the network to both slow); then every round is checked. Its figures are printed
(``pytest -s``); ``python bench/chaos.py`` runs it for ten minutes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from chaos import FAULTS

ROOT = Path(__file__).resolve().parent.parent


def test_under_every_fault_no_money_no_decision_and_no_secret_is_lost() -> None:
    # every kind of fault once, however long that takes on a loaded machine (a fixed
    # minute injected three kinds of five at a load of 17). Fewer players than the
    # bench's own run (6 shared, 2 own) and no half minute of play: about 0.7x the CPU
    # of half a minute with those (33 CPU s against 48, the test alone in one process;
    # seen then: 776 rounds settled, 15 decisions carried out through the faults, 221
    # own-table rounds)
    command = [sys.executable, str(ROOT / "bench" / "chaos.py"), "--seconds", "1"]
    done = subprocess.run(
        [*command, "--every", "4", "--cycles", "1", "--shared", "4", "--own", "1", "--json"],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.stdout.strip(), done.stderr[-3000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    print(f"\nchaos: {found}")
    assert found["violations"] == []
    assert done.returncode == 0
    assert set(found["faults"]) == set(FAULTS)  # every kind of fault was injected
    assert found["rounds"].get("settled", 0) >= 30  # the tables dealt on through them
    assert found["decisions"].get("carried out", 0) >= 5
    assert found["own_table_rounds"] >= 10
    trips = found["round_trip_seconds"]  # the slow network was slow: 50 ms each way
    assert trips["slow"] is not None, "no slow network was measured"
    assert trips["slow"] >= 0.1 > trips["fast"], trips
