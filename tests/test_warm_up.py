"""A server deals a round of each game in memory before it listens
(riverboat.games.warm), so that its first player's round loads nothing."""

from __future__ import annotations

import logging
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from riverboat.games.warm import warm_up


def test_warm_up_deals_every_game_and_a_failing_one_is_only_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger="riverboat.games.warm"):
        warm_up()
        assert caplog.records == []

        def broken() -> None:
            raise RuntimeError("no deck")

        warm_up([SimpleNamespace(name="broken", new_round=broken)])  # type: ignore[list-item]
    assert "a round of 'broken' could not be dealt in advance" in caplog.text


# in a fresh process: a server's warm-up (riverboat.web.app.warm_up_server), then each
# poker game's first round through the service, dealt and settled; prints how many hand
# tables the rounds built, then the modules they loaded
FIRST_ROUNDS = """
import sys
from riverboat.hands import evaluate
from riverboat.table.service import TableService
from riverboat.web.app import warm_up_server
warm_up_server()
cached = (evaluate.hand_table, evaluate._by_ranks, evaluate._best_four_of_five)
built = lambda: sum(table.cache_info().misses for table in cached)
tables = built()
service = TableService(sys.argv[1])
me = service.local_player()
before = set(sys.modules)
plays = [
    ("rabbit-hunter", {"ante": 500}, "buy"),
    ("crazy4", {"ante": 500, "super_bonus": 500}, "play"),
    ("tri-card", {"ante": 500}, "raise"),
]
for game, wagers, action in plays:
    view = service.start_round(me, game, wagers)
    assert service.act(me, view.id, action).made, game
print(built() - tables)
print(" ".join(sorted(set(sys.modules) - before)))
"""


def test_a_servers_warm_up_leaves_a_first_settled_round_nothing_to_load(tmp_path: Path) -> None:
    """The view of a settled poker round names the cards that make each hand, from the
    game's hand tables: the warm-up builds them (numba's kernels with them), so the
    first round settled at a server builds no table and loads no module, as later ones
    do not."""
    done = subprocess.run(
        [sys.executable, "-c", FIRST_ROUNDS, f"sqlite:///{tmp_path / 'first.db'}"],
        capture_output=True, text=True, timeout=300, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "in advance" not in done.stderr, done.stderr  # no game's warm-up failed
    tables, *loaded = done.stdout.splitlines()
    assert tables == "0"  # every hand table the rounds read was built before them
    assert loaded in ([], [""]), loaded
