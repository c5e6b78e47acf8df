"""The games: each a package with one :class:`GameDefinition`, registered here.

riverboat's four games are registered first, then every game installed in the
``riverboat.games`` entry-point group (docs/adding-a-game.md).

>>> game = find_game("tri-card")
>>> game.title, sorted(game.variants)
('Tri-Card Poker', ['standard'])
>>> find_game("poker")
Traceback (most recent call last):
...
riverboat.games.rules.RulesError: no game 'poker'; the games are rabbit-hunter, tri-card, ...
"""

from __future__ import annotations

import threading
import warnings
from collections.abc import Iterator, Mapping
from importlib import import_module

from riverboat.deck import CardSource, Deck
from riverboat.games.codec import from_json
from riverboat.games.definition import GameDefinition, GameRules, SomeGame
from riverboat.games.engine import Round, RoundRecord
from riverboat.games.events import Dealt, Decision, Event, Voided, Wagered, event_from_json
from riverboat.games.game_math import GameMath
from riverboat.games.positions import Choice, Phase, Position
from riverboat.games.rules import IllegalAction, RulesError, Spot
from riverboat.games.spec import GameSpec, HandSpec, OptionSpec, ShoeSpec
from riverboat.json_types import JsonObject

__all__ = [
    "ENTRY_POINTS",
    "GAMES",
    "OWN_GAMES",
    "Choice",
    "Event",
    "GameDefinition",
    "GameMath",
    "GameRules",
    "GameSpec",
    "HandSpec",
    "IllegalAction",
    "OptionSpec",
    "Phase",
    "Position",
    "ReplayMismatch",
    "Round",
    "RoundRecord",
    "RulesError",
    "ShoeSpec",
    "SomeGame",
    "Spot",
    "discover",
    "find_game",
    "game_of",
    "register",
    "replay",
    "unregister",
]

#: the entry-point group a game in a package of its own registers in
ENTRY_POINTS = "riverboat.games"

#: riverboat's own games, in the order they are listed: each name's package, imported
#: when the game is first read (``play tri-card`` loads no other game's code)
OWN_GAMES = {
    "rabbit-hunter": "rabbit_hunter",
    "tri-card": "tri_card",
    "crazy4": "crazy4",
    "baccarat": "baccarat",
}


#: held while a game is added to the registry (threads may read a game first at once)
_ADDING = threading.Lock()


class _Registry(Mapping[str, SomeGame]):
    """The games by name, riverboat's own first. Each of its own is imported when it
    is first read by name, and the installed plug-ins are looked up when the games
    are listed or an unknown name is read, so a command pays only for the games it
    uses (instructions counted in docs/benchmarks.md, "Small commands")."""

    def __init__(self) -> None:
        self._games: dict[str, SomeGame] = {}
        self._by_rules: dict[type, SomeGame] = {}
        self._discovered = False

    def __getitem__(self, name: str) -> SomeGame:
        if name in OWN_GAMES:
            return self._own(name)
        return self._all()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    def rules_of(self, rules: type) -> SomeGame | None:
        """The game whose rules are of type ``rules``, if any."""
        if rules not in self._by_rules:
            self._all()
        return self._by_rules.get(rules)

    def add(self, game: SomeGame) -> None:
        known = self._games.get(game.name)
        if known is not None:
            raise RulesError(f"there is already a game {game.name!r} ({known.title})")
        if game.rules_type in self._by_rules:
            taken = self._by_rules[game.rules_type].name
            raise RulesError(f"{game.rules_type.__name__} are already the rules of {taken!r}")
        self._games[game.name] = game
        self._by_rules[game.rules_type] = game

    def remove(self, name: str) -> None:
        game = self._games.pop(name)
        del self._by_rules[game.rules_type]

    def _own(self, name: str) -> SomeGame:
        """One of riverboat's own games, its package imported on first use (by whichever
        thread asks first: the import is Python's, once; the adding is under a lock)."""
        if name not in self._games:
            package = import_module(f"{__name__}.{OWN_GAMES[name]}")
            with _ADDING:
                if name not in self._games:
                    self.add(package.GAME)
        return self._games[name]

    def load_own(self) -> None:
        """Every one of riverboat's own games (before a plug-in is added beside them)."""
        for name in OWN_GAMES:
            self._own(name)

    def _all(self) -> dict[str, SomeGame]:
        self.load_own()
        if not self._discovered:
            self._discovered = True
            discover()
        own = {name: self._games[name] for name in OWN_GAMES}
        return own | self._games


#: every game riverboat knows, by name: the four of its own, then the plug-ins
GAMES = _Registry()


