"""The ``riverboat`` command: every user mistake ends in a clear message, exit code 2.

riverboat serve                      the tables in the browser
riverboat play [GAME]                the tables in the terminal; --auto for scripts
riverboat deal / deck / name         a fair showdown, a deck re-derived, a hand named
riverboat analyze GAME               exact house edge, strategy and return tables
riverboat simulate / bankroll GAME   Monte Carlo beside the exact figures; sessions
riverboat accounts create|balance|top-up, history, verify, audit, recover
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from enum import StrEnum
from fractions import Fraction
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from riverboat.errors import Refusal, Unavailable

# Only the standard library and Typer at import time: `riverboat --help` and the
# commands that compute nothing start at once. numpy, numba, SQLAlchemy, the games,
# the analyzer, the simulator and the front ends load inside the commands using them.

if TYPE_CHECKING:
    from riverboat.games.rules import Spot
    from riverboat.hands import Evaluator

app = typer.Typer(
    help="riverboat: casino table games, dealt fairly, with every number behind them exact.",
    no_args_is_help=True,
    add_completion=False,
)

def _games_by_size() -> dict[int, list[tuple[str, Evaluator]]]:
    """The games that name a hand of each size (the evaluators load numba)."""
    from riverboat.hands import evaluate3, evaluate4of5, evaluate5, evaluate6, evaluate7

    return {
        3: [("Tri-Card Poker", evaluate3)],
        5: [("Poker", evaluate5), ("Crazy 4 Poker (best four)", evaluate4of5)],
        6: [("Poker (best five)", evaluate6)],
        7: [("Poker (best five)", evaluate7)],
    }


#: the optional extras: what each needs importable, and what it is for
_EXTRAS = {
    "plot": (("matplotlib",), "charts"),
    "web": (("fastapi", "uvicorn"), "the web table"),
    "terminal": (("textual",), "the terminal table"),
    "postgres": (("psycopg",), "PostgreSQL"),
    "cluster": (("dask", "distributed"), "a Dask cluster"),
}


def _need_extra(extra: str, option: str) -> None:
    """Before any work: stop with one line naming the extra to install when ``option``
    needs a package that is missing (exit code 2, as for any usage mistake)."""
    modules, purpose = _EXTRAS[extra]
    missing = [module for module in modules if find_spec(module) is None]
    if missing:
        typer.echo(
            f"Error: {option} needs {purpose} ({' and '.join(missing)} "
            f"{'is' if len(missing) == 1 else 'are'} not installed): "
            f"pip install 'riverboat[{extra}]'",
            err=True,
        )
        raise typer.Exit(2)


def _check_database_url(database: str | None) -> None:
    """A PostgreSQL URL needs the postgres extra's driver; say so before connecting."""
    scheme = (database or "").partition("://")[0].lower()
    dialect, _, driver = scheme.partition("+")
    if dialect not in ("postgresql", "postgres"):
        return
    if driver in ("", "psycopg2") and find_spec("psycopg2") is None:
        typer.echo(
            f"Error: --database: {scheme}:// needs the psycopg2 driver, which is not "
            "installed; use postgresql+psycopg://USER@HOST/DB with "
            "pip install 'riverboat[postgres]'",
            err=True,
        )
        raise typer.Exit(2)
    if driver == "psycopg":
        _need_extra("postgres", "--database postgresql+psycopg://")


def _version(show: bool) -> None:
    if show:
        from riverboat import __version__

        typer.echo(f"riverboat {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_version, is_eager=True, help="Print the version."),
    ] = False,
) -> None:
    """riverboat: casino table games, dealt fairly, with every number behind them exact."""


