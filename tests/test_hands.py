"""Hand evaluators against exact counts and the reference evaluators, over every hand."""

from collections import Counter
from functools import cache
from itertools import combinations_with_replacement

import numpy as np
import pytest

from riverboat.cards import Card, Rank, format_cards
from riverboat.hands import (
    FIVE_CARD,
    FOUR_CARD,
    THREE_CARD,
    Evaluator,
    FiveCard,
    FourCard,
    HandError,
    HandRanking,
    ThreeCard,
    evaluate3,
    evaluate4of5,
    evaluate5,
    evaluate6,
    evaluate7,
)
from riverboat.hands._rank_kernels import multiset_index
from riverboat.hands.evaluate import _best_four_of_five, _by_ranks

from reference import (
    CRAZY4,
    POKER,
    TRI_CARD,
    all_hands,
    best_of,
    colex_index,
    dense,
    reference_keys,
)


@cache
def hands(k: int) -> np.ndarray:
    return all_hands(k)


@cache
@cache
def reference_values(k: int, order: tuple[str, ...]) -> np.ndarray:
    """Dense reference values of every k-card hand, by colex index: worked out once a
    process (1.5 CPU s for the five-card ones) and read-only."""
    values = dense(reference_keys(hands(k), list(order)))
    values.flags.writeable = False
    return values


def test_five_card_category_counts_over_all_2598960_hands() -> None:
    # Standard five-card poker frequencies (e.g. Wikipedia, "Poker probability").
    counts = Counter(FIVE_CARD.category(evaluate5(hands(5))).tolist())
    assert {FiveCard(c): n for c, n in counts.items()} == {
        FiveCard.ROYAL_FLUSH: 4,
        FiveCard.STRAIGHT_FLUSH: 36,
        FiveCard.FOUR_OF_A_KIND: 624,
        FiveCard.FULL_HOUSE: 3_744,
        FiveCard.FLUSH: 5_108,
        FiveCard.STRAIGHT: 10_200,
        FiveCard.THREE_OF_A_KIND: 54_912,
        FiveCard.TWO_PAIR: 123_552,
        FiveCard.PAIR: 1_098_240,
        FiveCard.HIGH_CARD: 1_302_540,
    }


def test_five_card_has_7462_distinct_values() -> None:
    # 7,462 classes of equal five-card hands (Cactus Kev's evaluator, and any count
    # of distinct hand ranks).
    assert FIVE_CARD.count == 7462
    assert len(np.unique(evaluate5(hands(5)))) == 7462


def test_three_card_category_counts_over_all_22100_hands() -> None:
    # Three-card poker frequencies (Wizard of Odds, "Three Card Poker").
    counts = Counter(THREE_CARD.category(evaluate3(hands(3))).tolist())
    assert {ThreeCard(c): n for c, n in counts.items()} == {
        ThreeCard.STRAIGHT_FLUSH: 48,
        ThreeCard.THREE_OF_A_KIND: 52,
        ThreeCard.STRAIGHT: 720,
        ThreeCard.FLUSH: 1_096,
        ThreeCard.PAIR: 3_744,
        ThreeCard.HIGH_CARD: 16_440,
    }


def test_five_card_agrees_with_reference_on_every_hand() -> None:
    assert np.array_equal(evaluate5(hands(5)), reference_values(5, tuple(POKER)))


def test_three_card_agrees_with_reference_on_every_hand() -> None:
    # T2 order, A-2-3 the lowest straight (G3)
    assert np.array_equal(evaluate3(hands(3)), reference_values(3, tuple(TRI_CARD)))


def test_best_four_of_five_agrees_with_reference_on_every_hand() -> None:
    # C2: the best four of five, in Crazy 4 order
    four = reference_values(4, tuple(CRAZY4))
    assert np.array_equal(evaluate4of5(hands(5)), best_of(four, hands(5), 4))


