"""Baccarat roads (scoreboards) of one shoe: the bead plate, the big road and the three
derived roads, with the "ask road" preview of what the next Banker or Player adds.

Pure functions of a shoe's winners in order, each "Banker", "Player" or "Tie" as
:func:`riverboat.games.baccarat.winner` names them (B7). A road belongs to one shoe:
the caller passes only the coups of the current shoe (the player's own shoe, or a
shared table's shoe) and starts again from nothing when the shoe ends.

Conventions followed: the Macau and online casino scoreboards, as the Wizard of Odds
page on baccarat road maps (the Venetian's display explained) and live-casino help
pages on the road map describe them ("analysis starts from column 2, row 2; if there
is no result at this point, from column 3, row 1" for the big eye road):

* Every grid is 6 rows high; ``(column, row)`` count from 0 at the top left.
* **Bead plate**: every coup, ties included, in columns of 6, top to bottom and then
  left to right.
* **Big road**: Banker and Player results only. A result like the one before goes
  below it; a change of winner starts a new column at the top. A tie adds no entry: it
  is counted on the entry before it (the green line drawn through that circle). Ties
  before the first Banker or Player result of the shoe are kept as *leading ties* on
  the first entry (drawn on its circle too); while a shoe has had only ties they are
  held as the road's ``leading_ties`` with no entry.
* **Dragon tail**: a streak that would go below row 5, or into a cell already taken
  (an earlier tail), turns right and goes on along that row, even where a cell below
  is free again further right. A new column starts
  at the top of the column after the previous column's first cell, or further right
  if that top cell is taken by a tail.
* **Derived roads** read the big road's *logical* columns (its streaks, however the
  grid bent them) with an offset k: 1 for the big eye boy, 2 for the small road, 3 for
  the cockroach pig. "Row" here is an entry's place in its streak, not the grid row
  a tail bent it to. Each big road entry from the road's start on adds one mark:

  - the first entry of a streak (row 0 of column c): red when columns c-1 and
    c-1-k are the same length, blue when they are not;
  - a later entry (row r > 0 of column c): red when column c-k has an entry in row
    r; blue when it has none in row r but one in row r-1 (the streak just went past
    it, the "ping"); red when it has neither (both empty).

  A road starts at the first entry for which its columns exist: row 1 of column k, or,
  when column k holds one entry, row 0 of column k+1 (counting columns from 0: the big
  eye boy starts at column 2 row 2 in the usual 1-based words, else at column 3 row
  1; the small road at column 3 row 2, else column 4 row 1; the cockroach pig at
  column 4 row 2, else column 5 row 1). Marks are placed like the big road's: a change of
  colour starts a new column, 6 rows, with tails turning right.
* **Preview** (ask road): the mark each derived road would add if the next coup were
  a Banker, or a Player, result; ``None`` where the road would not have started yet.
  A tie adds nothing to any derived road.

>>> shoe = ["Tie", "Banker", "Banker", "Player", "Tie", "Banker", "Player", "Player"]
>>> road = roads(shoe)
>>> print("\\n".join(picture(road.big_road.entries)))
BPBP
B..P
....
....
....
....
>>> [(e.winner, e.ties, e.leading_ties) for e in road.big_road.entries[:3]]
[('Banker', 0, 1), ('Banker', 0, 0), ('Player', 1, 0)]
>>> [m.colour for m in road.big_eye_boy.marks]
['blue', 'red', 'blue']
>>> road.next_banker.big_eye_boy, road.next_player.big_eye_boy
('blue', 'red')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

__all__ = [
    "COLOURS",
    "OFFSETS",
    "ROWS",
    "Bead",
    "BeadPlate",
    "BigRoad",
    "BigRoadEntry",
    "Colour",
    "DerivedMark",
    "DerivedRoad",
    "Preview",
    "Roads",
    "bead_plate",
    "big_road",
    "derived_road",
    "picture",
    "place",
    "preview",
    "roads",
]

#: the height of every road's grid
ROWS = 6
#: a derived road's mark
Colour = Literal["red", "blue"]
COLOURS: tuple[Colour, Colour] = ("red", "blue")
#: each derived road's column offset
OFFSETS = {"big_eye_boy": 1, "small_road": 2, "cockroach_pig": 3}
_WINNERS = frozenset({"Banker", "Player", "Tie"})
_SIDES = ("Banker", "Player")


def _check(winners: Iterable[str]) -> tuple[str, ...]:
    coups = tuple(winners)
    for coup in coups:
        if coup not in _WINNERS:
            raise ValueError(f"a coup's winner is Banker, Player or Tie, not {coup!r}")
    return coups


# ----------------------------------------------------------------- placement
def place(streaks: Sequence[int], rows: int = ROWS) -> tuple[tuple[int, int], ...]:
    """Grid cells ``(column, row)`` for the entries of streaks of these lengths, in
    order, the way the big road and the derived roads draw them: down a column, turning
    right along the bottom row or above a cell already taken (the dragon tail).

    >>> place([2, 1])
    ((0, 0), (0, 1), (1, 0))
    >>> place([8])  # a streak of 8: six down, then two along the bottom row
    ((0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (1, 5), (2, 5))
    >>> place([7, 6])[7:]  # the next streak meets the tail and turns right above it
    ((1, 0), (1, 1), (1, 2), (1, 3), (1, 4), (2, 4))
    >>> place([4, 3, 3], rows=3)[7:]  # once turned, right on past the free (3, 1)
    ((2, 0), (3, 0), (4, 0))
    """
    taken: set[tuple[int, int]] = set()
    cells: list[tuple[int, int]] = []
    start = -1
    for length in streaks:
        start += 1
        while (start, 0) in taken:
            start += 1
        column, row, turned = start, 0, False
        for depth in range(length):
            if depth:
                # once turned, a tail keeps going right even where a cell below is free
                turned = turned or row + 1 == rows or (column, row + 1) in taken
                if turned:
                    column += 1
                else:
                    row += 1
            taken.add((column, row))
            cells.append((column, row))
    return tuple(cells)


def picture(cells: Iterable[Bead | BigRoadEntry | DerivedMark], rows: int = ROWS) -> list[str]:
    """A road's grid as text, one string per row, "." for an empty cell: the first
    letter of a bead's or an entry's winner, "r" or "b" for a red or blue mark.

    >>> picture(bead_plate(["Banker", "Tie", "Player"], rows=2).beads, rows=2)
    ['BP', 'T.']
    """
    found = {(cell.column, cell.row): cell.letter for cell in cells}
    width = 1 + max((column for column, _ in found), default=-1)
    return ["".join(found.get((c, r), ".") for c in range(width)) for r in range(rows)]


# ---------------------------------------------------------------- bead plate
@dataclass(frozen=True)
class Bead:
    """One coup on the bead plate."""

    winner: str
    column: int
    row: int

    @property
    def letter(self) -> str:
        return self.winner[0]


@dataclass(frozen=True)
class BeadPlate:
    """Every coup of the shoe, in columns of 6."""

    beads: tuple[Bead, ...]


def bead_plate(winners: Iterable[str], rows: int = ROWS) -> BeadPlate:
    """The bead plate: coup i at column i // 6, row i % 6.

    >>> [(b.winner, b.column, b.row) for b in bead_plate(["Tie"] * 7).beads][5:]
    [('Tie', 0, 5), ('Tie', 1, 0)]
    """
    coups = _check(winners)
    return BeadPlate(tuple(Bead(w, i // rows, i % rows) for i, w in enumerate(coups)))


# ------------------------------------------------------------------ big road
@dataclass(frozen=True)
class BigRoadEntry:
    """A Banker or Player result on the big road.

    ``streak`` and ``depth`` are its logical place (the streak's index from 0, its
    place in the streak from 0), which the derived roads read; ``column`` and ``row``
    its cell in the grid, where a dragon tail has turned. ``ties`` counts the ties that
    followed it; ``leading_ties``, on the first entry only, the ties that opened the
    shoe before it.
    """

    winner: str
    streak: int
    depth: int
    column: int
    row: int
    ties: int = 0
    leading_ties: int = 0

    @property
    def letter(self) -> str:
        return self.winner[0]


@dataclass(frozen=True)
class BigRoad:
    """The big road: its entries in order, and the ties of a shoe that has had no
    Banker or Player result yet (the same count as the first entry's ``leading_ties``
    once there is one)."""

    entries: tuple[BigRoadEntry, ...]
    leading_ties: int = 0

    @property
    def streaks(self) -> tuple[int, ...]:
        """The length of each logical column.

        >>> big_road(["Banker", "Banker", "Tie", "Player"]).streaks
        (2, 1)
        """
        lengths: list[int] = []
        for entry in self.entries:
            if entry.depth == 0:
                lengths.append(0)
            lengths[-1] += 1
        return tuple(lengths)

    @property
    def ties(self) -> int:
        """Every tie of the shoe: the leading ones and those marked on entries."""
        return self.leading_ties + sum(entry.ties for entry in self.entries)


def big_road(winners: Iterable[str], rows: int = ROWS) -> BigRoad:
    """The big road of a shoe's winners.

    >>> road = big_road(["Tie", "Tie", "Player", "Tie", "Player", "Banker"])
    >>> [(e.winner, e.column, e.row, e.ties, e.leading_ties) for e in road.entries]
    [('Player', 0, 0, 1, 2), ('Player', 0, 1, 0, 0), ('Banker', 1, 0, 0, 0)]
    """
    coups = _check(winners)
    leading = 0
    sides: list[str] = []  # each Banker or Player result in order
    ties: list[int] = []  # the ties that followed each
    streaks: list[int] = []  # the length of each logical column
    depths: list[int] = []  # each result's place in its streak
    for coup in coups:
        if coup == "Tie":
            if ties:
                ties[-1] += 1
            else:
                leading += 1
            continue
        if sides and sides[-1] == coup:
            streaks[-1] += 1
        else:
            streaks.append(1)
        sides.append(coup)
        ties.append(0)
        depths.append(streaks[-1] - 1)
    cells = place(streaks, rows)
    streak = -1
    entries: list[BigRoadEntry] = []
    for i, (side, tied, depth, (column, row)) in enumerate(
        zip(sides, ties, depths, cells, strict=True)
    ):
        streak += depth == 0
        entries.append(
            BigRoadEntry(side, streak, depth, column, row, tied, leading if i == 0 else 0)
        )
    return BigRoad(tuple(entries), leading)


# ------------------------------------------------------------- derived roads
@dataclass(frozen=True)
class DerivedMark:
    """A red or blue mark on a derived road, for the big road entry at index ``entry``."""

    colour: Colour
    entry: int
    column: int
    row: int

    @property
    def letter(self) -> str:
        return "r" if self.colour == "red" else "b"


@dataclass(frozen=True)
class DerivedRoad:
    """A derived road: big eye boy (offset 1), small road (2) or cockroach pig (3)."""

    offset: int
    marks: tuple[DerivedMark, ...]


def _mark(streaks: Sequence[int], column: int, depth: int, offset: int) -> Colour | None:
    """The mark for the entry at ``depth`` of logical column ``column`` (both from 0),
    given the lengths of the columns before it; ``None`` before the road's start."""
    if depth == 0:
        if column < offset + 1:
            return None
        return "red" if streaks[column - 1] == streaks[column - 1 - offset] else "blue"
    if column < offset:
        return None
    # red when the column `offset` back reaches this row or stopped above the row before
    # ("both empty"); blue when it stopped exactly one row above (the ping)
    return "blue" if streaks[column - offset] == depth else "red"


def derived_road(road: BigRoad, offset: int, rows: int = ROWS) -> DerivedRoad:
    """The derived road that compares columns ``offset`` apart (1, 2 or 3).

    A perfect chop is all red from the road's start: every column has one entry.

    >>> chop = big_road(["Banker", "Player"] * 4)
    >>> [m.colour for m in derived_road(chop, 1).marks]
    ['red', 'red', 'red', 'red', 'red', 'red']
    >>> [m.colour for m in derived_road(chop, 3).marks]
    ['red', 'red', 'red', 'red']
    """
    if offset < 1:
        raise ValueError(f"a derived road's offset is 1 or more, not {offset}")
    streaks = road.streaks
    found: list[tuple[int, Colour]] = []
    for index, entry in enumerate(road.entries):
        colour = _mark(streaks, entry.streak, entry.depth, offset)
        if colour is not None:
            found.append((index, colour))
    runs: list[int] = []
    for i, (_, colour) in enumerate(found):
        if i and found[i - 1][1] == colour:
            runs[-1] += 1
        else:
            runs.append(1)
    cells = place(runs, rows)
    marks = tuple(
        DerivedMark(colour, index, column, row)
        for (index, colour), (column, row) in zip(found, cells, strict=True)
    )
    return DerivedRoad(offset, marks)


# ------------------------------------------------------------------- preview
@dataclass(frozen=True)
class Preview:
    """The marks the next result would add to each derived road (``None``: the road
    would not have started yet)."""

    big_eye_boy: Colour | None
    small_road: Colour | None
    cockroach_pig: Colour | None


def preview(road: BigRoad, side: str) -> Preview:
    """What a next ``side`` ("Banker" or "Player") result would add to the derived roads.

    >>> road = big_road(["Banker", "Player", "Player"])
    >>> preview(road, "Player"), preview(road, "Banker")  # doctest: +NORMALIZE_WHITESPACE
    (Preview(big_eye_boy='red', small_road=None, cockroach_pig=None),
     Preview(big_eye_boy='blue', small_road=None, cockroach_pig=None))
    """
    if side not in _SIDES:
        raise ValueError(f"the next result is Banker or Player, not {side!r}")
    streaks = list(road.streaks)
    if road.entries and road.entries[-1].winner == side:
        column, depth = len(streaks) - 1, streaks[-1]
        streaks[-1] += 1
    else:
        column, depth = len(streaks), 0
        streaks.append(1)
    return Preview(*(_mark(streaks, column, depth, k) for k in OFFSETS.values()))


# --------------------------------------------------------------- all of them
@dataclass(frozen=True)
class Roads:
    """Every road of one shoe, and the ask-road previews for Banker and Player."""

    bead_plate: BeadPlate
    big_road: BigRoad
    big_eye_boy: DerivedRoad
    small_road: DerivedRoad
    cockroach_pig: DerivedRoad
    next_banker: Preview
    next_player: Preview


def roads(winners: Iterable[str], rows: int = ROWS) -> Roads:
    """The roads of a shoe whose coups had these winners, in order.

    >>> empty = roads([])
    >>> empty.big_road.entries, empty.big_eye_boy.marks, empty.next_banker.big_eye_boy
    ((), (), None)
    """
    coups = _check(winners)
    big = big_road(coups, rows)
    return Roads(
        bead_plate=bead_plate(coups, rows),
        big_road=big,
        big_eye_boy=derived_road(big, OFFSETS["big_eye_boy"], rows),
        small_road=derived_road(big, OFFSETS["small_road"], rows),
        cockroach_pig=derived_road(big, OFFSETS["cockroach_pig"], rows),
        next_banker=preview(big, "Banker"),
        next_player=preview(big, "Player"),
    )
