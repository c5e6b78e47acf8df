"""The Baccarat roads against sequences worked out by hand, and their properties.

Notation in the comments: a shoe is written one letter a coup (B Banker, P Player,
T Tie); the big road's logical columns (streaks) are numbered from 0 and written
c0, c1, ...; a derived road with offset k marks the entry at row r of column c:
- r = 0: red when columns c-1 and c-1-k are the same length, else blue;
- r > 0: blue when column c-k is exactly r long (the "ping"), else red;
from row 1 of column k, or row 0 of column k+1, on. Grids are drawn as in
:func:`riverboat.games.roads.picture`, rows top to bottom, "." for an empty cell.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from riverboat.games.baccarat import winner
from riverboat.games.roads import (
    OFFSETS,
    ROWS,
    big_road,
    derived_road,
    picture,
    place,
    preview,
    roads,
)
from riverboat.table.road_views import RoadsView

LETTERS = {"B": "Banker", "P": "Player", "T": "Tie"}


def shoe(letters: str) -> list[str]:
    """A shoe's winners from one letter a coup: "BPT" -> Banker, Player, Tie."""
    return [LETTERS[letter] for letter in letters.replace(" ", "")]


def grid(*rows: str) -> list[str]:
    """A grid written out row by row, padded with empty rows to the road's height."""
    width = len(rows[0])
    return [*rows, *["." * width] * (ROWS - len(rows))]


# ------------------------------------------------------------ a mixed shoe
# BBPPPBTPBB: the bead plate takes all ten coups, six to a column:
#   c0: B B P P P B   c1: T P B B
# Big road streaks: BB | PPP | B (a tie on it) | P | BB, lengths 2 3 1 1 2.
# Big eye boy (k=1) starts at row 1 of c1:
#   c1 r1: c0 has 2 > 1 -> red     c1 r2: c0 is exactly 2 long -> blue
#   c2 r0: c1 (3) vs c0 (2) -> blue   c3 r0: c2 (1) vs c1 (3) -> blue
#   c4 r0: c3 (1) vs c2 (1) -> red    c4 r1: c3 is exactly 1 long -> blue
#   marks r b b b r b: columns r | bbb | r | b
# Small road (k=2): c2 holds one entry, so it starts at row 0 of c3:
#   c3 r0: c2 (1) vs c0 (2) -> blue   c4 r0: c3 (1) vs c1 (3) -> blue
#   c4 r1: c2 is exactly 1 long -> blue
# Cockroach pig (k=3): c3 holds one entry, so it starts at row 0 of c4:
#   c4 r0: c3 (1) vs c0 (2) -> blue   c4 r1: c1 has 3 > 1 -> red
# Next Banker extends c4 to row 2: c3, c2 are 1 long (< 2) -> red, red; c1 has 3 -> red.
# Next Player opens c5 (lengths 2 vs 1, 2 vs 1, 2 vs 3) -> blue everywhere.
MIXED = shoe("BBPPPBTPBB")


def test_mixed_shoe_bead_plate() -> None:
    plate = roads(MIXED).bead_plate
    assert picture(plate.beads) == ["BT", "BP", "PB", "PB", "P.", "B."]


def test_mixed_shoe_big_road() -> None:
    big = roads(MIXED).big_road
    assert picture(big.entries) == grid("BPBPB", "BP..B", ".P...")
    assert big.streaks == (2, 3, 1, 1, 2)
    assert [e.ties for e in big.entries] == [0, 0, 0, 0, 0, 1, 0, 0, 0]
    assert big.leading_ties == 0


def test_mixed_shoe_derived_roads() -> None:
    built = roads(MIXED)
    assert [m.colour[0] for m in built.big_eye_boy.marks] == list("rbbbrb")
    assert picture(built.big_eye_boy.marks) == grid("rbrb", ".b..", ".b..")
    assert [m.entry for m in built.big_eye_boy.marks] == [3, 4, 5, 6, 7, 8]
    assert picture(built.small_road.marks) == grid("b", "b", "b")
    assert picture(built.cockroach_pig.marks) == grid("br")
    assert (built.next_banker.big_eye_boy, built.next_banker.small_road) == ("red", "red")
    assert built.next_banker.cockroach_pig == "red"
    assert (built.next_player.big_eye_boy, built.next_player.small_road) == ("blue", "blue")
    assert built.next_player.cockroach_pig == "blue"