@app.command()
def deal(
    cards: Annotated[
        int, typer.Option(min=3, max=7, help="Cards per hand: 3 (Tri-Card), 5, 6 or 7.")
    ] = 5,
    players: Annotated[int, typer.Option(min=1, max=6, help="Hands besides the dealer's.")] = 1,
    client_seed: Annotated[
        str | None, typer.Option(help="Your seed for the provably fair shuffle.")
    ] = None,
    unicode: Annotated[bool, typer.Option(help="Suit symbols instead of letters.")] = True,
) -> None:
    """Deal a provably fair showdown and name every hand."""
    if cards == 4:
        raise typer.BadParameter(
            "no game here deals 4-card hands; use 3, 5, 6 or 7", param_hint="--cards"
        )
    from riverboat.cards import format_cards
    from riverboat.rng import FairSource, shuffled

    evaluate = _games_by_size()[cards][0][1]  # the poker order of the hand's size
    ranking = evaluate.ranking
    source = FairSource.new(client_seed)
    typer.echo(f"Commitment (SHA-256 of the server seed): {source.commitment}")
    order = shuffled(52, source)
    seats = [f"Player {i + 1}" for i in range(players)] + ["Dealer"]
    values = []
    for seat_number, seat in enumerate(seats):
        hand = order[seat_number * cards : (seat_number + 1) * cards]
        value = evaluate(hand)
        values.append(value)
        typer.echo(f"{seat:>9}: {format_cards(hand, unicode):<22} {ranking.describe(value)}")
    best = max(values)
    winners = [seat for seat, value in zip(seats, values, strict=True) if value == best]
    typer.echo(("Winner: " if len(winners) == 1 else "Tie: ") + ", ".join(winners))
    typer.echo(
        f"Server seed: {source.server_seed}\n"
        f"Client seed: {source.client_seed}  Nonce: {source.nonce}\n"
        f"Check the deck: riverboat deck {source.server_seed} {source.client_seed} "
        f"{source.nonce}\n(or python fairness.py with the same arguments: riverboat/fairness.py "
        "needs only the Python standard library)"
    )


@app.command()
def deck(
    server_seed: Annotated[str, typer.Argument(help="The revealed server seed (hex).")],
    client_seed: Annotated[str, typer.Argument(help="The client seed.")],
    nonce: Annotated[int, typer.Argument(min=0, help="The round's nonce.")],
    size: Annotated[
        int, typer.Option(min=1, max=624, help="Cards shuffled (416 for 8 decks).")
    ] = 52,
) -> None:
    """Re-derive a provably fair deck order, top card first."""
    from riverboat.cards import format_cards
    from riverboat.fairness import commitment, derive_order

    try:
        order = derive_order(server_seed, client_seed, nonce, size)
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="SERVER_SEED") from None
    typer.echo(f"Commitment: {commitment(server_seed)}")
    typer.echo(format_cards(card % 52 for card in order))


@app.command()
def name(
    hand: Annotated[str, typer.Argument(help='Cards such as "As Kd 10h 9c 2s" (3 to 7 cards).')],
) -> None:
    """Name a hand in each game that deals hands of its size."""
    from riverboat.cards import CardError, format_cards, parse_cards

    try:
        cards = parse_cards(hand)
    except CardError as error:
        raise typer.BadParameter(str(error), param_hint="HAND") from None
    games = _games_by_size().get(len(cards))
    if not games:
        raise typer.BadParameter(
            f"{len(cards)} cards: a hand here has 3, 5, 6 or 7 cards", param_hint="HAND"
        )
    typer.echo(format_cards(cards, unicode=True))
    for game, evaluate in games:
        value = evaluate(cards)
        typer.echo(f"  {game}: {evaluate.ranking.describe(value)} (value {value})")


class Format(StrEnum):
    text = "text"
    json = "json"
    csv = "csv"
    markdown = "markdown"


_IN_UNITS = (
    "a wager is NAME or NAME=AMOUNT in base units, at most 1000 and no finer than 1/1000, "
    "e.g. bad_beat=0.5"
)
_IN_DOLLARS = "a wager is NAME=DOLLARS in whole cents, e.g. ante=10 or ante=12.50"
#: the largest wager in base units, and the finest step (a denominator)
_MOST_UNITS = 1000
#: dollars with up to two decimals: at most $9,999,999.99, beyond every table's limits
#: a Dask scheduler's address: [PROTOCOL://]HOST:PORT, HOST a name or [IPv6]
_SCHEDULER = re.compile(r"(?:[a-z]+://)?(?:\[[0-9A-Fa-f:.]+\]|[^\s:/\[\]]+):[0-9]{1,5}")
_DOLLARS = re.compile(r"\$?([0-9]{1,7})(?:\.([0-9]{1,2}))?")


