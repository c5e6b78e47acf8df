"""Hold against theory: what each game, variant and table won over a period, beside what
the exact analysis says it should have won for the wagers placed and the decisions made.

For every round settled in the period (by the time of its settlement transaction):

* **actual**, from the ledger: the house's entry of the round's settlement (its win)
  and what the round's account paid out (everything staked, the decisions' too);
  the initial wagers from the round's record;
* **optimal**: the exact analysis of the round's rules and wager shape (each wager in
  units of the Ante, the analyzer's own wagers: Ante alone and Ante plus Pair Plus are
  two analyses), its house edge per total initial wager times the round's initial
  wagers; a Crazy 4 blind second position (C8) is weighed by the analysis' blind hand
  (the same wagers, always the 1x Play);
* **played**: optimal plus, for each decision a player made, what it gave up against
  the best option for the hand dealt, exactly, from the values the hint gives
  (:func:`riverboat.analysis.coach.weigh`);
* **spread**: the analysis' variance per total initial wager times the round's initial
  wagers squared, summed over rounds; a round of two positions (C8) is given the
  most its two could spread together, ``(sd1 + sd2)²``, since they meet one dealer
  hand and the analysis gives no covariance (the band is then a little wide, never
  narrow).

``z = (actual - expected) / std_dev`` and an alarm when ``|z|`` lies beyond the
two-sided normal quantile of the band (0.999: ``|z| > 3.29``). Void rounds, rounds of
a game not installed here, of rules the analyzer cannot weigh or with a record it
cannot read are counted as ``unweighed``, with why, and left out of every figure.

The database is read in one transaction, one snapshot (read-only REPEATABLE READ on
PostgreSQL, :func:`~riverboat.table.accounts.audit.one_snapshot`); the analysis runs
after it ends. It takes seconds, minutes for a game not analysed on this machine yet
(the analyses and the game's tables are kept on disk:
:mod:`riverboat.analysis.kept`), so a server calls :func:`hold_report` in a thread,
never on its event loop.

>>> from riverboat.table.service import TableService
>>> service = TableService("sqlite://")
>>> me = service.local_player()
>>> view = service.start_round(me, "baccarat", {"banker": 1000}, client_seed="hold")
>>> report = hold_report(service)
>>> row = report.rows[0]
>>> row.game, row.table, row.rounds, row.wagered, row.house_win == -view.net
('baccarat', 'own', 1, 1000, True)
>>> f"{row.edge_optimal:.4%}", round(report.z_limit, 4)
('1.0579%', 3.2905)
"""

from __future__ import annotations

import json
import math
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from statistics import NormalDist
from typing import TYPE_CHECKING, Any, Literal, TypeAlias, TypeVar

from sqlalchemy import Engine, Select, select
from sqlalchemy.orm import Session

from riverboat.errors import IllegalAction
from riverboat.games import GAMES, GameRules, find_game
from riverboat.games.codec import from_json
from riverboat.games.events import AUTOMATIC
from riverboat.games.rules import RulesError
from riverboat.money import Cents
from riverboat.store.models import Deal, LedgerEntry, RoundEvent, RoundRow, Transaction
from riverboat.table.accounts.audit import one_snapshot
from riverboat.table.accounts.ledger import round_account
from riverboat.table.office.views import HoldPoint, HoldReport, HoldRow
from riverboat.table.rounds.rows import SETTLING
from riverboat.table.states import RoundStatus

if TYPE_CHECKING:
    from riverboat.analysis import Analysis, OptionValue
    from riverboat.analysis.report import Figures
    from riverboat.table.service import TableService

__all__ = ["BAND", "Bucket", "hold_report", "period", "z_limit"]

