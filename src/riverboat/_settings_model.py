"""The settings' model (pydantic-settings): what each ``RIVERBOAT_*`` variable holds,
its default and what it allows. Read it through :mod:`riverboat.settings`, which
imports this module only when a setting is first asked for (a command that needs
none starts without pydantic-settings)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

from riverboat.settings import PREFIX

__all__ = ["Settings"]


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
    database_threads: Annotated[int, Field(ge=1)] | None = Field(
        default=None,
        description="threads that carry deals, decisions and the rate limit's counts to "
        "the database at once, a whole number from 1; unset: 40 on SQLite, twice the "
        "cores and two more on PostgreSQL",
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
        default=60, description="requests a second one address may make to the web service"
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
    local_player: bool = Field(
        default=True,
        description="a request without a session plays as the local player (no password); "
        "riverboat serve sets it by its address: on loopback only",
    )
    allowed_hosts: list[str] | None = Field(
        default=None,
        description='the Host names the web service answers (a JSON list, ["127.0.0.1"]); '
        "riverboat serve sets the loopback names on loopback; unset: any",
    )
    log_format: Literal["text", "json"] = Field(
        default="text",
        description="the server's log lines: text, or json (one JSON object a line, with "
        "the request's id: docs/operations.md)",
    )
    house_edges: bool = Field(
        default=True,
        description="each game's house edges worked out for the pay tables once the "
        "server is up, in a process of its own at the lowest priority (0: not, the pay "
        "tables say so)",
    )
    serve_settings: str | None = Field(
        default=None,
        description="set by riverboat serve --workers for its worker processes (the "
        "app's settings as JSON); not for setting by hand",
    )
