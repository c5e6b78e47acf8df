"""Variants written as files, analysed exactly, against figures found without the
analyzer: Pair Plus tables by counting three-card hands (1-3-6-30-40's 7.28% is also
published, by John Grochowski and the Wizard of Odds), Baccarat variants and Ante Bonus
tables by the published tables."""

from __future__ import annotations

from fractions import Fraction

import pytest

from riverboat.analysis import analyze
from riverboat.games.variant_files import read_variant, variant_text

#: three-card hands by Pair Plus line (T8), of C(52, 3) = 22,100: 4 x 12 straight
#: flushes, 13 x 4 trips, 12 x 64 - 48 straights, 4 x 286 - 48 flushes, 13 x 6 x 48 pairs
HANDS = {"Straight Flush": 48, "Three Of A Kind": 52, "Straight": 720, "Flush": 1096, "Pair": 3744}


def _pair_plus_edge(pays: dict[str, int]) -> Fraction:
    """Pair Plus's house edge by the counts: each losing hand loses 1, each paying
    hand wins its pay."""
    losing = 22_100 - sum(HANDS.values())
    won = sum(HANDS[hand] * pays[hand] for hand in HANDS)
    return Fraction(losing - won, 22_100)


@pytest.mark.parametrize(
    "table",
    [
        (40, 30, 6, 4, 1),  # the rulings' table (T8): 2.3167%, the Wizard of Odds' 2.32%
        (40, 30, 6, 3, 1),  # 7.2760% (7.28%)
        (40, 25, 6, 4, 1),  # 3.4932%
        (40, 30, 5, 4, 1),  # 5.5747%
        (35, 33, 6, 4, 1),  # 2.6968%
        (100, 40, 6, 3, 1),  # a table of one's own
        (50, 40, 5, 4, 1),
    ],
)
def test_pair_plus_tables_written_as_files(table: tuple[int, int, int, int, int]) -> None:
    pays = dict(zip(HANDS, table, strict=True))
    text = variant_text("tri-card").replace('variant = "standard"', 'variant = "mine"')
    for hand, pay in pays.items():
        key = f'"{hand}"' if " " in hand else hand
        start = text.index("[pair_plus_table]")
        line = next(ln for ln in text[start:].splitlines() if ln.startswith(f"{key} = "))
        text = text[:start] + text[start:].replace(line, f"{key} = {pay}", 1)
    _, rules = read_variant(text)
    figures = analyze("tri-card", rules, {"pair_plus": 1}).figures
    assert figures.house_edge == _pair_plus_edge(pays)


@pytest.mark.parametrize(
    ("change", "wager", "published"),
    [
        # the Wizard of Odds, Baccarat: the house edge by decks and pays
        (("decks = 8", "decks = 6"), "banker", "1.0558%"),
        (("decks = 8", "decks = 6"), "player", "1.2374%"),
        (("decks = 8", "decks = 6"), "tie", "14.4382%"),
        (("tie_pays = 8", "tie_pays = 9"), "tie", "4.8440%"),
        (("commission = 0.05", 'commission = "1/25"'), "banker", "0.5993%"),
        # the Wizard of Odds, Baccarat: the house edge by the number of decks
        (("decks = 8", "decks = 1"), "banker", "1.0117%"),
        (("decks = 8", "decks = 1"), "player", "1.2864%"),
        (("decks = 8", "decks = 1"), "tie", "15.7461%"),
        (("decks = 8", "decks = 2"), "banker", "1.0389%"),
        (("decks = 8", "decks = 2"), "player", "1.2565%"),
        (("decks = 8", "decks = 4"), "banker", "1.0517%"),
        (("decks = 8", "decks = 4"), "player", "1.2421%"),
        (("decks = 8", "decks = 4"), "tie", "14.5916%"),
    ],
)
def test_baccarat_variants_written_as_files(
    change: tuple[str, str], wager: str, published: str
) -> None:
    text = variant_text("baccarat").replace('variant = "8 decks"', 'variant = "mine"')
    assert change[0] in text
    _, rules = read_variant(text.replace(*change))
    figures = analyze("baccarat", rules, {wager: 1}).figures
    assert f"{float(figures.house_edge):.4%}" == published


@pytest.mark.parametrize(
    ("pays", "published"),
    [
        # John Grochowski, "Three Card Poker is easy, fun and a good bet": the Ante and
        # Play's element of risk, 2.01% at an Ante Bonus of 5-4-1 (straight flush,
        # trips, straight), 2.16% with trips at 3 to 1
        ({"Straight Flush": 5, "Three Of A Kind": 4, "Straight": 1}, "2.01%"),
        ({"Straight Flush": 5, "Three Of A Kind": 3, "Straight": 1}, "2.16%"),
    ],
)
def test_ante_bonus_tables_written_as_files(pays: dict[str, int], published: str) -> None:
    text = variant_text("tri-card").replace('variant = "standard"', 'variant = "mine"')
    start = text.index("[ante_bonus_table]")
    end = text.index("\n\n", start)
    table = "\n".join(f'"{hand}" = {pay}' if " " in hand else f"{hand} = {pay}"
                      for hand, pay in pays.items())  # fmt: skip
    _, rules = read_variant(text[:start] + "[ante_bonus_table]\n" + table + text[end:])
    figures = analyze("tri-card", rules, {"ante": 1}).figures
    assert f"{float(figures.element_of_risk):.2%}" == published
