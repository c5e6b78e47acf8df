"""The web table: a FastAPI app over the table service.

The server is authoritative: the browser gets the player's own cards, the legal
choices and, once a round is over, everything else. Sessions are HttpOnly, SameSite
cookies; every state-changing request carries the CSRF token the page was given;
each client is rate limited. On a loopback address the local player plays without
logging in.
"""

from __future__ import annotations

import asyncio
import hmac
import threading
import time
from collections import defaultdict, deque
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from fractions import Fraction
from importlib.resources import files
from typing import Annotated, Any
from urllib.parse import urlsplit

from fastapi import (
    Cookie,
    Depends,
    FastAPI,
    Header,
    HTTPException,
    Path,
    Query,
    Request,
    Response,
    WebSocket,
    WebSocketDisconnect,
)
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field, TypeAdapter, ValidationError
from starlette.middleware.trustedhost import TrustedHostMiddleware

from riverboat.games import GAMES, find_game
from riverboat.games.chips import hold, tap
from riverboat.games.rules import IllegalAction, RulesError
from riverboat.rng import new_token
from riverboat.table.service import TableService
from riverboat.table.shared import SHARED_GAMES, SharedTable
from riverboat.table.views import (
    BalanceView,
    Bet,
    ErrorMessage,
    ExportedRound,
    GameInfo,
    HintOption,
    LoginView,
    MeView,
    NextCommitment,
    OkView,
    PlayerMessage,
    RoundView,
    ShoeEnded,
    TableMessage,
)

__all__ = ["create_app"]

SESSION_COOKIE = "riverboat_session"
SESSION_SECONDS = 12 * 3600  # a session lasts twelve hours
CSRF_COOKIE = "riverboat_csrf"
STATIC = files("riverboat.web") / "static"


PRINTABLE = r"^[^\x00-\x1f\x7f]*$"  # no control characters (PostgreSQL refuses NUL)
RoundId = Annotated[int, Path(ge=1, le=2**31 - 1)]


class RoundRequest(BaseModel):
    game: str = Field(description="rabbit-hunter, tri-card, crazy4 or baccarat", max_length=32)
    wagers: dict[str, int] = Field(description="spot name to cents")
    second: dict[str, int] | None = Field(
        default=None, description="Crazy 4: a second position, played blind (C8)"
    )
    client_seed: str | None = Field(default=None, max_length=128, pattern=PRINTABLE)
    idempotency_key: str | None = Field(default=None, max_length=128, pattern=PRINTABLE)


class ActionRequest(BaseModel):
    action: str = Field(max_length=32)
    amount: int | None = None
    idempotency_key: str | None = Field(default=None, max_length=128, pattern=PRINTABLE)


class ReplayRequest(BaseModel):
    client_seed: str | None = Field(default=None, max_length=128, pattern=PRINTABLE)
    idempotency_key: str | None = Field(default=None, max_length=128, pattern=PRINTABLE)


class ChipRequest(BaseModel):
    game: str
    wagers: dict[str, int]
    spot: str
    chip: int = 0
    hold: bool = False


PlayerMessages: TypeAdapter[PlayerMessage] = TypeAdapter(PlayerMessage)
TableMessages: TypeAdapter[TableMessage] = TypeAdapter(TableMessage)


def _first_problem(problems: Sequence[Any], skip: int = 0) -> str:
    """The first of pydantic's problems with an input, as "where: what"."""
    problem = problems[0]
    where = ".".join(str(part) for part in problem["loc"][skip:]) or "message"
    return f"{where}: {problem['msg']}"


async def _table_message(table: SharedTable, player: int, text: str) -> None:
    """One message from a player at a shared table, checked before it acts."""
    try:
        message = PlayerMessages.validate_json(text)
    except ValidationError as error:
        raise IllegalAction(
            f"{_first_problem(error.errors())}; send "
            '{"type": "bet", "wagers": {"ante": 1000, ...}} or '
            '{"type": "decide", "action": "play", "amount": 1000}'
        ) from None
    if isinstance(message, Bet):
        await table.bet(player, message.wagers, message.second, message.client_seed)
    else:
        await table.decide(player, message.action, message.amount)


