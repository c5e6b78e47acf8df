"""A game's rules as a variant file holds them: one pydantic model per game, built
from its rules dataclass, that checks a file, publishes its JSON Schema, and turns
a checked file back into rules.

Each field of a rules dataclass becomes a field of the file: a wager spot its limits
in dollars, the chips in dollars, a pay table one pay per hand (by the hand names
players read), a hand a rule must reach (a qualifier) by its name, a fraction as a
number or ``"a/b"``, a cap in dollars or ``"none"``. What each field means is the
rules dataclass's own (:func:`rule`).

>>> from riverboat.games import find_game
>>> model = variant_model(find_game("tri-card").rules())
>>> sorted(model.model_json_schema()["properties"])[:4]
['ante', 'ante_bonus_table', 'based_on', 'chips']
"""

from __future__ import annotations

import dataclasses
import re
import types
import typing
from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Annotated, Any, Literal, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainValidator,
    WithJsonSchema,
    create_model,
    model_validator,
)

from riverboat.games.rules import PayLine, PayTable, Spot
from riverboat.games.words import at_least
from riverboat.hands import HandRanking

__all__ = ["FileSpot", "hand_names", "rule", "rules_from", "variant_model"]

T = TypeVar("T")

#: the fields every rules object has that a file does not set as a rule
_NOT_RULES = ("variant", "version")


def rule(default: T, doc: str, *, hand: HandRanking | None = None) -> T:
    """A rules dataclass's field with what it means in a variant file (``doc``) and, for
    a hand a rule must reach, the ranking its hand is named by."""
    return dataclasses.field(default=default, metadata={"doc": doc, "hand": hand})


def doc_of(field: dataclasses.Field[object]) -> str:
    """What a rules field means, for a file's comment ("" if the game says nothing)."""
    return str(field.metadata.get("doc", ""))


def hand_ranking(field: dataclasses.Field[object]) -> HandRanking | None:
    found = field.metadata.get("hand")
    return found if isinstance(found, HandRanking) else None


def hand_names(ranking: HandRanking) -> dict[str, tuple[int, ...]]:
    """Every hand a rule can name in ``ranking``, by its name ("Queen-high", "Pair of
    Tens", "Flush"), the weakest first.

    >>> from riverboat.hands import THREE_CARD
    >>> names = hand_names(THREE_CARD)
    >>> names["Queen-high"], list(names)[-1]
    ((0, 10), 'Ace-high Straight Flush')
    """
    found: dict[str, tuple[int, ...]] = {}
    for category in ranking.categories:
        for key in [(int(category), rank) for rank in range(13)] + [(int(category),)]:
            if ranking.lowest(*key) >= ranking.count:
                continue
            name = at_least(ranking, key).removeprefix("a ")
            found.setdefault(name, key)
    return dict(sorted(found.items(), key=lambda item: item[1]))


# ------------------------------------------------------------------ value types
def _pays(value: object) -> Fraction:
    """A file's pay as an exact fraction: a whole or decimal number (TOML's decimals
    are read as :class:`Decimal`) or ``"a/b"`` text, at least 0."""
    found: Fraction | None = None
    if isinstance(value, int | Decimal) and not isinstance(value, bool):
        found = Fraction(value)
    elif isinstance(value, str) and re.fullmatch(r"\s*\d+\s*/\s*[1-9]\d*\s*", value):
        found = Fraction(value.replace(" ", ""))
    if found is None:
        raise ValueError(f'a pay is a number or a fraction such as "3/2", not {value!r}')
    if found < 0:
        raise ValueError(f"a pay cannot be negative ({value} to 1)")
    return found


_PAYS_SCHEMA = {
    "anyOf": [{"type": "number", "minimum": 0}, {"type": "string", "pattern": r"^\d+/\d+$"}],
    "description": 'X to 1: a number, or a fraction as text ("3/2"), at least 0',
}
#: a pay, "X to 1": a number or a fraction, at least 0
Pays = Annotated[Fraction, PlainValidator(_pays), WithJsonSchema(_PAYS_SCHEMA)]
#: an amount of money in dollars, to the cent, above 0
Dollars = Annotated[Decimal, Field(gt=0, decimal_places=2)]


class FileSpot(BaseModel):
    """A wager spot's limits in dollars."""

    model_config = ConfigDict(extra="forbid", strict=False)

    minimum: Dollars
    maximum: Dollars

    @model_validator(mode="after")
    def _in_order(self) -> FileSpot:
        if self.minimum > self.maximum:
            raise ValueError(
                f"the minimum (${self.minimum}) is above the maximum (${self.maximum})"
            )
        return self


