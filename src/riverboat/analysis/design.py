"""Pay tables searched to a target: named pays varied over ranges, the candidates whose
house edge falls in a band (and whose hit frequency or spread meets a bound) kept,
each with its own optimal strategy, the best ranked and analysed exactly.

Why a candidate costs milliseconds and not a count: the analyzer counts, for every
player hand, the dealer hands in each *outcome class* (:mod:`riverboat.analysis.headsup`),
the runs of dealer hands that settle alike. Which dealer hands settle alike does not
depend on what a hand pays, and a pay enters a settlement as the stake times the pay,
so every result, and every hand's expected value per option, is affine in each pay.
The search counts once (or reads the count kept on disk), settles once more per
varied pay for its slope (checking that the outcome classes stay the same), and then
a candidate is a weighted sum of a few arrays of hands by options, an argmax for the
best option of every hand (the strategy re-optimised) and a dot product for the edge,
in integers throughout: exact. A game without decisions (Baccarat) works the same way
on its exact outcome distribution.

>>> from riverboat.games import find_game
>>> rules = find_game("tri-card").rules()
>>> found = search("tri-card", rules, [vary(rules, "pair_plus.Flush=3..5")])
>>> [(str(c.pays[0]), f"{float(c.house_edge):.4%}") for c in found.kept]
[('5', '-2.6425%'), ('4', '2.3167%'), ('3', '7.2760%')]
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from itertools import pairwise, product
from math import lcm, prod, sqrt
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from riverboat.analysis import Analysis, GivenWagers, wager_units
from riverboat.analysis.report import Outcomes, figures, percent
from riverboat.games import GameRules, find_game
from riverboat.games.rules import PayLine, PayTable, RulesError
from riverboat.json_types import JsonObject

if TYPE_CHECKING:  # the counting code (and numba) load only when something is counted
    from riverboat.analysis.headsup import HeadsUpGame
    from riverboat.analysis.solution import Counted

__all__ = ["Band", "Candidate", "Design", "Rank", "Target", "Vary", "search", "vary"]

Int64s = npt.NDArray[np.int64]

#: the most candidates one search weighs
MOST_CANDIDATES = 1_000_000


# ----------------------------------------------------------------- what varies
@dataclass(frozen=True)
class Vary:
    """One pay the search varies and the values it takes.

    ``name`` is as the designer wrote it (``pair_plus.Flush``); ``field`` the rules
    field it changes (``pair_plus_table``) and ``line`` the pay table's line (its hand
    as players read it), None for a pay that is a field of its own (``tie_pays``).
    """

    name: str
    field: str
    line: str | None
    values: tuple[Fraction, ...]


def _pay_fields(rules: GameRules) -> dict[str, str]:
    """Every field of ``rules`` a search may vary, by the names a designer may use:
    a pay table by its field (``pair_plus_table``), without ``_table``
    (``ante_bonus``) and by its wager, a pay of its own (``tie_pays``) by its field."""
    from riverboat.analysis.adapters import game_math

    tables = {id(table): wager for wager, table in game_math(rules).pay_tables(rules).items()}
    names = {}
    for item in dataclasses.fields(rules):  # type: ignore[arg-type]
        value = getattr(rules, item.name)
        if isinstance(value, PayTable):
            names[item.name] = names[item.name.removesuffix("_table")] = item.name
            if id(value) in tables:
                names[tables[id(value)]] = item.name
        elif isinstance(value, Fraction) and not isinstance(value, bool):
            names[item.name] = item.name
    return names


def _values(text: str, what: str) -> tuple[Fraction, ...]:
    """``"3..5"``, ``"3..5:0.5"``, ``"3,4,6"`` or ``"3/2"``: the values, each at least 0."""

    def number(part: str) -> Fraction:
        try:
            value = Fraction(part.strip())
        except (ValueError, ZeroDivisionError):
            raise RulesError(
                f"{what}: {part.strip()!r} is not a number (a pay is X to 1: 3, 1.5 or 3/2)"
            ) from None
        if value < 0:
            raise RulesError(f"{what}: a pay cannot be negative ({part.strip()})")
        return value

    span, _, step_text = text.partition(":")
    if ".." in span:
        low_text, _, high_text = span.partition("..")
        low, high = number(low_text), number(high_text)
        step = number(step_text) if step_text else Fraction(1)
        if step <= 0 or low > high:
            raise RulesError(f"{what}: a range runs LOW..HIGH[:STEP], LOW <= HIGH, STEP above 0")
        count = int((high - low) / step) + 1
        if count > MOST_CANDIDATES:
            raise RulesError(f"{what}: {count:,} values; at most {MOST_CANDIDATES:,}")
        return tuple(low + i * step for i in range(count))
    if step_text:
        raise RulesError(f"{what}: a step goes with a range, LOW..HIGH:STEP")
    values = tuple(sorted({number(part) for part in span.split(",") if part.strip()}))
    if not values:
        raise RulesError(f"{what}: give the values, e.g. 3..5, 3..5:0.5 or 3,4,6")
    return values


def vary(rules: GameRules, text: str) -> Vary:
    """A ``--vary`` of a search: ``"pair_plus.Flush=3..5"`` (a pay table's line, the
    table named by its wager or its field), ``"tie_pays=8,9"`` (a pay of its own).

    >>> from riverboat.games import find_game
    >>> vary(find_game("tri-card").rules(), "pair_plus.flush=3..4:0.5").values
    (Fraction(3, 1), Fraction(7, 2), Fraction(4, 1))
    """
    name, equals, given = (part.strip() for part in text.partition("="))
    if not equals or not name:
        raise RulesError(f"{text!r}: a pay to vary is NAME=VALUES, e.g. pair_plus.Flush=3..5")
    fields = _pay_fields(rules)
    table, _, hand = name.partition(".")
    field_name = fields.get(table.replace("-", "_"))
    if field_name is None:
        raise RulesError(
            f"{name}: {type(rules).__name__} has no pay of that name; the pays are "
            + ", ".join(sorted(fields))
        )
    value = getattr(rules, field_name)
    line = None
    if isinstance(value, PayTable):
        labels = [pay.label for pay in value.lines]
        line = next((label for label in labels if label.lower() == hand.lower()), None)
        if line is None:
            raise RulesError(
                f"{name}: {table} pays on " + ", ".join(labels) + f" (e.g. {table}.{labels[-1]})"
            )
    elif hand:
        raise RulesError(f"{name}: {table} is one pay, not a table: write {table}=VALUES")
    return Vary(name, field_name, line, _values(given, name))


def with_pays(rules: GameRules, varies: Sequence[Vary], pays: Sequence[Fraction]) -> GameRules:
    """``rules`` with each varied pay at its value in ``pays``, named for them; the
    rules' own checks run (:class:`RulesError`)."""
    changes: dict[str, object] = {}
    for varied, value in zip(varies, pays, strict=True):
        if varied.line is None:
            changes[varied.field] = value
            continue
        table: PayTable = changes.get(varied.field) or getattr(rules, varied.field)  # type: ignore[assignment]
        lines = tuple(
            PayLine(line.label, line.at_least, value) if line.label == varied.line else line
            for line in table.lines
        )
        changes[varied.field] = PayTable("custom", lines)
    said = ", ".join(f"{v.line or v.field} {_number(p)}" for v, p in zip(varies, pays, strict=True))
    changes["variant"] = f"{getattr(rules, 'variant', 'rules')} with {said}"
    return dataclasses.replace(rules, **changes)  # type: ignore[type-var]


