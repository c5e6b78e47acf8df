"""Baccarat's betting circles, pay tables and rules in brief in words, from its rules.

>>> for sentence in how_to_play(BaccaratRules())[2:]:
...     print(sentence)
Player pays 1 to 1, Banker 1 to 1 less 5% commission, Tie 8 to 1 (Player and Banker
push on a tie).
Cards come from a shoe of 8 decks; when the cut card, 14 cards from the end, comes out,
the coup finishes and the shoe is reshuffled.
>>> line_words(BaccaratRules(commission=Fraction(1, 40))).pays["banker"]
'39 to 40 (2.5% commission)'
"""

from __future__ import annotations

from fractions import Fraction

from riverboat.games.baccarat.play import BaccaratRules
from riverboat.games.words import LineWords, Section, counted, pays_text

__all__ = ["how_to_play", "line_words", "pay_sections"]


def how_to_play(rules: BaccaratRules) -> tuple[str, ...]:
    """The rules in brief (R11): the wagers (B2), the card values (B3), the drawing
    rules (B4-B6), the pays and the commission (B7) and the shoe (B1)."""
    commission = f" less {_percent(rules.commission)} commission" if rules.commission else ""
    return (
        "Bet on Player, Banker or Tie, in any combination. Tens and pictures count "
        "0, aces 1; a total is the sum's last digit.",
        "Eight or nine on two cards is a natural: both stand. Otherwise the Player "
        "draws on 0 to 5 and the Banker draws by the third-card table.",
        f"Player pays 1 to 1, Banker 1 to 1{commission}, Tie {pays_text(rules.tie_pays)} (Player "
        "and Banker push on a tie).",
        f"Cards come from a shoe of {counted(rules.decks, 'deck')}; when the cut card, "
        f"{counted(rules.cut_card_from_end, 'card')} from the end, comes out, the coup "
        "finishes and the shoe is reshuffled.",
    )


def _percent(commission: Fraction) -> str:
    """ "5%", "2.5%": a commission as people write it."""
    return f"{float(commission * 100):g}%"


def _banker_pays(rules: BaccaratRules) -> str:
    """What a Banker win pays (B7): "95 to 100 (5% commission)"."""
    if not rules.commission:
        return "1 to 1"
    pays, percent = rules.banker_pays, _percent(rules.commission)
    if (pays * 100).denominator == 1:
        return f"{pays * 100} to 100 ({percent} commission)"
    return f"{pays_text(pays)} ({percent} commission)"


def line_words(rules: BaccaratRules) -> LineWords:
    """What Player, Banker (B7's commission) and Tie pay."""
    return LineWords(
        {},
        {
            "player": "1 to 1",
            "banker": _banker_pays(rules),
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
            rows=[["Banker wins", _banker_pays(rules)], ["Tie", "push"]],
            notes=[
                f"A Banker win pays 1 to 1 less a {_percent(rules.commission)} commission on "
                "the win, rounded down to the cent."
                if rules.commission
                else "A Banker win pays 1 to 1, with no commission."
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
                f"The shoe holds {counted(rules.decks, 'deck')}.",
            ],
        ),
    ]