# ------------------------------------------------- a 9-long streak: the tail
# BBBBBBBBB PPPPPPP B: the nine Bankers fill c0's six rows, then turn right along the
# bottom row (the dragon tail) into grid columns 1-3. The Players start at the top of
# grid column 1, go down to row 4 (row 5 is the Bankers' tail) and turn right along
# row 4 into grid columns 2-3. The last Banker opens grid column 2 at the top.
# Big eye boy: c1 rows 1-6 all see c0 (9 long) reach their row -> six reds, which
# fill one derived column; c2 r0: c1 (7) vs c0 (9) -> blue, a new derived column.
# Small road and cockroach pig have not started (they need c2 r1 / c3).
# Next Banker: c2 r1 -> big eye boy sees c1 (7 long) -> red; small road sees c0 -> red.
# Next Player: c3 r0 -> c2 (1) vs c1 (7), c2 (1) vs c0 (9) -> blue, blue.
DRAGON = shoe("BBBBBBBBB PPPPPPP B")


def test_dragon_tail_on_the_big_road() -> None:
    big = big_road(DRAGON)
    assert picture(big.entries) == [
        "BPB.",
        "BP..",
        "BP..",
        "BP..",
        "BPPP",
        "BBBB",
    ]
    cells = [(e.column, e.row) for e in big.entries]
    assert cells[6:9] == [(1, 5), (2, 5), (3, 5)]
    assert cells[9 + 5 :] == [(2, 4), (3, 4), (2, 0)]
    # the logical place is unchanged by the tail
    assert [(e.streak, e.depth) for e in big.entries[6:9]] == [(0, 6), (0, 7), (0, 8)]


def test_dragon_tail_derived_roads_and_preview() -> None:
    built = roads(DRAGON)
    assert picture(built.big_eye_boy.marks) == grid("rb", "r.", "r.", "r.", "r.", "r.")
    assert built.small_road.marks == ()
    assert built.cockroach_pig.marks == ()
    assert (built.next_banker.big_eye_boy, built.next_banker.small_road) == ("red", "red")
    assert (built.next_player.big_eye_boy, built.next_player.small_road) == ("blue", "blue")
    assert built.next_banker.cockroach_pig is None
    assert built.next_player.cockroach_pig is None


def test_a_streak_turns_above_an_older_tail_and_a_new_column_skips_a_taken_top() -> None:
    # lengths 7, 6, 1, 1: the first turns at row 5 into grid column 1; the second starts
    # at grid column 1, row 0, meets the tail below row 4 and turns right at row 4 into
    # grid column 2; the third starts at the top of grid column 2; the fourth at 3.
    assert place([7, 6, 1, 1]) == (
        *((0, r) for r in range(6)),
        (1, 5),
        *((1, r) for r in range(5)),
        (2, 4),
        (2, 0),
        (3, 0),
    )
    # lengths 3, 1, then a column whose second cell is taken: with 3 rows, a 4-streak
    # tails along row 2 into grid column 1; the next streak of 3 turns at row 1 into
    # grid column 2; the next at grid column 2's top finds (2, 1) taken and turns at
    # once along row 0; the streak after it must skip to grid column 4.
    cells = place([4, 3, 3, 1], rows=3)
    assert cells == (
        (0, 0), (0, 1), (0, 2), (1, 2),
        (1, 0), (1, 1), (2, 1),
        (2, 0), (3, 0), (4, 0),
        (5, 0),
    )  # fmt: skip


# -------------------------------------------------------------------- ties
# TTBP: the two opening ties have no entry to sit on; they are kept on the first
# entry, the Banker, as leading ties. TTT: no entry yet, three leading ties held.
# TTBTTTP: two leading ties and three ties after the Banker, all on the one entry.
def test_ties_at_the_start_of_a_shoe() -> None:
    big = big_road(shoe("TTBP"))
    assert [(e.winner, e.column, e.row) for e in big.entries] == [
        ("Banker", 0, 0),
        ("Player", 1, 0),
    ]
    assert [(e.leading_ties, e.ties) for e in big.entries] == [(2, 0), (0, 0)]
    assert big.leading_ties == 2

    only_ties = roads(shoe("TTT"))
    assert only_ties.big_road.entries == ()
    assert only_ties.big_road.leading_ties == 3
    assert picture(only_ties.bead_plate.beads) == grid("T", "T", "T")
    assert only_ties.next_banker.big_eye_boy is None

    both = big_road(shoe("TTBTTTP"))
    assert [(e.leading_ties, e.ties) for e in both.entries] == [(2, 3), (0, 0)]
    assert both.ties == 5


