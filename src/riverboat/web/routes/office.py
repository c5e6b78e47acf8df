"""The back office's API, under ``/api/office``: operators only.

Every route asks for :data:`Operator`: a session of a named account (never the
loopback's local player) that is an operator now, read from the database at each
request, so a revoke or a lock counts at once. Anyone else is refused: no session or
an unknown one 401 (``bad_credentials``), a player's session 403 (``forbidden``).
Every change is CSRF-checked and logged with its reason
(:mod:`riverboat.table.office.actions`); a credit or debit also asks the operator's
password again, checked as a log-in is (the same throttle, 429 when it trips).
The hold report runs in a worker thread, one at a time in the process
(:data:`HOLD_REPORTS`): another asked meanwhile is refused 429 with ``Retry-After``.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Depends, Path, Query, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.requests import HTTPConnection
from pydantic import BaseModel
from sqlalchemy import Engine
from starlette.concurrency import run_in_threadpool

from riverboat.admission.budgets import Budget
from riverboat.errors import BadCredentials, IllegalAction
from riverboat.games import find_game
from riverboat.games.rules import RulesError
from riverboat.table.office.accounts import FOUND_LIMIT
from riverboat.table.office.actions import ACTIONS_LIMIT, actions
from riverboat.table.office.hold import BAND, hold_report, period
from riverboat.table.office.views import (
    ActionView,
    AdjustedView,
    HoldReport,
    PlayerFile,
    PlayerFound,
    RecallView,
)
from riverboat.web.deps import Checked, Service, SessionStore, SessionToken, get_service
from riverboat.web.deps import get_sessions as sessions_of
from riverboat.web.errors import RESPONSES, ErrorBody
from riverboat.web.models import AdjustRequest, ReasonRequest, answer

__all__ = ["HOLD_REPORTS", "Operator", "current_operator", "router"]

router = APIRouter(prefix="/api/office", responses=RESPONSES, tags=["office"])
PlayerId = Annotated[int, Path(ge=1, le=2**31 - 1)]


async def current_operator(connection: HTTPConnection, session: SessionToken = None) -> int:
    """The operator whose session this is, or a refusal: 401 without a live session of
    a named account, 403 for one that is not an operator's now."""
    player = await run_in_threadpool(sessions_of(connection).player, session)
    if player is None:
        raise BadCredentials("log in as an operator first")
    await run_in_threadpool(get_service(connection).office.operator, player)
    return player


Operator = Annotated[int, Depends(current_operator)]


class OperatorView(BaseModel):
    """The operator this session is."""

    id: int
    name: str


class EndedView(BaseModel):
    """What ending an account's sessions (or locking it) closed."""

    sessions_ended: int


@router.get("/me", response_model=OperatorView)
def office_me(operator: Operator, service: Service) -> OperatorView:
    return OperatorView(id=operator, name=service.name(operator))


@router.get("/players", response_model=list[PlayerFound])
def find_players(
    _: Operator,
    service: Service,
    name: Annotated[str, Query(min_length=1, max_length=64)],
    limit: Annotated[int, Query(ge=1, le=FOUND_LIMIT)] = 20,
) -> list[PlayerFound]:
    """Players whose name begins with ``name``, or looks as if it did."""
    return service.office.find(name, limit)


@router.get("/players/{player_id}", response_model=PlayerFile)
def player_file(
    _: Operator, player_id: PlayerId, service: Service, sessions: SessionStore
) -> PlayerFile:
    """Balance, open rounds, history, account, sessions and the office's actions."""
    return service.office.player_file(player_id, sessions.count(player_id))


def _adjust(
    operator: int, player_id: int, body: AdjustRequest, sign: int, request: Request
) -> AdjustedView:
    service = get_service(request)
    address = request.client.host if request.client else "unknown"
    service.confirm(operator, body.password, address)
    return service.office.adjust(operator, player_id, sign * body.amount, body.reason)


@router.post("/players/{player_id}/credit", dependencies=[Checked], response_model=AdjustedView)
def credit(
    operator: Operator, player_id: PlayerId, body: AdjustRequest, request: Request
) -> AdjustedView:
    """Play money from the house to the player, with a reason they see; the operator's
    password again."""
    return _adjust(operator, player_id, body, 1, request)


@router.post("/players/{player_id}/debit", dependencies=[Checked], response_model=AdjustedView)
def debit(
    operator: Operator, player_id: PlayerId, body: AdjustRequest, request: Request
) -> AdjustedView:
    """Play money from the player to the house (no more than their balance), with a
    reason they see; the operator's password again."""
    return _adjust(operator, player_id, body, -1, request)


