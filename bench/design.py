"""Benchmark the pay-table search (`riverboat design`): for each game, a search of at
least 1,000 candidates, its setup (the count, read from disk or made, and one settle
per varied pay) and its cost per candidate after that, beside the peer it replaces
measured in the same run: one candidate analysed from nothing, its own count of
every deal included (what a search without the per-class counts would pay for each
candidate).

    python bench/design.py [--games tri-card,crazy4,rabbit-hunter,baccarat] [--json FILE]

The searches, each with at least 1,000 candidates:
- Tri-Card: Pair Plus Straight Flush, Trips, Straight, Flush over ranges around the
  standard table (a side wager alone: no decision);
- Crazy 4: the Super Bonus's Straight, Flush, Trips and Straight Flush (the Play
  decision re-optimised for each candidate);
- Rabbit Hunter: the Bonus's Flush, Straight, Trips and Full House (the Play and
  the rabbit re-optimised for each);
- Baccarat: the commission and the Tie's pay (exact distribution, no decision).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from fractions import Fraction
from math import prod
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from riverboat.analysis.design import Band, Target, Vary, search, vary, with_pays
from riverboat.games import find_game

SEARCHES = {
    "tri-card": [
        "pair_plus.Straight Flush=35..45",
        "pair_plus.Three of a kind=25..35",
        "pair_plus.Straight=5..7",
        "pair_plus.Flush=3..5",
    ],
    "crazy4": [
        "super_bonus.Straight=1..2:0.5",
        "super_bonus.Flush=1..2:0.5",
        "super_bonus.Three of a Kind=1..5",
        "super_bonus.Straight Flush=10..30:1",
        "super_bonus.Four of a Kind=30..60:10",
    ],
    "rabbit-hunter": [
        "bonus.Flush=6..10",
        "bonus.Straight=5..8",
        "bonus.Three of a Kind=3..6",
        "bonus.Full House=20..30:1",
        "bonus.Two Pairs=1..2",
    ],
    "baccarat": ["commission=0.02..0.06:0.0001", "tie_pays=7..9:0.5"],
}
#: the band each search keeps, in percent
BANDS = {"tri-card": "2..5", "crazy4": "2..4", "rabbit-hunter": "2..4", "baccarat": "0..10"}


def one_candidate_from_nothing(game: str, varies: list[Vary], pays: tuple[Fraction, ...]) -> float:
    """Seconds to analyse one candidate with nothing kept: its classes, its count of
    every deal and its best play (the disk cache bypassed); Baccarat's coups counted
    again for its decks."""
    from riverboat.analysis.adapters import game_math, heads_up_game
    from riverboat.analysis.report import figures
    from riverboat.analysis.solution import Solution

    rules = with_pays(find_game(game).rules(), varies, pays)
    start = time.perf_counter()
    if not find_game(game).spec(rules).options:
        from riverboat.games.baccarat.exact import coup_counts

        coup_counts.cache_clear()
        outcomes = game_math(rules).outcomes
        assert outcomes is not None
        figures(outcomes(rules), {"banker": Fraction(1)})
        return time.perf_counter() - start
    model = heads_up_game(rules)
    model.__dict__["classes"] = model._find_classes()
    counted = model.line_totals(model.hands[0])
    _ = Solution(model, {"ante": Fraction(1)}, *model.hands, counted).choice
    return time.perf_counter() - start


def run(game: str) -> dict[str, float]:
    rules = find_game(game).rules()
    varies = [vary(rules, text) for text in SEARCHES[game]]
    weighed = prod(len(v.values) for v in varies)
    found = search(game, rules, varies, target=Target(edge=Band.parse(BANDS[game], "band")))
    peer = one_candidate_from_nothing(game, varies, tuple(v.values[0] for v in varies))
    per = found.per_candidate
    return {
        "candidates": weighed,
        "kept": len(found.kept),
        "setup_seconds": found.setup_seconds,
        "ms_per_candidate": per * 1000,
        "one_from_nothing_seconds": peer,
        "ratio": peer / per if per else float("inf"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(SEARCHES))
    parser.add_argument("--json", type=Path)
    options = parser.parse_args()
    results = {}
    for game in options.games.split(","):
        if game not in SEARCHES:
            parser.error(f"no search for {game!r}; the games are {', '.join(SEARCHES)}")
        figures = run(game)
        results[game] = figures
        print(
            f"{game}: {figures['candidates']:,.0f} candidates, {figures['kept']:,.0f} kept; "
            f"setup {figures['setup_seconds']:.2f} s; "
            f"{figures['ms_per_candidate']:.3f} ms a candidate; "
            f"one candidate from nothing {figures['one_from_nothing_seconds']:.2f} s: "
            f"the search is {figures['ratio']:,.0f}x faster a candidate",
            flush=True,
        )
    if options.json is not None:
        options.json.write_text(json.dumps(results, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
