"""The --wagers lists: base units for the analyzer and the simulator, dollars at the table."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:
    from riverboat.games.rules import Spot

_IN_UNITS = (
    "a wager is NAME or NAME=AMOUNT in base units, at most 1000 and no finer than 1/1000, "
    "e.g. bad_beat=0.5"
)
_IN_DOLLARS = "a wager is NAME=DOLLARS in whole cents, e.g. ante=10 or ante=12.50"
#: the largest wager in base units, and the finest step (a denominator)
_MOST_UNITS = 1000
#: dollars with up to two decimals: at most $9,999,999.99, beyond every table's limits
_DOLLARS = re.compile(r"\$?([0-9]{1,7})(?:\.([0-9]{1,2}))?")


def _wager_parts(text: str, form: str) -> Iterator[tuple[str, str, str]]:
    """Each ``NAME[=AMOUNT]`` of a ``--wagers`` list as (name, amount as given, the
    part); ``form`` says what a wager looks like. A wager named twice is refused."""
    seen: set[str] = set()
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, amount = part.partition("=")
        name = name.strip().replace("-", "_")
        if not name:
            raise typer.BadParameter(f"{part!r}: {form}", param_hint="--wagers")
        if name in seen:
            raise typer.BadParameter(
                f"{name} is named twice: give each wager once", param_hint="--wagers"
            )
        seen.add(name)
        yield name, amount.strip(), part


def _parse_wagers(text: str) -> dict[str, Fraction]:
    """``"ante,bonus,bad_beat=1/2"``: each named wager, 1 base unit unless given."""
    wagers = {}
    for name, amount, part in _wager_parts(text, _IN_UNITS):
        try:
            units = Fraction(amount or 1)
        except (ValueError, ZeroDivisionError):
            units = None
        if units is None or abs(units) > _MOST_UNITS or units.denominator > _MOST_UNITS:
            raise typer.BadParameter(f"{part!r}: {_IN_UNITS}", param_hint="--wagers")
        wagers[name] = units
    return wagers


def _parse_money_wagers(text: str, spots: Sequence[Spot] = ()) -> dict[str, int]:
    """``"ante=10,bonus=10"``: amounts in dollars, into cents. With the game's
    ``spots``, an amount that is no dollar figure is refused with its spot's limits."""
    limits = {spot.name: spot for spot in spots}
    wagers = {}
    for name, amount, part in _wager_parts(text, _IN_DOLLARS):
        dollars = _DOLLARS.fullmatch(amount)
        if dollars is None:
            spot = limits.get(name)
            allowed = f"; the {spot.label} takes {spot.limits()}" if spot else ""
            raise typer.BadParameter(f"{part!r}: {_IN_DOLLARS}{allowed}", param_hint="--wagers")
        wagers[name] = int(dollars[1]) * 100 + int((dollars[2] or "0").ljust(2, "0"))
    return wagers
