"""Crash safety: a process playing rounds is killed (SIGKILL) at random moments, again
and again; after each restart the ledger balances, no round is half settled and every
acknowledged wager and decision is there (G7).

Each player process is forked from one that has imported riverboat and dealt a round
of each game in memory (:func:`~riverboat.games.warm.warm_up`), as ``riverboat
serve`` does before it listens: what a fresh interpreter spends on its imports (some
two CPU seconds here, six times a test) is spent once. Nothing of the database is
opened before the fork: each player connects, recovers and plays as a process of its
own, and dies by SIGKILL as one.
"""

import contextlib
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
import os
import random
import sys

from riverboat.games import IllegalAction
from riverboat.games.warm import warm_up
from riverboat.table.service import TableService

warm_up()
for _ in sys.stdin:  # each line: a player forked, played until killed, reaped
    child = os.fork()
    if child:
        os.waitpid(child, 0)
        print(f"\\ndead {child}", flush=True)  # after a line the kill may have cut short
        continue
    random.seed()
    print(f"child {os.getpid()}", flush=True)
    break
else:  # no more players asked for
    sys.exit()

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
    players = subprocess.Popen(
        [sys.executable, "-c", PLAYER, database_url],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=os.environ.copy(),
    )
    assert players.stdin is not None
    assert players.stdout is not None
    alive: int | None = None  # a player the forking process has not said it reaped
    try:
        for _ in range(6):
            players.stdin.write("play\n")
            players.stdin.flush()
            born = players.stdout.readline()
            assert born.startswith("child "), born
            child = alive = int(born.split()[1])
            dead = f"dead {child}\n"  # the forking process's word that it was reaped
            line = ""
            for _ in range(generator.randint(1, 12)):  # let it acknowledge a few steps
                line = players.stdout.readline()
                if line in ("", dead):
                    break
                _acknowledge(line, started, acted)
            if line == dead:  # it stopped by itself: nothing left to kill
                alive = None
                continue
            time.sleep(generator.uniform(0, 0.05))  # and die somewhere in the next one
            os.kill(child, signal.SIGKILL)
            for line in players.stdout:  # what it acknowledged before it died
                if line == dead:
                    alive = None
                    break
                _acknowledge(line, started, acted)
    finally:
        players.kill()
        players.wait()
        if alive is not None:  # stopped half way (a failure, ^C): it would play on alone
            with contextlib.suppress(ProcessLookupError):
                os.kill(alive, signal.SIGKILL)
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
