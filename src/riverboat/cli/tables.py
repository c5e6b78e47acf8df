"""The tables themselves: serve (in the browser) and play (in the terminal, or with
--auto a line per round for scripts)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

if TYPE_CHECKING:
    from riverboat.games import GameRules
    from riverboat.settings import Settings
    from riverboat.table.lobby import TableConfig
    from riverboat.web.app import ServerOptions

from riverboat.cli import _database
from riverboat.cli._database import (
    _check_database_url,
    _Database,
    _no_answer,
    _opening,
    _PlayerName,
    _who,
)
from riverboat.cli._extras import _need_extra
from riverboat.cli._output import Lines
from riverboat.cli._wagers import _parse_money_wagers
from riverboat.cli.games import GAME_HELP
from riverboat.errors import Refusal, Unavailable
from riverboat.settings import amended


def _first_game() -> str:
    """The table a command opens when none is named: the registry's first game (read
    when asked: the games are not imported for every command)."""
    from riverboat.games import GAMES

    return next(iter(GAMES))


#: serve's options
_Host = Annotated[str, typer.Option(help="Address to listen on.")]

_Port = Annotated[int, typer.Option(min=1, max=65535, help="Port.")]

_ForwardedAllowIps = Annotated[
    str | None,
    typer.Option(
        help="Behind a reverse proxy: the proxies' addresses (comma-separated, or '*') "
        "whose X-Forwarded-For and X-Forwarded-Proto are believed. Default: "
        "RIVERBOAT_FORWARDED_ALLOW_IPS, else nobody's."
    ),
]

_Tables = Annotated[
    str | None,
    typer.Option(
        help="Shared tables per game, e.g. 'crazy4=3,baccarat=2' (each 1 to 50). "
        "Default: one of each."
    ),
]

_TablesFile = Annotated[
    Path | None,
    typer.Option(
        help="A TOML file of [[table]] entries (id, game, name, optional variant or "
        "variant_file) instead of --tables; see docs/service.md."
    ),
]

_Workers = Annotated[
    int,
    typer.Option(
        min=1,
        max=64,
        help="Server processes (PostgreSQL only; SQLite serves from one). Sessions, "
        "log-in throttles and rate limits are shared by every process (the database, "
        "or Redis with --redis); the shared tables too with --redis; without it each "
        "process deals its own copy of each shared table.",
    ),
]

_Redis = Annotated[
    str | None,
    typer.Option(
        "--redis",
        envvar="RIVERBOAT_REDIS_URL",
        help="redis://HOST:PORT/DB: serve the shared tables together with every other "
        "process started with this Redis and database (PostgreSQL only; docs/deploy.md).",
    ),
]

_RedisPrefix = Annotated[
    str,
    typer.Option(
        envvar="RIVERBOAT_REDIS_PREFIX", help="What this deployment's Redis keys begin with."
    ),
]


def serve(
    host: _Host = "127.0.0.1",
    port: _Port = 8000,
    database: _Database = None,
    forwarded_allow_ips: _ForwardedAllowIps = None,
    tables: _Tables = None,
    tables_file: _TablesFile = None,
    workers: _Workers = 1,
    redis: _Redis = None,
    redis_prefix: _RedisPrefix = "riverboat:",
) -> None:
    """Serve the tables in the browser.

    On a loopback address the local player plays without logging in; elsewhere
    players log in with named accounts."""
    _need_extra("web", "riverboat serve")
    _check_database_url(database)
    configs = _table_configs(tables, tables_file)  # the cheap checks first
    if workers > 1:
        _check_workers(database, workers)
    if redis is not None:  # then the one that reaches out (a ping, up to 3 s)
        _need_extra("redis", "--redis")
        _check_redis(redis, database)
    import uvicorn

    from riverboat.web.app import create_app, freeze_startup, server_options, warm_up_server

    local = host in ("127.0.0.1", "localhost", "::1")
    loopback = ["127.0.0.1", "localhost", "[::1]", "::1"] if local else None
    flags = {"database_url": database, "redis_url": redis, "redis_prefix": redis_prefix}
    given = {name: value for name, value in flags.items() if value is not None}
    settings = amended(**given, local_player=local, allowed_hosts=loopback)  # flags win
    options = server_options(forwarded_allow_ips or settings.forwarded_allow_ips)
    serving = f"riverboat is serving the tables at http://{host}:{port}/  (Ctrl+C stops it)"
    if workers == 1:
        with _opening():
            application = create_app(settings, tables=configs, recover=True)
        typer.echo(serving)
        warm_up_server()  # a round of each game dealt and shown: the first player waits for none
        freeze_startup()
        uvicorn.run(application, host=host, port=port, log_level="warning", **options)
        return
    _serve_workers(settings, configs, workers, host, port, options, serving)


def _serve_workers(
    settings: Settings,
    configs: list[TableConfig] | None,
    workers: int,
    host: str,
    port: int,
    options: ServerOptions,
    serving: str,
) -> None:
    """``workers`` server processes, each building its app from ``settings``; the
    database migrated and a stopped server's rounds recovered once, first, and then
    ``serving`` said."""
    import uvicorn

    from riverboat.table.service import TableService
    from riverboat.web.app import SETTINGS

    redis = settings.redis_url
    with _opening():  # migrated once, before the workers start
        service = TableService(settings.database_url)
    if redis is None:  # with Redis, the tables' takeover finishes what a stopped server left
        service.recover()  # G7, once, before any worker deals
        typer.echo(
            f"{workers} worker processes: each deals its own copy of each shared table "
            "(with --redis they serve the same tables)",
            err=True,
        )
    service.engine.dispose()  # each worker opens its own connections
    typer.echo(serving)
    shared = [config.model_dump() for config in configs] if configs is not None else None
    carried = {"settings": settings.model_dump(mode="json"), "tables": shared}
    os.environ[SETTINGS] = json.dumps(carried)
    uvicorn.run(
        "riverboat.web.app:app_from_environment",
        factory=True,
        workers=workers,
        host=host,
        port=port,
        log_level="warning",
        **options,
    )


def _table_configs(tables: str | None, tables_file: Path | None) -> list[TableConfig] | None:
    """The shared tables --tables or --tables-file names; None: one of each game."""
    from riverboat.table.lobby import TablesError, default_tables, parse_counts, read_tables_file

    if tables is not None and tables_file is not None:
        raise typer.BadParameter("give --tables or --tables-file, not both", param_hint="--tables")
    try:
        if tables_file is not None:
            return read_tables_file(tables_file)
        return None if tables is None else default_tables(parse_counts(tables))
    except TablesError as error:
        hint = "--tables-file" if tables_file is not None else "--tables"
        raise typer.BadParameter(str(error).removeprefix(f"{hint}: "), param_hint=hint) from None


def _check_workers(database: str | None, workers: int) -> None:
    """More than one process needs a database every process writes to: not SQLite."""
    from riverboat.store import database_url

    url = database or database_url()
    if url.startswith("sqlite"):
        raise typer.BadParameter(
            f"{workers} processes cannot share an SQLite database: it takes one writer at a "
            "time and its sessions, throttles and tables would be fought over. Serve with "
            "one process (the default), or give every process PostgreSQL "
            "(--database postgresql+psycopg://USER@HOST/DB) and, for many processes, Redis "
            "(RIVERBOAT_REDIS_URL=redis://HOST:6379/0); see docs/service.md",
            param_hint="--workers",
        )


def _check_redis(redis: str, database: str | None) -> None:
    """Shared tables across processes need PostgreSQL and a Redis that answers: say
    which is missing before serving anything."""
    from riverboat.store import database_url

    if (database or database_url()).startswith("sqlite"):
        typer.echo(
            "Error: --redis: shared tables across processes need PostgreSQL "
            "(--database postgresql+psycopg://...): an SQLite file is served by one "
            "process, which needs no Redis",
            err=True,
        )
        raise typer.Exit(2)
    import redis as redis_client

    try:
        redis_client.Redis.from_url(redis, socket_connect_timeout=3).ping()
    except Exception as error:
        typer.echo(f"Error: --redis: {redis} does not answer: {error}", err=True)
        raise typer.Exit(1) from None


#: play's arguments and options
_PlayGame = Annotated[
    str | None,
    typer.Argument(help=GAME_HELP.removesuffix(".") + "; the first table by default."),
]
_PlayVariant = Annotated[
    str | None,
    typer.Option(help="The rules the table deals: a named variant or a variant file."),
]
_Auto = Annotated[
    str | None,
    typer.Option(
        help="Play without a screen: optimal, simple, always-play or a CSV strategy file."
    ),
]
_Rounds = Annotated[int, typer.Option(min=1, help="Rounds to play with --auto.")]
_Wagers = Annotated[
    str | None,
    typer.Option(help="Wagers in dollars: 'ante=10,bonus=10'. --auto default: the minimums."),
]
_ClientSeed = Annotated[
    str | None,
    typer.Option(
        help="Your seed for every provably fair deal. Default: a fresh one for each "
        "deal, drawn here after the house has committed to its seed."
    ),
]
_TopUp = Annotated[
    bool, typer.Option("--top-up", help="With --auto, top up play money below $100.")
]
_Blind = Annotated[
    bool,
    typer.Option("--blind", help="Crazy 4: a blind second position with the same wagers (C8)."),
]
_LinesFormat = Annotated[
    Lines, typer.Option("--format", help="With --auto: a line of text or JSON per round.")
]
_NoColor = Annotated[
    bool, typer.Option("--no-color", help="Monochrome (also when NO_COLOR is set).")
]
_AsciiCards = Annotated[bool, typer.Option("--ascii", help="Cards drawn in plain ASCII (As, Th).")]


def play(
    game: _PlayGame = None,
    variant: _PlayVariant = None,
    auto: _Auto = None,
    rounds: _Rounds = 1,
    wagers: _Wagers = None,
    client_seed: _ClientSeed = None,
    top_up: _TopUp = False,
    blind: _Blind = False,
    output: _LinesFormat = Lines.text,
    no_color: _NoColor = False,
    ascii_cards: _AsciiCards = False,
    player: _PlayerName = None,
    database: _Database = None,
) -> None:
    """Play at the tables in the terminal, or with --auto play rounds for scripts.

    GAME may be a variant file (or --variant a named variant or a file): its table deals
    that variant, and its rounds record its rules."""
    if auto is None:
        _need_extra("terminal", "riverboat play (without --auto)")
    from riverboat.games import find_game
    from riverboat.games.rules import RulesError, check_wagers

    try:
        game, dealt = _dealt_variant(game, variant)
        spec = find_game(game or _first_game()).spec(dealt)
        spots = spec.spots
        placed = _parse_money_wagers(wagers, spots) if wagers is not None else None
        if placed is not None:
            check_wagers(spots, placed)
    except (RulesError, Refusal) as error:
        raise typer.BadParameter(str(error)) from None
    if blind and spec.blind_play is None:
        _no_blind()
    if auto is None:
        _check_screen_only(rounds, top_up, output)
        _play_on_screen(game, placed, client_seed, no_color, ascii_cards, blind, player, database,
                        dealt)  # fmt: skip
        return
    if game is None:
        raise typer.BadParameter("--auto plays one game: name it, e.g. riverboat play tri-card")
    _play_plain(game, auto, rounds, placed, client_seed, top_up, blind, output, player, database,
                dealt)  # fmt: skip


def _dealt_variant(game: str | None, variant: str | None) -> tuple[str | None, GameRules | None]:
    """The game and the rules its table deals: None for the game's default; a variant
    file's (GAME or --variant) loaded into the game for this process by its name."""
    from riverboat.cli._variant_files import a_file, game_and_rules
    from riverboat.games import find_game

    if variant is None and (game is None or not a_file(game)):
        return game, None
    if game is None:
        game = _first_game()
    name, rules = game_and_rules(game, variant)
    kind = find_game(name)
    if rules not in kind.variants.values():
        kind.load_variant(rules)  # RulesError: a name the game gives other rules
    return name, rules


