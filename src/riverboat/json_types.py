"""JSON as riverboat writes and reads it at its edges: round records, the API,
exports, the analysis cache.

``JsonValue`` is any JSON value; ``JsonObject`` a JSON object being built. Reading
one means narrowing it (``isinstance``) or a typed form such as
:class:`riverboat.games.engine.RoundRecord`.

>>> from riverboat.json_types import JsonObject
>>> event: JsonObject = {"kind": "void", "reason": "shoe ran out"}
>>> sorted(event)
['kind', 'reason']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeAlias

__all__ = ["JsonObject", "JsonValue"]

#: any JSON value (read-only containers, so a ``list[int]`` is one too)
JsonValue: TypeAlias = (
    "str | int | float | bool | Sequence[JsonValue] | Mapping[str, JsonValue] | None"
)
#: a JSON object as it is built
JsonObject: TypeAlias = "dict[str, JsonValue]"
