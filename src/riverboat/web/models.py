"""The requests the web table takes, one pydantic model per body; and a view sent
back as it is (:func:`answer`)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Path, Response
from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, StringConstraints

from riverboat.games import GAMES
from riverboat.table.views import MOST_SPOTS

__all__ = [
    "PRINTABLE",
    "ActionRequest",
    "AdjustRequest",
    "ChipRequest",
    "DoubleRequest",
    "Login",
    "ReasonRequest",
    "ReplayRequest",
    "RoundId",
    "RoundRequest",
    "SignUp",
    "Wagers",
    "answer",
    "first_problem",
]

PRINTABLE = r"^[^\x00-\x1f\x7f]*$"  # no control characters (PostgreSQL refuses NUL)
RoundId = Annotated[int, Path(ge=1, le=2**31 - 1)]
#: the most wager spots a body names, and the longest name: every game has fewer, shorter
NAME_LENGTH = 32
SpotName = Annotated[str, StringConstraints(max_length=NAME_LENGTH)]
#: money is whole cents, strictly: pydantic's lax mode would take "500", 500.0 or true
Wagers = Annotated[
    dict[SpotName, StrictInt], Field(description="spot name to cents", max_length=MOST_SPOTS)
]


class RoundRequest(BaseModel):
    game: str = Field(description=f"one of {', '.join(GAMES)}", max_length=32)
    wagers: Wagers
    second: Wagers | None = Field(
        default=None,
        description="a second position, played blind, where the game has one (C8)",
    )
    client_seed: str | None = Field(default=None, max_length=128, pattern=PRINTABLE)
    idempotency_key: str | None = Field(default=None, max_length=128, pattern=PRINTABLE)


class ActionRequest(BaseModel):
    action: str = Field(max_length=32)
    amount: StrictInt | None = None
    idempotency_key: str | None = Field(default=None, max_length=128, pattern=PRINTABLE)


class ReplayRequest(BaseModel):
    client_seed: str | None = Field(default=None, max_length=128, pattern=PRINTABLE)
    idempotency_key: str | None = Field(default=None, max_length=128, pattern=PRINTABLE)


class ChipRequest(BaseModel):
    game: str = Field(max_length=NAME_LENGTH)
    wagers: Wagers
    spot: SpotName
    chip: StrictInt = 0
    hold: StrictBool = False


class DoubleRequest(BaseModel):
    """Double every wager placed at ``game``'s table."""

    game: str = Field(max_length=NAME_LENGTH)
    wagers: Wagers


class Login(BaseModel):
    """A name and password; the service says what each may be (a password too long
    is refused in its words, as at creation). ``revoke_others`` ends the player's
    other sessions, wherever they are."""

    name: str = Field(max_length=64, pattern=PRINTABLE)
    password: str = Field(max_length=1024)  # the rule is 8 to 128; this bounds the body
    revoke_others: bool = False


class SignUp(BaseModel):
    """A new player's name and password, bounded as a log-in's are; the service says
    what each may be (``NAME_RULE``, ``PASSWORD_RULE``)."""

    name: str = Field(max_length=64, pattern=PRINTABLE)
    password: str = Field(max_length=1024)  # the rule is 8 to 128; this bounds the body


class ReasonRequest(BaseModel):
    """An operator's change to an account, with the reason the player is shown."""

    model_config = ConfigDict(extra="forbid")

    reason: str = Field(min_length=1, max_length=500, pattern=PRINTABLE)


class AdjustRequest(ReasonRequest):
    """An operator's credit or debit: whole cents, strictly, and the operator's own
    password again (a movement of money is confirmed as a log-in is)."""

    amount: StrictInt = Field(gt=0, description="cents, 1 or more")
    password: str = Field(max_length=1024)


def answer(view: BaseModel) -> Response:
    """``view`` as a JSON response, serialised once by its own model. A view the
    service built is valid already: a route that returns it this way keeps its
    ``response_model`` for the schema alone, and FastAPI neither validates it again
    nor hands the work to a thread of its own.

    >>> answer(ActionRequest(action="raise")).body
    b'{"action":"raise","amount":null,"idempotency_key":null}'
    """
    return Response(view.model_dump_json(by_alias=True), media_type="application/json")


def first_problem(problems: Any, skip: int = 0) -> str:
    """The first of pydantic's problems with an input, as "where: what"; each part of
    "where" (a key the input named) at most 32 characters.

    >>> first_problem([{"loc": ("wagers", "x" * 40), "msg": "Input should be an integer"}])
    'wagers.xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…: Input should be an integer'
    """
    problem = problems[0]
    where = ".".join(_short(str(part)) for part in problem["loc"][skip:]) or "message"
    return f"{where}: {_short(str(problem['msg']), 200)}"


def _short(text: str, most: int = NAME_LENGTH) -> str:
    return text if len(text) <= most else text[: most - 1] + "…"
