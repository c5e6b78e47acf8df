"""Rabbit Hunter (R1-R11): five-card poker against the dealer; buy a sixth card, the rabbit.

>>> from riverboat.deck import Deck
>>> from riverboat.cards import parse_cards
>>> game = RabbitHunterRound(RabbitHunterRules())
>>> _ = game.place_wagers({"ante": 1000, "bonus": 1000})
>>> game.deal(Deck.stacked(parse_cards("Kh Kc 7d 7s 2c  Ks Qd 9h 4c 3d  Ah")))
>>> [choice.label for choice in game.legal_actions()]
['Fold', 'Play', 'Buy & Play']
>>> game.act("play")
>>> print(game.describe())
Dealer: K♠ Q♦ 9♥ 4♣ 3♦, King-high, does not qualify. Your K♥ K♣ 7♦ 7♠ 2♣,
Two Pair, Kings and Sevens, wins: Ante push, Play +$10, Bonus +$20. Net +$30.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from riverboat.cards import Card, Rank
from riverboat.games.engine import Round
from riverboat.games.once import by_identity
from riverboat.games.rules import PayLine, PayTable, RulesError, Spot
from riverboat.games.spec import GameSpec, HandSpec, OptionSpec
from riverboat.games.variant_model import rule
from riverboat.hands import FIVE_CARD, FiveCard, evaluate5, evaluate6
from riverboat.money import Cents, winnings

__all__ = [
    "BONUS_TABLE",
    "BUY",
    "FOLD",
    "PLAY",
    "RabbitHunterRound",
    "RabbitHunterRules",
    "settle",
    "spec",
]

#: decision codes for :func:`settle`
FOLD, PLAY, BUY = 0, 1, 2

#: R7: the Bonus pays on the player's final hand
BONUS_TABLE = PayTable(
    "standard",
    (
        PayLine("Royal Flush", (FiveCard.ROYAL_FLUSH,), Fraction(500)),
        PayLine("Straight Flush", (FiveCard.STRAIGHT_FLUSH,), Fraction(100)),
        PayLine("Four of a Kind", (FiveCard.FOUR_OF_A_KIND,), Fraction(50)),
        PayLine("Full House", (FiveCard.FULL_HOUSE,), Fraction(30)),
        PayLine("Flush", (FiveCard.FLUSH,), Fraction(9)),
        PayLine("Straight", (FiveCard.STRAIGHT,), Fraction(7)),
        PayLine("Three of a Kind", (FiveCard.THREE_OF_A_KIND,), Fraction(5)),
        PayLine("Two Pairs", (FiveCard.TWO_PAIR,), Fraction(2)),
        PayLine("Pair of 10s or Higher", (FiveCard.PAIR, Rank.TEN), Fraction(1)),
    ),
)


@dataclass(frozen=True)
class RabbitHunterRules:
    """Rabbit Hunter rules as data; the defaults are the rulings'."""

    variant: str = "standard"
    version: int = 1
    ante: Spot = rule(
        Spot("ante", "Ante", 500, 50_000, required=True), "the Ante's limits, in dollars (R1)"
    )
    bonus: Spot = rule(
        Spot("bonus", "Bonus", 500, 50_000, equal_to="ante"),
        "the Bonus limits, in dollars; it equals the Ante (R1)",
    )
    bad_beat: Spot = rule(
        Spot("bad_beat", "Bad Beat", 500, 10_000), "the 2-Way Bad Beat limits, in dollars (R1)"
    )
    chips: tuple[Cents, ...] = rule(
        (100, 500, 2_500, 10_000, 50_000), "the chips offered, in dollars, smallest first"
    )
    dealer_qualifies: tuple[int, ...] = rule(
        (FiveCard.HIGH_CARD, Rank.ACE),
        "the weakest hand the dealer qualifies with (R5)",
        hand=FIVE_CARD,
    )
    bonus_table: PayTable = rule(
        BONUS_TABLE, "the Bonus, to 1, on the final hand, win or lose (R7)"
    )
    bad_beat_pays: Fraction = rule(Fraction(10), "what the 2-Way Bad Beat pays to 1 (R8)")
    bad_beat_at_least: tuple[int, ...] = rule(
        (FiveCard.PAIR, Rank.TEN),
        "the weakest losing hand the Bad Beat pays on (R8)",
        hand=FIVE_CARD,
    )
    max_payout: Cents | None = rule(
        5_000_000, 'the most a round\'s winnings pay, in dollars, or "none" (R9)'
    )

    def __post_init__(self) -> None:
        if self.bad_beat_pays < 0:
            raise RulesError(f"Bad Beat cannot pay a negative amount ({self.bad_beat_pays} to 1)")
        if self.max_payout is not None and self.max_payout <= 0:
            raise RulesError(f"the maximum payout must be positive, not {self.max_payout}")


