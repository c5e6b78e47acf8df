"""The ways the exact analysis counts faster give what the slower ways gave: outcome
classes found at the games' ranking keys equal those found by settling every pair of
values, suit classes found by card masks equal the least relabelling found by sorting,
the cumulative tables equal direct counts, the sweep over the dealer's hands counts what
the tables count, and a count on several threads equals one on a single thread."""

from dataclasses import replace
from itertools import permutations
from math import comb

import numpy as np
import pytest

from riverboat.analysis import _counting
from riverboat.analysis import headsup as headsup_module
from riverboat.analysis.adapters import heads_up_game
from riverboat.analysis.headsup import HeadsUpGame
from riverboat.analysis.solution import colex_index
from riverboat.games import crazy4, find_game, rabbit_hunter, tri_card

from reference import all_hands

POKER = {
    "tri-card": [
        *find_game("tri-card").variants.values(),
        tri_card.TriCardRules().with_tables(pair_plus="1-3-6-30-40", ante_bonus="1-10-12.5"),
    ],
    "crazy4": [*find_game("crazy4").variants.values(), crazy4.Crazy4Rules(ties_push=True)],
    "rabbit-hunter": [
        *find_game("rabbit-hunter").variants.values(),
        rabbit_hunter.RabbitHunterRules(max_payout=None),
    ],
}


def _same(first: tuple[np.ndarray, np.ndarray], second: tuple[np.ndarray, np.ndarray]) -> bool:
    return all(
        a.shape == b.shape and bool((a == b).all()) for a, b in zip(first, second, strict=True)
    )


@pytest.mark.parametrize(
    "rules", [rules for every in POKER.values() for rules in every], ids=lambda r: repr(r)[:40]
)
def test_classes_at_the_ranking_keys_are_those_of_settling_every_pair(rules: object) -> None:
    game = heads_up_game(rules)  # type: ignore[arg-type]
    assert game.settle_cuts is not None
    found = game._classes_at_cuts(game.settle_cuts)
    assert found is not None
    assert _same(found, game._classes_settling_all())


def test_a_missing_key_is_seen_and_every_pair_settled_instead() -> None:
    game = heads_up_game(rabbit_hunter.RabbitHunterRules())
    assert game.settle_cuts is not None
    qualifies = game.dealer_qualifies
    fewer = tuple(cut for cut in game.settle_cuts if cut != qualifies)
    assert game._classes_at_cuts(fewer) is None  # R5's qualifier cuts the Ante's results
    partial = replace(game, settle_cuts=fewer)
    assert _same(partial._find_classes(), game._classes_settling_all())


def _least_by_sorting(hand: np.ndarray) -> int:
    """The least colex index of ``hand``'s cards under the 24 relabellings of the suits."""
    best = None
    for perm in permutations(range(4)):
        cards = sorted((int(c) & ~3) | perm[int(c) & 3] for c in hand)
        index = sum(int(_counting.BINOMIAL[i + 1, c]) for i, c in enumerate(cards))
        best = index if best is None else min(best, index)
    assert best is not None
    return best


def test_suit_classes_by_card_masks_are_the_least_relabelling() -> None:
    three = _counting.canonical_hands(3)
    assert [_least_by_sorting(hand) for hand in all_hands(3)] == three.tolist()
    five = _counting.canonical_hands(5)
    hands = all_hands(5)
    sample = np.random.default_rng(28).choice(len(hands), 3_000, replace=False)
    assert [_least_by_sorting(hands[i]) for i in sample] == five[sample].tolist()
    assert len(np.unique(five)) == 134_459


