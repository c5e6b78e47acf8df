"""Hand evaluators: one call for one hand or a whole array of hands.

Each evaluator takes an integer array of shape ``(n, k)`` of card indices and
returns an ``int32`` array of ``n`` values, or takes one hand (a card string or a
sequence of k cards) and returns one ``int``. Values are those of a
:class:`~riverboat.hands.rankings.HandRanking`: larger is stronger, equal means equal.

>>> import numpy as np
>>> evaluate5("As Ks Qs Js Ts") > evaluate5("9h 9d 9s 9c 2d")
True
>>> evaluate5(np.array([[0, 4, 8, 12, 51], [48, 49, 50, 51, 0]], dtype=np.uint8)).tolist()
[5853, 7440]
>>> evaluate3("Ah 2c 3d") < evaluate3("Kh Qh Jh")
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from math import comb
from types import ModuleType
from typing import overload

import numpy as np
import numpy.typing as npt

from riverboat.cards import DECK_SIZE, Card, CardError, format_cards, parse_cards
from riverboat.hands.rankings import FIVE_CARD, FOUR_CARD, THREE_CARD, HandRanking

__all__ = [
    "Evaluator",
    "HandError",
    "evaluate3",
    "evaluate4of5",
    "evaluate5",
    "evaluate6",
    "evaluate7",
    "hand_table",
]

Hand = str | Sequence[int]
Values = npt.NDArray[np.int32]
Table = npt.NDArray[np.int16]


#: the types of a card index that :func:`_indices` takes as it is
_INDICES = (int, Card)
#: how many hands' values one evaluator keeps
_MOST_KEPT = 4096


class HandError(CardError):
    """Cards that do not form a hand of the size an evaluator takes."""


@cache
def _kernels() -> ModuleType:
    """The compiled kernels (numba), loaded with the first table or array of hands
    valued rather than on import, so a command that values no hand never loads numba."""
    from riverboat.hands import _kernels as kernels

    return kernels


@cache
def _rank_kernels() -> ModuleType:
    """The evaluators by rank multiset (numba), loaded as :func:`_kernels` is."""
    from riverboat.hands import _rank_kernels as kernels

    return kernels


@cache
def hand_table(ranking: HandRanking) -> Table:
    """The value of every hand of ``ranking.size`` cards, by colex index (built once)."""
    table = np.empty(comb(52, ranking.size), dtype=np.int16)
    by_ranks, by_flush = ranking.value_tables
    _kernels().fill_table(ranking.size, by_ranks, by_flush, table)
    return table


@cache
def _best_four_of_five() -> Table:
    """Crazy 4's best four of five by colex index, as :func:`hand_table` holds hands."""
    table = np.empty(comb(52, 5), dtype=np.int16)
    _kernels().fill_best_of(hand_table(FOUR_CARD), 5, _kernels().subset_rows(5, 4), table)
    return table


@cache
def _by_ranks(ranking: HandRanking, k: int) -> Table:
    """The table an evaluator of k cards reads in :mod:`._rank_kernels` (built once):
    tens of kilobytes, where :func:`hand_table` of five cards takes 5 MB."""
    kernels = _rank_kernels()
    by_ranks, by_flush = ranking.value_tables
    if ranking.size == k:
        table: Table = kernels.five_table(by_ranks, by_flush)
        return table
    table = kernels.best_table(by_ranks, by_flush, ranking.size, k)
    return table


def _as_hands(hands: npt.ArrayLike, k: int) -> npt.NDArray[np.uint8]:
    array = np.asarray(hands)
    if array.ndim != 2 or array.shape[1] != k:
        raise HandError(f"expected an array of shape (n, {k}), got shape {array.shape}")
    if array.dtype == np.uint8:
        return np.ascontiguousarray(array)
    if not np.issubdtype(array.dtype, np.integer):
        raise HandError(f"card indices must be integers, not {array.dtype}")
    if array.size and (array.min() < 0 or array.max() > 51):
        raise HandError("card indices must be 0..51")
    return np.ascontiguousarray(array, dtype=np.uint8)