#: the default band: the alarm rings when z lies outside the central 99.9%
BAND = 0.999
Bucket: TypeAlias = Literal["hour", "day"]
#: a report spanning at most this long has a point an hour, else a point a day
HOURLY_UP_TO = timedelta(days=3)
#: a wager shape with fewer hands to weigh than this asks the hint for each (a few
#: milliseconds a hand); with more, the game's whole table of hand values is read
#: once (kept on disk with the analysis) and each hand looked up in it
HINTS_BELOW = 200
#: the record format this module reads (docs/round-record.md)
RECORD_FORMAT = 1
_SETTLE = SETTLING[RoundStatus.SETTLED]
_VOID = SETTLING[RoundStatus.VOID]
_EVENTS = ("wagers", "deal", "decision")
_Query = TypeVar("_Query", bound=Select[*tuple[Any, ...]])
#: what one analysis weighs: a round's rules (JSON as stored) and its wagers in Antes
_Shape: TypeAlias = tuple[str, tuple[tuple[str, Fraction], ...]]


def z_limit(band: float) -> float:
    """The ``|z|`` beyond which a row's alarm rings: the two-sided normal quantile of
    ``band``, a probability strictly between 0 and 1.

    >>> round(z_limit(0.999), 4), round(z_limit(0.95), 4)
    (3.2905, 1.96)
    >>> z_limit(1)
    Traceback (most recent call last):
    ...
    riverboat.errors.IllegalAction: the band is a probability between 0 and 1, such as 0.999; not 1
    """
    if not (isinstance(band, int | float) and 0 < band < 1):
        raise IllegalAction(
            f"the band is a probability between 0 and 1, such as {BAND}; not {band!r}"
        )
    return NormalDist().inv_cdf(0.5 + band / 2)


def period(
    since: datetime | None, until: datetime | None
) -> tuple[datetime | None, datetime | None]:
    """The period in UTC (a time without a zone is taken as UTC), refused unless
    ``since`` comes before ``until``.

    >>> period(datetime(2026, 12, 1), None)
    (datetime.datetime(2026, 12, 1, 0, 0, tzinfo=datetime.timezone.utc), None)
    >>> period(datetime(2026, 12, 2), datetime(2026, 12, 1))
    Traceback (most recent call last):
    ...
    riverboat.errors.IllegalAction: the period ends (2026-12-01 00:00 UTC) before it begins \
(2026-12-02 00:00 UTC)
    """
    since, until = _utc(since), _utc(until)
    if since is not None and until is not None and until <= since:
        raise IllegalAction(
            f"the period ends ({_shown(until)}) before it begins ({_shown(since)})"
            if until < since
            else f"the period is empty: it begins and ends at {_shown(since)}"
        )
    return since, until


def hold_report(
    source: Engine | TableService,
    since: datetime | None = None,
    until: datetime | None = None,
    game: str | None = None,
    band: float = BAND,
    bucket: Bucket | None = None,
) -> HoldReport:
    """Hold against theory over ``[since, until)`` (either open) for every game, or
    for ``game``: one row per game, variant and table (the players' own, or shared).
    ``band`` is the two-sided probability the alarm's band holds; ``bucket`` the time
    between two points of each row's series (default: an hour over at most three
    days, else a day). ``source`` is the service's database engine or the service.

    A plain function that reads the database, then analyses: a server calls it in a
    thread. A parameter it refuses raises :class:`~riverboat.errors.IllegalAction`
    saying why."""
    limit = z_limit(band)
    since, until = period(since, until)
    if game is not None:
        try:
            find_game(game)
        except RulesError as error:
            raise IllegalAction(str(error)) from None
    if bucket not in (None, "hour", "day"):
        raise IllegalAction(f"a bucket is an hour or a day, not {bucket!r}")
    engine = source if isinstance(source, Engine) else source.engine
    finished = _read(engine, since, until, game)
    weighed = _Weigher().weigh(finished)
    if bucket is None:
        bucket = _bucket(since, until, [one.at for one in finished])
    rows = [
        _row(key, group, limit, bucket, until)
        for key, group in sorted(weighed.items(), key=lambda item: _order(item[0]))
    ]
    return HoldReport(since=since, until=until, band=band, z_limit=limit, bucket=bucket, rows=rows)


# ---------------------------------------------------------------- reading, one snapshot
@dataclass
class _Finished:
    """A round settled or voided in the period, as stored."""

    id: int
    game: str
    rules: str | None  # the record's rules, JSON as stored
    record_format: int | None
    shared: bool
    void: bool
    at: datetime  # its settlement
    house: Cents = 0  # the house's entry of its settlement: what the house won
    staked: Cents = 0  # what its account paid out at settlement: everything staked
    events: list[tuple[str, str]] = field(default_factory=list)  # (kind, body)


