"""Exact hints for one dealt hand, at once: each option's value by enumerating the unseen cards.

The full analysis (:mod:`riverboat.analysis.headsup`) counts every player hand
against every dealer hand through tables of the whole game, which take seconds to
build. A hint needs one hand only: the dealer hands left (C(49, 3) at Tri-Card,
C(47, 5) at Crazy 4 and Rabbit Hunter) are valued once and counted by value
(:mod:`riverboat.analysis._dealing`), and the game's own settle function, through
the analyzer's :class:`~riverboat.analysis.headsup.HeadsUpGame`, gives each line's
result against every dealer value. An option that deals the player a card (the
rabbit, R4) is weighed for every card it may draw against the dealer hands from
the other cards: all hands less the hands holding that card.

The totals are in the full analysis' units (1/``unit`` of a stake over every deal
of the hand, the drawn card included), so a hint's values are the analysis' own
values for that hand, exactly. Where the full count of these rules is kept on disk
(:meth:`~riverboat.analysis.headsup.HeadsUpGame.counted`: ``riverboat analyze``, or
a first ``riverboat play --auto optimal`` of a game whose count takes a moment), the
hint reads its row for the hand's suit class instead (:func:`kept_line_totals`),
without the compiled kernels.

>>> from riverboat.analysis import heads_up, wager_units
>>> from riverboat.games import find_game
>>> model = heads_up("tri-card", find_game("tri-card").rules())
>>> solution = solve(model, wager_units("tri-card", {"ante": 1}), "Qh 6d 4c")
>>> [str(solution.expected(0, i)) for i in range(2)]   # Fold, Raise: in Antes
['-1', '-9151/9212']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from itertools import permutations

import numpy as np
import numpy.typing as npt

from riverboat.analysis import disk_cache
from riverboat.analysis.adapters import game_math
from riverboat.analysis.headsup import HeadsUpGame
from riverboat.analysis.solution import Counted, Solution, colex_index
from riverboat.cards import parse_cards
from riverboat.games import find_game
from riverboat.games.rules import RulesError

__all__ = ["kept_line_totals", "line_totals", "solve"]

Cards = npt.NDArray[np.uint8]
Ints = npt.NDArray[np.int64]
Holding = npt.NDArray[np.int32]


def solve(
    model: HeadsUpGame, wagers: Mapping[str, Fraction], cards: str | Sequence[int]
) -> Solution:
    """Every option's value for the player's hand ``cards`` under ``wagers`` (in
    Antes), as a one-hand :class:`~riverboat.analysis.headsup.Solution` (its legal
    options, values and best choice; it holds no outcome classes): from the kept
    count if there is one, else counted here."""
    hand = np.array([parse_cards(cards)], dtype=np.uint8)
    if hand.shape[1] != model.size:
        title = find_game(model.name).title
        raise RulesError(f"a {title} hand has {model.size} cards, not {hand.shape[1]}")
    totals = kept_line_totals(model, hand[0])
    if totals is None:
        totals = line_totals(model, hand[0])
    return Solution(model, dict(wagers), hand, np.ones(1, dtype=np.int64), totals)


#: the 24 relabellings of the four suits
_SUITS = np.array(list(permutations(range(4))), dtype=np.int64)


def kept_line_totals(model: HeadsUpGame, hand: Cards) -> Counted | None:
    """One hand's totals as :func:`line_totals` gives them, read from the count of
    every hand class kept on disk for ``model``'s rules: the row of the hand's suit
    class (the least colex index its suits relabel to, as the count numbers its
    classes). None when no count is kept (this counts nothing). The kept classes are
    read once per process."""
    kept = model.__dict__.get("_kept_rows")
    if kept is None:
        counted = model.__dict__.get("_counted")  # counted in this process already
        if counted is not None:
            kept = (colex_index(model.hands[0]), counted.values, counted.totals)
        else:
            arrays = disk_cache.load(model.counted_key, ("hands", "values", "totals"))
            if arrays is None:
                return None
            hands, values, totals = arrays["hands"], arrays["values"], arrays["totals"]
            n = len(hands)
            shape = (n, len(model.options), len(model.lines))
            if hands.shape != (n, model.size) or values.shape != (n,) or totals.shape != shape:
                return None  # not this game's: counted afresh when the analysis runs
            kept = (
                colex_index(hands.astype(np.uint8)),
                values.astype(np.int64),
                totals.astype(np.int64),
            )
        model.__dict__["_kept_rows"] = kept
    index, values, totals = kept
    cards = hand.astype(np.int64)
    relabelled = (cards >> 2 << 2) + _SUITS[:, cards & 3]  # [24, cards]
    least = int(colex_index(relabelled.astype(np.uint8)).min())
    row = int(np.searchsorted(index, least))
    if row >= len(index) or index[row] != least:
        return None
    nothing = np.zeros(0, dtype=np.int64)
    return Counted(
        values=values[row : row + 1],
        counts=np.zeros((1, 0), dtype=np.int64),
        draw_hand=nothing,
        draw_value=nothing,
        draw_counts=np.zeros((0, 0), dtype=np.int64),
        totals=totals[row : row + 1],
    )


def line_totals(model: HeadsUpGame, hand: Cards) -> Counted:
    """One hand's total result ``[1, option, line]`` over every deal, in
    1/``model.unit`` of a stake with each wager one unit, as
    :meth:`HeadsUpGame.line_totals` counts it. Counts by outcome class are left empty."""
    from riverboat.analysis._dealing import dealer_counts  # numba: loaded when counting

    cards = np.sort(hand.astype(np.int64))
    unseen = np.setdiff1d(np.arange(52, dtype=np.int64), cards)
    drawing = any(option.draws for option in model.options)
    counts = np.zeros(model.dealer_ranking.count, dtype=np.int64)
    holding = np.zeros((len(counts), len(unseen) if drawing else 0), dtype=np.int32)
    dealer_counts(unseen, model.size, model.dealer_values, counts, holding)
    dealer = np.arange(len(counts))
    value = int(model.player_values[colex_index(hand[None])][0])
    stakes = dict.fromkeys(model.wagers, model.unit)
    totals = np.zeros((1, len(model.options), len(model.lines)), dtype=np.int64)
    best = np.zeros((1, len(unseen) if drawing else 0), dtype=np.int64)
    if drawing:
        best[0] = _drawn_values(model, cards, unseen)
    for i, option in enumerate(model.options):
        if option.draws:  # each card drawn, against the dealer hands without it
            values, weights = _by_drawn_value(best[0], counts, holding)
            player: int | Ints = values[:, None]
        else:
            weights = counts * model.extra_factor
            player = value
        results = model.settle(player, dealer, option, stakes)
        totals[0, i] = [
            int((np.broadcast_to(results[line], weights.shape) * weights).sum())
            for line in model.lines
        ]
    return Counted(
        values=np.array([value], dtype=np.int64),
        counts=np.zeros((1, 0), dtype=np.int64),
        draw_hand=np.zeros(0, dtype=np.int64),
        draw_value=np.zeros(0, dtype=np.int64),
        draw_counts=np.zeros((0, 0), dtype=np.int64),
        totals=totals,
    )


def _by_drawn_value(best: Ints, counts: Ints, holding: Holding) -> tuple[Ints, Ints]:
    """Each value the player may draw to, once, with the dealer hands ``[value, dealer
    value]`` left beside the cards that give it: for each such card, every dealer
    hand less those holding the card."""
    values, row = np.unique(best, return_inverse=True)
    weights = [
        counts * int(np.count_nonzero(row == j)) - holding[:, row == j].sum(axis=1)
        for j in range(len(values))
    ]
    return values, np.stack(weights)


def _drawn_values(model: HeadsUpGame, hand: Ints, unseen: Ints) -> Ints:
    """The player's value with each unseen card added (the best five of six, R4)."""
    evaluate = game_math(model.rules).evaluate_with
    if evaluate is None:
        raise RulesError(f"{model.name} has no hand value with a drawn card")
    grown = np.column_stack([np.broadcast_to(hand, (len(unseen), len(hand))), unseen])
    return evaluate(grown.astype(np.uint8)).astype(np.int64)