def _run(
    kernel: Callable[..., int], k: int, hands: npt.ArrayLike, *tables: npt.NDArray[np.generic]
) -> Values:
    array = _as_hands(hands, k)
    out = np.empty(array.shape[0], dtype=np.int32)
    bad = kernel(array, *tables, out)
    if bad >= 0:
        raise HandError(
            f"row {bad} is not a hand of {k} different cards 0..51: {array[bad].tolist()}"
        )
    return out


def _one(hand: Hand | npt.NDArray[np.integer], k: int) -> npt.NDArray[np.uint8]:
    cards = parse_cards(hand) if isinstance(hand, str) else parse_cards(list(hand))
    if len(cards) != k:
        raise HandError(f"a hand here has {k} cards, not {len(cards)}: {format_cards(cards)}")
    return np.array([cards], dtype=np.uint8)


def _indices(hand: Hand, k: int) -> tuple[int, ...] | None:
    """The hand as a key when it is ``k`` different card indices (nothing to parse or
    refuse), else None."""
    if isinstance(hand, str) or len(hand) != k:
        return None
    key = tuple(hand)
    if all(type(c) in _INDICES and 0 <= c < DECK_SIZE for c in key) and len(set(key)) == k:
        return key
    return None


class Evaluator:
    """A hand evaluator: call it on one hand (returns an ``int``) or an (n, k) array.

    One hand is a card string, a sequence of cards or a 1-D array.

    ``size`` is the number of cards it takes and ``ranking`` the order its values
    belong to, for categories and names.
    """

    def __init__(
        self, size: int, ranking: HandRanking, run: Callable[[npt.ArrayLike], Values], doc: str
    ) -> None:
        self.size = size
        self.ranking = ranking
        self._run = run
        self.__doc__ = doc
        #: one hand's value by its cards as given: a round values its hands several
        #: times (settlement, description, the view's names)
        self._values: dict[tuple[int, ...], int] = {}

    @overload
    def __call__(self, hands: npt.NDArray[np.integer]) -> Values: ...
    @overload
    def __call__(self, hands: Hand) -> int: ...
    def __call__(self, hands: npt.NDArray[np.integer] | Hand) -> Values | int:
        if isinstance(hands, np.ndarray):
            if hands.ndim != 1:
                return self._run(hands)
            hands = [int(c) for c in hands]
        key = _indices(hands, self.size)
        if key is None:  # parsed, or refused with its reason
            return int(self._run(_one(hands, self.size))[0])
        value = self._values.get(key)
        if value is None:  # one hand: by its ranking, without loading the compiled kernels
            value = self.ranking.value(key)
            if len(self._values) >= _MOST_KEPT:
                self._values.clear()
            self._values[key] = value
        return value

    def __repr__(self) -> str:
        return f"<evaluator of {self.size} cards: {self.ranking.name}>"


def _by_rank_kernel(name: str, ranking: HandRanking, k: int) -> Callable[[npt.ArrayLike], Values]:
    def values(hands: npt.ArrayLike) -> Values:
        return _run(getattr(_rank_kernels(), name), k, hands, _by_ranks(ranking, k))

    return values


def _values3(hands: npt.ArrayLike) -> Values:
    return _run(_kernels().lookup3, 3, hands, hand_table(THREE_CARD))


_values5 = _by_rank_kernel("value5", FIVE_CARD, 5)
_values6 = _by_rank_kernel("best5of6", FIVE_CARD, 6)
_values7 = _by_rank_kernel("best5of7", FIVE_CARD, 7)
_values4of5 = _by_rank_kernel("best4of5", FOUR_CARD, 5)


evaluate5 = Evaluator(5, FIVE_CARD, _values5, "Five-card poker values of 5-card hands.")
evaluate6 = Evaluator(6, FIVE_CARD, _values6, "The best 5 of 6 cards, as five-card values.")
evaluate7 = Evaluator(7, FIVE_CARD, _values7, "The best 5 of 7 cards, as five-card values.")
evaluate3 = Evaluator(3, THREE_CARD, _values3, "Tri-Card values (T2) of 3-card hands.")
evaluate4of5 = Evaluator(5, FOUR_CARD, _values4of5, "Crazy 4 values (C2): the best 4 of 5 cards.")
