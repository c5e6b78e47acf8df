"""Baccarat's betting circles and pay tables in words, from its rules."""

from __future__ import annotations

from fractions import Fraction

from riverboat.games.baccarat.play import BaccaratRules
from riverboat.games.words import LineWords, Section, pays_text

__all__ = ["line_words", "pay_sections"]


def _banker_pays(commission: Fraction) -> str:
    pays = 1 - commission
    percent = f"{float(commission * 100):g}%"
    if (pays * 100).denominator == 1:
        return f"{pays * 100} to 100 ({percent} commission)"
    return f"{pays_text(pays)} ({percent} commission)"


def line_words(rules: BaccaratRules) -> LineWords:
    """What Player, Banker (B7's commission) and Tie pay."""
    return LineWords(
        {},
        {
            "player": "1 to 1",
            "banker": _banker_pays(rules.commission),
            "tie": pays_text(rules.tie_pays),
        },
    )


def pay_sections(rules: BaccaratRules) -> list[Section]:
    """Player, Banker and Tie (B7), and the drawing rules (B3-B6)."""
    return [
        Section(
            title="Player",
            rows=[["Player wins", "1 to 1"], ["Tie", "push"]],
            notes=["The hand nearer 9 wins."],
        ),
        Section(
            title="Banker",
            rows=[["Banker wins", _banker_pays(rules.commission)], ["Tie", "push"]],
            notes=[
                f"A Banker win pays 1 to 1 less a {float(rules.commission * 100):g}% "
                "commission on the win, rounded down to the cent."
            ],
        ),
        Section(
            title="Tie",
            rows=[["Player and Banker totals equal", pays_text(rules.tie_pays)]],
            notes=["Loses when either hand wins."],
        ),
        Section(
            title="Drawing rules",
            notes=[
                "Tens and pictures count 0, aces 1; a total is the sum's last digit.",
                "A natural 8 or 9 on two cards: both stand.",
                "The Player draws on 0 to 5 and stands on 6 or 7.",
                "If the Player stood, the Banker draws on 0 to 5. Otherwise, with the "
                "Player's third card worth t, the Banker draws on 0 to 2; on 3 unless t is "
                "8; on 4 when t is 2 to 7; on 5 when t is 4 to 7; on 6 when t is 6 or 7; "
                "never on 7.",
                f"The shoe holds {rules.decks} decks.",
            ],
        ),
    ]
