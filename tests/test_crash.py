"""Crash safety: a process playing rounds is killed (SIGKILL) at random moments, again
and again; after each restart the ledger balances, no round is half settled and every
acknowledged wager and decision is there (G7)."""

import os
import random
import re
import signal
import subprocess
import sys
import time

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from riverboat.store.models import LedgerEntry, RoundRow
from riverboat.table.service import TableService

PLAYER = """
import sys
from riverboat.games import IllegalAction
from riverboat.table.service import TableService

service = TableService(sys.argv[1])
me = service.local_player()
service.recover()
games = [
    ("rabbit-hunter", {"ante": 500, "bonus": 500}, "buy"),
    ("tri-card", {"ante": 500}, "raise"),
    ("crazy4", {"ante": 500, "super_bonus": 500}, "play"),
    ("baccarat", {"banker": 500}, None),
]
turn = 0
while True:
    game, wagers, action = games[turn % len(games)]
    turn += 1
    try:
        view = service.start_round(me, game, wagers)
    except IllegalAction:
        service.top_up(me)
        continue
    print("start", view.id, flush=True)
    if view.status == "open":
        service.act(me, view.id, action)
        print("act", view.id, flush=True)
"""


def _acknowledge(line: str, started: set[int], acted: set[int]) -> None:
    """Count a whole acknowledgment line ("start 12\\n", "act 12\\n"); a line cut short
    by the kill, or anything else, is not one."""
    found = re.fullmatch(r"(start|act) (\d+)\n", line)
    if found:
        (started if found.group(1) == "start" else acted).add(int(found.group(2)))


def test_killed_at_any_moment_the_books_stay_whole(database_url: str) -> None:
    started: set[int] = set()
    acted: set[int] = set()
    generator = random.Random(7)
    for _ in range(6):
        child = subprocess.Popen(
            [sys.executable, "-c", PLAYER, database_url],
            stdout=subprocess.PIPE,
            text=True,
            env=os.environ.copy(),
        )
        assert child.stdout is not None
        for _ in range(generator.randint(1, 12)):  # let it acknowledge a few steps
            line = child.stdout.readline()
            if not line:
                break
            _acknowledge(line, started, acted)
        time.sleep(generator.uniform(0, 0.05))  # and die somewhere in the next one
        child.send_signal(signal.SIGKILL)
        child.wait()
        for line in child.stdout.read().splitlines(keepends=True):  # acknowledged before it died
            _acknowledge(line, started, acted)
    assert started, "the player acknowledged nothing"
    service = TableService(database_url)
    service.recover()
    assert service.audit() == []
    with Session(service.engine) as session:
        assert session.scalar(select(func.sum(LedgerEntry.amount))) == 0
        rows = {row.id: row.status for row in session.scalars(select(RoundRow))}
    assert started <= set(rows)  # every acknowledged wager is there
    assert all(rows[n] == "settled" for n in acted)  # and every acknowledged decision
    assert "open" not in rows.values()  # nothing left half done after recovery
    service.engine.dispose()
