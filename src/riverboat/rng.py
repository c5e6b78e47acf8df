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
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np
import numpy.typing as npt

from riverboat.fairness import HmacStream, commitment, fisher_yates

__all__ = [
    "FairSource",
    "Generator",
    "RandomSource",
    "SecureSource",
    "SeededSource",
    "chunk_generator",
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

#: the bulk generator type, for annotations elsewhere
Generator = np.random.Generator


def chunk_generator(seed: int, chunk: int) -> np.random.Generator:
    """The generator of chunk number ``chunk`` of a run seeded with ``seed``.

    Each chunk's stream depends on the seed and the chunk's number alone, so a run
    split over any number of workers draws the same numbers.
    """
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"a seed must be a whole number >= 0, not {seed!r}")
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(chunk,)))


def deal_prefixes(
    generator: np.random.Generator, rounds: int, cards: int, deck: int = 52
) -> npt.NDArray[np.uint16]:
    """The top ``cards`` cards of ``rounds`` independently shuffled decks of ``deck``
    cards: Fisher-Yates from the top, position i swapped with a uniform j in i..deck-1.

    >>> deal_prefixes(chunk_generator(1, 0), 2, 5).shape
    (2, 5)
    """
    draws = np.empty((rounds, cards), dtype=np.int64)
    for i in range(cards):
        draws[:, i] = generator.integers(i, deck, size=rounds)
    from riverboat._rng_kernels import fisher_yates_prefixes  # numba: loaded when used

    out = np.empty((rounds, cards), dtype=np.uint16)
    fisher_yates_prefixes(draws, deck, out)
    return out


def shuffled_shoes(generator: np.random.Generator, shoes: int, decks: int) -> npt.NDArray[np.uint8]:
    """``shoes`` independently shuffled shoes of ``decks`` decks, as cards 0..51
    (numpy's Fisher-Yates, row by row).

    >>> shuffled_shoes(chunk_generator(1, 0), 3, 8).shape
    (3, 416)
    """
    cards = np.tile((np.arange(52 * decks) % 52).astype(np.uint8), (shoes, 1))
    shuffled: npt.NDArray[np.uint8] = generator.permuted(cards, axis=1, out=cards)
    return shuffled
