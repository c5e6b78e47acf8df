"""A game's betting circles and its pay tables in words, from its rules object: a
variant's figures are its own.

>>> from riverboat.games import find_game
>>> game = find_game("baccarat")
>>> [(line.name, line.pays) for line in felt_lines(game)]
[('player', '1 to 1'), ('banker', '95 to 100 (5% commission)'), ('tie', '8 to 1')]
>>> pays_text(Fraction(3, 2)), pays_text(Fraction(25, 2)), pays_text(Fraction(40))
('3 to 2', '25 to 2', '40 to 1')
>>> hand_words("Three Of A Kind"), hand_words("Pair of 10s or Higher")
('Three of a Kind', 'Pair of 10s or higher')
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from riverboat.games import Game
from riverboat.games.baccarat import BaccaratRules
from riverboat.games.crazy4 import Crazy4Rules
from riverboat.games.rabbit_hunter import RabbitHunterRules
from riverboat.games.rules import PayTable
from riverboat.games.tri_card import TriCardRules
from riverboat.hands import FIVE_CARD, FOUR_CARD, THREE_CARD, HandRanking
from riverboat.money import format_money
from riverboat.table.felt_rounds import line_names
from riverboat.table.felt_views import LineInfo, PaySection

__all__ = ["felt_lines", "hand_words", "pay_sections", "pays_text"]

#: words that stay lower case inside a hand's name
_SMALL_WORDS = {"of", "a", "an", "or", "and", "to", "the", "higher", "better"}


def pays_text(pays: Fraction) -> str:
    """ "X to 1" in words, or "3 to 2" for a fraction."""
    if pays.denominator == 1:
        return f"{pays.numerator} to 1"
    return f"{pays.numerator} to {pays.denominator}"


def hand_words(label: str) -> str:
    """A pay line's hand as people write it: "Three of a Kind", not "Three Of A Kind"."""
    first, *rest = label.split(" ")
    return " ".join([first, *(w.lower() if w.lower() in _SMALL_WORDS else w for w in rest)])


def _rows(table: PayTable) -> list[list[str]]:
    return [[hand_words(line.label), pays_text(line.pays)] for line in table.lines]


def _pays_table(table: PayTable) -> str:
    only = table.lines[0] if len(table.lines) == 1 else None
    return pays_text(only.pays) if only is not None else "pay table"


def _at_least(ranking: HandRanking, key: tuple[int, ...]) -> str:
    """ "Queen-high", "Pair of Tens": the weakest hand that reaches a rules key."""
    name = ranking.describe(ranking.lowest(*key))
    return f"a {name}" if name.startswith("Pair") else name


def _banker_pays(commission: Fraction) -> str:
    pays = 1 - commission
    percent = f"{float(commission * 100):g}%"
    if (pays * 100).denominator == 1:
        return f"{pays * 100} to 100 ({percent} commission)"
    return f"{pays_text(pays)} ({percent} commission)"


# ------------------------------------------------------------------ lines
def felt_lines(game: Game[Any], rules: Any = None) -> list[LineInfo]:
    """Every betting circle of the game under ``rules`` (its default if None): the
    spots placed before the deal, then the lines a decision places."""
    rules = game.rules() if rules is None else rules
    spec = game.spec(rules)
    spots = {spot.name: spot for spot in spec.spots}
    placed_by: dict[str, str] = {}
    for option in spec.options:
        if option.line and option.line not in placed_by:
            placed_by[option.line] = option.action
    for option in spec.options:  # R4: a fee is first paid by the option that pays it
        if option.fee_line and option.fee_line not in placed_by:
            placed_by[option.fee_line] = option.action
    names = line_names(spec)
    labels, pays = _line_words(rules)
    for name in names:
        if name not in placed_by and name not in spots:
            placed_by[name] = next(o.action for o in spec.options if o.stake and o.line)
    return [
        LineInfo(
            name=name,
            label=spots[name].label if name in spots else labels[name],
            placed_by=None if name in spots else placed_by[name],
            pays=pays[name],
        )
        for name in names
    ]


def _line_words(rules: Any) -> tuple[dict[str, str], dict[str, str]]:
    """Labels of the lines that are not spots, and what every line pays."""
    if isinstance(rules, RabbitHunterRules):
        return {"play": "Play", "fee": "Rabbit fee"}, {
            "ante": "1 to 1",
            "play": "1 to 1",
            "fee": "never returned",
            "bonus": _pays_table(rules.bonus_table),
            "bad_beat": f"{pays_text(rules.bad_beat_pays)} both ways",
        }
    if isinstance(rules, TriCardRules):
        return {"raise": "Raise", "ante_bonus": "Ante Bonus"}, {
            "ante": "1 to 1",
            "raise": _pays_table(rules.raise_table),
            "ante_bonus": "pay table, on the Ante",
            "pair_plus": _pays_table(rules.pair_plus_table),
        }
    if isinstance(rules, Crazy4Rules):
        return {"play": "Play"}, {
            "ante": "1 to 1",
            "play": "1 to 1",
            "super_bonus": _pays_table(rules.super_bonus_table),
            "queens_up": _pays_table(rules.queens_up_table),
        }
    if isinstance(rules, BaccaratRules):
        return {}, {
            "player": "1 to 1",
            "banker": _banker_pays(rules.commission),
            "tie": pays_text(rules.tie_pays),
        }
    raise TypeError(f"no felt for rules of type {type(rules).__name__}")


