"""The lobby: the shared tables, their seats, limits, variants and shoes."""

from __future__ import annotations

import anyio.to_thread
from fastapi import APIRouter, Request

from riverboat.errors import NotFound
from riverboat.table.edges import (
    edges,
    edges_state,
    house_edge,
    strategy_card,
    variant_figures,
)
from riverboat.table.live.views import LobbyView
from riverboat.table.views import GameInfo
from riverboat.web.deps import SessionToken, get_lobby, player_of
from riverboat.web.errors import RESPONSES

__all__ = ["router"]

router = APIRouter(prefix="/api", responses=RESPONSES)


@router.get("/lobby", response_model=LobbyView)
async def lobby(request: Request, session: SessionToken = None) -> LobbyView:
    """Every shared table: its id (join it at ``/ws/tables/{id}``), name, game, rules
    variant, limits, seats taken and free, whether you sit there, and at Baccarat the
    shoe's cards left and coups dealt. Anyone may look; no card and no seed is shown."""
    player = await anyio.to_thread.run_sync(player_of, request, session)  # may ask the database
    lobby = get_lobby(request)
    # the tables other processes run, as they last wrote them (one process: none)
    across = request.app.state.hub.across_processes
    seen = await anyio.to_thread.run_sync(lobby.seen_elsewhere) if across else None
    return lobby.view(player, seen)  # read on the event loop, where tables change


@router.get("/tables/{table_id}/game", response_model=GameInfo)
def table_game(table_id: str, request: Request) -> GameInfo:
    """A shared table's own game info, under the rules it plays (a variant of its own,
    written as a file, say): its circles, limits, chips, pay tables and rules in brief,
    and its house edges once worked out (apart from play, begun by the first ask;
    ``edges_state`` pending meanwhile)."""
    lobby = get_lobby(request)
    table = lobby.tables.get(table_id)
    if table is None:
        raise NotFound(lobby.unknown(table_id))
    kind, rules, working = table.kind, table.rules, request.app.state.house_edges
    name = kind.name
    if rules == kind.rules():
        state = edges_state(name, working=working)
        return GameInfo.of(
            kind, house_edge(name), edges(name), strategy_card(name), edges_state=state
        )
    found = variant_figures(name, rules.variant) if working else None  # begun by the first ask
    edge, lines, card = found if found is not None else (None, None, None)
    state = edges_state(name, rules.variant, working=working)
    return GameInfo.of(kind, edge, lines, card, rules=rules, edges_state=state)
