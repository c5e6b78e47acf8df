"""Each game's house edges and strategy card, worked out once per process in the
background (the analyzer takes seconds; Rabbit Hunter about half a minute an
analysis); the pay tables show them when ready.

Every figure is the analyzer's exact one (:func:`riverboat.analysis.analyze`),
under optimal play, turned to a float only at the end.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Mapping
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING

from riverboat.games import GAMES, GameRules, SomeGame, find_game
from riverboat.games.rules import Spot
from riverboat.games.spec import GameSpec
from riverboat.table.felt_views import CardLine, EdgeLine, StrategyCardInfo
from riverboat.table.paytables import felt_lines

if TYPE_CHECKING:
    from riverboat.analysis.report import Figures

__all__ = [
    "card_info",
    "edge_lines",
    "edges",
    "figures_of",
    "headline",
    "house_edge",
    "start_house_edges",
    "strategy_card",
    "variant_figures",
]

_EDGES: dict[str, float] = {}
_LINES: dict[str, list[EdgeLine]] = {}
_CARDS: dict[str, StrategyCardInfo | None] = {}
_log = logging.getLogger(__name__)
#: a variant's house edge, edge lines and card (a shared table's), by game and variant
_VARIANTS: dict[tuple[str, str], tuple[float, list[EdgeLine], StrategyCardInfo | None]] = {}
#: the games (and the games' variants) whose edges are worked out or being worked out
_BEGUN: set[str | tuple[str, str]] = set()
_BEGUN_LOCK = threading.Lock()


def house_edge(game: str) -> float | None:
    """The game's :func:`headline` edge, or None while it is being worked out."""
    return _EDGES.get(game)


def headline(game: str, variant: str | None = None) -> float:
    """The one house edge a list of games shows: the required wagers' (the Ante where
    none is required) under optimal play, per Ante as published references quote it;
    per total initial wager for a game without an Ante (Baccarat's first bet)."""
    figures = figures_of(game, variant)
    per_ante = figures.house_edge_per_ante
    return float(figures.house_edge if per_ante is None else per_ante)


def edges(game: str) -> list[EdgeLine] | None:
    """The game's :func:`edge_lines`, or None while they are being worked out."""
    return _LINES.get(game)


def strategy_card(game: str) -> StrategyCardInfo | None:
    """The game's :func:`card_info`, or None while it is being worked out."""
    return _CARDS.get(game)


def card_info(game: str, variant: str | None = None) -> StrategyCardInfo | None:
    """The strategy card for the game's required wagers (the Ante where none is
    required), or None for a game without decisions (Baccarat)."""
    from riverboat.analysis.kept_cards import kept_card as card_of

    kind = find_game(game)
    spec = kind.spec(kind.rules(variant))
    if not spec.options or spec.decides_with is None:
        return None
    base = spec.decides_with
    required = [s for s in spec.spots if s.required or s.name == base]
    card = card_of(game, wagers={s.name: 1 for s in required}, variant=variant)
    return StrategyCardInfo(
        wagers=[s.label for s in required],
        rules=[CardLine(action=r.label, hands=r.hands, text=str(r)) for r in card.rules],
        house_edge=float(card.card.house_edge_per_ante or 0),
        optimal_house_edge=float(card.optimal.house_edge_per_ante or 0),
        cost=float(card.cost),
        agreement=float(card.agreement),
        summary=card.summary(),
    )


def figures_of(
    game: str, variant: str | None = None, wagers: Mapping[str, int] | None = None
) -> Figures:
    """The analyzer's figures for ``wagers`` in Antes (the default: its required
    wagers), each combination analysed once per process."""
    from riverboat.analysis import wager_units

    units = wager_units(game, wagers)
    return _figures(game, variant, tuple((name, n) for name, n in units.items() if n))


@cache
def _figures(game: str, variant: str | None, wagers: tuple[tuple[str, Fraction], ...]) -> Figures:
    from riverboat.analysis import analyze

    return analyze(game, wagers=dict(wagers), variant=variant).figures


