"""Advice in words: the hint's and the coach's expected values said in the round's own
money, for a person to read, with the exact figures (per $1 of Ante, the analyzer's
unit) kept for a Details line.

An expected value is what a choice returns on average over every way the unseen cards
may fall, never what this hand will do, so every sentence says "on average". An amount
that is not whole cents is rounded for reading (:func:`riverboat.money.readable_cents`:
to the cent below $1, to 10 cents below $10, to the dollar above) and said "about"; a
whole one (a Fold's loss) is said as it is.

>>> from fractions import Fraction
>>> about(Fraction(-8275, 10)), about(Fraction(-1000)), about(Fraction(1, 3))
('about $8.30', '$10', 'less than $0.01')
>>> outcome(Fraction(-8275, 10)), outcome(Fraction(120)), outcome(Fraction(0))
('loses about $8.30', 'wins $1.20', 'breaks even')
>>> figure(Fraction(-8275, 10000)), figure(Fraction(4287, 10000))
('−0.8275', '+0.4287')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from riverboat.money import Cents, format_money, readable_cents

if TYPE_CHECKING:
    from riverboat.analysis import OptionValue

__all__ = [
    "Stakes",
    "Words",
    "about",
    "figure",
    "hint_words",
    "outcome",
    "tally_words",
    "verdict_words",
]

#: said of an amount that rounds to nothing but is not nothing
UNDER_A_CENT = "less than $0.01"


def about(cents: Fraction) -> str:
    """An amount's size in words: ``$10`` when whole cents, else ``about $8.30``
    (rounded for reading), or ``less than $0.01``."""
    if cents.denominator == 1:
        return format_money(abs(cents.numerator))
    shown = readable_cents(abs(cents))
    return f"about {format_money(shown)}" if shown else UNDER_A_CENT


def outcome(cents: Fraction) -> str:
    """What a choice does on average: ``loses about $8.30``, ``wins $5``, ``breaks even``."""
    if cents == 0:
        return "breaks even"
    return f"{'wins' if cents > 0 else 'loses'} {about(cents)}"


def figure(value: Fraction) -> str:
    """An expected value per $1 of Ante as the Details line shows it: ``−0.8275``."""
    return f"{float(value):+.4f}".replace("-", "\N{MINUS SIGN}")


@dataclass(frozen=True)
class Stakes:
    """The round's wagers as advice names them: the Ante (the analyzer's unit) in cents,
    the words for what is at stake, and whether other wagers ride along (they are
    counted per $1 of Ante in proportion)."""

    ante: Cents
    words: str  # "your $10 Ante", "your $25 in wagers"
    others: bool

    @classmethod
    def of(cls, wagers: Mapping[str, Cents], base: str, label: str) -> Stakes:
        """``wagers`` in cents, ``base`` the wager decisions go with (the Ante) and
        ``label`` its name on the felt.

        >>> Stakes.of({"ante": 1000, "bonus": 0}, "ante", "Ante").words
        'your $10 Ante'
        >>> Stakes.of({"ante": 1000, "bonus": 1000, "bad_beat": 500}, "ante", "Ante").words
        'your $25 in wagers'
        """
        placed = {name: amount for name, amount in wagers.items() if amount}
        ante = placed.get(base, 0)
        if set(placed) == {base}:
            return cls(ante, f"your {format_money(ante)} {label}", False)
        return cls(ante, f"your {format_money(sum(placed.values()))} in wagers", True)

    @property
    def unit(self) -> str:
        """The Details line's unit, saying how the other wagers are counted."""
        return "per $1 of Ante" + (" (your other wagers in proportion)" if self.others else "")


@dataclass(frozen=True)
class Words:
    """Advice in words (``text``) and its exact figures (``details``)."""

    text: str
    details: str


