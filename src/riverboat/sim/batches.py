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

from riverboat.deck import burn_count, cut_card_reached
from riverboat.games import baccarat, crazy4, rabbit_hunter, tri_card
from riverboat.hands import evaluate3, evaluate4of5, evaluate5, evaluate6
from riverboat.hands._kernels import lookup3, lookup5
from riverboat.rng import Generator, deal_prefixes, shuffled_shoes

__all__ = ["Batch", "play_batch"]

Ints = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Batch:
    lines: dict[str, Ints]
    option: Ints  # the option index each round took (0 where there is no decision)


def _decisions(cards: npt.NDArray[np.uint8], table: npt.NDArray[np.int16]) -> Ints:
    out = np.empty(len(cards), dtype=np.int32)
    (lookup3 if cards.shape[1] == 3 else lookup5)(np.ascontiguousarray(cards), table, out)
    return out.astype(np.int64)


def play_batch(
    game: str,
    rules: object,
    generator: Generator,
    rounds: int,
    stakes: Mapping[str, int],
    table: npt.NDArray[np.int16] | None,
    codes: Ints,
    capped: bool = False,
) -> Batch:
    """Deal and settle ``rounds`` rounds; ``codes[option]`` is what settle takes.

    Rabbit Hunter's maximum payout (R9) applies only when ``capped`` (real money);
    per unit figures leave it out, as the analyzer does."""
    if game == "baccarat":
        return _baccarat(rules, generator, rounds, stakes)  # type: ignore[arg-type]
    assert table is not None
    if game == "tri-card":
        cards = deal_prefixes(generator, rounds, 6).astype(np.uint8)
        player, dealer = cards[:, :3], cards[:, 3:]
        option = _decisions(player, table)
        lines = tri_card.settle(
            rules,  # type: ignore[arg-type]
            evaluate3(player),
            evaluate3(dealer),
            codes[option],
            stakes["ante"],
            stakes["pair_plus"],
        )
        return Batch(lines, option)
    if game == "crazy4":
        cards = deal_prefixes(generator, rounds, 10).astype(np.uint8)
        player, dealer = cards[:, :5], cards[:, 5:]
        option = _decisions(player, table)
        lines = crazy4.settle(
            rules,  # type: ignore[arg-type]
            evaluate4of5(player),
            evaluate4of5(dealer),
            codes[option] * stakes["ante"],
            stakes["ante"],
            stakes["super_bonus"],
            stakes["queens_up"],
        )
        return Batch(lines, option)
    cards = deal_prefixes(generator, rounds, 11).astype(np.uint8)  # player, dealer, rabbit
    player, dealer = cards[:, :5], cards[:, 5:10]
    option = _decisions(player, table)
    code = codes[option]
    final = np.where(
        code == rabbit_hunter.BUY,
        evaluate6(np.ascontiguousarray(np.concatenate([player, cards[:, 10:]], axis=1))),
        evaluate5(player),
    )
    lines = rabbit_hunter.settle(
        rules,  # type: ignore[arg-type]
        final,
        evaluate5(dealer),
        code,
        stakes["ante"],
        stakes["bonus"],
        stakes["bad_beat"],
    )
    if not capped:
        lines.pop("cap")  # R9: per unit results, as the analyzer reports them
    return Batch(lines, option)


def _baccarat(
    rules: baccarat.BaccaratRules,
    generator: Generator,
    rounds: int,
    stakes: Mapping[str, int],
) -> Batch:
    """Coups dealt shoe by shoe: burn at each new shoe, a coup starts only ahead of the
    cut card (B1), each shoe's coups in order; shoes are played side by side, each
    until its cut card or until the batch has its coups."""
    size = 52 * rules.decks
    value_of = baccarat.card_values(np.arange(52)).astype(np.int8)
    burned = np.array([1 + burn_count(card) for card in range(52)])  # B1: shown card and burn
    player_totals, banker_totals = [], []
    played = 0
    while played < rounds:
        shoes = (rounds - played) // 70 + 1  # a shoe deals 70 to 80 coups
        values = np.zeros((shoes, size + 6), dtype=np.int8)
        cards = shuffled_shoes(generator, shoes, rules.decks)
        values[:, :size] = value_of[cards]
        position = burned[cards[:, 0]]
        rows = np.arange(shoes)
        while played < rounds:
            live = rows[~cut_card_reached(size - position, rules.cut_card_from_end)]
            if not len(live):
                break
            six = values[live[:, None], position[live, None] + np.arange(6)]
            player, banker, used = baccarat.coup(six)
            take = min(len(live), rounds - played)
            player_totals.append(player[:take])
            banker_totals.append(banker[:take])
            played += take
            position[live] += used
    lines = baccarat.settle(
        rules,
        np.concatenate(player_totals),
        np.concatenate(banker_totals),
        stakes["player"],
        stakes["banker"],
        stakes["tie"],
    )
    return Batch(lines, np.zeros(rounds, dtype=np.int64))
