"""Table-side helpers every front end calls: chip placement (R2) and Quick Replay (R10).

Wagers are a mapping of spot name to cents. Each helper returns new wagers and
leaves its input alone.

>>> from riverboat.games.rabbit_hunter import RabbitHunterRules
>>> spots = RabbitHunterRules().ante, RabbitHunterRules().bonus, RabbitHunterRules().bad_beat
>>> wagers = tap({}, "ante", 2_500, spots)
>>> wagers = tap(wagers, "bonus", 100, spots)     # the Bonus takes the Ante's amount
>>> tap(wagers, "ante", 2_500, spots)             # ... and follows it (R1)
{'ante': 5000, 'bonus': 5000, 'bad_beat': 0}
>>> hold(wagers, "ante", spots)
{'ante': 0, 'bonus': 0, 'bad_beat': 0}
>>> double({"ante": 1000, "bonus": 1000}, spots)
{'ante': 2000, 'bonus': 2000, 'bad_beat': 0}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from riverboat.games.rules import IllegalAction, Spot, check_wagers
from riverboat.money import Cents, format_money

__all__ = ["double", "hold", "quick_replay", "tap"]


def _spot(spots: tuple[Spot, ...], name: str) -> Spot:
    for spot in spots:
        if spot.name == name:
            return spot
    raise IllegalAction(
        f"there is no {name} spot; the spots are {', '.join(s.name for s in spots)}"
    )


def _placed(wagers: Mapping[str, Cents], spots: tuple[Spot, ...]) -> dict[str, Cents]:
    """The wagers on the table's spots, every spot named: a name that is no spot, or an
    amount below zero, is refused (the wagers come from a client).

    >>> from riverboat.games.tri_card import TriCardRules
    >>> _placed({"ante": -500}, (TriCardRules().ante,))
    Traceback (most recent call last):
    ...
    riverboat.errors.IllegalAction: the Ante holds -$5: a wager is 0 or more
    """
    for name in wagers:
        _spot(spots, name)
    placed = {spot.name: wagers.get(spot.name, 0) for spot in spots}
    for spot in spots:
        if placed[spot.name] < 0:
            raise IllegalAction(
                f"the {spot.label} holds {format_money(placed[spot.name])}: a wager is 0 or more"
            )
    return placed


def _follow(spots: tuple[Spot, ...], wagers: dict[str, Cents]) -> dict[str, Cents]:
    """Spots tied to another (``equal_to``) follow it: a placed or required one
    takes its amount (R1 "a placed Bonus follows it", C1)."""
    for spot in spots:
        if spot.equal_to and (spot.required or wagers[spot.name]):
            wagers[spot.name] = wagers[spot.equal_to]
    return wagers


def tap(
    wagers: Mapping[str, Cents], name: str, chip: Cents, spots: Iterable[Spot]
) -> dict[str, Cents]:
    """A tap on spot ``name`` with the selected chip (R2).

    The chip is added up to the spot's maximum; a tap on a spot already at its
    maximum resets it to zero. A spot tied to another (the Bonus to the Ante) is
    placed at, or taken off from, the other's amount.
    """
    spots = tuple(spots)
    spot = _spot(spots, name)
    if chip <= 0:
        raise IllegalAction(f"a chip is worth a positive amount, not {format_money(chip)}")
    placed = _placed(wagers, spots)
    current = placed[name]
    if spot.equal_to:
        leader = placed[spot.equal_to]
        if spot.required:
            return _follow(spots, placed)
        if not leader:
            raise IllegalAction(f"place the {_spot(spots, spot.equal_to).label} first: "
                                f"the {spot.label} equals it")  # fmt: skip
        placed[name] = 0 if current else leader
        return placed
    placed[name] = 0 if current >= spot.maximum else min(current + chip, spot.maximum)
    return _follow(spots, placed)


def hold(wagers: Mapping[str, Cents], name: str, spots: Iterable[Spot]) -> dict[str, Cents]:
    """Pressing and holding spot ``name`` resets it to zero (R2); spots tied to it follow."""
    spots = tuple(spots)
    _spot(spots, name)
    placed = _placed(wagers, spots)
    placed[name] = 0
    for spot in spots:
        if spot.equal_to == name:
            placed[spot.name] = 0
    return placed


def double(wagers: Mapping[str, Cents], spots: Iterable[Spot]) -> dict[str, Cents]:
    """Every wager placed doubled, where every spot's maximum allows it; spots tied to
    another follow it (R1). :class:`IllegalAction` names the spot that would pass its
    maximum, and nothing is doubled.

    >>> from riverboat.games.tri_card import TriCardRules
    >>> rules = TriCardRules()
    >>> double({"ante": 500, "pair_plus": 6000}, (rules.ante, rules.pair_plus))
    Traceback (most recent call last):
    ...
    riverboat.errors.IllegalAction: Double would put the Pair Plus at $120: its maximum is $100
    """
    spots = tuple(spots)
    placed = _placed(wagers, spots)
    if not any(placed.values()):
        raise IllegalAction("there is nothing to double: place a chip first")
    for spot in spots:
        if spot.equal_to:
            continue
        if placed[spot.name] * 2 > spot.maximum:
            raise IllegalAction(
                f"Double would put the {spot.label} at {format_money(placed[spot.name] * 2)}: "
                f"its maximum is {format_money(spot.maximum)}"
            )
        placed[spot.name] *= 2
    return _follow(spots, placed)


def quick_replay(
    previous: Mapping[str, Cents],
    spots: Iterable[Spot],
    balance: Cents,
    at_least_one: Iterable[str] = (),
) -> dict[str, Cents]:
    """The previous round's wagers, checked as new wagers against the limits and the
    balance (R10); :class:`IllegalAction` says why they cannot be placed again."""
    if not any(previous.values()):
        raise IllegalAction("there is no previous round to replay: place wagers and deal")
    wagers = check_wagers(tuple(spots), previous, at_least_one)
    total = sum(wagers.values())
    if total > balance:
        raise IllegalAction(
            f"Quick Replay needs {format_money(total)} and the balance is {format_money(balance)}"
        )
    return wagers
