"""A player's history: their last rounds, or a shoe's coups."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from riverboat.table.views import ExportedRound
from riverboat.web.deps import Player, Service, Spend
from riverboat.web.errors import ErrorBody

__all__ = ["router"]

router = APIRouter(prefix="/api")


_BUSY = "a page of yours is under way, or too many pages are; see Retry-After"


@router.get(
    "/history",
    response_model=list[ExportedRound],
    responses={429: {"model": ErrorBody, "description": _BUSY}},
)
def history(
    player_id: Player,
    service: Service,
    budgets: Spend,
    limit: int = 20,
    commitment: Annotated[str | None, Query(max_length=64)] = None,
    before: int | None = None,
) -> list[ExportedRound]:
    """Your last rounds, newest first; with ``commitment``, a shoe's coups; with
    ``before`` (a round's id), the next page: the rounds older than that one. One page
    of yours at a time, and the server's budget of pages at once (429 beyond)."""
    with budgets.history.spend(str(player_id)):
        return service.history(player_id, limit, commitment, before)
