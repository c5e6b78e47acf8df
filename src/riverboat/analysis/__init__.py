"""Exact game math: house edge, optimal strategy and return tables for every game.

>>> from riverboat.analysis import analyze
>>> result = analyze("tri-card", wagers={"ante": 1})
>>> f"{float(result.figures.house_edge):.4%}"   # Wizard of Odds: 3.3730%
'3.3730%'
>>> result.strategy.summary()[0]
'Raise with Q-6-4 or better (every hand); Fold below.'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING, TypeAlias, cast

import numpy as np

from riverboat.analysis.outcomes import heads_up_outcomes
from riverboat.analysis.report import (
    Figures,
    WagerFigures,
    figures,
    percent,
    to_json,
)
from riverboat.analysis.strategy import OptionValue, Strategy
from riverboat.games import GameRules, find_game
from riverboat.games.codec import to_json as rules_json
from riverboat.games.rules import RulesError
from riverboat.json_types import JsonObject

if TYPE_CHECKING:  # the counting code (and numba) load only when something is counted
    from riverboat.analysis.alone import OwnEdge
    from riverboat.analysis.headsup import HeadsUpGame
    from riverboat.analysis.solution import Solution

__all__ = [
    "Analysis",
    "GivenWagers",
    "OptionValue",
    "Strategy",
    "analyze",
    "best_action",
    "heads_up",
    "heads_up_outcomes",
    "wager_units",
    "wagers_in_units",
]


@cache
def heads_up(game: str, rules: GameRules) -> HeadsUpGame:
    """The analyzer's view of a poker game under ``rules`` (built once per rules)."""
    from riverboat.analysis.adapters import heads_up_game

    find_game(game)
    return heads_up_game(rules)


def wagers_in_units(wagers: Mapping[str, int], base: str | None = "ante") -> dict[str, Fraction]:
    """Wagers in cents as the analyzer and the simulator take them: in units of the
    ``base`` wager (the spec's ``decides_with``, the Ante); where it is absent or
    there is none (Pair Plus alone, Baccarat), in units of the first wager placed.

    >>> wagers_in_units({"ante": 500, "super_bonus": 500, "queens_up": 250})
    {'ante': Fraction(1, 1), 'super_bonus': Fraction(1, 1), 'queens_up': Fraction(1, 2)}
    >>> wagers_in_units({"ante": 0, "pair_plus": 500})
    {'ante': Fraction(0, 1), 'pair_plus': Fraction(1, 1)}
    """
    unit = (wagers.get(base) if base else 0) or next((a for a in wagers.values() if a), 1)
    return {name: Fraction(amount, unit) for name, amount in wagers.items()}


#: wagers as a caller gives them: each in units of the base wager (``1``, ``"1/2"``)
GivenWagers: TypeAlias = Mapping[str, Fraction | int | float | str]


def wager_units(game: str, wagers: GivenWagers | None) -> dict[str, Fraction]:
    """Wagers in units of the first (base) wager; defaults: the game's required wagers
    (the first wager where none is), as a table requires them and ``play --auto`` and
    the web place them: Rabbit Hunter's Ante alone, Crazy 4's Ante and Super Bonus.

    >>> wager_units("rabbit-hunter", None)
    {'ante': Fraction(1, 1), 'bonus': Fraction(0, 1), 'bad_beat': Fraction(0, 1)}
    """
    spots = find_game(game).new_round().spots
    names = [spot.name for spot in spots]
    if wagers is None:
        chosen = {s.name: Fraction(1) for s in spots if s.required} or {names[0]: Fraction(1)}
    else:
        unknown = sorted(set(wagers) - set(names))
        if unknown:
            raise RulesError(
                f"{game} has no wager {', '.join(unknown)}; the wagers are {', '.join(names)}"
            )
        chosen = {}
        for name, amount in wagers.items():
            try:
                chosen[name] = Fraction(amount)
            except (TypeError, ValueError):
                raise RulesError(
                    f"the {name} wager must be a number of base units, not {amount!r}"
                ) from None
            if chosen[name] < 0:
                raise RulesError(f"the {name} wager cannot be negative ({amount})")
    for spot in spots:
        if spot.required and not chosen.get(spot.name):
            chosen[spot.name] = Fraction(1)
        if (
            spot.equal_to
            and chosen.get(spot.name)
            and chosen[spot.name] != chosen.get(spot.equal_to)
        ):
            raise RulesError(f"the {spot.label} must equal the {spot.equal_to} wager")
    ordered = {name: chosen.get(name, Fraction(0)) for name in names}
    if not any(ordered.values()):
        raise RulesError(f"place at least one wager: {', '.join(names)}")
    return ordered