def _number(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"


# ------------------------------------------------------------------ the target
@dataclass(frozen=True)
class Band:
    """An inclusive band; an end that is None is open.

    >>> Band.parse("2..3", "--edge"), Band.parse("..3", "--std-dev", percent=False).holds(2.5)
    (Band(low=Fraction(1, 50), high=Fraction(3, 100)), True)
    """

    low: Fraction | None = None
    high: Fraction | None = None

    @classmethod
    def parse(cls, text: str, what: str, percent: bool = True) -> Band:
        """``"2..3"``, ``"2.."`` or ``"..3"``, in percent unless ``percent`` is False."""
        low, dots, high = (part.strip() for part in text.partition(".."))
        if not dots or not (low or high):
            raise RulesError(f"{what}: a band is LOW..HIGH, LOW.. or ..HIGH (e.g. 2..3)")
        try:
            ends = [Fraction(end) / (100 if percent else 1) if end else None for end in (low, high)]
        except (ValueError, ZeroDivisionError):
            raise RulesError(f"{what}: {text!r} is not a band of numbers (e.g. 2..3)") from None
        if ends[0] is not None and ends[1] is not None and ends[0] > ends[1]:
            raise RulesError(f"{what}: {text!r} runs high to low; write LOW..HIGH")
        return cls(ends[0], ends[1])

    def holds(self, value: Fraction | float) -> bool:
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)

    @property
    def bounded(self) -> bool:
        return self.low is not None or self.high is not None

    def middle(self) -> Fraction | None:
        if self.low is None or self.high is None:
            return self.low if self.high is None else self.high
        return (self.low + self.high) / 2

    def __str__(self) -> str:
        ends = ["" if end is None else f"{float(end) * 100:g}%" for end in (self.low, self.high)]
        return "..".join(ends) if self.bounded else "any"


