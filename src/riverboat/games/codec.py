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
import types
import typing
from fractions import Fraction
from typing import Any, TypeVar

__all__ = ["from_json", "to_json"]

T = TypeVar("T")


def to_json(value: Any) -> Any:
    """A JSON-ready copy of a rules value."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, tuple | list):
        return [to_json(item) for item in value]
    return value


def from_json(kind: type[T], data: Any) -> T:
    """Rebuild a value of type ``kind`` from :func:`to_json` output."""
    return typing.cast(T, _build(kind, data))


def _build(kind: Any, data: Any) -> Any:
    origin = typing.get_origin(kind)
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        hints = typing.get_type_hints(kind)
        names = {f.name for f in dataclasses.fields(kind) if f.init}
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