def test_the_best_four_of_five_table_holds_every_hand_by_colex_index() -> None:
    # the analysis's table (hands._kernels.fill_best_of), built by moving each subset's index
    assert np.array_equal(_best_four_of_five(), evaluate4of5(hands(5)))


def test_best_four_of_five_category_counts() -> None:
    # Counted by hand: four of one rank with any of the other 48 cards, so 48 hands
    # of Four Aces and 12 * 48 = 576 of another four of a kind (as in Wizard of
    # Odds' Crazy 4 Poker frequency table).
    counts = Counter(FOUR_CARD.category(evaluate4of5(hands(5))).tolist())
    assert counts[FourCard.FOUR_ACES] == 48
    assert counts[FourCard.FOUR_OF_A_KIND] == 576
    assert sum(counts.values()) == 2_598_960


@pytest.mark.slow
def test_best_five_of_six_agrees_with_reference_on_every_hand() -> None:
    five = reference_values(5, tuple(POKER))
    six = all_hands(6)  # 20,358,520 hands
    for chunk in np.array_split(six, 20):
        assert np.array_equal(evaluate6(chunk), best_of(five, chunk, 5))


def test_best_five_of_seven_agrees_with_reference_on_random_hands() -> None:
    five = reference_values(5, tuple(POKER))
    generator = np.random.default_rng(7)
    seven = np.argsort(generator.random((200_000, 52)), axis=1)[:, :7].astype(np.uint8)
    assert np.array_equal(evaluate7(seven), best_of(five, seven, 5))


@pytest.mark.parametrize(
    ("evaluate", "ranking"),
    [
        (evaluate5, FIVE_CARD),
        (evaluate6, FIVE_CARD),
        (evaluate7, FIVE_CARD),
        (evaluate4of5, FOUR_CARD),
    ],
)
def test_every_rank_multiset_is_read_at_its_index(
    evaluate: Evaluator, ranking: HandRanking
) -> None:
    # The evaluators of 5, 6 and 7 cards work out a hand's index among the multisets of
    # its ranks in floating point and round it: here every multiset a hand can hold, as
    # a hand of no more than two cards a suit, is read where the exact index says.
    k = evaluate.size
    ranks = np.array(list(combinations_with_replacement(range(13), k)))
    ranks = ranks[np.all(ranks[:, : k - 4] != ranks[:, 4:], axis=1)]  # no rank five times
    hands = (4 * ranks + np.arange(k) % 4).astype(np.uint8)  # a repeated rank: new suits
    table = _by_ranks(ranking, k)
    assert np.array_equal(evaluate(hands), table[multiset_index(ranks)])


def test_table_rows_are_in_colex_order() -> None:
    sample = hands(5)[::9973]
    assert np.array_equal(colex_index(sample), np.arange(0, len(hands(5)), 9973))


@pytest.mark.parametrize(
    ("cards", "name"),
    [
        ("As Ks Qs Js Ts", "Royal Flush"),
        ("5d 4d 3d 2d Ad", "Five-high Straight Flush"),
        ("9c 9d 9h 9s 2d", "Four Nines"),
        ("Tc Td Th 4s 4d", "Full House, Tens over Fours"),
        ("Ah 9h 7h 4h 2h", "Ace-high Flush"),
        ("6c 5d 4h 3s 2c", "Six-high Straight"),
        ("5c 4d 3h 2s Ac", "Five-high Straight"),
        ("7c 7d 7h Ks 2c", "Three Sevens"),
        ("Kc Kd 4h 4s 2c", "Two Pair, Kings and Fours"),
        ("Th Tc 8s 4d 2c", "Pair of Tens"),
        ("Kc 9d 7h 5s 2c", "King-high"),
    ],
)
def test_five_card_names(cards: str, name: str) -> None:
    assert FIVE_CARD.describe(evaluate5(cards)) == name