class Rank(StrEnum):
    """How the kept candidates are ordered, best first."""

    target = "target"  # house edge nearest the band's middle
    edge = "edge"  # lowest house edge
    hit = "hit"  # highest hit frequency
    spread = "spread"  # lowest standard deviation


@dataclass(frozen=True)
class Target:
    """What a candidate must meet: its house edge (per Ante where an Ante is placed,
    else per total initial wager) in ``edge``, its hit frequency in ``hit_frequency``
    and its standard deviation per initial wager in ``std_dev`` (a plain number)."""

    edge: Band = Band()
    hit_frequency: Band = Band()
    std_dev: Band = Band()


# ---------------------------------------------------------------- the results
@dataclass(frozen=True)
class Candidate:
    """A pay table the search weighed: its pays (in the order of the varies) and its
    figures, exact for the edges and the element of risk, to float precision for the
    spread and the hit frequency (None where the search did not need them)."""

    pays: tuple[Fraction, ...]
    house_edge: Fraction  # on the design's basis
    house_edge_total: Fraction  # per total initial wager
    element_of_risk: Fraction
    hit_frequency: float | None = None
    std_dev: float | None = None


@dataclass
class Design:
    """A search's outcome: how many candidates it weighed and kept, the best ranked,
    each with its exact analysis, and what the search cost."""

    game: str
    base: GameRules
    varies: tuple[Vary, ...]
    wagers: Mapping[str, Fraction]
    target: Target
    rank: Rank
    basis: str  # what `house_edge` is per: "Ante" or "total initial wager"
    weighed: int
    kept: list[Candidate]
    best: list[tuple[Candidate, Analysis]] = field(default_factory=list)
    setup_seconds: float = 0.0  # counting (or reading the count) and the slopes
    search_seconds: float = 0.0  # every candidate after that

    @property
    def per_candidate(self) -> float:
        """Seconds per candidate after the first: the search's cost of one more."""
        return self.search_seconds / max(1, self.weighed)

    def to_json(self) -> JsonObject:
        def candidate(found: Candidate, exact: Analysis) -> JsonObject:
            f = exact.figures
            return {
                "pays": {v.name: str(p) for v, p in zip(self.varies, found.pays, strict=True)},
                "variant": str(getattr(exact.rules, "variant", "")),
                "house_edge_per_ante": None
                if f.house_edge_per_ante is None
                else float(f.house_edge_per_ante),
                "house_edge_per_total_initial_wager": float(f.house_edge),
                "house_edge_exact": str(found.house_edge),
                "element_of_risk": float(f.element_of_risk),
                "std_dev_per_total_initial_wager": f.std_dev,
                "hit_frequency": float(f.hit_frequency),
                "own_house_edges": {
                    w.name: float(own.house_edge)
                    for w in f.per_wager
                    if (own := exact.own_edge(w.name)) is not None
                },
                "strategy": exact.strategy.summary() if exact.strategy else [],
            }

        return {
            "game": self.game,
            "based_on": str(getattr(self.base, "variant", "")),
            "wagers_placed": {k: str(v) for k, v in self.wagers.items()},
            "edge_basis": f"house edge per {self.basis}",
            "vary": {v.name: [str(x) for x in v.values] for v in self.varies},
            "target": {
                "house_edge": str(self.target.edge),
                "hit_frequency": str(self.target.hit_frequency),
                "std_dev": _plain_band(self.target.std_dev),
            },
            "rank": self.rank.value,
            "weighed": self.weighed,
            "kept": len(self.kept),
            "setup_seconds": self.setup_seconds,
            "search_seconds": self.search_seconds,
            "milliseconds_per_candidate": self.per_candidate * 1000,
            "best": [candidate(found, exact) for found, exact in self.best],
        }

    def to_text(self) -> str:
        title = find_game(self.game).title
        placed = ", ".join(f"{name} {units}" for name, units in self.wagers.items() if units)
        out = [
            f"{title}: {getattr(self.base, 'variant', '')} with "
            + ", ".join(f"{v.name} over {_span(v.values)}" for v in self.varies),
            f"Wagers: {placed}; house edge per {self.basis}, in {self.target.edge}"
            + (
                f"; hit frequency in {self.target.hit_frequency}"
                if self.target.hit_frequency.bounded
                else ""
            )
            + (
                f"; std dev in {_plain_band(self.target.std_dev)}"
                if self.target.std_dev.bounded
                else ""
            ),
            f"Weighed {self.weighed:,} candidates, kept {len(self.kept):,}: "
            f"{self.setup_seconds:.2f} s to count and find each pay's slope, then "
            f"{self.per_candidate * 1000:.3f} ms a candidate",
            "",
        ]
        if not self.best:
            return (
                "\n".join([*out, "No candidate meets the target: widen a range or the band."])
                + "\n"
            )
        header = [
            "#",
            *(v.name for v in self.varies),
            f"edge/{'Ante' if self.basis == 'Ante' else 'wager'}",
            "edge/total",
            "risk",
            "hit",
            "std dev",
        ]
        rows = []
        for index, (found, exact) in enumerate(self.best, 1):
            f = exact.figures
            rows.append(
                [
                    str(index),
                    *(_number(p) for p in found.pays),
                    percent(found.house_edge),
                    percent(f.house_edge),
                    percent(f.element_of_risk),
                    percent(f.hit_frequency, 2),
                    f"{f.std_dev:.4f}",
                ]
            )
        widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
        out += [
            "  ".join(cell.rjust(w) for cell, w in zip(row, widths, strict=True))
            for row in [header, *rows]
        ]
        exact = self.best[0][1]
        out += ["", f"Best: {getattr(exact.rules, 'variant', '')}"]
        out += [f"  {exact.wager_line(w)}" for w in exact.figures.per_wager]
        if exact.strategy is not None and len(exact.figures.decisions) > 1:
            out += [f"  Strategy: {line}" for line in exact.strategy.summary()]
        out += [
            "",
            "Edges, risk and wagers alone are exact (each shown candidate analysed in full).",
        ]
        return "\n".join(out) + "\n"


