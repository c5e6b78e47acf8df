"""The lobby: several shared tables per game, each with its id, name and rules variant.

Tables are configured as counts per game (``crazy4=3,baccarat=2``, see
:func:`parse_counts`) or in a TOML file (:func:`read_tables_file`)::

    [[table]]
    id = "high-limit"        # letters, digits and dashes; the table's address
    game = "crazy4"
    name = "High limit"
    variant = "standard"     # optional: the game's first variant by default
    # or: variant_file = "pair-plus-3.toml"   (a variant written as a file, beside it)

A player sits at one table of a game at a time: to move, they leave one table (a
hand in play finishes first) and sit at another. Which seat they take at a table is
the next free one: every seat faces the same dealer hand (C8) or the same coup, so a
seat's place changes nothing.

>>> [(t.id, t.name) for t in default_tables(parse_counts("crazy4=2,baccarat=1"))]
[('crazy4-1', 'Crazy 4 Poker 1'), ('crazy4-2', 'Crazy 4 Poker 2'), ('baccarat-1', 'Baccarat')]
"""

from __future__ import annotations

import asyncio
import contextlib
import tomllib
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from pathlib import Path

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from riverboat.errors import IllegalAction
from riverboat.games import find_game
from riverboat.games.codec import to_json
from riverboat.games.rules import RulesError
from riverboat.table.live.across import live_state
from riverboat.table.live.across.live_state import Seen
from riverboat.table.live.seats import find_seat
from riverboat.table.live.table import SHARED_GAMES, SharedTable
from riverboat.table.live.views import (
    LOBBY_ROAD_COLUMNS,
    LobbyShoe,
    LobbyTable,
    LobbyView,
    ShoeView,
)
from riverboat.table.road_views import BigRoadEntryView
from riverboat.table.service import TableService
from riverboat.table.views import SpotInfo

__all__ = [
    "MOST_TABLES",
    "Lobby",
    "TableConfig",
    "TablesError",
    "default_tables",
    "parse_counts",
    "read_tables_file",
]

#: the most tables one server runs (each keeps a deal, and a clock while in play)
MOST_TABLES = 50
#: how long a sit waits for the player's seat at another table of the game to empty
#: (the page closes that table's connection as it opens this one)
MOVE_SECONDS = 2.0


class TablesError(ValueError):
    """A table configuration that cannot be served: says what is wrong and what is allowed."""


