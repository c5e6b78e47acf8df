"""Tri-Card's betting circles, pay tables and rules in brief in words, from its rules.

>>> for sentence in how_to_play(TriCardRules()):
...     print(sentence)
Place an Ante, a Pair Plus, or both. Three cards each.
With an Ante, fold (Ante and Pair Plus lost) or raise an amount equal to the Ante.
The dealer qualifies with queen-high or better; if not, the Ante wins 1 to 1 and the
Raise pushes. Otherwise the higher hand wins both at 1 to 1.
Straights beat flushes. The Ante Bonus pays on a straight or better when you raise;
Pair Plus pays on your hand alone.
"""

from __future__ import annotations

from riverboat.games.tri_card.play import TriCardRules
from riverboat.games.words import (
    LineWords,
    Section,
    at_least,
    pays_table,
    pays_text,
    rows,
    weakest_paid,
)
from riverboat.hands import THREE_CARD

__all__ = ["how_to_play", "line_words", "pay_sections"]


def how_to_play(rules: TriCardRules) -> tuple[str, ...]:
    """The rules in brief (R11): the wagers (T1, T3), the qualifier and the showdown
    (T4-T6), the Ante Bonus (T7) and Pair Plus (T8)."""
    qualifies = at_least(THREE_CARD, rules.dealer_qualifies).lower()
    bonus = weakest_paid(THREE_CARD, rules.ante_bonus_table)
    return (
        "Place an Ante, a Pair Plus, or both. Three cards each.",
        "With an Ante, fold (Ante and Pair Plus lost) or raise an amount equal to the Ante.",
        f"The dealer qualifies with {qualifies} or better; if not, the Ante wins 1 to 1 and "
        f"the Raise pushes. Otherwise the higher hand wins {_showdown_pays(rules)}.",
        "Straights beat flushes. "
        + (f"The Ante Bonus pays on {bonus.lower()} or better when you raise; " if bonus else "")
        + "Pair Plus pays on your hand alone.",
    )


def _showdown_pays(rules: TriCardRules) -> str:
    """What the higher hand wins against a qualifying dealer: the Raise by its table (T6)."""
    lines = rules.raise_table.lines
    if len(lines) != 1:
        return "the Ante at 1 to 1 and the Raise by the Raise table"
    if lines[0].pays == 1:
        return "both at 1 to 1"
    return f"the Ante at 1 to 1 and the Raise at {pays_text(lines[0].pays)}"


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