def _span(values: Sequence[Fraction]) -> str:
    if len(values) > 2 and len({b - a for a, b in pairwise(values)}) == 1:
        step = values[1] - values[0]
        return f"{_number(values[0])}..{_number(values[-1])}" + (
            "" if step == 1 else f":{_number(step)}"
        )
    return ",".join(_number(v) for v in values)


def _plain_band(band: Band) -> str:
    ends = ["" if end is None else f"{float(end):g}" for end in (band.low, band.high)]
    return "..".join(ends) if band.bounded else "any"


# ---------------------------------------------------------------- the search
def search(
    game: str,
    rules: GameRules,
    varies: Sequence[Vary],
    wagers: GivenWagers | None = None,
    target: Target = Target(),
    rank: Rank = Rank.target,
    top: int = 10,
    progress: Callable[[int, int], None] | None = None,
) -> Design:
    """Every combination of the varied pays weighed against ``target``; the ``top``
    kept, ranked by ``rank``, analysed exactly. ``wagers`` default to those the varied
    pays settle: a side wager alone (Pair Plus), or the game's required wagers with
    the wagers the pays belong to. ``progress(done, total)`` hears of long work."""
    if not varies:
        raise RulesError("vary at least one pay, e.g. --vary pair_plus.Flush=3..5")
    names = [v.name for v in varies]
    if len(set(names)) != len(names) or len({(v.field, v.line) for v in varies}) != len(varies):
        raise RulesError("each pay is varied once: " + ", ".join(names))
    total = prod(len(v.values) for v in varies)
    if total > MOST_CANDIDATES:
        raise RulesError(f"{total:,} candidates; at most {MOST_CANDIDATES:,}: narrow a range")
    if top < 1:
        raise RulesError(f"--top is how many candidates to show: at least 1, not {top}")
    started = time.perf_counter()
    engines: list[tuple[_Engine, Sequence[Vary]]] = []
    for part in _segments(varies):
        engine = _engine(game, rules, part, wagers, progress)
        wagers = engine.wagers  # every segment weighs the same wagers as the first
        engines.append((engine, part))
    ready = time.perf_counter()
    spread = (
        target.hit_frequency.bounded or target.std_dev.bounded or rank in (Rank.hit, Rank.spread)
    )
    kept: list[tuple[Candidate, _Engine]] = []
    done = 0
    for engine, segment in engines:
        for pays in product(*(v.values for v in segment)):
            found = engine.weigh(pays, target, spread)
            if found is not None:
                kept.append((found, engine))
            done += 1
            if progress is not None and done % 4096 == 0:
                progress(done, total)
    searched = time.perf_counter()
    key = _ranking(rank, target)
    kept.sort(key=lambda pair: key(pair[0]))
    best = [(found, engine.exact(found)) for found, engine in kept[:top]]
    first = engines[0][0]
    return Design(
        game,
        rules,
        tuple(varies),
        first.wagers,
        target,
        rank,
        first.basis,
        total,
        [found for found, _ in kept],
        best,
        ready - started,
        searched - ready,
    )


