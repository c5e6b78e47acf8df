"""Every setting riverboat reads from its environment, read once into one typed object.

Each is an environment variable ``RIVERBOAT_<NAME>``; the commands' flags that set
the same thing (``--database``, ``--redis``, ``--redis-prefix``) name it as their
environment variable too, and a flag given wins. docs/settings.md lists them all.
Nothing else in riverboat reads the environment: it asks :func:`settings`.

The environment is read the first time a setting is asked for (a command that needs
none never imports pydantic-settings). A value that is not allowed is refused then,
with the variable, what it held and what is allowed:

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
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pydantic import ValidationError

    from riverboat._settings_model import Settings

__all__ = [
    "PREFIX",
    "Settings",
    "SettingsError",
    "amended",
    "forget",
    "overridden",
    "reload",
    "settings",
]

#: what every variable's name begins with
PREFIX = "RIVERBOAT_"


def __getattr__(name: str) -> object:
    """``Settings``, the model, imported when first named."""
    if name == "Settings":
        from riverboat._settings_model import Settings

        return Settings
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class SettingsError(ValueError):
    """A setting in the environment that is not allowed: which, what it held, and what
    is allowed."""


#: settings put in place of the environment's for a while (:func:`overridden`)
_OVERRIDES: list[Settings] = []


def settings() -> Settings:
    """The settings: read from the environment the first time they are asked for."""
    return _OVERRIDES[-1] if _OVERRIDES else _from_environment()


@cache
def _from_environment() -> Settings:
    from pydantic import ValidationError

    from riverboat._settings_model import Settings

    try:
        return Settings()
    except ValidationError as error:
        raise SettingsError(_said(error)) from None


def forget() -> None:
    """Read the environment again when a setting is next asked for (a command starting
    in a process that ran another: the tests' command runner)."""
    _from_environment.cache_clear()


def reload() -> Settings:
    """The settings read again (a test or a command that changed the environment)."""
    _from_environment.cache_clear()
    return settings()


def amended(**values: object) -> Settings:
    """The settings with ``values`` in place of theirs (a command's flags, a test's app);
    a name that is no setting is a :class:`TypeError`.

    >>> amended(rate_limit=5).rate_limit, settings().rate_limit
    (5, 60)
    """
    current = settings()
    unknown = sorted(set(values) - set(type(current).model_fields))
    if unknown:
        raise TypeError(f"no setting {', '.join(unknown)}: see docs/settings.md")
    return current.model_copy(update=values)


@contextmanager
def overridden(**values: object) -> Iterator[Settings]:
    """The settings with ``values`` in place while the block runs (an example, a test).

    >>> with overridden(redis_prefix="demo:"):
    ...     settings().redis_prefix
    'demo:'
    >>> settings().redis_prefix
    'riverboat:'
    """
    changed = amended(**values)
    _OVERRIDES.append(changed)
    try:
        yield changed
    finally:
        _OVERRIDES.remove(changed)


_ALLOWED = {
    "hash_slots": "password hashes at once, a whole number from 1",
    "database_threads": "threads at once, a whole number from 1",
    "group_commit": "1 or 0 (true or false)",
    "rate_limit": "requests a second, a whole number from 1",
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