@pytest.mark.parametrize(
    ("cards", "name"),
    [
        ("As Ad Ah Ac 2c", "Four Aces"),
        ("Ks Kd Kh Kc Ac", "Four Kings"),
        ("4s 3s 2s As Kd", "Four-high Straight Flush"),
        ("Js Jd Jh 2c 5d", "Three Jacks"),
        ("Qs 9s 7s 2s 2d", "Queen-high Flush"),
        ("Kc Qd Jh Ts 2c", "King-high Straight"),
        ("Kc Kd 4h 4s Ac", "Two Pair, Kings and Fours"),
        ("Kc 9d 7h 5s 2c", "King-high"),
    ],
)
def test_crazy4_names(cards: str, name: str) -> None:
    assert FOUR_CARD.describe(evaluate4of5(cards)) == name


def test_crazy4_order_c2() -> None:
    # C2: Four Aces > Four of a Kind > Straight Flush > Three of a Kind > Flush >
    # Straight > Two Pair > One Pair > High Card
    ladder = ["As Ad Ah Ac 2d", "Ks Kd Kh Kc 2d", "5h 4h 3h 2h 9c", "2s 2d 2h Ac Kd",
              "Ks 9s 7s 2s 2d", "Kc Qd Jh Ts 2c", "Ac Ad Kh Ks 3c", "Ac Ad Kh Qs 3c",
              "Ac Qd Jh 9s 3c"]  # fmt: skip
    values = [evaluate4of5(h) for h in ladder]
    assert values == sorted(values, reverse=True)
    assert len(set(values)) == len(values)


def test_tri_card_order_t2_and_low_ace_g3() -> None:
    # T2: straight flush > three of a kind > straight > flush > pair > high card
    ladder = ["3h 2h Ah", "2s 2d 2h", "Ac Kd Qh", "Ks 9s 7s", "Ac Ad 2h", "Ac Kd Jh"]
    values = [evaluate3(h) for h in ladder]
    assert values == sorted(values, reverse=True)
    # G3: A-2-3 is the lowest straight, below 2-3-4; Q-K-A-2 wrap-arounds do not exist
    assert evaluate3("Ac 2d 3h") < evaluate3("2c 3d 4h") < evaluate3("Qc Kd Ah")
    assert THREE_CARD.category(evaluate3("Kc Ad 2h")) == ThreeCard.HIGH_CARD


def test_full_comparison_with_kickers_g4() -> None:
    # G4: kickers count; equal means exactly equal, suits never rank (G3)
    assert evaluate5("Ah Ad Kc 9s 3d") > evaluate5("Ac As Kd 9h 2c")
    assert evaluate5("Ah Ad Kc 9s 3d") == evaluate5("Ac As Kd 9h 3c")
    assert evaluate5("Kh Qh Jh Th 9h") > evaluate5("Ac Ad Ah As Kc")
    assert evaluate5("5c 4d 3h 2s Ac") < evaluate5("6c 5d 4h 3s 2c")


def test_lowest_marks_a_threshold() -> None:
    pair_of_tens = FIVE_CARD.lowest(FiveCard.PAIR, Rank.TEN)
    assert evaluate5("Tc Td 4h 3s 2c") == pair_of_tens
    assert evaluate5("9c 9d Ah Ks Qc") == pair_of_tens - 1
    assert FIVE_CARD.key(pair_of_tens) == (FiveCard.PAIR, Rank.TEN, 2, 1, 0)


def test_one_hand_and_array_agree() -> None:
    batch = hands(5)[::100_003]
    assert evaluate5(batch).tolist() == [evaluate5(list(map(int, h))) for h in batch]
    assert evaluate5(batch.astype(np.int64)).tolist() == evaluate5(batch).tolist()
    assert evaluate5(np.empty((0, 5), dtype=np.uint8)).shape == (0,)


