"""Where a player's net result lands after many rounds: the central range holding a
given share of results, exact by convolving the per-round distribution where the
sum's support is small enough, else a normal approximation (labelled as such).

>>> coin = {Fraction(-1): 1, Fraction(1): 1}          # an even-money wager
>>> [(r.low, r.high, r.method) for r in net_ranges(coin, 100, [0.9, 0.95])]
[(-16.0, 16.0, 'exact'), (-20.0, 20.0, 'exact')]
>>> net_ranges(coin, 100, [0.95], max_points=100)[0].method
'normal approximation'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import gcd, lcm, sqrt
from statistics import NormalDist
from typing import Literal

import numpy as np

__all__ = ["MAX_POINTS", "NetRange", "net_ranges"]

#: the most lattice points a convolution may span (2**23: 64 MB of transform)
MAX_POINTS = 1 << 23


@dataclass(frozen=True)
class NetRange:
    """The net result after ``rounds`` rounds lies in ``[low, high]`` with probability
    at least ``confidence`` (``confidence`` / 2 cut from each tail)."""

    rounds: int
    confidence: float
    mean: float
    low: float
    high: float
    method: Literal["exact", "normal approximation"]


def net_ranges(
    distribution: Mapping[Fraction, int],
    rounds: int,
    confidences: Sequence[float],
    max_points: int = MAX_POINTS,
) -> tuple[NetRange, ...]:
    """The central ranges of the sum of ``rounds`` independent rounds, each with net
    result ``value`` in ``count`` of ``sum(counts)`` deals, one per confidence.

    Exact: the n-fold convolution on the lattice the values share, by one real FFT
    (``rfft(p) ** n``), when its support fits ``max_points``; the low end is the least
    sum whose cumulative probability reaches ``(1 - confidence) / 2``, the high end
    the least reaching ``(1 + confidence) / 2``. Otherwise ``mean +- z * sd``.
    """
    if rounds < 1 or not all(0 < c < 1 for c in confidences):
        raise ValueError(f"rounds >= 1 and 0 < confidence < 1, not {rounds}, {confidences}")
    values = sorted(v for v, c in distribution.items() if c)
    counts = np.array([distribution[v] for v in values], dtype=np.float64)
    probability = counts / counts.sum()
    floats = np.array([float(v) for v in values])
    mean = float(floats @ probability)
    lowest = values[0]
    scale = lcm(*(v.denominator for v in values))
    steps = [int((v - lowest) * scale) for v in values]
    step = gcd(*steps) or 1
    span = steps[-1] // step
    if span * rounds + 1 > max_points:
        sd = sqrt(max(float(floats**2 @ probability) - mean * mean, 0.0) * rounds)
        return tuple(
            NetRange(
                rounds, c, mean * rounds, *_normal(mean * rounds, sd, c), "normal approximation"
            )
            for c in confidences
        )
    size = _fast_length(span * rounds + 1)
    per_round = np.zeros(span + 1)
    per_round[[s // step for s in steps]] = probability
    total = np.fft.irfft(np.fft.rfft(per_round, size) ** rounds, size)[: span * rounds + 1]
    cumulative = np.cumsum(np.clip(total, 0, None))
    cumulative /= cumulative[-1]
    unit = Fraction(step, scale)
    ranges = []
    for c in confidences:
        tail = (1 - c) / 2
        ends = np.searchsorted(cumulative, [tail, 1 - tail], side="left")
        low, high = (float(lowest * rounds + int(k) * unit) for k in ends)
        ranges.append(NetRange(rounds, c, mean * rounds, low, high, "exact"))
    return tuple(ranges)


def _normal(mean: float, sd: float, confidence: float) -> tuple[float, float]:
    half = NormalDist().inv_cdf((1 + confidence) / 2) * sd
    return mean - half, mean + half


def _fast_length(n: int) -> int:
    """The least 2**a * 3**b * 5**c >= n: a length the FFT takes quickly.

    >>> _fast_length(7), _fast_length(1000), _fast_length(1025)
    (8, 1000, 1080)
    """
    best = 1 << (n - 1).bit_length()
    fives = 1
    while fives < best:
        threes = fives
        while threes < best:
            length = threes << max((n - 1) // threes, 0).bit_length()
            best = min(best, length)
            threes *= 3
        fives *= 5
    return best
