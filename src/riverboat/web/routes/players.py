"""Players: who is playing, logging in and out, topping up."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from riverboat.rng import new_token
from riverboat.table.views import BalanceView, LoginView, MeView, OkView
from riverboat.web.deps import (
    CSRF_COOKIE,
    SESSION_COOKIE,
    SESSION_SECONDS,
    Checked,
    Player,
    Service,
    SessionStore,
    SessionToken,
)
from riverboat.web.models import Login

__all__ = ["router"]

router = APIRouter(prefix="/api")


@router.get("/me", response_model=MeView)
def me(
    player_id: Player, service: Service, sessions: SessionStore, session: SessionToken = None
) -> MeView:
    signed_in = sessions.alive(session)
    return MeView(player=player_id, balance=service.balance(player_id), signed_in=signed_in)


@router.post("/login", dependencies=[Checked], response_model=LoginView)
def login(
    body: Login, request: Request, response: Response, service: Service, sessions: SessionStore
) -> LoginView:
    address = request.client.host if request.client else "unknown"
    player_id = service.login(body.name, body.password, address)
    token = sessions.open(player_id)
    response.set_cookie(
        SESSION_COOKIE, token, httponly=True, samesite="strict", max_age=SESSION_SECONDS
    )
    response.set_cookie(CSRF_COOKIE, new_token(24), samesite="strict")  # a fresh token
    return LoginView(player=player_id, balance=service.balance(player_id))


@router.post("/logout", dependencies=[Checked], response_model=OkView)
def logout(response: Response, sessions: SessionStore, session: SessionToken = None) -> OkView:
    sessions.close(session)
    response.delete_cookie(SESSION_COOKIE)
    return OkView(ok=True)


@router.post("/top-up", dependencies=[Checked], response_model=BalanceView)
def top_up(player_id: Player, service: Service) -> BalanceView:
    return BalanceView(balance=service.top_up(player_id))
