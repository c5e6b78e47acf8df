"""What happens in a round, as frozen, typed events with one JSON form each.

A round's history is an append-only list of these (ARCHITECTURE principle 6): the
wagers placed, the deal, each decision, a card a decision draws, the settlement or
a void. :func:`event_from_json` reads the JSON form back; replay matches on the
types.

>>> event = Decision(seat="player", blind=False, action="play", amount=1000)
>>> event.to_json()
{'kind': 'decision', 'seat': 'player', 'blind': False, 'action': 'play', 'amount': 1000}
>>> event_from_json(event.to_json()) == event
True
>>> event_from_json({"kind": "shuffle"})
Traceback (most recent call last):
...
riverboat.games.events.EventError: no event kind 'shuffle'; the kinds are wagers, deal, ...
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from types import MappingProxyType
from typing import ClassVar, TypeAlias, TypeVar, cast

from riverboat.json_types import JsonObject, JsonValue
from riverboat.money import Cents

__all__ = [
    "AUTOMATIC",
    "BLIND_PLAY",
    "NO_CHOICE",
    "Dealt",
    "Decision",
    "Drawn",
    "Event",
    "EventError",
    "Settled",
    "SettledPosition",
    "Voided",
    "Wagered",
    "event_from_json",
]

#: the engine's decision for a blind second position: its Play (C8)
BLIND_PLAY = "blind"
#: the engine's decision for a position with nothing to decide (Pair Plus alone, a coup)
NO_CHOICE = "auto"
#: the decisions the engine makes, never a player
AUTOMATIC = (NO_CHOICE, BLIND_PLAY)


class EventError(ValueError):
    """JSON that is not a round event."""


V = TypeVar("V")

#: one position's settlement: its ``seat`` and ``blind``, and its net cents by line
SettledPosition: TypeAlias = Mapping[str, str | bool | Cents]


def _frozen(mapping: Mapping[str, V]) -> Mapping[str, V]:
    return MappingProxyType(dict(mapping))


@dataclass(frozen=True)
class Event:
    """One thing that happened in a round."""

    kind: ClassVar[str]

    def to_json(self) -> JsonObject:
        """The event's one JSON form: ``{"kind": ..., fields...}``."""
        found: JsonObject = {"kind": self.kind}
        for name in _names(type(self)):
            found[name] = _plain(getattr(self, name))
        return found


#: each event class's field names, in order, as read by :func:`_names`
_NAMES: dict[type[Event], tuple[str, ...]] = {}


def _names(kind: type[Event]) -> tuple[str, ...]:
    """An event class's field names, in order (read once per class)."""
    names = _NAMES.get(kind)
    if names is None:
        names = _NAMES[kind] = tuple(field.name for field in fields(kind))
    return names


#: values that are their own JSON form, checked before the abstract types
_SCALARS = frozenset({int, str, bool, float, type(None)})


def _plain(value: object) -> JsonValue:
    if type(value) in _SCALARS:
        return cast(JsonValue, value)
    if isinstance(value, Mapping):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    return cast(JsonValue, value)


@dataclass(frozen=True)
class Wagered(Event):
    """A position opened at ``seat`` with these wagers (cents per spot)."""

    kind: ClassVar[str] = "wagers"
    seat: str
    blind: bool
    wagers: Mapping[str, Cents]

    def __post_init__(self) -> None:
        object.__setattr__(self, "wagers", _frozen(self.wagers))


@dataclass(frozen=True)
class Dealt(Event):
    """The deal: each hand's cards (0..51)."""

    kind: ClassVar[str] = "deal"
    cards: Mapping[str, tuple[int, ...]]

    def __post_init__(self) -> None:
        cards = {hand: tuple(int(c) for c in held) for hand, held in self.cards.items()}
        object.__setattr__(self, "cards", _frozen(cards))


@dataclass(frozen=True)
class Decision(Event):
    """A position's decision and the cents it put in play (``auto``/``blind``: the
    engine's, for a position with no choice)."""

    kind: ClassVar[str] = "decision"
    seat: str
    blind: bool
    action: str
    amount: Cents

    @property
    def by_player(self) -> bool:
        """Whether a player made it (G7: a round is void only before the first)."""
        return self.action not in AUTOMATIC


@dataclass(frozen=True)
class Drawn(Event):
    """Cards a decision dealt to ``hand`` (the rabbit, R4)."""

    kind: ClassVar[str] = "draw"
    hand: str
    cards: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", tuple(int(c) for c in self.cards))


@dataclass(frozen=True)
class Settled(Event):
    """Each position's net cents per result line."""

    kind: ClassVar[str] = "settle"
    results: tuple[SettledPosition, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "results", tuple(_frozen(r) for r in self.results))


@dataclass(frozen=True)
class Voided(Event):
    """The round is void and every wager returned (G7)."""

    kind: ClassVar[str] = "void"
    reason: str


_KINDS: dict[str, type[Event]] = {
    kind.kind: kind for kind in (Wagered, Dealt, Decision, Drawn, Settled, Voided)
}


def event_from_json(data: Mapping[str, JsonValue]) -> Event:
    """The event a JSON form stands for; :class:`EventError` if it is none."""
    kind = _KINDS.get(str(data.get("kind")))
    if kind is None:
        raise EventError(
            f"no event kind {data.get('kind')!r}; the kinds are {', '.join(_KINDS)}"
        )
    given = {key: value for key, value in data.items() if key != "kind"}
    names = _names(kind)
    if set(given) != set(names):
        raise EventError(
            f"a {kind.kind} event has the fields {', '.join(names)}, "
            f"not {', '.join(given) or 'none'}"
        )
    return kind(**given)
