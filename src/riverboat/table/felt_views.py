"""What a felt draws beyond the round itself: its betting circles, its pay tables in
words, the house edge of each wager and the strategy card.

>>> LineInfo(name="ante", label="Ante", placed_by=None, pays="1 to 1").model_dump()
{'name': 'ante', 'label': 'Ante', 'placed_by': None, 'pays': '1 to 1'}
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["CardLine", "EdgeLine", "LineInfo", "PaySection", "StrategyCardInfo"]


class _Felt(BaseModel):
    # defer_build: each model's validator and serializer are built at its first use,
    # not at import, so a command that shows a history builds only the views it shows
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


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


class CardLine(_Felt):
    """A strategy card's rule: take ``action`` with ``hands`` (the first that matches
    wins); ``text`` says it in a sentence."""

    action: str
    hands: str
    text: str


class StrategyCardInfo(_Felt):
    """A strategy card for the wagers named, with its exact cost against optimal play:
    house edges per Ante as fractions (0.0337 for 3.37%), ``agreement`` the share of
    deals on which it makes the optimal choice."""

    wagers: list[str]
    rules: list[CardLine]
    house_edge: float
    optimal_house_edge: float
    cost: float
    agreement: float
    summary: str
