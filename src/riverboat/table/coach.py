"""The coach at a table: a round's decision weighed with the instant hint, and a
session's tally, for every front end (the web route, the terminal, plain mode).

>>> from riverboat.table.service import TableService
>>> service = TableService("sqlite://")
>>> me = service.local_player()
>>> view = service.start_round(me, "tri-card", {"ante": 1000}, client_seed="coach")
>>> verdict = coach_round(view, "fold")
>>> verdict.best_action in ("fold", "raise"), verdict.amount
(True, 0)
>>> tally = CoachTally()
>>> tally.add(verdict).decisions
1
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from riverboat.games import GameRules, find_game
from riverboat.games.rules import RulesError
from riverboat.games.spec import GameSpec
from riverboat.money import Cents
from riverboat.table.advice import Stakes, hint_words, tally_words, verdict_words
from riverboat.table.views import CoachVerdict, HintOption, HintView, RoundView

__all__ = ["CoachTally", "coach_round", "hint_round"]


def coach_round(view: RoundView, action: str, amount: Cents | None = None) -> CoachVerdict:
    """Weigh the decision ``action`` staking ``amount`` cents (None: the decision's own
    stake) on ``view``'s hand (its first position) and initial wagers."""
    from riverboat.analysis import wagers_in_units
    from riverboat.analysis.coach import coach

    rules, spec, hand, stakes = _decided(view)
    ante = stakes.ante
    bet = None if amount is None or not ante else Fraction(amount, ante)
    units = wagers_in_units(view.wagers, spec.decides_with)
    verdict = coach(view.game, " ".join(view.cards[hand]), units, action, bet, rules)
    best = verdict.best
    cost = verdict.cost
    words = verdict_words(verdict.label, verdict.expected, best.label, best.expected, stakes)
    return CoachVerdict(
        action=action,
        amount=int(verdict.bet * ante),
        label=verdict.label,
        best=verdict.is_best,
        best_action=best.option,
        best_label=best.label,
        best_amount=int(best.bet * ante),
        expected=float(verdict.expected),
        best_expected=float(best.expected),
        ev_cost=float(cost),
        ev_cost_cents=float(cost * ante),
        text=words.text,
        details=words.details,
    )


def hint_round(view: RoundView) -> HintView:
    """The instant hint on ``view``'s hand (its first position) with its initial wagers:
    every legal option best first, in words in the round's money and in figures."""
    from riverboat.analysis import best_action, wagers_in_units

    rules, spec, hand, stakes = _decided(view)
    units = wagers_in_units(view.wagers, spec.decides_with)
    options = best_action(view.game, " ".join(view.cards[hand]), units, rules)
    words = hint_words(options, stakes)
    return HintView(
        options=[
            HintOption(action=o.option, label=o.label, expected=float(o.expected))
            for o in options
        ],
        text=words.text,
        details=words.details,
    )


def _decided(view: RoundView) -> tuple[GameRules, GameSpec, str, Stakes]:
    """The round's rules and spec, the name of the hand a decision is made on and the
    round's wagers as advice names them; a game without decisions is refused."""
    kind = find_game(view.game)
    rules = kind.rules(view.variant or None)  # a variant file's, where its table loaded it
    spec = kind.spec(rules)
    if not spec.options or spec.decides_with is None:
        raise RulesError(f"{spec.title} has no decisions to coach")
    hand = next(h.name for h in spec.hands if h.each_position and not h.house)
    base = spec.decides_with
    label = next((s.label for s in spec.spots if s.name == base), base)
    return rules, spec, hand, Stakes.of(view.wagers, base, label)


@dataclass
class CoachTally:
    """A session's decisions under the coach: how many, how many best, what the others
    cost in expected value (cents and Antes)."""

    decisions: int = 0
    best: int = 0
    cost_cents: float = 0.0
    cost_antes: float = 0.0

    def add(self, verdict: CoachVerdict) -> CoachTally:
        self.decisions += 1
        self.best += verdict.best
        self.cost_cents += verdict.ev_cost_cents
        self.cost_antes += verdict.ev_cost
        return self

    def summary(self) -> str:
        """``"12 decisions, 83% best; on average the others cost about $4.20 in all."``

        >>> CoachTally(4, 3, 250.0, 0.5).summary()
        '4 decisions, 75% best; on average the others cost about $2.50 in all.'
        """
        return tally_words(self.decisions, self.best, self.cost_cents)
