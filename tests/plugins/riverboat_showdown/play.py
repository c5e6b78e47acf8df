"""Two-Card Showdown: an Ante against the dealer's two cards, and a Pair Up side bet.

A made-up game, small enough to read at one sitting, that riverboat's tests install
as a plug-in. The rules:

- Place an Ante ($5 to $500); the Pair Up ($1 to $100) is optional.
- You and the dealer get two cards each, the dealer's face down.
- Fold (Ante and Pair Up lost) or Play: a Play wager equal to the Ante.
- A pair beats any two different cards; pairs rank by rank, other hands by the
  higher card, then the lower. Suits never count.
- The dealer qualifies with jack-high or better. If not, the Ante wins 1 to 1 and
  the Play pushes. Otherwise the higher hand wins Ante and Play 1 to 1; equal hands
  push both.
- Pair Up pays 15 to 1 on any pair in your hand, whatever the dealer holds.

>>> from riverboat.cards import parse_cards
>>> from riverboat.deck import Deck
>>> game = ShowdownRound(ShowdownRules())
>>> _ = game.place_wagers({"ante": 1000, "pair_up": 100})
>>> game.deal(Deck.stacked(parse_cards("9h 9c  Qs 7h")))
>>> game.act("play")
>>> game.positions[0].result
{'ante': 1000, 'play': 1000, 'pair_up': 1500}
>>> print(game.describe())
Dealer: Q♠ 7♥, Queen-high, qualifies. Your 9♥ 9♣, Pair of Nines, wins:
Ante +$10, Play +$10, Pair Up +$15. Net +$35.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from riverboat.cards import Rank
from riverboat.games.engine import Round
from riverboat.games.rules import PayLine, PayTable, Spot
from riverboat.games.spec import GameSpec, HandSpec, OptionSpec
from riverboat.hands import Evaluator, HandRanking, hand_table
from riverboat.money import Cents

__all__ = [
    "FOLD",
    "PLAY",
    "TWO_CARD",
    "ShowdownRound",
    "ShowdownRules",
    "TwoCard",
    "evaluate2",
    "settle",
    "spec",
]

#: decision codes for :func:`settle`
FOLD, PLAY = 0, 1


class TwoCard(IntEnum):
    """The two-card hand categories, weakest first."""

    HIGH_CARD = 0
    PAIR = 1


def _classify(ranks: tuple[int, ...], flush: bool) -> tuple[int, ...]:
    low, high = ranks  # sorted, lowest first; suits never count
    if low == high:
        return (TwoCard.PAIR, high)
    return (TwoCard.HIGH_CARD, high, low)


#: the order of two-card hands
TWO_CARD = HandRanking("Two-Card Showdown", 2, TwoCard, _classify)


def _table() -> npt.NDArray[np.int16]:
    return hand_table(TWO_CARD)  # built once, kept by hand_table


def _values(hands: npt.ArrayLike) -> npt.NDArray[np.int32]:
    cards = np.sort(np.asarray(hands, dtype=np.int64), axis=1)
    low, high = cards[:, 0], cards[:, 1]
    index = high * (high - 1) // 2 + low  # the colex index of the pair of cards
    return _table()[index].astype(np.int32)


evaluate2 = Evaluator(2, TWO_CARD, _values, "Two-Card Showdown values of 2-card hands.")

PAIR_UP = PayTable("15", (PayLine("Pair", (TwoCard.PAIR,), Fraction(15)),))


@dataclass(frozen=True)
class ShowdownRules:
    """Two-Card Showdown's rules as data."""

    variant: str = "standard"
    version: int = 1
    ante: Spot = Spot("ante", "Ante", 500, 50_000, required=True)
    pair_up: Spot = Spot("pair_up", "Pair Up", 100, 10_000)
    chips: tuple[Cents, ...] = (100, 500, 2_500, 10_000)
    dealer_qualifies: tuple[int, ...] = (TwoCard.HIGH_CARD, Rank.JACK)
    pair_up_table: PayTable = PAIR_UP


def settle(
    rules: ShowdownRules,
    player: npt.ArrayLike,
    dealer: npt.ArrayLike,
    decision: npt.ArrayLike,
    ante: npt.ArrayLike,
    pair_up: npt.ArrayLike,
) -> dict[str, npt.NDArray[np.int64]]:
    """Net cents per line (ante, play, pair_up) for hands or arrays of hands: the only
    place the game's payouts are decided."""
    player, dealer, decision = np.asarray(player), np.asarray(dealer), np.asarray(decision)
    ante, pair_up = np.asarray(ante, np.int64), np.asarray(pair_up, np.int64)
    played = decision == PLAY
    qualifies = dealer >= TWO_CARD.lowest(*rules.dealer_qualifies)
    wins, ties = player > dealer, player == dealer
    duel = np.where(wins, ante, np.where(ties, 0, -ante))
    ante_line = np.where(played, np.where(qualifies, duel, ante), -ante)
    play_line = np.where(played & qualifies, duel, 0)
    pair_up_won = rules.pair_up_table.winnings(TWO_CARD, player, pair_up)
    pair_up_line = np.where(played & (pair_up_won > 0), pair_up_won, -pair_up)
    return {"ante": ante_line, "play": play_line, "pair_up": pair_up_line}


def spec(rules: ShowdownRules) -> GameSpec:
    """Two cards each; Fold or Play 1x with the Ante."""
    return GameSpec(
        name="showdown",
        title="Two-Card Showdown",
        variant=rules.variant,
        hands=(
            HandSpec("player", "You", 2, each_position=True),
            HandSpec("dealer", "Dealer", 2, house=True),
        ),
        spots=(rules.ante, rules.pair_up),
        chips=rules.chips,
        options=(OptionSpec("fold", "Fold"), OptionSpec("play", "Play", Fraction(1), line="play")),
        pay_tables={"pair_up_table": rules.pair_up_table},
        evaluator=evaluate2,
    )


_LABELS = {"ante": "Ante", "play": "Play", "pair_up": "Pair Up"}


class ShowdownRound(Round[ShowdownRules]):
    """One round of Two-Card Showdown for one player."""

    game = "showdown"

    def _spec(self) -> GameSpec:
        return spec(self.rules)

    def _settle(self) -> list[dict[str, Cents]]:
        position = self.positions[0]
        lines = settle(
            self.rules,
            evaluate2(self.cards["player"]),
            evaluate2(self.cards["dealer"]),
            PLAY if position.decision == "play" else FOLD,
            position.wagers["ante"],
            position.wagers["pair_up"],
        )
        return [{name: int(value) for name, value in lines.items()}]

    def _describe(self) -> str:
        position = self.positions[0]
        player, dealer = evaluate2(self.cards["player"]), evaluate2(self.cards["dealer"])
        qualifies = dealer >= TWO_CARD.lowest(*self.rules.dealer_qualifies)
        if position.decision == "fold":
            verdict = "folds"
        else:
            verdict = "wins" if player > dealer else "ties" if player == dealer else "loses"
        return (
            f"Dealer: {self._show(self.cards['dealer'])}, {TWO_CARD.describe(dealer)}, "
            + ("qualifies." if qualifies else "does not qualify.")
            + f" Your {self._show(self.cards['player'])}, {TWO_CARD.describe(player)}, "
            f"{verdict}: {self._results_text(position, _LABELS)}."
        )
