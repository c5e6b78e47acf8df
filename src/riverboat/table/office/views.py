"""The back office's typed models, as the operator API and ``riverboat report`` send them."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from riverboat.money import Cents
from riverboat.table.views import CreditView, ExportedRound, RoundView

__all__ = [
    "ActionKind",
    "ActionView",
    "AdjustedView",
    "HoldPoint",
    "HoldReport",
    "HoldRow",
    "LedgerLine",
    "PlayerFile",
    "PlayerFound",
    "RecallView",
]

#: what an operator (or the command line, for the role itself) may do
ActionKind = Literal["grant", "revoke", "credit", "debit", "lock", "unlock", "end_sessions"]


class _View(BaseModel):
    model_config = ConfigDict(frozen=True)


class ActionView(_View):
    """One row of the operators' log: who did what to whom, when and why."""

    id: int
    at: datetime
    by: str = Field(description="the operator's name, or who ran the command line")
    action: ActionKind
    player: str | None = Field(description="the account acted on")
    player_id: int | None
    transaction_id: int | None = Field(description="the ledger transaction it made")
    reason: str
    detail: dict[str, int | str | bool | None] = {}


class PlayerFound(_View):
    """A player as a search lists them."""

    id: int
    name: str
    balance: Cents
    locked: bool
    operator: bool


class PlayerFile(_View):
    """Everything the back office shows of one player."""

    id: int
    name: str
    balance: Cents
    locked: bool
    operator: bool
    created_at: datetime
    rounds_dealt: int
    sessions: int = Field(description="sessions open now")
    open_rounds: list[RoundView]
    history: list[ExportedRound] = Field(description="the last rounds, newest first")
    account: list[CreditView] = Field(
        description="the account's history besides rounds: credits, top-ups, the house's "
        "adjustments, locks; newest first"
    )
    actions: list[ActionView] = Field(description="the back office's actions on the player")


class AdjustedView(_View):
    """A credit or debit made: its transaction and the balance it left."""

    transaction_id: int
    amount: Cents
    balance: Cents


class LedgerLine(_View):
    """One ledger entry of a round's transactions."""

    transaction_id: int
    kind: str
    account: str
    amount: Cents


class RecallView(_View):
    """A round recalled: as its player saw it, as it was dealt, and whether it verifies."""

    id: int
    player_id: int
    player: str
    table: Literal["own", "shared"]
    deal_id: int | None
    created_at: datetime
    updated_at: datetime
    seen: RoundView = Field(description="the round as its player sees it now")
    dealt: ExportedRound | None = Field(
        description="the record: wagers, every card in the order drawn, decisions, "
        "settlement, seeds once revealed; None while the round is open (its face-down "
        "cards stay hidden from the house too until it ends)"
    )
    ledger: list[LedgerLine]
    verified: bool | None = Field(description="None until the seed is revealed")
    problems: list[str] = Field(description="what the verifier found wrong, if anything")


class HoldPoint(_View):
    """The running totals of a hold row at the end of one bucket of time: a chart draws
    ``actual`` against ``expected``, with the band ``expected ± z_limit * std_dev``."""

    until: datetime = Field(description="the end of the bucket (UTC)")
    rounds: int
    actual: Cents = Field(description="the house's win so far")
    expected: float = Field(description="what the strategy played was expected to win")
    std_dev: float


class HoldRow(_View):
    """One game, variant and table over the period: what it held against what the
    exact analysis says it should have. Money in cents."""

    game: str
    variant: str
    table: Literal["own", "shared"] = Field(
        description="the players' own tables, or the shared tables of the game and variant "
        "(a round does not record which shared table dealt it)"
    )
    rounds: int = Field(description="rounds settled and weighed")
    wagered: Cents = Field(description="every stake, the decisions' too")
    initial: Cents = Field(description="the initial wagers")
    house_win: Cents
    hold: float | None = Field(description="house win / wagered")
    edge_optimal: float | None = Field(
        description="the exact house edge per initial wager under optimal play, "
        "weighted by the wagers placed"
    )
    edge_optimal_exact: str | None = Field(description="edge_optimal as a fraction")
    edge_played: float | None = Field(
        description="the same for the decisions players made: optimal plus what each "
        "decision cost against the best one (exact, from the analyzer)"
    )
    edge_played_exact: str | None = Field(description="edge_played as a fraction")
    decisions: int = Field(description="the players' decisions weighed")
    best: int = Field(description="how many of them were the best play")
    decision_cost: float = Field(
        description="what the other decisions gave up against the best, in expected cents"
    )
    expected: float = Field(description="the expected house win for the decisions made")
    std_dev: float = Field(description="the standard deviation of the house win")
    z: float | None = Field(description="(house win - expected) / std_dev")
    alarm: bool = Field(description="z lies outside the band")
    unweighed: int = Field(description="rounds the analysis could not weigh (left out)")
    unweighed_reasons: dict[str, int] = Field(
        default={}, description="why they could not be weighed, and how many"
    )
    points: list[HoldPoint] = []


class HoldReport(_View):
    """Hold against theory over a period: each game, variant and table's actual win
    against the exact analysis (``riverboat.table.office.hold``)."""

    since: datetime | None
    until: datetime | None
    band: float = Field(description="the two-sided probability the band holds (0.999)")
    z_limit: float = Field(description="|z| beyond this raises the alarm")
    bucket: Literal["hour", "day"] = Field(description="the time between two points")
    rows: list[HoldRow]