def _wager_parts(text: str, form: str) -> Iterator[tuple[str, str, str]]:
    """Each ``NAME[=AMOUNT]`` of a ``--wagers`` list as (name, amount as given, the
    part); ``form`` says what a wager looks like. A wager named twice is refused."""
    seen: set[str] = set()
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, amount = part.partition("=")
        name = name.strip().replace("-", "_")
        if not name:
            raise typer.BadParameter(f"{part!r}: {form}", param_hint="--wagers")
        if name in seen:
            raise typer.BadParameter(
                f"{name} is named twice: give each wager once", param_hint="--wagers"
            )
        seen.add(name)
        yield name, amount.strip(), part


def _parse_wagers(text: str) -> dict[str, Fraction]:
    """``"ante,bonus,bad_beat=1/2"``: each named wager, 1 base unit unless given."""
    wagers = {}
    for name, amount, part in _wager_parts(text, _IN_UNITS):
        try:
            units = Fraction(amount or 1)
        except (ValueError, ZeroDivisionError):
            units = None
        if units is None or abs(units) > _MOST_UNITS or units.denominator > _MOST_UNITS:
            raise typer.BadParameter(f"{part!r}: {_IN_UNITS}", param_hint="--wagers")
        wagers[name] = units
    return wagers


def _parse_money_wagers(text: str, spots: Sequence[Spot] = ()) -> dict[str, int]:
    """``"ante=10,bonus=10"``: amounts in dollars, into cents. With the game's
    ``spots``, an amount that is no dollar figure is refused with its spot's limits."""
    limits = {spot.name: spot for spot in spots}
    wagers = {}
    for name, amount, part in _wager_parts(text, _IN_DOLLARS):
        dollars = _DOLLARS.fullmatch(amount)
        if dollars is None:
            spot = limits.get(name)
            allowed = f"; the {spot.label} takes {spot.limits()}" if spot else ""
            raise typer.BadParameter(f"{part!r}: {_IN_DOLLARS}{allowed}", param_hint="--wagers")
        wagers[name] = int(dollars[1]) * 100 + int((dollars[2] or "0").ljust(2, "0"))
    return wagers


#: the table a command opens when none is named: the registry's first game
_FIRST_GAME = "rabbit-hunter"


def _deals_from_shoe(game: object) -> bool:
    """Whether ``game`` names a game whose rounds deal on from one shoe (B1)."""
    from riverboat.games import GAMES

    return isinstance(game, str) and game in GAMES and GAMES[game].spec().shoe is not None


def _rules_with_tables(game: str, variant: str | None, tables: list[str]) -> Any:
    from riverboat.games import find_game

    rules = find_game(game).rules(variant)
    if not tables:
        return rules
    if not hasattr(rules, "with_tables"):  # only some games choose tables one by one
        raise typer.BadParameter(
            f"{game} has one pay table per variant; choose with --variant", param_hint="--paytable"
        )
    chosen = {}
    for table in tables:
        kind, _, name = table.partition("=")
        key = kind.strip().replace("-", "_")
        if key not in ("ante_bonus", "pair_plus") or not name:
            raise typer.BadParameter(
                f"{table!r}: use ante-bonus=NAME or pair-plus=NAME", param_hint="--paytable"
            )
        chosen[key] = name.strip()
    return rules.with_tables(**chosen)


@app.command()
def analyze(
    game: Annotated[str, typer.Argument(help="rabbit-hunter, tri-card, crazy4 or baccarat.")],
    variant: Annotated[
        str | None, typer.Option(help="A named rules variant, e.g. 'standard' or '6 decks'.")
    ] = None,
    paytable: Annotated[
        list[str] | None,
        typer.Option(help="Tri-Card tables: ante-bonus=1-3-4, pair-plus=1-3-6-30-40."),
    ] = None,
    wagers: Annotated[
        str | None,
        typer.Option(help="Wagers in base units: 'ante,bonus,bad_beat=0.5'. Default: required."),
    ] = None,
    output: Annotated[Format, typer.Option("--format", help="Output format.")] = Format.text,
    plot: Annotated[
        Path | None, typer.Option(help="Write a chart of the net result (PNG, SVG or PDF).")
    ] = None,
    strategy: Annotated[
        Path | None, typer.Option(help="Write every hand's option values (.csv or .json).")
    ] = None,
) -> None:
    """Exact house edge, element of risk, strategy and return tables of a game."""
    if plot is not None:
        _need_extra("plot", "--plot")
    from riverboat.analysis import analyze as run
    from riverboat.games.rules import RulesError

    try:
        rules = _rules_with_tables(game, variant, paytable or [])
        placed = _parse_wagers(wagers) if wagers is not None else None
        _check_writable(plot, "--plot")
        _check_writable(strategy, "--strategy")
        with _progress_bar() as progress:
            result = run(game, rules, placed, progress=progress)
        if plot is not None:
            _write_plot(result.plot, plot)
    except (RulesError, Refusal) as error:
        raise typer.BadParameter(str(error)) from None
    if strategy is not None:
        if result.strategy is None:
            raise typer.BadParameter(f"{game} has no decisions", param_hint="--strategy")
        if strategy.suffix == ".json":
            strategy.write_text(json.dumps(result.strategy.rows()))
        else:
            strategy.write_text(result.strategy.to_csv())
    if output is Format.json:
        typer.echo(json.dumps(result.to_json(), indent=2))
    elif output is Format.csv:
        typer.echo(_return_tables_csv(result), nl=False)
    else:
        typer.echo(result.to_text(markdown=output is Format.markdown), nl=False)


