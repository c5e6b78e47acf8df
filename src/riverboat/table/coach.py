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

from riverboat.games import find_game
from riverboat.games.rules import RulesError
from riverboat.money import Cents, format_money
from riverboat.table.views import CoachVerdict, RoundView

__all__ = ["CoachTally", "coach_round"]


def coach_round(view: RoundView, action: str, amount: Cents | None = None) -> CoachVerdict:
    """Weigh the decision ``action`` staking ``amount`` cents (None: the decision's own
    stake) on ``view``'s hand (its first position) and initial wagers."""
    from riverboat.analysis import wagers_in_units
    from riverboat.analysis.coach import coach

    spec = find_game(view.game).spec()
    if not spec.options or spec.decides_with is None:
        raise RulesError(f"{spec.title} has no decisions to coach")
    hand = next(h.name for h in spec.hands if h.each_position and not h.house)
    ante = view.wagers.get(spec.decides_with, 0)
    bet = None if amount is None or not ante else Fraction(amount, ante)
    units = wagers_in_units(view.wagers, spec.decides_with)
    verdict = coach(view.game, " ".join(view.cards[hand]), units, action, bet)
    best = verdict.best
    cost = verdict.cost
    cost_cents = float(cost * ante)
    if verdict.is_best:
        text = f"Coach: {verdict.label} was the best play."
    else:
        text = (
            f"Coach: {verdict.label} cost {format_money(round(cost_cents))} "
            f"({float(cost):.4f} Antes) in expected value; {best.label} was best."
        )
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
        ev_cost_cents=cost_cents,
        text=text,
    )


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
        """``"12 decisions, 83% best; the others cost $4.20 (0.84 Antes)."``

        >>> CoachTally(4, 3, 250.0, 0.5).summary()
        '4 decisions, 75% best; the others cost $2.50 (0.50 Antes).'
        """
        if not self.decisions:
            return "no decisions yet."
        share = self.best / self.decisions
        decisions = "1 decision" if self.decisions == 1 else f"{self.decisions} decisions"
        return (
            f"{decisions}, {share:.0%} best; the others cost "
            f"{format_money(round(self.cost_cents))} ({self.cost_antes:.2f} Antes)."
        )
