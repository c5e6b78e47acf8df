"""Every setting riverboat reads from its environment, read once into one typed object.

Each is an environment variable ``RIVERBOAT_<NAME>``; the commands' flags that set
the same thing (``--database``, ``--redis``, ``--redis-prefix``) name it as their
environment variable too, and a flag given wins. docs/settings.md lists them all.
Nothing else in riverboat reads the environment: it asks :func:`settings`.

A value that is not allowed is refused as the process starts (or first asks), with
the variable, what it held and what is allowed:

>>> import os
>>> os.environ["RIVERBOAT_HASH_SLOTS"] = "0"
>>> try:
...     reload()
... except SettingsError as error:
...     print(error)
RIVERBOAT_HASH_SLOTS is '0': password hashes at once, a whole number from 1
>>> del os.environ["RIVERBOAT_HASH_SLOTS"]
>>> reload().hash_slots is None
True
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Annotated, Any

from pydantic import Field, ValidationError
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = ["PREFIX", "Settings", "SettingsError", "overridden", "reload", "settings"]

#: what every variable's name begins with
PREFIX = "RIVERBOAT_"


class SettingsError(ValueError):
    """A setting in the environment that is not allowed: which, what it held, and what
    is allowed."""


class Settings(BaseSettings):
    """riverboat's settings, from ``RIVERBOAT_*`` environment variables."""

    model_config = SettingsConfigDict(
        env_prefix=PREFIX, frozen=True, extra="ignore", env_ignore_empty=True
    )

    database_url: str | None = Field(
        default=None,
        description="the database, as an SQLAlchemy URL (sqlite:///FILE or "
        "postgresql+psycopg://USER@HOST/NAME); unset: an SQLite file in the user's data "
        "folder",
    )
    redis_url: str | None = Field(
        default=None,
        description="redis://HOST:PORT/DB: sessions' cache, log-in throttles and rate "
        "limits, and the shared tables served by every process with this Redis "
        "(PostgreSQL only); unset or empty: none",
    )
    redis_prefix: str = Field(
        default="riverboat:", description="what this deployment's Redis keys begin with"
    )
    hash_slots: Annotated[int, Field(ge=1)] | None = Field(
        default=None,
        description="password hashes at once, a whole number from 1; unset: half the "
        "cores, at least one",
    )
    group_commit: bool = Field(
        default=True,
        description="SQLite's writes committed together in batches (0 turns it off: each "
        "write its own transaction)",
    )
    cache_dir: Path | None = Field(
        default=None,
        description="the folder of the exact analysis's tables; unset: analysis in the "
        "user's cache folder",
    )
    rate_limit: Annotated[int, Field(ge=1)] = Field(
        default=60, description="requests a minute one address may make to the web service"
    )
    betting_seconds: Annotated[float, Field(gt=0)] = Field(
        default=15.0, description="a shared table's betting clock, from its first bet"
    )
    decision_seconds: Annotated[float, Field(gt=0)] = Field(
        default=45.0, description="a shared table's clock for its hands' decisions"
    )
    forwarded_allow_ips: str | None = Field(
        default=None,
        description="behind a reverse proxy: the proxies' addresses (comma-separated, or "
        "*) whose X-Forwarded-For and X-Forwarded-Proto are believed; unset: nobody's",
    )
    serve_settings: str | None = Field(
        default=None,
        description="set by riverboat serve --workers for its worker processes (the "
        "app's settings as JSON); not for setting by hand",
    )


#: settings put in place of the environment's for a while (:func:`overridden`)
_OVERRIDES: list[Settings] = []


def settings() -> Settings:
    """The settings: read from the environment the first time they are asked for."""
    return _OVERRIDES[-1] if _OVERRIDES else _from_environment()


@cache
def _from_environment() -> Settings:
    try:
        return Settings()
    except ValidationError as error:
        raise SettingsError(_said(error)) from None


def reload() -> Settings:
    """The settings read again (a test or a command that changed the environment)."""
    _from_environment.cache_clear()
    return settings()


@contextmanager
def overridden(**values: Any) -> Iterator[Settings]:
    """The settings with ``values`` in place while the block runs (an example, a test).

    >>> with overridden(redis_prefix="demo:"):
    ...     settings().redis_prefix
    'demo:'
    >>> settings().redis_prefix
    'riverboat:'
    """
    changed = settings().model_copy(update=values)
    _OVERRIDES.append(changed)
    try:
        yield changed
    finally:
        _OVERRIDES.remove(changed)


_ALLOWED = {
    "hash_slots": "password hashes at once, a whole number from 1",
    "group_commit": "1 or 0 (true or false)",
    "rate_limit": "requests a minute, a whole number from 1",
    "betting_seconds": "seconds, a number above 0",
    "decision_seconds": "seconds, a number above 0",
}


def _said(error: ValidationError) -> str:
    """The first mistake, as the variable, what it held and what is allowed."""
    problem = error.errors()[0]
    name = str(problem["loc"][0]) if problem["loc"] else ""
    allowed = _ALLOWED.get(name, problem["msg"])
    given = str(problem.get("input", ""))[:40]
    return f"{PREFIX}{name.upper()} is {given!r}: {allowed}"
