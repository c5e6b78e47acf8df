"""A game's pay tables and betting circles in words: the pieces each game's
``words`` module builds its sections from.

>>> from fractions import Fraction
>>> pays_text(Fraction(3, 2)), pays_text(Fraction(25, 2)), pays_text(Fraction(40))
('3 to 2', '25 to 2', '40 to 1')
>>> hand_words("Three Of A Kind"), hand_words("Pair of 10s or Higher")
('Three of a Kind', 'Pair of 10s or higher')
>>> from riverboat.cards import Rank
>>> from riverboat.hands import FIVE_CARD, FiveCard
>>> at_least(FIVE_CARD, (FiveCard.PAIR, Rank.TEN)), at_least(FIVE_CARD, (FiveCard.STRAIGHT,))
('a Pair of Tens', 'a Straight')
>>> at_least(FIVE_CARD, (FiveCard.HIGH_CARD, Rank.ACE)), at_least(FIVE_CARD, (FiveCard.TWO_PAIR,))
('Ace-high', 'Two Pair')
>>> from riverboat.games.rabbit_hunter.play import BONUS_TABLE
>>> weakest_paid(FIVE_CARD, BONUS_TABLE), weakest_paid(FIVE_CARD, PayTable("none", ()))
('a Pair of Tens', None)
>>> counted(1, "card"), counted(8, "deck")
('1 card', '8 decks')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

from riverboat.games.rules import PayTable

if TYPE_CHECKING:
    from riverboat.hands import HandRanking

__all__ = [
    "LineWords",
    "Section",
    "at_least",
    "counted",
    "hand_words",
    "pays_table",
    "pays_text",
    "rows",
    "weakest_paid",
]

#: words that stay lower case inside a hand's name
_SMALL_WORDS = {"of", "a", "an", "or", "and", "to", "the", "higher", "better"}
#: the first words of hand names that take no "a" ("Two Pair", "Four Aces", "Queen-high")
_NO_ARTICLE = {"two", "three", "four", "high"}


@dataclass(frozen=True)
class Section:
    """One wager's pay table and rules in words: rows of [hand, pays], then notes."""

    title: str
    rows: list[list[str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class LineWords:
    """What a game's betting circles are called and pay, under one set of rules.

    ``labels``: the lines a decision places and those settlement adds (the spots
    carry their own labels); ``pays``: what every betting circle pays, in words.
    """

    labels: Mapping[str, str]
    pays: Mapping[str, str]


def pays_text(pays: Fraction) -> str:
    """ "X to 1" in words, or "3 to 2" for a fraction."""
    if pays.denominator == 1:
        return f"{pays.numerator} to 1"
    return f"{pays.numerator} to {pays.denominator}"


def hand_words(label: str) -> str:
    """A pay line's hand as people write it: "Three of a Kind", not "Three Of A Kind"."""
    first, *rest = label.split(" ")
    return " ".join([first, *(w.lower() if w.lower() in _SMALL_WORDS else w for w in rest)])


def rows(table: PayTable) -> list[list[str]]:
    """A pay table's rows: [hand, pays] in words."""
    return [[hand_words(line.label), pays_text(line.pays)] for line in table.lines]


def pays_table(table: PayTable) -> str:
    """What a line paid by ``table`` pays: its one figure, or "pay table"."""
    only = table.lines[0] if len(table.lines) == 1 else None
    return pays_text(only.pays) if only is not None else "pay table"


def at_least(ranking: HandRanking, key: tuple[int, ...]) -> str:
    """ "Queen-high", "a Pair of Tens": the weakest hand that reaches a rules key; a key
    of a category alone (a pay table's "Straight" line) names the category, "a Straight"."""
    if len(key) == 1:
        name = hand_words(ranking.categories(key[0]).name.replace("_", " ").title())
        return name if name.split()[0].lower() in _NO_ARTICLE else f"a {name}"
    name = ranking.describe(ranking.lowest(*key))
    return f"a {name}" if name.startswith("Pair") else name


def weakest_paid(ranking: HandRanking, table: PayTable) -> str | None:
    """The weakest hand a pay table pays, as :func:`at_least` names it; None if none."""
    return at_least(ranking, table.lines[-1].at_least) if table.lines else None


def counted(count: int, noun: str) -> str:
    """ "1 card", "8 decks": a count and its noun, plural unless one."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"
