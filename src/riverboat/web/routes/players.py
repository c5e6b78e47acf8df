"""Players: who is playing, signing up, logging in and out, topping up."""

from __future__ import annotations

from contextlib import nullcontext

from fastapi import APIRouter, Request, Response
from starlette.concurrency import run_in_threadpool

from riverboat.admission.budgets import Busy
from riverboat.errors import BadCredentials
from riverboat.rng import new_token
from riverboat.table.accounts.names import NAME_RULE
from riverboat.table.accounts.players import Throttled
from riverboat.table.service import STARTING_CREDIT, TOP_UP_BELOW, TableService
from riverboat.table.views import BalanceView, LoginView, MeView, OkView
from riverboat.web.deps import (
    CSRF_COOKIE,
    SESSION_COOKIE,
    SESSION_SECONDS,
    Checked,
    Player,
    Service,
    Sessions,
    SessionStore,
    SessionToken,
    Spend,
)
from riverboat.web.errors import RESPONSES, ErrorBody
from riverboat.web.models import Login, SignUp

__all__ = ["router"]

router = APIRouter(prefix="/api", responses=RESPONSES)


@router.get("/me", response_model=MeView)
def me(
    player_id: Player, service: Service, sessions: SessionStore, session: SessionToken = None
) -> MeView:
    signed_in = sessions.alive(session)
    return MeView(
        player=player_id,
        balance=service.balance(player_id),
        signed_in=signed_in,
        top_up_below=TOP_UP_BELOW,
        top_up_to=STARTING_CREDIT,
    )


@router.post(
    "/login",
    dependencies=[Checked],
    response_model=LoginView,
    responses={
        429: {
            "model": ErrorBody,
            "description": "too many failed log-ins from this address, or too many "
            "password checks under way on the server; see Retry-After",
        }
    },
)
async def login(
    body: Login,
    request: Request,
    response: Response,
    service: Service,
    sessions: SessionStore,
    budgets: Spend,
    session: SessionToken = None,
) -> LoginView:
    """A session for the player; the browser's earlier one ends, and with
    ``revoke_others`` every other one of theirs. Too many failures from this address
    are refused 429 with ``Retry-After``, in the same words for any name; so is a
    log-in that finds the server's password checks spent (a short wait, uncounted).
    A refusal is answered once its wait is over (``Budgets.late``). A log-in from an
    address with no recent failures may take the checks' reserve, ahead of the
    guesses (``LoginWaits.vouch``)."""
    address = request.client.host if request.client else "unknown"
    waits, hashes = budgets.log_ins, service.password_checks
    try:
        with hashes.vouch(address) if waits.vouch(address) else nullcontext():
            player_id = await run_in_threadpool(service.login, body.name, body.password, address)
    except (Throttled, Busy) as told:  # its next tries are refused at the edge until then
        waits.hold(address, told)
        raise await budgets.late(address, told) from None
    except BadCredentials:
        waits.tried(address)  # a failed check: no turn in the reserve until it succeeds
        raise
    waits.succeeded(address)
    balance = await run_in_threadpool(
        _open_session, player_id, body.revoke_others, response, service, sessions, session
    )
    return LoginView(player=player_id, balance=balance)


@router.post(
    "/signup",
    dependencies=[Checked],
    response_model=LoginView,
    status_code=201,
    responses={
        409: {
            "model": ErrorBody,
            "description": "the name is taken, or looks like one that is, or is reserved",
        },
        422: {
            "model": ErrorBody,
            "description": f"a name or password the rules refuse, in their words ({NAME_RULE})",
        },
        429: {
            "model": ErrorBody,
            "description": "too many sign-ups from this address, or too many password "
            "checks under way on the server; see Retry-After",
        },
    },
)
async def sign_up(
    body: SignUp,
    request: Request,
    response: Response,
    service: Service,
    sessions: SessionStore,
    budgets: Spend,
    session: SessionToken = None,
) -> LoginView:
    """A new account, with its starting play money, and a session for it: the
    browser's earlier one ends, as at ``/api/login``. A name or password outside the
    rules is refused 422 saying them; a name that is, or looks like, one taken or
    reserved, 409. Every sign-up from an address counts against it (apart from its
    log-ins), as a failed log-in does: past so many it is refused 429 with
    ``Retry-After``, and so is a sign-up that finds the server's password checks
    spent. On a loopback server (where the page plays as the local player and never
    asks) it makes an account all the same, as ``riverboat accounts create`` does."""
    address = request.client.host if request.client else "unknown"
    try:
        player_id = await run_in_threadpool(service.sign_up, body.name, body.password, address)
    except (Throttled, Busy) as told:  # its next tries are refused at the edge until then
        budgets.sign_ups.hold(address, told)
        raise await budgets.late(address, told) from None
    balance = await run_in_threadpool(
        _open_session, player_id, False, response, service, sessions, session
    )
    return LoginView(player=player_id, balance=balance)


def _open_session(
    player_id: int,
    revoke_others: bool,
    response: Response,
    service: TableService,
    sessions: Sessions,
    session: str | None,
) -> int:
    """The player's new session in ``response``'s cookies (the old one closed, and with
    ``revoke_others`` every other of theirs); their balance."""
    sessions.close(session)
    token = sessions.open(player_id)
    locked = service.office.locked(player_id)
    if locked is not None:  # locked while the password was checked: its lock ended the rest
        sessions.close(token)
        raise BadCredentials(f"this account is locked by the house: {locked}")
    if revoke_others:
        sessions.close_others(player_id, keep=token)
    response.set_cookie(
        SESSION_COOKIE, token, httponly=True, samesite="strict", max_age=SESSION_SECONDS
    )
    response.set_cookie(CSRF_COOKIE, new_token(24), samesite="strict")  # a fresh token
    return service.balance(player_id)


@router.post("/logout", dependencies=[Checked], response_model=OkView)
def logout(response: Response, sessions: SessionStore, session: SessionToken = None) -> OkView:
    """This session ends (the player's others stay open)."""
    sessions.close(session)
    response.delete_cookie(SESSION_COOKIE)
    return OkView(ok=True)


@router.post("/top-up", dependencies=[Checked], response_model=BalanceView)
def top_up(player_id: Player, service: Service) -> BalanceView:
    return BalanceView(balance=service.top_up(player_id))
