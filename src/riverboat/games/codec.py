"""Rules objects to JSON and back, so a round record carries the exact rules it used.

Frozen dataclasses become objects, tuples lists, fractions strings such as ``"3/2"``.

>>> from riverboat.games.rules import PayLine
>>> line = PayLine("Flush", (5,), Fraction(3, 2))
>>> to_json(line)
{'label': 'Flush', 'at_least': [5], 'pays': '3/2'}
>>> from_json(PayLine, to_json(line)) == line
True
"""

from __future__ import annotations

import dataclasses
import functools
import json
import types
import typing
from collections.abc import Hashable
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeVar

from riverboat.games.once import by_identity
from riverboat.json_types import JsonObject, JsonValue

__all__ = ["from_json", "rules_json", "to_json"]

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

T = TypeVar("T")


def rules_json(rules: object) -> JsonObject:
    """A rules object (a frozen dataclass) as a JSON object."""
    if not dataclasses.is_dataclass(rules) or isinstance(rules, type):
        raise TypeError(f"rules are a dataclass, not {type(rules).__name__}")
    return typing.cast(JsonObject, to_json(rules))


def to_json(value: object) -> JsonValue:
    """A JSON-ready copy of a rules value (a fresh one each call: the caller may keep
    or change it; a frozen dataclass's is worked out once and copied)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        try:
            return typing.cast(JsonValue, json.loads(_text(value)))
        except TypeError:  # not hashable: not a frozen value, so not kept
            return _dataclass_json(value)
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, tuple | list):
        return [to_json(item) for item in value]
    return typing.cast(JsonValue, value)


def from_json(kind: type[T], data: JsonValue) -> T:
    """Rebuild a value of type ``kind`` from :func:`to_json` output; the same rules
    give the same frozen value, built once."""
    params = getattr(kind, "__dataclass_params__", None)
    frozen = params is not None and params.frozen
    try:
        text = json.dumps(data, sort_keys=True) if frozen else None
    except TypeError:  # not JSON: built as it is, and refused if it is not a value
        text = None
    if text is None:
        return typing.cast(T, _build(kind, data))
    return typing.cast(T, _built(typing.cast(Hashable, kind), text))


@by_identity
def _text(value: object) -> str:
    """A frozen dataclass's JSON text, found by identity before equality (hashing a
    rules object, its pay tables and fractions field by field, costs more than the
    text's copy); :class:`TypeError` if it is not hashable."""
    return _dataclass_text(value)


@functools.lru_cache(maxsize=256)
def _dataclass_text(value: Hashable) -> str:
    return json.dumps(_dataclass_json(value))


def _dataclass_json(value: object) -> JsonObject:
    fields = dataclasses.fields(typing.cast("DataclassInstance", value))
    return {f.name: to_json(getattr(value, f.name)) for f in fields}


@functools.lru_cache(maxsize=256)
def _built(kind: Hashable, text: str) -> object:
    return _build(kind, json.loads(text))


@functools.cache
def _fields(kind: type) -> tuple[dict[str, Any], frozenset[str]]:
    """A dataclass's field types and the names its constructor takes, worked out once
    per class (reading type hints is most of the cost of rebuilding rules)."""
    names = frozenset(f.name for f in dataclasses.fields(kind) if f.init)
    return typing.get_type_hints(kind), names


def _build(kind: object, data: Any) -> object:  # data: JSON, checked by the build
    origin = typing.get_origin(kind)
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        hints, names = _fields(kind)
        unknown = set(data) - names
        if unknown:
            raise ValueError(f"{kind.__name__} has no field {', '.join(sorted(unknown))}")
        return kind(**{name: _build(hints[name], data[name]) for name in names if name in data})
    if kind is Fraction:
        return Fraction(data)
    if origin is tuple:
        args = typing.get_args(kind)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_build(args[0], item) for item in data)
        return tuple(_build(arg, item) for arg, item in zip(args, data, strict=True))
    if origin in (typing.Union, types.UnionType):
        options = [arg for arg in typing.get_args(kind) if arg is not type(None)]
        return None if data is None else _build(options[0], data)
    return data