# BBTBTTB: ties do not break a streak: four Bankers down one column, the first tie on
# the second Banker, the next two on the third.
def test_ties_mid_streak() -> None:
    big = big_road(shoe("BBTBTTB"))
    assert picture(big.entries) == grid("B", "B", "B", "B")
    assert [e.ties for e in big.entries] == [0, 1, 2, 0]
    assert big.streaks == (4,)
    # and they add nothing to the derived roads
    with_ties = roads(shoe("BPTTBBTPTP"))
    without = roads(shoe("BPBBPP"))
    for name in OFFSETS:
        assert getattr(with_ties, name) == getattr(without, name)


# ------------------------------------------------- patterns on derived roads
# A perfect chop (BPBP...): every column is 1 long, so every new column compares two
# equal lengths -> red, from c2 (big eye boy), c3 (small road), c4 (cockroach pig).
# Twelve coups: 10, 9 and 8 reds, in one derived column each, tailing along row 5.
# Next Banker opens c12: equal lengths -> red. Next Player puts row 1 in c11, and
# c10, c9, c8 are each exactly 1 long -> the ping, blue.
def test_perfect_chop_is_all_red() -> None:
    built = roads(shoe("BP" * 6))
    assert picture(built.big_road.entries) == grid("BPBPBPBPBPBP")
    for name, count in (("big_eye_boy", 10), ("small_road", 9), ("cockroach_pig", 8)):
        marks = getattr(built, name).marks
        assert [m.colour for m in marks] == ["red"] * count
        assert [(m.column, m.row) for m in marks] == [
            *((0, r) for r in range(6)),
            *((c, 5) for c in range(1, count - 5)),
        ]
    assert built.next_banker == preview(built.big_road, "Banker")
    assert (
        built.next_banker.big_eye_boy,
        built.next_banker.small_road,
        built.next_banker.cockroach_pig,
    ) == ("red", "red", "red")
    assert (
        built.next_player.big_eye_boy,
        built.next_player.small_road,
        built.next_player.cockroach_pig,
    ) == ("blue", "blue", "blue")


# BPPPPPP: c1 row 1 finds c0 exactly 1 long -> blue (the ping); rows 2-5 find c0
# ended before the row above too ("both empty") -> red. A long streak is red after it.
# BB PP BB PP: every column 2 long: rows 1 see the column before reach them -> red;
# new columns compare 2 with 2 -> red.
def test_streaks_and_double_chop_on_the_big_eye_boy() -> None:
    streak = derived_road(big_road(shoe("BPPPPPP")), 1)
    assert [m.colour for m in streak.marks] == ["blue", "red", "red", "red", "red"]
    assert picture(streak.marks) == grid("br", ".r", ".r", ".r")
    double = derived_road(big_road(shoe("BBPPBBPP")), 1)
    assert [m.colour for m in double.marks] == ["red"] * 5


def test_preview_of_a_known_position() -> None:
    # BPP: c0 is 1 long, c1 2 long. Next Player: c1 row 2, c0 ended before row 1 -> red.
    # Next Banker: c2 row 0, c1 (2) vs c0 (1) -> blue; the small road needs c3 -> None.
    road = big_road(shoe("BPP"))
    assert preview(road, "Player").big_eye_boy == "red"
    assert preview(road, "Banker").big_eye_boy == "blue"
    assert preview(road, "Banker").small_road is None
    with pytest.raises(ValueError, match="Banker or Player"):
        preview(road, "Tie")


def test_unknown_winners_are_refused() -> None:
    with pytest.raises(ValueError, match="not 'banker'"):
        roads(["banker"])


def test_roads_view() -> None:
    view = RoadsView.of(MIXED)
    assert view.rows == ROWS
    assert len(view.bead_plate) == len(MIXED)
    assert [(e.column, e.row) for e in view.big_road][:5] == [
        (0, 0),
        (0, 1),
        (1, 0),
        (1, 1),
        (1, 2),
    ]
    assert [m.colour[0] for m in view.big_eye_boy] == list("rbbbrb")
    assert view.next_player.model_dump() == {
        "big_eye_boy": "blue",
        "small_road": "blue",
        "cockroach_pig": "blue",
    }
    assert RoadsView.model_validate(view.model_dump(mode="json")) == view


