"""Benchmark riverboat's hand evaluators against per-hand Python poker evaluators.

What it measures, on one CPU core (the process pins itself to one core and sets
``NUMBA_NUM_THREADS=1`` before numba is imported):

* riverboat's batch evaluators ``evaluate5``, ``evaluate6``, ``evaluate7``,
  ``evaluate3`` and ``evaluate4of5``, each called once on an ``(n, k)`` ``uint8``
  array of random hands (``--hands``, default 2,000,000);
* **a bare numpy lookup** for each of them: ``table[indices]``, where ``table`` is the
  table of values that evaluator reads and ``indices`` (``intp``, worked out before
  the timing) are the entries it reads for the same hands, one a hand (the best four
  of five reads a second one for the 4.5% of hands with four cards of a suit: only the
  first is counted). That is the cost of fetching the answers alone once each hand's
  place is known: numpy's gather loop, and the waits on memory that the table's size
  and the order of the hands cause. The evaluator sorts, checks and indexes each hand
  as well, so a fraction near 1 or above says that work costs no more than the fetch;
* with ``--baseline-ref GIT_REF``, the colex kernels of that ref (its
  ``src/riverboat/hands/_kernels.py``, imported on its own: ``lookup5`` over the table
  of all 2,598,960 five-card hands, ``best5of6`` and ``best5of7`` over it, Crazy 4's
  best four of five by the same index) on the same hands, checked to give the same
  values, with their own numpy lookup where they read one entry a hand;
* the peers phevaluator, eval7 and pkrbot through their public per-hand Python
  APIs, called in a Python loop over the first ``--peer-hands`` (default 200,000)
  of the same hands, converted beforehand into each peer's own card objects or ints.

Each figure is timed ``--repeat`` times (default 5) after one untimed warm-up, with
the garbage collector off, as the CPU time of the timing thread (a run that waits
while other processes hold the core is not charged for the wait; contention for the
shared caches and memory still is). It prints the median, min and max hands per
second, and ratios of medians: to the bare numpy lookup, to the fastest peer of the
same card count, and to the baseline ref. The targets are judged on the slowest of
riverboat's runs against the fastest of the peer's. Before timing, riverboat's
five-card order is checked against a peer (eval7 if installed) on 20,000 random
hands; the script exits with status 1 if they disagree (or the baseline does).

Run it from the project root::

    pip install -e '.[bench]'     # the peers come from the ``bench`` extra
    python bench/evaluators.py [--hands N] [--peer-hands M] [--repeat R]
                               [--baseline-ref GIT_REF] [--json FILE]

A peer that is not installed is skipped with a note.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import importlib.metadata
import importlib.util
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from functools import partial
from math import comb
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import numpy.typing as npt

Hands = npt.NDArray[np.uint8]
BatchEvaluator = Callable[[Hands], npt.NDArray[np.int32]]

ROOT = Path(__file__).resolve().parent.parent
SEED = 20240607
CHECK_HANDS = 20_000
PEERS = ("phevaluator", "eval7", "pkrbot")

#: Targets: (label, cards of the riverboat row, minimum M hands/s, minimum peer ratio).
TARGETS: tuple[tuple[str, str, float | None, float | None], ...] = (
    ("5 cards >= 100 M/s and >= 10x the fastest peer", "5", 100.0, 10.0),
    ("best 5 of 6 >= 5x the fastest peer", "6", None, 5.0),
    ("7 cards >= 5x the fastest peer", "7", None, 5.0),
    ("best 4 of 5 >= 100 M/s", "4 of 5", 100.0, None),
    ("3 cards >= 80 M/s", "3", 80.0, None),
)


@dataclass
class Figure:
    """One measured evaluator: hands per second over the runs, and its ratios."""

    evaluator: str
    cards: str
    kind: str  # "riverboat", "baseline" (the ref's kernels) or "peer"
    hands: int
    median: float
    slowest: float
    fastest: float
    numpy_lookup: float | None = None  # the bare numpy lookup's median, hands/s
    vs_numpy_lookup: float | None = None
    vs_best_peer: float | None = None
    vs_best_peer_worst: float | None = None  # slowest run against the peer's fastest
    best_peer: str | None = None
    vs_baseline: float | None = None


def pin_to_one_core() -> int | None:
    """Restrict this process to one CPU (the lowest allowed) and numba to one thread."""
    os.environ["NUMBA_NUM_THREADS"] = "1"
    if not hasattr(os, "sched_setaffinity"):
        return None
    cpu = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    return cpu


def load_average() -> str:
    """The machine's load average over 1, 5 and 15 minutes, from /proc/loadavg."""
    path = Path("/proc/loadavg")
    return " ".join(path.read_text().split()[:3]) if path.exists() else "unknown"