def _in_period(
    query: _Query,
    since: datetime | None,
    until: datetime | None,
    game: str | None,
    kinds: Sequence[str],
) -> _Query:
    """``query`` (over transactions joined to their rounds) kept to the finishing
    transactions of ``kinds`` in the period, of ``game`` if given."""
    query = query.where(Transaction.kind.in_(kinds), Transaction.round_id.is_not(None))
    if since is not None:
        query = query.where(Transaction.created_at >= since)
    if until is not None:
        query = query.where(Transaction.created_at < until)
    if game is not None:
        query = query.where(RoundRow.game == game)
    return query


def _read(
    engine: Engine, since: datetime | None, until: datetime | None, game: str | None
) -> list[_Finished]:
    """The rounds finished in the period, their settlement's entries and the events a
    weighing reads (wagers, deal, decisions): three statements in one transaction that
    reads one snapshot, so a round settling meanwhile is in all three or in none."""
    rounds = _in_period(
        select(
            RoundRow.id,
            RoundRow.game,
            RoundRow.rules,
            RoundRow.record_format,
            Transaction.kind,
            Transaction.created_at,
            Deal.id,
            Deal.player_id,
        )
        .select_from(Transaction)
        .join(RoundRow, RoundRow.id == Transaction.round_id)
        .outerjoin(Deal, Deal.id == RoundRow.deal_id),
        since,
        until,
        game,
        (_SETTLE, _VOID),
    ).order_by(Transaction.created_at, RoundRow.id)
    entries = _in_period(
        select(Transaction.round_id, LedgerEntry.account, LedgerEntry.amount)
        .select_from(LedgerEntry)
        .join(Transaction, Transaction.id == LedgerEntry.transaction_id)
        .join(RoundRow, RoundRow.id == Transaction.round_id),
        since,
        until,
        game,
        (_SETTLE,),
    )
    events = _in_period(
        select(RoundEvent.round_id, RoundEvent.kind, RoundEvent.body)
        .select_from(RoundEvent)
        .join(Transaction, Transaction.round_id == RoundEvent.round_id)
        .join(RoundRow, RoundRow.id == RoundEvent.round_id)
        .where(RoundEvent.kind.in_(_EVENTS)),
        since,
        until,
        game,
        (_SETTLE,),
    ).order_by(RoundEvent.round_id, RoundEvent.seq)
    rules_read: dict[str, str] = {}  # one string per distinct rules
    found: dict[int, _Finished] = {}
    with Session(engine) as session:
        one_snapshot(session)
        for ident, name, rules, kept, kind, at, deal, dealer in session.execute(rounds):
            found[ident] = _Finished(
                id=ident,
                game=name,
                rules=None if rules is None else rules_read.setdefault(rules, rules),
                record_format=kept,
                shared=deal is not None and dealer is None,
                void=kind == _VOID,
                at=_utc(at) or datetime.now(UTC),
            )
        for settled, account, amount in session.execute(entries):
            one = found.get(settled or 0)
            if one is None:
                continue
            if account == "house":
                one.house += amount
            elif account == round_account(one.id):
                one.staked -= amount
        for ident, kind, body in session.execute(events):
            if ident in found:
                found[ident].events.append((kind, body))
    return list(found.values())


# ---------------------------------------------------------------------- weighing
@dataclass(frozen=True)
class _Key:
    """A report row's: game, variant and table."""

    game: str
    variant: str
    shared: bool


@dataclass
class _Decided:
    """A player's decision, to be weighed against the best option for the hand."""

    shape: _Shape
    hand: tuple[int, ...]  # sorted
    action: str
    bet: Fraction  # in Antes
    ante: Cents


@dataclass
class _Weighed:
    """A round and what the analysis says of it (``reason`` set: it could not be weighed)."""

    at: datetime
    house: Cents = 0
    staked: Cents = 0
    initial: Cents = 0
    optimal: Fraction = Fraction(0)  # the expected house win under optimal play, cents
    cost: Fraction = Fraction(0)  # what the decisions gave up, in expected cents
    variance: float = 0.0  # cents squared
    decided: list[_Decided] = field(default_factory=list)
    best: int = 0
    reason: str | None = None


