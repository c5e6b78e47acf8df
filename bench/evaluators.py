"""Benchmark riverboat's hand evaluators against per-hand Python poker evaluators.

What it measures, on one CPU core (the process pins itself to one core and sets
``NUMBA_NUM_THREADS=1`` before numba is imported):

* riverboat's batch evaluators ``evaluate5``, ``evaluate6``, ``evaluate7``,
  ``evaluate3`` and ``evaluate4of5``, each called once on an ``(n, k)`` ``uint8``
  array of random hands (``--hands``, default 2,000,000);
* the peers phevaluator, eval7 and pkrbot through their public per-hand Python
  APIs, called in a Python loop over the first ``--peer-hands`` (default 200,000)
  of the same hands, converted beforehand into each peer's own card objects or ints.

Every figure is the best of ``--repeat`` (default 5) timed runs after one untimed
warm-up, with the garbage collector off while timing. Hands per second are printed
in a table with ratios to the fastest peer of the same card count and to
riverboat's own ``evaluate5``, followed by the performance targets. Before timing,
riverboat's five-card order is checked against a peer (eval7 if installed) on
20,000 random hands; the script exits with status 1 if they disagree.

Run it from the project root::

    pip install -e '.[bench]'     # the peers come from the ``bench`` extra
    python bench/evaluators.py [--hands N] [--peer-hands M] [--repeat R] [--json FILE]

A peer that is not installed is skipped with a note.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import importlib.metadata
import json
import os
import platform
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import numpy.typing as npt

Hands = npt.NDArray[np.uint8]
BatchEvaluator = Callable[[Hands], npt.NDArray[np.int32]]

SEED = 20240607
CHECK_HANDS = 20_000
PEERS = ("phevaluator", "eval7", "pkrbot")

#: Performance targets: (label, cards of the riverboat row, minimum M hands/s, minimum peer ratio).
TARGETS: tuple[tuple[str, str, float, float | None], ...] = (
    ("5 cards >= 50 M/s and >= 5x the fastest peer", "5", 50.0, 5.0),
    ("best 4 of 5 >= 50 M/s", "4 of 5", 50.0, None),
    ("3 cards >= 80 M/s", "3", 80.0, None),
    ("best 5 of 6 >= 25 M/s", "6", 25.0, None),
)


@dataclass
class Figure:
    """One measured evaluator: hands per second and its ratios."""

    evaluator: str
    cards: str
    peer: bool
    hands: int
    hands_per_s: float
    vs_best_peer: float | None = None
    best_peer: str | None = None
    vs_evaluate5: float | None = None


def pin_to_one_core() -> int | None:
    """Restrict this process to one CPU (the lowest allowed) and numba to one thread."""
    os.environ["NUMBA_NUM_THREADS"] = "1"
    if not hasattr(os, "sched_setaffinity"):
        return None
    cpu = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {cpu})
    return cpu


def draw_hands(n: int, k: int, seed: int) -> Hands:
    """``n`` random hands of ``k`` distinct cards (``4 * rank + suit``), shape ``(n, k)``."""
    rng = np.random.default_rng(seed)
    decks = np.tile(np.arange(52, dtype=np.uint8), (n, 1))
    return np.ascontiguousarray(rng.permuted(decks, axis=1)[:, :k])


def best_time(run: Callable[[], object], repeat: int) -> float:
    """The shortest of ``repeat`` wall-clock times of ``run()``, after one warm-up call."""
    run()
    best = float("inf")
    enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeat):
            start = time.perf_counter()
            run()
            best = min(best, time.perf_counter() - start)
    finally:
        if enabled:
            gc.enable()
    return best


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
    return info


def add_ratios(figures: list[Figure]) -> None:
    """Fill in each figure's ratio to the fastest peer and riverboat's ratio to evaluate5."""
    best: dict[str, Figure] = {}
    for figure in figures:
        if figure.peer and (
            figure.cards not in best or figure.hands_per_s > best[figure.cards].hands_per_s
        ):
            best[figure.cards] = figure
    five = next(f for f in figures if not f.peer and f.cards == "5")
    for figure in figures:
        # peers evaluate no 3-card or best-4-of-5 hands: those compare to the 5-card peer
        peer = best.get(figure.cards) or (
            best.get("5") if figure.cards in ("3", "4 of 5") else None
        )
        if peer is not None:
            figure.vs_best_peer = figure.hands_per_s / peer.hands_per_s
            figure.best_peer = f"{peer.evaluator} ({peer.cards})"
        if not figure.peer:
            figure.vs_evaluate5 = figure.hands_per_s / five.hands_per_s


def print_table(figures: list[Figure]) -> None:
    """The figures as an aligned plain-text table, with a footnote."""
    header = ("evaluator", "cards", "hands/s", "vs fastest peer", "vs rb evaluate5")
    rows = [header]
    for figure in figures:
        ratio = "-" if figure.vs_best_peer is None else f"{figure.vs_best_peer:.2f}x"
        if figure.vs_best_peer is not None and figure.cards in ("3", "4 of 5"):
            ratio += " *"
        rows.append(
            (
                ("riverboat." if not figure.peer else "") + figure.evaluator,
                figure.cards,
                f"{figure.hands_per_s / 1e6:.1f} M/s",
                ratio,
                "-" if figure.vs_evaluate5 is None else f"{figure.vs_evaluate5:.2f}x",
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    for number, row in enumerate(rows):
        cells = [row[0].ljust(widths[0]), row[1].ljust(widths[1])]
        cells += [cell.rjust(width) for cell, width in zip(row[2:], widths[2:], strict=True)]
        print("  ".join(cells).rstrip())
        if number == 0:
            print("  ".join("-" * width for width in widths))
    fastest = next((f.best_peer for f in figures if f.cards == "3" and f.best_peer), None)
    if fastest:
        print(
            f"* no peer evaluates 3-card or best-4-of-5 hands: compared with the fastest "
            f"5-card peer, {fastest}"
        )
    print(
        "Peers: per-hand Python API, in a Python loop over prebuilt card objects/ints. "
        "riverboat: one call on an (n, k) uint8 array."
    )


def check_targets(figures: list[Figure]) -> list[dict[str, Any]]:
    """Print and return each performance target as met or not."""
    results = []
    for label, cards, minimum, peer_ratio in TARGETS:
        figure = next(f for f in figures if not f.peer and f.cards == cards)
        speed = figure.hands_per_s / 1e6
        met: bool | None = speed >= minimum
        detail = f"{speed:.1f} M/s"
        if peer_ratio is not None:
            if figure.vs_best_peer is None:
                met = None
                detail += ", no peer measured"
            else:
                met = bool(met) and figure.vs_best_peer >= peer_ratio
                detail += f", {figure.vs_best_peer:.1f}x {figure.best_peer}"
        word = {True: "met", False: "NOT met", None: "NOT checked"}[met]
        print(f"target: {label}: {word} ({detail})")
        results.append({"target": label, "met": met, "detail": detail})
    return results


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
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
        "--repeat",
        type=int,
        default=5,
        help="timed runs per evaluator; the best is kept (default 5)",
    )
    parser.add_argument("--seed", type=int, default=SEED, help="random seed for the hands")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the figures here")
    args = parser.parse_args(argv)
    if args.hands < CHECK_HANDS or args.peer_hands < 1 or args.repeat < 1:
        parser.error(f"need --hands >= {CHECK_HANDS:,}, --peer-hands >= 1 and --repeat >= 1")
    args.peer_hands = min(args.peer_hands, args.hands)
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; 1 if riverboat and the peer disagree on five-card order."""
    args = parse_args(argv)
    cpu = pin_to_one_core()  # before numba is imported, by riverboat below
    from riverboat.hands import evaluate3, evaluate4of5, evaluate5, evaluate6, evaluate7

    info = machine_info(cpu)
    for key, value in info.items():
        print(f"{key + ':':<19}{value}")
    print(
        f"{'settings:':<19}{args.hands:,} hands per riverboat evaluator, "
        f"{args.peer_hands:,} per peer, best of {args.repeat}, seed {args.seed}"
    )
    print()

    deals = draw_hands(args.hands, 7, args.seed)
    hands = {k: np.ascontiguousarray(deals[:, :k]) for k in (3, 5, 6, 7)}
    modules = {name: module for name in PEERS if (module := import_peer(name)) is not None}

    agree = check_order(modules, hands[5][:CHECK_HANDS], evaluate5)
    if agree is False:
        print("riverboat and the peer disagree: not timing anything", file=sys.stderr)
        return 1

    ours: list[tuple[str, str, BatchEvaluator, Hands]] = [
        ("evaluate5", "5", evaluate5, hands[5]),
        ("evaluate6", "6", evaluate6, hands[6]),
        ("evaluate7", "7", evaluate7, hands[7]),
        ("evaluate3", "3", evaluate3, hands[3]),
        ("evaluate4of5", "4 of 5", evaluate4of5, hands[5]),
    ]
    figures = []
    for label, cards, evaluate, array in ours:
        seconds = best_time(partial(evaluate, array), args.repeat)
        figures.append(Figure(label, cards, False, len(array), len(array) / seconds))

    for peer in make_peers(modules, hands, args.peer_hands):
        for label, k, run in peer.entries:
            seconds = best_time(run, args.repeat)
            figures.append(Figure(label, str(k), True, args.peer_hands, args.peer_hands / seconds))

    order = {"5": 0, "6": 1, "7": 2, "3": 3, "4 of 5": 4}
    figures.sort(key=lambda f: (order[f.cards], f.peer, -f.hands_per_s))
    add_ratios(figures)
    print()
    print_table(figures)
    print()
    targets = check_targets(figures)

    if args.json:
        document = {
            "machine": info,
            "settings": {
                "hands": args.hands,
                "peer_hands": args.peer_hands,
                "repeat": args.repeat,
                "seed": args.seed,
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
