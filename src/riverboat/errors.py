"""Refusals, by kind: every "no" riverboat says is one of these.

Each carries a message a player can read and a short ``code`` naming its kind; the
web layer maps each kind to one HTTP status, and every front end shows the message.
Nothing changes when one is raised (G6). They are ``ValueError`` subclasses, so code
that only cares that a request was refused may catch ``ValueError``.

>>> error = NotFound("there is no round 7 of yours")
>>> error.code, str(error), isinstance(error, Refusal)
('not_found', 'there is no round 7 of yours', True)
>>> sorted(kind.code for kind in REFUSALS)  # doctest: +NORMALIZE_WHITESPACE
['bad_credentials', 'conflict', 'forbidden', 'illegal_action', 'not_found',
 'too_large', 'unavailable']
"""

from __future__ import annotations

from typing import ClassVar

__all__ = [
    "REFUSALS",
    "BadCredentials",
    "Conflict",
    "Forbidden",
    "IllegalAction",
    "NotFound",
    "Refusal",
    "TooLarge",
    "Unavailable",
]


class Refusal(ValueError):  # noqa: N818 - a refusal is not a failure of the code
    """A request riverboat refuses, with a message that says why and what is allowed."""

    code: ClassVar[str] = "refused"


class NotFound(Refusal):
    """No such thing for this player: a round, a deal, a game. Another player's round
    is "not found" too, so a refusal never tells whose it is."""

    code = "not_found"


class Forbidden(Refusal):
    """Not yours to do: a request without its CSRF token, a page from another origin,
    a local-only action from afar."""

    code = "forbidden"


class BadCredentials(Refusal):
    """No session, or a name and password that do not match."""

    code = "bad_credentials"


class IllegalAction(Refusal):
    """A wager or action the rules refuse (a limit, "Bonus must equal Ante", the
    balance, the order of play), with a message a player can read (G6)."""

    code = "illegal_action"


class Conflict(Refusal):
    """Refused because of what is already so: an unfinished round at this table (G7),
    an idempotency key reused for another request, a name already taken."""

    code = "conflict"


class TooLarge(Refusal):
    """A request or a message larger than riverboat accepts."""

    code = "too_large"


class Unavailable(Refusal):
    """A part riverboat needs does not answer now (the database); try again later."""

    code = "unavailable"


#: every kind of refusal, for the layer that maps them (one place) to statuses
REFUSALS: tuple[type[Refusal], ...] = (
    NotFound,
    Forbidden,
    BadCredentials,
    IllegalAction,
    Conflict,
    TooLarge,
    Unavailable,
)
