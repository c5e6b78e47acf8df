"""Whole batches of rounds, dealt and settled with the production code.

:func:`deal_batch` deals ``rounds`` rounds from ``generator`` (:mod:`riverboat.rng`),
values the hands and looks the decisions up in a strategy table: what the game's
``settle`` takes, round by round. :func:`play_batch` settles each round with it (a
bankroll study follows every round); :func:`count_batch` and :func:`settle_counts`
count the rounds by what settle looks at and settle one round of each kind found, as
many times over as it was dealt: the same sums, without settling every round. The
simulator holds no rules of its own either way: every payout is the game's settle's.

Counting. A game's settle compares its two values (the player's hand and the house's,
a coup's two totals) and reads each through the rules' pay lines and qualifiers: the
ranking keys of ``settle_keys`` (:class:`~riverboat.games.game_math.GameMath`). Two
rounds whose values lie between the same keys, in the same order (lower, equal,
higher) and with the same option settle alike, so a round is counted in the *cell*
of those; a game that names no keys is counted by its values themselves (exact for
any settle), or, with too many values for that, settled round by round. Each cell
keeps the values of its first round and its last: both are settled, and a cell whose
two settle differently (keys missing from ``settle_keys``) stops the run.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from riverboat.analysis.adapters import game_math
from riverboat.analysis.solution import colex_index
from riverboat.deck import burn_count, cut_card_reached
from riverboat.games import GameRules, find_game
from riverboat.games.game_math import GameMath
from riverboat.games.rules import RulesError
from riverboat.games.spec import GameSpec
from riverboat.hands._kernels import lookup3, lookup5
from riverboat.rng import Generator, deal_hands, shuffled_shoes

__all__ = [
    "Batch",
    "Counting",
    "Counts",
    "Dealt",
    "count_batch",
    "counting",
    "deal_batch",
    "play_batch",
    "settle_counts",
]

Ints = npt.NDArray[np.int64]
Values = npt.NDArray[np.int32]
#: the most cells a run counts in (8 MB of counts); beyond, rounds are settled one by one
MOST_CELLS = 1 << 20
#: the largest table of coups (by the values of a coup's cards) a shoe game is dealt from
MOST_COUPS = 1 << 24


@dataclass(frozen=True)
class Batch:
    lines: dict[str, Ints]
    option: Ints  # the option index each round took (0 where there is no decision)


@dataclass(frozen=True)
class Dealt:
    """Rounds dealt and decided, not yet settled: the two values the game's settle
    takes (the deciding hand's and the house's, or a coup's Player and Banker
    totals) and each round's option index."""

    first: Values
    second: Values
    option: Ints


def _decisions(cards: npt.NDArray[np.uint8], table: npt.NDArray[np.int16]) -> Ints:
    """Each hand's entry in a table by colex index: compiled for 3 and 5 cards, by
    numpy for a game whose hands have another size."""
    lookup = {3: lookup3, 5: lookup5}.get(cards.shape[1])
    if lookup is None:
        return table[colex_index(cards)].astype(np.int64)
    out = np.empty(len(cards), dtype=np.int32)
    lookup(np.ascontiguousarray(cards), table, out)
    return out.astype(np.int64)


