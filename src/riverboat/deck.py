"""A shuffled 52-card deck for one round, and a baccarat shoe that lives across coups.

>>> from riverboat.rng import SeededSource
>>> deck = Deck(SeededSource(7))
>>> hand = deck.deal(5)
>>> len(hand), deck.remaining
(5, 47)
>>> shoe = Shoe(decks=8, source=SeededSource(7))
>>> shoe.remaining == 416 - len(shoe.burned)
True
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Protocol, overload

from riverboat.cards import DECK_SIZE, Card
from riverboat.rng import RandomSource, SecureSource, shuffled

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = ["CardSource", "Deck", "DeckEmptyError", "Shoe", "burn_count", "cut_card_reached"]


class DeckEmptyError(ValueError):
    """More cards were asked for than the deck or shoe holds."""


class CardSource(Protocol):
    """Where a round takes its cards from: a :class:`Deck` or a :class:`Shoe`."""

    def deal(self, n: int) -> list[Card]: ...


class Deck:
    """One freshly shuffled 52-card deck (G2); cards come off the top."""

    def __init__(self, source: RandomSource | None = None) -> None:
        self.order: tuple[int, ...] = tuple(shuffled(DECK_SIZE, source or SecureSource()))
        self._next = 0

    @classmethod
    def stacked(cls, cards: Iterable[int]) -> Deck:
        """A deck that deals exactly these cards, in order (for replays and tests).

        >>> Deck.stacked([51, 0]).deal(2)
        [Card('As'), Card('2c')]
        """
        deck = cls.__new__(cls)
        deck.order = tuple(Card(c) for c in cards)
        deck._next = 0
        return deck

    @property
    def remaining(self) -> int:
        return len(self.order) - self._next

    def deal(self, n: int) -> list[Card]:
        """The next ``n`` cards."""
        if not 0 <= n <= self.remaining:
            raise DeckEmptyError(f"cannot deal {n} cards: {self.remaining} remain in the deck")
        cards = [Card(c) for c in self.order[self._next : self._next + n]]
        self._next += n
        return cards


@overload
def cut_card_reached(remaining: int, cut_card_from_end: int) -> bool: ...
@overload
def cut_card_reached(
    remaining: npt.NDArray[np.integer], cut_card_from_end: int
) -> npt.NDArray[np.bool_]: ...
def cut_card_reached(
    remaining: int | npt.NDArray[np.integer], cut_card_from_end: int
) -> bool | npt.NDArray[np.bool_]:
    """B1: the cut card has come out once no more than ``cut_card_from_end`` cards
    remain (for one shoe, or a numpy array of shoes' remaining counts)."""
    return remaining <= cut_card_from_end


def burn_count(card: int) -> int:
    """How many cards a shown card burns (B1): ace 1, 2-9 face value, 10-K ten."""
    rank = Card(card).rank
    return 1 if rank == 12 else min(int(rank) + 2, 10)


class Shoe:
    """A baccarat shoe of several decks with a cut card and a burn (B1).

    At every new shoe the first card is shown and burned with as many more cards
    as its value. :attr:`cut_card_reached` turns true when the card in front of the
    cut card has been drawn; the coup in play finishes and the game calls
    :meth:`reshuffle` before the next one.
    """

    def __init__(
        self,
        decks: int = 8,
        cut_card_from_end: int = 14,
        source: RandomSource | None = None,
    ) -> None:
        if not 1 <= decks <= 12:
            raise ValueError(f"a shoe holds 1 to 12 decks, not {decks}")
        if not 6 <= cut_card_from_end <= decks * DECK_SIZE // 2:
            raise ValueError(
                f"the cut card must lie 6 to {decks * DECK_SIZE // 2} cards from the end, "
                f"not {cut_card_from_end}"
            )
        self.decks = decks
        self.cut_card_from_end = cut_card_from_end
        self._source = source or SecureSource()
        self.reshuffle()

    @property
    def size(self) -> int:
        return self.decks * DECK_SIZE

    @property
    def remaining(self) -> int:
        return self.size - self._next

    @property
    def cut_card_reached(self) -> bool:
        return bool(cut_card_reached(self.remaining, self.cut_card_from_end))

    def reshuffle(self) -> None:
        """Shuffle every card back in, then show and burn as B1 says."""
        self.order: tuple[int, ...] = tuple(
            i % DECK_SIZE for i in shuffled(self.size, self._source)
        )
        self._next = 0
        shown = self.draw()
        self.burned: list[Card] = [shown, *(self.draw() for _ in range(burn_count(shown)))]

    def deal(self, n: int) -> list[Card]:
        """The next ``n`` cards from the shoe."""
        if not 0 <= n <= self.remaining:
            raise DeckEmptyError(f"cannot deal {n} cards: {self.remaining} remain in the shoe")
        return [self.draw() for _ in range(n)]

    def draw(self) -> Card:
        """The next card from the shoe."""
        if self._next >= self.size:
            raise DeckEmptyError("the shoe is empty")
        card = Card(self.order[self._next])
        self._next += 1
        return card
