"""Benchmark a round's own work without the database: microseconds of CPU for each
part of a round (the provably fair deal, the record, the player's views), of this
tree and of a baseline ref's tree, measured in the same run.

Each part runs in the tree's own subprocess (its own ``src`` on the path), on rounds
dealt from fixed seeds: ``deal`` is a new round's wagers and its deal from a fresh
provably fair deck or shoe (the shuffle, ``fair_cards``); ``record`` a settled
round's record; ``view`` the settled round's view for its player (its names, made
cards, description) and ``view open`` the dealt round's; ``round`` all of one round
as the service does it (deal, record, open view, decision, record, settled view,
each view's JSON). Trees take turns, ``--repeats`` times; the best of each is kept,
and the ratio is the baseline's time over this tree's (above 1: this tree is faster).

    python bench/round_parts.py [--games tri-card,crazy4,rabbit-hunter]
                                [--repeats 3] [--baseline-ref d77abd1] [--seconds 0.4]

``--seconds`` is how long each part is timed in each run (in five batches).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from load import ROOT, checked_out  # the load benchmark's trees

#: each game's round: its wagers and the decision that settles it
GAMES: dict[str, tuple[dict[str, int], str | None]] = {
    "tri-card": ({"ante": 500}, "raise"),
    "crazy4": ({"ante": 500, "super_bonus": 500}, "play"),
    "rabbit-hunter": ({"ante": 500}, "buy"),
    "baccarat": ({"player": 500}, None),
}
PARTS = ("deal", "record", "view", "view open", "round")


def _best(work: Callable[[], object], seconds: float = 0.4, runs: int = 5) -> float:
    """The best microseconds per call of ``work`` over ``runs`` timed batches."""
    count, took = 1, 0.0
    while took < seconds / runs:  # a batch of about seconds/runs
        count *= 2
        start = time.process_time()
        for _ in range(count):
            work()
        took = time.process_time() - start
    best = took
    for _ in range(runs - 1):
        start = time.process_time()
        for _ in range(count):
            work()
        best = min(best, time.process_time() - start)
    return best / count * 1e6


def measure(game: str, seconds: float = 0.4) -> dict[str, float]:
    """Microseconds per part of a round of ``game``, each part timed for about
    ``seconds`` (run inside the tree's subprocess)."""
    from riverboat.games import Round, find_game
    from riverboat.games.codec import to_json
    from riverboat.rng import FairSource
    try:
        from riverboat.table.rounds.exports import round_view
        from riverboat.table.rounds.verify import fair_cards
    except ModuleNotFoundError:  # a tree from before table/ was split into rooms
        from riverboat.table.exports import round_view  # type: ignore[no-redef]
        from riverboat.table.verify import fair_cards  # type: ignore[no-redef]

    wagers, action = GAMES[game]
    kind = find_game(game)
    nonce = [0]

    def deal() -> Round[Any]:
        game_round = kind.new_round(kind.rules())
        game_round.place_wagers(wagers)
        nonce[0] += 1
        source = FairSource("5e" * 32, "a client seed", nonce[0])
        game_round.deal(fair_cards(game, to_json(game_round.rules), source))
        return game_round

    def row(status: str) -> Any:
        seeds = {"client_seed": "a client seed", "nonce": 1, "server_seed": "5e" * 32}
        return SimpleNamespace(id=1, game=game, status=status, commitment="c" * 64, **seeds)

    def settled() -> Round[Any]:
        game_round = deal()
        while action is not None and not game_round.settled:
            game_round.act(action)
        return game_round

    def whole() -> None:
        game_round = deal()
        game_round.record()
        round_view(row("open"), game_round, 100_000, False, False).model_dump_json()
        if action is not None and not game_round.settled:
            game_round.act(action)
        game_round.record()
        round_view(row("settled"), game_round, 100_000, True, False).model_dump_json()

    done, dealt = settled(), deal()
    return {
        "deal": _best(deal, seconds),
        "record": _best(done.record, seconds),
        "view": _best(lambda: round_view(row("settled"), done, 100_000, True, False), seconds),
        "view open": _best(lambda: round_view(row("open"), dealt, 100_000, False, False), seconds),
        "round": _best(whole, seconds),
    }


def run_tree(tree: Path, game: str, seconds: float) -> dict[str, float]:
    """:func:`measure` in a subprocess running ``tree``'s code."""
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    command = [sys.executable, str(Path(__file__).resolve()), "--measure", game, str(seconds)]
    done = subprocess.run(command, env=env, cwd=tree, check=True, stdout=subprocess.PIPE, text=True)
    found: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def main() -> None:
    if sys.argv[1:2] == ["--measure"]:
        seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 0.4
        print(json.dumps(measure(sys.argv[2], seconds)))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="tri-card,crazy4,rabbit-hunter", help="comma-separated")
    parser.add_argument("--repeats", type=int, default=3, help="runs of each tree (best kept)")
    parser.add_argument("--baseline-ref", default="d77abd1", help="git ref to compare against")
    parser.add_argument(
        "--seconds", type=float, default=0.4, help="how long each part is timed in a run"
    )
    args = parser.parse_args()
    if not args.seconds > 0:
        parser.error(f"--seconds must be more than 0, not {args.seconds}")
    games = args.games.split(",")
    best: dict[str, dict[str, dict[str, float]]] = {}
    with ExitStack() as stack:
        trees = {"new": ROOT, "old": stack.enter_context(checked_out(args.baseline_ref))}
        for _ in range(args.repeats):
            for game in games:
                for name, tree in trees.items():
                    found = run_tree(tree, game, args.seconds)
                    kept = best.setdefault(game, {}).setdefault(name, found)
                    for part, value in found.items():
                        kept[part] = min(kept[part], value)
    print(f"CPU us per part of a round, best of {args.repeats}; ratio = old / new")
    print(f"{'game':<15}{'part':<11}{'new us':>9}{'old us':>9}{'ratio':>8}")
    for game, by_tree in best.items():
        for part in PARTS:
            new, old = by_tree["new"][part], by_tree["old"][part]
            print(f"{game:<15}{part:<11}{new:>9.1f}{old:>9.1f}{old / new:>7.2f}x")


if __name__ == "__main__":
    main()
