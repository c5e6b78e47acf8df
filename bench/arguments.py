"""Command-line arguments the benchmarks share."""

from __future__ import annotations

import argparse
from collections.abc import Callable


def at_least(least: float, kind: type[float] | type[int]) -> Callable[[str], float]:
    """An argparse type: a number of ``kind`` no smaller than ``least``, else a clear
    refusal naming what is allowed.

    >>> at_least(1, int)("3")
    3
    >>> at_least(1, int)("0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: 0 is below 1, the least allowed
    """

    def read(text: str) -> float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
        if value < least:
            raise argparse.ArgumentTypeError(f"{text} is below {least:g}, the least allowed")
        return value

    return read
