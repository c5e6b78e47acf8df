"""Shared tables, live over a WebSocket: the messages of :mod:`riverboat.table.shared`."""

from __future__ import annotations

import asyncio
from urllib.parse import urlsplit

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import TypeAdapter, ValidationError

from riverboat.games.rules import IllegalAction, RulesError
from riverboat.table.shared import SHARED_GAMES, SharedTable
from riverboat.table.views import (
    Bet,
    ErrorMessage,
    PlayerMessage,
    TableMessage,
)
from riverboat.web.deps import SESSION_COOKIE, get_limiter, get_sessions, get_tables, player_of
from riverboat.web.models import first_problem

__all__ = ["router"]

router = APIRouter()
PlayerMessages: TypeAdapter[PlayerMessage] = TypeAdapter(PlayerMessage)
TableMessages: TypeAdapter[TableMessage] = TypeAdapter(TableMessage)


async def _table_message(table: SharedTable, player: int, text: str) -> None:
    """One message from a player at a shared table, checked before it acts."""
    try:
        message = PlayerMessages.validate_json(text)
    except ValidationError as error:
        raise IllegalAction(
            f"{first_problem(error.errors())}; send "
            '{"type": "bet", "wagers": {"ante": 1000, ...}} or '
            '{"type": "decide", "action": "play", "amount": 1000}'
        ) from None
    if isinstance(message, Bet):
        await table.bet(player, message.wagers, message.second, message.client_seed)
    else:
        await table.decide(player, message.action, message.amount)


async def _admit(websocket: WebSocket, game: str) -> tuple[int, SharedTable] | None:
    """The player and their table, or None once the handshake is refused: a page from
    another site, no session, or a game without shared tables."""
    origin, host = websocket.headers.get("origin"), websocket.headers.get("host")
    if not origin or urlsplit(origin).netloc != host:  # another site's page: refused
        await websocket.close(code=1008, reason="this table takes its own page's connections")
        return None
    token = websocket.cookies.get(SESSION_COOKIE)
    player = await asyncio.to_thread(player_of, websocket, token)  # may touch the database
    table = get_tables(websocket).get(game)
    if player is None or table is None:
        reason = "log in first" if table else f"shared tables play {' or '.join(SHARED_GAMES)}"
        await websocket.close(code=1008, reason=reason)
        return None
    return player, table


@router.websocket("/ws/tables/{game}")
async def shared_table(websocket: WebSocket, game: str) -> None:
    """A shared table (Crazy 4 or Baccarat), live: the messages of
    :mod:`riverboat.table.shared` as JSON. Send ``{"type": "bet", "wagers": {...},
    "second": {...}, "client_seed": "..."}`` and ``{"type": "decide", "action":
    "play", "amount": 2000}``."""
    admitted = await _admit(websocket, game)
    if admitted is None:
        return
    player, table = admitted
    sessions, limiter = get_sessions(websocket), get_limiter(websocket)
    token = websocket.cookies.get(SESSION_COOKIE)
    signed_in = sessions.alive(token)
    await websocket.accept()

    async def send(message: TableMessage) -> None:
        await websocket.send_json(TableMessages.dump_python(message, mode="json"))

    try:
        await table.sit(player, send)
        while True:
            text = await websocket.receive_text()
            if signed_in and not sessions.alive(token):  # logged out, or expired
                await websocket.close(code=1008, reason="the session has ended: log in again")
                return
            try:
                if not limiter.allow(f"table:{player}"):
                    raise IllegalAction("too many messages; slow down")
                await _table_message(table, player, text)
            except (IllegalAction, RulesError) as error:
                await send(ErrorMessage(message=str(error)))
    except IllegalAction as error:  # no seat: the table is full, say
        await send(ErrorMessage(message=str(error)))
        await websocket.close()
    except WebSocketDisconnect:
        pass
    finally:  # whatever ended the connection, its seat is not left behind
        await table.leave(player, send)
