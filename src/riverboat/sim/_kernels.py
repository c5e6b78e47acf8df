"""The simulator's compiled kernels (numba), loaded with the first batch counted.

Neither decides a payout: :func:`count_cells` counts rounds by what the game's settle
looks at, :func:`walk_shoes` reads the game's own coups from a table of them.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from riverboat._jit import nb

_compiled = nb.njit(cache=True, nogil=True, boundscheck=False)


@_compiled
def count_cells(
    first: npt.NDArray[np.int32],
    second: npt.NDArray[np.int32],
    option: npt.NDArray[np.int64],
    classes: npt.NDArray[np.int16],
    n: int,
    options: int,
    counts: npt.NDArray[np.int64],
    first_seen: npt.NDArray[np.int32],
    last_seen: npt.NDArray[np.int32],
) -> None:
    """Add each round to its cell: the classes of its two values (``n`` classes),
    which of the values is the larger (or neither) and the round's option,
    ``((class(first) * n + class(second)) * 3 + order) * options + option``.

    ``first_seen[cell]`` keeps the values of the cell's first round and
    ``last_seen[cell]`` those of its last."""
    for i in range(first.shape[0]):
        a, b = first[i], second[i]
        order = 0 if a < b else (1 if a == b else 2)
        cell = ((np.int64(classes[a]) * n + classes[b]) * 3 + order) * options + option[i]
        if counts[cell] == 0:
            first_seen[cell, 0] = a
            first_seen[cell, 1] = b
        counts[cell] += 1
        last_seen[cell, 0] = a
        last_seen[cell, 1] = b


#: shoes dealt side by side, so that their reads of the coups' table overlap
LANES = 8


@_compiled
def walk_shoes(
    cards: npt.NDArray[np.uint8],
    value_of: npt.NDArray[np.int8],
    start_of: npt.NDArray[np.int64],
    reached: npt.NDArray[np.bool_],
    radix: int,
    most: int,
    coups: npt.NDArray[np.int8],
    first: npt.NDArray[np.int32],
    second: npt.NDArray[np.int32],
) -> int:
    """Deal coups from the shuffled shoes ``cards`` into ``first`` and ``second``
    until they are full or every shoe's cut card is ``reached`` (by position); a shoe
    starts at ``start_of`` its first card (what it burns).

    A coup is the row of ``coups`` numbered by the values of the shoe's next ``most``
    cards (``value_of`` each card; base ``radix``, the first card most significant; 0
    past the last card): its two totals and the cards it takes. :data:`LANES` shoes
    are dealt side by side, a coup from each in turn, the next shoe taking a lane as
    one ends. Returns how many coups were dealt."""
    size = cards.shape[1]
    lanes = min(LANES, cards.shape[0])
    shoe = np.arange(lanes)
    position = np.empty(lanes, dtype=np.int64)
    for lane in range(lanes):
        position[lane] = start_of[cards[lane, 0]]
    following = lanes  # the next shoe to take a lane
    live = lanes
    played = 0
    while live:
        for lane in range(lanes):
            if shoe[lane] < 0:
                continue
            while reached[position[lane]]:  # this shoe is over: the next, if any
                if following == cards.shape[0]:
                    shoe[lane] = -1
                    live -= 1
                    break
                shoe[lane] = following
                position[lane] = start_of[cards[following, 0]]
                following += 1
            if shoe[lane] < 0:
                continue
            if played == first.shape[0]:
                return played
            row, at = shoe[lane], position[lane]
            index = np.int64(0)
            for i in range(most):
                card = value_of[cards[row, at + i]] if at + i < size else 0
                index = index * radix + card
            first[played] = coups[index, 0]
            second[played] = coups[index, 1]
            position[lane] = at + coups[index, 2]
            played += 1
    return played
