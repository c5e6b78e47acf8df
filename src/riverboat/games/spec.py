"""A game's shape as data: its hands in dealing order, its spots, its decisions.

Every part that deals, decides, simulates, analyses or draws a table reads a
:class:`GameSpec` instead of asking which game it is: the round engine deals the
hands it lists, the simulator deals as many cards as it says, the service picks a
fresh deck or a shoe by it, and the screens lay out its hands and spots. Each game
module builds its spec from its rules (``spec(rules)``); :func:`riverboat.games.find_game`
gives ``Game.spec()``.

Decisions have one vocabulary: an :class:`OptionSpec`'s ``action`` is what the
engine takes, the analyzer weighs, a hint names and a front end sends. Its stake is
counted in Antes, so "Play 3x" is the action ``play`` with 3 Antes (C3).

>>> from riverboat.games import find_game
>>> crazy4 = find_game("crazy4").spec()
>>> [(hand.name, hand.cards) for hand in crazy4.hands]
[('player', 5), ('dealer', 5)]
>>> [(o.action, o.stake, o.most) for o in crazy4.options]
[('fold', Fraction(0, 1), Fraction(0, 1)), ('play', Fraction(1, 1), Fraction(3, 1))]
>>> crazy4.cards_per_round(positions=2), crazy4.shared, crazy4.blind_play
(15, True, Fraction(1, 1))
>>> find_game("baccarat").spec().shoe
ShoeSpec(decks=8, cut_card_from_end=14)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING

from riverboat.games.rules import PayTable, RulesError, Spot
from riverboat.money import Cents

if TYPE_CHECKING:
    from riverboat.hands import Evaluator

__all__ = ["GameSpec", "HandSpec", "OptionSpec", "ShoeSpec"]


@dataclass(frozen=True)
class HandSpec:
    """One hand of a round, as dealt.

    ``name`` is the key of its cards in a round (a position's hand is keyed by its
    seat, ``seat:blind`` for a blind second position, C8); ``cards`` the most it
    takes and ``fewest`` the least (they differ only where drawing rules decide,
    B5-B6). ``each_position``: one per betting position, else one per round.
    ``house``: the house's hand, face down until the round is over. ``dealt_on``:
    dealt only when that decision is made (the rabbit on ``buy``, R4).
    """

    name: str
    title: str
    cards: int
    fewest: int = -1
    each_position: bool = False
    house: bool = False
    dealt_on: str | None = None

    def __post_init__(self) -> None:
        if self.fewest < 0:
            object.__setattr__(self, "fewest", self.cards)
        if not 0 < self.fewest <= self.cards:
            raise RulesError(f"hand {self.name!r}: 0 < fewest <= cards, not {self.fewest}")


@dataclass(frozen=True)
class OptionSpec:
    """A decision a position may make, and what it puts in play in Antes.

    ``stake`` Antes at least and ``most`` at most (C3's 1x to 3x; the same when the
    amount is fixed), in steps of ``step`` cents; ``most_from`` is the hand-ranking
    key a hand must reach for ``most`` (a pair of aces, C3), below it ``stake`` is
    the most (R4's Buy & Play stakes 2 Antes: its fee and its Play; settlement says
    which is which). ``line`` is the result line of the wager it places; ``fee_line``
    the line of a fee it pays beside that wager, never returned (R4's rabbit fee: the
    wager is then what the option named ``line`` stakes, the fee the rest); ``deals``
    the hand it deals, which names this option as its ``dealt_on``.
    """

    action: str
    label: str
    stake: Fraction = Fraction(0)
    most: Fraction = Fraction(-1)
    most_from: tuple[int, ...] = ()
    step: Cents = 100
    line: str | None = None
    fee_line: str | None = None
    deals: str | None = None

    def __post_init__(self) -> None:
        if self.most < 0:
            object.__setattr__(self, "most", self.stake)
        if not 0 <= self.stake <= self.most:
            raise RulesError(f"option {self.action!r}: 0 <= stake <= most")

    def bounds(self, ante: Cents, reaches_most: bool = True) -> tuple[Cents, Cents]:
        """The cents it puts in play on ``ante``: (least, most).

        >>> OptionSpec("play", "Play", Fraction(1), Fraction(3)).bounds(500, False)
        (500, 500)
        """
        least = _times(self.stake, ante)
        return least, _times(self.most if reaches_most else self.stake, ante)


def _times(ratio: Fraction, cents: Cents) -> Cents:
    """``int(ratio * cents)``, toward zero, without building a fraction.

    >>> _times(Fraction(3, 2), 333), _times(Fraction(3, 2), -333)
    (499, -499)
    """
    product = ratio.numerator * int(cents)
    whole = product // ratio.denominator if product >= 0 else -(-product // ratio.denominator)
    return whole


@dataclass(frozen=True)
class ShoeSpec:
    """Cards from a shoe of ``decks`` decks that lives across rounds, reshuffled once
    its cut card comes out; a new shoe always shows its first card and burns (B1)."""

    decks: int
    cut_card_from_end: int


@dataclass(frozen=True)
class GameSpec:
    """A game's shape for one set of rules."""

    name: str
    title: str
    variant: str
    #: in dealing order; a hand ``dealt_on`` a decision comes after the others
    hands: tuple[HandSpec, ...]
    spots: tuple[Spot, ...]
    chips: tuple[Cents, ...]
    #: the decisions a position with a ``decides_with`` wager makes (none: no decision)
    options: tuple[OptionSpec, ...] = ()
    decides_with: str | None = "ante"
    #: spots of which at least one must be placed (T1, B2)
    at_least_one: tuple[str, ...] = ()
    #: None: a fresh 52-card deck each round (G2)
    shoe: ShoeSpec | None = None
    #: the seats one round may deal to (its deck's hands)
    max_seats: int = 1
    max_positions: int = 1
    #: the seats a shared table of the game has by default: ``max_seats`` where the
    #: seats share one deck's hands; None (no limit) where each seat's round is its own
    #: and all of them follow the same cards (a Baccarat shoe's coup)
    table_seats: int | None = 1
    positions_per_seat: int = 1
    #: the Play a blind second position always makes, in Antes (C8); None: no such position
    blind_play: Fraction | None = None
    pay_tables: Mapping[str, PayTable] = field(default_factory=dict)
    #: lines settlement pays with no stake of their own (Tri-Card's Ante Bonus, T7)
    settled_lines: tuple[str, ...] = ()
    #: a poker game's evaluator of one hand (its ranking names the hands, its ranking's
    #: size is the cards a made hand keeps); None where hands are not ranked (Baccarat)
    evaluator: Evaluator | None = None

    def __post_init__(self) -> None:
        if self.table_seats is not None and not 1 <= self.table_seats <= self.max_seats:
            raise RulesError(f"{self.title}: a table's seats are 1 to its round's {self.max_seats}")
        if (self.blind_play is None) != (self.positions_per_seat < 2):
            raise RulesError(f"{self.title}: a blind play goes with a second position per seat")
        self._check_dealt_on()

    def _check_dealt_on(self) -> None:
        """An option that deals a hand and the hand dealt on it name each other (R4)."""
        actions = {option.action for option in self.options}
        dealt_on = {hand.name: hand.dealt_on for hand in self.hands if hand.dealt_on}
        for option in self.options:
            if option.deals is not None and dealt_on.get(option.deals) != option.action:
                raise RulesError(
                    f"{self.title}: {option.action!r} deals {option.deals!r}, "
                    f"but no hand {option.deals!r} is dealt on {option.action!r}"
                )
        for name, action in dealt_on.items():
            if action not in actions or self.option(action).deals != name:
                raise RulesError(
                    f"{self.title}: hand {name!r} is dealt on {action!r}, "
                    f"but no option {action!r} deals it"
                )

    @property
    def shared(self) -> bool:
        """Whether several seats may play one deal (a shared table)."""
        return self.table_seats is None or self.table_seats > 1

    @property
    def house(self) -> HandSpec | None:
        """The house's hand (the dealer's), or None where there is none (Baccarat)."""
        return next((hand for hand in self.hands if hand.house), None)

    def hand(self, name: str) -> HandSpec:
        for hand in self.hands:
            if hand.name == name:
                return hand
        raise RulesError(f"{self.title} has no hand {name!r}")

    def option(self, action: str) -> OptionSpec:
        for option in self.options:
            if option.action == action:
                return option
        raise RulesError(
            f"{self.title} has no decision {action!r}; the decisions are "
            + (", ".join(o.action for o in self.options) or "none")
        )

    def cards_per_round(self, positions: int = 1, drawn: bool = True) -> int:
        """The most cards a round with ``positions`` positions takes (with the hands
        decisions deal, unless ``drawn`` is False)."""
        return sum(
            hand.cards * (positions if hand.each_position else 1)
            for hand in self.hands
            if drawn or hand.dealt_on is None
        )

    def position_stake(self, wagers: Mapping[str, Cents], blind: bool = False) -> Cents:
        """What a position puts in play before any decision: its wagers, and a blind
        position's 1x Play too (C8).

        >>> from riverboat.games import find_game
        >>> find_game("crazy4").spec().position_stake({"ante": 500, "super_bonus": 500}, True)
        1500
        """
        staked = sum(wagers.values())
        if blind and self.blind_play is not None and self.decides_with:
            staked += int(self.blind_play * wagers.get(self.decides_with, 0))
        return staked
