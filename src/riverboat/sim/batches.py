"""Whole batches of rounds, dealt and settled with the production code.

Each function deals ``rounds`` rounds from ``generator`` (:mod:`riverboat.rng`),
evaluates the hands, looks the decisions up in a strategy table and calls the game's
own ``settle``: the simulator holds no rules of its own. It returns the settlement
lines (net results per round, in the stakes' units) and the option index per round.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from riverboat.analysis.adapters import game_math
from riverboat.analysis.solution import colex_index
from riverboat.deck import burn_count, cut_card_reached
from riverboat.games import GameRules, find_game
from riverboat.games.game_math import GameMath
from riverboat.games.spec import GameSpec
from riverboat.hands._kernels import lookup3, lookup5
from riverboat.rng import Generator, deal_prefixes, shuffled_shoes

__all__ = ["Batch", "play_batch"]

Ints = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Batch:
    lines: dict[str, Ints]
    option: Ints  # the option index each round took (0 where there is no decision)


def _decisions(cards: npt.NDArray[np.uint8], table: npt.NDArray[np.int16]) -> Ints:
    """Each hand's entry in a table by colex index: compiled for 3 and 5 cards, by
    numpy for a game whose hands have another size."""
    lookup = {3: lookup3, 5: lookup5}.get(cards.shape[1])
    if lookup is None:
        return table[colex_index(cards)].astype(np.int64)
    out = np.empty(len(cards), dtype=np.int32)
    lookup(np.ascontiguousarray(cards), table, out)
    return out.astype(np.int64)


def play_batch(
    game: str,
    rules: GameRules,
    generator: Generator,
    rounds: int,
    stakes: Mapping[str, int],
    table: npt.NDArray[np.int16] | None,
    codes: Ints,
    capped: bool = False,
) -> Batch:
    """Deal and settle ``rounds`` rounds; ``codes[option]`` is what settle takes.

    The spec says what is dealt: from a shoe when it has one, else a fresh deck per
    round with its hands in dealing order. A maximum payout (R9) applies only when
    ``capped`` (real money); per unit figures leave it out, as the analyzer does."""
    spec = find_game(game).spec(rules)
    math = game_math(rules)
    if spec.shoe is not None:
        return _from_shoe(spec, math, rules, generator, rounds, stakes)
    assert table is not None
    assert math.evaluate is not None
    cards = deal_prefixes(generator, rounds, spec.cards_per_round()).astype(np.uint8)
    hands, first = {}, 0
    for hand in spec.hands:
        hands[hand.name] = cards[:, first : first + hand.cards]
        first += hand.cards
    mine = next(hand.name for hand in spec.hands if hand.each_position)
    house = spec.house
    assert house is not None
    option = _decisions(hands[mine], table)
    code = codes[option]
    value = math.evaluate(hands[mine])
    for decision in spec.options:  # a hand a decision deals counts only when it is taken
        if decision.deals is not None:
            assert math.evaluate_with is not None
            taken = code == math.code(decision.action, decision.stake)
            drawn = np.concatenate([hands[mine], hands[decision.deals]], axis=1)
            value = np.where(taken, math.evaluate_with(np.ascontiguousarray(drawn)), value)
    lines = dict(math.settle(rules, value, math.evaluate(hands[house.name]), code, stakes))
    if not capped:  # R9: per unit results, as the analyzer reports them
        lines = {name: result for name, result in lines.items() if name in math.line_wagers}
    return Batch(lines, option)


def _from_shoe(
    spec: GameSpec,
    math: GameMath[GameRules],
    rules: GameRules,
    generator: Generator,
    rounds: int,
    stakes: Mapping[str, int],
) -> Batch:
    """Coups dealt shoe by shoe: burn at each new shoe, a coup starts only ahead of the
    cut card (B1), each shoe's coups in order; shoes are played side by side, each
    until its cut card or until the batch has its coups."""
    shoe = spec.shoe
    assert shoe is not None
    assert math.card_values is not None
    assert math.coup is not None
    size = 52 * shoe.decks
    most = spec.cards_per_round()  # a coup takes at most this many cards
    value_of = math.card_values(np.arange(52)).astype(np.int8)
    burned = np.array(  # B1: the shown card and its burn
        [1 + burn_count(card) for card in range(52)]
    )
    player_totals, banker_totals = [], []
    played = 0
    while played < rounds:
        shoes = (rounds - played) // 70 + 1  # a shoe deals 70 to 80 coups
        values = np.zeros((shoes, size + most), dtype=np.int8)
        cards = shuffled_shoes(generator, shoes, shoe.decks)
        values[:, :size] = value_of[cards]
        position = burned[cards[:, 0]]
        rows = np.arange(shoes)
        while played < rounds:
            live = rows[~cut_card_reached(size - position, shoe.cut_card_from_end)]
            if not len(live):
                break
            coups = values[live[:, None], position[live, None] + np.arange(most)]
            player, banker, used = math.coup(coups)
            take = min(len(live), rounds - played)
            player_totals.append(player[:take])
            banker_totals.append(banker[:take])
            played += take
            position[live] += used
    lines = math.settle(
        rules, np.concatenate(player_totals), np.concatenate(banker_totals), 0, stakes
    )
    return Batch(dict(lines), np.zeros(rounds, dtype=np.int64))
