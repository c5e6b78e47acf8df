"""Provably fair deck orders, with the Python standard library alone.

Before a round the house commits to ``sha256(server_seed)``; the player may choose
a client seed; the deck order is then a pure function of (server seed, client seed,
nonce), and once the server seed is revealed anyone can re-derive it. This module
imports nothing but the standard library so that a player can copy it (or read the
specification in ``docs/fairness.md``) and check a round without riverboat.

The derivation:

1. A byte stream: block ``i`` (i = 0, 1, 2, ...) is
   ``HMAC-SHA256(key=server_seed, msg=f"{client_seed}:{nonce}:{i}")``, where the
   server seed is the bytes its hex string spells and the message is UTF-8.
2. A draw below ``n`` reads the next 4 bytes as a big-endian unsigned integer
   ``x`` and rejects it while ``x >= 2**32 - 2**32 % n`` (no modulo bias); the draw
   is ``x % n``.
3. Fisher-Yates: start from ``[0, 1, ..., n-1]``; for ``i`` from ``n-1`` down to
   1, draw ``j`` below ``i + 1`` and swap positions ``i`` and ``j``.

>>> seed = "00" * 32
>>> order = derive_order(seed, "lucky", 1)
>>> sorted(order) == list(range(52))
True
>>> verify_order(seed, "lucky", 1, order, commitment(seed))
True

From a shell, with this file alone: ``python fairness.py SERVER_SEED CLIENT_SEED NONCE``
prints the deck, top card first (``riverboat deck`` does the same).
"""

from __future__ import annotations

import hashlib
import hmac
import struct
from collections.abc import Callable, MutableSequence
from typing import TypeVar

__all__ = [
    "HmacStream",
    "commitment",
    "derive_order",
    "fisher_yates",
    "verify_order",
]

T = TypeVar("T")
_WORD = 2**32
#: a SHA-256 digest read as 8 big-endian unsigned 4-byte words
_WORDS = struct.Struct(">8I")


def fisher_yates(items: MutableSequence[T], randbelow: Callable[[int], int]) -> None:
    """Shuffle ``items`` in place, drawing ``j`` below ``i + 1`` for i = n-1 .. 1.

    Each of the ``n!`` draw sequences gives a different order, so a uniform
    ``randbelow`` gives a uniform shuffle.

    >>> cards = [0, 1, 2]
    >>> fisher_yates(cards, lambda bound: 0)
    >>> cards
    [1, 2, 0]
    """
    for i in range(len(items) - 1, 0, -1):
        j = randbelow(i + 1)
        if not 0 <= j <= i:
            raise ValueError(f"randbelow({i + 1}) returned {j}, outside 0..{i}")
        items[i], items[j] = items[j], items[i]


def _seed_bytes(server_seed: str) -> bytes:
    try:
        raw = bytes.fromhex(server_seed)
    except ValueError:
        raise ValueError(
            f"the server seed must be a hexadecimal string, not {server_seed!r}"
        ) from None
    if not raw:
        raise ValueError("the server seed must not be empty")
    return raw


def commitment(server_seed: str) -> str:
    """The SHA-256 hex digest the house publishes before the deal."""
    return hashlib.sha256(_seed_bytes(server_seed)).hexdigest()


class HmacStream:
    """Uniform draws from the HMAC-SHA256 byte stream of one (server, client, nonce).

    >>> stream = HmacStream("ab" * 32, "client", 7)
    >>> [stream.randbelow(52) for _ in range(3)]
    [42, 4, 8]
    """

    def __init__(self, server_seed: str, client_seed: str, nonce: int) -> None:
        if isinstance(nonce, bool) or not isinstance(nonce, int) or nonce < 0:
            raise ValueError(f"the nonce must be a whole number >= 0, not {nonce!r}")
        self._key = _seed_bytes(server_seed)
        self._prefix = f"{client_seed}:{nonce}:"
        self._block = 0  # the next block's number
        self._words: tuple[int, ...] = ()  # the current block's 8 words
        self._next = 0  # the next unread word of the current block

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``0..n-1`` by rejection sampling."""
        if not 0 < n <= _WORD:
            raise ValueError(f"randbelow needs 1 <= n <= 2**32, not {n}")
        limit = _WORD - _WORD % n
        while True:
            if self._next == len(self._words):  # the next block (step 1)
                message = (self._prefix + str(self._block)).encode()
                self._words = _WORDS.unpack(hmac.digest(self._key, message, "sha256"))
                self._block += 1
                self._next = 0
            word = self._words[self._next]
            self._next += 1
            if word < limit:
                return word % n


def derive_order(server_seed: str, client_seed: str, nonce: int, n: int = 52) -> list[int]:
    """The deck order (card indices, top card first) for one round."""
    order = list(range(n))
    fisher_yates(order, HmacStream(server_seed, client_seed, nonce).randbelow)
    return order


def verify_order(
    server_seed: str,
    client_seed: str,
    nonce: int,
    order: list[int],
    expected_commitment: str | None = None,
    deck_size: int = 52,
) -> bool:
    """True when the revealed seed matches its commitment and re-derives ``order``.

    ``order`` may be a prefix of the deck (the cards a round used); ``deck_size``
    is the number of cards shuffled (416 for an 8-deck shoe).
    """
    if expected_commitment is not None and not hmac.compare_digest(
        commitment(server_seed), expected_commitment.lower()
    ):
        return False
    full = derive_order(server_seed, client_seed, nonce, deck_size)
    return full[: len(order)] == list(order)


def _card_name(index: int) -> str:
    return "23456789TJQKA"[index % 52 // 4] + "cdhs"[index % 4]


def main(argv: list[str]) -> int:
    """Print the deck order of ``SERVER_SEED CLIENT_SEED NONCE [DECK_SIZE]``."""
    if len(argv) not in (3, 4) or not all(a.isdigit() for a in argv[2:]):
        print("usage: fairness.py SERVER_SEED CLIENT_SEED NONCE [DECK_SIZE]")
        return 2
    server_seed, client_seed, nonce = argv[0], argv[1], int(argv[2])
    size = int(argv[3]) if len(argv) == 4 else 52
    try:
        order = derive_order(server_seed, client_seed, nonce, size)
    except ValueError as error:
        print(f"error: {error}")
        return 2
    print(f"commitment: {commitment(server_seed)}")
    print(" ".join(_card_name(card) for card in order))
    return 0


if __name__ == "__main__":
    import sys

    raise SystemExit(main(sys.argv[1:]))
