"""Each game's house edges and strategy card, for the pay tables: worked out once per
server, apart from play, and shown when ready (the analyzer takes seconds, Rabbit
Hunter's tens of seconds on a fresh install).

:func:`start_house_edges` (a server's start) and :func:`variant_figures` (a shared
table's own rules, when first asked for) hand the work to a process of its own at the
lowest priority (:mod:`riverboat.table.edge_work`), read back by a thread of this
process that waits on its answers (one worker at a time; work asked for meanwhile
goes to the next). Nothing of it runs in the server's interpreter: the event loop, the
GIL, numba's compiler and the CPU are the players' first, and a round never waits
behind this work. (Only a game the worker cannot find, registered in the server's
process alone, is worked out in that thread, as every game was before.) Until a
game's figures come, :func:`edges_state` says they are being worked out.

Every figure is the analyzer's exact one (:func:`riverboat.analysis.analyze`),
under optimal play, turned to a float only at the end: :func:`headline`,
:func:`edge_lines` and :func:`card_info` work one out here and now, for whoever needs
it at once (the terminal's pay table, the worker process itself).
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import threading
from collections.abc import Mapping
from fractions import Fraction
from functools import cache
from typing import TYPE_CHECKING, Any

from riverboat.games import GAMES, GameRules, SomeGame, find_game
from riverboat.games.codec import rules_json
from riverboat.games.rules import Spot
from riverboat.games.spec import GameSpec
from riverboat.table.felt_views import CardLine, EdgeLine, StrategyCardInfo
from riverboat.table.paytables import felt_lines
from riverboat.table.states import EdgesState

if TYPE_CHECKING:
    from riverboat.analysis.report import Figures

__all__ = [
    "card_info",
    "edge_lines",
    "edges",
    "edges_state",
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
#: a game (name) or a game's variant (game, variant)
_Key = str | tuple[str, str]
#: the games (and the games' variants) whose edges are worked out or being worked out
_BEGUN: set[_Key] = set()
#: those whose work failed: their pay tables show no edges
_FAILED: set[_Key] = set()
_BEGUN_LOCK = threading.Lock()
#: the jobs not yet handed to a worker process, and the thread that hands them over
#: (none when the list is empty: it ends once nothing is left, and starts with new work)
_QUEUED: list[tuple[str, GameRules | None]] = []
_READER: list[threading.Thread] = []


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


def edges_state(game: str, variant: str | None = None, *, working: bool = True) -> EdgesState:
    """Where the figures of ``game`` (a shared table's ``variant`` of it) stand in this
    process: known, being worked out, or not to be had (never begun here, or failed).
    An asker not ``working`` them out (an app whose settings say not) is told they are
    not to be had unless known, whatever another app of the process began."""
    key: _Key = game if variant is None else (game, variant)
    known = game in _LINES if variant is None else key in _VARIANTS
    if known:
        return EdgesState.KNOWN
    if not working or key in _FAILED or key not in _BEGUN:
        return EdgesState.UNAVAILABLE
    return EdgesState.PENDING


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
    rules), or None while they are worked out: begun apart from play when first asked
    for, never on the asker's time."""
    key = (game, variant)
    found = _VARIANTS.get(key)
    with _BEGUN_LOCK:
        if found is not None or key in _BEGUN:
            return found
        _BEGUN.add(key)
    _ask([(game, find_game(game).rules(variant))])
    return None


def start_house_edges() -> None:
    """Start working out the edges and card of every registered game not yet begun:
    once per game and process (a game installed later is worked out when asked again),
    apart from play (:mod:`riverboat.table.edge_work`)."""
    with _BEGUN_LOCK:
        names = [name for name in GAMES if name not in _BEGUN]
        _BEGUN.update(names)
    if not names:
        return
    # the games with the fewest cards a round first: their analyses are the quickest
    names.sort(key=lambda name: GAMES[name].spec().cards_per_round())
    _ask([(name, None) for name in names])


def _ask(jobs: list[tuple[str, GameRules | None]]) -> None:
    """Queue ``jobs`` (a game, and a variant's rules or None for its default ones) for
    a worker process, starting the thread that runs one if none is running."""
    with _BEGUN_LOCK:
        _QUEUED.extend(jobs)
        if _READER:
            return
        reader = threading.Thread(target=_hand_over, daemon=True, name="house-edges")
        _READER.append(reader)
    reader.start()


def _hand_over() -> None:
    """Hand what is queued to a worker process, and again while more comes; this
    thread ends when nothing is left (the next ask starts another)."""
    while True:
        with _BEGUN_LOCK:
            jobs = list(_QUEUED)
            _QUEUED.clear()
            if not jobs:
                _READER.clear()
                return
        try:
            _work_apart(jobs)
        except Exception:  # never the server's: its pay tables show no edges
            _log.exception("the house edges could not be worked out")
            _FAILED.update(_key(game, rules) for game, rules in jobs)


def _key(game: str, rules: GameRules | None) -> _Key:
    return game if rules is None else (game, rules.variant)


#: the worker's start: this process's import path, then the jobs
_START = (
    "import json, sys; sys.path[:] = json.loads(sys.argv[1]); "
    "from riverboat.table.edge_work import main; main(sys.argv[2:])"
)


def _work_apart(jobs: list[tuple[str, GameRules | None]]) -> None:
    """Run :mod:`riverboat.table.edge_work` on ``jobs`` and keep each answer as it
    comes; a job it cannot do (a game registered in this process alone) is done here,
    in this thread, as every job was before."""
    from riverboat.settings import settings

    asked = [
        {"game": game, "variant": None}
        if rules is None
        else {"game": game, "variant": rules.variant, "rules": rules_json(rules)}
        for game, rules in jobs
    ]
    env = dict(os.environ)
    folder = settings().cache_dir  # the analysis cache of the moment (tests change it)
    env.pop("RIVERBOAT_CACHE_DIR", None)
    if folder is not None:
        env["RIVERBOAT_CACHE_DIR"] = str(folder)
    # this process's import path, so that the worker finds the same riverboat and games
    command = [sys.executable, "-c", _START, json.dumps(sys.path), json.dumps(asked)]
    left = {_key(game, rules): (game, rules) for game, rules in jobs}
    try:  # a session of its own: a terminal's Ctrl+C stops the server, which stops it
        worker = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
            start_new_session=True,
        )
    except OSError:  # no interpreter to start (an embedded one): the work done here
        _log.warning("no process of its own for the house edges: worked out beside play")
        worker = None
    if worker is not None:
        assert worker.stdout is not None
        with worker:  # its standard input held open until it has answered
            for line in worker.stdout:
                kept = _keep(json.loads(line))
                if kept is not None:
                    del left[kept]
        if worker.returncode:
            _log.error("the house edges' process stopped (exit status %s)", worker.returncode)
            _FAILED.update(left)
            return
    for game, rules in left.values():
        _work_here(game, rules)