@app.command()
def simulate(
    game: Annotated[str, typer.Argument(help="rabbit-hunter, tri-card, crazy4 or baccarat.")],
    rounds: Annotated[int, typer.Option(min=1, help="Rounds to play.")] = 1_000_000,
    strategy: Annotated[
        str, typer.Option(help="optimal, simple, always-play or a CSV file (cards,best).")
    ] = "optimal",
    wagers: Annotated[
        str | None, typer.Option(help="Wagers in base units: 'ante,bonus'. Default: required.")
    ] = None,
    variant: Annotated[str | None, typer.Option(help="A named rules variant.")] = None,
    seed: Annotated[
        int | None, typer.Option(min=0, help="Seed; the same seed, the same result.")
    ] = None,
    workers: Annotated[int, typer.Option(min=1, help="Local worker processes.")] = 1,
    scheduler: Annotated[
        str | None, typer.Option(help="A Dask scheduler, tcp://HOST:PORT (the cluster extra).")
    ] = None,
    output: Annotated[
        Format, typer.Option("--format", help="text, json, csv or markdown.")
    ] = Format.text,
) -> None:
    """Monte Carlo: mean return per wager with a 95% interval, beside the exact figure."""
    if scheduler is not None:
        _need_extra("cluster", "--scheduler")
        if not _SCHEDULER.fullmatch(scheduler):
            raise typer.BadParameter(
                f"{scheduler!r}: a Dask scheduler's address is tcp://HOST:PORT, "
                "e.g. tcp://10.0.0.5:8786",
                param_hint="--scheduler",
            )
    from riverboat.games.rules import RulesError
    from riverboat.sim import simulate as run

    try:
        rules = _rules_with_tables(game, variant, [])
        placed = _parse_wagers(wagers) if wagers is not None else None
        with _progress_bar() as progress:
            result = run(game, rounds, rules, placed, strategy, seed, workers, scheduler, progress)
    except (RulesError, Refusal) as error:
        raise typer.BadParameter(str(error)) from None
    if output is Format.json:
        typer.echo(json.dumps(result.to_json(), indent=2))
    elif output is Format.text:
        typer.echo(result.to_text(), nl=False)
    else:
        header = ["wager", "mean", "ci95_low", "ci95_high", "standard_error", "exact", "z"]
        rows = [
            [name, e.mean, *e.interval, e.standard_error, e.exact, e.z]
            for name, e in result.wagers.items()
        ]
        if output is Format.csv:
            typer.echo(_csv_table(header, rows), nl=False)
        else:
            shown = [[f"{v:+.5f}" if isinstance(v, float) else v for v in row] for row in rows]
            typer.echo(
                f"{result.to_text().splitlines()[0]}\n\n{_markdown_table(header, shown)}\n"
                f"Element of risk (per total wagered): {result.element_of_risk:.5f}\n",
                nl=False,
            )


