"""A player's history: their last rounds, or a shoe's coups; their credits of play money."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from starlette.concurrency import run_in_threadpool

from riverboat.admission.budgets import Busy
from riverboat.admission.gates import Budgets
from riverboat.table.service import TableService
from riverboat.table.views import CreditView, ExportedRound
from riverboat.web.deps import Player, Service, Spend
from riverboat.web.errors import RESPONSES, ErrorBody

__all__ = ["router"]

router = APIRouter(prefix="/api", responses=RESPONSES)
#: a round's or a credit's id, as the database holds it (a 32-bit integer column): a
#: larger number is refused 422, not carried to the database to overflow there
RowId = Annotated[int | None, Query(ge=1, le=2**31 - 1)]


_BUSY = (
    "a page of yours is under way, too many pages are, or you asked for too many rounds "
    "of late; see Retry-After"
)


@router.get(
    "/history",
    response_model=list[ExportedRound],
    responses={429: {"model": ErrorBody, "description": _BUSY}},
)
async def history(
    request: Request,
    player_id: Player,
    service: Service,
    budgets: Spend,
    limit: int = 20,
    commitment: Annotated[str | None, Query(max_length=64)] = None,
    before: RowId = None,
) -> list[ExportedRound]:
    """Your last rounds, newest first; with ``commitment``, a shoe's coups; with
    ``before`` (a round's id), the next page: the rounds older than that one. One page
    of yours at a time, the server's budget of pages at once, and so many rounds of
    yours a second (``Budgets.pages``); a page beyond is refused 429, once its wait is
    over (``Budgets.late``)."""
    address = request.client.host if request.client else "unknown"
    wait = budgets.pages.take(str(player_id), max(1, limit))
    try:
        if wait > 0:
            raise budgets.pages.refusal(wait)
        return await run_in_threadpool(
            _page, budgets, service, player_id, limit, commitment, before
        )
    except Busy as told:
        raise await budgets.late(address, told) from None


def _page(
    budgets: Budgets,
    service: TableService,
    player_id: int,
    limit: int,
    commitment: str | None,
    before: int | None,
) -> list[ExportedRound]:
    with budgets.history.spend(str(player_id)):
        return service.history(player_id, limit, commitment, before)


_CREDITS_BUSY = "you asked for too many credits of late; see Retry-After"


@router.get(
    "/credits",
    response_model=list[CreditView],
    responses={429: {"model": ErrorBody, "description": _CREDITS_BUSY}},
)
async def credits(
    request: Request,
    player_id: Player,
    service: Service,
    budgets: Spend,
    limit: int = 20,
    before: RowId = None,
) -> list[CreditView]:
    """Your credits of play money that are not rounds, newest first: the starting
    credit (``start``) and each top-up (``top_up``), what each added and the balance it
    left; with ``before`` (a credit's id), the older ones: the next page. One indexed
    query a page, so no history slot is taken; the credits read count against their
    own bucket of the player's rate (``Budgets.pages``), beyond which a page is
    refused 429 once its wait is over (``Budgets.late``)."""
    address = request.client.host if request.client else "unknown"
    wait = budgets.pages.take(f"credits:{player_id}", max(1, limit))
    if wait > 0:
        raise await budgets.late(address, budgets.pages.refusal(wait)) from None
    return await run_in_threadpool(service.credits, player_id, limit, before)