def draw_hands(n: int, k: int, seed: int) -> Hands:
    """``n`` random hands of ``k`` distinct cards (``4 * rank + suit``), shape ``(n, k)``."""
    rng = np.random.default_rng(seed)
    decks = np.tile(np.arange(52, dtype=np.uint8), (n, 1))
    return np.ascontiguousarray(rng.permuted(decks, axis=1)[:, :k])


def timed(run: Callable[[], object], repeat: int) -> list[float]:
    """The thread's CPU seconds of each of ``repeat`` calls of ``run()``, after one
    untimed warm-up call."""
    run()
    seconds = []
    enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeat):
            start = time.thread_time()
            run()
            seconds.append(time.thread_time() - start)
    finally:
        if enabled:
            gc.enable()
    return seconds


def measure(
    label: str, cards: str, kind: str, hands: int, run: Callable[[], object], repeat: int
) -> Figure:
    """A figure of ``hands`` hands per call of ``run``."""
    rates = [hands / max(s, 1e-9) for s in timed(run, repeat)]
    return Figure(label, cards, kind, hands, statistics.median(rates), min(rates), max(rates))


def loop_one_arg(evaluate: Callable[[Any], int], hands: Sequence[Any]) -> None:
    """Evaluate each hand with ``evaluate(hand)``."""
    for hand in hands:
        evaluate(hand)


def loop_star_args(evaluate: Callable[..., int], hands: Sequence[Sequence[int]]) -> None:
    """Evaluate each hand with ``evaluate(*hand)``."""
    for hand in hands:
        evaluate(*hand)


def import_peer(name: str) -> ModuleType | None:
    """The peer's module, or ``None`` (with a printed note) when it is not installed."""
    try:
        return importlib.import_module(name)
    except ImportError:
        print(f"note: peer {name} is not installed, skipped (pip install -e '.[bench]')")
        return None


def card_names() -> list[str]:
    """Riverboat's name of each card index 0..51, such as ``'As'``."""
    from riverboat.cards import Card

    return [str(Card(index)) for index in range(52)]


@dataclass
class Peer:
    """A peer's per-hand entry points and its conversion of riverboat hands."""

    name: str
    #: (label, cards per hand, loop over converted hands) for each measured entry point.
    entries: list[tuple[str, int, Callable[[], None]]]


def make_peers(modules: dict[str, ModuleType], hands: dict[int, Hands], count: int) -> list[Peer]:
    """Convert the first ``count`` hands of each size into each peer's cards, once."""
    names = card_names()
    peers = []
    if "phevaluator" in modules:
        ph = modules["phevaluator"]
        # phevaluator's id is rank * 4 + suit too (clubs, diamonds, hearts, spades);
        # convert through the card names anyway rather than assume it.
        ids = [ph.Card(name).id_ for name in names]
        entries = []
        for k in (5, 6, 7):
            converted = [tuple(ids[c] for c in row) for row in hands[k][:count].tolist()]
            general = partial(loop_star_args, ph.evaluate_cards, converted)
            entries.append(("phevaluator.evaluate_cards", k, general))
            # the same evaluator without the size dispatch: also public, and faster
            fixed = partial(loop_star_args, getattr(ph, f"evaluate_{k}cards"), converted)
            entries.append((f"phevaluator.evaluate_{k}cards", k, fixed))
        peers.append(Peer("phevaluator", entries))
    for name in ("eval7", "pkrbot"):
        if name not in modules:
            continue
        module = modules[name]
        deck = [module.Card(card) for card in names]
        entries = []
        for k in (5, 6, 7):
            converted = [[deck[c] for c in row] for row in hands[k][:count].tolist()]
            run = partial(loop_one_arg, module.evaluate, converted)
            entries.append((f"{name}.evaluate", k, run))
        peers.append(Peer(name, entries))
    return peers