@app.command()
def bankroll(
    game: Annotated[str, typer.Argument(help="rabbit-hunter, tri-card, crazy4 or baccarat.")],
    bankroll: Annotated[float, typer.Option(help="Starting bankroll in dollars.")],
    wagers: Annotated[str, typer.Option(help="Wagers in dollars: 'ante=10,bonus=10'.")],
    rounds_per_session: Annotated[int, typer.Option(min=1, help="Rounds in a session.")] = 200,
    sessions: Annotated[int, typer.Option(min=1, help="Sessions to play.")] = 10_000,
    target: Annotated[float | None, typer.Option(help="Stop a session on reaching this.")] = None,
    strategy: Annotated[
        str, typer.Option(help="optimal, simple, always-play or a CSV file.")
    ] = "optimal",
    variant: Annotated[str | None, typer.Option(help="A named rules variant.")] = None,
    seed: Annotated[
        int | None, typer.Option(min=0, help="Seed; the same seed, the same result.")
    ] = None,
    plot: Annotated[Path | None, typer.Option(help="Write a histogram and sample paths.")] = None,
    output: Annotated[
        Format, typer.Option("--format", help="text, json, csv or markdown.")
    ] = Format.text,
) -> None:
    """How a bankroll fares: ruin, reaching a target, rounds survived, session results."""
    if plot is not None:
        _need_extra("plot", "--plot")
    from riverboat.games import find_game
    from riverboat.games.rules import RulesError
    from riverboat.sim.bankroll import bankroll as run

    for name, value in (("--bankroll", bankroll), ("--target", target)):
        if value is not None and not (math.isfinite(value) and value > 0):
            raise typer.BadParameter(f"a positive number of dollars, not {value}", param_hint=name)
    try:
        _check_writable(plot, "--plot")
        rules = _rules_with_tables(game, variant, [])
        study = run(
            game,
            round(bankroll * 100),
            _parse_money_wagers(wagers, find_game(game).new_round(rules).spots),
            rounds_per_session,
            sessions,
            None if target is None else round(target * 100),
            strategy,
            seed,
            rules,
        )
        if plot is not None:
            _write_plot(study.plot, plot)
    except (RulesError, Refusal) as error:
        raise typer.BadParameter(str(error)) from None
    if output is Format.json:
        typer.echo(json.dumps(study.to_json(), indent=2))
    elif output is Format.text:
        typer.echo(study.to_text(), nl=False)
    else:
        rows = _flat_items(study.to_json())
        if output is Format.csv:
            typer.echo(_csv_table(["measure", "value"], rows), nl=False)
        else:
            typer.echo(_markdown_table(["measure", "value"], rows), nl=False)


# ----------------------------------------------------------------- the table service

accounts = typer.Typer(
    help="Play-money accounts (the local player needs none).", no_args_is_help=True
)
app.add_typer(accounts, name="accounts")

_Database = Annotated[
    str | None,
    typer.Option(
        "--database",
        envvar="RIVERBOAT_DATABASE_URL",
        help="SQLAlchemy URL; default an SQLite file in your data folder.",
    ),
]
_PlayerName = Annotated[
    str | None, typer.Option("--player", help="A named account (asks its password).")
]


def _service(database: str | None) -> Any:
    _check_database_url(database)
    from riverboat.table.service import TableService

    try:
        return TableService(database)
    except Exception as error:  # a bad URL or an unreachable server, said plainly
        raise typer.BadParameter(
            f"cannot open the database: {error}", param_hint="--database"
        ) from None


def _who(service: Any, player: str | None) -> int:
    if player is None:
        return int(service.local_player())
    password = typer.prompt(f"Password for {player}", hide_input=True)
    try:
        return int(service.login(player, password))
    except Refusal as error:
        raise typer.BadParameter(str(error), param_hint="--player") from None


@accounts.command("create")
def accounts_create(
    name: Annotated[str, typer.Argument(help="1 to 64 letters, digits, - or _.")],
    database: _Database = None,
) -> None:
    """Create a named account with its starting play money; asks for a password."""
    from riverboat.money import format_money

    service = _service(database)
    password = typer.prompt(
        "Password (8 characters or more)", hide_input=True, confirmation_prompt=True
    )
    try:
        player = service.register(name, password)
    except Refusal as error:
        raise typer.BadParameter(str(error), param_hint="NAME") from None
    typer.echo(
        f"Account {name} created with {format_money(service.balance(player))} of play money."
    )


@accounts.command("balance")
def accounts_balance(player: _PlayerName = None, database: _Database = None) -> None:
    """The play-money balance."""
    from riverboat.money import format_money

    service = _service(database)
    typer.echo(format_money(service.balance(_who(service, player))))


