"""Values worked out once per object and found again by identity, not equality.

A round's rules, its pay tables and its spec are frozen values that come back round
after round as the same objects (a variant's rules, or :func:`~riverboat.games.codec.from_json`'s
one object for the same rules). Finding what was worked out for them by equality
means hashing them field by field, fractions and all, which costs more than many of
the answers; by identity it is one lookup. Each object is kept beside its answer, so
no other object takes its id while it is kept; at most :data:`MOST` are kept per
function (then all are dropped and worked out again).

>>> calls = []
>>> @by_identity
... def size(rules: list[int]) -> int:
...     calls.append(rules)
...     return len(rules)
>>> rules = [1, 2, 3]
>>> size(rules), size(rules), len(calls)
(3, 3, 1)
>>> size([1, 2, 3]), len(calls)  # an equal object of its own is worked out anew
(3, 2)
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TypeVar

__all__ = ["MOST", "by_identity"]

K = TypeVar("K")
V = TypeVar("V")

#: how many objects one function keeps answers for
MOST = 256


def by_identity(work: Callable[[K], V]) -> Callable[[K], V]:
    """``work`` with its answers kept per object, found by identity."""
    kept: dict[int, tuple[K, V]] = {}

    @functools.wraps(work)
    def once(key: K) -> V:
        found = kept.get(id(key))
        if found is not None and found[0] is key:
            return found[1]
        value = work(key)
        if len(kept) >= MOST:
            kept.clear()
        kept[id(key)] = (key, value)
        return value

    return once
