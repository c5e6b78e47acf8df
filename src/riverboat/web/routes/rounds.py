"""Rounds at one's own table: deal, Quick Replay, look, decide, ask for a hint or the
coach's verdict on a decision."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request, Response

from riverboat.errors import IllegalAction
from riverboat.games import find_game
from riverboat.table.coach import coach_round, hint_round
from riverboat.table.states import RoundStatus
from riverboat.table.views import CoachVerdict, HintView, RoundView
from riverboat.web.deps import Checked, GameName, Player, Service, get_service
from riverboat.web.errors import RESPONSES
from riverboat.web.models import ActionRequest, ReplayRequest, RoundId, RoundRequest, answer
from riverboat.web.threads import in_worker

__all__ = ["router"]

router = APIRouter(prefix="/api", responses=RESPONSES)


# The round routes send the service's view as it is (models.answer): its model is
# named for the schema only. A deal and a decision, the hot two, hand their work to
# one of the app's database threads themselves, one request of a player's at a time
# (riverboat.web.threads); FastAPI hands the others' through anyio.
# They read the service off the request, as the Service dependency does, without
# a dependency of their own for FastAPI to solve on each request (nothing in the
# schema: it has no parameters).
@router.post("/rounds", dependencies=[Checked], response_model=RoundView)
async def start(body: RoundRequest, player_id: Player, request: Request) -> Response:
    service = get_service(request)

    def work() -> Response:
        return answer(
            service.start_round(
                player_id,
                body.game,
                body.wagers,
                body.client_seed,
                body.idempotency_key,
                second=body.second,
            )
        )

    async with request.app.state.turns.turn(player_id):
        return await in_worker(request, work)


@router.post("/games/{game}/replay", dependencies=[Checked], response_model=RoundView)
def replay(game: GameName, body: ReplayRequest, player_id: Player, service: Service) -> Response:
    """Quick Replay (R10): the last round's wagers, checked again."""
    return answer(service.quick_replay(player_id, game, body.idempotency_key, body.client_seed))


@router.get("/rounds/{round_id}", response_model=RoundView)
def show(round_id: RoundId, player_id: Player, service: Service) -> Response:
    return answer(service.round(player_id, round_id))


@router.post("/rounds/{round_id}/actions", dependencies=[Checked], response_model=RoundView)
async def act(
    round_id: RoundId, body: ActionRequest, player_id: Player, request: Request
) -> Response:
    service = get_service(request)

    def work() -> Response:
        return answer(
            service.act(player_id, round_id, body.action, body.amount, body.idempotency_key)
        )

    async with request.app.state.turns.turn(player_id):
        return await in_worker(request, work)


@router.get("/rounds/{round_id}/hint", response_model=HintView)
def hint(round_id: RoundId, player_id: Player, service: Service) -> HintView:
    """Each legal option's expected value for this hand, best first (in Antes), and the
    hint in words in the round's dollars with its figures per $1 of Ante."""
    view = service.round(player_id, round_id)
    if view.status != RoundStatus.OPEN or not view.choices:
        raise IllegalAction("hints are for rounds waiting for a decision")
    return hint_round(view)


@router.get("/rounds/{round_id}/coach", response_model=CoachVerdict)
def coach(
    round_id: RoundId,
    player_id: Player,
    service: Service,
    action: Annotated[str, Query(max_length=16, pattern="^[a-z_]+$")],
    amount: Annotated[int | None, Query(ge=0, le=10**9)] = None,
) -> CoachVerdict:
    """The coach: the decision ``action`` (staking ``amount`` cents, default its own
    stake) on this round's hand, against the best option, from the instant hint."""
    view = service.round(player_id, round_id)
    if view.status == RoundStatus.VOID or not find_game(view.game).spec().options:
        raise IllegalAction("the coach weighs decisions: this round has none")
    return coach_round(view, action, amount)
