"""Shared tables, live over a WebSocket: the messages of :mod:`riverboat.table.live.table`.

The route checks each message and passes it on through the server's
:class:`~riverboat.table.live.across.hub.Hub`: to the table in this process, or to the process
that runs the table's clock (:func:`act_on` carries it out there).

A message is a JSON text frame of at most :data:`riverboat.web.guards.BODY_LIMIT`
bytes: a larger one closes the connection (1009, "message too big"); a binary frame
or text that is not a message is refused with an error message and the seat stays.
A handshake is counted in its address's rate limit and in the handshake budget
(:class:`riverboat.admission.gates.Budgets`).

A refused handshake is accepted, then closed with a code of the app's own and a
reason, so that the page can say why and lead the player on (a close before the
accept reaches the browser as a bare HTTP 403, with no reason): ``CLOSE_LOG_IN``
(no session, or it has ended: log in again), ``CLOSE_TRY_LATER`` (beyond the
handshake budget or the rate limit) and ``CLOSE_NO_TABLE``
(:mod:`riverboat.web.errors`). Only a page from another site or on another host name
is refused before the accept (1008): it gets nothing to read.
"""

from __future__ import annotations

import asyncio
import contextlib
from urllib.parse import urlsplit

import anyio.to_thread
from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import TypeAdapter, ValidationError

from riverboat.admission.budgets import Busy
from riverboat.errors import Refusal
from riverboat.games.rules import RulesError
from riverboat.metrics import SEATS
from riverboat.table.live.across.hub import Hub
from riverboat.table.live.seats import Send
from riverboat.table.live.table import SharedTable
from riverboat.table.live.views import Bet, ErrorMessage, PlayerMessage, TableMessage
from riverboat.web.deps import (
    SESSION_COOKIE,
    get_budgets,
    get_limiter,
    get_lobby,
    get_sessions,
    player_of,
)
from riverboat.web.errors import (
    CLOSE_LOG_IN,
    CLOSE_NO_TABLE,
    CLOSE_TRY_LATER,
    INVALID_REQUEST,
    MESSAGE_LIMIT,
    RATE_LIMITED,
    RESPONSES,
    code_of,
)
from riverboat.web.guards import BODY_LIMIT, json_problem
from riverboat.web.models import first_problem

__all__ = ["act_on", "router"]

router = APIRouter(responses=RESPONSES)
#: what a send or receive raises once the client has gone
_GONE = (WebSocketDisconnect, RuntimeError, OSError)
PlayerMessages: TypeAdapter[PlayerMessage] = TypeAdapter(PlayerMessage)
#: messages refused one after another before a seat is closed (1008): a page that
#: plays makes a mistake now and then, never twenty in a row
REFUSED_IN_A_ROW = 20
TableMessages: TypeAdapter[TableMessage] = TypeAdapter(TableMessage)


def _player_message(text: str) -> PlayerMessage | ErrorMessage:
    """One message from a player at a shared table, or the refusal to send back (a
    malformed message is an ``invalid_request``, as a malformed HTTP request is)."""
    problem = json_problem(text.encode("utf-8", "surrogatepass"))
    if problem:
        return _refusal(problem.replace("the body", "the message"), INVALID_REQUEST)
    try:
        return PlayerMessages.validate_json(text)
    except ValidationError as error:
        return _refusal(
            f"{first_problem(error.errors())}; send "
            '{"type": "bet", "wagers": {"ante": 1000, ...}} or '
            '{"type": "decide", "action": "play", "amount": 1000}',
            INVALID_REQUEST,
        )


async def _table_message(
    hub: Hub, table: SharedTable, player: int, send: Send, text: str
) -> ErrorMessage | None:
    """One message from a player, checked here and passed on through the hub; the
    refusal to send back now, if any."""
    message = _player_message(text)
    if isinstance(message, ErrorMessage):
        return message
    return await hub.act(table, player, send, message)


async def act_on(table: SharedTable, player: int, message: PlayerMessage) -> ErrorMessage | None:
    """A checked message carried out at the table, where its clock runs; the refusal
    to send back, if any."""
    try:
        if isinstance(message, Bet):
            await table.bet(player, message.wagers, message.second, message.client_seed)
        else:
            await table.decide(player, message.action, message.amount)
    except (Refusal, RulesError) as error:
        return _refusal(str(error), code_of(error))
    return None


def _refusal(message: str, code: str) -> ErrorMessage:
    """A refusal at the table, in the fields every HTTP refusal has (``error``, ``code``),
    as short as an HTTP refusal's."""
    if len(message) > MESSAGE_LIMIT:
        message = message[: MESSAGE_LIMIT - 1] + "…"
    return ErrorMessage(message=message, error=message, code=code)


