"""A round of each game dealt and settled in memory, so that a server's first player
waits for nothing a round builds once per process.

A game's first round builds what its engine and its hand rankings keep for every later
one (a tenth of a second for Rabbit Hunter here), on the first deal's time if nobody
has paid it before. :func:`warm_up` pays it before the server listens (``riverboat
serve``). Nothing is stored and no randomness of a player's is drawn: each round deals
from a fresh deck of its own.

>>> warm_up()
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence

from riverboat.errors import IllegalAction
from riverboat.games import GAMES, GameRules, Round, SomeGame
from riverboat.games.rules import Spot
from riverboat.money import Cents

__all__ = ["warm_up"]

_log = logging.getLogger(__name__)


def warm_up(
    games: Iterable[SomeGame] | None = None,
    then: Callable[[Round[GameRules]], object] | None = None,
) -> None:
    """Deal and settle a round of each of ``games`` (default: every registered one)
    under its default rules, every spot at its minimum, each decision the last
    offered (a Play or a Raise, so that the hands are shown down), and hand each
    settled round to ``then``, if given (what a server works out from a settled round:
    :func:`riverboat.table.felt_rounds.settled_felt`). A game whose round fails is
    logged and left: a warm-up never stops a server."""
    for game in GAMES.values() if games is None else games:
        try:
            settled = _one_round(game)
        except Exception:
            _log.exception("a round of %r could not be dealt in advance", game.name)
            continue
        if then is None:
            continue
        try:
            then(settled)
        except Exception:
            _log.exception("a settled round of %r could not be shown in advance", game.name)


def _one_round(game: SomeGame) -> Round[GameRules]:
    game_round = game.new_round()
    try:
        game_round.check_wagers(_every_spot(game_round.spots))
        wagers = _every_spot(game_round.spots)
    except IllegalAction:  # spots that exclude each other: the required ones alone
        wagers = _every_spot(game_round.spots, only=game_round.at_least_one)
    game_round.place_wagers(wagers)
    game_round.deal()
    while choices := game_round.legal_actions():
        game_round.act(choices[-1].action)
    game_round.describe()
    return game_round


def _every_spot(spots: Sequence[Spot], only: Iterable[str] = ()) -> dict[str, Cents]:
    """Each spot's minimum (the required ones and ``only`` where ``only`` is given),
    a spot that must equal another at that one's amount."""
    chosen = set(only)
    wagers = {
        spot.name: spot.minimum
        for spot in spots
        if not chosen or spot.required or spot.name in chosen
    }
    for spot in spots:
        if spot.equal_to and spot.name in wagers:
            wagers[spot.name] = wagers.get(spot.equal_to, spot.minimum)
    return wagers
