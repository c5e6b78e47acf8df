"""What a felt draws beyond the round itself: its betting circles, its pay tables in
words and the house edge of each wager.

>>> LineInfo(name="ante", label="Ante", placed_by=None, pays="1 to 1").model_dump()
{'name': 'ante', 'label': 'Ante', 'placed_by': None, 'pays': '1 to 1'}
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["EdgeLine", "LineInfo", "PaySection"]


class _Felt(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class LineInfo(_Felt):
    """A betting circle: its name (a key of a round's ``stakes`` and ``result``), its
    label, the decision that places it (None: placed before the deal) and what it pays."""

    name: str
    label: str
    placed_by: str | None = Field(description="the action that places it; None: before the deal")
    pays: str


class PaySection(_Felt):
    """One wager's pay table and rules in words: rows of [hand, pays]."""

    title: str
    rows: list[list[str]]
    notes: list[str]


class EdgeLine(_Felt):
    """A house edge as a fraction (0.0337 for 3.37%), with what it is a share of."""

    label: str
    value: float
    basis: str