@dataclass(frozen=True)
class Analysis:
    """The exact analysis of one game, rules and wager combination."""

    game: str
    rules: GameRules
    wagers: Mapping[str, Fraction]
    figures: Figures
    strategy: Strategy | None = None
    blind: Figures | None = None  # Crazy 4: a blind position always plays 1x (C8)
    notes: tuple[str, ...] = ()

    def edge_lines(self) -> list[tuple[str, str]]:
        """The round's house edge in both conventions and its element of risk, each
        labelled: ``("House edge per Ante (as published)", "3.4247%")``; the per-Ante
        line only where an Ante is placed.

        >>> analyze("tri-card", wagers={"ante": 1}).edge_lines()[0]
        ('House edge per Ante (as published)', '3.3730%')
        """
        f = self.figures
        lines = []
        if f.house_edge_per_ante is not None:
            lines.append(("House edge per Ante (as published)", percent(f.house_edge_per_ante)))
        lines += [
            ("House edge per total initial wager", percent(f.house_edge)),
            ("Element of risk (per average total wagered)", percent(f.element_of_risk)),
        ]
        return lines

    def wager_scope(self, wager: str) -> str:
        """What a wager's own figures cover: ``"Ante and Raise together under optimal
        strategy"`` for the Ante (with the decision's bet), ``"Pair Plus alone"`` for
        a wager settled on its own.

        >>> analyze("tri-card", wagers={"ante": 1, "pair_plus": 1}).wager_scope("ante")
        'Ante and Raise together under optimal strategy'
        """
        spec = find_game(self.game).spec(self.rules)
        spot = next((s for s in spec.spots if s.name == wager), None)
        label = wager if spot is None else spot.label
        if wager != spec.decides_with:
            return (
                f"{label}'s own lines" if spot is not None and spot.required else f"{label} alone"
            )
        placed = list(dict.fromkeys(o.label for o in spec.options if o.line == o.action))
        return f"{' and '.join([label, *placed])} together under optimal strategy"

    def wager_line(self, wager: WagerFigures) -> str:
        """A wager's own house edge, said so it never reads as the round's:

        >>> result = analyze("crazy4", variant="standard")
        >>> print(result.wager_line(result.figures.per_wager[0]))
        Ante and Play together under optimal strategy: they return 31.3607% of the Ante \
more than they cost; the Super Bonus that must go with them takes it back (see the \
round's house edge)
        """
        scope = self.wager_scope(wager.name)
        label = scope.removesuffix(" alone").split(" and ")[0]
        own = self.own_edge(wager.name)
        if own is not None:
            if own.house_edge >= 0:
                return f"{scope}: house edge {percent(own.house_edge)} ({own.basis})"
            return (
                f"{scope}: the player's edge, {percent(-own.house_edge)}: it lowers the loss "
                f"({own.basis})"
            )
        if wager.house_edge >= 0:
            return f"{scope}: house edge {percent(wager.house_edge)} of the {label}"
        spec = find_game(self.game).spec(self.rules)
        others = [s.label for s in spec.spots if s.required and s.name != wager.name]
        takes = (
            f"the {' and '.join(others)} that must go with them takes"
            if others
            else "the other wagers take"
        )
        return (
            f"{scope}: they return {percent(-wager.house_edge)} of the {label} more than "
            f"they cost; {takes} it back (see the round's house edge)"
        )

    def own_edge(self, wager: str) -> OwnEdge | None:
        """An optional wager's own edge (:mod:`riverboat.analysis.alone`): alone where
        it may be placed alone, else what it adds to the others' loss; None for a
        wager of the round itself (a required one, or the one decided with)."""
        from riverboat.analysis.alone import wager_alone

        spec = find_game(self.game).spec(self.rules)
        spot = next(s for s in spec.spots if s.name == wager)
        if spot.required or wager == spec.decides_with:
            return None
        return wager_alone(self.game, self.rules, self.wagers, wager)

    def to_json(self) -> JsonObject:
        data = to_json(self.figures, {"rules": rules_json(self.rules)})
        data["house_edge_labels"] = dict(self.edge_lines())
        wagers = cast(dict[str, JsonObject], data["wagers"])  # report.to_json's, by name
        for wager in self.figures.per_wager:
            wagers[wager.name]["scope"] = self.wager_scope(wager.name)
            own = self.own_edge(wager.name)
            if own is not None:
                wagers[wager.name]["own_house_edge"] = float(own.house_edge)
                wagers[wager.name]["own_house_edge_exact"] = str(own.house_edge)
                wagers[wager.name]["own_basis"] = own.basis
        if self.strategy is not None:
            data["strategy"] = self.strategy.summary()
        if self.blind is not None:
            data["blind_hand"] = {
                "house_edge_per_total_initial_wager": float(self.blind.house_edge),
                "house_edge_per_ante": float(self.blind.house_edge_per_ante or 0),
                "element_of_risk": float(self.blind.element_of_risk),
            }
        data["notes"] = list(self.notes)
        return data

    def to_text(self, markdown: bool = False) -> str:
        f = self.figures
        title = find_game(self.game).title
        bold = "**" if markdown else ""
        out = [
            f"{'# ' if markdown else ''}{title}: {getattr(self.rules, 'variant', '')}",
            "",
            "Wagers: " + ", ".join(f"{k} {v}" for k, v in f.wagers.items()),
            "",
        ]
        rows = [
            ("Cycle (deals counted)", f"{f.cycle:,}"),
            *self.edge_lines(),
            ("Average total bet (in total initial wagers)", f"{float(f.average_total_bet):.4f}"),
            (
                "Win / push / loss",
                f"{percent(f.win, 2)} / {percent(f.push, 2)} / {percent(f.loss, 2)}",
            ),
            ("Hit frequency", percent(f.hit_frequency, 2)),
            ("Standard deviation (per total initial wager)", f"{f.std_dev:.4f}"),
            (
                "Volatility index 90% / 95%",
                f"{f.volatility_index(0.9):.4f} / {f.volatility_index(0.95):.4f}",
            ),
        ]
        if f.dealer_qualifies is not None:
            rows.append(("Dealer qualifies", percent(f.dealer_qualifies, 2)))
        rows += [(f"Decision: {name}", percent(share, 2)) for name, share in f.decisions.items()]
        if self.blind is not None:
            blind = self.blind.house_edge_per_ante
            if blind is not None:
                rows.append(("Blind hand (C8): house edge per Ante", percent(blind)))
            rows.append(
                ("Blind hand (C8): per total initial wager", percent(self.blind.house_edge))
            )
        out += _table(["Figure", "Value"], rows, markdown)
        if self.strategy is not None:
            out += ["", f"{bold}Strategy{bold}", *(f"- {line}" for line in self.strategy.summary())]
        for wager in f.per_wager:
            scope, _, said = self.wager_line(wager).partition(": ")
            out += ["", f"{bold}{scope}{bold}: {said}"]
            out += _table(
                ["Event", "Pays", "Combinations", "Probability", "Contribution"],
                [
                    (
                        r.event,
                        f"{float(r.pays):g}",
                        f"{r.combinations:,}",
                        f"{float(r.probability):.6f}",
                        f"{float(r.contribution):.6f}",
                    )
                    for r in wager.return_table
                ],
                markdown,
            )
        out += ["", *self.notes]
        return "\n".join(out).rstrip() + "\n"

    def plot(self, path: str) -> None:
        """A bar chart of the net result's distribution (matplotlib, the ``plot`` extra)."""
        try:
            import matplotlib

            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            raise RulesError("plots need matplotlib: pip install 'riverboat[plot]'") from None
        table = self.figures.net_table
        figure, axes = plt.subplots(figsize=(8, 4.5))
        axes.bar([float(r.pays) for r in table], [float(r.probability) for r in table], width=0.4)
        axes.set_yscale("log")
        axes.set_xlabel("net result per initial wager")
        axes.set_ylabel("probability (log scale)")
        axes.set_title(
            f"{find_game(self.game).title}: house edge {percent(self.figures.house_edge, 3)}, "
            f"std dev {self.figures.std_dev:.3f}"
        )
        figure.tight_layout()
        figure.savefig(path)
        plt.close(figure)