def _no_blind() -> NoReturn:
    """--blind at a game without a blind second position: which games have one."""
    from riverboat.games import GAMES

    with_blind = [name for name, kind in GAMES.items() if kind.spec().blind_play is not None]
    raise typer.BadParameter(
        f"--blind goes with {' or '.join(with_blind)} (C8)", param_hint="--blind"
    )


def _check_screen_only(rounds: int, top_up: bool, output: Lines) -> None:
    """The options that go with --auto alone, refused on the screen."""
    for flag, given in (("--rounds", rounds != 1), ("--top-up", top_up),
                        ("--format", output is not Lines.text)):  # fmt: skip
        if given:
            raise typer.BadParameter(f"{flag} goes with --auto STRATEGY", param_hint=flag)


def _play_on_screen(
    game: str | None,
    placed: dict[str, int] | None,
    client_seed: str | None,
    no_color: bool,
    ascii_cards: bool,
    blind: bool,
    player: str | None,
    database: str | None,
    dealt: GameRules | None = None,
) -> None:
    import os

    if not _is_terminal():
        raise typer.BadParameter(
            "the table needs a terminal; scripts use --auto STRATEGY --rounds N"
        )
    if no_color:
        os.environ["NO_COLOR"] = "1"  # Textual reads it when the app starts
    from sqlalchemy.exc import DBAPIError

    from riverboat.terminal.app import TableApp  # Textual: checked by play (_need_extra)

    service = _database._service(database)
    try:
        who = _who(service, player)
    except (DBAPIError, Unavailable) as error:
        _no_answer(error)
    TableApp(
        service,
        who,
        game or _first_game(),
        placed,
        client_seed,
        ascii_cards,
        blind=blind,
        rules=dealt,
    ).run()


