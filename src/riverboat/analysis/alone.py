"""An optional wager's own house edge, said one way everywhere (the command line, JSON,
the PAR sheet, ``compare``, the web's pay table and the terminal).

A wager the game lets a player place alone (Pair Plus without an Ante, T1; each
Baccarat bet) is analysed alone. A wager that needs others (Rabbit Hunter's Bonus and
Bad Beat, Crazy 4's Queens Up) is charged what it adds to the expected loss of the
others, each analysed under its own best play, per unit of it: what a player who adds
only it meets. Not its settlement lines' own return: Rabbit Hunter books the rabbit's
fee to the Ante line, so the Bonus's lines alone would say it returns 34.9493% more
than it costs, while placing it lowers the round's loss by 5.9890% of the Ante.

>>> from riverboat.games import find_game
>>> rules = find_game("rabbit-hunter").rules()
>>> own = wager_alone("rabbit-hunter", rules, {"ante": 1, "bonus": 1}, "bonus")
>>> f"{float(own.house_edge):.4%}"
'-5.9890%'
>>> print(own.basis)
what a Bonus adds to the expected loss of the Ante, each under its best play, per unit of it
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction

from riverboat.games import GameRules, find_game

__all__ = ["OwnEdge", "wager_alone"]


@dataclass(frozen=True)
class OwnEdge:
    """A wager's own house edge, a share of it (below zero: it lowers the loss), and
    what that share is of."""

    house_edge: Fraction
    basis: str


def may_stand_alone(game: str, rules: GameRules, wager: str) -> bool:
    """Whether the game lets ``wager`` be placed with nothing else (no spot is
    required, and it follows no other)."""
    spots = find_game(game).spec(rules).spots
    spot = next(s for s in spots if s.name == wager)
    return not spot.required and not spot.equal_to and not any(s.required for s in spots)


def wager_alone(
    game: str,
    rules: GameRules,
    wagers: Mapping[str, Fraction | int],
    wager: str,
    progress: Callable[[int, int], None] | None = None,
) -> OwnEdge:
    """``wager``'s own edge beside ``wagers`` (in base units, ``wager`` among them):
    alone where it may stand alone, else what it adds to the others' expected loss."""
    from riverboat.analysis import analyze

    spots = {s.name: s for s in find_game(game).spec(rules).spots}
    label = spots[wager].label
    if may_stand_alone(game, rules, wager):
        edge = analyze(game, rules, {wager: 1}, progress=progress).figures.house_edge
        return OwnEdge(edge, f"the {label} placed alone, as a share of it")
    placed = {name: Fraction(units) for name, units in wagers.items() if units}
    placed[wager] = placed.get(wager) or Fraction(1)
    leader = spots[wager].equal_to
    if leader is not None:
        placed[leader] = placed.get(leader) or placed[wager]
    others = {name: units for name, units in placed.items() if name != wager}
    with_it = analyze(game, rules, placed, progress=progress).figures
    without = analyze(game, rules, others, progress=progress).figures
    added = _loss(with_it.expected, placed) - _loss(without.expected, others)
    words = " and ".join(spots[name].label for name in spots if name in others)
    return OwnEdge(
        added / placed[wager],
        f"what a {label} adds to the expected loss of the {words}, each under its best play, "
        "per unit of it",
    )


def _loss(expected: Fraction, wagers: Mapping[str, Fraction]) -> Fraction:
    """A round's expected loss in base units, from its mean net result per unit of
    the total initial wager."""
    return -expected * sum(wagers.values(), Fraction(0))
