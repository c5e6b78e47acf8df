"""Baccarat, punto banco (B1-B8): Player, Banker and Tie from a shoe that lives across coups.

The drawing rules are vectorised: :func:`coup_totals` plays whole arrays of coups
for the analyzer and the simulator with the same :func:`player_draws` and
:func:`banker_draws` the round engine uses card by card.

>>> from riverboat.deck import Deck
>>> from riverboat.cards import parse_cards
>>> game = BaccaratRound(BaccaratRules())
>>> _ = game.place_wagers({"banker": 1000, "tie": 500})
>>> game.deal(Deck.stacked(parse_cards("4h 3c Kd 2s 8c 9d")))
>>> game.cards  # the Banker stands on 5 when the Player's third card is an 8 (B6)
{'player': [Card('4h'), Card('Kd'), Card('8c')], 'banker': [Card('3c'), Card('2s')]}
>>> print(game.describe())
Player: 4♥ K♦ 8♣, 2. Banker: 3♣ 2♠, 5. Banker wins: Banker +$9.50, Tie -$5. Net +$4.50.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from riverboat.cards import Card
from riverboat.deck import Shoe
from riverboat.games.engine import Round
from riverboat.games.once import by_identity
from riverboat.games.rules import RulesError, Spot
from riverboat.games.spec import GameSpec, HandSpec, ShoeSpec
from riverboat.games.variant_model import rule
from riverboat.money import Cents, winnings
from riverboat.rng import RandomSource

__all__ = [
    "BaccaratRound",
    "BaccaratRules",
    "BaccaratTable",
    "banker_draws",
    "card_values",
    "coup",
    "coup_totals",
    "player_draws",
    "settle",
    "spec",
    "winner",
]

#: B3: baccarat value of each rank 2..A
VALUE_OF_RANK = np.array([2, 3, 4, 5, 6, 7, 8, 9, 0, 0, 0, 0, 1], dtype=np.int64)


@dataclass(frozen=True)
class BaccaratRules:
    """Baccarat rules as data; the defaults are the rulings'."""

    variant: str = "8 decks"
    version: int = 1
    decks: int = rule(8, "the decks in the shoe, 1 to 12 (B1)")
    cut_card_from_end: int = rule(14, "where the cut card lies: cards from the shoe's end (B1)")
    player: Spot = rule(Spot("player", "Player", 500, 50_000), "the Player limits, in dollars (B2)")
    banker: Spot = rule(Spot("banker", "Banker", 500, 50_000), "the Banker limits, in dollars (B2)")
    tie: Spot = rule(Spot("tie", "Tie", 500, 10_000), "the Tie limits, in dollars (B2)")
    chips: tuple[Cents, ...] = rule(
        (100, 500, 2_500, 10_000, 50_000), "the chips offered, in dollars, smallest first"
    )
    commission: Fraction = rule(
        Fraction(1, 20), 'the commission on a Banker win, a fraction below 1 ("1/20" is 5%) (B7)'
    )
    tie_pays: Fraction = rule(Fraction(8), "what a Tie pays to 1 (B7)")

    def __post_init__(self) -> None:
        if not 0 <= self.commission < 1:
            raise RulesError(
                f"the commission must be at least 0 and below 1, not {self.commission}"
            )
        if self.tie_pays < 0:
            raise RulesError(f"Tie cannot pay a negative amount ({self.tie_pays} to 1)")
        if not 1 <= self.decks <= 12:
            raise RulesError(f"a shoe holds 1 to 12 decks, not {self.decks}")
        if not 6 <= self.cut_card_from_end <= 26 * self.decks:
            raise RulesError(
                f"the cut card must lie 6 to {26 * self.decks} cards from the end, "
                f"not {self.cut_card_from_end}"
            )

    @property
    def banker_pays(self) -> Fraction:
        """B7: what a Banker win pays to 1, the commission taken (19/20 at 5%)."""
        return 1 - self.commission

    @classmethod
    def six_decks(cls) -> BaccaratRules:
        return replace(cls(), variant="6 decks", decks=6)


