"""The compiled kernel of :func:`riverboat.rng.deal_prefixes`, apart so that importing
:mod:`riverboat.rng` (every table, the command line) does not load numba."""

from __future__ import annotations

import numba as nb
import numpy as np
import numpy.typing as npt


@nb.njit(cache=True, nogil=True)
def fisher_yates_prefixes(
    draws: npt.NDArray[np.int64], deck: int, out: npt.NDArray[np.uint16]
) -> None:
    order = np.arange(deck)
    for row in range(draws.shape[0]):
        for i in range(draws.shape[1]):
            j = draws[row, i]
            order[i], order[j] = order[j], order[i]
            out[row, i] = order[i]
        for i in range(draws.shape[1] - 1, -1, -1):  # undo the swaps: a fresh deck again
            j = draws[row, i]
            order[i], order[j] = order[j], order[i]