@accounts.command("top-up")
def accounts_top_up(player: _PlayerName = None, database: _Database = None) -> None:
    """Below $100, bring the balance back to $1,000 of play money."""
    from riverboat.money import format_money

    service = _service(database)
    try:
        typer.echo(f"Balance: {format_money(service.top_up(_who(service, player)))}")
    except Refusal as error:
        raise typer.BadParameter(str(error)) from None


@app.command()
def history(
    rounds: Annotated[int, typer.Option("-n", "--rounds", min=1, max=1000, help="How many.")] = 20,
    player: _PlayerName = None,
    database: _Database = None,
    output: Annotated[
        Format, typer.Option("--format", help="text, json (records with seeds), csv or markdown.")
    ] = Format.text,
) -> None:
    """The last rounds, newest first; JSON gives each round's record and seeds."""
    from sqlalchemy.exc import DBAPIError

    from riverboat.money import format_money

    service = _service(database)
    try:
        found = service.history(_who(service, player), rounds)
    except (DBAPIError, Unavailable) as error:
        _no_answer(error)
    if output is Format.json:
        typer.echo(json.dumps([item.model_dump(mode="json") for item in found], indent=2))
        return
    # the round's own net: other rounds may have been played between its balances
    if output is Format.csv:
        header = ["id", "played_at", "game", "status", "net_cents", "balance_after_cents"]
        rows = [[i.id, i.played_at, i.game, i.status, i.net, i.balance_after] for i in found]
        typer.echo(_csv_table(header, rows), nl=False)
        return

    def money(cents: int | None, signed: bool = False) -> str:
        return "-" if cents is None else format_money(cents, signed=signed)

    if output is Format.markdown:
        header = ["round", "played at", "game", "status", "net", "balance after"]
        rows = [
            [f"#{i.id}", i.played_at[:19], i.game, i.status,
             money(i.net, signed=True), money(i.balance_after)]
            for i in found
        ]  # fmt: skip
        typer.echo(_markdown_table(header, rows), nl=False)
        return
    for item in found:
        typer.echo(
            f"#{item.id:<6} {item.played_at[:19]}  {item.game:<14} {item.status:<8} "
            f"{money(item.net, signed=True):>10}  balance {money(item.balance_after)}"
        )


@app.command()
def verify(
    path: Annotated[
        Path,
        typer.Argument(
            help="A round, or a list of them, as `riverboat history --format json` gives; "
            "a list of one Baccarat shoe's coups is checked as a whole shoe too."
        ),
    ],
) -> None:
    """Re-derive a round's cards from its seeds and re-settle it."""
    from riverboat.table.service import verify_round, verify_shoe

    try:
        data = json.loads(path.read_text())
    except OSError as error:
        raise typer.BadParameter(
            f"cannot read {path}: {error.strerror}", param_hint="PATH"
        ) from None
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise typer.BadParameter(f"{path} is not JSON", param_hint="PATH") from None
    items = data if isinstance(data, list) else [data]
    failed = 0
    for number, item in enumerate(items, 1):
        if not isinstance(item, dict):
            problems = [
                f"not a round record: a round is a JSON object as `riverboat history "
                f"--format json` gives, not {type(item).__name__}"
            ]
        else:
            try:
                problems = verify_round(item)
            except (KeyError, TypeError, ValueError) as error:
                problems = [f"not a round record ({error})"]
        name = f"round {item.get('id', '?')}" if isinstance(item, dict) else f"item {number}"
        if problems:
            failed += 1
            typer.echo(f"{name}: FAILED: " + "; ".join(problems))
        else:
            typer.echo(f"{name}: verified: the seed matches its commitment, the cards come "
                       "from the seeds and the settlement replays")  # fmt: skip
    shoe = [i for i in items if isinstance(i, dict) and _deals_from_shoe(i.get("game"))]
    if len(shoe) > 1 and len(shoe) == len(items) and not failed:  # a whole shoe (B1)
        problems = verify_shoe(shoe)
        failed += bool(problems)
        typer.echo(
            f"shoe: FAILED: {'; '.join(problems)}"
            if problems
            else f"shoe: verified: its {len(shoe)} coups run end to end from the burn"
        )
    if failed:
        raise typer.Exit(1)


