"""Helpers for game tests: play a round with the cards given explicitly."""

from collections.abc import Mapping

from riverboat.cards import parse_cards
from riverboat.deck import Deck
from riverboat.games import Round


def play(
    game_round: Round,  # type: ignore[type-arg]
    cards: str,
    wagers: Mapping[str, int],
    action: str | None = None,
    amount: int | None = None,
) -> dict[str, int]:
    """Place ``wagers``, deal ``cards`` in order, make ``action``; the player's results."""
    game_round.place_wagers(wagers)
    game_round.deal(Deck.stacked(parse_cards(cards)))
    if action is not None:
        game_round.act(action, amount)
    return game_round.positions[0].result