@router.post("/players/{player_id}/lock", dependencies=[Checked], response_model=EndedView)
def lock(
    operator: Operator,
    player_id: PlayerId,
    body: ReasonRequest,
    service: Service,
    sessions: SessionStore,
) -> EndedView:
    """Lock the account: its sessions end and log-in is refused, with the reason,
    until it is unlocked."""
    service.office.set_locked(operator, player_id, True, body.reason)
    return EndedView(sessions_ended=sessions.close_all(player_id))


@router.post("/players/{player_id}/unlock", dependencies=[Checked], response_model=EndedView)
def unlock(
    operator: Operator, player_id: PlayerId, body: ReasonRequest, service: Service
) -> EndedView:
    service.office.set_locked(operator, player_id, False, body.reason)
    return EndedView(sessions_ended=0)


@router.post("/players/{player_id}/end-sessions", dependencies=[Checked], response_model=EndedView)
def end_sessions(
    operator: Operator,
    player_id: PlayerId,
    body: ReasonRequest,
    service: Service,
    sessions: SessionStore,
) -> EndedView:
    """End every session the player holds (they log in again)."""
    service.office.check_target(operator, player_id)
    ended = sessions.close_all(player_id)
    service.office.sessions_ended(operator, player_id, ended, body.reason)
    return EndedView(sessions_ended=ended)


@router.get("/rounds/{round_id}", response_model=RecallView)
def recall(
    _: Operator, round_id: Annotated[int, Path(ge=1, le=2**31 - 1)], service: Service
) -> RecallView:
    """Any round, as its player saw it and as it was dealt, verified."""
    return service.office.recall(round_id)


@router.get("/actions", response_model=list[ActionView])
def action_log(
    _: Operator,
    service: Service,
    player: Annotated[int | None, Query(ge=1, le=2**31 - 1)] = None,
    before: Annotated[int | None, Query(ge=1, le=2**31 - 1)] = None,
    limit: Annotated[int, Query(ge=1, le=ACTIONS_LIMIT)] = 50,
) -> list[ActionView]:
    """The operators' log, newest first: all of it or one player's."""
    return actions(service.engine, player, limit, before)


#: hold reports under way in this process: one (seconds, minutes for a game not yet
#: analysed on this machine); another asked meanwhile is refused at once, 429
HOLD_REPORTS = Budget("hold reports", slots=1, queue=0, each=1, seconds=10, reserve=0)
_HOLD_BUSY = "a hold report is under way already; see Retry-After"


@router.get(
    "/hold",
    response_model=HoldReport,
    responses={429: {"model": ErrorBody, "description": _HOLD_BUSY}},
)
async def hold(
    _: Operator,
    service: Service,
    since: Annotated[datetime | None, Query(description="ISO 8601; no zone: UTC")] = None,
    until: Annotated[datetime | None, Query(description="ISO 8601, not included")] = None,
    game: Annotated[str | None, Query(min_length=1, max_length=64)] = None,
    band: Annotated[float, Query(gt=0, lt=1, description="two-sided: the alarm's band")] = BAND,
) -> Response:
    """Hold against theory over ``[since, until)`` (either open): each game, variant and
    table's house win beside the exact analysis' expectation for the wagers placed and
    the decisions made, its z and alarm, and points over time for a chart
    (:func:`riverboat.table.office.hold.hold_report`). Worked out in a worker thread,
    one report at a time in the process: another is refused 429 (``Retry-After``)."""
    _check("game", game, lambda: find_game(game) if game is not None else None)
    _check("until", until, lambda: period(since, until))
    busy = HOLD_REPORTS.refusal()
    if busy is not None:
        raise busy
    report = await run_in_threadpool(_hold, service.engine, since, until, game, band)
    return answer(report)


def _check(field: str, value: object, check: Callable[[], object]) -> None:
    """``check()``'s refusal as a malformed query naming ``field``, as FastAPI's own."""
    try:
        check()
    except (RulesError, IllegalAction) as error:
        problem = {"loc": ("query", field), "msg": str(error), "input": value}
        raise RequestValidationError([{**problem, "type": "value_error"}]) from None


def _hold(
    engine: Engine, since: datetime | None, until: datetime | None, game: str | None, band: float
) -> HoldReport:
    with HOLD_REPORTS.spend():
        return hold_report(engine, since, until, game, band)
