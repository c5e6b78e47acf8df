"""The requests the web table takes: one pydantic model per body."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Path
from pydantic import BaseModel, Field

from riverboat.games import GAMES

__all__ = [
    "PRINTABLE",
    "ActionRequest",
    "ChipRequest",
    "Login",
    "ReplayRequest",
    "RoundId",
    "RoundRequest",
    "first_problem",
]

PRINTABLE = r"^[^\x00-\x1f\x7f]*$"  # no control characters (PostgreSQL refuses NUL)
RoundId = Annotated[int, Path(ge=1, le=2**31 - 1)]


class RoundRequest(BaseModel):
    game: str = Field(description=f"one of {', '.join(GAMES)}", max_length=32)
    wagers: dict[str, int] = Field(description="spot name to cents")
    second: dict[str, int] | None = Field(
        default=None,
        description="a second position, played blind, where the game has one (C8)",
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


class Login(BaseModel):
    """A name and password; the service says what each may be (a password too long
    is refused in its words, as at creation). ``revoke_others`` ends the player's
    other sessions, wherever they are."""

    name: str = Field(max_length=64, pattern=PRINTABLE)
    password: str = Field(max_length=1024)  # the rule is 8 to 128; this bounds the body
    revoke_others: bool = False


def first_problem(problems: Any, skip: int = 0) -> str:
    """The first of pydantic's problems with an input, as "where: what"."""
    problem = problems[0]
    where = ".".join(str(part) for part in problem["loc"][skip:]) or "message"
    return f"{where}: {problem['msg']}"