def _engine(
    game: str,
    rules: GameRules,
    varies: Sequence[Vary],
    wagers: GivenWagers | None,
    progress: Callable[[int, int], None] | None,
) -> _Engine:
    if find_game(game).spec(rules).options:
        return _HeadsUp(game, rules, varies, wagers, progress)
    return _NoDecisions(game, rules, varies, wagers)


def _segments(varies: Sequence[Vary]) -> list[list[Vary]]:
    """The varies cut where a result may not move in step with a pay: a pay of 0
    settles as no pay at all (the wager loses, where 1 to 1 would pay), so each range
    holding 0 and two values more is weighed as 0 alone and the rest, each part on its
    own line. The part with every nonzero value first.

    >>> from riverboat.games import find_game
    >>> rules = find_game("tri-card").rules()
    >>> [[list(map(int, v.values)) for v in part]
    ...  for part in _segments([vary(rules, "pair_plus.Pair=0..2")])]
    [[[1, 2]], [[0]]]
    """
    pieces = [
        [v]
        if 0 not in v.values or len(v.values) < 3
        else [
            dataclasses.replace(v, values=tuple(x for x in v.values if x)),
            dataclasses.replace(v, values=(Fraction(0),)),
        ]
        for v in varies
    ]
    return [list(part) for part in product(*pieces)]


def _ranking(rank: Rank, target: Target) -> Callable[[Candidate], tuple[float, ...]]:
    middle = target.edge.middle()

    def key(found: Candidate) -> tuple[float, ...]:
        edge = float(found.house_edge)
        if rank is Rank.edge:
            return (edge,)
        if rank is Rank.hit:
            return (-(found.hit_frequency or 0.0), edge)
        if rank is Rank.spread:
            return (found.std_dev or 0.0, edge)
        return (abs(edge - float(middle)) if middle is not None else edge, edge)

    return key


class _Engine:
    """What a search needs of a game: its wagers, one candidate's screening, and the
    exact analysis of a kept one."""

    wagers: dict[str, Fraction]
    basis: str
    varies: Sequence[Vary]
    game: str
    given: GameRules  # the rules searched from
    rules: GameRules  # those with every varied pay at its first value

    def weigh(self, pays: tuple[Fraction, ...], target: Target, spread: bool) -> Candidate | None:
        """The candidate's figures if it meets ``target`` (with its spread and hit
        frequency where ``spread``), else None."""
        raise NotImplementedError

    def exact(self, found: Candidate) -> Analysis:
        raise NotImplementedError

    def _wagers(self, given: GivenWagers | None, affected: set[str]) -> None:
        """The wagers: as given, else those the varied pays settle (a side wager
        alone; with a required wager, the required wagers too)."""
        spots = find_game(self.game).spec(self.rules).spots
        if given is None:
            side = all(not s.required and not s.equal_to for s in spots if s.name in affected)
            chosen: dict[str, Fraction | int] = dict.fromkeys(sorted(affected), 1)
            given = chosen if side else {**{s.name: 1 for s in spots if s.required}, **chosen}
        self.wagers = wager_units(self.game, given)
        base = find_game(self.game).spec(self.rules).decides_with
        self.basis = "Ante" if base is not None and self.wagers.get(base) else "total initial wager"


def _steps(varies: Sequence[Vary]) -> tuple[int, list[Int64s]]:
    """A common denominator of every value, and each vary's values times it."""
    scale = lcm(*(value.denominator for v in varies for value in v.values))
    return scale, [np.array([int(x * scale) for x in v.values], dtype=np.int64) for v in varies]


