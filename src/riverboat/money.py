"""Money is whole cents (G1): integers everywhere, formatted only for people.

>>> dollars(5)
500
>>> format_money(-1250), format_money(1000, signed=True), format_money(475)
('-$12.50', '+$10', '$4.75')
>>> from fractions import Fraction
>>> winnings(500, Fraction(3, 2)), winnings(500, Fraction(19, 20))  # G8 rounds down
(750, 475)
>>> format_money(readable_cents(Fraction(8275, 10)))  # an expected value, for reading
'$8.30'
"""

from __future__ import annotations

from fractions import Fraction
from typing import TypeVar

__all__ = ["Cents", "dollars", "format_money", "readable_cents", "winnings"]

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


def readable_cents(cents: Fraction | float | int) -> Cents:
    """An amount that is not whole cents (an expected value) rounded for a person to
    read: to the cent below $1, to 10 cents below $10, to the dollar from $10 up;
    halves away from zero. The band is the unrounded amount's, so $9.97 reads $10.

    >>> [readable_cents(c) for c in (Fraction(66, 10), Fraction(-845), 341.7, 1249.9)]
    [7, -850, 340, 1200]
    >>> readable_cents(Fraction(1, 3)), readable_cents(-99.5), readable_cents(999.96)
    (0, -100, 1000)
    """
    amount = abs(Fraction(cents))
    step = 1 if amount < 100 else 10 if amount < 1000 else 100
    steps, left = divmod(amount, step)
    whole = int(steps) + (1 if 2 * left >= step else 0)
    return (whole if cents >= 0 else -whole) * step


def winnings(stake: Stake, pays: Fraction | int) -> Stake:
    """What a winning stake earns at "pays X to 1", rounded down to the cent (G8);
    ``stake`` may be a number of cents or a numpy array of them."""
    ratio = Fraction(pays)
    result: Stake = stake * ratio.numerator // ratio.denominator  # type: ignore[operator,assignment]
    return result
