"""The one door for randomness (G2, ARCHITECTURE principle 4).

Every random number riverboat uses comes from a source made here:

* :class:`SecureSource` for play: the operating system's CSPRNG (``secrets``).
* :class:`SeededSource` for tests and simulations: reproducible from an integer
  seed (numpy's PCG64 behind a ``SeedSequence``).
* :class:`FairSource` for provably fair rounds: the HMAC-SHA256 stream of
  :mod:`riverboat.fairness`, re-derivable by anyone once the seed is revealed.

All of them shuffle with the same Fisher-Yates (:func:`shuffled`).

>>> shuffled(5, SeededSource(42)) == shuffled(5, SeededSource(42))
True
>>> source = FairSource.new(client_seed="my seed")
>>> len(source.commitment)
64
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from riverboat.fairness import HmacStream, commitment, fisher_yates

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
    from numpy.random import Generator

__all__ = [
    "FairSource",
    "Generator",
    "RandomSource",
    "SecureSource",
    "SeededSource",
    "chunk_generator",
    "deal_hands",
    "deal_prefixes",
    "new_client_seed",
    "new_server_seed",
    "new_token",
    "shuffled",
    "shuffled_shoes",
]


class RandomSource(Protocol):
    """Anything that draws a uniform integer in ``0..n-1``."""

    def randbelow(self, n: int) -> int: ...


class SecureSource:
    """Cryptographically secure draws for real play."""

    def randbelow(self, n: int) -> int:
        return secrets.randbelow(n)


class SeededSource:
    """Reproducible draws from an integer seed, for tests and simulations.

    ``generator`` is the underlying numpy generator, for bulk draws.
    """

    def __init__(self, seed: int) -> None:
        import numpy as np

        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ValueError(f"a seed must be a whole number >= 0, not {seed!r}")
        self.seed = seed
        self.generator = np.random.default_rng(np.random.SeedSequence(seed))

    def randbelow(self, n: int) -> int:
        if n <= 0:
            raise ValueError(f"randbelow needs n >= 1, not {n}")
        return int(self.generator.integers(n))


def new_token(nbytes: int = 32) -> str:
    """A secret URL-safe token (session ids, CSRF tokens)."""
    return secrets.token_urlsafe(nbytes)


def new_client_seed() -> str:
    """A fresh client seed, 16 hex digits, for a front end that has none from its player."""
    return secrets.token_hex(8)


#: the longest client seed a round or deal keeps as it is
CLIENT_SEED_KEPT = 128


def joined_seed(seeds: str) -> str:
    """A shared deal's client seed from its seated players' seeds joined by ``|``: the
    joined seeds themselves, or their SHA-256 in hex where they are longer than
    :data:`CLIENT_SEED_KEPT` characters (the deal then keeps them, to be checked).

    >>> joined_seed("ann|bob")
    'ann|bob'
    >>> seeds = "|".join(["x" * 16] * 8)  # 135 characters
    >>> joined_seed(seeds) == hashlib.sha256(seeds.encode()).hexdigest()
    True
    """
    if len(seeds) <= CLIENT_SEED_KEPT:
        return seeds
    return hashlib.sha256(seeds.encode()).hexdigest()


def new_server_seed() -> str:
    """A fresh 256-bit server seed as 64 hex digits."""
    return secrets.token_hex(32)


@dataclass
class FairSource:
    """Draws for a provably fair round: (server seed, client seed, nonce).

    Publish :attr:`commitment` before the deal and :attr:`server_seed` after it.
    """

    server_seed: str
    client_seed: str
    nonce: int
    _stream: HmacStream = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._stream = HmacStream(self.server_seed, self.client_seed, self.nonce)

    @classmethod
    def new(
        cls, client_seed: str | None = None, nonce: int = 0, server_seed: str | None = None
    ) -> FairSource:
        """A source on ``server_seed`` (by default a fresh secret one), with a random
        client seed if none is given."""
        return cls(server_seed or new_server_seed(), client_seed or new_client_seed(), nonce)

    @property
    def commitment(self) -> str:
        """SHA-256 of the server seed, safe to show before the deal."""
        return commitment(self.server_seed)

    @property
    def randbelow(self) -> Callable[[int], int]:
        """Draws from the round's HMAC stream (its own method: one call a draw)."""
        return self._stream.randbelow