def _union(one: Int64s, other: Int64s) -> Int64s:
    """Outcome class boundaries ``[p, k]`` that split wherever ``one`` or ``other`` does
    (each row padded with its last value, the number of dealer values)."""
    rows = [np.union1d(a, b) for a, b in zip(one, other, strict=True)]
    union = np.full((len(rows), max(map(len, rows))), one[0, -1], dtype=np.int64)
    for i, row in enumerate(rows):
        union[i, : len(row)] = row
    return union


def _on_the_line(varied: Vary, base: Int64s, slope: Int64s, scaled: Int64s, last: Int64s) -> None:
    """RulesError unless the results at a pay's last value are where its first two
    put them (a pay of 0, which settles as no pay at all, is weighed apart first)."""
    if np.array_equal(base + int(scaled[-1] - scaled[0]) * slope, last):
        return
    raise RulesError(
        f"{varied.name}: its results do not move in step with the pay, so it cannot be "
        "searched without counting each value: write each as a file and compare them"
    )


def _slope(base: Int64s, moved: Int64s, step: int, what: str) -> Int64s:
    """(moved - base) / step, exact; RulesError where a result is not affine in the pay."""
    change = moved - base
    if (change % step).any():
        raise RulesError(f"{what}: its results are not a whole multiple of the pay: not searchable")
    slope: Int64s = change // step
    return slope


