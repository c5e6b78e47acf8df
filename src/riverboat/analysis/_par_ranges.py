"""The PAR sheet's results over many rounds: the deals per net result of a round, its
chart, the ranges of a player's net result after 100 to 10,000 rounds, and the
standard deviation and normal quantiles behind its volatility figures.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from fractions import Fraction
from math import sqrt
from statistics import NormalDist

from riverboat.analysis._html import Markup, join, table, tag
from riverboat.analysis.kept import kept_ranges
from riverboat.analysis.net_chart import bar_chart
from riverboat.analysis.net_ranges import NetRange
from riverboat.analysis.report import ReturnRow

__all__ = ["CONFIDENCES", "ROUNDS", "chart", "distribution_of", "ranges", "std_dev", "z"]

#: the session lengths and confidences of the ranges of a player's result
ROUNDS = (100, 1_000, 10_000)
CONFIDENCES = (0.90, 0.95)


def distribution_of(rows: Iterable[ReturnRow]) -> dict[Fraction, int]:
    """Deals per net result (rows with the same result added together)."""
    counts: dict[Fraction, int] = {}
    for row in rows:
        counts[row.pays] = counts.get(row.pays, 0) + row.combinations
    return counts


def chart(distribution: Mapping[Fraction, int], title: str) -> Markup:
    return tag(
        "figure",
        tag("div", bar_chart(distribution, title), class_="chart"),
        tag(
            "figcaption",
            "The probability of each net result of a round (log scale), in initial wagers. "
            "Red: a loss; grey: a push; green: a win.",
        ),
    )


def _range_text(r: NetRange) -> str:
    return f"{r.low:+,.1f} to {r.high:+,.1f}"


def ranges(distribution: Mapping[Fraction, int], max_points: int) -> Markup:
    rows = []
    methods = set()
    for rounds, ranges in zip(
        ROUNDS, kept_ranges(distribution, ROUNDS, CONFIDENCES, max_points), strict=True
    ):
        methods.add(ranges[0].method)
        rows.append(
            (
                f"{rounds:,}",
                f"{ranges[0].mean:+,.1f}",
                *(_range_text(r) for r in ranges),
                ranges[0].method,
            )
        )
    return join(
        [
            tag(
                "div",
                table(
                    ["Rounds", "Expected", *(f"{c:.0%} range" for c in CONFIDENCES), "Method"],
                    rows,
                    numeric=[0, 1, 2, 3],
                ),
                class_="wide",
            ),
            tag(
                "p",
                "The player's net result after that many independent rounds, in initial "
                "wagers: the central range holding at least that share of results (half "
                "the rest cut from each end). ",
                _METHODS["exact"] if "exact" in methods else "",
                " " if len(methods) == 2 else "",
                _METHODS["normal approximation"] if "normal approximation" in methods else "",
                class_="note",
            ),
        ]
    )


_METHODS = {
    "exact": "Exact: the distribution of one round convolved with itself once per round "
    "(by Fourier transform), its percentiles read off.",
    "normal approximation": "Normal approximation: the expected result plus or minus z "
    "standard deviations times the square root of the rounds (z = 1.645 at 90%, 1.960 "
    "at 95%), where the exact sum has too many possible values to count.",
}


def std_dev(distribution: Mapping[Fraction, int]) -> float:
    total = sum(distribution.values())
    mean = sum((v * c for v, c in distribution.items()), Fraction(0)) / total
    second = sum((v * v * c for v, c in distribution.items()), Fraction(0)) / total
    return sqrt(second - mean * mean)


def z(confidence: float) -> float:
    """The two-sided normal quantile: 1.645 at 90%, 1.960 at 95%."""
    return NormalDist().inv_cdf(0.5 + confidence / 2)