@pytest.mark.parametrize(
    ("hands", "message"),
    [
        (np.array([[0, 1, 2, 3, 3]], dtype=np.uint8), r"row 0 is not a hand of 5 different cards"),
        (np.array([[0, 1, 2, 3, 52]], dtype=np.uint8), r"row 0 is not a hand"),
        (np.array([[0, 1, 2, 3, 52]]), r"card indices must be 0..51"),
        (np.array([[0, 1, 2, 3]]), r"shape \(n, 5\)"),
        (np.array([[0.0, 1, 2, 3, 4]]), r"must be integers"),
    ],
)
def test_bad_arrays_are_refused(hands: np.ndarray, message: str) -> None:
    with pytest.raises(HandError, match=message):
        evaluate5(hands)


def test_bad_single_hands_are_refused() -> None:
    with pytest.raises(HandError, match="has 5 cards, not 4"):
        evaluate5("As Kd Qh Jc")
    with pytest.raises(ValueError, match="appears twice"):
        evaluate5("As Kd Qh Jc As")
    with pytest.raises(ValueError, match="not a five-card poker hand value"):
        FIVE_CARD.describe(7462)


def test_one_hand_valued_again_is_the_same_in_any_order_and_form() -> None:
    rng = np.random.default_rng(5)
    for evaluator in (evaluate3, evaluate4of5, evaluate5, evaluate6, evaluate7):
        batch = np.array([rng.permutation(52)[: evaluator.size] for _ in range(200)])
        values = evaluator(batch).tolist()
        for row, value in zip(batch, values, strict=True):
            cards = [int(c) for c in row]
            assert evaluator(cards) == evaluator(cards) == value  # the second one kept
            assert evaluator([Card(c) for c in reversed(cards)]) == value
            assert evaluator(row) == evaluator(tuple(cards)) == value
            assert evaluator(format_cards(cards)) == value


def test_a_kept_hand_does_not_let_a_look_alike_through() -> None:
    assert evaluate3([1, 2, 3]) == evaluate3([1, 2, 3])  # kept
    with pytest.raises(ValueError, match=r"an integer 0\.\.51, not True"):
        evaluate3([True, 2, 3])  # equal to (1, 2, 3) as a key, but not a card
    with pytest.raises(ValueError, match="appears twice"):
        evaluate3([2, 2, 3])
    with pytest.raises(HandError, match="has 3 cards, not 4"):
        evaluate3([1, 2, 3, 4])
    with pytest.raises(ValueError, match=r"0\.\.51, not 52"):
        evaluate3([1, 2, 52])
    assert evaluate3([np.int64(1), np.uint8(2), 3]) == evaluate3([1, 2, 3])


def test_one_hand_is_valued_by_its_ranking_as_the_kernels_value_it() -> None:
    """A single hand is valued in plain Python by its ranking (a round settled by a
    command loads no compiled code): every Tri-Card hand and random hands of every
    other evaluator to the kernels' values, and numba is never imported for them."""
    import subprocess
    import sys

    every3 = hands(3)
    assert [THREE_CARD.value(list(map(int, h))) for h in every3] == evaluate3(every3).tolist()
    rng = np.random.default_rng(28)
    for evaluator in (evaluate4of5, evaluate5, evaluate6, evaluate7):
        batch = np.array([rng.permutation(52)[: evaluator.size] for _ in range(2000)])
        ranking = evaluator.ranking
        assert [ranking.value(list(map(int, h))) for h in batch] == evaluator(batch).tolist()
    one_each = (
        "import sys; from riverboat.hands import evaluate3, evaluate4of5, evaluate5, "
        "evaluate6, evaluate7; evaluate3([0, 5, 10]); evaluate4of5([0, 5, 10, 15, 20]); "
        "evaluate5([0, 5, 10, 15, 20]); evaluate6([0, 5, 10, 15, 20, 25]); "
        "evaluate7([0, 5, 10, 15, 20, 25, 30]); print('numba' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", one_each], capture_output=True, text=True)
    assert done.stdout.strip() == "False", done.stderr