class _HeadsUp(_Engine):
    """The search of a game where a player decides against a dealer: per-hand values
    per option, affine in the pays."""

    def __init__(
        self,
        game: str,
        rules: GameRules,
        varies: Sequence[Vary],
        wagers: GivenWagers | None,
        progress: Callable[[int, int], None] | None,
    ) -> None:
        from riverboat.analysis.adapters import heads_up_game
        from riverboat.analysis.solution import Solution

        self.game, self.varies, self.given = game, varies, rules
        self.rules = with_pays(rules, varies, [v.values[0] for v in varies])
        self.scale, self.scaled = _steps(varies)
        model = heads_up_game(self.rules)  # not kept in memory: its counts are the search's
        boundaries, _ = model.classes
        moved: list[HeadsUpGame | None] = []
        for i, varied in enumerate(varies):
            if len(varied.values) < 2:
                moved.append(None)
                continue
            pays = [v.values[0] for v in varies]
            pays[i] = varied.values[1]
            other = heads_up_game(with_pays(rules, varies, pays))
            moved.append(other)
            boundaries = _union(boundaries, other._find_classes()[0])
        kept = self._kept_count(model, boundaries, progress)
        model = heads_up_game(self.rules)  # its own: the shared one keeps its classes
        model.__dict__["classes"] = (boundaries, model.results_at(boundaries))
        counted = (
            model.line_totals(model.hands[0], progress) if kept is None else model.recounted(kept)
        )
        self.unit = lcm(model.unit, self.scale, *(m.unit for m in moved if m is not None))
        self.base_results = model.results_at(boundaries, self.unit)
        self.slopes = []  # per vary: results per 1/scale of pay
        affected: set[str] = set()
        for i, (varied, at) in enumerate(zip(varies, moved, strict=True)):
            if at is None:
                self.slopes.append(np.zeros_like(self.base_results))
                continue
            slope = _slope(
                self.base_results,
                at.results_at(boundaries, self.unit),
                int(self.scaled[i][1] - self.scaled[i][0]),
                varied.name,
            )
            if len(varied.values) > 2:  # a third value on the same line, or no search
                pays = [v.values[0] for v in varies]
                pays[i] = varied.values[-1]
                last = heads_up_game(with_pays(rules, varies, pays)).results_at(
                    boundaries, self.unit
                )
                _on_the_line(varied, self.base_results, slope, self.scaled[i], last)
            self.slopes.append(slope)
            changed = [bool(slope[..., j].any()) for j in range(slope.shape[-1])]
            affected |= {
                model.line_wagers[line] for line, c in zip(model.lines, changed, strict=True) if c
            }
        self._wagers(wagers, affected or {model.wagers[0]})
        self.model, self.counted = model, counted
        self.solution = Solution(model, self.wagers, *model.hands, counted)
        scale = self.solution.scale
        self.line_weights = np.array(
            [int(self.wagers.get(model.line_wagers[line], 0) * scale) for line in model.lines],
            dtype=np.int64,
        )
        self.base_values = self._values(self.base_results)
        self.value_slopes = [self._values(slope) for slope in self.slopes]
        self.weights = self.solution.weights
        self.allowed = self.solution.allowed
        self.bets = np.array([o.bet for o in model.options], dtype=object)
        self.denominator = model.cycle * self.unit * scale
        self.initial = sum(self.wagers.values(), Fraction(0))
        self.ante = self.wagers.get(model.wagers[0], Fraction(0))
        self.tallies: dict[bytes, Int64s] = {}

    def _kept_count(
        self,
        model: HeadsUpGame,
        boundaries: Int64s,
        progress: Callable[[int, int], None] | None,
    ) -> Counted | None:
        """Dealer counts per outcome class ``boundaries`` for every hand class, as kept
        on disk for the rules searched from or for the first candidate (counted then
        if need be) where their classes are these; None where neither's are."""
        from riverboat.analysis import heads_up

        given = heads_up(self.game, self.given)
        for source in (given, model):
            if np.array_equal(boundaries, source.classes[0]):
                return source.counted(progress)
        return None

    def _values(self, results: Int64s) -> Int64s:
        """Every hand's total result per option [n, option], for class ``results``."""
        nets = results @ self.line_weights  # [option, p, k]
        counted, model = self.counted, self.model
        values = np.zeros((len(counted.values), len(model.options)), dtype=np.int64)
        for i, option in enumerate(model.options):
            if option.draws:
                drawn = np.einsum("mk,mk->m", counted.draw_counts, nets[i, counted.draw_value])
                np.add.at(values[:, i], counted.draw_hand, drawn)
            else:
                values[:, i] = np.einsum("nk,nk->n", counted.counts, nets[i, counted.values])
                values[:, i] *= model.extra_factor
        return values

    def _steps_of(self, pays: tuple[Fraction, ...]) -> list[int]:
        return [int(p * self.scale) - int(s[0]) for p, s in zip(pays, self.scaled, strict=True)]

    def weigh(self, pays: tuple[Fraction, ...], target: Target, spread: bool) -> Candidate | None:
        steps = self._steps_of(pays)
        values = self.base_values.copy()
        for step, slope in zip(steps, self.value_slopes, strict=True):
            if step:
                values += step * slope
        choice = np.argmax(np.where(self.allowed, values, np.iinfo(np.int64).min), axis=1)
        mean = Fraction(
            int(self.weights @ values[np.arange(len(values)), choice]), self.denominator
        )
        edge = -mean / (self.ante or self.initial)
        if not target.edge.holds(edge):
            return None
        chosen = np.bincount(choice, weights=self.weights, minlength=len(self.bets))
        bets = sum(
            (Fraction(int(c)) * b for c, b in zip(chosen, self.bets, strict=True)), Fraction(0)
        )
        average = self.initial + bets * self.ante / int(self.weights.sum())
        found = Candidate(pays, edge, -mean / self.initial, -mean / average)
        if not spread:
            return found
        hit, deviation = self._spread(steps, choice, mean)
        if not (target.hit_frequency.holds(hit) and target.std_dev.holds(deviation)):
            return None
        return dataclasses.replace(found, hit_frequency=hit, std_dev=deviation)

    def _results(self, steps: Sequence[int]) -> Int64s:
        results = self.base_results.copy()
        for step, slope in zip(steps, self.slopes, strict=True):
            if step:
                results += step * slope
        return results

    def _spread(self, steps: Sequence[int], choice: Int64s, mean: Fraction) -> tuple[float, float]:
        """Hit frequency and standard deviation per initial wager of one candidate."""
        key = choice.astype(np.int8).tobytes()
        tally = self.tallies.get(key)
        if tally is None:
            tally = dataclasses.replace(self.solution, fixed=choice).outcome_weights()
            self.tallies[key] = tally
        results = self._results(steps)
        nets = (results @ self.line_weights).astype(np.float64) / (self.unit * self.solution.scale)
        deals = float(tally.sum())
        hit = float(tally[((results > 0) & (self.line_weights > 0)).any(axis=3)].sum()) / deals
        second = float((tally * nets * nets).sum()) / deals
        variance = (second - float(mean) ** 2) / float(self.initial) ** 2
        return hit, sqrt(max(variance, 0.0))

    def exact(self, found: Candidate) -> Analysis:
        """The candidate analysed in full on the counts already made: its own settle
        for every outcome class, the base hands' counts, its own best play."""
        from riverboat.analysis import _counted
        from riverboat.analysis.adapters import heads_up_game
        from riverboat.analysis.solution import Solution

        rules = with_pays(self.given, self.varies, found.pays)
        model = heads_up_game(rules)
        boundaries, _ = self.model.classes
        own = model.results_at(boundaries, self.unit)
        if not np.array_equal(own, self._results(self._steps_of(found.pays))):
            raise RulesError(f"{rules.variant}: its results are not affine in its pays")
        model.__dict__["classes"] = (boundaries, model.results_at(boundaries))
        solution = Solution(model, self.wagers, *self.model.hands, model.recounted(self.counted))
        return _checked(_counted(self.game, rules, self.wagers, lambda: solution), found)