@app.command()
def audit(database: _Database = None) -> None:
    """Re-settle every stored round and check the ledger; exit 1 on any mismatch."""
    service = _service(database)
    problems = service.audit()
    for problem in problems:
        typer.echo(problem)
    typer.echo(f"{len(problems)} problem(s)" if problems else "audit clean: every round re-settles")
    if problems:
        raise typer.Exit(1)


@app.command()
def recover(database: _Database = None) -> None:
    """After a crash: void and refund rounds still waiting for the first decision (G7)."""
    voided = _service(database).recover()
    typer.echo(
        f"voided and refunded: {', '.join(map(str, voided))}" if voided else "nothing to recover"
    )


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=1, max=65535, help="Port.")] = 8000,
    database: _Database = None,
) -> None:
    """Serve the tables in the browser.

    On a loopback address the local player plays without logging in; elsewhere
    players log in with named accounts."""
    _need_extra("web", "riverboat serve")
    _check_database_url(database)
    import uvicorn

    from riverboat.web.app import create_app

    local = host in ("127.0.0.1", "localhost", "::1")
    loopback = ["127.0.0.1", "localhost", "[::1]", "::1"] if local else None
    application = create_app(database, local_player=local, allowed_hosts=loopback, recover=True)
    typer.echo(f"riverboat is serving the tables at http://{host}:{port}/  (Ctrl+C stops it)")
    uvicorn.run(application, host=host, port=port, log_level="warning")


class Lines(StrEnum):
    text = "text"
    json = "json"


@app.command()
def play(
    game: Annotated[
        str | None,
        typer.Argument(help="rabbit-hunter, tri-card, crazy4 or baccarat (the first table)."),
    ] = None,
    auto: Annotated[
        str | None,
        typer.Option(
            help="Play without a screen: optimal, simple, always-play or a CSV strategy file."
        ),
    ] = None,
    rounds: Annotated[int, typer.Option(min=1, help="Rounds to play with --auto.")] = 1,
    wagers: Annotated[
        str | None,
        typer.Option(help="Wagers in dollars: 'ante=10,bonus=10'. --auto default: the minimums."),
    ] = None,
    client_seed: Annotated[
        str | None,
        typer.Option(
            help="Your seed for every provably fair deal. Default: a fresh one for each "
            "deal, drawn here after the house has committed to its seed."
        ),
    ] = None,
    top_up: Annotated[
        bool, typer.Option("--top-up", help="With --auto, top up play money below $100.")
    ] = False,
    blind: Annotated[
        bool,
        typer.Option(
            "--blind", help="Crazy 4: a blind second position with the same wagers (C8)."
        ),
    ] = False,
    output: Annotated[
        Lines, typer.Option("--format", help="With --auto: a line of text or JSON per round.")
    ] = Lines.text,
    no_color: Annotated[
        bool, typer.Option("--no-color", help="Monochrome (also when NO_COLOR is set).")
    ] = False,
    ascii_cards: Annotated[
        bool, typer.Option("--ascii", help="Cards drawn in plain ASCII (As, Th).")
    ] = False,
    player: _PlayerName = None,
    database: _Database = None,
) -> None:
    """Play at the tables in the terminal, or with --auto play rounds for scripts."""
    if auto is None:
        _need_extra("terminal", "riverboat play (without --auto)")
    from riverboat.games import find_game
    from riverboat.games.rules import RulesError, check_wagers

    try:
        spec = find_game(game or _FIRST_GAME).spec()
        spots = spec.spots
        placed = _parse_money_wagers(wagers, spots) if wagers is not None else None
        if placed is not None:
            check_wagers(spots, placed)
    except (RulesError, Refusal) as error:
        raise typer.BadParameter(str(error)) from None
    if blind and spec.blind_play is None:
        from riverboat.games import GAMES

        with_blind = [name for name, kind in GAMES.items() if kind.spec().blind_play is not None]
        raise typer.BadParameter(
            f"--blind goes with {' or '.join(with_blind)} (C8)", param_hint="--blind"
        )
    if auto is None:
        for flag, given in (("--rounds", rounds != 1), ("--top-up", top_up),
                            ("--format", output is not Lines.text)):  # fmt: skip
            if given:
                raise typer.BadParameter(f"{flag} goes with --auto STRATEGY", param_hint=flag)
        _play_on_screen(game, placed, client_seed, no_color, ascii_cards, blind, player, database)
        return
    if game is None:
        raise typer.BadParameter("--auto plays one game: name it, e.g. riverboat play tri-card")
    _play_plain(game, auto, rounds, placed, client_seed, top_up, blind, output, player, database)


