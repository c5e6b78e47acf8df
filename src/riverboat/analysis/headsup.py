"""Exact analysis of a heads-up poker game: every player hand against every dealer hand.

The method, for any game described by a :class:`HeadsUpGame`:

1. **Outcome classes.** For each player value p the game's own ``settle`` is run
   against every dealer value; the dealer values where no line's result changes
   form runs ``[b_k, b_k+1)``, the outcome classes of p, each with its results.
2. **Counting.** For each player hand (one per suit-symmetry class, with its
   multiplicity) the dealer hands left in each class are counted exactly
   (:mod:`riverboat.analysis._counting`); a hand that draws (the rabbit) is
   counted for each card it may draw.
3. **Expected values.** Counts times class results give each option's total
   result per line, as integers; any wager combination is a weighted sum of lines,
   so the best option for every hand and every wager combination follows without
   counting again.

The classes, the suit-symmetry classes and the counts are kept on disk once per
machine and rules (:mod:`riverboat.analysis.disk_cache`): a later process reads them.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cached_property
from math import comb, lcm
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from riverboat.analysis import disk_cache
from riverboat.analysis.solution import Counted, Solution, colex_index, narrow
from riverboat.games import GameRules
from riverboat.games.rules import PayTable, RulesError
from riverboat.hands import HandRanking

if TYPE_CHECKING:  # the counting kernels (numba) load when something is counted
    from riverboat.analysis import _counting

__all__ = ["HeadsUpGame", "Option", "unit_stake"]

Int64s = npt.NDArray[np.int64]


@dataclass(frozen=True)
class Option:
    """A decision the analyzer weighs.

    ``name`` tells it apart from the game's other options (``play3x``: the Play for
    3 Antes); ``action`` is the engine's action for it (the spec's, None where
    nothing is decided) and ``bet`` what it adds to the amount wagered, in Antes, so
    a front end sends ``wager(ante)``. ``settle_code`` is what the game's settle
    function takes for it; ``draws`` whether it deals the player one more card;
    ``from_value`` the weakest player value allowed to take it; ``needs``/``excludes``
    a wager that must be placed/absent for it.

    >>> Option("play3x", "Play 3x", 3, bet=Fraction(3), action="play").wager(500)
    ('play', 1500)
    """

    name: str
    label: str
    settle_code: int
    bet: Fraction = Fraction(0)
    draws: bool = False
    from_value: int = 0
    needs: str | None = "ante"
    excludes: str | None = None
    action: str | None = None

    def wager(self, ante: int) -> tuple[str, int]:
        """The engine's ``(action, amount)`` for this option on an Ante of ``ante`` cents."""
        if self.action is None:
            raise RulesError(f"{self.label} is not a decision the engine takes")
        return self.action, int(self.bet * ante)


def unit_stake(rules: object) -> int:
    """The smallest stake on which every payout of ``rules`` is a whole number:
    the least common multiple of the denominators of its fractions (3 to 2 -> 2)."""
    denominators = [1]

    def walk(value: object) -> None:
        if isinstance(value, Fraction):
            denominators.append(value.denominator)
        elif isinstance(value, tuple | list):
            for item in value:
                walk(item)
        elif hasattr(value, "__dataclass_fields__"):
            for name in value.__dataclass_fields__:
                walk(getattr(value, name))

    walk(rules)
    return lcm(*denominators)


