"""Rules as data: wager spots, pay tables, and the checks every game shares.

A game's rules are a frozen dataclass (see each game module) built from the pieces
here. Pay tables pay "X to 1" as exact fractions; :meth:`PayTable.lookup` turns a
whole array of hand values into pay-line indices, so settlement is vectorised.

>>> from riverboat.hands import FIVE_CARD, FiveCard, evaluate5
>>> bonus = PayTable("demo", (PayLine("Flush", (FiveCard.FLUSH,), Fraction(9)),
...                           PayLine("Pair of 10s or Higher", (FiveCard.PAIR, 8), Fraction(1))))
>>> bonus.line_for(FIVE_CARD, evaluate5("Th Tc 4d 3s 2h")).label
'Pair of 10s or Higher'
>>> bonus.line_for(FIVE_CARD, evaluate5("9h 9c 4d 3s 2h")) is None
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Protocol

from riverboat.errors import IllegalAction
from riverboat.games.once import by_identity
from riverboat.money import Cents, format_money

if TYPE_CHECKING:  # numpy is imported where arrays are made: reading rules needs none
    import numpy as np
    import numpy.typing as npt

    from riverboat.hands import HandRanking

__all__ = [
    "GameRules",
    "IllegalAction",
    "PayLine",
    "PayTable",
    "RulesError",
    "Spot",
    "check_wagers",
]


class GameRules(Protocol):
    """What every game's rules object has: a variant's name and the chips it offers.

    Rules are frozen dataclasses of the game's own fields (pay tables, qualifiers,
    limits), hashable, written to a round record as JSON and read back by the
    game's type.
    """

    @property
    def variant(self) -> str: ...

    @property
    def chips(self) -> tuple[Cents, ...]: ...

    def __hash__(self) -> int: ...  # frozen: rules key the analyzer's caches


class RulesError(ValueError):
    """A rules object that makes no sense (a negative pay, a minimum above its maximum)."""


@dataclass(frozen=True)
class Spot:
    """A wager spot on the felt: its limits in cents and how it relates to others.

    ``equal_to`` names a spot this one must equal when placed (Bonus = Ante, R1).
    """

    name: str
    label: str
    minimum: Cents
    maximum: Cents
    required: bool = False
    equal_to: str | None = None

    def __post_init__(self) -> None:
        if not 0 < self.minimum <= self.maximum:
            raise RulesError(
                f"{self.label}: limits must satisfy 0 < minimum <= maximum, "
                f"not {format_money(self.minimum)} to {format_money(self.maximum)}"
            )

    def limits(self) -> str:
        """``"$5 to $500"``."""
        return f"{format_money(self.minimum)} to {format_money(self.maximum)}"


@dataclass(frozen=True)
class PayLine:
    """One line of a pay table: hands at least ``at_least`` pay ``pays`` to 1.

    ``at_least`` is a hand-ranking key prefix: ``(FiveCard.PAIR, Rank.TEN)`` is "a
    pair of tens or better", ``(FiveCard.FLUSH,)`` "any flush or better".
    """

    label: str
    at_least: tuple[int, ...]
    pays: Fraction

    def __post_init__(self) -> None:
        if self.pays < 0:
            raise RulesError(f"{self.label}: a payout cannot be negative ({self.pays} to 1)")


@dataclass(frozen=True)
class PayTable:
    """Named pay lines, strongest first; a hand takes the first line it reaches."""

    name: str
    lines: tuple[PayLine, ...]

    def __post_init__(self) -> None:
        keys = [line.at_least for line in self.lines]
        if keys != sorted(keys, reverse=True) or len(set(keys)) != len(keys):
            raise RulesError(f"pay table {self.name!r}: lines must run strongest first")

    def lookup(self, ranking: HandRanking, values: npt.ArrayLike) -> npt.NDArray[np.intp]:
        """The index of each value's pay line, or -1 where none pays."""
        import numpy as np

        table: npt.NDArray[np.intp] = _line_index(self, ranking)[np.asarray(values)]
        return table

    def pays(
        self, ranking: HandRanking, values: npt.ArrayLike
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """Numerator and denominator of "X to 1" for each value (0 where none pays)."""
        index = self.lookup(ranking, values)
        numerators, denominators = _ratios(self)
        return numerators[index + 1], denominators[index + 1]

    def winnings(
        self, ranking: HandRanking, values: npt.ArrayLike, stake: npt.ArrayLike
    ) -> npt.NDArray[np.int64]:
        """What ``stake`` wins on each hand, rounded down to the cent (G8); 0 if none pays."""
        import numpy as np

        numerators, denominators = self.pays(ranking, values)
        won: npt.NDArray[np.int64] = np.asarray(stake, dtype=np.int64) * numerators // denominators
        return won

    def line_for(self, ranking: HandRanking, value: int) -> PayLine | None:
        """The pay line one hand reaches, or None."""
        index = int(self.lookup(ranking, value))
        return self.lines[index] if index >= 0 else None

    def describe(self) -> list[tuple[str, str]]:
        """(hand, "X to 1") rows for people."""
        return [(line.label, f"{_ratio_text(line.pays)} to 1") for line in self.lines]


def _ratio_text(pays: Fraction) -> str:
    if pays.denominator == 1:
        return str(pays.numerator)
    if pays.denominator == 2:
        return f"{float(pays):g}"
    return str(pays)


@by_identity
def _ratios(table: PayTable) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Numerators and denominators of a table's lines, after a 0 to 1 for no line."""
    import numpy as np

    numerators = np.array([0, *(line.pays.numerator for line in table.lines)], np.int64)
    denominators = np.array([1, *(line.pays.denominator for line in table.lines)], np.int64)
    return numerators, denominators


@by_identity
def _line_indices(table: PayTable) -> dict[HandRanking, npt.NDArray[np.intp]]:
    """A table's :func:`_line_index` by ranking, filled as they are asked for."""
    return {}


def _line_index(table: PayTable, ranking: HandRanking) -> npt.NDArray[np.intp]:
    """The index of the line each value of ``ranking`` reaches in ``table``, or -1."""
    indices = _line_indices(table)
    found = indices.get(ranking)
    if found is None:
        import numpy as np

        found = np.full(ranking.count, -1, dtype=np.intp)
        for position in range(len(table.lines) - 1, -1, -1):  # weakest first; stronger overwrite
            found[ranking.lowest(*table.lines[position].at_least) :] = position
        indices[ranking] = found
    return found


def check_wagers(
    spots: Iterable[Spot],
    wagers: Mapping[str, Cents],
    at_least_one: Iterable[str] = (),
) -> dict[str, Cents]:
    """The wagers with every spot filled (0 where none), or :class:`IllegalAction`.

    Checks each amount against its spot's limits, the spots that must be equal, the
    required spots and "at least one of" (T1, B2). Messages name the rule and the
    allowed values.
    """
    spots = tuple(spots)
    by_name = {spot.name: spot for spot in spots}
    unknown = sorted(set(wagers) - set(by_name))
    if unknown:
        raise IllegalAction(
            f"there is no {', '.join(unknown)} wager here; the spots are "
            + ", ".join(spot.name for spot in spots)
        )
    placed = {spot.name: wagers.get(spot.name, 0) for spot in spots}
    for spot in spots:
        amount = placed[spot.name]
        if isinstance(amount, bool) or not isinstance(amount, int):
            raise IllegalAction(f"{spot.label}: a wager is a whole number of cents, not {amount!r}")
        if amount == 0 and spot.required:
            raise IllegalAction(f"{spot.label} is required: place {spot.limits()}")
        if amount and not spot.minimum <= amount <= spot.maximum:
            raise IllegalAction(
                f"{spot.label} of {format_money(amount)} is outside the table limits: "
                f"{spot.limits()}"
            )
        if amount and spot.equal_to and amount != placed[spot.equal_to]:
            other = by_name[spot.equal_to].label
            raise IllegalAction(
                f"{spot.label} must equal the {other} ({format_money(placed[spot.equal_to])}), "
                f"not {format_money(amount)}"
            )
    needed = tuple(at_least_one)
    if needed and not any(placed[name] for name in needed):
        labels = " or ".join(by_name[name].label for name in needed)
        raise IllegalAction(f"place at least one wager: {labels}")
    return placed