class _Weigher:
    """Weighs rounds, each analysis and each hand's option values worked out once per
    report (the analyses themselves are kept on disk between reports)."""

    def __init__(self) -> None:
        self.rules: dict[tuple[str, str], GameRules | str] = {}  # or why not
        self.analyses: dict[_Shape, Analysis | str] = {}
        self.options: dict[tuple[_Shape, tuple[int, ...]], list[OptionValue]] = {}

    def weigh(self, finished: Sequence[_Finished]) -> dict[_Key, list[_Weighed]]:
        groups: dict[_Key, list[_Weighed]] = defaultdict(list)
        for one in finished:
            key = _Key(one.game, _variant(one.rules), one.shared)
            groups[key].append(self._round(one))
        self._decisions([w for group in groups.values() for w in group if w.reason is None])
        return groups

    def _round(self, one: _Finished) -> _Weighed:
        weighed = _Weighed(one.at, one.house, one.staked)
        if one.void:
            weighed.reason = "void"
            return weighed
        if one.game not in GAMES:
            weighed.reason = "game not installed"
            return weighed
        if one.rules is None or one.record_format != RECORD_FORMAT:
            weighed.reason = "record not readable"
            return weighed
        rules = self._rules(one.game, one.rules)
        if isinstance(rules, str):
            weighed.reason = rules
            return weighed
        try:
            positions = _positions(one.events)
        except (KeyError, TypeError, ValueError):
            weighed.reason = "record not readable"
            return weighed
        spec = find_game(one.game).spec(rules)
        base = spec.decides_with
        from riverboat.analysis import wagers_in_units

        sds: list[float] = []
        for position in positions:
            initial = sum(position.wagers.values())
            units = wagers_in_units(position.wagers, base)
            shape = (one.rules, tuple(units.items()))
            analysis = self._analysis(one.game, rules, shape)
            if isinstance(analysis, str):
                weighed.reason = analysis
                return weighed
            figures: Figures | None = analysis.blind if position.blind else analysis.figures
            if figures is None:
                weighed.reason = "not analysable: a blind position without blind figures"
                return weighed
            weighed.initial += initial
            weighed.optimal += figures.house_edge * initial
            sds.append(math.sqrt(float(figures.variance)) * initial)
            if position.action is not None and position.action not in AUTOMATIC:
                if position.cards is None or base is None:
                    weighed.reason = "record not readable"
                    return weighed
                ante = position.wagers.get(base, 0)
                weighed.decided.append(
                    _Decided(
                        shape,
                        tuple(sorted(position.cards)),
                        position.action,
                        Fraction(position.amount, ante) if ante else Fraction(0),
                        ante,
                    )
                )
        weighed.variance = sum(sds) ** 2
        return weighed

    def _rules(self, game: str, text: str) -> GameRules | str:
        found = self.rules.get((game, text))
        if found is None:
            kind = find_game(game)
            try:
                found = from_json(kind.rules_type, json.loads(text))
            except (KeyError, TypeError, ValueError):
                found = "rules not readable"
            self.rules[(game, text)] = found
        return found

    def _analysis(self, game: str, rules: GameRules, shape: _Shape) -> Analysis | str:
        found = self.analyses.get(shape)
        if found is None:
            from riverboat.analysis import analyze

            try:
                found = analyze(game, rules, dict(shape[1]))
            except (ValueError, NotImplementedError) as error:  # RulesError among them
                found = f"not analysable: {error}"
            self.analyses[shape] = found
        return found

    def _decisions(self, rounds: Sequence[_Weighed]) -> None:
        """Each decision's cost against the best option for its hand: the hint's
        values (few hands of a wager shape) or the game's table of them (many)."""
        from riverboat.analysis.coach import weigh

        hands: dict[_Shape, set[tuple[int, ...]]] = defaultdict(set)
        for weighed in rounds:
            for decided in weighed.decided:
                if (decided.shape, decided.hand) not in self.options:
                    hands[decided.shape].add(decided.hand)
        for shape, wanted in hands.items():
            analysis = self.analyses[shape]
            assert not isinstance(analysis, str)  # a round without one is not weighed
            self.options.update(_option_values(analysis, shape, sorted(wanted)))
        for weighed in rounds:
            for decided in weighed.decided:
                analysis = self.analyses[decided.shape]
                assert not isinstance(analysis, str)
                options = self.options[(decided.shape, decided.hand)]
                try:
                    verdict = weigh(
                        options, analysis.game, decided.action, decided.bet, analysis.rules
                    )
                except RulesError as error:
                    weighed.reason = f"decision not weighable: {error}"
                    break
                weighed.cost += verdict.cost * decided.ante
                weighed.best += verdict.is_best


