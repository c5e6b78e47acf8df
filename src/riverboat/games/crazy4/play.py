"""Crazy 4 Poker (C1-C9): best four of five, Super Bonus, Queens Up, up to six seats.

>>> from riverboat.deck import Deck
>>> from riverboat.cards import parse_cards
>>> game = Crazy4Round(Crazy4Rules())
>>> _ = game.place_wagers({"ante": 1000, "super_bonus": 1000}, seat="ann")
>>> game.deal(Deck.stacked(parse_cards("Ah Ac Kd Ks 2c  Qs Jd 9h 4c 3d")))
>>> [(c.action, c.minimum, c.maximum) for c in game.legal_actions("ann")]
[('fold', 0, 0), ('play', 1000, 3000)]
>>> game.act("play", 3000, seat="ann")
>>> game.positions[0].result  # Queen-high does not qualify (C4): Ante push, Play wins
{'ante': 0, 'play': 3000, 'super_bonus': 0, 'queens_up': 0}
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from riverboat.cards import Rank
from riverboat.games.engine import Round
from riverboat.games.once import by_identity
from riverboat.games.rules import PayLine, PayTable, RulesError, Spot
from riverboat.games.spec import GameSpec, HandSpec, OptionSpec
from riverboat.games.variant_model import rule
from riverboat.hands import FOUR_CARD, FourCard, evaluate4of5
from riverboat.money import Cents

__all__ = [
    "QUEENS_UP_TABLE",
    "SUPER_BONUS_TABLE",
    "Crazy4Round",
    "Crazy4Rules",
    "settle",
    "spec",
]

#: C6: Super Bonus on a straight or better; flush 3 to 2 is the common table
SUPER_BONUS_TABLE = PayTable(
    "standard",
    (
        PayLine("Four Aces", (FourCard.FOUR_ACES,), Fraction(200)),
        PayLine("Four of a Kind", (FourCard.FOUR_OF_A_KIND,), Fraction(30)),
        PayLine("Straight Flush", (FourCard.STRAIGHT_FLUSH,), Fraction(15)),
        PayLine("Three of a Kind", (FourCard.THREE_OF_A_KIND,), Fraction(2)),
        PayLine("Flush", (FourCard.FLUSH,), Fraction(3, 2)),
        PayLine("Straight", (FourCard.STRAIGHT,), Fraction(1)),
    ),
)
#: C7: Queens Up on the player's hand alone
QUEENS_UP_TABLE = PayTable(
    "standard",
    (
        PayLine("Four of a Kind", (FourCard.FOUR_OF_A_KIND,), Fraction(50)),
        PayLine("Straight Flush", (FourCard.STRAIGHT_FLUSH,), Fraction(30)),
        PayLine("Three of a Kind", (FourCard.THREE_OF_A_KIND,), Fraction(8)),
        PayLine("Flush", (FourCard.FLUSH,), Fraction(4)),
        PayLine("Straight", (FourCard.STRAIGHT,), Fraction(3)),
        PayLine("Two Pair", (FourCard.TWO_PAIR,), Fraction(2)),
        PayLine("Pair of Queens or Better", (FourCard.PAIR, Rank.QUEEN), Fraction(1)),
    ),
)


@dataclass(frozen=True)
class Crazy4Rules:
    """Crazy 4 Poker rules as data; the defaults are the rule card's (C5, C6).

    :meth:`standard` is the rule set published analyses use (C9).
    """

    variant: str = "rule-card"
    version: int = 1
    ante: Spot = rule(
        Spot("ante", "Ante", 500, 50_000, required=True), "the Ante's limits, in dollars (C1)"
    )
    super_bonus: Spot = rule(
        Spot("super_bonus", "Super Bonus", 500, 50_000, required=True, equal_to="ante"),
        "the Super Bonus limits, in dollars; it equals the Ante (C1)",
    )
    queens_up: Spot = rule(
        Spot("queens_up", "Queens Up", 500, 10_000), "the Queens Up limits, in dollars (C1)"
    )
    chips: tuple[Cents, ...] = rule(
        (100, 500, 2_500, 10_000, 50_000), "the chips offered, in dollars, smallest first"
    )
    dealer_qualifies: tuple[int, ...] = rule(
        (FourCard.HIGH_CARD, Rank.KING),
        "the weakest hand the dealer qualifies with (C4)",
        hand=FOUR_CARD,
    )
    raise_up_to_3x_at_least: tuple[int, ...] = rule(
        (FourCard.PAIR, Rank.ACE),
        "the weakest hand that may play more than 1x the Ante (C3)",
        hand=FOUR_CARD,
    )
    max_play_multiple: int = rule(3, "the most the Play may be, in Antes (C3)")
    ties_push: bool = rule(False, "equal hands push against a qualifying dealer (C5's variant)")
    super_bonus_pushes_on_no_qualify: bool = rule(
        False, "the Super Bonus pushes below a straight when the dealer does not qualify (C6)"
    )
    super_bonus_table: PayTable = rule(
        SUPER_BONUS_TABLE, "the Super Bonus, to 1, on the player's hand, win or lose (C6)"
    )
    queens_up_table: PayTable = rule(QUEENS_UP_TABLE, "Queens Up, to 1, on the player's hand (C7)")

    def __post_init__(self) -> None:
        if self.max_play_multiple < 1:
            raise RulesError(
                f"the Play may be up to 1x the Ante or more, not {self.max_play_multiple}x"
            )

    @classmethod
    def standard(cls) -> Crazy4Rules:
        """C9: ties push and the Super Bonus pushes when the dealer does not qualify."""
        return replace(
            cls(), variant="standard", ties_push=True, super_bonus_pushes_on_no_qualify=True
        )


@by_identity
def spec(rules: Crazy4Rules) -> GameSpec:
    """Crazy 4's shape: five cards to each position and the dealer (C2), up to six
    seats with a blind second position each (C8), Play 1x or up to 3x (C3)."""
    return GameSpec(
        name="crazy4",
        title="Crazy 4 Poker",
        variant=rules.variant,
        hands=(
            HandSpec("player", "You", 5, each_position=True),
            HandSpec("dealer", "Dealer", 5, house=True),
        ),
        spots=(rules.ante, rules.super_bonus, rules.queens_up),
        evaluator=evaluate4of5,
        chips=rules.chips,
        options=(
            OptionSpec("fold", "Fold"),
            OptionSpec(
                "play",
                "Play",
                Fraction(1),
                Fraction(rules.max_play_multiple),
                most_from=rules.raise_up_to_3x_at_least,
                line="play",
            ),
        ),
        max_seats=6,
        max_positions=6,  # six betting positions on the felt; a player may take two
        table_seats=6,
        positions_per_seat=2,
        blind_play=Fraction(1),  # C8: the blind position always plays 1x
        pay_tables={
            "super_bonus_table": rules.super_bonus_table,
            "queens_up_table": rules.queens_up_table,
        },
    )


Lines = dict[str, npt.NDArray[np.int64]]


def settle(
    rules: Crazy4Rules,
    player: npt.ArrayLike,
    dealer: npt.ArrayLike,
    play: npt.ArrayLike,
    ante: npt.ArrayLike,
    super_bonus: npt.ArrayLike,
    queens_up: npt.ArrayLike,
) -> Lines:
    """Net cents per line (ante, play, super_bonus, queens_up) for hands or arrays of hands.

    ``player``/``dealer`` are :data:`~riverboat.hands.FOUR_CARD` values (best four of
    five) and ``play`` the Play wager in cents, 0 for a fold. The only place Crazy 4
    payouts are decided.
    """
    player, dealer = np.asarray(player), np.asarray(dealer)
    play, ante = np.asarray(play, np.int64), np.asarray(ante, np.int64)
    super_bonus, queens_up = np.asarray(super_bonus, np.int64), np.asarray(queens_up, np.int64)
    folded = play == 0
    qualifies = dealer >= FOUR_CARD.lowest(*rules.dealer_qualifies)  # C4
    wins, ties = player > dealer, player == dealer
    push_tie = ties & rules.ties_push  # C5
    ante_line = np.where(
        folded, -ante, np.where(~qualifies | push_tie, 0, np.where(wins, ante, -ante))
    )
    play_line = np.where(~qualifies | wins, play, np.where(push_tie, 0, -play))
    bonus_won = rules.super_bonus_table.winnings(FOUR_CARD, player, super_bonus)  # C6
    bonus_pushes = player >= dealer
    if rules.super_bonus_pushes_on_no_qualify:
        bonus_pushes = bonus_pushes | ~qualifies
    bonus_line = np.where(bonus_won > 0, bonus_won, np.where(bonus_pushes, 0, -super_bonus))
    queens_won = rules.queens_up_table.winnings(FOUR_CARD, player, queens_up)  # C7
    return {
        "ante": ante_line,
        "play": play_line,
        "super_bonus": np.where(folded, -super_bonus, bonus_line),
        "queens_up": np.where(~folded & (queens_won > 0), queens_won, -queens_up),
    }


_LABELS = {"ante": "Ante", "play": "Play", "super_bonus": "Super Bonus", "queens_up": "Queens Up"}


class Crazy4Round(Round[Crazy4Rules]):
    """One round of Crazy 4 Poker: up to six seats, two positions each, one dealer (C8)."""

    game = "crazy4"

    def _spec(self) -> GameSpec:
        return spec(self.rules)

    def _reaches(self, index: int, key: tuple[int, ...]) -> bool:
        return bool(evaluate4of5(self.cards[self.hand_name(index)]) >= FOUR_CARD.lowest(*key))

    def _settle(self) -> list[dict[str, Cents]]:
        indices = range(len(self.positions))
        lines = settle(
            self.rules,
            [evaluate4of5(self.cards[self.hand_name(i)]) for i in indices],
            evaluate4of5(self.cards["dealer"]),
            [p.amount if p.decision != "fold" else 0 for p in self.positions],
            [p.wagers["ante"] for p in self.positions],
            [p.wagers["super_bonus"] for p in self.positions],
            [p.wagers["queens_up"] for p in self.positions],
        )
        return [{name: int(value[i]) for name, value in lines.items()} for i in indices]

    def _describe(self) -> str:
        dealer = evaluate4of5(self.cards["dealer"])
        qualifies = dealer >= FOUR_CARD.lowest(*self.rules.dealer_qualifies)
        text = [
            f"Dealer: {self._show(self.cards['dealer'])}, {FOUR_CARD.describe(dealer)}, "
            + ("qualifies." if qualifies else "does not qualify.")
        ]
        for index, position in enumerate(self.positions):
            value = evaluate4of5(self.cards[self.hand_name(index)])
            if position.decision == "fold":
                verdict = "folds"
            else:
                verdict = "wins" if value > dealer else "ties" if value == dealer else "loses"
            if position.seat == "player":  # the seat of a round of one's own
                who = "Your blind hand" if position.blind else "You"
            else:
                who = f"{position.seat}'s blind hand" if position.blind else position.seat
            text.append(
                f"{who}: {self._show(self.cards[self.hand_name(index)])}, "
                f"{FOUR_CARD.describe(value)}, {verdict}: {self._results_text(position, _LABELS)}."
            )
        return " ".join(text)