def test_the_games_winner_feeds_the_roads() -> None:
    coups = [winner(7, 3), winner(6, 6), winner(0, 9)]
    assert [e.winner for e in big_road(coups).entries] == ["Player", "Banker"]


# -------------------------------------------------------------- properties
coups = st.lists(st.sampled_from(["Banker", "Player", "Tie"]), max_size=120)


def reference_marks(winners: list[str], offset: int) -> list[str]:
    """The derived road read literally off the big road's columns as lists of cells:
    a new column compares the lengths of the two columns before it ``offset`` apart; a
    later row asks whether the column ``offset`` back has this row (red), only the row
    above (blue), or neither (red)."""
    columns: list[list[str]] = []
    found: list[str] = []
    for side in winners:
        if side == "Tie":
            continue
        if columns and columns[-1][-1] == side:
            columns[-1].append(side)
        else:
            columns.append([side])
        c, r = len(columns) - 1, len(columns[-1]) - 1
        if r == 0 and c >= offset + 1:
            same = len(columns[c - 1]) == len(columns[c - 1 - offset])
            found.append("red" if same else "blue")
        elif r > 0 and c >= offset:
            back = columns[c - offset]
            has_row, has_above = len(back) > r, len(back) > r - 1
            found.append("red" if has_row or not has_above else "blue")
    return found


@given(coups)
def test_bead_plate_keeps_every_coup(winners: list[str]) -> None:
    beads = roads(winners).bead_plate.beads
    assert [b.winner for b in beads] == winners
    assert [(b.column, b.row) for b in beads] == [(i // ROWS, i % ROWS) for i in range(len(beads))]


@given(coups)
def test_big_road_keeps_every_result_and_tie(winners: list[str]) -> None:
    big = big_road(winners)
    assert [e.winner for e in big.entries] == [w for w in winners if w != "Tie"]
    assert big.ties == winners.count("Tie")
    leading = len(winners) - len("".join(w[0] for w in winners).lstrip("T"))
    assert big.leading_ties == leading
    if big.entries:
        assert big.entries[0].leading_ties == leading
    assert all(e.leading_ties == 0 for e in big.entries[1:])
    assert sum(big.streaks) == len(big.entries)


@given(coups)
def test_grids_are_drawn_cell_by_cell(winners: list[str]) -> None:
    built = roads(winners)
    roads_drawn = [built.big_road.entries] + [getattr(built, n).marks for n in OFFSETS]
    for cells in roads_drawn:
        places = [(c.column, c.row) for c in cells]
        assert len(set(places)) == len(places)
        assert all(0 <= row < ROWS for _, row in places)
        turned = False
        for before, after in itertools.pairwise(cells):
            step = (after.column - before.column, after.row - before.row)
            if before.letter == after.letter:
                # the same run goes on below, or right; once turned, only right
                assert step == (1, 0) if turned else step in ((0, 1), (1, 0))
                turned = step == (1, 0)
            else:
                turned = False
                assert after.row == 0


@given(coups)
def test_derived_roads_follow_the_standard_rules(winners: list[str]) -> None:
    built = roads(winners)
    big = built.big_road
    for name, k in OFFSETS.items():
        marks = getattr(built, name).marks
        # the start: row 1 of column k, or row 0 of column k + 1
        marked = [e for e in big.entries if e.streak > k or (e.streak == k and e.depth >= 1)]
        assert len(marks) == len(marked)
        assert [m.colour for m in marks] == reference_marks(winners, k)


@given(coups, st.sampled_from(["Banker", "Player", "Tie"]))
def test_preview_is_what_the_next_result_adds(winners: list[str], side: str) -> None:
    built, after = roads(winners), roads([*winners, side])
    for name in OFFSETS:
        before_marks, after_marks = getattr(built, name).marks, getattr(after, name).marks
        # marks never change once made
        assert after_marks[: len(before_marks)] == before_marks
        if side == "Tie":
            assert after_marks == before_marks
            continue
        expected = getattr(built.next_banker if side == "Banker" else built.next_player, name)
        if expected is None:
            assert after_marks == before_marks
        else:
            assert len(after_marks) == len(before_marks) + 1
            assert after_marks[-1].colour == expected