def _is_terminal() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()


def _play_plain(
    game: str,
    strategy: str,
    rounds: int,
    placed: dict[str, int] | None,
    client_seed: str | None,
    top_up: bool,
    blind: bool,
    output: Lines,
    player: str | None,
    database: str | None,
    dealt: GameRules | None = None,
) -> None:
    from sqlalchemy.exc import DBAPIError

    from riverboat.games.rules import RulesError
    from riverboat.terminal.plain import AutoPlayer, default_wagers, play_rounds, round_json
    from riverboat.terminal.plain import round_line as line

    service = _database._service(database)
    played = 0
    try:
        who = _who(service, player)
        auto = AutoPlayer(game, strategy, dealt)
        wagers = placed if placed is not None else default_wagers(game, dealt)
        variant = None if dealt is None else str(getattr(dealt, "variant", ""))
        for record in play_rounds(
            service, who, game, wagers, auto, rounds, client_seed, top_up, blind, variant
        ):
            typer.echo(round_json(record) if output is Lines.json else line(record))
            played += 1
    except (DBAPIError, Unavailable) as error:
        _no_answer(error, f"Stopped after {played} of {rounds} rounds: " if played else "")
    except (RulesError, Refusal) as error:
        if not played:
            raise typer.BadParameter(str(error)) from None
        typer.echo(f"Stopped after {played} of {rounds} rounds: {error}", err=True)
        raise typer.Exit(1) from None