def _keep(answer: dict[str, Any]) -> _Key | None:
    """Keep a worker's answer (:func:`riverboat.table.edge_work.result`); its key, or
    None for a game the worker does not know (left to be worked out here)."""
    game, variant = answer["game"], answer["variant"]
    key: _Key = game if variant is None else (game, variant)
    if answer.get("unknown"):
        return None
    if "failed" in answer:
        _FAILED.add(key)
        return key
    lines = [EdgeLine.model_validate(line) for line in answer["edges"]]
    card = None if answer["card"] is None else StrategyCardInfo.model_validate(answer["card"])
    _store(key, float(answer["house_edge"]), lines, card)
    return key


def _store(key: _Key, edge: float, lines: list[EdgeLine], card: StrategyCardInfo | None) -> None:
    if isinstance(key, tuple):
        _VARIANTS[key] = (edge, lines, card)
        return
    _EDGES[key], _CARDS[key] = edge, card
    _LINES[key] = lines  # last: a game's figures are known once its lines are


def _work_here(game: str, rules: GameRules | None) -> None:
    """One job worked out in this process (the way every one was before the worker
    process)."""
    variant = None if rules is None else rules.variant
    try:
        _store(
            _key(game, rules),
            headline(game, variant),
            edge_lines(game, variant),
            card_info(game, variant),
        )
    except Exception:  # one game's math (a plug-in's) never stops the others'
        _log.exception("the house edges of %r could not be worked out", game)
        _FAILED.add(_key(game, rules))