def edge_lines(game: str, variant: str | None = None) -> list[EdgeLine]:
    """The house edges a felt shows for ``game`` (its default variant if None).

    A game with an Ante: per Ante and per total initial wager (the required wagers
    under optimal play), the element of risk, then each optional wager. Baccarat: one
    line per bet.
    """
    kind = find_game(game)
    rules = kind.rules(variant)
    spec = kind.spec(rules)
    if not spec.decides_with:  # Baccarat: the bets are independent, one analysis
        figures = figures_of(game, variant, {spot.name: 1 for spot in spec.spots})
        by_name = {spot.name: spot.label for spot in spec.spots}
        return [
            EdgeLine(
                label=by_name[wager.name],
                value=float(wager.house_edge),
                basis=f"A {by_name[wager.name]} bet's expected loss, as a share of the bet.",
            )
            for wager in figures.per_wager
        ]
    base = spec.decides_with
    required = {s.name for s in spec.spots if s.required or s.name == base}
    figures = figures_of(game, variant, dict.fromkeys(required, 1))
    lines = _required_lines(kind, rules, required, figures)
    for spot in spec.spots:
        if spot.name not in required:
            lines.append(_side_line(game, variant, spec, spot, required, figures))
    return lines


def _required_lines(
    kind: SomeGame, rules: GameRules, required: set[str], figures: Figures
) -> list[EdgeLine]:
    """The required wagers' edge per Ante and per total initial wager, and the element
    of risk, each with what it is a share of."""
    spec = kind.spec(rules)
    required_words = " and ".join(s.label for s in spec.spots if s.name in required)
    # the lines a decision stakes (not those settlement pays on another's stake, T7)
    placed = [
        line.label
        for line in felt_lines(kind, rules)
        if line.placed_by is not None and line.name not in spec.settled_lines
    ]
    all_words = ", ".join([*(s.label for s in spec.spots if s.name in required), *placed[:-1]])
    all_words += f" and {placed[-1]}" if placed else ""
    assert figures.house_edge_per_ante is not None  # the Ante is among the required
    return [
        EdgeLine(
            label="House edge per Ante (as published)",
            value=float(figures.house_edge_per_ante),
            basis=f"{all_words} together under optimal play, as a share of the Ante "
            "(as published references and PAR sheets quote it).",
        ),
        EdgeLine(
            label="House edge per total initial wager",
            value=float(figures.house_edge),
            basis=f"The same loss as a share of the wagers placed before the deal "
            f"({required_words}).",
        ),
        EdgeLine(
            label="Element of risk",
            value=float(figures.element_of_risk),
            basis=f"The same loss as a share of the average total wagered, {placed[0]} included.",
        ),
    ]


def _side_line(
    game: str,
    variant: str | None,
    spec: GameSpec,
    spot: Spot,
    required: set[str],
    figures: Figures,
) -> EdgeLine:
    """An optional wager's own edge (:mod:`riverboat.analysis.alone`): alone where it
    may be placed alone (Pair Plus, T1), else what it adds to the required wagers'
    expected loss."""
    from riverboat.analysis.alone import wager_alone

    rules = find_game(game).rules(variant)
    own = wager_alone(game, rules, {**dict.fromkeys(required, 1), spot.name: 1}, spot.name)
    basis = own.basis[:1].upper() + own.basis[1:] + " (below zero: it lowers the loss)."
    return EdgeLine(label=f"{spot.label} alone", value=float(own.house_edge), basis=basis)


def variant_figures(
    game: str, variant: str
) -> tuple[float, list[EdgeLine], StrategyCardInfo | None] | None:
    """A variant's house edge, edge lines and strategy card (a shared table's own
    rules), or None while they are worked out: begun in the background when first
    asked for, never on the asker's time."""
    key = (game, variant)
    found = _VARIANTS.get(key)
    with _BEGUN_LOCK:
        if found is not None or key in _BEGUN:
            return found
        _BEGUN.add(key)

    def work() -> None:
        try:
            edge = headline(game, variant)
            _VARIANTS[key] = (edge, edge_lines(game, variant), card_info(game, variant))
        except Exception:  # a variant's math failing leaves its table's edges unshown
            _log.exception("the house edges of %r's %r could not be worked out", game, variant)

    threading.Thread(target=work, daemon=True, name="variant-edges").start()
    return None


def start_house_edges() -> None:
    """Start working out the edges and card of every registered game not yet begun:
    once per game and process (a game installed later is worked out when asked again)."""
    with _BEGUN_LOCK:
        names = [name for name in GAMES if name not in _BEGUN]
        _BEGUN.update(names)
    if not names:
        return
    # the games with the fewest cards a round first: their analyses are the quickest
    names.sort(key=lambda name: GAMES[name].spec().cards_per_round())

    def work() -> None:
        for name in names:
            try:
                _EDGES[name] = headline(name)
                _LINES[name] = edge_lines(name)
                _CARDS[name] = card_info(name)
            except Exception:  # one game's math (a plug-in's) never stops the others'
                _log.exception("the house edges of %r could not be worked out", name)

    threading.Thread(target=work, daemon=True, name="house-edges").start()
