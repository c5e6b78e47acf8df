"""The coach: was a decision the best play for the hand, and what did it cost?

A decision is weighed with the instant hint (:func:`riverboat.analysis.best_action`):
its expected value beside the best option's, in Antes. A Play of any amount between
two the analyzer weighs (Crazy 4's 1x to 3x, C3) is worth the straight line between
them: only the Play line's result depends on its amount, and it is proportional to it.

>>> verdict = coach("tri-card", "Qh 6d 4c", {"ante": 1}, "fold")
>>> verdict.best.label, verdict.is_best, f"{float(verdict.cost):.4f}"
('Raise', False, '0.0066')
>>> coach("crazy4", "Ac Ad 7s 5c 2d", None, "play", Fraction(3)).is_best
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from riverboat.analysis import GivenWagers, OptionValue, best_action
from riverboat.games import GameRules, find_game
from riverboat.games.rules import RulesError

__all__ = ["Verdict", "coach", "weigh"]


@dataclass(frozen=True)
class Verdict:
    """A decision beside the best option for the hand: values in Antes."""

    action: str
    bet: Fraction  # what the decision stakes, in Antes
    label: str  # the decision in words: "Play 2x"
    expected: Fraction  # its expected value
    best: OptionValue  # the best legal option and its value

    @property
    def cost(self) -> Fraction:
        """What the decision gives up against the best option, on average (0 if best)."""
        return self.best.expected - self.expected

    @property
    def is_best(self) -> bool:
        """Whether no option is worth more (an equal one counts as best)."""
        return self.cost <= 0


def coach(
    game: str,
    cards: str | Sequence[int],
    wagers: GivenWagers | None,
    action: str,
    bet: Fraction | None = None,
    rules: GameRules | None = None,
) -> Verdict:
    """Weigh the decision ``action`` staking ``bet`` Antes (default: the decision's
    own stake) on the player's hand ``cards`` with ``wagers`` (in Antes)."""
    return weigh(best_action(game, cards, wagers, rules), game, action, bet, rules)


def weigh(
    options: Sequence[OptionValue],
    game: str,
    action: str,
    bet: Fraction | None = None,
    rules: GameRules | None = None,
) -> Verdict:
    """Weigh the decision ``action`` staking ``bet`` Antes against a hand's legal
    ``options``, best first, as :func:`~riverboat.analysis.best_action` gives them (or
    a caller that found the same values for many hands at once).

    >>> options = best_action("tri-card", "Qh 6d 4c", {"ante": 1})
    >>> verdict = weigh(options, "tri-card", "fold")
    >>> verdict == coach("tri-card", "Qh 6d 4c", {"ante": 1}, "fold")
    True
    """
    taken = sorted((o for o in options if o.action == action), key=lambda o: o.bet)
    if not taken:
        offered = ", ".join(sorted({str(o.action) for o in options if o.action}))
        if not offered:  # T3: Pair Plus alone
            raise RulesError("these wagers leave no decision to weigh")
        raise RulesError(f"{action!r} is not a decision for this hand: the decisions are {offered}")
    if bet is None:
        stake = next(o.stake for o in find_game(game).spec(rules).options if o.action == action)
        bet = Fraction(stake)
    bet = Fraction(bet)
    low = next((o for o in reversed(taken) if o.bet <= bet), None)
    high = next((o for o in taken if o.bet >= bet), None)
    if low is None or high is None:
        allowed = " to ".join(dict.fromkeys(_times(o.bet) for o in (taken[0], taken[-1])))
        name = taken[0].label.split()[0]
        raise RulesError(f"a {name} of {_times(bet)} the Ante is not allowed: {allowed}")
    if high.bet == low.bet:
        expected, label = low.expected, low.label
    else:  # C3: between two Play amounts, the Play line grows in proportion
        share = (bet - low.bet) / (high.bet - low.bet)
        expected = low.expected + share * (high.expected - low.expected)
        label = f"{low.label.rsplit(' ', 1)[0]} {_times(bet)}"
    return Verdict(action, bet, label, expected, options[0])


def _times(bet: Fraction) -> str:
    """``2x``, ``2.5x``: a Play's size in Antes."""
    return f"{float(bet):g}x"