@dataclass(frozen=True)
class HeadsUpGame:
    """What the analyzer needs to know of a game where one player meets one dealer.

    ``settle(p, d, option, stakes)`` must call the game's own settle function with
    player values ``p``, dealer values ``d`` (arrays), the option's code and the
    wager amounts in ``stakes``, and return its lines.
    """

    name: str
    rules: GameRules
    size: int  # cards in the player's and the dealer's hands: 3 or 5
    #: the values of every player's and every dealer's hand by colex index, made when
    #: first read (:attr:`player_values`; the compiled kernels load then)
    player_table: Callable[[], npt.NDArray[np.int16]]
    dealer_table: Callable[[], npt.NDArray[np.int16]]
    player_ranking: HandRanking
    dealer_ranking: HandRanking
    dealer_qualifies: int  # the weakest qualifying dealer value
    wagers: tuple[str, ...]  # initial wagers, the first the base (the ante)
    line_wagers: Mapping[str, str]  # each settlement line and the wager it belongs to
    options: tuple[Option, ...]
    settle: Callable[
        [npt.ArrayLike, npt.ArrayLike, Option, Mapping[str, int]], Mapping[str, Int64s]
    ]
    extra_card: bool = False  # some option draws a card: every deal counts it
    pay_tables: Mapping[str, PayTable] = field(default_factory=dict)  # wagers paid on the hand
    #: where the game names the ranking keys its settle reads hands by (GameMath's
    #: settle_keys), the least value of each: settle reads the dealer's value only by
    #: them and by comparing it with the player's, so its outcome classes are found
    #: by settling a few values (:meth:`_classes_at_cuts`)
    settle_cuts: tuple[int, ...] | None = None

    @cached_property
    def player_values(self) -> npt.NDArray[np.int16]:
        """Every player hand's value, by colex index (made at first use: a hint read
        from a kept count never needs it)."""
        return self.player_table()

    @cached_property
    def dealer_values(self) -> npt.NDArray[np.int16]:
        """Every dealer hand's value, by colex index (made at first use)."""
        return self.dealer_table()

    @cached_property
    def unit(self) -> int:
        return unit_stake(self.rules)

    @cached_property
    def lines(self) -> tuple[str, ...]:
        return tuple(self.line_wagers)

    @cached_property
    def cycle(self) -> int:
        """How many deals the analysis counts: ordered as dealt."""
        deals = comb(52, self.size) * comb(52 - self.size, self.size)
        return deals * (52 - 2 * self.size) if self.extra_card else deals

    # ------------------------------------------------------------ classes
    @cached_property
    def classes(self) -> tuple[Int64s, Int64s]:
        """Boundaries ``[p, k]`` of each player value's outcome classes (padded with
        the last) and results ``[option, p, k, line]`` with every wager at :attr:`unit`;
        found once per machine (:mod:`riverboat.analysis.disk_cache`)."""
        return disk_cache.remember(
            disk_cache.CacheKey(self.name, "classes", self.rules),
            self._find_classes,
            self._classes_from,
            lambda found: {"boundaries": found[0], "results": found[1]},
        )

    def _classes_from(self, arrays: disk_cache.Arrays) -> tuple[Int64s, Int64s]:
        """Stored classes, checked against this game's shape."""
        boundaries, results = arrays["boundaries"], arrays["results"]
        levels = self.player_ranking.count
        shape = (len(self.options), levels, boundaries.shape[1] - 1, len(self.lines))
        if boundaries.ndim != 2 or boundaries.shape[0] != levels or results.shape != shape:
            raise ValueError("its classes do not fit this game")
        return boundaries.astype(np.int64, copy=False), results.astype(np.int64, copy=False)

    def _find_classes(self) -> tuple[Int64s, Int64s]:
        """:attr:`classes` found from the game's settle: at the values its ranking keys
        and the comparison of the hands cut the dealer's values at, where the game
        names its keys (:attr:`settle_cuts`) and the two settle alike at both ends of
        every piece; otherwise on every pair of values."""
        if self.settle_cuts is not None and self.player_ranking == self.dealer_ranking:
            found = self._classes_at_cuts(self.settle_cuts)
            if found is not None:
                return found
        return self._classes_settling_all()

    def _classes_at_cuts(self, cuts: tuple[int, ...]) -> tuple[Int64s, Int64s] | None:
        """:attr:`classes` from the pieces ``cuts`` and each player value p (below p,
        p, above p) cut the dealer's values into: settled at each piece's first and
        last value, which must agree (else None: a key is missing), and neighbouring
        pieces that settle alike joined. The same classes as settling every pair."""
        levels_p, levels_d = self.player_ranking.count, self.dealer_ranking.count
        stakes = dict.fromkeys(self.wagers, self.unit)
        player = np.arange(levels_p, dtype=np.int64)[:, None]
        inner = np.array(sorted({c for c in cuts if 0 < c < levels_d}), dtype=np.int64)
        starts = np.concatenate(
            [
                np.zeros((levels_p, 1), np.int64),
                np.broadcast_to(inner, (levels_p, len(inner))),
                player,
                player + 1,
            ],
            axis=1,
        )
        starts = np.sort(np.minimum(starts, levels_d), axis=1)
        again = np.zeros(starts.shape, dtype=bool)
        again[:, 1:] = starts[:, 1:] == starts[:, :-1]
        starts = np.sort(np.where(again, levels_d, starts), axis=1)  # each piece once
        present = starts < levels_d
        ends = np.concatenate([starts[:, 1:], np.full((levels_p, 1), levels_d)], axis=1) - 1
        first, last = np.minimum(starts, levels_d - 1), np.minimum(ends, levels_d - 1)
        changes = np.zeros(starts.shape, dtype=bool)
        for option in self.options:
            at_first = self.settle(player, first, option, stakes)
            at_last = self.settle(player, last, option, stakes)
            for line, result in at_first.items():
                result = np.broadcast_to(result, starts.shape)
                if np.any((result != at_last[line]) & present):
                    return None
                changes[:, 1:] |= result[:, 1:] != result[:, :-1]
        kept = changes & present
        kept[:, 0] = True
        width = int(kept.sum(axis=1).max()) + 1
        boundaries = np.full((levels_p, width), levels_d, dtype=np.int64)
        chosen = np.sort(np.where(kept, starts, levels_d), axis=1)[:, :width]
        boundaries[:, : chosen.shape[1]] = chosen
        return boundaries, self.results_at(boundaries)

    def _classes_settling_all(self) -> tuple[Int64s, Int64s]:
        """:attr:`classes` found by running the game's settle on every pair of values."""
        levels_p, levels_d = self.player_ranking.count, self.dealer_ranking.count
        stakes = dict.fromkeys(self.wagers, self.unit)
        changed = np.zeros((levels_p, levels_d - 1), dtype=bool)
        dealer = np.arange(levels_d)[None, :]
        for first in range(0, levels_p, 8):  # small blocks: settle's arrays stay in cache
            player = np.arange(first, min(first + 8, levels_p))[:, None]
            block = changed[first : first + len(player)]
            for option in self.options:
                for result in self.settle(player, dealer, option, stakes).values():
                    line = np.broadcast_to(result, (len(player), levels_d))
                    block |= line[:, 1:] != line[:, :-1]
        sizes = changed.sum(axis=1) + 1  # classes of each player value
        width = int(sizes.max()) + 1
        boundaries = np.full((levels_p, width), levels_d, dtype=np.int64)
        boundaries[:, 0] = 0
        rows, columns = np.nonzero(changed)
        place = np.arange(len(rows)) - np.repeat(np.cumsum(sizes - 1) - (sizes - 1), sizes - 1)
        boundaries[rows, place + 1] = columns + 1
        return boundaries, self.results_at(boundaries)

    def results_at(self, boundaries: Int64s, unit: int | None = None) -> Int64s:
        """The results ``[option, p, k, line]`` of the outcome classes ``boundaries``
        marks, every wager at ``unit`` (default :attr:`unit`): the game's settle run
        once at each class's first dealer value (0 for a padding class)."""
        levels_p, levels_d = self.player_ranking.count, self.dealer_ranking.count
        stakes = dict.fromkeys(self.wagers, self.unit if unit is None else unit)
        starts = np.minimum(boundaries[:, :-1], levels_d - 1)
        present = boundaries[:, :-1] < levels_d
        player_values = np.arange(levels_p)[:, None]
        results = np.zeros(
            (len(self.options), levels_p, boundaries.shape[1] - 1, len(self.lines)),
            dtype=np.int64,
        )
        for i, option in enumerate(self.options):
            lines = self.settle(player_values, starts, option, stakes).values()
            for j, result in enumerate(lines):
                results[i, :, :, j] = np.where(present, result, 0)
        return results

    # ----------------------------------------------------------- counting
    @cached_property
    def suit_classes(self) -> Int64s:
        """For every player hand (by colex index), the colex index of the least hand
        its suits can be relabelled to: its suit-symmetry class (kept on disk)."""
        from riverboat.analysis import _counting

        least: Int64s = disk_cache.remember(
            disk_cache.CacheKey("hands", f"suit-classes-{self.size}", {"size": self.size}),
            lambda: _counting.canonical_hands(self.size),
            self._suit_classes_from,
            lambda least: {"least": narrow(least)},
        )
        return least

    def _suit_classes_from(self, arrays: disk_cache.Arrays) -> Int64s:
        least = arrays["least"]
        if least.shape != (comb(52, self.size),):
            raise ValueError(f"it is not one class per {self.size}-card hand")
        return least.astype(np.int64)

    @cached_property
    def hands(self) -> tuple[npt.NDArray[np.uint8], Int64s]:
        """One player hand per suit-symmetry class, and how many hands it stands for."""
        from riverboat.analysis import _counting

        sizes = np.bincount(self.suit_classes)  # np.unique's counts, without sorting
        representatives = np.flatnonzero(sizes)
        return _counting.all_hands(self.size)[representatives], sizes[representatives]

    @cached_property
    def _tables(self) -> _counting.Tables:
        """The five-card counting tables (:func:`_counting.counting_tables`)."""
        from riverboat.analysis import _counting

        return _counting.counting_tables(self.dealer_values, self.dealer_ranking.count)

    @cached_property
    def _small_tables(self) -> tuple[Int64s, Int64s, Int64s]:
        return _small_hand_tables(self.dealer_values, self.dealer_ranking.count, self.size)

    def count(self, hands: npt.NDArray[np.uint8]) -> tuple[Int64s, Int64s]:
        """Dealer hands per outcome class for each hand: (player values, counts [n, k])."""
        from riverboat.analysis import _counting

        boundaries, _ = self.classes
        hands = np.sort(hands, axis=1)  # the kernels read subsets of sorted cards
        values = self.player_values[colex_index(hands)].astype(np.int64)
        counts = np.zeros((len(hands), boundaries.shape[1] - 1), dtype=np.int64)
        if self.size == 5 and "_tables" not in self.__dict__ and not self.extra_card:
            # no tables built, and no drawn card to need them: one pass over the dealer's
            _counting.swept_class_counts(
                hands.astype(np.int64),
                values,
                boundaries,
                self.dealer_values,
                self.dealer_ranking.count,
                counts,
            )
        elif self.size == 5:
            cards, tables = hands.astype(np.int64), self._tables
            by_value = np.argsort(values, kind="stable")  # hands of a value read the same rows
            _in_threads(
                lambda rows: _counting.class_counts(
                    cards, values, boundaries, self.dealer_values, tables, rows, counts
                ),
                np.array_split(by_value, _threads()),
            )
        elif self.size <= 3:
            counts[:] = _small_hand_counts(
                hands, values, boundaries, self.dealer_values, *self._small_tables
            )
        else:
            raise RulesError(f"{self.name}: hands of {self.size} cards are not counted")
        return values, counts

    def count_draws(
        self,
        hands: npt.NDArray[np.uint8],
        progress: Callable[[int, int], None] | None = None,
    ) -> tuple[Int64s, Int64s, Int64s]:
        """For hands that draw a card: the dealer hands per outcome class over the cards
        that make each best value, as rows (hand, best value, counts [m, k]) by hand,
        then value (``progress(done, total)`` hears of each part counted)."""
        from riverboat.analysis import _counting

        boundaries, _ = self.classes
        n = len(hands)
        cards = np.sort(hands, axis=1).astype(np.int64)  # the kernels read sorted cards
        best = np.zeros((n, 47), dtype=np.int16)
        rank = np.zeros((n, 47), dtype=np.int8)
        distinct = np.zeros((n, 47), dtype=np.int16)
        kinds = np.zeros(n, dtype=np.int64)
        values, tables = self.dealer_values, self._tables
        _in_threads(
            lambda part: _counting.draw_bests(
                cards[part], values, best[part], rank[part], distinct[part], kinds[part]
            ),
            [slice(first, first + 4096) for first in range(0, n, 4096)],
        )
        first_row = np.concatenate([[0], np.cumsum(kinds)])
        row_of = (first_row[:-1, None] + rank).astype(np.int64)
        hand = np.repeat(np.arange(n, dtype=np.int64), kinds)
        value = distinct[np.arange(47) < kinds[:, None]].astype(np.int64)
        drawn = np.zeros((len(hand), boundaries.shape[1] - 1), dtype=np.int64)
        # every (hand, card) pair by best value: a value's pairs read the same table rows;
        # parts begin at a new value, so no two threads add to one row
        order = np.argsort(best.ravel(), kind="stable").astype(np.int64)
        ordered = best.ravel()[order]
        cuts = np.searchsorted(ordered, ordered[np.linspace(0, len(order), 33)[1:-1].astype(int)])
        parts = np.split(order, np.unique(cuts))
        _in_threads(
            lambda part: _counting.draw_class_counts(
                cards, best, row_of, part, boundaries, values, tables, drawn
            ),
            parts,
            None if progress is None else lambda done: progress(done, len(parts)),
        )
        return hand, value, drawn

    # ------------------------------------------------------------- solving
    def line_totals(
        self, hands: npt.NDArray[np.uint8], progress: Callable[[int, int], None] | None = None
    ) -> Counted:
        """Every hand's dealer counts per outcome class, and the total result
        ``[n, option, line]`` over every deal of each hand, in 1/:attr:`unit` of a
        stake (each wager one unit). ``progress(done, total)`` hears of long work."""
        _, results = self.classes
        values, counts = self.count(hands)
        totals = np.zeros((len(hands), len(self.options), len(self.lines)), dtype=np.int64)
        for i, option in enumerate(self.options):
            if not option.draws:
                totals[:, i] = (
                    np.einsum("nk,nkl->nl", counts, results[i, values]) * self.extra_factor
                )
        drawing = [i for i, o in enumerate(self.options) if o.draws]
        if not drawing:
            empty = np.zeros(0, np.int64)
            return Counted(values, counts, empty, empty, np.zeros((0, 0), np.int64), totals)
        hand, value, drawn = self.count_draws(hands, progress)
        starts = np.searchsorted(hand, np.arange(len(hands)))  # every hand has a row
        step = 4096  # hands at a time: results[i, value] is large
        for first in range(0, len(hands), step):
            last = min(first + step, len(hands))
            low, high = starts[first], starts[last] if last < len(hands) else len(hand)
            for i in drawing:
                by_row = np.einsum("mk,mkl->ml", drawn[low:high], results[i, value[low:high]])
                totals[first:last, i] = np.add.reduceat(by_row, starts[first:last] - low)
        return Counted(values, counts, hand, value, drawn, totals)

    def recounted(self, counted: Counted) -> Counted:
        """``counted``'s dealer counts with this game's line totals: for a game whose
        outcome classes are those ``counted`` was counted with (the same game with other
        pays, :mod:`riverboat.analysis.design`), without counting again."""
        _, results = self.classes
        totals = np.zeros_like(counted.totals)
        for i, option in enumerate(self.options):
            if not option.draws:
                totals[:, i] = np.einsum(
                    "nk,nkl->nl", counted.counts, results[i, counted.values]
                ) * self.extra_factor
                continue
            drawn = np.einsum(
                "mk,mkl->ml", counted.draw_counts, results[i, counted.draw_value]
            )
            np.add.at(totals[:, i], counted.draw_hand, drawn)
        return replace(counted, totals=totals)

    @property
    def extra_factor(self) -> int:
        """Deals per dealer hand: the cards a drawing option might take."""
        return 52 - 2 * self.size if self.extra_card else 1

    def counted(self, progress: Callable[[int, int], None] | None = None) -> Counted:
        """Counts and line totals of every hand class, whatever the wagers: counted
        once per machine (:mod:`riverboat.analysis.disk_cache`), then kept in memory
        (``progress`` hears of a count)."""
        if "_counted" not in self.__dict__:
            self.__dict__["_counted"] = disk_cache.remember(
                self.counted_key,
                lambda: self.line_totals(self.hands[0], progress),
                self._counted_from,
                lambda counted: {
                    "hands": self.hands[0],
                    "weights": self.hands[1],
                    **counted.arrays(),
                },
            )
        counted: Counted = self.__dict__["_counted"]
        return counted

    @property
    def counts_at_once(self) -> bool:
        """Whether counting every hand class takes a moment (hands of three cards: 1,755
        classes, each against the dealer hands of 49 cards), not tens of seconds."""
        return self.size <= 3

    def keep_count(self) -> None:
        """Count every hand class now and keep the count on disk, unless it is kept
        already: later hints read their hand's row there, in any process, without the
        compiled kernels (:func:`riverboat.analysis.hints.kept_line_totals`)."""
        if "_counted" not in self.__dict__ and not self.counted_key.path.is_file():
            self.counted()

    @property
    def counted_key(self) -> disk_cache.CacheKey:
        """Where :meth:`counted` keeps its counts (:mod:`riverboat.analysis.hints` reads
        one hand's row there)."""
        return disk_cache.CacheKey(self.name, "counted", self.rules)

    def _counted_from(self, arrays: disk_cache.Arrays) -> Counted:
        """Stored counts, checked against this game's shape; the hand classes with them."""
        counted = Counted.from_arrays(arrays)
        hands, weights = arrays["hands"], arrays["weights"]
        n = len(counted.values)
        if (
            hands.shape != (n, self.size)
            or weights.shape != (n,)
            or counted.totals.shape != (n, len(self.options), len(self.lines))
            or counted.counts.shape[1] != self.classes[0].shape[1] - 1
        ):
            raise ValueError("its counts do not fit this game")
        self.__dict__.setdefault("hands", (hands.astype(np.uint8), weights.astype(np.int64)))
        return counted

    def solve(
        self,
        wagers: Mapping[str, Fraction],
        hands: npt.NDArray[np.uint8] | None = None,
        progress: Callable[[int, int], None] | None = None,
    ) -> Solution:
        """The best option for every hand class (or for ``hands``) given the wagers, in antes."""
        if hands is None:
            counted = self.counted(progress)  # first: a kept count brings the hands with it
            return Solution(self, dict(wagers), self.hands[0], self.hands[1], counted)
        weights = np.ones(len(hands), dtype=np.int64)
        return Solution(self, dict(wagers), hands, weights, self.line_totals(hands))


