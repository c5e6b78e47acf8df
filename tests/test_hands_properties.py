"""Properties of every evaluator: card order and suit names never change a value (G3)."""

from functools import cache
from random import Random

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from riverboat.hands import Evaluator, evaluate3, evaluate4of5, evaluate5, evaluate6, evaluate7

from reference import POKER, all_hands, best_of, dense, reference_keys

EVALUATORS = st.sampled_from([evaluate3, evaluate5, evaluate6, evaluate7, evaluate4of5])


@st.composite
def dealt(draw: st.DrawFn) -> tuple[Evaluator, list[int]]:
    evaluate = draw(EVALUATORS)
    cards = draw(st.permutations(range(52)))[: evaluate.size]
    return evaluate, cards


@given(dealt(), st.randoms(use_true_random=False))
def test_order_of_cards_never_changes_a_value(
    hand: tuple[Evaluator, list[int]], random: Random
) -> None:
    evaluate, cards = hand
    shuffled = list(cards)
    random.shuffle(shuffled)
    assert evaluate(shuffled) == evaluate(cards)


@given(dealt(), st.permutations(range(4)))
def test_relabelling_suits_never_changes_a_value(
    hand: tuple[Evaluator, list[int]], suits: list[int]
) -> None:
    evaluate, cards = hand
    relabelled = [4 * (card // 4) + suits[card % 4] for card in cards]
    assert evaluate(relabelled) == evaluate(cards)


@given(dealt())
def test_one_hand_and_a_batch_of_one_agree(hand: tuple[Evaluator, list[int]]) -> None:
    evaluate, cards = hand
    assert evaluate(np.array([cards], dtype=np.int16)).tolist() == [evaluate(cards)]


@cache
def _five() -> np.ndarray:
    """Every five-card hand's reference value (2.6 M hands: counted when first asked,
    not when the module is collected, which every test worker does)."""
    return dense(reference_keys(all_hands(5), POKER))


@given(st.sampled_from([6, 7]), st.permutations(range(52)))
def test_fast_and_reference_agree_on_the_order_of_random_pairs(size: int, deck: list[int]) -> None:
    evaluate = evaluate6 if size == 6 else evaluate7
    pair = np.array([deck[:size], deck[size : 2 * size]], dtype=np.uint8)
    fast = evaluate(pair)
    reference = best_of(_five(), pair, 5)
    assert np.sign(fast[0] - fast[1]) == np.sign(reference[0] - reference[1])
