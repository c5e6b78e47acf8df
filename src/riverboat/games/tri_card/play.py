"""Tri-Card Poker (T1-T8): Ante and Raise against the dealer, Ante Bonus, Pair Plus.

>>> from riverboat.deck import Deck
>>> from riverboat.cards import parse_cards
>>> game = TriCardRound(TriCardRules())
>>> _ = game.place_wagers({"ante": 1000, "pair_plus": 500})
>>> game.deal(Deck.stacked(parse_cards("Th Tc 4d  Qs 7h 2c")))
>>> [choice.action for choice in game.legal_actions()]
['fold', 'raise']
>>> game.act("raise")
>>> game.positions[0].result
{'ante': 1000, 'raise': 1000, 'ante_bonus': 0, 'pair_plus': 500}
>>> print(game.describe())
Dealer: Q♠ 7♥ 2♣, Queen-high, qualifies. Your T♥ T♣ 4♦, Pair of Tens, wins:
Ante +$10, Raise +$10, Pair Plus +$5. Net +$25.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from riverboat.cards import Rank
from riverboat.games.engine import Round
from riverboat.games.events import NO_CHOICE
from riverboat.games.once import by_identity
from riverboat.games.rules import PayLine, PayTable, RulesError, Spot
from riverboat.games.spec import GameSpec, HandSpec, OptionSpec
from riverboat.games.variant_model import rule
from riverboat.hands import THREE_CARD, ThreeCard, evaluate3
from riverboat.money import Cents

__all__ = [
    "ANTE_BONUS_TABLES",
    "FOLD",
    "NO_DECISION",
    "PAIR_PLUS_TABLES",
    "RAISE",
    "TriCardRound",
    "TriCardRules",
    "settle",
]

#: decision codes for :func:`settle`
NO_DECISION, FOLD, RAISE = -1, 0, 1


def _table(name: str, pays: dict[ThreeCard, float]) -> PayTable:
    lines = tuple(
        PayLine(category.name.replace("_", " ").title(), (category,), Fraction(str(x)))
        for category, x in sorted(pays.items(), reverse=True)
    )
    return PayTable(name, lines)


def _ante_bonus(straight: float, trips: float, straight_flush: float) -> PayTable:
    name = f"{straight:g}-{trips:g}-{straight_flush:g}"
    return _table(
        name,
        {
            ThreeCard.STRAIGHT_FLUSH: straight_flush,
            ThreeCard.THREE_OF_A_KIND: trips,
            ThreeCard.STRAIGHT: straight,
        },
    )


def _pair_plus(pair: int, flush: int, straight: int, trips: int, straight_flush: int) -> PayTable:
    name = f"{pair}-{flush}-{straight}-{trips}-{straight_flush}"
    return _table(
        name,
        {
            ThreeCard.STRAIGHT_FLUSH: straight_flush,
            ThreeCard.THREE_OF_A_KIND: trips,
            ThreeCard.STRAIGHT: straight,
            ThreeCard.FLUSH: flush,
            ThreeCard.PAIR: pair,
        },
    )


#: T7: Ante Bonus tables, straight-trips-straight flush; the first is the default
ANTE_BONUS_TABLES = {
    t.name: t
    for t in (
        _ante_bonus(1, 4, 5),
        _ante_bonus(1, 3, 4),
        _ante_bonus(1, 2, 3),
        _ante_bonus(1, 3, 5),
        _ante_bonus(1, 8, 9),
        _ante_bonus(1, 10, 12.5),
    )
}
#: T8: Pair Plus tables, pair-flush-straight-trips-straight flush; the first is the default
PAIR_PLUS_TABLES = {
    t.name: t
    for t in (
        _pair_plus(1, 4, 6, 30, 40),
        _pair_plus(1, 3, 6, 30, 40),
        _pair_plus(1, 4, 6, 25, 40),
        _pair_plus(1, 4, 5, 30, 40),
        _pair_plus(1, 4, 6, 33, 35),
    )
}
#: T6: the Raise pays 1 to 1 on every winning hand unless a table says otherwise
RAISE_EVEN = PayTable("even", (PayLine("Any winning hand", (ThreeCard.HIGH_CARD,), Fraction(1)),))


@dataclass(frozen=True)
class TriCardRules:
    """Tri-Card Poker rules as data; the defaults are the rulings'."""

    variant: str = "standard"
    version: int = 1
    ante: Spot = rule(Spot("ante", "Ante", 500, 50_000), "the Ante's limits, in dollars (T1)")
    pair_plus: Spot = rule(
        Spot("pair_plus", "Pair Plus", 500, 10_000), "the Pair Plus limits, in dollars (T1)"
    )
    chips: tuple[Cents, ...] = rule(
        (100, 500, 2_500, 10_000, 50_000), "the chips offered, in dollars, smallest first"
    )
    dealer_qualifies: tuple[int, ...] = rule(
        (ThreeCard.HIGH_CARD, Rank.QUEEN),
        "the weakest hand the dealer qualifies with (T4)",
        hand=THREE_CARD,
    )
    raise_table: PayTable = rule(RAISE_EVEN, "what the Raise pays to 1 on a winning hand (T6)")
    ante_bonus_table: PayTable = rule(
        ANTE_BONUS_TABLES["1-4-5"], "the Ante Bonus, to 1, on a raised hand, win or lose (T7)"
    )
    pair_plus_table: PayTable = rule(
        PAIR_PLUS_TABLES["1-4-6-30-40"], "Pair Plus, to 1, on the player's hand alone (T8)"
    )

    def __post_init__(self) -> None:
        if self.raise_table.lines and self.raise_table.lines[-1].at_least != (0,):
            raise RulesError("the Raise table must pay every winning hand (a line for high card)")

    def with_tables(
        self, ante_bonus: str | None = None, pair_plus: str | None = None
    ) -> TriCardRules:
        """These rules with named Ante Bonus (T7) and Pair Plus (T8) tables."""
        return replace(
            self,
            ante_bonus_table=self.ante_bonus_table
            if ante_bonus is None
            else _named(ANTE_BONUS_TABLES, ante_bonus, "Ante Bonus"),
            pair_plus_table=self.pair_plus_table
            if pair_plus is None
            else _named(PAIR_PLUS_TABLES, pair_plus, "Pair Plus"),
        )


