"""Randomness through one door (G2, ARCHITECTURE principle 4) and provably fair orders."""

import ast
import hashlib
import hmac
import math
import sys
from collections.abc import Callable, Iterator
from itertools import product
from pathlib import Path

import numpy as np
import pytest

import riverboat
from riverboat import fairness
from riverboat.fairness import (
    HmacStream,
    commitment,
    derive_order,
    fisher_yates,
    verify_order,
)
from riverboat.rng import (
    FairSource,
    SecureSource,
    SeededSource,
    chunk_generator,
    deal_hands,
    deal_prefixes,
    shuffled,
    shuffled_shoes,
)

SERVER_SEED = "8d9c1f0e6b2a4c3d5e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5"


@pytest.mark.parametrize("n", [3, 4, 5])
def test_every_permutation_is_reached_by_exactly_one_draw_sequence(n: int) -> None:
    bounds = range(n, 1, -1)  # Fisher-Yates draws below n, n-1, ..., 2
    orders = []
    for draws in product(*(range(b) for b in bounds)):
        queue = list(draws)

        def scripted(bound: int, queue: list[int] = queue) -> int:
            value = queue.pop(0)
            assert value < bound
            return value

        items = list(range(n))
        fisher_yates(items, scripted)
        assert not queue
        orders.append(tuple(items))
    assert len(orders) == math.factorial(n)
    assert len(set(orders)) == math.factorial(n)


def test_fisher_yates_refuses_an_out_of_range_draw() -> None:
    with pytest.raises(ValueError, match="outside"):
        fisher_yates([1, 2, 3], lambda bound: bound)


def _position_counts(orders: Iterator[list[int]]) -> np.ndarray:
    counts = np.zeros((52, 52), dtype=np.int64)
    for order in orders:
        counts[order, np.arange(52)] += 1
    return counts


SHUFFLES = 15_600  # 300 expected per card and position


def _seeded_orders() -> Iterator[list[int]]:
    source = SeededSource(20261130)
    return (shuffled(52, source) for _ in range(SHUFFLES))


def _fair_orders() -> Iterator[list[int]]:
    # as in play: one deck per nonce
    return (derive_order(SERVER_SEED, "chi-square", nonce) for nonce in range(SHUFFLES))


def _passes_uniformity(counts: np.ndarray) -> bool:
    from scipy.stats import chi2  # imported here: scipy.stats is slow to import on collection

    expected = counts.sum() / counts.size
    statistic = ((counts - expected) ** 2 / expected).sum(axis=1)
    # one chi-square test per card with 51 degrees of freedom; Bonferroni keeps the
    # whole family of 52 tests at 99%; and the whole table, (52 - 1)**2 degrees of freedom
    per_card = statistic.max() < chi2.ppf(1 - 0.01 / 52, df=51)
    return bool(per_card and statistic.sum() < chi2.ppf(0.99, df=51 * 51))


@pytest.mark.parametrize("orders", [_seeded_orders, _fair_orders], ids=["seeded", "provably-fair"])
def test_each_card_is_uniform_over_the_52_positions(
    orders: Callable[[], Iterator[list[int]]],
) -> None:
    assert _passes_uniformity(_position_counts(orders()))


