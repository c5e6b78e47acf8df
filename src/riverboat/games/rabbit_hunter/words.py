"""Rabbit Hunter's betting circles, pay tables and rules in brief in words, from its
rules.

>>> for sentence in how_to_play(RabbitHunterRules())[2:]:
...     print(sentence)
The dealer qualifies with ace-high or better; if not, the Ante pushes. The Play wager
always meets the dealer's hand: higher wins 1 to 1, equal pushes.
The Bonus pays on your final hand, from a pair of tens up, win or lose.
Bad Beat pays 10 to 1 when the losing hand, yours or the dealer's, is a pair of tens or
better; a tie is not a loss.
A round's winnings are capped at $50,000.
"""

from __future__ import annotations

from riverboat.games.rabbit_hunter.play import RabbitHunterRules
from riverboat.games.words import (
    LineWords,
    Section,
    at_least,
    pays_table,
    pays_text,
    rows,
    weakest_paid,
)
from riverboat.hands import FIVE_CARD
from riverboat.money import format_money

__all__ = ["how_to_play", "line_words", "pay_sections"]


def how_to_play(rules: RabbitHunterRules) -> tuple[str, ...]:
    """The rules in brief (R11): the wagers (R1), the decisions (R4), the qualifier and
    the showdown (R5, R6), the Bonus (R7), Bad Beat (R8) and the cap (R9)."""
    qualifies = at_least(FIVE_CARD, rules.dealer_qualifies).lower()
    bonus = weakest_paid(FIVE_CARD, rules.bonus_table)
    bad_beat = at_least(FIVE_CARD, rules.bad_beat_at_least).lower()
    sentences = [
        "Place an Ante; the Bonus (equal to the Ante) and the 2-Way Bad Beat are optional.",
        "You and the dealer get five cards. Fold (every wager lost), Play (a Play wager "
        "equal to the Ante) or Buy & Play: pay a fee equal to the Ante for a sixth card, "
        "the rabbit, and play the best five of six.",
        f"The dealer qualifies with {qualifies} or better; if not, the Ante pushes. The Play "
        "wager always meets the dealer's hand: higher wins 1 to 1, equal pushes.",
        f"The Bonus pays on your final hand, from {bonus.lower()} up, win or lose."
        if bonus
        else "The Bonus pays on no hand.",
        f"Bad Beat pays {pays_text(rules.bad_beat_pays)} when the losing hand, yours or the "
        f"dealer's, is {bad_beat} or better; a tie is not a loss.",
    ]
    if rules.max_payout is not None:
        sentences.append(f"A round's winnings are capped at {format_money(rules.max_payout)}.")
    return tuple(sentences)


def line_words(rules: RabbitHunterRules) -> LineWords:
    """The Play's, the rabbit fee's and the cap's labels (R9's cap is a line of the
    settlement with no circle), and what every line pays."""
    return LineWords(
        {"play": "Play", "fee": "Rabbit fee", "cap": "Payout cap"},
        {
            "ante": "1 to 1",
            "play": "1 to 1",
            "fee": "never returned",
            "bonus": pays_table(rules.bonus_table),
            "bad_beat": f"{pays_text(rules.bad_beat_pays)} both ways",
        },
    )


def pay_sections(rules: RabbitHunterRules) -> list[Section]:
    """Ante and Play (R5-R6), the rabbit fee (R4), the Bonus (R7), Bad Beat (R8), the cap (R9)."""
    qualifies = at_least(FIVE_CARD, rules.dealer_qualifies)
    bad_beat = at_least(FIVE_CARD, rules.bad_beat_at_least)
    sections = [
        Section(
            title="Ante and Play",
            rows=[
                ["Your hand beats a qualifying dealer's", "Ante and Play 1 to 1"],
                ["The dealer does not qualify, your hand is higher", "Ante pushes, Play 1 to 1"],
                ["Equal hands", "Ante and Play push"],
                ["The dealer's hand is higher", "Ante and Play lose"],
            ],
            notes=[
                f"The dealer qualifies with {qualifies} or better; if not, the Ante pushes.",
                "The Play always meets the dealer's hand, qualified or not: the higher hand "
                "wins 1 to 1, equal hands push.",
                "Play places a Play wager equal to the Ante; Fold loses every wager, the "
                "Bonus and Bad Beat included.",
            ],
        ),
        Section(
            title="Rabbit fee",
            rows=[["Buy & Play", "a fee equal to the Ante, never returned"]],
            notes=[
                "Buy & Play pays a fee equal to the Ante for a sixth card, the rabbit, and "
                "places a Play wager equal to the Ante.",
                "The fee goes to the house: it is never returned and never paid on.",
                "Your hand is the best five of your six cards.",
            ],
        ),
        Section(
            title="Bonus",
            rows=rows(rules.bonus_table),
            notes=[
                "Equal to the Ante. Pays on your final hand (with the rabbit when bought), "
                "win or lose, whatever the dealer holds.",
                "Any other hand loses. Lost on Fold.",
            ],
        ),
        Section(
            title="2-Way Bad Beat",
            rows=[[f"The losing hand is {bad_beat} or better", pays_text(rules.bad_beat_pays)]],
            notes=[
                "Both ways: it pays when the hand that loses the showdown, yours or the "
                f"dealer's, is {bad_beat} or better (two pair and above count).",
                "A tie is not a loss: the wager loses. Lost on Fold.",
            ],
        ),
    ]
    if rules.max_payout is not None:
        sections.append(_cap(rules.max_payout))
    return sections


def _cap(max_payout: int) -> Section:
    """R9: a round's winnings capped."""
    capped = f"A round's winnings, all wagers together, are capped at {format_money(max_payout)}."
    return Section(title="Maximum payout", notes=[capped])