class TableConfig(BaseModel):
    """One shared table: its id (its address in ``/ws/tables/{id}``), name, game and
    rules variant (None: the game's first)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]{0,39}$")
    game: str
    name: str = Field(min_length=1, max_length=40)
    variant: str | None = None
    #: a variant written as a file (``riverboat variant new``), read and loaded as the
    #: table's variant; an absolute path, so another process reads the same file
    variant_file: str | None = None
    #: the table's seats; None: the game's (no limit at a Baccarat shoe, six at Crazy 4)
    seats: int | None = Field(default=None, ge=1, le=100_000)

    @model_validator(mode="before")
    @classmethod
    def _loaded_variant(cls, data: object) -> object:
        """A table's variant file read, checked and loaded as the game's variant."""
        if not isinstance(data, dict) or data.get("variant_file") is None:
            return data
        from riverboat.games.variant_files import VariantError, read_variant

        path = Path(str(data["variant_file"])).resolve()
        try:
            kind, rules = read_variant(path)
        except OSError as error:
            raise ValueError(f"cannot read the variant file {path}: {error.strerror}") from None
        except VariantError as error:
            raise ValueError(f"{path} is not a variant: {'; '.join(error.problems)}") from None
        if kind.name != data.get("game"):
            raise ValueError(f"{path} is a {kind.title} variant, not {data.get('game')!r}")
        if data.get("variant") not in (None, rules.variant):  # a worker's copy names it
            raise ValueError("give variant or variant_file, not both")
        kind.load_variant(rules)
        return {**data, "variant": rules.variant, "variant_file": str(path)}

    @field_validator("game")
    @classmethod
    def _shared_game(cls, game: str) -> str:
        if game not in SHARED_GAMES:
            raise ValueError(f"shared tables play {' or '.join(SHARED_GAMES)}, not {game!r}")
        return game

    @field_validator("seats")
    @classmethod
    def _seats_the_game_can_deal(cls, seats: int | None, info: ValidationInfo) -> int | None:
        game, variant = info.data.get("game"), info.data.get("variant")
        if seats is None or game is None:
            return seats
        kind = find_game(game)
        with contextlib.suppress(RulesError):  # an unknown variant is said below
            most = kind.spec(kind.rules(variant)).table_seats
            if most is not None and seats > most:
                raise ValueError(f"a {kind.title} table seats 1 to {most}, not {seats}")
        return seats

    @model_validator(mode="after")
    def _known_variant(self) -> TableConfig:
        find_game(self.game).rules(self.variant)  # a RulesError names the variants
        if self.id in SHARED_GAMES:
            raise ValueError(
                f"a table's id cannot be a game's name ({', '.join(SHARED_GAMES)}): "
                f"/ws/tables/{self.id} means the first {self.id} table"
            )
        return self


def parse_counts(text: str) -> dict[str, int]:
    """``"crazy4=3,baccarat=2"`` as tables per game, each count 1 to :data:`MOST_TABLES`.

    >>> parse_counts("baccarat=2, crazy4=1")
    {'baccarat': 2, 'crazy4': 1}
    >>> parse_counts("crazy4=0")
    Traceback (most recent call last):
    ...
    riverboat.table.lobby.TablesError: --tables: 'crazy4=0': a count from 1 to 50, e.g. crazy4=2
    """
    counts: dict[str, int] = {}
    for part in (p.strip() for p in text.split(",") if p.strip()):
        game, equals, count = (s.strip() for s in part.partition("="))
        if game not in SHARED_GAMES:
            raise TablesError(
                f"--tables: {game!r} has no shared tables; name {' or '.join(SHARED_GAMES)}"
            )
        if not equals or not count.isdigit() or not 1 <= int(count) <= MOST_TABLES:
            raise TablesError(f"--tables: {part!r}: a count from 1 to {MOST_TABLES}, e.g. {game}=2")
        if game in counts:
            raise TablesError(f"--tables: {game} is named twice; name each game once")
        counts[game] = int(count)
    if not counts:
        raise TablesError("--tables: name at least one game, e.g. crazy4=3,baccarat=2")
    return counts


def default_tables(counts: Mapping[str, int]) -> list[TableConfig]:
    """``count`` tables of each game with its first variant, numbered from 1 (a game's
    only table is named by the game alone).

    >>> [t.name for t in default_tables({"baccarat": 1})]
    ['Baccarat']
    """
    return [
        TableConfig(
            id=f"{game}-{n}",
            game=game,
            name=find_game(game).title + (f" {n}" if count > 1 else ""),
        )
        for game, count in counts.items()
        for n in range(1, count + 1)
    ]


def read_tables_file(path: Path) -> list[TableConfig]:
    """The tables a TOML file lists as ``[[table]]`` entries (see the module's text)."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise TablesError(f"--tables-file: cannot read {path}: {error.strerror}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise TablesError(f"--tables-file: {path} is not TOML: {error}") from None
    extra = sorted(set(data) - {"table"})
    entries = data.get("table")
    if extra or not isinstance(entries, list) or not entries:
        raise TablesError(
            f"--tables-file: {path} lists tables as [[table]] entries "
            f"(id, game, name, variant or variant_file, seats)"
            f"{'; not ' + ', '.join(extra) if extra else ''}"
        )
    return check_tables(_entry(path, n, _beside(path, entry)) for n, entry in enumerate(entries, 1))


def _beside(path: Path, entry: object) -> object:
    """An entry's variant file found beside the tables file when its path is relative."""
    if isinstance(entry, dict) and isinstance(entry.get("variant_file"), str):
        return {**entry, "variant_file": str(path.parent / entry["variant_file"])}
    return entry


def _entry(path: Path, number: int, entry: object) -> TableConfig:
    try:
        return TableConfig.model_validate(entry)
    except ValidationError as error:
        problem = error.errors()[0]
        where = ".".join(str(part) for part in problem["loc"]) or "entry"
        message = str(problem["msg"]).removeprefix("Value error, ")
        if problem["type"] == "string_pattern_mismatch":
            message = "use 1 to 40 lower-case letters, digits and dashes"
        raise TablesError(f"--tables-file: {path}, table {number}, {where}: {message}") from None
    except ValueError as error:  # a RulesError: the variant
        raise TablesError(f"--tables-file: {path}, table {number}: {error}") from None


def check_tables(tables: Iterable[TableConfig]) -> list[TableConfig]:
    """The tables, once their ids are known to be distinct and not too many."""
    listed = list(tables)
    seen: set[str] = set()
    for table in listed:
        if table.id in seen:
            raise TablesError(f"two tables have the id {table.id!r}; give each its own")
        seen.add(table.id)
    if len(listed) > MOST_TABLES:
        raise TablesError(f"{len(listed)} tables: one server runs at most {MOST_TABLES}")
    return listed


class Lobby:
    """The live shared tables, by id, in their configured order."""

    def __init__(
        self,
        service: TableService,
        tables: Sequence[TableConfig],
        betting_seconds: float = 15.0,
        decision_seconds: float = 45.0,
    ) -> None:
        self.service = service
        self.tables: dict[str, SharedTable] = {
            config.id: SharedTable(
                service, config.game, betting_seconds, decision_seconds, config=config
            )
            for config in check_tables(tables)
        }
        self._seating = {game: asyncio.Lock() for game in SHARED_GAMES}
        #: (player, game): the table a player is being seated at, until seated
        self._joining: dict[tuple[int, str], SharedTable] = {}

    def find(self, name: str) -> SharedTable | None:
        """The table with id ``name``, or the first table of the game ``name``."""
        table = self.tables.get(name)
        if table is None:
            table = next((t for t in self.tables.values() if t.game == name), None)
        return table

    def unknown(self, name: str) -> str:
        """Why ``name`` finds no table, and what does."""
        return f"no table {name!r}; the tables are {', '.join(self.tables)} (see /api/lobby)"

    async def sit(
        self, table: SharedTable, player: int, seating: Callable[[], Awaitable[None]]
    ) -> None:
        """Seat the player at ``table`` with ``seating`` (the hub's: here, or where the
        table's clock runs) unless they keep a seat at another table of its game here:
        a seat they are leaving is waited for a moment. The game's lock is held only to
        check and to reserve the player's place, never across the seating itself, so a
        slow seat or a player moving holds no one else up."""
        key, waited = (player, table.game), 0.0
        while True:
            async with self._seating[table.game]:
                elsewhere = self._seated_elsewhere(table, player)
                if elsewhere is None:
                    self._joining[key] = table
                    break
                seat = find_seat(elsewhere.seats, player)
                if waited >= MOVE_SECONDS or (seat is not None and seat.round_id is not None):
                    raise IllegalAction(
                        f"you are seated at {_config(elsewhere).name} already: one table of "
                        "a game at a time; leave it (its hand in play finishes first), then "
                        "sit here"
                    )
            await asyncio.sleep(0.1)
            waited += 0.1
        try:
            await seating()
        finally:
            if self._joining.get(key) is table:
                del self._joining[key]

    def _seated_elsewhere(self, table: SharedTable, player: int) -> SharedTable | None:
        joining = self._joining.get((player, table.game))
        if joining is not None and joining is not table:  # being seated there now
            return joining
        return next(
            (
                other
                for other in self.tables.values()
                if other is not table
                and other.game == table.game
                and find_seat(other.seats, player) is not None
            ),
            None,
        )

    def view(self, player: int | None, seen: Mapping[str, Seen] | None = None) -> LobbyView:
        """The tables as anyone may see them: seats and the names seated, limits, the shoe
        and its big road's newest columns; no card, no seed. Read from the tables in
        memory (no database query), except a table another process runs (this one holds
        no lease on it), read from ``seen`` (:meth:`seen_elsewhere`) when given."""
        return LobbyView(
            tables=[_table_view(t, player, (seen or {}).get(key)) for key, t in self.tables.items()]
        )

    def seen_elsewhere(self) -> dict[str, Seen]:
        """The states last written of the tables this process does not run (when several
        processes serve them, :class:`~riverboat.table.live.across.redis_hub.RedisHub`),
        in one query: the lobby then shows every table's true seats and phase. Run in a
        worker thread."""
        elsewhere = [key for key, table in self.tables.items() if table.fence is None]
        if not elsewhere:
            return {}
        return live_state.read_all(self.service.engine, elsewhere)

    async def close(self) -> None:
        for table in self.tables.values():
            await table.close()


def _config(table: SharedTable) -> TableConfig:
    """A lobby's table's configuration (the lobby gives each of its tables one)."""
    assert table.config is not None
    return table.config


def _table_view(table: SharedTable, player: int | None, seen: Seen | None) -> LobbyTable:
    config = _config(table)
    viewer = player if player is not None else 0
    snapshot = table.snapshot(viewer) if seen is None else table.seen(seen, viewer)
    shoe = snapshot.shoe
    first = table.spec.spots[0]
    return LobbyTable(
        id=config.id,
        name=config.name,
        game=table.game,
        title=table.kind.title,
        variant=str(getattr(table.rules, "variant", "")),
        limits=f"{first.label} {first.limits()}",
        wagers=[SpotInfo.model_validate(to_json(spot)) for spot in table.spec.spots],
        seats=table.max_seats,
        seats_taken=snapshot.players,
        seats_free=snapshot.seats_free,
        phase=snapshot.phase,
        you=any(seat.you for seat in snapshot.seats),
        players=[seat.name for seat in snapshot.seats],
        seated=snapshot.seats,
        on_spots=snapshot.on_spots,
        seconds_left=snapshot.seconds_left,
        shoe=None if shoe is None else _shoe_view(shoe),
        big_road=None if shoe is None else _newest_columns(shoe.roads.big_road),
    )


def _shoe_view(shoe: ShoeView) -> LobbyShoe:
    """The shoe's coups and cards left, and each side's wins, from its winners' road."""
    return LobbyShoe(
        cards_left=shoe.cards_left,
        coups=len(shoe.road),
        banker=shoe.road.count("Banker"),
        player=shoe.road.count("Player"),
        tie=shoe.road.count("Tie"),
        last=shoe.road[-1] if shoe.road else None,
    )


def _newest_columns(entries: Sequence[BigRoadEntryView]) -> list[BigRoadEntryView]:
    """The big road's entries in its last :data:`LOBBY_ROAD_COLUMNS` grid columns (the
    lobby's miniature), each where the table's own road puts it.

    >>> from riverboat.table.road_views import RoadsView
    >>> road = RoadsView.of(["Banker", "Player"] * 15).big_road  # 30 columns of one
    >>> [(e.column, e.winner) for e in _newest_columns(road)][:2]
    [(10, 'Banker'), (11, 'Player')]
    """
    if not entries:
        return []
    first = max(entry.column for entry in entries) - LOBBY_ROAD_COLUMNS + 1
    return [entry for entry in entries if entry.column >= first]