class Login(BaseModel):
    name: str = Field(max_length=64, pattern=PRINTABLE)
    password: str = Field(max_length=256)


class RateLimiter:
    """At most ``limit`` requests per client in any ``window`` seconds."""

    def __init__(self, limit: int = 60, window: float = 1.0) -> None:
        self.limit, self.window = limit, window
        self._seen: dict[str, deque[float]] = defaultdict(deque)
        self._lock = threading.Lock()

    def allow(self, client: str) -> bool:
        now = time.monotonic()
        with self._lock:
            seen = self._seen[client]
            while seen and now - seen[0] > self.window:
                seen.popleft()
            if len(seen) >= self.limit:
                return False
            seen.append(now)
            return True


def player_of(state: Any, session: str | None) -> int | None:
    """The session's player, or on a loopback server the local player; None if neither."""
    if session and session in state.sessions:
        player_id, expires = state.sessions[session]
        if time.monotonic() < expires:
            return int(player_id)
        del state.sessions[session]  # expired: log in again
    if state.local_player:
        return int(state.service.local_player())
    return None


def _alive(sessions: dict[str, tuple[int, float]], token: str | None) -> bool:
    """Whether the session is still open (a dictionary look-up, no database)."""
    return bool(token) and token in sessions and sessions[token][1] > time.monotonic()


def current_player(
    request: Request, session: Annotated[str | None, Cookie(alias=SESSION_COOKIE)] = None
) -> int:
    """The logged-in player, or on a loopback server the local player."""
    player = player_of(request.app.state, session)
    if player is None:
        raise HTTPException(status_code=401, detail="log in first")
    return player


def check_csrf(
    token: Annotated[str | None, Header(alias="X-CSRF-Token")] = None,
    cookie: Annotated[str | None, Cookie(alias=CSRF_COOKIE)] = None,
) -> None:
    """State-changing requests carry the page's CSRF token (double submit)."""
    if not token or not cookie or not hmac.compare_digest(token, cookie):
        raise HTTPException(status_code=403, detail="missing or wrong CSRF token; reload the page")


_EDGES: dict[str, float] = {}
_EDGES_STARTED = threading.Event()


def _start_house_edges() -> None:
    """Work out each game's house edge once per process, in the background (the
    analyzer takes seconds; Rabbit Hunter half a minute); the pay table shows it when ready."""
    if _EDGES_STARTED.is_set():
        return
    _EDGES_STARTED.set()

    def work() -> None:
        from riverboat.analysis import analyze

        for name in ("baccarat", "tri-card", "crazy4", "rabbit-hunter"):
            _EDGES[name] = float(analyze(name).figures.house_edge)

    threading.Thread(target=work, daemon=True, name="house-edges").start()


Player = Annotated[int, Depends(current_player)]
Checked = Depends(check_csrf)