def check_order(
    modules: dict[str, ModuleType], hands: Hands, evaluate5: BatchEvaluator
) -> bool | None:
    """Whether riverboat's five-card order agrees with a peer's on consecutive hand pairs.

    The peer is eval7 if installed (else pkrbot, else phevaluator); its direction
    (larger is stronger, or smaller) is verified on a royal flush and a 7-high hand.
    ``None`` if no peer is installed.
    """
    name = next((peer for peer in ("eval7", "pkrbot", "phevaluator") if peer in modules), None)
    if name is None:
        print("note: no peer installed, five-card order not checked")
        return None
    module = modules[name]
    names = card_names()
    if name == "phevaluator":
        ids = [module.Card(card).id_ for card in names]

        def value(row: list[int]) -> int:
            return int(module.evaluate_cards(*(ids[c] for c in row)))
    else:
        deck = [module.Card(card) for card in names]

        def value(row: list[int]) -> int:
            return int(module.evaluate([deck[c] for c in row]))

    index = {card: i for i, card in enumerate(names)}
    royal = [index[card] for card in ("As", "Ks", "Qs", "Js", "Ts")]
    seven_high = [index[card] for card in ("7c", "5d", "4h", "3s", "2c")]
    direction = 1 if value(royal) > value(seven_high) else -1
    documented = -1 if name == "phevaluator" else 1
    if direction != documented:
        print(
            f"{name}: stronger hands get {'larger' if direction > 0 else 'smaller'} values, "
            "unlike its documentation"
        )
    ours = np.sign(np.diff(evaluate5(hands).astype(np.int64)))
    theirs = direction * np.sign(np.diff(np.array([value(row) for row in hands.tolist()])))
    bad = int(np.count_nonzero(ours != theirs))
    word = "larger" if direction > 0 else "smaller"
    verdict = "agree" if bad == 0 else f"DISAGREE on {bad} pairs"
    print(
        f"order check: riverboat evaluate5 and {name} ({word} is stronger, verified) "
        f"{verdict} over {len(hands) - 1:,} consecutive pairs of {len(hands):,} random "
        "5-card hands"
    )
    return bad == 0


def machine_info(cpu: int | None) -> dict[str, str]:
    """Python, numpy, numba and peer versions, the CPU model and the pinned core."""
    import numba

    info = {
        "python": sys.version.split()[0] + f" ({platform.python_implementation()})",
        "platform": platform.platform(),
        "numpy": np.__version__,
        "numba": numba.__version__,
        "riverboat": importlib.metadata.version("riverboat"),
    }
    for peer in PEERS:
        try:
            info[peer] = importlib.metadata.version(peer)
        except importlib.metadata.PackageNotFoundError:
            info[peer] = "not installed"
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text().splitlines():
            if line.startswith("model name"):
                info["cpu"] = line.split(":", 1)[1].strip()
                break
    info["pinned to cpu"] = "not pinned" if cpu is None else str(cpu)
    info["NUMBA_NUM_THREADS"] = os.environ.get("NUMBA_NUM_THREADS", "")
    info["load average"] = load_average()
    return info


# ---------------------------------------------------------------- riverboat's evaluators
@dataclass
class Measured:
    """One batch evaluator to time, with the table it reads and the entries it reads."""

    label: str
    cards: str
    evaluate: BatchEvaluator
    hands: Hands
    table: npt.NDArray[np.int16] | None
    indices: npt.NDArray[np.intp] | None