# ------------------------------------------------------------- pay tables
def pay_sections(game: Game[Any], rules: Any = None) -> list[PaySection]:
    """The game's pay tables and rules in words, one section per wager, from ``rules``
    (the default variant's if None)."""
    rules = game.rules() if rules is None else rules
    if isinstance(rules, RabbitHunterRules):
        return _rabbit_hunter(rules)
    if isinstance(rules, TriCardRules):
        return _tri_card(rules)
    if isinstance(rules, Crazy4Rules):
        return _crazy4(rules, game)
    if isinstance(rules, BaccaratRules):
        return _baccarat(rules)
    raise TypeError(f"no pay table for rules of type {type(rules).__name__}")


def _rabbit_hunter(rules: RabbitHunterRules) -> list[PaySection]:
    qualifies = _at_least(FIVE_CARD, rules.dealer_qualifies)
    bad_beat = _at_least(FIVE_CARD, rules.bad_beat_at_least)
    sections = [
        PaySection(
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
        PaySection(
            title="Rabbit fee",
            rows=[["Buy & Play", "a fee equal to the Ante, never returned"]],
            notes=[
                "Buy & Play pays a fee equal to the Ante for a sixth card, the rabbit, and "
                "places a Play wager equal to the Ante.",
                "The fee goes to the house: it is never returned and never paid on.",
                "Your hand is the best five of your six cards.",
            ],
        ),
        PaySection(
            title="Bonus",
            rows=_rows(rules.bonus_table),
            notes=[
                "Equal to the Ante. Pays on your final hand (with the rabbit when bought), "
                "win or lose, whatever the dealer holds.",
                "Any other hand loses. Lost on Fold.",
            ],
        ),
        PaySection(
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
        sections.append(
            PaySection(
                title="Maximum payout",
                rows=[],
                notes=[
                    f"A round's winnings, all wagers together, are capped at "
                    f"{format_money(rules.max_payout)}."
                ],
            )
        )
    return sections


def _tri_card(rules: TriCardRules) -> list[PaySection]:
    qualifies = _at_least(THREE_CARD, rules.dealer_qualifies)
    return [
        PaySection(
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
        PaySection(
            title="Raise",
            rows=_rows(rules.raise_table),
            notes=["Paid when your hand beats a qualifying dealer's."],
        ),
        PaySection(
            title="Ante Bonus",
            rows=_rows(rules.ante_bonus_table),
            notes=["Paid on the Ante when you raise, whatever the dealer holds."],
        ),
        PaySection(
            title="Pair Plus",
            rows=_rows(rules.pair_plus_table),
            notes=[
                "Pays on your hand alone, whatever the dealer holds. Lost on Fold.",
                "With a Pair Plus and no Ante there is no decision.",
            ],
        ),
    ]


def _crazy4(rules: Crazy4Rules, game: Game[Any]) -> list[PaySection]:
    qualifies = _at_least(FOUR_CARD, rules.dealer_qualifies)
    most_from = _at_least(FOUR_CARD, rules.raise_up_to_3x_at_least)
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
    blind = game.spec(rules).blind_play
    if blind is not None:
        notes.append(
            f"A second betting position plays blind: it always plays {blind}x the Ante and "
            "is shown at the showdown."
        )
    return [
        PaySection(
            title="Ante and Play",
            rows=[
                ["Your hand beats a qualifying dealer's", "Ante and Play 1 to 1"],
                ["The dealer does not qualify", "Ante pushes, Play 1 to 1"],
                ["Equal hands, the dealer qualifies", ties],
                ["The dealer's hand is higher", "Ante and Play lose"],
            ],
            notes=notes,
        ),
        PaySection(
            title="Super Bonus",
            rows=_rows(rules.super_bonus_table),
            notes=["Equal to the Ante. Pays win or lose. Lost on Fold.", below],
        ),
        PaySection(
            title="Queens Up",
            rows=_rows(rules.queens_up_table),
            notes=["Pays on your hand alone, whatever the dealer holds. Lost on Fold."],
        ),
    ]


def _baccarat(rules: BaccaratRules) -> list[PaySection]:
    return [
        PaySection(
            title="Player",
            rows=[["Player wins", "1 to 1"], ["Tie", "push"]],
            notes=["The hand nearer 9 wins."],
        ),
        PaySection(
            title="Banker",
            rows=[["Banker wins", _banker_pays(rules.commission)], ["Tie", "push"]],
            notes=[
                f"A Banker win pays 1 to 1 less a {float(rules.commission * 100):g}% "
                "commission on the win, rounded down to the cent."
            ],
        ),
        PaySection(
            title="Tie",
            rows=[["Player and Banker totals equal", pays_text(rules.tie_pays)]],
            notes=["Loses when either hand wins."],
        ),
        PaySection(
            title="Drawing rules",
            rows=[],
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
