"""The compiled kernels of :func:`riverboat.rng.deal_hands` and
:func:`riverboat.rng.shuffled_shoes`, apart so that importing :mod:`riverboat.rng`
(every table, the command line) does not load numba.

They draw from a numpy bit generator through its ctypes interface (``next64``, its
``next_uint64``, called on ``state``, its state's address): 64-bit words in the
stream's order, whole words to a row, so rows dealt in several calls read the same
words as in one call.

Fisher-Yates draws j uniform in i..n-1 for position i, two draws to a word: its low
32 bits, then its high 32 bits. A draw below ``b`` from 32 bits ``x`` is Lemire's:
the high word of ``x * b``, kept when its low word is at least ``2**32 % b``, else
drawn again from the low half of a new word (rejection sampling: no modulo bias).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from riverboat._jit import nb

_LOW = np.uint64(0xFFFF_FFFF)
_SHIFT = np.uint64(32)
_WORD = np.uint64(1 << 32)


@nb.njit(inline="always")
def _below(next64: Any, state: int, x: np.uint64, bound: np.uint64) -> int:
    """A uniform integer below ``bound`` (1 <= bound < 2**32) from 32 random bits."""
    product = x * bound
    if (product & _LOW) < bound:  # a word that may fall in the short end: check
        threshold = (_WORD - bound) % bound
        while (product & _LOW) < threshold:
            product = (np.uint64(next64(state)) & _LOW) * bound
    return int(product >> _SHIFT)


@nb.njit(inline="always")
def _fisher_yates(
    next64: Any, state: int, order: npt.NDArray[np.uint8], i: int, word: np.uint64
) -> tuple[int, int, np.uint64]:
    """Swap position i of ``order`` with a uniform j in i..len(order)-1: the card now at
    i, j, and the word to draw the next position from (a new word at every even i:
    its low half for i, its high half for i + 1)."""
    if i % 2 == 0:
        word = np.uint64(next64(state))
        bits = word & _LOW
    else:
        bits = word >> _SHIFT
    j = i + _below(next64, state, bits, np.uint64(len(order) - i))
    card = order[j]
    order[j] = order[i]
    order[i] = card
    return card, j, word


@nb.njit(cache=True, nogil=True, boundscheck=False)
def fisher_yates_hands(next64: Any, state: int, deck: int, hands: Any) -> None:
    """Deal rows of hands, ``hands[h][row]`` the next ``hands[h].shape[1]`` cards, from
    the top of a deck of ``deck`` shuffled for each row: position i swapped with a
    uniform j in i..deck-1, only as far as the cards dealt."""
    cards = 0
    for h in range(len(hands)):
        cards += hands[h].shape[1]
    order = np.arange(deck).astype(np.uint8)
    swapped = np.empty(cards, dtype=np.int64)
    word = np.uint64(0)
    for row in range(hands[0].shape[0] if len(hands) else 0):
        i = 0
        for h in range(len(hands)):
            hand = hands[h]
            for c in range(hand.shape[1]):
                card, swapped[i], word = _fisher_yates(next64, state, order, i, word)
                hand[row, c] = card
                i += 1
        for i in range(cards):  # a fresh deck again: every position touched put back
            order[swapped[i]] = swapped[i]
            order[i] = i


@nb.njit(cache=True, nogil=True, boundscheck=False)
def fisher_yates_rows(next64: Any, state: int, rows: npt.NDArray[np.uint8]) -> None:
    """Shuffle each row in place: position i swapped with a uniform j in i..n-1."""
    word = np.uint64(0)
    for row in range(rows.shape[0]):
        order = rows[row]
        for i in range(len(order) - 1):
            _, _, word = _fisher_yates(next64, state, order, i, word)