def riverboat_evaluators(hands: dict[int, Hands]) -> list[Measured]:
    """riverboat's evaluators, each with its table and each hand's entry in it."""
    from riverboat.hands import (
        FIVE_CARD,
        FOUR_CARD,
        THREE_CARD,
        evaluate3,
        evaluate4of5,
        evaluate5,
        evaluate6,
        evaluate7,
        hand_table,
    )
    from riverboat.hands._rank_kernels import table_indices
    from riverboat.hands.evaluate import _by_ranks

    return [
        Measured(
            "evaluate5", "5", evaluate5, hands[5], _by_ranks(FIVE_CARD, 5), table_indices(hands[5])
        ),
        Measured(
            "evaluate6", "6", evaluate6, hands[6], _by_ranks(FIVE_CARD, 6), table_indices(hands[6])
        ),
        Measured(
            "evaluate7", "7", evaluate7, hands[7], _by_ranks(FIVE_CARD, 7), table_indices(hands[7])
        ),
        Measured(
            "evaluate3", "3", evaluate3, hands[3], hand_table(THREE_CARD), colex_index(hands[3])
        ),
        Measured(
            "evaluate4of5",
            "4 of 5",
            evaluate4of5,
            hands[5],
            _by_ranks(FOUR_CARD, 5),
            table_indices(hands[5], flushes=False),
        ),
    ]


def colex_index(hands: Hands) -> npt.NDArray[np.intp]:
    """Each hand's colex index among all hands of its size (the old tables' entries)."""
    ordered = np.sort(hands.astype(np.intp), axis=1)
    binomial = np.array([[comb(c, j) for c in range(52)] for j in range(8)], dtype=np.intp)
    index = np.zeros(len(hands), dtype=np.intp)
    for j in range(hands.shape[1]):
        index += binomial[j + 1][ordered[:, j]]
    return index


