"""The five-card evaluators against phevaluator, a peer written apart from riverboat.

phevaluator (Henry Lee's PokerHandEvaluator) ranks the 7,462 classes of equal
five-card hands 1 (a royal flush) to 7,462 (seven-high), smaller is stronger, and
values 6 or 7 cards by their best five; riverboat's values are the same classes,
0 (seven-high) to 7,461, so each must be ``7462 - rank`` exactly. Five cards: every
hand. Six and seven: a hand of every class with one or two more cards drawn at
random, 20 times over, then random hands (``tests/test_hands.py`` compares every
six-card hand with the reference evaluator).
"""

from functools import cache

import numpy as np
import phevaluator
import pytest

from riverboat.hands import (
    FIVE_CARD,
    FOUR_CARD,
    Evaluator,
    HandError,
    HandRanking,
    evaluate4of5,
    evaluate5,
    evaluate6,
    evaluate7,
)
from riverboat.hands._rank_kernels import table_indices
from riverboat.hands.evaluate import _by_ranks

from reference import all_hands

CLASSES = 7462  # phevaluator's ranks 1..7462, riverboat's values 0..7461


@cache
def five() -> np.ndarray:
    return all_hands(5)


def peer_values(hands: np.ndarray) -> np.ndarray:
    """phevaluator's ranks turned into riverboat's values (its card ids are riverboat's
    card indices: 4 * rank + suit, clubs, diamonds, hearts, spades)."""
    evaluate = {5: phevaluator.evaluate_5cards, 6: phevaluator.evaluate_6cards}.get(
        hands.shape[1], phevaluator.evaluate_7cards
    )
    ranks = np.array([evaluate(*row) for row in hands.tolist()], dtype=np.int32)
    return CLASSES - ranks


def with_more_cards(hands: np.ndarray, more: int, seed: int) -> np.ndarray:
    """Each hand with ``more`` other cards drawn at random, the new cards first."""
    rng = np.random.default_rng(seed)
    keys = rng.random((len(hands), 52))
    keys[np.arange(len(hands))[:, None], hands] = 2.0  # never draw a card held
    extra = np.argsort(keys, axis=1)[:, :more].astype(np.uint8)
    return np.ascontiguousarray(np.concatenate([extra, hands], axis=1))


def random_hands(n: int, k: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 52)), axis=1)[:, :k].astype(np.uint8)


def test_the_card_ids_are_the_same() -> None:
    from riverboat.cards import Card

    assert [phevaluator.Card(str(Card(i))).id_ for i in range(52)] == list(range(52))


def test_five_cards_agree_with_phevaluator_on_every_hand() -> None:
    values = evaluate5(five())
    assert np.array_equal(values, peer_values(five()))
    assert len(np.unique(values)) == CLASSES


@pytest.mark.parametrize(("evaluate", "more"), [(evaluate6, 1), (evaluate7, 2)])
def test_six_and_seven_cards_agree_with_phevaluator(evaluate: Evaluator, more: int) -> None:
    _, first = np.unique(evaluate5(five()), return_index=True)  # a hand of each class
    hands = with_more_cards(np.repeat(five()[first], 20, axis=0), more, seed=more)
    assert np.array_equal(evaluate(hands), peer_values(hands))
    sample = random_hands(200_000, 5 + more, seed=10 + more)
    assert np.array_equal(evaluate(sample), peer_values(sample))


@pytest.mark.parametrize(
    ("k", "ranking", "evaluate"),
    [(5, FIVE_CARD, evaluate5), (6, FIVE_CARD, evaluate6), (7, FIVE_CARD, evaluate7)],
)
def test_each_hand_is_read_where_table_indices_says(
    k: int, ranking: HandRanking, evaluate: Evaluator
) -> None:
    hands = random_hands(100_000, k, seed=k)
    assert np.array_equal(_by_ranks(ranking, k)[table_indices(hands)], evaluate(hands))


def test_best_four_of_five_reads_its_multiset_entry_unless_four_share_a_suit() -> None:
    hands = five()
    suits = np.sort(hands % 4, axis=1)
    four_suited = (suits[:, 0] == suits[:, 3]) | (suits[:, 1] == suits[:, 4])
    read = _by_ranks(FOUR_CARD, 5)[table_indices(hands, flushes=False)]
    values = evaluate4of5(hands)
    assert np.array_equal(read[~four_suited], values[~four_suited])
    assert np.all(read[four_suited] <= values[four_suited])


@pytest.mark.parametrize("evaluate", [evaluate5, evaluate6, evaluate7, evaluate4of5])
@pytest.mark.parametrize("bad", ["twice", "52", "255"])
def test_a_row_that_is_not_a_hand_is_refused_by_its_number(evaluate: Evaluator, bad: str) -> None:
    hands = random_hands(1000, evaluate.size, seed=3)
    hands[617, -1] = {"twice": hands[617, 0], "52": 52, "255": 255}[bad]
    with pytest.raises(HandError, match="row 617 is not a hand"):
        evaluate(hands)