@by_identity
def spec(rules: RabbitHunterRules) -> GameSpec:
    """Rabbit Hunter's shape: five cards each (R3), the rabbit on Buy & Play (R4)."""
    return GameSpec(
        name="rabbit-hunter",
        title="Rabbit Hunter",
        variant=rules.variant,
        hands=(
            HandSpec("player", "You", 5, each_position=True),
            HandSpec("dealer", "Dealer", 5, house=True),
            HandSpec("rabbit", "The rabbit", 1, dealt_on="buy"),
        ),
        spots=(rules.ante, rules.bonus, rules.bad_beat),
        evaluator=evaluate5,
        chips=rules.chips,
        options=(
            OptionSpec("fold", "Fold"),
            OptionSpec("play", "Play", Fraction(1), line="play"),
            # R4: a fee equal to the Ante and a Play wager equal to the Ante
            OptionSpec(
                "buy", "Buy & Play", Fraction(2), line="play", fee_line="fee", deals="rabbit"
            ),
        ),
        pay_tables={"bonus_table": rules.bonus_table},
    )


Lines = dict[str, npt.NDArray[np.int64]]


def settle(
    rules: RabbitHunterRules,
    player: npt.ArrayLike,
    dealer: npt.ArrayLike,
    decision: npt.ArrayLike,
    ante: npt.ArrayLike,
    bonus: npt.ArrayLike,
    bad_beat: npt.ArrayLike,
) -> Lines:
    """Net cents per line (ante, play, fee, bonus, bad_beat, cap) for hands or arrays.

    ``player`` is the :data:`~riverboat.hands.FIVE_CARD` value of the player's final
    hand (best five of six after a buy), ``decision`` :data:`FOLD`, :data:`PLAY` or
    :data:`BUY`. ``cap`` is what the maximum payout (R9) takes back, zero or less.
    The only place Rabbit Hunter payouts are decided.
    """
    player, dealer, decision = np.asarray(player), np.asarray(dealer), np.asarray(decision)
    ante, bonus = np.asarray(ante, np.int64), np.asarray(bonus, np.int64)
    bad_beat = np.asarray(bad_beat, np.int64)
    folded = decision == FOLD
    wins, ties = player > dealer, player == dealer
    play = np.where(folded, 0, ante)  # R4: a Play wager equal to the Ante
    showdown = np.where(wins, play, np.where(ties, 0, -play))  # R6
    qualifies = dealer >= FIVE_CARD.lowest(*rules.dealer_qualifies)  # R5
    ante_line = np.where(folded, -ante, np.where(qualifies, np.where(wins, ante, showdown), 0))
    bonus_won = rules.bonus_table.winnings(FIVE_CARD, player, bonus)  # R7
    bonus_line = np.where(~folded & (bonus_won > 0), bonus_won, -bonus)
    losing_hand = np.minimum(player, dealer)
    bad_beat_hit = ~folded & ~ties & (losing_hand >= FIVE_CARD.lowest(*rules.bad_beat_at_least))
    bad_beat_line = np.where(bad_beat_hit, winnings(bad_beat, rules.bad_beat_pays), -bad_beat)
    lines = {
        "ante": ante_line,
        "play": showdown,
        "fee": np.where(decision == BUY, -ante, 0),  # R4: never returned, never paid on
        "bonus": bonus_line,
        "bad_beat": bad_beat_line,
    }
    won = sum(np.maximum(line, 0) for line in lines.values())
    cap = 0 if rules.max_payout is None else np.minimum(rules.max_payout - won, 0)
    lines["cap"] = np.asarray(cap + np.zeros_like(ante_line))  # R9
    return lines


_LABELS = {
    "ante": "Ante",
    "play": "Play",
    "fee": "Rabbit fee",
    "bonus": "Bonus",
    "bad_beat": "Bad Beat",
    "cap": "Maximum payout",
}


class RabbitHunterRound(Round[RabbitHunterRules]):
    """One round of Rabbit Hunter for one player."""

    game = "rabbit-hunter"

    def _spec(self) -> GameSpec:
        return spec(self.rules)

    def player_hand(self) -> list[Card]:
        """The player's five cards, and the rabbit once bought."""
        return self.cards.get("player", []) + self.cards.get("rabbit", [])

    def _player_value(self) -> int:
        hand = self.player_hand()
        return evaluate6(hand) if len(hand) == 6 else evaluate5(hand)

    def _settle(self) -> list[dict[str, Cents]]:
        position = self.positions[0]
        codes = {"fold": FOLD, "play": PLAY, "buy": BUY}
        lines = settle(
            self.rules,
            self._player_value(),
            evaluate5(self.cards["dealer"]),
            codes[position.decision or "fold"],
            position.wagers["ante"],
            position.wagers["bonus"],
            position.wagers["bad_beat"],
        )
        return [{name: int(value) for name, value in lines.items()}]

    def _describe(self) -> str:
        position = self.positions[0]
        player, dealer = self._player_value(), evaluate5(self.cards["dealer"])
        qualifies = dealer >= FIVE_CARD.lowest(*self.rules.dealer_qualifies)
        dealer_text = (
            f"Dealer: {self._show(self.cards['dealer'])}, {FIVE_CARD.describe(dealer)}, "
            + ("qualifies." if qualifies else "does not qualify.")
        )
        if position.decision == "fold":
            verdict = "folds"
        else:
            verdict = "wins" if player > dealer else "ties" if player == dealer else "loses"
        rabbit = (
            f" with the rabbit {self._show(self.cards['rabbit'])}" if "rabbit" in self.cards else ""
        )
        return (
            f"{dealer_text} Your {self._show(self.cards['player'])}{rabbit}, "
            f"{FIVE_CARD.describe(player)}, {verdict}: {self._results_text(position, _LABELS)}."
        )