# ---------------------------------------------------------------- the baseline ref
def baseline_kernels(ref: str, folder: Path) -> ModuleType:
    """``ref``'s ``src/riverboat/hands/_kernels.py``, imported on its own from ``folder``."""
    source = subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{ref}:src/riverboat/hands/_kernels.py"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    path = folder / "riverboat_baseline_kernels.py"
    path.write_text(source)
    spec = importlib.util.spec_from_file_location("riverboat_baseline_kernels", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def baseline_evaluators(kernels: ModuleType, ref: str, hands: dict[int, Hands]) -> list[Measured]:
    """The ref's colex kernels over its tables (those it has), as batch evaluators."""
    from riverboat.hands import FIVE_CARD, FOUR_CARD

    def table(size: int, ranking: Any) -> npt.NDArray[np.int16]:
        built = np.empty(comb(52, size), dtype=np.int16)
        kernels.fill_table(size, *ranking.value_tables, built)
        return built

    def batch(kernel: Callable[..., int], values: npt.NDArray[np.int16]) -> BatchEvaluator:
        def run(array: Hands) -> npt.NDArray[np.int32]:
            out = np.empty(len(array), dtype=np.int32)
            if kernel(array, values, out) >= 0:
                raise ValueError("the baseline refused a hand")
            return out

        return run

    five = table(5, FIVE_CARD)
    found = []
    for label, cards, name, k in (
        ("evaluate5", "5", "lookup5", 5),
        ("evaluate6", "6", "best5of6", 6),
        ("evaluate7", "7", "best5of7", 7),
    ):
        if not hasattr(kernels, name):
            print(f"note: {ref} has no kernel {name}: no baseline for {label}")
            continue
        index = colex_index(hands[k]) if k == 5 else None
        found.append(
            Measured(
                f"{ref} {label}", cards, batch(getattr(kernels, name), five), hands[k], five, index
            )
        )
    if all(hasattr(kernels, name) for name in ("fill_best_of", "subset_rows", "lookup5")):
        best4 = np.empty(comb(52, 5), dtype=np.int16)
        kernels.fill_best_of(table(4, FOUR_CARD), 5, kernels.subset_rows(5, 4), best4)
        evaluate = batch(kernels.lookup5, best4)
        found.append(
            Measured(
                f"{ref} evaluate4of5", "4 of 5", evaluate, hands[5], best4, colex_index(hands[5])
            )
        )
    return found


# ---------------------------------------------------------------- ratios and the report
def add_ratios(figures: list[Figure]) -> None:
    """Fill in each figure's ratios to the fastest peer and to the baseline ref."""
    best: dict[str, Figure] = {}
    for figure in figures:
        if figure.kind == "peer" and (
            figure.cards not in best or figure.median > best[figure.cards].median
        ):
            best[figure.cards] = figure
    old = {f.cards: f for f in figures if f.kind == "baseline"}
    for figure in figures:
        # peers evaluate no 3-card or best-4-of-5 hands: those compare to the 5-card peer
        peer = best.get(figure.cards) or (
            best.get("5") if figure.cards in ("3", "4 of 5") else None
        )
        if peer is not None:
            figure.vs_best_peer = figure.median / peer.median
            figure.vs_best_peer_worst = figure.slowest / peer.fastest
            figure.best_peer = f"{peer.evaluator} ({peer.cards})"
        if figure.kind == "riverboat" and figure.cards in old:
            figure.vs_baseline = figure.median / old[figure.cards].median


def print_table(figures: list[Figure], ref: str | None) -> None:
    """The figures as an aligned plain-text table, with a footnote."""
    header = (
        "evaluator",
        "cards",
        "median",
        "min - max",
        "vs numpy lookup",
        "vs fastest peer",
        f"vs {ref}" if ref else "",
    )
    rows = [header]
    for f in figures:
        ratio = "-" if f.vs_best_peer is None else f"{f.vs_best_peer:.2f}x"
        if f.vs_best_peer is not None and f.cards in ("3", "4 of 5") and f.kind != "peer":
            ratio += " *"
        rows.append(
            (
                ("riverboat." if f.kind == "riverboat" else "") + f.evaluator,
                f.cards,
                f"{f.median / 1e6:.1f} M/s",
                f"{f.slowest / 1e6:.1f} - {f.fastest / 1e6:.1f}",
                "-" if f.vs_numpy_lookup is None else f"{f.vs_numpy_lookup:.2f}",
                ratio,
                "" if f.vs_baseline is None else f"{f.vs_baseline:.2f}x",
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    for number, row in enumerate(rows):
        cells = [row[0].ljust(widths[0]), row[1].ljust(widths[1])]
        cells += [cell.rjust(width) for cell, width in zip(row[2:], widths[2:], strict=True)]
        print("  ".join(cells).rstrip())
        if number == 0:
            print("  ".join("-" * width for width in widths).rstrip())
    fastest = next((f.best_peer for f in figures if f.cards == "3" and f.best_peer), None)
    if fastest:
        print(
            f"* no peer evaluates 3-card or best-4-of-5 hands: compared with the fastest "
            f"5-card peer, {fastest}"
        )
    print(
        "M hands/s over the runs (CPU time). vs numpy lookup: the median against numpy's "
        "table[indices] over the same table and entries. Ratios are of medians."
    )
    print(
        "Peers: per-hand Python API, in a Python loop over prebuilt card objects/ints. "
        "riverboat: one call on an (n, k) uint8 array."
    )


def check_targets(figures: list[Figure]) -> list[dict[str, Any]]:
    """Print and return each target as met or not, judged on the slowest run."""
    results = []
    for label, cards, minimum, peer_ratio in TARGETS:
        figure = next(f for f in figures if f.kind == "riverboat" and f.cards == cards)
        slowest = figure.slowest / 1e6
        met: bool | None = True
        detail = f"{figure.median / 1e6:.1f} M/s median, {slowest:.1f} slowest"
        if minimum is not None:
            met = slowest >= minimum
        if peer_ratio is not None:
            if figure.vs_best_peer is None or figure.vs_best_peer_worst is None:
                met = None
                detail += ", no peer measured"
            else:
                met = bool(met) and figure.vs_best_peer_worst >= peer_ratio
                detail += (
                    f"; {figure.vs_best_peer:.1f}x {figure.best_peer} (medians), "
                    f"{figure.vs_best_peer_worst:.1f}x slowest against its fastest"
                )
        word = {True: "met", False: "NOT met", None: "NOT checked"}[met]
        print(f"target: {label}: {word} ({detail})")
        results.append({"target": label, "met": met, "detail": detail})
    return results


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--hands",
        type=int,
        default=2_000_000,
        help="hands per riverboat batch evaluator (default 2,000,000)",
    )
    parser.add_argument(
        "--peer-hands", type=int, default=200_000, help="hands per peer evaluator (default 200,000)"
    )
    parser.add_argument(
        "--repeat", type=int, default=5, help="timed runs per evaluator (default 5)"
    )
    parser.add_argument("--seed", type=int, default=SEED, help="random seed for the hands")
    parser.add_argument(
        "--baseline-ref", metavar="GIT_REF", help="also time this git ref's colex kernels"
    )
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the figures here")
    args = parser.parse_args(argv)
    if args.hands < CHECK_HANDS or args.peer_hands < 1 or args.repeat < 1:
        parser.error(f"need --hands >= {CHECK_HANDS:,}, --peer-hands >= 1 and --repeat >= 1")
    args.peer_hands = min(args.peer_hands, args.hands)
    return args


def time_ours(measured: list[Measured], kind: str, repeat: int) -> list[Figure]:
    """Each evaluator's figure, with its bare numpy lookup's beside it."""
    figures = []
    for m in measured:
        figure = measure(m.label, m.cards, kind, len(m.hands), partial(m.evaluate, m.hands), repeat)
        if m.table is not None and m.indices is not None:
            lookup = measure(
                "", m.cards, kind, len(m.hands), partial(m.table.__getitem__, m.indices), repeat
            )
            figure.numpy_lookup = lookup.median
            figure.vs_numpy_lookup = figure.median / lookup.median
        figures.append(figure)
    return figures


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; 1 if riverboat disagrees with the peer or the baseline."""
    args = parse_args(argv)
    cpu = pin_to_one_core()  # before numba is imported, by riverboat below
    from riverboat.hands import evaluate5

    info = machine_info(cpu)
    for key, value in info.items():
        print(f"{key + ':':<19}{value}")
    print(
        f"{'settings:':<19}{args.hands:,} hands per riverboat evaluator, "
        f"{args.peer_hands:,} per peer, {args.repeat} timed runs each, seed {args.seed}"
    )
    print()

    deals = draw_hands(args.hands, 7, args.seed)
    hands = {k: np.ascontiguousarray(deals[:, :k]) for k in (3, 5, 6, 7)}
    modules = {name: module for name in PEERS if (module := import_peer(name)) is not None}

    agree = check_order(modules, hands[5][:CHECK_HANDS], evaluate5)
    if agree is False:
        print("riverboat and the peer disagree: not timing anything", file=sys.stderr)
        return 1

    ours = riverboat_evaluators(hands)
    for m in ours:
        if m.label != "evaluate4of5" and m.table is not None and m.indices is not None:
            assert np.array_equal(m.table[m.indices], m.evaluate(m.hands)), m.label
    with tempfile.TemporaryDirectory() as folder:
        old: list[Measured] = []
        if args.baseline_ref:
            old = baseline_evaluators(
                baseline_kernels(args.baseline_ref, Path(folder)), args.baseline_ref, hands
            )
            same = {m.cards: m for m in ours}
            for m in old:
                if not np.array_equal(m.evaluate(m.hands), same[m.cards].evaluate(m.hands)):
                    print(f"{m.label} and riverboat disagree: not timing anything", file=sys.stderr)
                    return 1
            print(
                f"baseline: {args.baseline_ref}'s colex kernels give the same values "
                "on every hand timed"
            )
        figures = time_ours(ours, "riverboat", args.repeat) + time_ours(
            old, "baseline", args.repeat
        )

    for peer in make_peers(modules, hands, args.peer_hands):
        for label, k, run in peer.entries:
            figures.append(measure(label, str(k), "peer", args.peer_hands, run, args.repeat))

    order = {"5": 0, "6": 1, "7": 2, "3": 3, "4 of 5": 4}
    kinds = {"riverboat": 0, "baseline": 1, "peer": 2}
    figures.sort(key=lambda f: (order[f.cards], kinds[f.kind], -f.median))
    add_ratios(figures)
    info["load average, end"] = load_average()
    print()
    print_table(figures, args.baseline_ref)
    print()
    targets = check_targets(figures)
    print(
        f"load average: {info['load average']} at the start, {info['load average, end']} at the end"
    )

    if args.json:
        document = {
            "machine": info,
            "settings": {
                "hands": args.hands,
                "peer_hands": args.peer_hands,
                "repeat": args.repeat,
                "seed": args.seed,
                "baseline_ref": args.baseline_ref,
            },
            "order_check": agree,
            "figures": [asdict(figure) for figure in figures],
            "targets": targets,
        }
        args.json.write_text(json.dumps(document, indent=2) + "\n")
        print(f"\nwrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
