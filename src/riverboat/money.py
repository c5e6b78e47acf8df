"""Money is whole cents (G1): integers everywhere, formatted only for people.

>>> dollars(5)
500
>>> format_money(-1250), format_money(1000, signed=True), format_money(475)
('-$12.50', '+$10', '$4.75')
>>> from fractions import Fraction
>>> winnings(500, Fraction(3, 2)), winnings(500, Fraction(19, 20))  # G8 rounds down
(750, 475)
"""

from __future__ import annotations

from fractions import Fraction
from typing import TypeVar

__all__ = ["Cents", "dollars", "format_money", "winnings"]

Cents = int
Stake = TypeVar("Stake")  # cents, or a numpy array of cents


def dollars(amount: int) -> Cents:
    """Whole dollars in cents."""
    return amount * 100


def format_money(cents: Cents, signed: bool = False) -> str:
    """``$12.50``, ``-$3``, or with ``signed`` ``+$10``; whole dollars drop the cents."""
    sign = "-" if cents < 0 else ("+" if signed and cents > 0 else "")
    whole, part = divmod(abs(cents), 100)
    return f"{sign}${whole:,}" + (f".{part:02d}" if part else "")


def winnings(stake: Stake, pays: Fraction | int) -> Stake:
    """What a winning stake earns at "pays X to 1", rounded down to the cent (G8);
    ``stake`` may be a number of cents or a numpy array of them."""
    ratio = Fraction(pays)
    result: Stake = stake * ratio.numerator // ratio.denominator  # type: ignore[operator,assignment]
    return result