def _checked(exact: Analysis, found: Candidate) -> Analysis:
    """``exact`` where it agrees with the search's edge; else the search is wrong."""
    f = exact.figures
    edge = f.house_edge_per_ante if f.house_edge_per_ante is not None else f.house_edge
    if edge != found.house_edge or f.house_edge != found.house_edge_total:
        raise RuntimeError(f"the search's edge {found.house_edge} is not the analysis's {edge}")
    return exact


class _NoDecisions(_Engine):
    """The search of a game without decisions: its exact outcome distribution, whose
    counts stay and whose results are affine in the pays."""

    def __init__(
        self, game: str, rules: GameRules, varies: Sequence[Vary], wagers: GivenWagers | None
    ) -> None:
        from riverboat.analysis.adapters import game_math

        self.game, self.varies, self.given = game, varies, rules
        self.rules = with_pays(rules, varies, [v.values[0] for v in varies])
        outcomes = game_math(self.rules).outcomes
        if outcomes is None:
            raise RulesError(f"{game} has no decision and no exact outcomes to count")
        self.scale, self.scaled = _steps(varies)
        base = outcomes(self.rules)
        moved = []
        for i, varied in enumerate(varies):
            pays = [v.values[0] for v in varies]
            pays[i] = varied.values[min(1, len(varied.values) - 1)]
            other = outcomes(with_pays(self.rules, varies, pays))
            if not (
                np.array_equal(other.weights, base.weights)
                and np.array_equal(other.option, base.option)
            ):
                raise RulesError(f"{varied.name}: its change changes the outcomes counted")
            moved.append(other)
        self.unit = lcm(base.unit, self.scale, *(m.unit for m in moved))
        self.base = dataclasses.replace(
            base, results=base.results * (self.unit // base.unit), unit=self.unit
        )
        self.slopes = []
        affected: set[str] = set()
        for i, (varied, other) in enumerate(zip(varies, moved, strict=True)):
            step = int(self.scaled[i][min(1, len(varied.values) - 1)] - self.scaled[i][0])
            at = other.results * (self.unit // other.unit)
            slope = _slope(self.base.results, at, step, varied.name) if step else np.zeros_like(at)
            if len(varied.values) > 2:  # a third value on the same line, or no search
                pays = [v.values[0] for v in varies]
                pays[i] = varied.values[-1]
                last = outcomes(with_pays(self.rules, varies, pays))
                at_last = last.results * (self.unit // last.unit)
                _on_the_line(varied, self.base.results, slope, self.scaled[i], at_last)
            self.slopes.append(slope)
            affected |= {
                base.line_wagers[line]
                for line, c in zip(
                    base.lines,
                    [bool(slope[:, j].any()) for j in range(slope.shape[1])],
                    strict=True,
                )
                if c
            }
        self._wagers(wagers, affected or {base.line_wagers[base.lines[0]]})
        self.figures: dict[tuple[Fraction, ...], Analysis] = {}

    def _outcomes(self, pays: tuple[Fraction, ...]) -> Outcomes:
        results = self.base.results.copy()
        for p, scaled, slope in zip(pays, self.scaled, self.slopes, strict=True):
            results += (int(p * self.scale) - int(scaled[0])) * slope
        return dataclasses.replace(self.base, results=results)

    def weigh(self, pays: tuple[Fraction, ...], target: Target, spread: bool) -> Candidate | None:
        f = figures(self._outcomes(pays), self.wagers)
        edge = f.house_edge_per_ante if f.house_edge_per_ante is not None else f.house_edge
        if not (
            target.edge.holds(edge)
            and target.hit_frequency.holds(f.hit_frequency)
            and target.std_dev.holds(f.std_dev)
        ):
            return None
        rules = with_pays(self.given, self.varies, pays)
        self.figures[pays] = Analysis(self.game, rules, self.wagers, f)
        return Candidate(
            pays, edge, f.house_edge, f.element_of_risk, float(f.hit_frequency), f.std_dev
        )

    def exact(self, found: Candidate) -> Analysis:
        """Already exact: the candidate's whole distribution was weighed."""
        return self.figures[found.pays]