def _option_values(
    analysis: Analysis, shape: _Shape, hands: Sequence[tuple[int, ...]]
) -> dict[tuple[_Shape, tuple[int, ...]], list[OptionValue]]:
    """Every legal option's value, best first, for each of ``hands`` under the
    analysis' rules and wagers: the values :func:`~riverboat.analysis.best_action`
    gives, from the hint for a few hands, else looked up in the game's table of every
    hand class (the same values: ``tests/test_hints.py``)."""
    from riverboat.analysis import best_action

    game, rules, wagers = analysis.game, analysis.rules, analysis.wagers
    if len(hands) < HINTS_BELOW:
        hinted: dict[tuple[_Shape, tuple[int, ...]], list[OptionValue]] = {
            (shape, hand): best_action(game, list(hand), wagers, rules) for hand in hands
        }
        return hinted
    import numpy as np

    from riverboat.analysis import OptionValue, heads_up
    from riverboat.analysis.solution import colex_index

    model = heads_up(game, rules)
    solution = model.solve(dict(wagers))
    classes = colex_index(solution.hands)  # each row's hand: its class's least hand
    order = np.argsort(classes)
    wanted = model.suit_classes[colex_index(np.array(hands, dtype=np.uint8))]
    rows = order[np.searchsorted(classes[order], wanted)]
    if not (classes[rows] == wanted).all():
        raise AssertionError("a hand's suit class is not among the table's rows")
    found: dict[tuple[_Shape, tuple[int, ...]], list[OptionValue]] = {}
    for hand, row in zip(hands, rows.tolist(), strict=True):
        values = [
            OptionValue(option.name, option.label, solution.expected(row, i), option.action,
                        option.bet)
            for i, option in enumerate(model.options)
            if solution.allowed[row, i]
        ]  # fmt: skip
        found[(shape, hand)] = sorted(values, key=lambda v: -v.expected)
    return found


@dataclass
class _Position:
    """A position of a round's record: its wagers, its hand and its decision."""

    seat: str
    blind: bool
    wagers: dict[str, Cents]
    cards: tuple[int, ...] | None = None
    action: str | None = None
    amount: Cents = 0


def _positions(events: Sequence[tuple[str, str]]) -> list[_Position]:
    """The positions a round's wagers, deal and decision events give
    (docs/round-record.md): a hand is its seat's, ``seat:blind`` a blind one's."""
    positions: dict[tuple[str, bool], _Position] = {}
    for kind, body in events:
        data = json.loads(body)
        if kind == "wagers":
            seat, blind = str(data["seat"]), bool(data["blind"])
            wagers = {str(name): int(amount) for name, amount in data["wagers"].items()}
            positions[(seat, blind)] = _Position(seat, blind, wagers)
        elif kind == "deal":
            for (seat, blind), position in positions.items():
                held = data["cards"].get(f"{seat}:blind" if blind else seat)
                position.cards = None if held is None else tuple(int(c) for c in held)
        elif kind == "decision":
            position = positions[(str(data["seat"]), bool(data["blind"]))]
            position.action, position.amount = str(data["action"]), int(data["amount"])
    if not positions:
        raise ValueError("no wagers")
    return list(positions.values())