def _threads() -> int:
    """Threads for one count: the processor cores this process may use."""
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1)


def _in_threads(
    work: Callable[[Any], None],
    parts: Sequence[Any],
    done: Callable[[int], None] | None = None,
) -> None:
    """``work(part)`` for every part, on :func:`_threads` threads (the kernels hold no
    lock); ``done(parts done)`` after each."""
    if _threads() == 1 or len(parts) == 1:
        for finished, part in enumerate(parts, 1):
            work(part)
            if done is not None:
                done(finished)
        return
    with ThreadPoolExecutor(_threads()) as pool:
        for finished, _ in enumerate(pool.map(work, parts), 1):
            if done is not None:
                done(finished)


def _small_hand_tables(
    values: npt.NDArray[np.int16], levels: int, k: int
) -> tuple[Int64s, Int64s, Int64s]:
    """Cumulative counts of k-card hands (k <= 3) below each value: all, holding a
    card, holding a pair of cards (k = 3; for fewer cards that term is the hand)."""
    from riverboat.analysis import _counting

    hands = _counting.all_hands(k).astype(np.int64)
    v = values.astype(np.int64) + 1
    cdf0 = np.bincount(v, minlength=levels + 1).cumsum()
    cdf1 = np.zeros((52, levels + 1), dtype=np.int64)
    cdf2 = np.zeros((1326 if k == 3 else 0, levels + 1), dtype=np.int64)
    for i in range(k):
        np.add.at(cdf1, (hands[:, i], v), 1)
    for i, j in [(0, 1), (0, 2), (1, 2)] if k == 3 else []:  # for fewer cards, the hand
        np.add.at(cdf2, (_pair_index(hands[:, i], hands[:, j]), v), 1)
    return cdf0, cdf1.cumsum(axis=1), cdf2.cumsum(axis=1)


