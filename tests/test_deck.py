"""Deck and baccarat shoe: fresh deck per round (G2), shoe with cut card and burn (B1)."""

from collections import Counter

import pytest

from riverboat.cards import Card
from riverboat.deck import Deck, DeckEmptyError, Shoe, burn_count
from riverboat.rng import SeededSource


def test_deck_deals_each_card_once() -> None:
    deck = Deck(SeededSource(1))
    cards = deck.deal(52)
    assert sorted(cards) == list(range(52))
    with pytest.raises(DeckEmptyError, match="0 remain"):
        deck.deal(1)


def test_same_seed_same_deck_other_seed_other_deck() -> None:
    assert Deck(SeededSource(5)).order == Deck(SeededSource(5)).order
    assert Deck(SeededSource(5)).order != Deck(SeededSource(6)).order


@pytest.mark.parametrize(
    ("name", "burned"), [("As", 1), ("2d", 2), ("9h", 9), ("Tc", 10), ("Ks", 10)]
)
def test_burn_count_b1(name: str, burned: int) -> None:
    # B1: the first card is shown and that many cards (10, J, Q, K count 10) are burned
    assert burn_count(Card.parse(name)) == burned


@pytest.mark.parametrize("decks", [8, 6])
def test_shoe_burns_then_reaches_cut_card_b1(decks: int) -> None:
    shoe = Shoe(decks=decks, cut_card_from_end=14, source=SeededSource(decks))
    assert Counter(shoe.order) == dict.fromkeys(range(52), decks)
    shown = shoe.burned[0]
    assert shoe.burned[0] == shoe.order[0]
    assert len(shoe.burned) == 1 + burn_count(shown)
    assert shoe.remaining == decks * 52 - len(shoe.burned)
    drawn = 0
    while not shoe.cut_card_reached:
        shoe.draw()
        drawn += 1
    assert shoe.remaining == 14
    assert drawn == decks * 52 - len(shoe.burned) - 14
    shoe.draw()  # the coup in play finishes past the cut card
    shoe.reshuffle()
    assert not shoe.cut_card_reached
    assert shoe.remaining == decks * 52 - len(shoe.burned)


def test_shoe_refuses_bad_settings() -> None:
    with pytest.raises(ValueError, match="1 to 12 decks"):
        Shoe(decks=0)
    with pytest.raises(ValueError, match="cut card must lie 6 to 208"):
        Shoe(decks=8, cut_card_from_end=2)