def _table(header: Sequence[str], rows: Sequence[Sequence[str]], markdown: bool) -> list[str]:
    if markdown:
        return [
            "| " + " | ".join(header) + " |",
            "|" + "---|" * len(header),
            *("| " + " | ".join(row) + " |" for row in rows),
        ]
    widths = [max(len(str(x)) for x in column) for column in zip(header, *rows, strict=True)]
    line = "  ".join(f"{{:<{w}}}" for w in widths)
    return [
        line.format(*header),
        line.format(*("-" * w for w in widths)),
        *(line.format(*r) for r in rows),
    ]


def analyze(
    game: str,
    rules: GameRules | None = None,
    wagers: GivenWagers | None = None,
    variant: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Analysis:
    """Exact analysis of ``game`` under ``rules`` (or a named variant) with ``wagers``
    in units of the base wager, e.g. ``{"ante": 1, "bonus": 1, "bad_beat": Fraction(1, 2)}``.
    Defaults: the game's default rules and its required wagers.

    Its figures and words are kept on disk once counted (:mod:`riverboat.analysis.kept`):
    a later process reads them, and counts (``progress`` hears of it) only if its
    strategy's solution is asked for."""
    from riverboat.analysis import kept

    kind = find_game(game)
    rules = kind.rules(variant) if rules is None else rules
    placed = wager_units(game, wagers)
    if not kind.spec(rules).options:  # nothing to decide: the game's exact distribution
        return kept.remember(game, rules, placed, lambda: _distribution(game, rules, placed))

    def solve() -> Solution:
        return heads_up(game, rules).solve(placed, progress=progress)

    return kept.remember(game, rules, placed, lambda: _counted(game, rules, placed, solve), solve)


def _distribution(game: str, rules: GameRules, placed: Mapping[str, Fraction]) -> Analysis:
    """The analysis of a game without decisions, from its exact distribution."""
    from riverboat.analysis.adapters import game_math

    outcomes = game_math(rules).outcomes
    if outcomes is None:
        raise RulesError(f"{game} has no decision and no exact outcomes to count")
    return Analysis(game, rules, placed, figures(outcomes(rules), placed))


def _counted(
    game: str, rules: GameRules, placed: Mapping[str, Fraction], solve: Callable[[], Solution]
) -> Analysis:
    """The analysis of a heads-up game under optimal play, counted (``solve()``)."""
    spec = find_game(game).spec(rules)
    solution = solve()
    notes: list[str] = []
    blind = None
    if spec.blind_play is not None:  # C8: a blind position always makes this Play
        blind = figures(heads_up_outcomes(_forced(solution, spec.blind_play)), placed)
    cap = getattr(rules, "max_payout", None)
    if cap is not None:
        notes.append(_cap_note(solution, cap))
    return Analysis(
        game,
        rules,
        placed,
        figures(heads_up_outcomes(solution), placed),
        Strategy(lambda: solution),
        blind,
        tuple(notes),
    )


def _forced(solution: Solution, play: Fraction) -> Solution:
    """The same hands all making the Play of ``play`` Antes (a Crazy 4 blind hand
    always plays 1x, C8)."""
    spec = find_game(solution.game.name).spec(solution.game.rules)
    line = next(o.action for o in spec.options if o.line)
    index = next(
        i for i, o in enumerate(solution.game.options) if o.action == line and o.bet == play
    )
    return replace(solution, fixed=index)


def _cap_note(solution: Solution, cap: int) -> str:
    """R9: when the $50,000 cap on a round's winnings binds, per unit results above."""
    _, results = solution.game.classes
    stakes = np.array(
        [
            float(solution.wagers.get(solution.game.line_wagers[line], 0))
            for line in solution.game.lines
        ]
    )
    best = float((np.maximum(results, 0) @ stakes).max()) / solution.game.unit
    return (
        f"R9: results are per unit without the ${cap // 100:,} cap on a round's winnings; "
        f"the most a round can win is {best:g} Antes, so the cap binds on Antes above "
        f"${cap / 100 / best:,.2f}."
    )


def best_action(
    game: str,
    cards: str | Sequence[int],
    wagers: GivenWagers | None = None,
    rules: GameRules | None = None,
) -> list[OptionValue]:
    """Every legal option's expected value for the player's hand, best first (hints):
    exact, from the unseen cards alone (:mod:`riverboat.analysis.hints`), at once.

    >>> [str(v) for v in best_action("tri-card", "Qh 6d 4c", {"ante": 1})]
    ['Raise: -0.9934', 'Fold: -1.0000']
    """
    kind = find_game(game)
    rules = kind.rules() if rules is None else rules
    if not kind.spec(rules).options:
        raise RulesError(
            f"{game} has no decision to hint: every bet's edge is in analyze({game!r})"
        )
    from riverboat.analysis import hints

    model = heads_up(game, rules)
    solution = hints.solve(model, wager_units(game, wagers), cards)
    values = [
        OptionValue(option.name, option.label, solution.expected(0, i), option.action, option.bet)
        for i, option in enumerate(model.options)
        if solution.allowed[0, i]
    ]
    return sorted(values, key=lambda v: -v.expected)
