"""The round engine every game shares: wagers, deal, decisions, settlement, record.

A round moves through :class:`~riverboat.games.positions.Phase` BETTING -> DECIDING
-> SETTLED (or VOID on a misdeal, G7). Every action has a check that says why it is
illegal and the action itself, which refuses what the check refuses and changes
nothing when it does (G6, ARCHITECTURE principle 5). What happened is an append-only
list of frozen, typed events (:mod:`riverboat.games.events`); :func:`replay` rebuilds
a round from them and must reach the same settlement.

A round holds one or more *positions* (betting boxes): one for the player in
Rabbit Hunter, Tri-Card and Baccarat; up to two per seat at Crazy 4 (C8). What a
round deals, which spots it has and which decisions it offers come from the game's
:class:`~riverboat.games.spec.GameSpec`; a game module adds its settlement and the
few steps only it takes (Baccarat's drawing rules, the rabbit).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from typing import ClassVar, Generic, TypedDict, TypeVar

from riverboat.cards import Card, format_cards
from riverboat.deck import CardSource, Deck, DeckEmptyError, Shoe
from riverboat.games.codec import rules_json
from riverboat.games.events import (
    BLIND_PLAY,
    NO_CHOICE,
    Dealt,
    Decision,
    Drawn,
    Event,
    Settled,
    Voided,
    Wagered,
)
from riverboat.games.positions import Choice, Phase, Position
from riverboat.games.rules import GameRules, IllegalAction, Spot, check_wagers
from riverboat.games.spec import GameSpec, HandSpec
from riverboat.json_types import JsonObject
from riverboat.money import Cents, format_money

__all__ = ["Round", "RoundRecord"]

#: a round's rules type; covariant, so ``Round[GameRules]`` is a round of any game
RulesT = TypeVar("RulesT", bound=GameRules, covariant=True)


class RoundRecord(TypedDict):
    """A round as JSON (:meth:`Round.record`): the game, its exact rules, every card
    drawn in order and every event; :func:`riverboat.games.replay` plays it again."""

    format: int
    game: str
    rules: JsonObject
    cards_drawn: list[int]
    events: list[JsonObject]


class Round(ABC, Generic[RulesT]):
    """One round of a game at one table."""

    game: ClassVar[str]

    def __init__(self, rules: RulesT) -> None:
        self.rules = rules
        self.spec = self._spec()
        self.phase = Phase.BETTING
        self.positions: list[Position] = []
        self.cards: dict[str, list[Card]] = {}
        self.drawn: list[Card] = []
        self.events: list[Event] = []
        self._source: CardSource = Deck.stacked([])
        self._pending: dict[str, list[Card]] = {}

    @abstractmethod
    def _spec(self) -> GameSpec:
        """The game's shape under these rules (its module's ``spec(rules)``)."""

    # ------------------------------------------------------------- the shape
    @property
    def spots(self) -> tuple[Spot, ...]:
        """The wager spots of one position."""
        return self.spec.spots

    @property
    def at_least_one(self) -> tuple[str, ...]:
        return self.spec.at_least_one

    @property
    def max_positions(self) -> int:
        """How many positions one round may hold."""
        return self.spec.max_positions

    @property
    def max_seats(self) -> int:
        return self.spec.max_seats

    @property
    def positions_per_seat(self) -> int:
        return self.spec.positions_per_seat

    def hand_name(self, index: int) -> str:
        """The key of position ``index``'s cards: its seat, ``seat:blind`` for a blind
        second position (C8)."""
        position = self.positions[index]
        return f"{position.seat}:blind" if position.blind else position.seat

    # ----------------------------------------------------------------- wagers

    def check_wagers(
        self, wagers: Mapping[str, Cents], seat: str = "player", blind: bool = False
    ) -> dict[str, Cents]:
        """The wagers filled out, or :class:`IllegalAction` saying why not."""
        self._require(Phase.BETTING, "place wagers")
        if blind and self.positions_per_seat < 2:
            raise IllegalAction("this game has no second, blind position (C8 is Crazy 4's)")
        if len(self.positions) >= self.max_positions:
            raise IllegalAction(
                f"this table has {self.max_positions} betting position(s), all taken"
            )
        mine = [p for p in self.positions if p.seat == seat]
        if len(mine) >= self.positions_per_seat:
            raise IllegalAction(
                f"seat {seat!r} already plays {len(mine)} position(s); "
                f"the most is {self.positions_per_seat}"
            )
        if blind and not mine:
            raise IllegalAction("the blind position is a seat's second position (C8)")
        if mine and not blind:
            raise IllegalAction(
                "a seat's second position is played blind (C8): place it with blind=True"
            )
        seats = {p.seat for p in self.positions}
        if seat not in seats and len(seats) >= self.max_seats:
            raise IllegalAction(f"this table has {self.max_seats} seat(s), all taken")
        return check_wagers(self.spots, wagers, self.at_least_one)

    def place_wagers(
        self, wagers: Mapping[str, Cents], seat: str = "player", blind: bool = False
    ) -> Position:
        """Open a position with these wagers."""
        placed = self.check_wagers(wagers, seat, blind)
        position = Position(seat, placed, blind)
        self.positions.append(position)
        self.events.append(Wagered(seat, blind, placed))
        return position

    # ------------------------------------------------------------------- deal
    def check_deal(self) -> None:
        self._require(Phase.BETTING, "deal")
        if not self.positions:
            raise IllegalAction("place a wager before the deal")

    def deal(self, source: CardSource | None = None) -> None:
        """Deal from ``source`` (a fresh securely shuffled deck by default, G2).

        A deal that comes out inconsistent (a card twice, a wrong count) voids the
        round and returns every wager (G7).
        """
        self.check_deal()
        self._source = source or self._default_source()
        self.phase = Phase.DECIDING
        try:
            cards = self._deal(self._draw)
        except DeckEmptyError as error:
            self.void(f"misdeal: {error}")
            return
        self.cards = cards
        self.events.append(Dealt({hand: tuple(int(c) for c in cs) for hand, cs in cards.items()}))
        problem = self._misdeal()
        if problem:
            self.void(f"misdeal: {problem}")
            return
        for index, position in enumerate(self.positions):
            if position.blind or not self._choices(index):
                self._auto_decide(index)
        self._settle_if_done()

    def _default_source(self) -> CardSource:
        shoe = self.spec.shoe
        return Shoe(shoe.decks, shoe.cut_card_from_end) if shoe else Deck()

    def _draw(self, n: int) -> list[Card]:
        cards = self._source.deal(n)
        self.drawn.extend(cards)
        return cards

    def _misdeal(self) -> str | None:
        everything = [c for hand in self.cards.values() for c in hand]
        if len(set(everything)) != len(everything) and self.spec.shoe is None:
            seen = [c for c in everything if everything.count(c) > 1]
            return f"{seen[0]} was dealt twice"
        for name, hand in self._dealt_hands():
            held = len(self.cards.get(name, []))
            if not hand.fewest <= held <= hand.cards:
                most = hand.cards
                expected = most if hand.fewest == most else f"{hand.fewest} to {most}"
                return f"{name} holds {held} cards, not {expected}"
        return None

    def _dealt_hands(self) -> list[tuple[str, HandSpec]]:
        """(key, hand spec) of every hand the deal gives, in dealing order."""
        named = []
        for hand in self.spec.hands:
            if hand.dealt_on is not None:
                continue
            if hand.each_position:
                named += [(self.hand_name(i), hand) for i in range(len(self.positions))]
            else:
                named.append((hand.name, hand))
        return named

    # -------------------------------------------------------------- decisions
    def legal_actions(self, seat: str = "player") -> list[Choice]:
        """What the seat's (non-blind) position may decide now; empty if nothing."""
        index = self._deciding_index(seat)
        if self.phase is not Phase.DECIDING or index is None:
            return []
        if self.positions[index].decision is not None:
            return []
        return self._choices(index)

    def check_action(
        self, action: str, amount: Cents | None = None, seat: str = "player"
    ) -> Choice:
        """The choice ``action`` stands for, or :class:`IllegalAction` saying why not."""
        self._require(Phase.DECIDING, "decide")
        index = self._deciding_index(seat)
        if index is None:
            raise IllegalAction(f"seat {seat!r} has no position to act on")
        if self.positions[index].decision is not None:
            raise IllegalAction(f"seat {seat!r} has already decided")
        choices = {choice.action: choice for choice in self._choices(index)}
        if action not in choices:
            raise IllegalAction(
                f"{action!r} is not allowed now; the choices are {', '.join(choices)}"
            )
        choice = choices[action]
        if amount is not None and (isinstance(amount, bool) or not isinstance(amount, int)):
            raise IllegalAction(f"an amount is a whole number of cents, not {amount!r}")
        if amount is not None and (
            not choice.minimum <= amount <= choice.maximum
            or (amount - choice.minimum) % choice.step
        ):
            raise IllegalAction(
                f"{choice.label} puts {format_money(choice.minimum)} to "
                f"{format_money(choice.maximum)} in play, in steps of {format_money(choice.step)}; "
                f"not {format_money(amount)}"
            )
        return choice

    def act(self, action: str, amount: Cents | None = None, seat: str = "player") -> None:
        """Make a decision; the round settles once every position has decided."""
        choice = self.check_action(action, amount, seat)
        index = self._deciding_index(seat)
        assert index is not None  # check_action found it
        self._decide(index, action, choice.minimum if amount is None else amount)
        self._settle_if_done()

    def _decide(self, index: int, action: str, amount: Cents) -> None:
        self._before_decision(index, action)  # may refuse (a card it needs is missing)
        position = self.positions[index]
        position.decision = action
        position.amount = amount
        self.events.append(Decision(position.seat, position.blind, action, amount))
        self._after_decision(index)

    def _deciding_index(self, seat: str) -> int | None:
        for index, position in enumerate(self.positions):
            if position.seat == seat and not position.blind:
                return index
        return None

    def _settle_if_done(self) -> None:
        if self.phase is not Phase.DECIDING or any(p.decision is None for p in self.positions):
            return
        for position, result in zip(self.positions, self._settle(), strict=True):
            position.result = result
        self.phase = Phase.SETTLED
        self.events.append(
            Settled(tuple({"seat": p.seat, "blind": p.blind, **p.result} for p in self.positions))
        )

    # ------------------------------------------------------------------- void
    def void(self, reason: str) -> None:
        """Void the round before its first decision: every wager is returned (G7)."""
        if self.phase not in (Phase.BETTING, Phase.DECIDING) or self.player_decided:
            raise IllegalAction("a round can be voided only before the first decision (G7)")
        for position in self.positions:
            position.result = dict.fromkeys(position.wagers, 0)
        self.phase = Phase.VOID
        self.events.append(Voided(reason))

    # ---------------------------------------------------------------- results
    @property
    def player_decided(self) -> bool:
        """Whether a player has made a decision yet (G7: until then a round may be void;
        after it, an interrupted round resumes with the same cards). The engine's own
        decisions (a blind Play, nothing to decide) are not a player's."""
        return any(isinstance(e, Decision) and e.by_player for e in self.events)

    @property
    def settled(self) -> bool:
        return self.phase in (Phase.SETTLED, Phase.VOID)

    def net(self, seat: str = "player") -> Cents:
        """What the seat won (positive) or lost over all its positions."""
        return sum(p.net for p in self.positions if p.seat == seat)

    def totals(self) -> tuple[int, ...] | None:
        """The hands' totals once dealt, in the spec's order, where a game's hands have
        totals (a Baccarat coup, for its roads); None where hands are ranked instead."""
        return None

    def winner(self) -> str | None:
        """The side the totals favour, as the roads name it; None without totals."""
        return None

    def record(self) -> RoundRecord:
        """The round as JSON-ready data; :func:`replay` reaches the same settlement."""
        return {
            "format": 1,
            "game": self.game,
            "rules": rules_json(self.rules),
            "cards_drawn": [int(c) for c in self.drawn],
            "events": [event.to_json() for event in self.events],
        }

    def describe(self) -> str:
        """The round in plain language for people."""
        if self.phase is Phase.VOID:
            reason = next(e.reason for e in reversed(self.events) if isinstance(e, Voided))
            return f"Round void ({reason}); every wager returned."
        if self.phase is not Phase.SETTLED:
            return f"Round in progress ({self.phase})."
        return self._describe()

    # ------------------------------------------------------ for the games
    def _choices(self, index: int) -> list[Choice]:
        """The decisions position ``index`` may make now (empty: none to make), from the
        spec's options on the position's ``decides_with`` wager (T3: none without it)."""
        spec = self.spec
        ante = self.positions[index].wagers.get(spec.decides_with or "", 0)
        if not ante:
            return []
        choices = []
        for option in spec.options:
            reaches = not option.most_from or self._reaches(index, option.most_from)
            least, most = option.bounds(ante, reaches)
            choices.append(Choice(option.action, option.label, least, most, option.step))
        return choices

    def _reaches(self, index: int, key: tuple[int, ...]) -> bool:
        """Whether position ``index``'s hand reaches hand-ranking ``key`` (C3's pair of
        aces); games whose options name one say how."""
        raise NotImplementedError(f"{self.spec.title} options name no hand to reach")

    def _deal(self, draw: Callable[[int], list[Card]]) -> dict[str, list[Card]]:
        """Deal every hand with ``draw(n)``, in the spec's order."""
        return {name: draw(hand.cards) for name, hand in self._dealt_hands()}

    def _auto_decide(self, index: int) -> None:
        """Decide for a position that has no choice: a blind second position makes its
        Play (C8); one with nothing to decide (Pair Plus alone, a coup) makes none."""
        position = self.positions[index]
        if position.blind and self.spec.blind_play is not None and self.spec.decides_with:
            stake = int(self.spec.blind_play * position.wagers[self.spec.decides_with])
            self._decide(index, BLIND_PLAY, stake)
        else:
            self._decide(index, NO_CHOICE, 0)

    def _before_decision(self, index: int, action: str) -> None:
        """Draw the hand a decision deals, before it is recorded (the rabbit, R4):
        nothing changes if no card is left."""
        for hand in self.spec.hands:
            if hand.dealt_on == action:
                self._pending[hand.name] = self._draw(hand.cards)

    def _after_decision(self, index: int) -> None:
        """Show what a decision dealt."""
        for name, cards in self._pending.items():
            self.cards[name] = cards
            self.events.append(Drawn(name, tuple(int(c) for c in cards)))
        self._pending.clear()

    @abstractmethod
    def _settle(self) -> list[dict[str, Cents]]:
        """Net cents per wager line, per position, from the game's settlement."""

    @abstractmethod
    def _describe(self) -> str: ...

    # ---------------------------------------------------------------- helpers
    def _require(self, phase: Phase, what: str) -> None:
        if self.phase is not phase:
            raise IllegalAction(f"cannot {what} now: the round is {self.phase}, not {phase}")

    @staticmethod
    def _show(cards: Sequence[Card]) -> str:
        return format_cards(cards, unicode=True)

    @property
    def decision_line(self) -> str:
        """The result line of the wager a decision places ("play", "raise")."""
        return next((o.line for o in self.spec.options if o.line), "play")

    def _results_text(self, position: Position, labels: Mapping[str, str]) -> str:
        """``"Ante +$10, Play push, Bonus -$10. Net $0"``: every line with a stake or a result."""
        parts = []
        for name, value in position.result.items():
            staked = position.wagers.get(name, 0) or (
                name == self.decision_line and position.amount
            )
            if value or staked:
                parts.append(
                    f"{labels[name]} {format_money(value, signed=True) if value else 'push'}"
                )
        return ", ".join(parts) + f". Net {format_money(position.net, signed=True)}"
