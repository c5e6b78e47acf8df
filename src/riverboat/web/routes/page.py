"""The page itself, which sets the CSRF cookie its requests send back."""

from __future__ import annotations

from importlib.resources import files
from typing import Annotated

from fastapi import APIRouter, Cookie
from fastapi.responses import HTMLResponse

from riverboat.rng import new_token
from riverboat.web.deps import CSRF_COOKIE
from riverboat.web.errors import RESPONSES

__all__ = ["STATIC", "router"]

STATIC = files("riverboat.web") / "static"
router = APIRouter(responses=RESPONSES)


@router.get("/", response_class=HTMLResponse, include_in_schema=False)
def page(token: Annotated[str | None, Cookie(alias=CSRF_COOKIE)] = None) -> HTMLResponse:
    return _html("index.html", token)


@router.get("/office", response_class=HTMLResponse, include_in_schema=False)
def office(token: Annotated[str | None, Cookie(alias=CSRF_COOKIE)] = None) -> HTMLResponse:
    """The back office's page: it holds nothing but its code; what it shows comes from
    ``/api/office``, for operators only."""
    return _html("office.html", token)


def _html(name: str, token: str | None) -> HTMLResponse:
    """A page of the static folder, with the CSRF cookie its requests send back."""
    html = HTMLResponse((STATIC / name).read_text())
    html.set_cookie(CSRF_COOKIE, token or new_token(24), samesite="strict")
    return html