def hint_words(options: Sequence[OptionValue], stakes: Stakes) -> Words:
    """The hint: the best option first, then what each option does on average with the
    round's wagers, the others with how much worse they are.

    >>> from riverboat.analysis import OptionValue
    >>> options = [OptionValue("raise", "Raise", Fraction(-9934, 10000)),
    ...            OptionValue("fold", "Fold", Fraction(-1))]
    >>> words = hint_words(options, Stakes(1000, "your $10 Ante", False))
    >>> words.text.split("; ")
    ['Best: Raise. On average, with your $10 Ante, it loses about $9.90', \
'Fold loses $10 (about $0.07 worse).']
    >>> words.details
    'Expected value per $1 of Ante: Raise −0.9934, Fold −1.0000.'
    """
    best, *others = options
    said = [f"Best: {best.label}. On average, with {stakes.words}, it {_in_cents(best, stakes)}"]
    for option in others:
        worse = (best.expected - option.expected) * stakes.ante
        margin = "as good" if worse == 0 else f"{about(worse)} worse"
        said.append(f"{option.label} {_in_cents(option, stakes)} ({margin})")
    figures = ", ".join(f"{o.label} {figure(o.expected)}" for o in options)
    return Words("; ".join(said) + ".", f"Expected value {stakes.unit}: {figures}.")


def _in_cents(option: OptionValue, stakes: Stakes) -> str:
    return outcome(option.expected * stakes.ante)


def verdict_words(
    label: str,
    expected: Fraction,
    best_label: str,
    best_expected: Fraction,
    stakes: Stakes,
) -> Words:
    """The coach's verdict on a decision ``label`` worth ``expected`` per $1 of Ante,
    beside the best option's: whether it was the best play, else how much better the
    best one does on average with the round's wagers.

    >>> stakes = Stakes(1000, "your $10 Ante", False)
    >>> buy, play = Fraction(-7421, 10000), Fraction(-8275, 10000)
    >>> verdict_words("Play", play, "Buy & Play", buy, stakes).text.split(": ")
    ['Coach', 'Buy & Play was better', \
'on average, with your $10 Ante, it loses about $0.85 less than Play.']
    >>> verdict_words("Buy & Play", buy, "Buy & Play", buy, stakes).text
    'Coach: Buy & Play was the best play.'
    """
    unit = f"Expected value {stakes.unit}"
    cost = best_expected - expected
    if cost <= 0:
        return Words(
            f"Coach: {label} was the best play.", f"{unit}: {label} {figure(expected)}, the best."
        )
    cents = cost * stakes.ante
    mine, best = expected * stakes.ante, best_expected * stakes.ante
    if not readable_cents(cents):
        text = (
            f"Coach: {best_label} was better than {label}, "
            f"by {UNDER_A_CENT} on average with {stakes.words}."
        )
    else:
        if best < 0:
            differs = f"loses {about(cents)} less than {label}"
        elif mine > 0:
            differs = f"wins {about(cents)} more than {label}"
        else:
            differs = f"comes out {about(cents)} ahead of {label}"
        text = f"Coach: {best_label} was better: on average, with {stakes.words}, it {differs}."
    details = (
        f"{unit}: {label} {figure(expected)}, {best_label} {figure(best_expected)} (the best); "
        f"{label} gave up {float(cost):.4f} per $1, "
        f"{format_money(round(cents))} with {stakes.words}."
    )
    return Words(text, details)


def tally_words(decisions: int, best: int, cost_cents: float) -> str:
    """A session under the coach: its decisions, the share that were the best play, and
    what the others gave up in all, on average.

    >>> tally_words(12, 10, 420.4), tally_words(4, 4, 0.0), tally_words(0, 0, 0.0)
    ('12 decisions, 83% best; on average the others cost about $4.20 in all.', \
'4 decisions, all the best play.', 'no decisions yet.')
    """
    if not decisions:
        return "no decisions yet."
    counted = "1 decision" if decisions == 1 else f"{decisions} decisions"
    if best == decisions:
        return f"{counted}, {'the' if decisions == 1 else 'all the'} best play."
    shown = readable_cents(cost_cents)
    cost = f"about {format_money(shown)}" if shown else UNDER_A_CENT
    share = (200 * best + decisions) // (2 * decisions)  # a percent, halves up, as the page's
    return f"{counted}, {share}% best; on average the others cost {cost} in all."
