"""Reports kept on disk: what an analysis or a strategy card says, a few kilobytes,
read back by a later process instead of counting again.

The counting tables (:mod:`riverboat.analysis.headsup`, tens of megabytes for Rabbit
Hunter) stay the source of every figure; a report is what is derived from them for
one game, rules and wager combination: the exact :class:`~riverboat.analysis.report.Figures`
(fractions as text, so nothing is rounded), the strategy's summary and option labels,
the blind hand's figures and the notes; for a strategy card its rules, its agreement
and the figures under the card and under optimal play. Each is one small file of
:mod:`riverboat.analysis.disk_cache` (same folder, same key: rules, package version
and the counting code's digest, so other rules or other code never read it; written
atomically, checked when read, and counted again when damaged), the wagers part of
its rules. A report read back writes the same bytes as the counted one; what needs
the tables themselves (``Strategy.solution``, ``--strategy`` files, a card's
``choice``) is counted when first asked for.

>>> import tempfile
>>> from pathlib import Path
>>> from riverboat.analysis import analyze
>>> from riverboat.settings import overridden
>>> with overridden(cache_dir=Path(tempfile.mkdtemp())):  # a folder of the example's
...     counted = analyze("baccarat", wagers={"banker": 1})
...     again = analyze("baccarat", wagers={"banker": 1})   # read back: the same figures
...     kept = [e.path.name.split("-")[1] for e in disk_cache.entries()]
>>> again.figures == counted.figures, again.to_text() == counted.to_text(), kept
(True, True, ['report'])
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import numpy as np

from riverboat.analysis import Analysis, Strategy, disk_cache
from riverboat.analysis.net_ranges import NetRange, net_ranges
from riverboat.analysis.report import Figures, ReturnRow, WagerFigures
from riverboat.games import GameRules
from riverboat.games.codec import to_json
from riverboat.json_types import JsonObject, JsonValue

if TYPE_CHECKING:
    from riverboat.analysis.solution import Solution

__all__ = ["figures_data", "figures_from", "kept_ranges", "key", "remember", "remember_report"]

#: the exact fractions of a :class:`Figures`, and those that may be None
_FRACTIONS = (
    "expected",
    "house_edge",
    "element_of_risk",
    "average_total_bet",
    "variance",
    "win",
    "push",
    "loss",
    "hit_frequency",
)
_OPTIONAL = ("house_edge_per_ante", "dealer_qualifies")

#: the ways a range after many rounds is found
_METHODS: tuple[Literal["exact"], Literal["normal approximation"]] = (
    "exact",
    "normal approximation",
)

T = TypeVar("T")


def remember(
    game: str,
    rules: GameRules,
    placed: Mapping[str, Fraction],
    build: Callable[[], Analysis],
    solve: Callable[[], Solution] | None = None,
) -> Analysis:
    """The analysis of ``game`` under ``rules`` with wagers ``placed``: read back
    from its kept report (its strategy then finds its solution with ``solve()``
    when first asked for), or ``build()`` and kept."""

    def decode(report: Mapping[str, Any]) -> Analysis:
        strategy = None
        if (report["strategy"] is None) != (solve is None):
            raise ValueError("it has a strategy where the game has no decision, or none")
        if solve is not None:
            lines = tuple(str(line) for line in report["strategy"]["summary"])
            labels = {str(k): str(v) for k, v in report["strategy"]["labels"].items()}
            strategy = Strategy(solve, lines, labels)
        blind = None if report["blind"] is None else figures_from(report["blind"])
        notes = tuple(str(note) for note in report["notes"])
        return Analysis(
            game, rules, placed, figures_from(report["figures"]), strategy, blind, notes
        )

    def encode(analysis: Analysis) -> JsonObject:
        strategy = analysis.strategy
        return {
            "figures": figures_data(analysis.figures),
            "blind": None if analysis.blind is None else figures_data(analysis.blind),
            "notes": list(analysis.notes),
            "strategy": None
            if strategy is None
            else {"summary": strategy.summary(), "labels": strategy.labels()},
        }

    return remember_report(key(game, "report", rules, placed), build, decode, encode)


def kept_ranges(
    distribution: Mapping[Fraction, int],
    rounds: Sequence[int],
    confidences: Sequence[float],
    max_points: int,
) -> list[tuple[NetRange, ...]]:
    """:func:`~riverboat.analysis.net_ranges.net_ranges` for each of ``rounds``, kept
    on disk by the distribution (the convolutions take most of a PAR sheet's time)."""
    where = disk_cache.CacheKey(
        "net",
        "ranges",
        {
            "distribution": [[str(value), count] for value, count in sorted(distribution.items())],
            "rounds": list(rounds),
            "confidences": list(confidences),
            "max_points": max_points,
        },
    )

    def build() -> list[tuple[NetRange, ...]]:
        return [net_ranges(distribution, n, confidences, max_points) for n in rounds]

    def decode(data: Sequence[Sequence[Sequence[Any]]]) -> list[tuple[NetRange, ...]]:
        found = [tuple(_net_range(*kept) for kept in row) for row in data]
        if [len(row) for row in found] != [len(confidences)] * len(rounds):
            raise ValueError("its ranges are not one per rounds and confidence")
        return found

    def encode(found: list[tuple[NetRange, ...]]) -> JsonValue:
        return [
            [[r.rounds, r.confidence, r.mean, r.low, r.high, r.method] for r in row]
            for row in found
        ]

    return remember_report(where, build, decode, encode)


def _net_range(
    rounds: int, confidence: float, mean: float, low: float, high: float, method: str
) -> NetRange:
    """A kept :class:`NetRange` back (ValueError for a method it does not name)."""
    for known in _METHODS:
        if method == known:
            return NetRange(
                int(rounds), float(confidence), float(mean), float(low), float(high), known
            )
    raise ValueError(f"no method {method!r}")


def key(
    game: str, kind: str, rules: GameRules, placed: Mapping[str, Fraction]
) -> disk_cache.CacheKey:
    """The key of a report of ``kind`` (``"report"``, ``"card"``): the game, its
    rules and the wagers placed, in units of the Ante."""
    return disk_cache.CacheKey(game, kind, {"rules": to_json(rules), "wagers": _texts(placed)})


def remember_report(
    where: disk_cache.CacheKey,
    build: Callable[[], T],
    decode: Callable[[Any], T],  # the JSON read back, checked by decode itself
    encode: Callable[[T], JsonValue],
) -> T:
    """:func:`disk_cache.remember` for a report: ``encode`` gives JSON-ready data,
    kept as its UTF-8 text; ``decode`` takes it back, and a report it cannot read
    (a key or an item missing, a wrong type: ValueError, KeyError, TypeError...)
    is built again."""

    def decoded(stored: disk_cache.Arrays) -> T:
        report = stored["report"]
        if report.dtype != np.uint8 or report.ndim != 1:
            raise ValueError("its report is not text")
        try:
            return decode(json.loads(report.tobytes().decode()))
        except (TypeError, AttributeError, IndexError, ZeroDivisionError, UnicodeError) as error:
            raise ValueError(f"its report does not read ({error!r})") from None

    def encoded(value: T) -> disk_cache.Arrays:
        text = json.dumps(encode(value), separators=(",", ":"))
        return {"report": np.frombuffer(text.encode(), dtype=np.uint8)}

    return disk_cache.remember(where, build, decoded, encoded)


# ------------------------------------------------------------------ figures
def figures_data(figures: Figures) -> JsonObject:
    """``figures`` as JSON-ready data, exactly: every fraction as its text.

    >>> from riverboat.analysis import analyze
    >>> f = analyze("baccarat", wagers={"tie": 1}).figures
    >>> figures_data(f)["house_edge"], figures_from(figures_data(f)) == f
    ('103841353768/723147898655', True)
    """
    data: JsonObject = {name: str(getattr(figures, name)) for name in _FRACTIONS}
    for name in _OPTIONAL:
        value = getattr(figures, name)
        data[name] = None if value is None else str(value)
    return data | {
        "game": figures.game,
        "cycle": figures.cycle,
        "wagers": _texts(figures.wagers),
        "decisions": _texts(figures.decisions),
        "per_wager": [
            {
                "name": wager.name,
                "stake": str(wager.stake),
                "house_edge": str(wager.house_edge),
                "hit_frequency": str(wager.hit_frequency),
                "return_table": [_row(row) for row in wager.return_table],
            }
            for wager in figures.per_wager
        ],
        "net_table": [_row(row) for row in figures.net_table],
    }


def figures_from(data: Mapping[str, Any]) -> Figures:
    """The :class:`Figures` :func:`figures_data` gave (KeyError, ValueError or
    TypeError if ``data`` is not such)."""
    optional: dict[str, Any] = {
        name: None if data[name] is None else Fraction(data[name]) for name in _OPTIONAL
    }
    return Figures(
        game=str(data["game"]),
        wagers=_fractions(data["wagers"]),
        cycle=int(data["cycle"]),
        **{name: Fraction(data[name]) for name in _FRACTIONS},
        **optional,
        decisions=_fractions(data["decisions"]),
        per_wager=tuple(
            WagerFigures(
                str(wager["name"]),
                Fraction(wager["stake"]),
                Fraction(wager["house_edge"]),
                tuple(_row_from(row) for row in wager["return_table"]),
                Fraction(wager["hit_frequency"]),
            )
            for wager in data["per_wager"]
        ),
        net_table=tuple(_row_from(row) for row in data["net_table"]),
    )


def _row(row: ReturnRow) -> list[JsonValue]:
    return [row.event, str(row.pays), row.combinations, str(row.probability), str(row.contribution)]


def _row_from(row: list[Any]) -> ReturnRow:
    event, pays, combinations, probability, contribution = row
    return ReturnRow(
        str(event), Fraction(pays), int(combinations), Fraction(probability), Fraction(contribution)
    )


def _texts(values: Mapping[str, Fraction]) -> dict[str, str]:
    return {name: str(value) for name, value in values.items()}


def _fractions(values: Mapping[str, str]) -> dict[str, Fraction]:
    return {str(name): Fraction(value) for name, value in values.items()}