def _play_on_screen(
    game: str | None,
    placed: dict[str, int] | None,
    client_seed: str | None,
    no_color: bool,
    ascii_cards: bool,
    blind: bool,
    player: str | None,
    database: str | None,
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

    service = _service(database)
    try:
        who = _who(service, player)
    except (DBAPIError, Unavailable) as error:
        _no_answer(error)
    TableApp(
        service,
        who,
        game or _FIRST_GAME,
        placed,
        client_seed,
        ascii_cards,
        blind=blind,
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
) -> None:
    from sqlalchemy.exc import DBAPIError

    from riverboat.games.rules import RulesError
    from riverboat.terminal.plain import AutoPlayer, default_wagers, play_rounds, round_json
    from riverboat.terminal.plain import round_line as line

    service = _service(database)
    played = 0
    try:
        who = _who(service, player)
        auto = AutoPlayer(game, strategy)
        wagers = placed if placed is not None else default_wagers(game)
        for record in play_rounds(
            service, who, game, wagers, auto, rounds, client_seed, top_up, blind
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


def _no_answer(error: Exception, before: str = "") -> NoReturn:
    """The database did not answer (away, or locked by another program for longer than
    the busy timeout): one line on standard error and exit code 1, no traceback."""
    reason = getattr(error, "orig", None) or error
    said = (
        str(error) if isinstance(error, Unavailable) else f"the database did not answer: {reason}"
    )
    typer.echo(f"{before}{said}", err=True)
    raise typer.Exit(1)


_PLOT_FORMATS = (".png", ".svg", ".pdf")


def _check_writable(path: Path | None, option: str) -> None:
    """Refuse an output path before the work, not after it."""
    if path is None:
        return
    if not path.parent.is_dir():
        raise typer.BadParameter(f"the folder {path.parent} does not exist", param_hint=option)
    if option == "--plot" and path.suffix.lower() not in _PLOT_FORMATS:
        raise typer.BadParameter(
            f"a plot is {', '.join(_PLOT_FORMATS)}, not {path.suffix or 'no extension'}",
            param_hint=option,
        )


def _write_plot(draw: Any, path: Path) -> None:
    try:
        draw(str(path))
    except OSError as error:
        raise typer.BadParameter(
            f"cannot write {path}: {error.strerror}", param_hint="--plot"
        ) from None


def _csv_table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """Rows as CSV text (the csv module quotes what needs quoting); None is empty."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(["" if value is None else value for value in row] for row in rows)
    return out.getvalue()


def _markdown_table(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """Rows as a Markdown (GitHub) table; a ``|`` inside a cell is escaped."""

    def cell(value: Any) -> str:
        return ("-" if value is None else str(value)).replace("|", "\\|")

    lines = ["| " + " | ".join(map(cell, header)) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(map(cell, row)) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def _flat_items(data: Mapping[str, Any], prefix: str = "") -> list[list[Any]]:
    """A JSON object's leaves as (dotted name, value) rows."""
    rows: list[list[Any]] = []
    for key, value in data.items():
        if isinstance(value, Mapping):
            rows += _flat_items(value, f"{prefix}{key}.")
        else:
            rows.append([f"{prefix}{key}", value])
    return rows


def _return_tables_csv(result: Any) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["wager", "event", "pays", "combinations", "probability", "contribution"])
    for wager in result.figures.per_wager:
        for row in wager.return_table:
            writer.writerow(
                [wager.name, row.event, float(row.pays), row.combinations,
                 float(row.probability), float(row.contribution)]
            )  # fmt: skip
    return out.getvalue()


@contextmanager
def _progress_bar() -> Iterator[Callable[[int, int], None] | None]:
    """A progress bar on standard error for long counts, when it is a terminal."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.progress import Progress

    with Progress(transient=True) as bar:
        task = bar.add_task("counting every deal", total=None)
        yield lambda done, total: bar.update(task, completed=done, total=total)


__all__ = ["app"]