def test_the_counting_tables_are_direct_counts() -> None:
    game = heads_up_game(crazy4.Crazy4Rules())
    values = game.dealer_values.astype(np.int64)
    cdf0, cdf1, cdf2, cdf3, quads = _counting.counting_tables(
        game.dealer_values, game.dealer_ranking.count
    )
    hands = all_hands(5)
    generator = np.random.default_rng(3)
    for x in generator.integers(0, game.dealer_ranking.count + 1, 4):
        below = values < x
        assert cdf0[x] == below.sum()
        for card in generator.integers(0, 52, 3):
            assert cdf1[x, card] == (below & (hands == card).any(axis=1)).sum()
        low, high = sorted(generator.choice(52, 2, replace=False))
        pair = low + high * (high - 1) // 2
        holds = (hands == low).any(axis=1) & (hands == high).any(axis=1)
        assert cdf2[x, pair] == (below & holds).sum()
        a, b, c = sorted(generator.choice(52, 3, replace=False))
        triple = a + b * (b - 1) // 2 + c * (c - 1) * (c - 2) // 6
        holds = (hands == a).any(axis=1) & (hands == b).any(axis=1) & (hands == c).any(axis=1)
        assert cdf3[x, triple] == (below & holds).sum()
    a, b, c, d = 3, 17, 30, 51
    quad = a + b * (b - 1) // 2 + c * (c - 1) * (c - 2) // 6 + d * (d - 1) * (d - 2) * (d - 3) // 24
    holds = np.all([(hands == card).any(axis=1) for card in (a, b, c, d)], axis=0)
    assert quads[quad].tolist() == sorted(values[holds].tolist())


def test_the_sweep_counts_what_the_tables_count() -> None:
    game = heads_up_game(crazy4.Crazy4Rules())
    boundaries, _ = game.classes
    hands = np.sort(all_hands(5), axis=1)
    cards = hands[np.random.default_rng(11).choice(len(hands), 2_000, replace=False)]
    cards = cards.astype(np.int64)
    values = game.player_values[colex_index(cards.astype(np.uint8))].astype(np.int64)
    levels = game.dealer_ranking.count
    swept = np.zeros((len(cards), boundaries.shape[1] - 1), np.int64)
    _counting.swept_class_counts(cards, values, boundaries, game.dealer_values, levels, swept)
    tables = _counting.counting_tables(game.dealer_values, levels)
    read = np.zeros_like(swept)
    rows = np.arange(len(cards))
    _counting.class_counts(cards, values, boundaries, game.dealer_values, tables, rows, read)
    assert np.array_equal(swept, read)
    assert (swept.sum(axis=1) == comb(47, 5)).all()  # every dealer hand in one class


def test_a_model_counts_by_the_sweep_until_it_has_the_tables() -> None:
    game = heads_up_game(crazy4.Crazy4Rules())
    hands = all_hands(5)[np.random.default_rng(5).choice(comb(52, 5), 300, replace=False)]
    swept = game.count(hands)
    assert "_tables" not in game.__dict__  # the sweep built none
    game.__dict__["_tables"] = _counting.counting_tables(
        game.dealer_values, game.dealer_ranking.count
    )
    read = game.count(hands)
    assert all(np.array_equal(a, b) for a, b in zip(swept, read, strict=True))


@pytest.mark.parametrize("game_name", ["crazy4", "rabbit-hunter"])
def test_a_count_on_threads_is_the_count_on_one(
    game_name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = find_game(game_name).rules()
    hands = all_hands(5)
    sample = hands[np.random.default_rng(7).choice(len(hands), 600, replace=False)]
    monkeypatch.setattr(headsup_module, "_threads", lambda: 3)
    threaded = heads_up_game(rules).line_totals(sample)
    monkeypatch.setattr(headsup_module, "_threads", lambda: 1)
    alone: HeadsUpGame = heads_up_game(rules)
    single = alone.line_totals(sample)
    for name, array in threaded.arrays().items():
        assert np.array_equal(array, single.arrays()[name]), name


def test_the_progress_of_a_count_is_drawn_on_standard_error_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import io
    import sys

    from riverboat.cli import _output

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    err, out = Terminal(), Terminal()
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setattr(sys, "stdout", out)
    with _output._progress_bar() as progress:
        assert progress is not None
        progress(1, 2)
    assert "counting every deal" in err.getvalue()
    assert out.getvalue() == ""  # a report on standard output stays whole (--format json)