def deal_batch(
    game: str,
    rules: GameRules,
    generator: Generator,
    rounds: int,
    table: npt.NDArray[np.int16] | None,
    codes: Ints,
) -> Dealt:
    """Deal and decide ``rounds`` rounds; ``codes[option]`` is what settle takes.

    The spec says what is dealt: from a shoe when it has one, else a fresh deck per
    round with its hands in dealing order."""
    spec = find_game(game).spec(rules)
    math = game_math(rules)
    if spec.shoe is not None:
        return _from_shoe(spec, math, generator, rounds)
    assert table is not None
    assert math.evaluate is not None
    dealt = deal_hands(generator, rounds, [hand.cards for hand in spec.hands])
    hands = {hand.name: cards for hand, cards in zip(spec.hands, dealt, strict=True)}
    mine = next(hand.name for hand in spec.hands if hand.each_position)
    house = spec.house
    assert house is not None
    option = _decisions(hands[mine], table)
    code = codes[option]
    value = np.array(math.evaluate(hands[mine]), dtype=np.int32)
    for decision in spec.options:  # a hand a decision deals counts only when it is taken
        if decision.deals is not None:
            assert math.evaluate_with is not None
            taken = np.flatnonzero(code == math.code(decision.action, decision.stake))
            drawn = np.concatenate([hands[mine][taken], hands[decision.deals][taken]], axis=1)
            value[taken] = math.evaluate_with(drawn)
    dealer = np.asarray(math.evaluate(hands[house.name]), dtype=np.int32)
    return Dealt(value, dealer, option)


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
    """Deal and settle ``rounds`` rounds, each its own lines; ``codes[option]`` is what
    settle takes. A maximum payout (R9) applies only when ``capped`` (real money);
    per unit figures leave it out, as the analyzer does."""
    dealt = deal_batch(game, rules, generator, rounds, table, codes)
    math = game_math(rules)
    lines = dict(math.settle(rules, dealt.first, dealt.second, codes[dealt.option], stakes))
    if not capped:  # R9: per unit results, as the analyzer reports them
        lines = {name: result for name, result in lines.items() if name in math.line_wagers}
    return Batch(lines, dealt.option)


# ------------------------------------------------------------------ shoes
@cache
def _coups(
    coup: Callable[[npt.ArrayLike], tuple[Ints, Ints, Ints]],
    card_values: Callable[[npt.ArrayLike], Ints],
    most: int,
) -> tuple[int, npt.NDArray[np.int8]]:
    """The game's ``coup`` of every sequence of ``most`` card values, by the sequence
    read as a number in base ``radix`` (the card values' count), first card most
    significant: rows of (first total, second total, cards taken)."""
    radix = int(np.max(card_values(np.arange(52)))) + 1
    if radix**most > MOST_COUPS:
        raise RulesError(f"a coup of {most} cards of {radix} values is too many to tabulate")
    digits = np.empty((radix**most, most), dtype=np.int8)
    for i in range(most):  # digit i of every number, the first most significant
        digits[:, i] = np.repeat(
            np.tile(np.arange(radix, dtype=np.int8), radix**i), radix ** (most - 1 - i)
        )
    first, second, used = coup(digits)
    table = np.stack([first, second, used], axis=1)
    if table.min() < 0 or table.max() > 127:
        raise RulesError(f"a coup's totals and cards taken must lie in 0..127, not {table.max()}")
    return radix, table.astype(np.int8)


def _from_shoe(
    spec: GameSpec, math: GameMath[GameRules], generator: Generator, rounds: int
) -> Dealt:
    """Coups dealt from shoes: burn at each new shoe, a coup starts only ahead of the
    cut card (B1), each shoe's coups in order until its cut card, a few shoes side by
    side (:func:`riverboat.sim._kernels.walk_shoes`), until the batch has its coups.
    Each coup is the game's own (:func:`_coups`)."""
    shoe = spec.shoe
    assert shoe is not None
    assert math.card_values is not None
    assert math.coup is not None
    from riverboat.sim._kernels import walk_shoes  # numba: loaded when used

    size = 52 * shoe.decks
    most = spec.cards_per_round()  # a coup takes at most this many cards
    radix, coups = _coups(math.coup, math.card_values, most)
    value_of = math.card_values(np.arange(52)).astype(np.int8)
    start_of = np.array([1 + burn_count(card) for card in range(52)])  # B1: shown, burned
    reached = cut_card_reached(size - np.arange(size + most + 1), shoe.cut_card_from_end)
    first = np.empty(rounds, dtype=np.int32)
    second = np.empty(rounds, dtype=np.int32)
    played = 0
    while played < rounds:
        shoes = (rounds - played) // 70 + 1  # a shoe deals 70 to 80 coups
        cards = shuffled_shoes(generator, shoes, shoe.decks)
        played += walk_shoes(
            cards, value_of, start_of, reached, radix, most, coups,
            first[played:], second[played:],
        )  # fmt: skip
    return Dealt(first, second, np.zeros(rounds, dtype=np.int64))