def shuffled(n: int, source: RandomSource) -> list[int]:
    """The integers ``0..n-1`` in a Fisher-Yates order drawn from ``source``."""
    order = list(range(n))
    fisher_yates(order, source.randbelow)
    return order


# ------------------------------------------------------------------ in bulk
# numpy is imported by the functions drawing in bulk, not with the module: a round's
# deal (FairSource, SecureSource) needs none of it, and a command on the database
# loads no numpy for it.


def __getattr__(name: str) -> Any:
    """``Generator``: the bulk generator type (numpy's), for annotations elsewhere,
    read from numpy when first asked for."""
    if name == "Generator":
        from numpy.random import Generator

        return Generator
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def chunk_generator(seed: int, chunk: int) -> Generator:
    """The generator of chunk number ``chunk`` of a run seeded with ``seed``.

    Each chunk's stream depends on the seed and the chunk's number alone, so a run
    split over any number of workers draws the same numbers.
    """
    import numpy as np

    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"a seed must be a whole number >= 0, not {seed!r}")
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(chunk,)))


def _next64(generator: Generator) -> tuple[object, int]:
    """The generator's own 64-bit draw and its state, for the compiled kernels: they
    read the stream in its order (numpy's ctypes interface)."""
    interface = generator.bit_generator.ctypes
    return interface.next_uint64, interface.state_address


def deal_hands(
    generator: Generator, rounds: int, sizes: Sequence[int], deck: int = 52
) -> list[npt.NDArray[np.uint8]]:
    """``rounds`` rows of hands of ``sizes`` cards, dealt in that order from the top of
    a deck of ``deck`` cards shuffled for each row: Fisher-Yates from the top, position
    i swapped with a uniform j in i..deck-1 (rejection sampling, no modulo bias), only
    as far as the cards dealt (:mod:`riverboat._rng_kernels`). Each hand is an array
    of shape (rounds, size).

    The draws are the generator's words in order, whole words to a row, so dealing in
    several calls gives the same cards as one call.

    >>> player, dealer = deal_hands(chunk_generator(1, 0), 4, (3, 3))
    >>> player.shape, bool((player[:, :, None] != dealer[:, None, :]).all())
    ((4, 3), True)
    """
    if not 0 <= sum(sizes) <= deck <= 256 or min(sizes, default=0) < 0:
        raise ValueError(f"cannot deal hands of {list(sizes)} cards from a deck of {deck}")
    import numpy as np

    from riverboat._rng_kernels import fisher_yates_hands  # numba: loaded when used

    hands = [np.empty((rounds, size), dtype=np.uint8) for size in sizes]
    next64, state = _next64(generator)
    fisher_yates_hands(next64, state, deck, tuple(hands))
    return hands


def deal_prefixes(
    generator: Generator, rounds: int, cards: int, deck: int = 52
) -> npt.NDArray[np.uint8]:
    """The top ``cards`` cards of ``rounds`` independently shuffled decks of ``deck``
    cards, as one hand of :func:`deal_hands` (the same cards as its hands side by side).

    >>> deal_prefixes(chunk_generator(1, 0), 2, 5).shape
    (2, 5)
    """
    return deal_hands(generator, rounds, (cards,), deck)[0]


def shuffled_shoes(generator: Generator, shoes: int, decks: int) -> npt.NDArray[np.uint8]:
    """``shoes`` independently shuffled shoes of ``decks`` decks, as cards 0..51
    (Fisher-Yates from the top, row by row, drawn as :func:`deal_hands` draws).

    >>> shuffled_shoes(chunk_generator(1, 0), 3, 8).shape
    (3, 416)
    """
    import numpy as np

    from riverboat._rng_kernels import fisher_yates_rows  # numba: loaded when used

    cards = np.tile((np.arange(52 * decks) % 52).astype(np.uint8), (shoes, 1))
    next64, state = _next64(generator)
    fisher_yates_rows(next64, state, cards)
    return cards
