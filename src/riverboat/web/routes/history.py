"""A player's history: their last rounds, or a shoe's coups."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from riverboat.table.views import ExportedRound
from riverboat.web.deps import Player, Service

__all__ = ["router"]

router = APIRouter(prefix="/api")


@router.get("/history", response_model=list[ExportedRound])
def history(
    player_id: Player,
    service: Service,
    limit: int = 20,
    commitment: Annotated[str | None, Query(max_length=64)] = None,
    before: int | None = None,
) -> list[ExportedRound]:
    """Your last rounds, newest first; with ``commitment``, a shoe's coups; with
    ``before`` (a round's id), the next page: the rounds older than that one."""
    return service.history(player_id, limit, commitment, before)