def register(game: SomeGame) -> SomeGame:
    """Add a game to :data:`GAMES` (the same definition twice is a no-op).

    Raises :class:`RulesError` when another game has its name or its rules type.
    """
    if not isinstance(game, GameDefinition):
        raise RulesError(f"a game is a GameDefinition, not {type(game).__name__}")
    GAMES.load_own()
    with _ADDING:
        if GAMES._games.get(game.name) is not game:
            GAMES.add(game)
    return game


def unregister(name: str) -> None:
    """Take a game out of :data:`GAMES` (tests that install a plug-in and remove it)."""
    GAMES.remove(name)


def discover() -> list[str]:
    """Register every game installed in the :data:`ENTRY_POINTS` group that is not
    registered yet; the names of those added.

    An entry point names a :class:`GameDefinition` (``package.module:GAME``). One
    that cannot be loaded or is not a game is left out with a warning naming it,
    so one broken plug-in never stops the others or riverboat's own games.
    """
    from importlib.metadata import entry_points

    GAMES.load_own()
    added = []
    for point in entry_points(group=ENTRY_POINTS):
        if point.name in GAMES._games:
            continue
        try:
            game = point.load()
            _check_plugin(game)
            register(game)
        except Exception as error:
            warnings.warn(
                f"the game {point.name!r} ({point.value}) is left out: {error}",
                RuntimeWarning,
                stacklevel=2,
            )
            continue
        added.append(game.name)
    return added


def _check_plugin(game: object) -> None:
    """A plug-in's game gives its spec, the words of every line and its rules in brief
    under each of its variants, or is refused as it loads (not later, in a front end)."""
    if not isinstance(game, GameDefinition):
        raise RulesError(f"a game is a GameDefinition, not {type(game).__name__}")
    for rules in game.variants.values():
        spec = game.spec(rules)
        named = {spot.name for spot in spec.spots} | set(game.line_words(rules).labels)
        placed = [line for option in spec.options for line in (option.line, option.fee_line)]
        missing = sorted({line for line in placed if line} - named)
        if missing:
            raise RulesError(f"{game.name}: no label for the lines {', '.join(missing)}")
        _check_how_to_play(game, rules)


def _check_how_to_play(game: SomeGame, rules: GameRules) -> None:
    """R11: the rules in brief under ``rules`` are one sentence or more, each a string."""
    sentences = game.how_to_play(rules)
    if not isinstance(sentences, tuple) or not all(isinstance(s, str) for s in sentences):
        raise RulesError(f"{game.name}: how_to_play gives a tuple of sentences, not {sentences!r}")
    if not sentences:
        raise RulesError(f"{game.name}: how_to_play says nothing under {rules.variant!r}")


def find_game(name: str) -> SomeGame:
    """The game called ``name``: rabbit-hunter, tri-card, crazy4, baccarat or a plug-in."""
    if name not in GAMES:
        raise RulesError(f"no game {name!r}; the games are {', '.join(GAMES)}")
    return GAMES[name]


def game_of(rules: object) -> SomeGame:
    """The game a rules object belongs to, by its type."""
    game = GAMES.rules_of(type(rules))
    if game is None:
        raise RulesError(f"no game has rules of type {type(rules).__name__}")
    return game


class ReplayMismatch(ValueError):  # noqa: N818 - a finding, not a failure of the code
    """A round record whose replay does not reach the settlement it records."""


def replay(record: RoundRecord, source: CardSource | None = None) -> Round[GameRules]:
    """Play a round record again from its rules, cards and decisions.

    ``source`` deals the cards (by default exactly the recorded ones); a round still
    in play continues from it. Raises :class:`ReplayMismatch` when the replay differs
    from the record.
    """
    game = find_game(record["game"])
    rules = from_json(game.rules_type, record["rules"])
    game_round = game.round_type(rules)
    source = source or Deck.stacked(record["cards_drawn"])
    try:
        _apply_events(game_round, record["events"], source)
    except ValueError as error:  # an illegal step or too few cards: not this round
        raise ReplayMismatch(f"the {game.title} round does not replay: {error}") from None
    replayed = game_round.record()
    if replayed["events"] != [dict(e) for e in record["events"]]:
        raise ReplayMismatch(
            f"the {game.title} round does not replay to its record: "
            f"recorded {record['events'][-1]}, replayed {replayed['events'][-1]}"
        )
    return game_round


def _apply_events(
    game_round: Round[GameRules], events: list[JsonObject], source: CardSource
) -> None:
    for event in map(event_from_json, events):
        match event:
            case Wagered(seat=seat, blind=blind, wagers=wagers):
                game_round.place_wagers(wagers, seat, blind)
            case Dealt():
                game_round.deal(source)
            case Decision(seat=seat, action=action, amount=amount) if event.by_player:
                game_round.act(action, amount, seat)
            case Voided(reason=reason) if game_round.phase is not Phase.VOID:
                game_round.void(reason)
