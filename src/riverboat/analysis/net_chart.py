"""The probability of each net result of a round as an inline SVG bar chart: one bar
per result, in order, on a logarithmic scale (the rarest results are millions of
times rarer than the commonest), losses red, pushes grey, wins green.

>>> svg = bar_chart({Fraction(-1): 3, Fraction(0): 1, Fraction(1): 4}, "a wager")
>>> svg.startswith("<svg"), svg.count("<rect class=")
(True, 3)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from fractions import Fraction

from riverboat.analysis._html import Markup, tag

__all__ = ["bar_chart", "net_text"]

_WIDTH, _HEIGHT = 960, 340
#: the width a bar takes at most: a chart of few bars is drawn narrower
_SLOT = 96
_LEFT, _RIGHT, _TOP, _BOTTOM = 64, 12, 16, 56


def net_text(value: Fraction, digits: int = 4) -> str:
    """A net result as people read it: ``+3``, ``-1``, ``+0.95``, ``-1.333``; a
    fraction to ``digits`` significant digits.

    >>> net_text(Fraction(19, 20)), net_text(Fraction(-4, 3)), net_text(Fraction(0))
    ('+0.95', '-1.333', '0')
    >>> net_text(Fraction(500, 3), digits=3)
    '+167'
    """
    if value == 0:
        return "0"
    if value.denominator == 1:
        return f"{value.numerator:+}"
    return f"{float(value):+.{digits}g}"


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def _decade(exponent: int) -> str:
    """A probability of ``10**exponent``: ``"1"``, ``"10\u207b\u00b3"``.

    >>> _decade(0), _decade(-12)
    ('1', '10\u207b\u00b9\u00b2')
    """
    return "1" if exponent == 0 else "10" + str(exponent).translate(_SUPERSCRIPT)


def _exactly(value: Fraction) -> str:
    text = net_text(value)
    return text if value.denominator == 1 else f"{text} ({value})"


def _grid(bottom: int, width: int, y: Callable[[float], float]) -> list[Markup]:
    """A line and a label at each power of ten from 1 down to ``10**bottom``."""
    grid = []
    for exponent in range(0, bottom - 1, -1):
        height = y(10.0**exponent)
        grid.append(
            tag("line", x1=_LEFT, x2=width - _RIGHT, y1=f"{height:.1f}", y2=f"{height:.1f}")
        )
        grid.append(
            tag("text", _decade(exponent), x=_LEFT - 6, y=f"{height + 4:.1f}", class_="tick y")
        )
    return grid


def _bar(
    value: Fraction,
    count: int,
    probability: float,
    left: float,
    slot: float,
    top: float,
    base: float,
) -> Markup:
    """One net result's bar, from ``top`` down to ``base``, coloured by loss, push or win."""
    kind = "loss" if value < 0 else "win" if value > 0 else "push"
    return tag(
        "rect",
        tag("title", f"net {_exactly(value)}: {probability:.6%} ({count:,} deals)"),
        class_=kind,
        x=f"{left + slot * 0.1:.1f}",
        y=f"{top:.1f}",
        width=f"{max(slot * 0.8, 1):.1f}",
        height=f"{base - top:.1f}",
    )


def bar_chart(distribution: Mapping[Fraction, int], title: str) -> Markup:
    """``distribution`` maps each net result to its number of deals."""
    total = sum(distribution.values())
    rows = sorted((v, c) for v, c in distribution.items() if c)
    lowest = min(c for _, c in rows) / total
    bottom = min(math.floor(math.log10(lowest)), -1)
    width = min(_WIDTH, _LEFT + _RIGHT + _SLOT * len(rows))
    plot_w, plot_h = width - _LEFT - _RIGHT, _HEIGHT - _TOP - _BOTTOM

    def y(probability: float) -> float:
        return _TOP + plot_h * math.log10(probability) / bottom

    grid = _grid(bottom, width, y)
    slot = plot_w / len(rows)
    label_every = math.ceil(len(rows) / 24)
    # labels fall every ``label_every`` bars, counted from the push (or the first bar)
    anchor = next((i for i, (value, _) in enumerate(rows) if value >= 0), 0)
    bars, labels = [], []
    for index, (value, count) in enumerate(rows):
        probability = count / total
        top = y(probability)
        left = _LEFT + index * slot
        bars.append(_bar(value, count, probability, left, slot, top, _TOP + plot_h))
        if (index - anchor) % label_every == 0:
            labels.append(
                tag(
                    "text",
                    net_text(value, digits=3),
                    x=f"{left + slot / 2:.1f}",
                    y=_TOP + plot_h + 16,
                    class_="tick x",
                )
            )
    return tag(
        "svg",
        tag("title", title),
        tag("g", *grid, class_="grid"),
        tag("g", *bars),
        tag("g", *labels),
        tag(
            "text",
            "net result, in initial wagers",
            x=_LEFT + plot_w / 2,
            y=_HEIGHT - 10,
            class_="axis",
        ),
        viewBox=f"0 0 {width} {_HEIGHT}",
        style=f"max-width: {width}px",
        class_="wide" if width == _WIDTH else None,
        role="img",
        aria_label=title,
    )