def test_bulk_deals_put_each_card_uniformly_in_each_position() -> None:
    # the simulator's compiled Fisher-Yates (two Lemire draws to a 64-bit word), dealt
    # to the bottom of the deck: whole shuffles
    whole = deal_prefixes(chunk_generator(20261130, 0), SHUFFLES, 52)
    assert (np.sort(whole, axis=1) == np.arange(52)).all()
    assert _passes_uniformity(_position_counts(iter(whole.tolist())))
    shoes = shuffled_shoes(chunk_generator(20261130, 1), SHUFFLES // 8, 8)
    assert (np.sort(shoes, axis=1) == np.sort(np.arange(416) % 52)).all()
    assert _passes_uniformity(_position_counts(iter(shoes[:, :52].tolist())))


def test_bulk_deals_read_the_stream_in_order_whatever_the_calls() -> None:
    sizes = (5, 5, 1)
    whole = deal_hands(chunk_generator(7, 3), 1_000, sizes)
    generator = chunk_generator(7, 3)
    parts = [deal_hands(generator, n, sizes) for n in (1, 299, 700)]
    for h in range(len(sizes)):
        assert np.array_equal(whole[h], np.concatenate([part[h] for part in parts]))
    assert np.array_equal(
        deal_prefixes(chunk_generator(7, 3), 1_000, 11), np.concatenate(whole, axis=1)
    )
    dealt = np.sort(np.concatenate(whole, axis=1), axis=1)
    assert (dealt[:, 1:] > dealt[:, :-1]).all()  # eleven different cards a row
    assert not np.array_equal(whole[0], deal_hands(chunk_generator(7, 4), 1_000, sizes)[0])
    with pytest.raises(ValueError, match="cannot deal"):
        deal_hands(chunk_generator(7, 3), 1, (30, 30))


def test_bulk_draws_reject_the_biased_tail() -> None:
    # a scripted stream of 64-bit words: low half first, then high half
    import ctypes

    from riverboat._rng_kernels import fisher_yates_hands

    words = [(2**31 << 32) | 0, 2**32 - 1]
    used: list[int] = []

    @ctypes.CFUNCTYPE(ctypes.c_uint64, ctypes.c_void_p)
    def next64(state: int) -> int:
        used.append(words[len(used)])
        return used[-1]

    hand = np.zeros((1, 2), dtype=np.uint8)
    fisher_yates_hands(next64, 0, 52, (hand,))
    # position 0: 0 * 52 leaves a low word 0 < 2**32 % 52 == 48, drawn again from the
    # low half of the next word: (2**32 - 1) * 52 >> 32 == 51; position 1: the first
    # word's high half, 2**31 * 51 >> 32 == 25 (2**32 % 51 == 1), so 1 + 25
    assert hand.tolist() == [[51, 26]]
    assert used == words


def test_the_uniformity_check_catches_modulo_bias() -> None:
    # one random byte taken modulo the bound: 256 % 52 == 48 favours low draws
    generator = SeededSource(1).generator

    def biased(bound: int) -> int:
        return int(generator.integers(256)) % bound

    def orders() -> Iterator[list[int]]:
        for _ in range(SHUFFLES):
            order = list(range(52))
            fisher_yates(order, biased)
            yield order

    assert not _passes_uniformity(_position_counts(orders()))


def test_golden_vectors_pin_the_derivation() -> None:
    # Pinned outputs of the specification in riverboat.fairness; a change here breaks
    # every published round's verification.
    # SHA-256 of 32 zero bytes, a well-known digest
    assert commitment("00" * 32) == (
        "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
    )
    assert derive_order("00" * 32, "", 0)[:10] == GOLDEN_ZERO_SEED
    assert derive_order(SERVER_SEED, "player-42", 7)[:10] == GOLDEN_PLAYER_42


GOLDEN_ZERO_SEED = [4, 18, 34, 25, 47, 5, 0, 40, 21, 19]
GOLDEN_PLAYER_42 = [31, 13, 27, 25, 35, 49, 28, 3, 41, 39]


def test_first_draw_follows_the_written_specification() -> None:
    # The spec, done by hand: first 4 bytes of HMAC-SHA256(seed, "client:nonce:0"),
    # big-endian, below 52 by rejection, then swapped into the last position.
    digest = hmac.new(bytes.fromhex(SERVER_SEED), b"abc:3:0", hashlib.sha256).digest()
    word = int.from_bytes(digest[:4], "big")
    assert word < 2**32 - 2**32 % 52  # this vector needs no rejection
    j = word % 52
    order = derive_order(SERVER_SEED, "abc", 3)
    assert order[51] == j


def test_rejection_sampling_discards_the_biased_tail() -> None:
    stream = HmacStream(SERVER_SEED, "x", 0)
    # 2**32 % 52 == 48: the top 48 words would favour the low cards, so they are drawn again
    stream._words, stream._next = (2**32 - 1, 2**32 - 48, 2**32 - 49), 0  # the block read next
    assert stream.randbelow(52) == (2**32 - 49) % 52


def test_verifier_accepts_the_truth_and_rejects_a_lie() -> None:
    source = FairSource(SERVER_SEED, "me", 3)
    order = shuffled(52, source)
    assert order == derive_order(SERVER_SEED, "me", 3)
    published = commitment(SERVER_SEED)
    assert verify_order(SERVER_SEED, "me", 3, order, published)
    assert verify_order(SERVER_SEED, "me", 3, order[:10], published)
    swapped = [order[1], order[0], *order[2:]]
    assert not verify_order(SERVER_SEED, "me", 3, swapped, published)
    assert not verify_order(SERVER_SEED, "me", 4, order, published)
    assert not verify_order(SERVER_SEED, "me", 3, order, "00" * 32)


def test_multi_deck_orders_verify() -> None:
    order = derive_order(SERVER_SEED, "shoe", 1, 416)
    assert sorted(order) == list(range(416))
    assert verify_order(SERVER_SEED, "shoe", 1, order[:30], deck_size=416)


@pytest.mark.parametrize(
    ("seed", "nonce", "message"),
    [("xyz", 0, "hexadecimal"), ("", 0, "must not be empty"), ("00", -1, "nonce")],
)
def test_bad_seeds_are_refused(seed: str, nonce: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        derive_order(seed, "c", nonce)


def test_fair_source_commits_before_it_reveals() -> None:
    source = FairSource.new(client_seed="mine")
    assert source.commitment == hashlib.sha256(bytes.fromhex(source.server_seed)).hexdigest()
    assert len(source.server_seed) == 64
    assert FairSource.new().client_seed  # a random client seed when none is given


def test_sources_shuffle_to_permutations() -> None:
    for source in (SecureSource(), SeededSource(3), FairSource.new()):
        assert sorted(shuffled(52, source)) == list(range(52))
    with pytest.raises(ValueError, match="seed must be a whole number"):
        SeededSource(-1)


def test_fairness_module_needs_only_the_standard_library() -> None:
    tree = ast.parse(Path(fairness.__file__).read_text())
    imported = {
        alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    } | {
        node.module.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module
    }
    assert imported <= set(sys.stdlib_module_names) | {"__future__"}


_RANDOM_MODULES = {"random", "secrets", "numpy.random", "uuid"}


def _draws_randomness(tree: ast.AST) -> list[str]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name in _RANDOM_MODULES]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = {f"{node.module}.{a.name}" for a in node.names} | {node.module}
            found += sorted(names & (_RANDOM_MODULES | {"os.urandom"}))
        elif isinstance(node, ast.Attribute) and node.attr in {"random", "urandom"}:
            found.append(ast.unparse(node))
    return found


def test_no_module_but_rng_draws_randomness() -> None:
    package = Path(riverboat.__file__).parent
    offenders = {
        str(path.relative_to(package)): hits
        for path in sorted(package.rglob("*.py"))
        if path.name != "rng.py" and (hits := _draws_randomness(ast.parse(path.read_text())))
    }
    assert offenders == {}


def test_the_randomness_scan_can_fail() -> None:
    assert _draws_randomness(ast.parse("import random"))
    assert _draws_randomness(ast.parse("x = np.random.default_rng()"))
    assert _draws_randomness(ast.parse("from os import urandom"))
    assert not _draws_randomness(ast.parse("import hashlib"))
