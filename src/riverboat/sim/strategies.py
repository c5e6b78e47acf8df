"""Strategies for the simulator: the option each player hand takes, as a table.

A strategy table holds an option index (into the analyzer's options for the game)
for every player hand, by the hand's colex index, so a whole batch of hands looks up
its decisions in one compiled call.

* ``optimal``: the analyzer's best option for every hand, given the wagers.
* ``simple``: a rule of thumb (Tri-Card: raise with a queen or better; Crazy 4: 3x
  with a pair of aces or better, 1x with king-high or better; Rabbit Hunter: play
  with ace-high or better, never buy).
* ``always-play``: play (or raise) 1x with every hand.
* a CSV file with columns ``cards`` and ``best`` (what ``riverboat analyze
  --strategy`` writes), one row per hand or per suit-symmetry class.
"""

from __future__ import annotations

import csv
from fractions import Fraction
from pathlib import Path

import numpy as np
import numpy.typing as npt

from riverboat.analysis import heads_up
from riverboat.analysis._counting import all_hands
from riverboat.analysis.adapters import game_math
from riverboat.analysis.headsup import HeadsUpGame
from riverboat.analysis.solution import colex_index
from riverboat.cards import CardError, parse_cards
from riverboat.games import find_game
from riverboat.games.rules import RulesError

__all__ = ["NAMED", "strategy_table"]

NAMED = ("optimal", "simple", "always-play")

Table = npt.NDArray[np.int16]


def _by_class(model: HeadsUpGame, choice: npt.NDArray[np.int64]) -> Table:
    """Spread one option per suit-symmetry class to every hand of the class."""
    least = model.suit_classes
    place = np.cumsum(least == np.arange(len(least))) - 1  # a class's least hand is its own
    table: Table = choice.astype(np.int16)[place[least]]
    return table


def _of(model: HeadsUpGame, action: str, most: bool = False) -> int:
    """The option taking ``action`` with its least stake (its largest if ``most``)."""
    taking = [i for i, option in enumerate(model.options) if option.action == action]
    return max(taking, key=lambda i: model.options[i].bet) if most else taking[0]


def _simple(model: HeadsUpGame, values: npt.NDArray[np.int16]) -> Table:
    """The game's rule of thumb: each threshold's option from its hand up, else fold."""
    ranking = model.player_ranking
    rules = game_math(model.rules).simple
    if not rules:
        raise RulesError(f"{model.name} has no simple strategy; use optimal or a CSV file")
    return np.select(
        [values >= ranking.lowest(*rule.at_least) for rule in rules],
        [_of(model, rule.action, rule.most) for rule in rules],
        _of(model, "fold"),
    ).astype(np.int16)


def _from_file(model: HeadsUpGame, path: Path) -> Table:
    names = [option.name for option in model.options]
    try:
        rows = list(csv.DictReader(path.read_text().splitlines()))
    except OSError as error:
        raise RulesError(f"cannot read the strategy file {path}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise RulesError(f"{path} is not a text (UTF-8) CSV file") from None
    if not rows or not {"cards", "best"} <= set(rows[0]):
        raise RulesError(f"{path}: a strategy file is CSV with the columns cards and best")
    hands, options = [], []
    for number, row in enumerate(rows, start=2):
        try:
            cards = parse_cards(row["cards"] or "")
        except CardError as error:
            raise RulesError(f"{path}, line {number}: {error}") from None
        if len(cards) != model.size or row["best"] not in names:
            raise RulesError(
                f"{path}, line {number}: need {model.size} cards and an option of "
                f"{', '.join(names)}; got {row['cards']!r}, {row['best']!r}"
            )
        hands.append(cards)
        options.append(names.index(row["best"]))
    least = model.suit_classes
    representatives = np.unique(least)
    choice = np.full(len(representatives), -1, dtype=np.int16)
    given = least[colex_index(np.array(hands, dtype=np.uint8))]
    choice[np.searchsorted(representatives, given)] = options
    table = choice[np.searchsorted(representatives, least)]
    if (table < 0).any():
        missing = all_hands(model.size)[int(np.flatnonzero(table < 0)[0])]
        raise RulesError(f"{path}: no row covers {' '.join(map(str, parse_cards(list(missing))))}")
    return table


def strategy_table(
    game: str, rules: object, wagers: dict[str, Fraction], strategy: str | Path
) -> Table:
    """The option index for every player hand under ``strategy``."""
    model = heads_up(game, rules)
    spec = find_game(game).spec(rules)
    values = model.player_values
    if not wagers.get(spec.decides_with or ""):  # Pair Plus alone: nothing to decide
        alone = next(i for i, o in enumerate(model.options) if o.excludes == spec.decides_with)
        return np.full(len(values), alone, dtype=np.int16)
    if strategy == "optimal":
        table = _by_class(model, model.solve(wagers).choice)
    elif strategy == "simple":
        table = _simple(model, values)
    elif strategy == "always-play":  # the decision that places a wager (Raise, Play), 1x
        action = next(o.action for o in spec.options if o.line)
        table = np.full(len(values), _of(model, action), dtype=np.int16)
    else:
        table = _from_file(model, Path(strategy))
    allowed = np.array([option.from_value for option in model.options])[table] <= values
    if not allowed.all():
        bad = all_hands(model.size)[int(np.flatnonzero(~allowed)[0])]
        raise RulesError(
            f"the strategy plays {model.options[table[~allowed][0]].label} with "
            f"{' '.join(map(str, parse_cards(list(bad))))}, which the rules do not allow"
        )
    return table