def _pay_table_model(name: str, table: PayTable) -> type[BaseModel]:
    """One pay per hand of ``table``, each hand named as players read it."""
    fields: dict[str, Any] = {
        f"line_{i}": (Pays, Field(alias=line.label)) for i, line in enumerate(table.lines)
    }
    return create_model(
        f"{name}_pays", __config__=ConfigDict(extra="forbid", populate_by_name=False), **fields
    )


def is_cap(hint: object) -> bool:
    """Whether a rules field's type is a cap in cents or none (``Cents | None``): money
    in a file, in dollars or ``"none"``."""
    return typing.get_origin(hint) in (typing.Union, types.UnionType)


def is_money_list(field: dataclasses.Field[object], hint: object) -> bool:
    """Whether a rules field is a list of cents (the chips): a tuple that names no hand."""
    return typing.get_origin(hint) is tuple and hand_ranking(field) is None


def _field_type(rules: object, field: dataclasses.Field[object], hint: object) -> object:
    value = getattr(rules, field.name)
    ranking = hand_ranking(field)
    if isinstance(value, Spot):
        return FileSpot
    if isinstance(value, PayTable):
        return _pay_table_model(field.name, value)
    if ranking is not None:
        return Literal[tuple(hand_names(ranking))]
    if hint is Fraction:
        return Pays
    if is_money_list(field, hint):
        return Annotated[list[Dollars], Field(min_length=1)]
    if is_cap(hint):
        return Dollars | Literal["none"]
    if hint is bool:
        return Annotated[bool, Field(strict=True)]
    if hint is int:
        return Annotated[int, Field(strict=True)]
    raise TypeError(f"{type(rules).__name__}.{field.name}: no file form for {hint!r}")


def variant_model(rules: object) -> type[BaseModel]:
    """The model of a variant file of ``rules``'s game, its pay tables' hands those of
    ``rules`` (the variant a file is based on)."""
    hints = typing.get_type_hints(type(rules))
    fields: dict[str, Any] = {
        "riverboat": (str, Field(description="the riverboat version the file was written for")),
        "game": (str, Field(description="the game's name, as `riverboat games` lists it")),
        "variant": (str, Field(min_length=1, max_length=60, description="this variant's name")),
        "based_on": (str, Field(description="the named variant this one changes")),
    }
    for field in dataclasses.fields(rules):  # type: ignore[arg-type]
        if field.name in _NOT_RULES:
            continue
        kind = _field_type(rules, field, hints[field.name])
        fields[field.name] = (kind, Field(description=doc_of(field) or None))
    return create_model(
        f"{type(rules).__name__}File", __config__=ConfigDict(extra="forbid"), **fields
    )


# ------------------------------------------------------------------ back to rules
def _cents(dollars: Decimal) -> int:
    return int(dollars * 100)


def rules_from(base: T, checked: BaseModel) -> T:
    """``base``'s rules with a checked file's values in place: the variant's name, each
    spot's limits, the chips, every pay, qualifier, fraction and cap. The rules' own
    checks run as they are built (:class:`~riverboat.games.rules.RulesError`)."""
    changes: dict[str, object] = {"variant": checked.__dict__["variant"]}
    for field in dataclasses.fields(base):  # type: ignore[arg-type]
        if field.name in _NOT_RULES:
            continue
        given, value = getattr(checked, field.name), getattr(base, field.name)
        changes[field.name] = _rule_value(field, value, given)
    return dataclasses.replace(base, **changes)  # type: ignore[type-var]


def _rule_value(field: dataclasses.Field[object], value: object, given: object) -> object:
    ranking = hand_ranking(field)
    if isinstance(value, Spot):
        assert isinstance(given, FileSpot)
        return dataclasses.replace(
            value, minimum=_cents(given.minimum), maximum=_cents(given.maximum)
        )
    if isinstance(value, PayTable):
        assert isinstance(given, BaseModel)
        pays: Mapping[str, Fraction] = dict(given)
        lines = tuple(
            PayLine(line.label, line.at_least, pays[f"line_{i}"])
            for i, line in enumerate(value.lines)
        )
        return PayTable(value.name if lines == value.lines else "custom", lines)
    if ranking is not None:
        return hand_names(ranking)[str(given)]
    if isinstance(given, list):
        return tuple(_cents(d) for d in given)
    if given == "none":
        return None
    if isinstance(given, Decimal):  # a cap in dollars
        return _cents(given)
    return given