def _pair_index(low: Int64s, high: Int64s) -> Int64s:
    return low + high * (high - 1) // 2


def _small_hand_counts(
    hands: npt.NDArray[np.uint8],
    values: Int64s,
    boundaries: Int64s,
    dealer_values: npt.NDArray[np.int16],
    cdf0: Int64s,
    cdf1: Int64s,
    cdf2: Int64s,
) -> Int64s:
    """Dealer k-card hands (k <= 3) avoiding each player hand, per outcome class: by
    inclusion and exclusion over the player's cards, the hand itself last."""
    k = hands.shape[1]
    h = np.sort(hands.astype(np.int64), axis=1)
    own = dealer_values[colex_index(hands)].astype(np.int64)
    x = boundaries[values]  # [n, k + 1]
    below: Int64s = cdf0[x]
    if k > 1:
        below = below - sum(cdf1[h[:, i, None], x] for i in range(k))
    if k > 2:
        below = below + sum(
            cdf2[_pair_index(h[:, i], h[:, j])[:, None], x]
            for i in range(k)
            for j in range(i + 1, k)
        )
    below = below + (-1) ** k * (own[:, None] < x)
    counts: Int64s = np.diff(below, axis=1)
    return counts


def option_index(game: HeadsUpGame, name: str) -> int:
    for i, option in enumerate(game.options):
        if option.name == name:
            return i
    raise KeyError(name)
