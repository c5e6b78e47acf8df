"""Plain mode: rounds played by a strategy through the table service, without a screen.

Each round is a dict (:func:`play_rounds`) that prints as one line of text
(:func:`round_line`) or of JSON (:func:`round_json`).

>>> from riverboat.table.service import TableService
>>> service = TableService("sqlite://")
>>> me = service.local_player()
>>> played = list(play_rounds(service, me, "tri-card", {"ante": 500}, AutoPlayer("tri-card",
...                           "always-play"), rounds=2))
>>> [r["decision"]["action"] for r in played], played[-1]["balance"] == service.balance(me)
(['raise', 'raise'], True)
>>> round_line(played[0])                   # doctest: +ELLIPSIS
'#1 Raise: Dealer: ... Net ... Balance $...'
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

import numpy as np

from riverboat.games import GameRules, find_game
from riverboat.games.rules import RulesError, check_wagers
from riverboat.money import Cents, format_money
from riverboat.rng import new_client_seed
from riverboat.table.coach import coach_round
from riverboat.table.service import TOP_UP_BELOW, TableService
from riverboat.table.states import RoundStatus
from riverboat.table.views import CoachVerdict, RoundView, Wagers

if TYPE_CHECKING:
    from riverboat.sim.strategies import Table as StrategyTable

__all__ = [
    "COMMITMENT_WARNING",
    "STRATEGIES",
    "AutoPlayer",
    "Decision",
    "commitment_kept",
    "default_wagers",
    "play_rounds",
    "result_text",
    "round_json",
    "round_line",
    "round_net",
]

#: the named strategies; a CSV file (cards,best) such as `riverboat analyze --strategy`
#: writes is the fourth kind
STRATEGIES = ("optimal", "simple", "always-play")


@dataclass(frozen=True)
class Decision:
    """An action for the service (``amount`` None: the choice's minimum), its label,
    and a note when the strategy's choice could not be paid."""

    action: str
    amount: Cents | None
    label: str
    note: str = ""


def default_wagers(game: str, rules: GameRules | None = None) -> dict[str, Cents]:
    """The table minimum on each required wager (the first spot if none is required),
    under ``rules`` (the default variant's if None).

    >>> default_wagers("crazy4"), default_wagers("baccarat")
    ({'ante': 500, 'super_bonus': 500}, {'player': 500})
    """
    spots = find_game(game).new_round(rules).spots
    chosen = {spot.name: spot.minimum for spot in spots if spot.required}
    return chosen or {spots[0].name: spots[0].minimum}


class AutoPlayer:
    """Decides hands for ``game`` with a strategy.

    ``optimal`` weighs each hand exactly with the instant hint (``best_action``: the
    unseen cards enumerated, milliseconds a hand); ``simple``, ``always-play`` or a
    CSV file look the hand up in the simulator's strategy table.
    """

    def __init__(self, game: str, strategy: str, rules: GameRules | None = None) -> None:
        self.rules = find_game(game).rules() if rules is None else rules
        spec = find_game(game).spec(self.rules)
        if strategy not in STRATEGIES and not Path(strategy).is_file():
            raise RulesError(
                f"no strategy {strategy!r}: use {', '.join(STRATEGIES)} or a CSV file "
                "(cards,best) such as `riverboat analyze --strategy` writes"
            )
        if not spec.options and strategy not in STRATEGIES:
            raise RulesError(f"{spec.title} has no decisions: a strategy file does not apply")
        self.game, self.strategy = game, strategy
        self.decides = bool(spec.options)
        self._tables: dict[tuple[tuple[str, Fraction], ...], StrategyTable] = {}

    def check(self, wagers: Mapping[str, Cents]) -> None:
        """Build the strategy table for these wagers now, so a bad file fails early.
        ``optimal`` at a game whose every hand class counts in a moment (Tri-Card):
        the count, kept on disk once per machine, from which this run's and every later
        run's hints are read without the compiled kernels."""
        units = _units(self.game, wagers)
        if self.decides and self.strategy != "optimal" and units.get("ante"):
            self._table(units)
        if self.decides and self.strategy == "optimal":
            from riverboat.analysis import heads_up

            model = heads_up(self.game, self.rules)
            if model.counts_at_once:
                model.keep_count()

    def _table(self, units: dict[str, Fraction]) -> StrategyTable:
        from riverboat.sim.strategies import strategy_table

        key = tuple(sorted(units.items()))
        if key not in self._tables:
            self._tables[key] = strategy_table(self.game, self.rules, units, self.strategy)
        return self._tables[key]

    def decide(self, view: RoundView) -> Decision | None:
        """The decision for an open round's view, or None when it has none to make."""
        from riverboat.analysis import best_action, heads_up
        from riverboat.analysis.solution import colex_index
        from riverboat.cards import parse_cards

        choices = {choice.action: choice for choice in view.choices}
        if not choices:
            return None
        units = _units(self.game, view.wagers)
        cards = " ".join(view.cards["player"])
        options = heads_up(self.game, self.rules).options
        if self.strategy == "optimal":
            name = best_action(self.game, cards, units, self.rules)[0].option
        else:
            hand = np.array([[int(card) for card in parse_cards(cards)]], dtype=np.uint8)
            name = options[int(self._table(units)[colex_index(hand)[0]])].name
        option = next(o for o in options if o.name == name)
        if option.action not in choices:
            raise RulesError(f"the strategy's {option.label} is not a choice in this round")
        base = find_game(self.game).spec(self.rules).decides_with or ""
        action, amount = option.wager(view.wagers[base])  # Play 3x: play, 3 Antes (C3)
        label = option.label
        if amount > view.balance and "fold" in choices:
            return Decision(
                "fold",
                None,
                "Fold",
                f"{label} needs {format_money(amount)}; the balance is "
                f"{format_money(view.balance)}",
            )
        return Decision(action, amount, label)


def _units(game: str, wagers: Mapping[str, Cents]) -> dict[str, Fraction]:
    """Wagers in Antes, as the analyzer takes them (Baccarat's bets stand alone)."""
    from riverboat.analysis import wagers_in_units

    return wagers_in_units(wagers, find_game(game).spec().decides_with)


class PlayedDecision(TypedDict):
    """The strategy's decision in a played round."""

    action: str
    amount: Cents | None
    label: str
    note: str | None


class PlayedRound(TypedDict):
    """A round as :func:`play_rounds` yields it (money in cents; see :func:`round_json`)."""

    round: int
    game: str
    status: RoundStatus
    resumed: bool
    wagers: Wagers
    cards: dict[str, list[str]]
    decision: PlayedDecision | None
    best_action: str | None
    ev_cost: float | None
    ev_cost_cents: float | None
    result: Wagers
    second: Wagers | None
    second_result: Wagers | None
    net: Cents
    balance: Cents
    description: str | None
    commitment: str
    commitment_before_deal: str | None
    server_seed: str | None
    client_seed: str
    nonce: int


def play_rounds(
    service: TableService,
    player: int,
    game: str,
    wagers: Mapping[str, Cents],
    auto: AutoPlayer,
    rounds: int,
    client_seed: str | None = None,
    top_up: bool = False,
    blind: bool = False,
    variant: str | None = None,
) -> Iterator[PlayedRound]:
    """Play ``rounds`` rounds and yield each one settled (see :func:`round_json`).

    Before each deal the commitment to its server seed is fetched, then the client
    seed drawn (``client_seed`` if given, else a fresh one each round); the record
    keeps the commitment fetched, ``commitment_before_deal``, which the round's own
    must equal (:func:`commitment_kept`). A round left open at this table (after a
    restart, G7) is finished first and counts as one of the rounds; it has none.
    A refusal (limits, balance) raises
    ``IllegalAction`` and changes nothing; rounds already yielded stand. ``blind``
    (Crazy 4) deals a blind second position with the same wagers too (C8); ``variant``
    names the rules dealt (a variant file's, loaded into the game; default: the game's).
    """
    rules = find_game(game).rules(variant)
    placed = check_wagers(find_game(game).new_round(rules).spots, wagers)
    second = placed if blind else None
    auto.check(placed)
    for _ in range(rounds):
        view = service.open_round(player, game)
        resumed = view is not None
        shown = None
        if view is None:
            if top_up and service.balance(player) < TOP_UP_BELOW:
                service.top_up(player)
            shown = service.next_commitment(player, game)
            seed = client_seed or new_client_seed()  # drawn after the commitment
            view = service.start_round(
                player, game, placed, seed, variant=variant, second=second
            )
        decision = auto.decide(view) if view.status == RoundStatus.OPEN else None
        verdict = None
        if decision is not None:
            verdict = coach_round(view, decision.action, decision.amount)
            view = service.act(player, view.id, decision.action, decision.amount)
        yield _record(view, decision, resumed, shown, verdict)


def commitment_kept(record: PlayedRound) -> bool:
    """Whether the round was dealt from the seed committed to before its client seed
    was drawn (a resumed round, dealt before, has nothing to check here)."""
    shown = record["commitment_before_deal"]
    return shown is None or shown == record["commitment"]


def _record(
    view: RoundView,
    decision: Decision | None,
    resumed: bool,
    shown: str | None,
    verdict: CoachVerdict | None = None,
) -> PlayedRound:
    return {
        "round": view.id,
        "game": view.game,
        "status": view.status,
        "resumed": resumed,
        "wagers": view.wagers,
        "cards": view.cards,
        "decision": None if decision is None else _decision(decision),
        # the coach (riverboat.table.coach): the best option for the hand and what the
        # decision gave up against it in expected value, in Antes and in cents
        "best_action": None if verdict is None else verdict.best_action,
        "ev_cost": None if verdict is None else verdict.ev_cost,
        "ev_cost_cents": None if verdict is None else verdict.ev_cost_cents,
        "result": view.result or {},
        "second": view.second,
        "second_result": view.second_result,
        "net": round_net(view),
        "balance": view.balance,
        "description": view.description,
        "commitment": view.commitment,
        "commitment_before_deal": shown,
        "server_seed": view.server_seed,
        "client_seed": view.client_seed,
        "nonce": view.nonce,
    }


def _decision(decision: Decision) -> PlayedDecision:
    return {
        "action": decision.action,
        "amount": decision.amount,
        "label": decision.label,
        "note": decision.note or None,
    }


def round_line(record: PlayedRound) -> str:
    """One line of text: round number, decision, the engine's description, balance."""
    decision = record["decision"]
    said = f"{decision['label']}: " if decision else ""
    if decision and decision["note"]:
        said = f"Fold ({decision['note']}): "
    resumed = "resumed, " if record["resumed"] else ""
    text = result_text(record)
    line = f"#{record['round']} {resumed}{said}{text} Balance {format_money(record['balance'])}."
    return line if commitment_kept(record) else f"{line} {COMMITMENT_WARNING}"


#: said of a round dealt from another seed than the one committed to before the deal
COMMITMENT_WARNING = "Warning: the round's commitment is not the one shown before the deal."


def round_net(view: RoundView | PlayedRound) -> Cents:
    """What a finished round won or lost in all, over both positions when it has a blind
    second one (C8); 0 while it is open. ``view`` is the service's view of the round, or
    a record of :func:`play_rounds`."""
    net: Cents | None = view.net if isinstance(view, RoundView) else view["net"]
    return 0 if net is None else net


def result_text(view: RoundView | PlayedRound) -> str:
    """A finished round in words on one line: the engine's description, and with a blind
    second position (C8) the net over both hands.

    >>> result_text({"description": "You win, Net +$15. Your blind hand loses, Net -$20.",
    ...              "status": "settled", "second": {"ante": 500}, "net": -500})
    'You win, Net +$15. Your blind hand loses, Net -$20. Both hands: -$5.'
    """
    if isinstance(view, RoundView):
        description, status, second = view.description, view.status, view.second
    else:
        description, status, second = view["description"], view["status"], view.get("second")
    text = " ".join(str(description or f"Round {status}.").split())
    if second is not None and status == RoundStatus.SETTLED:
        text += f" Both hands: {format_money(round_net(view), signed=True)}."
    return text


def round_json(record: PlayedRound) -> str:
    """One line of JSON: the round's wagers, cards, decision, the coach's
    ``best_action`` and ``ev_cost`` (what the decision gave up, in Antes; and
    ``ev_cost_cents``), result per wager, net and balance (money in cents; with a
    blind second position its wagers and result too, and the net over both), and its
    seeds: ``commitment`` the round's, and ``commitment_before_deal`` the one fetched
    before its client seed was drawn, which must be the same (`riverboat history
    --format json` gives the full record that `riverboat verify` checks)."""
    return json.dumps(record, ensure_ascii=False)
