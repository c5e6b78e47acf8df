"""The parts of a round every game shares: its :class:`Phase`, the :class:`Choice` a
position may make, and a :class:`Position` (a betting box: its wagers, decision and
result). The round engine (:mod:`riverboat.games.engine`) moves them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from riverboat.money import Cents

__all__ = ["Choice", "Phase", "Position"]


class Phase(StrEnum):
    BETTING = "betting"
    DECIDING = "deciding"
    SETTLED = "settled"
    VOID = "void"


@dataclass(frozen=True)
class Choice:
    """A decision a position may make now, with the amount it puts in play.

    ``minimum``/``maximum`` bound the cents the choice adds (Play wager plus any
    fee); ``step`` is their granularity (100: whole dollars, C3).
    """

    action: str
    label: str
    minimum: Cents = 0
    maximum: Cents = 0
    step: Cents = 100


@dataclass
class Position:
    """A betting box: whose it is, its wagers, its decision and its result."""

    seat: str
    wagers: dict[str, Cents]
    blind: bool = False
    decision: str | None = None
    amount: Cents = 0
    result: dict[str, Cents] = field(default_factory=dict)

    @property
    def net(self) -> Cents:
        return sum(self.result.values())

    @property
    def staked(self) -> Cents:
        """Everything this box put in play: initial wagers plus the decision's amount."""
        return sum(self.wagers.values()) + self.amount