# ---------------------------------------------------------------------- the rows
def _row(
    key: _Key, group: Sequence[_Weighed], limit: float, bucket: Bucket, until: datetime | None
) -> HoldRow:
    weighed = sorted((w for w in group if w.reason is None), key=lambda w: w.at)
    reasons = Counter(w.reason for w in group if w.reason is not None)
    initial = sum(w.initial for w in weighed)
    house = sum(w.house for w in weighed)
    wagered = sum(w.staked for w in weighed)
    optimal = sum((w.optimal for w in weighed), Fraction(0))
    cost = sum((w.cost for w in weighed), Fraction(0))
    expected = optimal + cost
    variance = sum(w.variance for w in weighed)
    std_dev = math.sqrt(variance)
    z = (house - float(expected)) / std_dev if std_dev > 0 else None
    edge_optimal = optimal / initial if initial else None
    edge_played = expected / initial if initial else None
    return HoldRow(
        game=key.game,
        variant=key.variant,
        table="shared" if key.shared else "own",
        rounds=len(weighed),
        wagered=wagered,
        initial=initial,
        house_win=house,
        hold=house / wagered if wagered else None,
        edge_optimal=None if edge_optimal is None else float(edge_optimal),
        edge_optimal_exact=None if edge_optimal is None else str(edge_optimal),
        edge_played=None if edge_played is None else float(edge_played),
        edge_played_exact=None if edge_played is None else str(edge_played),
        decisions=sum(len(w.decided) for w in weighed),
        best=sum(w.best for w in weighed),
        decision_cost=float(cost),
        expected=float(expected),
        std_dev=std_dev,
        z=z,
        alarm=z is not None and abs(z) > limit,
        unweighed=sum(reasons.values()),
        unweighed_reasons=dict(sorted(reasons.items())),
        points=_points(weighed, bucket, until),
    )


def _points(weighed: Sequence[_Weighed], bucket: Bucket, until: datetime | None) -> list[HoldPoint]:
    """The running totals at the end of each bucket that has rounds (in time order)."""
    step = timedelta(hours=1) if bucket == "hour" else timedelta(days=1)
    points: list[HoldPoint] = []
    house, expected, variance = 0, Fraction(0), 0.0
    for index, one in enumerate(weighed):
        house += one.house
        expected += one.optimal + one.cost
        variance += one.variance
        end = _floor(one.at, bucket) + step
        last = index + 1 == len(weighed)
        if last or weighed[index + 1].at >= end:
            points.append(
                HoldPoint(
                    until=end if until is None else min(end, until),
                    rounds=index + 1,
                    actual=house,
                    expected=float(expected),
                    std_dev=math.sqrt(variance),
                )
            )
    return points


def _bucket(since: datetime | None, until: datetime | None, times: Sequence[datetime]) -> Bucket:
    """An hour when the period (or, where it is open, the rounds in it) spans at most
    :data:`HOURLY_UP_TO`, else a day."""
    first = since or min(times, default=None)
    last = until or max(times, default=None)
    if first is None or last is None:
        return "hour"
    return "hour" if last - first <= HOURLY_UP_TO else "day"


def _floor(at: datetime, bucket: Bucket) -> datetime:
    at = at.replace(minute=0, second=0, microsecond=0)
    return at if bucket == "hour" else at.replace(hour=0)


def _order(key: _Key) -> tuple[int, str, str, bool]:
    """Rows in the order the games are installed, then by variant, own before shared."""
    names = list(GAMES)
    return (names.index(key.game) if key.game in names else len(names), key.game, key.variant,
            key.shared)  # fmt: skip


def _variant(rules: str | None) -> str:
    """The variant a round's rules name ('' where none can be read)."""
    try:
        found = json.loads(rules or "{}")
    except ValueError:
        return ""
    variant = found.get("variant", "") if isinstance(found, Mapping) else ""
    return str(variant)


def _utc(at: datetime | None) -> datetime | None:
    """A time as UTC: one without a zone (as SQLite keeps them) is taken as UTC."""
    if at is None:
        return None
    return at.replace(tzinfo=UTC) if at.tzinfo is None else at.astimezone(UTC)


def _shown(at: datetime) -> str:
    return at.strftime("%Y-%m-%d %H:%M UTC")