def create_app(
    database: str | None = None,
    local_player: bool = True,
    rate_limit: int = 60,
    house_edges: bool = True,
    allowed_hosts: list[str] | None = None,
    recover: bool = False,
    betting_seconds: float = 15.0,
    decision_seconds: float = 45.0,
) -> FastAPI:
    """The app; ``local_player`` lets requests without a session play as the local player;
    ``house_edges`` works out each game's edge in the background for the pay tables;
    the shared tables close betting and decisions after the given seconds."""
    service = TableService(database)
    if recover:  # G7: rounds a stopped server left before their first decision are void
        service.recover()
    sessions: dict[str, tuple[int, float]] = {}  # token -> (player, expiry on the monotonic clock)
    limiter = RateLimiter(rate_limit)
    tables = {
        game: SharedTable(service, game, betting_seconds, decision_seconds) for game in SHARED_GAMES
    }

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        yield
        for table in tables.values():
            await table.close()

    app = FastAPI(
        title="riverboat",
        description="Casino table games, dealt fairly.",
        version="1",
        lifespan=lifespan,
    )
    app.state.service, app.state.sessions, app.state.local_player = service, sessions, local_player
    if allowed_hosts:  # a page on another name (DNS rebinding) cannot reach the table
        app.add_middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts)
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")

    if house_edges:
        _start_house_edges()

    @app.middleware("http")
    async def guard(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        client = request.client.host if request.client else "unknown"
        if not limiter.allow(client):
            return JSONResponse({"error": "too many requests; slow down"}, status_code=429)
        return await call_next(request)

    @app.exception_handler(IllegalAction)
    async def refused(_: Request, error: IllegalAction) -> JSONResponse:
        return JSONResponse({"error": str(error)}, status_code=400)

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, error: RequestValidationError) -> JSONResponse:
        """A malformed request: what and where, as every other refusal says it."""
        return JSONResponse({"error": _first_problem(error.errors(), skip=1)}, status_code=422)

    @app.exception_handler(RulesError)
    async def bad_rules(_: Request, error: RulesError) -> JSONResponse:
        return JSONResponse({"error": str(error)}, status_code=400)

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def page(
        response: Response, token: Annotated[str | None, Cookie(alias=CSRF_COOKIE)] = None
    ) -> str:
        page = (STATIC / "index.html").read_text()
        html = HTMLResponse(page)
        html.set_cookie(CSRF_COOKIE, token or new_token(24), samesite="strict")
        return html  # type: ignore[return-value]

    @app.get("/api/games", response_model=list[GameInfo])
    def games() -> list[GameInfo]:
        """Every game's wagers, chips, pay tables and rules (R11), with its house edge."""
        return [GameInfo.of(game, _EDGES.get(name)) for name, game in GAMES.items()]

    @app.get("/api/me", response_model=MeView)
    def me(
        player_id: Player, session: Annotated[str | None, Cookie(alias=SESSION_COOKIE)] = None
    ) -> MeView:
        signed_in = _alive(sessions, session)
        return MeView(player=player_id, balance=service.balance(player_id), signed_in=signed_in)

    @app.post("/api/login", dependencies=[Checked], response_model=LoginView)
    def login(body: Login, request: Request, response: Response) -> LoginView:
        address = request.client.host if request.client else "unknown"
        player_id = service.login(body.name, body.password, address)
        token = new_token(32)
        sessions[token] = (player_id, time.monotonic() + SESSION_SECONDS)
        response.set_cookie(
            SESSION_COOKIE, token, httponly=True, samesite="strict", max_age=SESSION_SECONDS
        )
        response.set_cookie(CSRF_COOKIE, new_token(24), samesite="strict")  # a fresh token
        return LoginView(player=player_id, balance=service.balance(player_id))

    @app.post("/api/logout", dependencies=[Checked], response_model=OkView)
    def logout(
        response: Response, session: Annotated[str | None, Cookie(alias=SESSION_COOKIE)] = None
    ) -> OkView:
        sessions.pop(session or "", None)
        response.delete_cookie(SESSION_COOKIE)
        return OkView(ok=True)

    @app.post("/api/chips")
    def chips(body: ChipRequest) -> dict[str, int]:
        """A tap (or press-and-hold) on a wager spot (R2); pure, changes nothing stored."""
        kind = find_game(body.game)
        spots = kind.new_round().spots
        if not body.hold and body.chip not in kind.rules().chips:
            chips = ", ".join(f"${c // 100}" for c in kind.rules().chips)
            raise IllegalAction(f"the chips here are {chips}")
        if body.hold:
            return hold(body.wagers, body.spot, spots)
        return tap(body.wagers, body.spot, body.chip, spots)

    @app.post("/api/rounds", dependencies=[Checked], response_model=RoundView)
    def start(body: RoundRequest, player_id: Player) -> RoundView:
        return service.start_round(
            player_id,
            body.game,
            body.wagers,
            body.client_seed,
            body.idempotency_key,
            second=body.second,
        )

    @app.post("/api/games/{game}/replay", dependencies=[Checked], response_model=RoundView)
    def replay(game: str, body: ReplayRequest, player_id: Player) -> RoundView:
        """Quick Replay (R10): the last round's wagers, checked again."""
        return service.quick_replay(player_id, game, body.idempotency_key, body.client_seed)

    @app.get("/api/games/{game}/commitment", response_model=NextCommitment)
    def commitment(game: str, player_id: Player) -> NextCommitment:
        """The commitment to your next round's server seed at this table: note it, then
        deal with a client seed of your own; the round must show the same commitment.
        ``shoe_in_play``: Baccarat's shoe deals on, on the seeds it already has (B1)."""
        commitment = service.next_commitment(player_id, game)
        in_play = game == "baccarat" and service.shoe_in_play(player_id)
        return NextCommitment(commitment=commitment, shoe_in_play=in_play)

    @app.post("/api/games/baccarat/shoe/end", dependencies=[Checked], response_model=ShoeEnded)
    def end_shoe(player_id: Player) -> ShoeEnded:
        """End your own Baccarat shoe now: its seed shows, and the next coup starts a new one."""
        return ShoeEnded(ended=service.end_shoe(player_id))

    @app.get("/api/games/{game}/open", response_model=RoundView | None)
    def open_round(game: str, player_id: Player) -> RoundView | None:
        """The unfinished round at this table, to pick it up again after a reload."""
        return service.open_round(player_id, game)

    @app.get("/api/rounds/{round_id}", response_model=RoundView)
    def show(round_id: RoundId, player_id: Player) -> RoundView:
        return service.round(player_id, round_id)

    @app.post("/api/rounds/{round_id}/actions", dependencies=[Checked], response_model=RoundView)
    def act(round_id: RoundId, body: ActionRequest, player_id: Player) -> RoundView:
        return service.act(player_id, round_id, body.action, body.amount, body.idempotency_key)

    @app.get("/api/rounds/{round_id}/hint", response_model=list[HintOption])
    def hint(round_id: RoundId, player_id: Player) -> list[HintOption]:
        """Each legal option's expected value for this hand (in Antes)."""
        from riverboat.analysis import best_action

        view = service.round(player_id, round_id)
        if view.status != "open" or not view.choices:
            raise IllegalAction("hints are for rounds waiting for a decision")
        placed = view.wagers
        units = {name: Fraction(amount, placed["ante"]) for name, amount in placed.items()}
        options = best_action(view.game, " ".join(view.cards["player"]), units)
        return [
            HintOption(action=o.option, label=o.label, expected=float(o.expected)) for o in options
        ]

    @app.websocket("/ws/tables/{game}")
    async def shared_table(websocket: WebSocket, game: str) -> None:
        """A shared table (Crazy 4 or Baccarat), live: the messages of
        :mod:`riverboat.table.shared` as JSON. Send ``{"type": "bet", "wagers": {...},
        "second": {...}, "client_seed": "..."}`` and ``{"type": "decide", "action":
        "play", "amount": 2000}``."""
        origin, host = websocket.headers.get("origin"), websocket.headers.get("host")
        if not origin or urlsplit(origin).netloc != host:  # another site's page: refused
            await websocket.close(code=1008, reason="this table takes its own page's connections")
            return
        token = websocket.cookies.get(SESSION_COOKIE)
        player = await asyncio.to_thread(player_of, app.state, token)  # may touch the database
        signed_in = _alive(sessions, token)
        table = tables.get(game)
        if player is None or table is None:
            reason = "log in first" if table else f"shared tables play {' or '.join(SHARED_GAMES)}"
            await websocket.close(code=1008, reason=reason)
            return
        await websocket.accept()

        async def send(message: TableMessage) -> None:
            await websocket.send_json(TableMessages.dump_python(message, mode="json"))

        try:
            await table.sit(player, send)
            while True:
                text = await websocket.receive_text()
                if signed_in and not _alive(sessions, token):  # logged out, or expired
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

    @app.get("/api/history", response_model=list[ExportedRound])
    def history(
        player_id: Player,
        limit: int = 20,
        commitment: Annotated[str | None, Query(max_length=64)] = None,
    ) -> list[ExportedRound]:
        """Your last rounds, newest first; with ``commitment``, a shoe's coups."""
        return service.history(player_id, limit, commitment)

    @app.post("/api/top-up", dependencies=[Checked], response_model=BalanceView)
    def top_up(player_id: Player) -> BalanceView:
        return BalanceView(balance=service.top_up(player_id))

    return app
