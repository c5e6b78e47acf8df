"""Tri-Card's betting circles and pay tables in words, from its rules."""

from __future__ import annotations

from riverboat.games.tri_card.play import TriCardRules
from riverboat.games.words import LineWords, Section, at_least, pays_table, rows
from riverboat.hands import THREE_CARD

__all__ = ["line_words", "pay_sections"]


def line_words(rules: TriCardRules) -> LineWords:
    """The Raise's and the Ante Bonus's labels, and what every line pays."""
    return LineWords(
        {"raise": "Raise", "ante_bonus": "Ante Bonus"},
        {
            "ante": "1 to 1",
            "raise": pays_table(rules.raise_table),
            "ante_bonus": "pay table, on the Ante",
            "pair_plus": pays_table(rules.pair_plus_table),
        },
    )


def pay_sections(rules: TriCardRules) -> list[Section]:
    """Ante and Raise (T4-T6), the Raise table, the Ante Bonus (T7) and Pair Plus (T8)."""
    qualifies = at_least(THREE_CARD, rules.dealer_qualifies)
    return [
        Section(
            title="Ante and Raise",
            rows=[
                ["Your hand beats a qualifying dealer's", "Ante 1 to 1, Raise by the Raise table"],
                ["The dealer does not qualify", "Ante 1 to 1, Raise pushes"],
                ["Equal hands, the dealer qualifies", "Ante and Raise push"],
                ["The dealer's hand is higher", "Ante and Raise lose"],
            ],
            notes=[
                f"The dealer qualifies with {qualifies} or better.",
                "Raise places a Raise wager equal to the Ante; Fold loses the Ante and the "
                "Pair Plus.",
                "Hands rank: Straight Flush, Three of a Kind, Straight, Flush, Pair, high "
                "card (a straight beats a flush).",
            ],
        ),
        Section(
            title="Raise",
            rows=rows(rules.raise_table),
            notes=["Paid when your hand beats a qualifying dealer's."],
        ),
        Section(
            title="Ante Bonus",
            rows=rows(rules.ante_bonus_table),
            notes=["Paid on the Ante when you raise, whatever the dealer holds."],
        ),
        Section(
            title="Pair Plus",
            rows=rows(rules.pair_plus_table),
            notes=[
                "Pays on your hand alone, whatever the dealer holds. Lost on Fold.",
                "With a Pair Plus and no Ante there is no decision.",
            ],
        ),
    ]
