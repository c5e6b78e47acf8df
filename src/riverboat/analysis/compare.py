"""Variants side by side, exactly: the round's house edge per Ante and per total
initial wager, element of risk, standard deviation and hit frequency under the
required wagers; each wager's own edge with every wager placed; what following the
strategy card costs; and the lines of the return table that differ.

>>> from riverboat.games import find_game
>>> game = find_game("crazy4")
>>> found = compare([game.rules("rule-card"), game.rules("standard")])
>>> [f"{float(c.house_edge_per_ante):.4%}" for c in found.columns]
['3.4894%', '3.4189%']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from riverboat.analysis import analyze
from riverboat.analysis.report import ReturnRow
from riverboat.games import GameRules, game_of
from riverboat.json_types import JsonObject

__all__ = ["Compared", "Comparison", "compare"]


@dataclass(frozen=True)
class Compared:
    """One variant's figures: the round under its required wagers, each wager's own."""

    variant: str
    wagers: dict[str, Fraction]  # the round's, in units of the base wager
    house_edge_per_ante: Fraction | None
    house_edge: Fraction  # per unit of the total initial wager
    element_of_risk: Fraction
    std_dev: float  # per unit of the total initial wager
    hit_frequency: Fraction
    wager_edges: dict[str, Fraction]  # each optional wager's own edge
    card_cost: Fraction | None  # the strategy card's cost, per Ante; None: no decisions
    net_table: dict[str, ReturnRow]


@dataclass(frozen=True)
class Comparison:
    """Variants of one game, in the order given."""

    game: str
    wagers: dict[str, Fraction]
    columns: tuple[Compared, ...]

    def differing_lines(self) -> list[str]:
        """The return table's events whose pay or probability is not the same in every
        variant, strongest first."""
        events: dict[str, Fraction] = {}
        for column in self.columns:
            for event, row in column.net_table.items():
                events[event] = max(events.get(event, row.pays), row.pays)
        differ = [
            event
            for event in events
            if len({_row_key(c.net_table.get(event)) for c in self.columns}) > 1
        ]
        return sorted(differ, key=lambda event: -events[event])

    def to_json(self) -> JsonObject:
        lines = self.differing_lines()
        return {
            "game": self.game,
            "wagers": {name: str(units) for name, units in self.wagers.items()},
            "variants": [_column_json(c, lines) for c in self.columns],
        }


def _row_key(row: ReturnRow | None) -> tuple[Fraction, Fraction] | None:
    return None if row is None else (row.pays, row.probability)


def _column_json(column: Compared, lines: list[str]) -> JsonObject:
    per_ante = column.house_edge_per_ante
    return {
        "variant": column.variant,
        "house_edge_per_ante": None if per_ante is None else float(per_ante),
        "house_edge_per_total_initial_wager": float(column.house_edge),
        "element_of_risk": float(column.element_of_risk),
        "std_dev_per_total_initial_wager": column.std_dev,
        "hit_frequency": float(column.hit_frequency),
        "own_house_edges": {name: float(edge) for name, edge in column.wager_edges.items()},
        "strategy_card_cost_per_ante": None
        if column.card_cost is None
        else float(column.card_cost),
        "return_table": {
            event: None
            if row is None
            else {"pays": float(row.pays), "probability": float(row.probability)}
            for event in lines
            for row in [column.net_table.get(event)]
        },
    }


def _side_edges(
    rules: GameRules, progress: Callable[[int, int], None] | None
) -> dict[str, Fraction]:
    """Each optional wager's own edge (:mod:`riverboat.analysis.alone`) beside the
    required wagers, as a player who adds only it meets it."""
    from riverboat.analysis.alone import wager_alone

    game = game_of(rules)
    spec = game.spec(rules)
    required = {spot.name: Fraction(1) for spot in spec.spots if spot.required}
    return {
        spot.name: wager_alone(
            game.name, rules, {**required, spot.name: Fraction(1)}, spot.name, progress
        ).house_edge
        for spot in spec.spots
        if not spot.required and spot.name != spec.decides_with  # the Ante is the round's
    }


def _column(rules: GameRules, progress: Callable[[int, int], None] | None) -> Compared:
    game = game_of(rules)
    round_figures = analyze(game.name, rules, progress=progress).figures
    card_cost = None
    if game.spec(rules).options:
        from riverboat.analysis.kept_cards import kept_card

        card_cost = kept_card(game.name, rules, progress=progress).cost
    return Compared(
        variant=rules.variant,
        wagers=dict(round_figures.wagers),
        house_edge_per_ante=round_figures.house_edge_per_ante,
        house_edge=round_figures.house_edge,
        element_of_risk=round_figures.element_of_risk,
        std_dev=round_figures.std_dev,
        hit_frequency=round_figures.hit_frequency,
        wager_edges=_side_edges(rules, progress),
        card_cost=card_cost,
        net_table={f"{row.event} {float(row.pays):+g}": row for row in round_figures.net_table},
    )


def compare(
    variants: Sequence[GameRules], progress: Callable[[int, int], None] | None = None
) -> Comparison:
    """Variants of one game side by side (:class:`Comparison`); ``ValueError`` if they
    are of different games or fewer than two."""
    if len(variants) < 2:
        raise ValueError("compare two variants or more")
    games = {game_of(rules).name for rules in variants}
    if len(games) != 1:
        raise ValueError(f"the variants are of different games: {', '.join(sorted(games))}")
    columns = tuple(_column(rules, progress) for rules in variants)
    return Comparison(games.pop(), columns[0].wagers, columns)
