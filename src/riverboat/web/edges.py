"""Each game's house edge, worked out once per process in the background (the
analyzer takes seconds; Rabbit Hunter half a minute); the pay tables show it when ready."""

from __future__ import annotations

import threading

from riverboat.games import GAMES

__all__ = ["house_edge", "start_house_edges"]

_EDGES: dict[str, float] = {}
_STARTED = threading.Event()


def house_edge(game: str) -> float | None:
    """The game's house edge, or None while it is being worked out."""
    return _EDGES.get(game)


def start_house_edges() -> None:
    """Start working out every registered game's edge, once per process."""
    if _STARTED.is_set():
        return
    _STARTED.set()

    def work() -> None:
        from riverboat.analysis import analyze

        # the games with the fewest cards a round first: their analyses are the quickest
        for name in sorted(GAMES, key=lambda name: GAMES[name].spec().cards_per_round()):
            _EDGES[name] = float(analyze(name).figures.house_edge)

    threading.Thread(target=work, daemon=True, name="house-edges").start()