def _named(tables: dict[str, PayTable], name: str, what: str) -> PayTable:
    if name not in tables:
        raise RulesError(f"no {what} table {name!r}; the tables are {', '.join(tables)}")
    return tables[name]


Lines = dict[str, npt.NDArray[np.int64]]


def settle(
    rules: TriCardRules,
    player: npt.ArrayLike,
    dealer: npt.ArrayLike,
    decision: npt.ArrayLike,
    ante: npt.ArrayLike,
    pair_plus: npt.ArrayLike,
) -> Lines:
    """Net cents per line (ante, raise, ante_bonus, pair_plus) for hands or arrays of hands.

    ``player``/``dealer`` are :data:`~riverboat.hands.THREE_CARD` values, ``decision``
    is :data:`FOLD`, :data:`RAISE` or :data:`NO_DECISION` (Pair Plus alone, T3).
    The only place Tri-Card payouts are decided.
    """
    player, dealer, decision = np.asarray(player), np.asarray(dealer), np.asarray(decision)
    ante, pair_plus = np.asarray(ante, np.int64), np.asarray(pair_plus, np.int64)
    folded, raised = decision == FOLD, decision == RAISE
    qualifies = dealer >= THREE_CARD.lowest(*rules.dealer_qualifies)  # T4
    wins, ties = player > dealer, player == dealer
    raise_stake = np.where(raised, ante, 0)
    # T4: no qualifier, Ante wins and Raise pushes; T5: higher wins, equal pushes
    ante_line = np.where(raised & (wins | ~qualifies), ante, np.where(raised & ties, 0, -ante))
    raise_won = rules.raise_table.winnings(THREE_CARD, player, raise_stake)
    raise_line = np.where(~qualifies | ties, 0, np.where(wins, raise_won, -raise_stake))
    ante_bonus = np.where(
        raised, rules.ante_bonus_table.winnings(THREE_CARD, player, ante), 0
    )  # T7
    pair_plus_won = rules.pair_plus_table.winnings(THREE_CARD, player, pair_plus)  # T8
    pair_plus_line = np.where(~folded & (pair_plus_won > 0), pair_plus_won, -pair_plus)
    return {
        "ante": np.where(decision == NO_DECISION, 0, ante_line),
        "raise": raise_line,
        "ante_bonus": ante_bonus,
        "pair_plus": pair_plus_line,
    }


_LABELS = {"ante": "Ante", "raise": "Raise", "ante_bonus": "Ante Bonus", "pair_plus": "Pair Plus"}


@by_identity
def spec(rules: TriCardRules) -> GameSpec:
    """Tri-Card's shape: three cards each (T2); Fold or Raise with an Ante (T3)."""
    return GameSpec(
        name="tri-card",
        title="Tri-Card Poker",
        variant=rules.variant,
        hands=(
            HandSpec("player", "You", 3, each_position=True),
            HandSpec("dealer", "Dealer", 3, house=True),
        ),
        spots=(rules.ante, rules.pair_plus),
        evaluator=evaluate3,
        chips=rules.chips,
        options=(
            OptionSpec("fold", "Fold"),
            OptionSpec("raise", "Raise", Fraction(1), line="raise"),
        ),
        at_least_one=("ante", "pair_plus"),  # T1
        settled_lines=("ante_bonus",),  # T7: paid on the Ante when raised
        pay_tables={
            "raise_table": rules.raise_table,
            "ante_bonus_table": rules.ante_bonus_table,
            "pair_plus_table": rules.pair_plus_table,
        },
    )


class TriCardRound(Round[TriCardRules]):
    """One round of Tri-Card Poker for one player."""

    game = "tri-card"

    def _spec(self) -> GameSpec:
        return spec(self.rules)

    def _settle(self) -> list[dict[str, Cents]]:
        position = self.positions[0]
        codes = {"fold": FOLD, "raise": RAISE, NO_CHOICE: NO_DECISION}
        lines = settle(
            self.rules,
            evaluate3(self.cards["player"]),
            evaluate3(self.cards["dealer"]),
            codes[position.decision or NO_CHOICE],
            position.wagers["ante"],
            position.wagers["pair_plus"],
        )
        return [{name: int(value) for name, value in lines.items()}]

    def _describe(self) -> str:
        position = self.positions[0]
        player, dealer = evaluate3(self.cards["player"]), evaluate3(self.cards["dealer"])
        qualifies = dealer >= THREE_CARD.lowest(*self.rules.dealer_qualifies)
        dealer_text = (
            f"Dealer: {self._show(self.cards['dealer'])}, {THREE_CARD.describe(dealer)}, "
            + ("qualifies." if qualifies else "does not qualify.")
        )
        if position.decision == "fold":
            verdict = "folds"
        elif position.decision == NO_CHOICE:
            verdict = "plays Pair Plus"
        else:
            verdict = "wins" if player > dealer else "ties" if player == dealer else "loses"
        return (
            f"{dealer_text} Your {self._show(self.cards['player'])}, "
            f"{THREE_CARD.describe(player)}, {verdict}: {self._results_text(position, _LABELS)}."
        )
