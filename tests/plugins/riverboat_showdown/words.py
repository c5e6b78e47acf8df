"""Two-Card Showdown's circles, pay tables and rules in brief in words."""

from __future__ import annotations

from riverboat.games.words import LineWords, Section, at_least, pays_table, pays_text, rows
from riverboat_showdown.play import TWO_CARD, ShowdownRules

__all__ = ["how_to_play", "line_words", "pay_sections"]


def how_to_play(rules: ShowdownRules) -> tuple[str, ...]:
    """The rules in brief, from the rules: the qualifier and the Pair Up's pays."""
    qualifies = at_least(TWO_CARD, rules.dealer_qualifies).lower()
    pair_up = ", ".join(
        f"{pays_text(line.pays)} on {at_least(TWO_CARD, line.at_least).lower()}"
        for line in rules.pair_up_table.lines
    )
    return (
        "Place an Ante; the Pair Up is optional. Two cards each.",
        "Fold (every wager lost) or Play an amount equal to the Ante.",
        f"The dealer qualifies with {qualifies} or better; if not, the Ante wins 1 to 1 and "
        "the Play pushes. Otherwise the higher hand wins both 1 to 1; a pair beats two "
        "different cards.",
        f"Pair Up pays {pair_up}.",
    )


def line_words(rules: ShowdownRules) -> LineWords:
    return LineWords(
        {"play": "Play"},
        {"ante": "1 to 1", "play": "1 to 1", "pair_up": pays_table(rules.pair_up_table)},
    )


def pay_sections(rules: ShowdownRules) -> list[Section]:
    qualifies = at_least(TWO_CARD, rules.dealer_qualifies)
    return [
        Section(
            title="Ante and Play",
            rows=[
                ["Your hand beats a qualifying dealer's", "Ante and Play 1 to 1"],
                ["The dealer does not qualify", "Ante 1 to 1, Play pushes"],
                ["Equal hands", "Ante and Play push"],
                ["The dealer's hand is higher", "Ante and Play lose"],
            ],
            notes=[
                f"The dealer qualifies with {qualifies} or better.",
                "A pair beats two different cards; suits never count.",
            ],
        ),
        Section(
            title="Pair Up",
            rows=rows(rules.pair_up_table),
            notes=["Pays on your hand alone. Lost on Fold."],
        ),
    ]
