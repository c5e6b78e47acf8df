"""A shoe's roads as a front end draws them (the bead plate, the big road, the three
derived roads and what the next Banker or Player would add), from
:func:`riverboat.games.roads.roads`.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from riverboat.games.roads import ROWS, DerivedRoad, Preview, roads
from riverboat.table.views import _View

__all__ = ["BeadView", "BigRoadEntryView", "DerivedMarkView", "RoadPreviewView", "RoadsView"]


class BeadView(_View):
    """A coup on the bead plate, at its cell (column, row from 0 at the top left)."""

    winner: str = Field(description="Banker, Player or Tie (B7)")
    column: int
    row: int


class BigRoadEntryView(_View):
    """A Banker or Player result on the big road, at its grid cell (dragon tails
    turned); ``ties`` followed it, ``leading_ties`` opened the shoe before it."""

    winner: str = Field(description="Banker or Player")
    column: int
    row: int
    ties: int
    leading_ties: int


class DerivedMarkView(_View):
    """A mark on a derived road, at its grid cell."""

    colour: Literal["red", "blue"]
    column: int
    row: int


class RoadPreviewView(_View):
    """The marks a next result would add (``None``: that road would not start yet)."""

    big_eye_boy: Literal["red", "blue"] | None
    small_road: Literal["red", "blue"] | None
    cockroach_pig: Literal["red", "blue"] | None


class RoadsView(_View):
    """One shoe's roads, ready to draw: every grid ``rows`` high.

    >>> view = RoadsView.of(["Tie", "Banker", "Player"])
    >>> view.big_road[0].model_dump()
    {'winner': 'Banker', 'column': 0, 'row': 0, 'ties': 0, 'leading_ties': 1}
    >>> view.next_player.model_dump()
    {'big_eye_boy': 'blue', 'small_road': None, 'cockroach_pig': None}
    """

    rows: int
    bead_plate: list[BeadView]
    big_road: list[BigRoadEntryView]
    leading_ties: int = Field(description="ties of a shoe with no Banker or Player result yet")
    big_eye_boy: list[DerivedMarkView]
    small_road: list[DerivedMarkView]
    cockroach_pig: list[DerivedMarkView]
    next_banker: RoadPreviewView
    next_player: RoadPreviewView

    @classmethod
    def of(cls, winners: list[str]) -> RoadsView:
        """The roads of one shoe's winners, in order (the current shoe's only)."""
        built = roads(winners)

        def marks(road: DerivedRoad) -> list[DerivedMarkView]:
            return [
                DerivedMarkView(colour=m.colour, column=m.column, row=m.row) for m in road.marks
            ]

        def ask(preview: Preview) -> RoadPreviewView:
            return RoadPreviewView(
                big_eye_boy=preview.big_eye_boy,
                small_road=preview.small_road,
                cockroach_pig=preview.cockroach_pig,
            )

        return cls(
            rows=ROWS,
            bead_plate=[
                BeadView(winner=b.winner, column=b.column, row=b.row)
                for b in built.bead_plate.beads
            ],
            big_road=[
                BigRoadEntryView(
                    winner=e.winner,
                    column=e.column,
                    row=e.row,
                    ties=e.ties,
                    leading_ties=e.leading_ties,
                )
                for e in built.big_road.entries
            ],
            leading_ties=built.big_road.leading_ties,
            big_eye_boy=marks(built.big_eye_boy),
            small_road=marks(built.small_road),
            cockroach_pig=marks(built.cockroach_pig),
            next_banker=ask(built.next_banker),
            next_player=ask(built.next_player),
        )
