"""Refusals as HTTP responses: the one place that maps them to status codes."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from riverboat.games.rules import IllegalAction, RulesError
from riverboat.web.models import first_problem

__all__ = ["install"]


def install(app: FastAPI) -> None:
    """Register the handlers that turn refusals into JSON responses."""

    @app.exception_handler(IllegalAction)
    async def refused(_: Request, error: IllegalAction) -> JSONResponse:
        return JSONResponse({"error": str(error)}, status_code=400)

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, error: RequestValidationError) -> JSONResponse:
        """A malformed request: what and where, as every other refusal says it."""
        return JSONResponse({"error": first_problem(error.errors(), skip=1)}, status_code=422)

    @app.exception_handler(RulesError)
    async def bad_rules(_: Request, error: RulesError) -> JSONResponse:
        return JSONResponse({"error": str(error)}, status_code=400)