async def _next_text(websocket: WebSocket) -> str | None:
    """The next text frame, or None for a binary one; a disconnection raises
    ``WebSocketDisconnect``."""
    frame = await websocket.receive()
    if frame["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(frame.get("code", 1000), frame.get("reason"))
    text = frame.get("text")
    return text if isinstance(text, str) else None


def _hub(websocket: WebSocket) -> Hub:
    """Where the shared tables' messages go: this process, or the one running the table."""
    hub: Hub = websocket.app.state.hub
    return hub


async def _admit(websocket: WebSocket, name: str) -> tuple[int, SharedTable] | None:
    """The player and their table, or None once the handshake is refused: a page from
    another site, the handshake budget spent, no session, or no such table."""
    origin, host = websocket.headers.get("origin"), websocket.headers.get("host")
    if not origin or urlsplit(origin).netloc != host:  # another site's page: refused
        await websocket.close(code=1008, reason="this table takes its own page's connections")
        return None
    token = websocket.cookies.get(SESSION_COOKIE)
    address = websocket.client.host if websocket.client else "unknown"
    handshakes = get_budgets(websocket).handshakes

    def counted() -> int | None:  # may touch the database; waits its turn in the thread
        with handshakes.spend(address):
            return player_of(websocket, token)

    try:
        player = await asyncio.to_thread(counted)
    except Busy as busy:
        await _refuse(websocket, CLOSE_TRY_LATER, str(busy))
        return None
    lobby = get_lobby(websocket)
    table = lobby.find(name)
    if table is None:
        await _refuse(websocket, CLOSE_NO_TABLE, lobby.unknown(name))
        return None
    if player is None:
        await _refuse(websocket, CLOSE_LOG_IN, "log in first, then sit down again")
        return None
    return player, table


async def _refuse(websocket: WebSocket, code: int, reason: str) -> None:
    """Accept the handshake, then close it with ``code`` and ``reason`` (cut to a close
    frame's room), which the page reads."""
    await websocket.accept()
    with contextlib.suppress(*_GONE):
        await websocket.close(code=code, reason=reason[:120])


@router.websocket("/ws/tables/{name}")
async def shared_table(websocket: WebSocket, name: str) -> None:
    """A shared table (Crazy 4 or Baccarat), live: the messages of
    :mod:`riverboat.table.live.table` as JSON. ``name`` is a table's id from the lobby
    (``/api/lobby``), or a game's name for that game's first table. Send
    ``{"type": "bet", "wagers": {...}, "second": {...}, "client_seed": "..."}`` and
    ``{"type": "decide", "action": "play", "amount": 2000}``."""
    admitted = await _admit(websocket, name)
    if admitted is None:
        return
    player, table = admitted
    sessions, limiter, hub = get_sessions(websocket), get_limiter(websocket), _hub(websocket)
    token = websocket.cookies.get(SESSION_COOKIE)
    signed_in = await anyio.to_thread.run_sync(sessions.alive, token)
    await websocket.accept()
    SEATS.inc()

    async def send(message: TableMessage) -> None:
        if isinstance(message, ErrorMessage) and message.code is None:  # the table's own note
            message = _refusal(message.message, "note")
        await websocket.send_text(TableMessages.dump_json(message).decode())

    refused = 0  # the seat's messages refused one after another
    try:
        await get_lobby(websocket).sit(
            table,
            player,
            lambda: hub.sit(table, player, send, websocket.close, websocket.send_text),
        )
        while True:
            text = await _next_text(websocket)
            if signed_in and not await anyio.to_thread.run_sync(sessions.alive, token):
                ended = "the session has ended: log in again"
                await websocket.close(code=CLOSE_LOG_IN, reason=ended)
                return
            if text is not None and len(text.encode("utf-8", "surrogatepass")) > BODY_LIMIT:
                await websocket.close(code=1009, reason="message too big")
                return
            refusal: ErrorMessage | None
            if not await anyio.to_thread.run_sync(limiter.allow, f"table:{player}"):
                refusal = _refusal("too many messages; slow down", RATE_LIMITED)
            elif text is None:
                refusal = _refusal("send messages as JSON text, not binary", INVALID_REQUEST)
            else:
                refusal = await _table_message(hub, table, player, send, text)
            if refusal is None:
                refused = 0
                continue
            refused += 1
            if refused >= REFUSED_IN_A_ROW:  # a careless or hostile client: its seat goes
                await websocket.close(code=1008, reason="too many refused messages")
                return
            await send(refusal)
    except Refusal as error:  # no seat: the table is full, say so if it still listens
        with contextlib.suppress(*_GONE):
            await send(_refusal(str(error), code_of(error)))
            await websocket.close()
    except _GONE:  # the client went (or its connection broke) mid-send: nothing to say
        pass
    finally:  # whatever ended the connection, its seat is not left behind
        SEATS.dec()
        await hub.leave(table, player, send)
