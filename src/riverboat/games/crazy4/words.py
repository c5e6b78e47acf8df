"""Crazy 4 Poker's betting circles, pay tables and rules in brief in words, from its
rules.

>>> for sentence in how_to_play(Crazy4Rules())[3:]:
...     print(sentence)
The dealer qualifies with king-high or better; if not, the Ante pushes and the Play
wins. A hand that does not beat a qualifying dealer loses.
The Super Bonus pays on a straight or better, win or lose; below that it pushes unless
the dealer's hand is higher.
>>> for sentence in how_to_play(Crazy4Rules.standard())[3:]:
...     print(sentence)
The dealer qualifies with king-high or better; if not, the Ante pushes and the Play
wins. Against a qualifying dealer, equal hands push; a lower hand loses.
The Super Bonus pays on a straight or better, win or lose; below that it pushes unless
a qualifying dealer's hand is higher.
"""

from __future__ import annotations

from riverboat.games.crazy4.play import Crazy4Rules, spec
from riverboat.games.words import LineWords, Section, at_least, pays_table, rows, weakest_paid
from riverboat.hands import FOUR_CARD

__all__ = ["how_to_play", "line_words", "pay_sections"]


def how_to_play(rules: Crazy4Rules) -> tuple[str, ...]:
    """The rules in brief (R11): the wagers (C1), the hands (C2), the Play (C3), the
    qualifier and the ties (C4, C5) and the Super Bonus below a straight (C6)."""
    qualifies = at_least(FOUR_CARD, rules.dealer_qualifies).lower()
    ties = (
        "Against a qualifying dealer, equal hands push; a lower hand loses."
        if rules.ties_push
        else "A hand that does not beat a qualifying dealer loses."
    )
    return (
        "Ante and Super Bonus (equal) are required; Queens Up is optional.",
        "Five cards each; the best four count. Four Aces top the ranking, and a flush "
        "beats a straight.",
        _play(rules),
        f"The dealer qualifies with {qualifies} or better; if not, the Ante pushes and the "
        f"Play wins. {ties}",
        _super_bonus(rules),
    )


def _play(rules: Crazy4Rules) -> str:
    """C3: Fold, or a Play of 1x the Ante, more with a strong enough hand."""
    if rules.max_play_multiple == 1:
        return "Fold, or play 1x the Ante."
    most_from = at_least(FOUR_CARD, rules.raise_up_to_3x_at_least).lower()
    most = rules.max_play_multiple
    return f"Fold, or play 1x the Ante; with {most_from} or better, up to {most}x."


def _super_bonus(rules: Crazy4Rules) -> str:
    """C6: what the Super Bonus pays on, and when it pushes below that."""
    weakest = weakest_paid(FOUR_CARD, rules.super_bonus_table)
    dealer = (
        "a qualifying dealer's hand"
        if rules.super_bonus_pushes_on_no_qualify
        else "the dealer's hand"
    )
    if weakest is None:
        return f"The Super Bonus pays on no hand; it pushes unless {dealer} is higher."
    return (
        f"The Super Bonus pays on {weakest.lower()} or better, win or lose; below that it "
        f"pushes unless {dealer} is higher."
    )


def line_words(rules: Crazy4Rules) -> LineWords:
    """The Play's label, and what every line pays."""
    return LineWords(
        {"play": "Play"},
        {
            "ante": "1 to 1",
            "play": "1 to 1",
            "super_bonus": pays_table(rules.super_bonus_table),
            "queens_up": pays_table(rules.queens_up_table),
        },
    )


def pay_sections(rules: Crazy4Rules) -> list[Section]:
    """Ante and Play (C3-C5), the Super Bonus (C6) and Queens Up (C7)."""
    qualifies = at_least(FOUR_CARD, rules.dealer_qualifies)
    most_from = at_least(FOUR_CARD, rules.raise_up_to_3x_at_least)
    ties = "Ante and Play push" if rules.ties_push else "Ante and Play lose"
    below = (
        "Below a straight it pushes when your hand beats or ties the dealer's, or when the "
        "dealer does not qualify; it loses when the dealer's hand is higher."
        if rules.super_bonus_pushes_on_no_qualify
        else "Below a straight it pushes when your hand beats or ties the dealer's and loses "
        "when the dealer's hand is higher, qualified or not."
    )
    notes = [
        f"The dealer qualifies with {qualifies} or better.",
        f"Play 1x the Ante; with {most_from} or better, any whole-dollar amount up to "
        f"{rules.max_play_multiple}x. Fold loses the Ante, Super Bonus and Queens Up.",
        "Each hand is the best four of five cards: Four Aces rank highest, then Four of a "
        "Kind, Straight Flush, Three of a Kind, Flush, Straight, Two Pair, Pair, high card.",
    ]
    blind = spec(rules).blind_play
    if blind is not None:
        notes.append(
            f"A second betting position plays blind: it always plays {blind}x the Ante and "
            "is shown at the showdown."
        )
    return [
        Section(
            title="Ante and Play",
            rows=[
                ["Your hand beats a qualifying dealer's", "Ante and Play 1 to 1"],
                ["The dealer does not qualify", "Ante pushes, Play 1 to 1"],
                ["Equal hands, the dealer qualifies", ties],
                ["The dealer's hand is higher", "Ante and Play lose"],
            ],
            notes=notes,
        ),
        Section(
            title="Super Bonus",
            rows=rows(rules.super_bonus_table),
            notes=["Equal to the Ante. Pays win or lose. Lost on Fold.", below],
        ),
        Section(
            title="Queens Up",
            rows=rows(rules.queens_up_table),
            notes=["Pays on your hand alone, whatever the dealer holds. Lost on Fold."],
        ),
    ]