# ------------------------------------------------------------------ counting
@dataclass(frozen=True)
class Counting:
    """How a run counts its rounds: ``classes[value]`` is the class of each value
    settle may take (``n`` classes), over ``options`` options."""

    classes: npt.NDArray[np.int16]
    n: int
    options: int

    @property
    def cells(self) -> int:
        return self.n * self.n * 3 * self.options


@dataclass(frozen=True)
class Counts:
    """Rounds by cell (:func:`count_batch`), with the values of each cell's first and
    last round."""

    counts: Ints
    first_seen: Values
    last_seen: Values


def counting(game: str, rules: GameRules, options: int) -> Counting | None:
    """The classes a run of ``game`` counts its rounds in, or None to settle each round
    (a game with too many values to count by and no ``settle_keys``)."""
    spec = find_game(game).spec(rules)
    math = game_math(rules)
    if spec.shoe is not None:
        assert math.coup is not None
        assert math.card_values is not None
        _, coups = _coups(math.coup, math.card_values, spec.cards_per_round())
        count = int(coups[:, :2].max()) + 1
        classes = np.arange(count, dtype=np.int16)
    else:
        ranking = math.ranking
        if ranking is None:
            return None
        count = ranking.count
        if math.settle_keys is not None:
            cuts = sorted({ranking.lowest(*key) for key in math.settle_keys(rules)})
            classes = np.searchsorted(cuts, np.arange(count), side="right").astype(np.int16)
        else:
            classes = np.arange(count, dtype=np.int16)
    found = Counting(classes, int(classes.max()) + 1, options)
    return found if found.cells <= MOST_CELLS else None


def count_batch(dealt: Dealt, how: Counting) -> Counts:
    """Count dealt rounds by cell (:func:`riverboat.sim._kernels.count_cells`)."""
    from riverboat.sim._kernels import count_cells  # numba: loaded when used

    counts = np.zeros(how.cells, dtype=np.int64)
    first_seen = np.zeros((how.cells, 2), dtype=np.int32)
    last_seen = np.zeros((how.cells, 2), dtype=np.int32)
    count_cells(
        dealt.first, dealt.second, dealt.option, how.classes, how.n, how.options,
        counts, first_seen, last_seen,
    )  # fmt: skip
    return Counts(counts, first_seen, last_seen)


def settle_counts(
    game: str,
    rules: GameRules,
    counted: Counts,
    how: Counting,
    stakes: Mapping[str, int],
    codes: Ints,
) -> tuple[Ints, dict[str, Ints], Ints]:
    """The rounds of each cell dealt, settled by the game: (rounds, lines, option) per
    cell dealt, each line one round's result (per unit: R9's cap left out).

    Both the first and the last round of each cell are settled, and must agree."""
    math = game_math(rules)
    cells = np.flatnonzero(counted.counts)
    option = cells % how.options
    code = codes[option]
    first, last = counted.first_seen[cells], counted.last_seen[cells]
    lines = dict(math.settle(rules, first[:, 0], first[:, 1], code, stakes))
    again = math.settle(rules, last[:, 0], last[:, 1], code, stakes)
    for name, result in lines.items():
        result = np.broadcast_to(result, cells.shape)
        if not np.array_equal(result, np.broadcast_to(again[name], cells.shape)):
            wrong = int(np.flatnonzero(result != again[name])[0])
            raise RulesError(
                f"{game}: values {first[wrong].tolist()} and {last[wrong].tolist()} settle "
                f"differently on {name!r} though no ranking key of its settle_keys lies "
                "between them; the game's settle_keys miss a key"
            )
        lines[name] = result.astype(np.int64)
    lines = {name: result for name, result in lines.items() if name in math.line_wagers}
    return counted.counts[cells], lines, option