def card_values(cards: npt.ArrayLike) -> npt.NDArray[np.int64]:
    """Baccarat values (B3) of card indices: ace 1, 2-9 face value, tens and pictures 0."""
    values: npt.NDArray[np.int64] = VALUE_OF_RANK[np.asarray(cards, dtype=np.int64) % 52 // 4]
    return values


def player_draws(player_two: npt.ArrayLike, banker_two: npt.ArrayLike) -> npt.NDArray[np.bool_]:
    """B4, B5: the Player draws on 0-5 unless either two-card total is a natural."""
    player, banker = np.asarray(player_two), np.asarray(banker_two)
    result: npt.NDArray[np.bool_] = (player < 8) & (banker < 8) & (player <= 5)
    return result


def banker_draws(
    player_two: npt.ArrayLike, banker_two: npt.ArrayLike, player_third: npt.ArrayLike
) -> npt.NDArray[np.bool_]:
    """B4, B6: whether the Banker draws; ``player_third`` is the Player's third card's
    value, or -1 when the Player stood."""
    player, banker, third = np.asarray(player_two), np.asarray(banker_two), np.asarray(player_third)
    stood = third < 0
    after_draw = (
        (banker <= 2)
        | ((banker == 3) & (third != 8))
        | ((banker == 4) & (third >= 2) & (third <= 7))
        | ((banker == 5) & (third >= 4) & (third <= 7))
        | ((banker == 6) & (third >= 6) & (third <= 7))
    )
    result: npt.NDArray[np.bool_] = (
        (player < 8) & (banker < 8) & np.where(stood, banker <= 5, after_draw)
    )
    return result


def coup_totals(
    values: npt.ArrayLike,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Player and Banker totals of coups given the values of their first six cards.

    ``values`` has shape (..., 6), cards in dealing order (B3: player, banker, player,
    banker, then third cards); cards a coup does not use are ignored.
    """
    player_total, banker_total, _ = coup(values)
    return player_total, banker_total


def coup(
    values: npt.ArrayLike,
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """:func:`coup_totals` and how many of the six cards each coup takes (4 to 6)."""
    v = np.asarray(values)
    if not np.issubdtype(v.dtype, np.integer):
        raise TypeError(f"card values must be integers, not {v.dtype}")
    player_two, banker_two = (v[..., 0] + v[..., 2]) % 10, (v[..., 1] + v[..., 3]) % 10
    player_drew = player_draws(player_two, banker_two)
    player_third = np.where(player_drew, v[..., 4], -1)
    banker_third = np.where(player_drew, v[..., 5], v[..., 4])
    banker_drew = banker_draws(player_two, banker_two, player_third)
    player_total = np.where(player_drew, (player_two + v[..., 4]) % 10, player_two)
    banker_total = np.where(banker_drew, (banker_two + banker_third) % 10, banker_two)
    cards: npt.NDArray[np.int64] = 4 + player_drew.astype(np.int64) + banker_drew
    return player_total.astype(np.int64), banker_total.astype(np.int64), cards


@by_identity
def spec(rules: BaccaratRules) -> GameSpec:
    """Baccarat's shape: Player and Banker take two or three cards by the drawing
    rules (B3-B6) from a shoe with a burn (B1); no decisions; a shared shoe seats
    any number of players, each betting on the same coup."""
    return GameSpec(
        name="baccarat",
        title="Baccarat",
        variant=rules.variant,
        hands=(
            HandSpec("player", "Player", 3, fewest=2),
            HandSpec("banker", "Banker", 3, fewest=2),
        ),
        spots=(rules.player, rules.banker, rules.tie),
        chips=rules.chips,
        decides_with=None,
        at_least_one=("player", "banker", "tie"),  # B2
        shoe=ShoeSpec(rules.decks, rules.cut_card_from_end),
        max_seats=7,
        max_positions=7,
        table_seats=None,  # every seat's coup is the same cards: any number may bet
    )


Lines = dict[str, npt.NDArray[np.int64]]


def winner(player_total: int, banker_total: int) -> str:
    """The side a coup's totals favour: "Player", "Banker" or "Tie" (the higher total
    wins, B7), as the description, the bead plate and the big road name it.

    >>> winner(7, 3), winner(0, 9), winner(6, 6)
    ('Player', 'Banker', 'Tie')
    """
    if player_total == banker_total:
        return "Tie"
    return "Player" if player_total > banker_total else "Banker"


def settle(
    rules: BaccaratRules,
    player_total: npt.ArrayLike,
    banker_total: npt.ArrayLike,
    player: npt.ArrayLike,
    banker: npt.ArrayLike,
    tie: npt.ArrayLike,
) -> Lines:
    """Net cents per line (player, banker, tie) for coups or arrays of coups (B7).

    The only place baccarat payouts are decided.
    """
    player_total, banker_total = np.asarray(player_total), np.asarray(banker_total)
    player, banker = np.asarray(player, np.int64), np.asarray(banker, np.int64)
    tie = np.asarray(tie, np.int64)
    player_wins, banker_wins = player_total > banker_total, banker_total > player_total
    return {
        "player": np.where(player_wins, player, np.where(banker_wins, -player, 0)),
        "banker": np.where(
            banker_wins,
            winnings(banker, rules.banker_pays),  # G8: round down
            np.where(player_wins, -banker, 0),
        ),
        "tie": np.where(
            player_wins | banker_wins,
            -tie,
            winnings(tie, rules.tie_pays),
        ),
    }


_LABELS = {"player": "Player", "banker": "Banker", "tie": "Tie"}


class BaccaratRound(Round[BaccaratRules]):
    """One coup of baccarat; several seats may bet on it (a shared shoe)."""

    game = "baccarat"

    def _spec(self) -> GameSpec:
        return spec(self.rules)

    def _deal(self, draw: Callable[[int], list[Card]]) -> dict[str, list[Card]]:
        first, second, third, fourth = draw(4)  # B3: player, banker, player, banker
        player, banker = [first, third], [second, fourth]
        player_two, banker_two = self._total(player), self._total(banker)
        player_third = -1
        if player_draws(player_two, banker_two):
            player += draw(1)
            player_third = int(card_values(player[2]))
        if banker_draws(player_two, banker_two, player_third):
            banker += draw(1)
        return {"player": player, "banker": banker}

    @staticmethod
    def _total(cards: list[Card]) -> int:
        return int(card_values(cards).sum() % 10)

    def totals(self) -> tuple[int, int] | None:
        """The Player's and the Banker's totals, once dealt."""
        return self._dealt_totals() if self.cards else None

    def _dealt_totals(self) -> tuple[int, int]:
        return self._total(self.cards["player"]), self._total(self.cards["banker"])

    def winner(self) -> str | None:
        """The side the coup's totals favour (B7), once dealt."""
        found = self.totals()
        return None if found is None else winner(*found)

    def _settle(self) -> list[dict[str, Cents]]:
        player_total, banker_total = self._dealt_totals()
        results = []
        for position in self.positions:
            lines = settle(self.rules, player_total, banker_total, **position.wagers)
            results.append({name: int(value) for name, value in lines.items()})
        return results

    def _describe(self) -> str:
        player_total, banker_total = self._dealt_totals()
        side = winner(player_total, banker_total)
        outcome = "Tie" if side == "Tie" else f"{side} wins"
        text = [
            f"Player: {self._show(self.cards['player'])}, {player_total}.",
            f"Banker: {self._show(self.cards['banker'])}, {banker_total}.",
        ]
        for position in self.positions:
            who = "" if len(self.positions) == 1 else f"{position.seat}: "
            text.append(f"{outcome}: {who}{self._results_text(position, _LABELS)}.")
        return " ".join(text)


class BaccaratTable:
    """A baccarat table: the shoe lives across coups and is reshuffled at the cut card (B1).

    >>> from riverboat.rng import SeededSource
    >>> table = BaccaratTable(BaccaratRules(), SeededSource(1))
    >>> coup = table.new_round()
    >>> _ = coup.place_wagers({"player": 1000})
    >>> table.deal(coup)
    >>> coup.settled
    True
    """

    def __init__(self, rules: BaccaratRules, source: RandomSource | None = None) -> None:
        self.rules = rules
        self.shoe = Shoe(rules.decks, rules.cut_card_from_end, source)
        self.shoes_started = 1

    def new_round(self) -> BaccaratRound:
        """A coup to bet on; a shoe past its cut card is reshuffled first (B1)."""
        if self.shoe.cut_card_reached:
            self.shoe.reshuffle()
            self.shoes_started += 1
        return BaccaratRound(self.rules)

    def deal(self, coup: BaccaratRound) -> None:
        coup.deal(self.shoe)
