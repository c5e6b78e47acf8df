"""Rounds at one's own table: deal, Quick Replay, look, decide, ask for a hint."""

from __future__ import annotations

from fastapi import APIRouter

from riverboat.errors import IllegalAction
from riverboat.games import find_game
from riverboat.table.views import HintOption, RoundView
from riverboat.web.deps import Checked, GameName, Player, Service
from riverboat.web.models import ActionRequest, ReplayRequest, RoundId, RoundRequest

__all__ = ["router"]

router = APIRouter(prefix="/api")


@router.post("/rounds", dependencies=[Checked], response_model=RoundView)
def start(body: RoundRequest, player_id: Player, service: Service) -> RoundView:
    return service.start_round(
        player_id,
        body.game,
        body.wagers,
        body.client_seed,
        body.idempotency_key,
        second=body.second,
    )


@router.post("/games/{game}/replay", dependencies=[Checked], response_model=RoundView)
def replay(game: GameName, body: ReplayRequest, player_id: Player, service: Service) -> RoundView:
    """Quick Replay (R10): the last round's wagers, checked again."""
    return service.quick_replay(player_id, game, body.idempotency_key, body.client_seed)


@router.get("/rounds/{round_id}", response_model=RoundView)
def show(round_id: RoundId, player_id: Player, service: Service) -> RoundView:
    return service.round(player_id, round_id)


@router.post("/rounds/{round_id}/actions", dependencies=[Checked], response_model=RoundView)
def act(round_id: RoundId, body: ActionRequest, player_id: Player, service: Service) -> RoundView:
    return service.act(player_id, round_id, body.action, body.amount, body.idempotency_key)


@router.get("/rounds/{round_id}/hint", response_model=list[HintOption])
def hint(round_id: RoundId, player_id: Player, service: Service) -> list[HintOption]:
    """Each legal option's expected value for this hand (in Antes)."""
    from riverboat.analysis import best_action, wagers_in_units

    view = service.round(player_id, round_id)
    if view.status != "open" or not view.choices:
        raise IllegalAction("hints are for rounds waiting for a decision")
    units = wagers_in_units(view.wagers, find_game(view.game).spec().decides_with)
    options = best_action(view.game, " ".join(view.cards["player"]), units)
    return [HintOption(action=o.option, label=o.label, expected=float(o.expected)) for o in options]
