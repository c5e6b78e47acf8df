"""Hold against theory (riverboat.table.office.hold, riverboat report): rounds played
through the table service, good and bad decisions among them, then the report's actual
figures checked against the ledger as the store keeps it, its theory against the
analyzer and the hint, its alarm against its band, and the command's formats and
refusals."""

from __future__ import annotations

import csv
import json
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from pathlib import Path
from statistics import NormalDist

import pytest
from sqlalchemy import event, select
from sqlalchemy.orm import Session
from typer.testing import CliRunner

from riverboat.analysis import analyze, best_action, wagers_in_units
from riverboat.cli import app
from riverboat.errors import IllegalAction
from riverboat.games import find_game
from riverboat.store.models import Deal, LedgerEntry, RoundRow, Transaction
from riverboat.table.office import hold
from riverboat.table.office.hold import hold_report
from riverboat.table.office.views import HoldReport, HoldRow
from riverboat.table.rounds.shared import Stake
from riverboat.table.service import TableService
from riverboat.table.views import RoundView

runner = CliRunner(env={"COLUMNS": "200", "NO_COLOR": "1"})

#: a report row's key: game, variant, own or shared table
Key = tuple[str, str, str]


@dataclass
class Played:
    """A database of rounds played, and what the test knows of them as it played."""

    url: str
    service: TableService
    #: per row: (initial wagers in cents, the analyzer's house edge for them) per position
    positions: dict[Key, list[tuple[int, Fraction]]] = field(
        default_factory=lambda: defaultdict(list)
    )
    #: per row: each decision's cost in cents against the best option, from the hint
    costs: dict[Key, list[Fraction]] = field(default_factory=lambda: defaultdict(list))
    bad: int = 0  # decisions made worse than the best on purpose


def _key(view: RoundView) -> Key:
    return (view.game, view.variant, "shared" if view.shared else "own")


def _edge(game: str, wagers: dict[str, int], blind: bool = False) -> Fraction:
    """The analyzer's house edge per total initial wager for ``wagers`` (cents)."""
    spec = find_game(game).spec()
    analysis = analyze(game, wagers=wagers_in_units(wagers, spec.decides_with))
    if blind:
        assert analysis.blind is not None
        return analysis.blind.house_edge
    return analysis.figures.house_edge


def _dealt(played: Played, view: RoundView) -> None:
    """Note the round's positions and their optimal edges."""
    for wagers, blind in ((view.wagers, False), (view.second, True)):
        if wagers:
            edge = _edge(view.game, dict(wagers), blind)
            played.positions[_key(view)].append((sum(wagers.values()), edge))


def _decide(played: Played, view: RoundView, worst: bool) -> tuple[str, int]:
    """The best option for the hand, or on purpose the worst; its cost noted."""
    spec = find_game(view.game).spec()
    units = wagers_in_units(view.wagers, spec.decides_with)
    options = best_action(view.game, " ".join(view.cards["player"]), units)
    chosen = options[-1] if worst else options[0]
    ante = view.wagers[spec.decides_with or ""]
    played.costs[_key(view)].append((options[0].expected - chosen.expected) * ante)
    played.bad += chosen.expected < options[0].expected
    return chosen.wager(ante)


def _play(url: str) -> Played:
    service = TableService(url)
    played = Played(url, service)
    me = service.local_player()
    shapes = [{"ante": 1000}, {"ante": 1000, "pair_plus": 500}, {"ante": 0, "pair_plus": 500}]
    for n in range(12):  # Tri-Card: three wager shapes, every other decision the worst
        view = service.start_round(me, "tri-card", shapes[n % 3], client_seed=f"tri {n}")
        _dealt(played, view)
        if view.status == "open":
            action, amount = _decide(played, view, worst=n % 2 == 1)
            service.act(me, view.id, action, amount)
    for n in range(4):  # Baccarat at the player's own table
        wagers = [{"banker": 1000}, {"player": 500, "tie": 500}][n % 2]
        _dealt(played, service.start_round(me, "baccarat", wagers, client_seed=f"coup {n}"))
    ann, bob = (service.register(name, "a long password") for name in ("ann", "bob"))
    deal = service.new_deal("baccarat")
    layout = service.seal_deal(deal.id, "ann|bob")
    for coup in range(2):  # a shared shoe: two coups for two players
        places = range(layout.first + 6 * coup, layout.first + 6 * coup + 6)
        stakes = [Stake(ann, {"banker": 2000}, places), Stake(bob, {"player": 500}, places)]
        for answer in service.start_shared("baccarat", deal.id, stakes):
            assert isinstance(answer, RoundView)
            _dealt(played, answer)
    ante = {"ante": 500, "super_bonus": 500}
    for n in range(2):  # Crazy 4 with a blind second position (C8), own then shared
        if n == 0:
            view = service.start_round(me, "crazy4", ante, client_seed="c4", second=ante)
        else:
            shared = service.new_deal("crazy4")
            service.seal_deal(shared.id, "ann")
            (answer,) = service.start_shared(
                "crazy4", shared.id, [Stake(ann, ante, range(15), ante)]
            )
            assert isinstance(answer, RoundView)
            view = answer
        _dealt(played, view)
        action, amount = _decide(played, view, worst=n == 0)
        if view.shared:
            assert service.showdown([(ann, view.id, action, amount)]) == {}
        else:
            service.act(me, view.id, action, amount)
    service.start_round(me, "tri-card", {"ante": 500}, client_seed="left open")
    assert len(service.recover()) == 1  # void, before its first decision (G7)
    return played


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    url = f"sqlite:///{tmp_path_factory.mktemp('hold') / 'hold.db'}"
    found = _play(url)
    assert found.bad >= 4  # some decisions are bad on purpose
    yield found
    found.service.engine.dispose()


def _ledger(service: TableService) -> dict[Key, dict[str, int]]:
    """Each row's actual figures as the store keeps them, read here without the report:
    rounds settled, what the house won (what the players' accounts lost on them) and
    what was staked (every entry into a round's account)."""
    found: dict[Key, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    with Session(service.engine) as session:
        rows = session.execute(
            select(RoundRow.id, RoundRow.game, RoundRow.rules, RoundRow.deal_id, Deal.player_id)
            .outerjoin(Deal, Deal.id == RoundRow.deal_id)
            .where(RoundRow.status == "settled")
        ).all()
        for round_id, game, rules, deal, dealer in rows:
            shared = deal is not None and dealer is None
            key = (game, json.loads(rules)["variant"], "shared" if shared else "own")
            entries = session.execute(
                select(LedgerEntry.account, LedgerEntry.amount)
                .join(Transaction, Transaction.id == LedgerEntry.transaction_id)
                .where(Transaction.round_id == round_id)
            ).all()
            found[key]["rounds"] += 1
            players = sum(amount for account, amount in entries if account.startswith("player:"))
            staked = [a for account, a in entries if account == f"round:{round_id}" and a > 0]
            found[key]["house_win"] -= players
            found[key]["wagered"] += sum(staked)
    return found


def _rows(report: HoldReport) -> dict[Key, HoldRow]:
    return {(row.game, row.variant, row.table): row for row in report.rows}


def test_the_actual_figures_are_the_ledgers(played: Played) -> None:
    rows = _rows(hold_report(played.service))
    ledger = _ledger(played.service)
    assert set(rows) == set(ledger) == set(played.positions)
    assert set(rows) == {
        ("tri-card", "standard", "own"),
        ("baccarat", "8 decks", "own"),
        ("baccarat", "8 decks", "shared"),
        ("crazy4", "rule-card", "own"),
        ("crazy4", "rule-card", "shared"),
    }
    for key, row in rows.items():
        assert (row.rounds, row.house_win, row.wagered) == (
            ledger[key]["rounds"],
            ledger[key]["house_win"],
            ledger[key]["wagered"],
        ), key
        assert row.initial == sum(initial for initial, _ in played.positions[key])
        assert row.hold == row.house_win / row.wagered
    # the round left open and voided is counted apart, with why, and left out
    assert rows["tri-card", "standard", "own"].unweighed_reasons == {"void": 1}
    assert sum(row.unweighed for row in rows.values()) == 1


def test_the_theory_is_the_analyzers_and_the_hints(played: Played) -> None:
    rows = _rows(hold_report(played.service))
    for key, row in rows.items():
        positions = played.positions[key]
        initial = sum(cents for cents, _ in positions)
        optimal = sum((cents * edge for cents, edge in positions), Fraction(0)) / initial
        assert row.edge_optimal_exact == str(optimal), key
        assert row.edge_optimal == float(optimal)
        cost = sum(played.costs[key], Fraction(0))
        assert Fraction(row.edge_played_exact or "") - optimal == cost / initial, key
        assert row.decisions == len(played.costs[key])
        assert row.best == sum(1 for c in played.costs[key] if c == 0)
        assert row.expected == pytest.approx(float(optimal * initial + cost), abs=1e-6)
    tri = rows["tri-card", "standard", "own"]
    assert tri.decision_cost > 0  # the bad decisions
    assert tri.edge_played > tri.edge_optimal
    # a blind second position is weighed by the blind hand's edge, with no decision
    assert len(played.positions["crazy4", "rule-card", "shared"]) == 2
    assert rows["crazy4", "rule-card", "shared"].decisions == 1


def test_the_hint_and_the_games_table_weigh_alike(
    played: Played, monkeypatch: pytest.MonkeyPatch
) -> None:
    hinted = hold_report(played.service)
    monkeypatch.setattr(hold, "HINTS_BELOW", 0)  # every hand looked up in the table
    looked_up = hold_report(played.service)
    assert [r.edge_played_exact for r in looked_up.rows] == [
        r.edge_played_exact for r in hinted.rows
    ]
    assert [r.best for r in looked_up.rows] == [r.best for r in hinted.rows]


def test_the_spread_the_series_and_the_alarm(played: Played) -> None:
    report = hold_report(played.service)
    assert report.z_limit == pytest.approx(3.2905267)  # the default band, 0.999
    for row in report.rows:
        assert row.std_dev > 0
        assert row.z == pytest.approx((row.house_win - row.expected) / row.std_dev)
        assert row.alarm == (abs(row.z or 0) > report.z_limit)
        last = row.points[-1]  # the series' running totals end at the row's
        assert (last.rounds, last.actual) == (row.rounds, row.house_win)
        assert (last.expected, last.std_dev) == pytest.approx((row.expected, row.std_dev))
    assert report.bucket == "hour"  # every round within three days
    # the same z rings the alarm of a band it lies outside, and not that of one it is in
    row = _rows(report)["tri-card", "standard", "own"]
    assert row.z is not None
    inside = 2 * NormalDist().cdf(abs(row.z)) - 1  # the band whose edge z is
    narrow = _rows(hold_report(played.service, band=inside * 0.9))["tri-card", "standard", "own"]
    wide = _rows(hold_report(played.service, band=inside + (1 - inside) / 2))
    assert narrow.alarm
    assert narrow.z == row.z
    assert not wide["tri-card", "standard", "own"].alarm


def test_the_period_and_the_game_choose_the_rounds(played: Played) -> None:
    now = datetime.now(UTC)
    assert hold_report(played.service, until=now - timedelta(days=1)).rows == []
    assert hold_report(played.service, since=now + timedelta(minutes=1)).rows == []
    recent = hold_report(played.service, since=now - timedelta(days=5), until=now + timedelta(1))
    assert [r.rounds for r in recent.rows] == [r.rounds for r in hold_report(played.service).rows]
    assert recent.bucket == "day"  # the period's span, not the rounds', chooses
    only = hold_report(played.service, game="baccarat", bucket="day")
    assert {row.game for row in only.rows} == {"baccarat"}
    with pytest.raises(IllegalAction, match="no game 'poker'"):
        hold_report(played.service, game="poker")
    with pytest.raises(IllegalAction, match="between 0 and 1"):
        hold_report(played.service, band=1.0)
    with pytest.raises(IllegalAction, match="before it begins"):
        hold_report(played.service, since=now, until=now - timedelta(1))


def test_the_report_reads_one_snapshot(database_url: str) -> None:
    """Its statements run in one transaction: on PostgreSQL read-only REPEATABLE READ,
    set by its first statement."""
    service = TableService(database_url)
    me = service.local_player()
    for n in range(2):
        service.start_round(me, "baccarat", {"banker": 1000}, client_seed=f"one {n}")
    begun: list[object] = []
    sent: list[str] = []

    def begins(connection: object) -> None:
        begun.append(connection)

    def sends(*sending: object) -> None:
        sent.append(str(sending[2]))

    event.listen(service.engine, "begin", begins)
    event.listen(service.engine, "before_cursor_execute", sends)
    try:
        (row,) = hold_report(service).rows
    finally:
        event.remove(service.engine, "begin", begins)
        event.remove(service.engine, "before_cursor_execute", sends)
    assert len(begun) == 1
    if database_url.startswith("postgresql"):
        assert sent[0] == "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY"
    assert sum(statement.lstrip().startswith("SELECT") for statement in sent) == 3
    assert row.rounds == 2
    assert row.house_win == _ledger(service)["baccarat", "8 decks", "own"]["house_win"]
    service.engine.dispose()


# ------------------------------------------------------------------------ the command
def test_the_command_writes_text_json_and_csv(played: Played) -> None:
    text = runner.invoke(app, ["report", "--database", played.url])
    assert text.exit_code == 0, text.output
    assert text.output.startswith("Hold against theory, the first round to the last")
    lines = text.output.splitlines()
    assert lines[2].split()[:4] == ["game", "variant", "table", "rounds"]
    assert any(line.split()[:4] == ["tri-card", "standard", "own", "12"] for line in lines)
    assert "1 round not weighed (void 1), left out of every figure." in text.output

    as_json = runner.invoke(app, ["report", "--database", played.url, "--format", "json"])
    assert as_json.exit_code == 0, as_json.output
    report = HoldReport.model_validate_json(as_json.output)
    assert report == hold_report(played.service)

    as_csv = runner.invoke(
        app, ["report", "--database", played.url, "--format", "csv", "--game", "tri-card"]
    )
    assert as_csv.exit_code == 0, as_csv.output
    (row,) = csv.DictReader(as_csv.output.splitlines())
    tri = _rows(report)["tri-card", "standard", "own"]
    assert (row["game"], int(row["house_win_cents"]), row["edge_played_exact"]) == (
        "tri-card", tri.house_win, tri.edge_played_exact,
    )  # fmt: skip
    assert row["unweighed_reasons"] == "void: 1"

    since = runner.invoke(app, ["report", "--database", played.url, "--since", "2999-01-01"])
    assert since.exit_code == 0
    assert "No round was settled in the period." in since.output


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        (["--since", "2026-13-01"], "Invalid value for --since: '2026-13-01' is not a date"),
        (["--until", "yesterday"], "Invalid value for --until: 'yesterday' is not a date"),
        (["--band", "1.5"], "Invalid value for --band: the band is a probability between 0"),
        (["--band", "0"], "the band is a probability between 0 and 1, such as 0.999; not 0.0"),
        (["--game", "poker"], "Invalid value for --game: no game 'poker'; the games are"),
        (["--since", "2026-12-02", "--until", "2026-12-01"], "before it begins"),
        (["--format", "html"], "Invalid value for '--format'"),
    ],
)
def test_the_commands_mistakes_are_said_with_exit_code_2(
    played: Played, arguments: list[str], said: str
) -> None:
    result = runner.invoke(app, ["report", "--database", played.url, *arguments])
    assert result.exit_code == 2, result.output
    assert said in " ".join(result.output.replace("│", " ").split())
    assert "Traceback" not in result.output


def test_the_text_shows_the_alarm(played: Played) -> None:
    from riverboat.cli.report import text

    report = hold_report(played.service, band=1e-9)  # every z outside so small a band
    assert all(row.alarm for row in report.rows)
    assert all(line.endswith("ALARM") for line in text(report).splitlines()[3:8])


def test_an_empty_database_reports_no_rows(tmp_path: Path) -> None:
    service = TableService(f"sqlite:///{tmp_path / 'empty.db'}")
    assert hold_report(service).rows == []
    service.engine.dispose()


def test_a_game_of_a_plug_in_is_weighed_and_left_out_once_uninstalled(showdown: str) -> None:
    """Any installed game is weighed as riverboat's own are (by its spec, its analysis and
    its hint); a round of a game no longer installed is counted apart, with why."""
    from riverboat.games import discover, unregister

    service = TableService("sqlite://")
    me = service.local_player()
    played = Played("sqlite://", service)
    for n in range(4):
        view = service.start_round(me, showdown, {"ante": 500, "pair_up": 100}, f"two {n}")
        action, amount = _decide(played, view, worst=n % 2 == 0)
        service.act(me, view.id, action, amount)
    (row,) = hold_report(service).rows
    (costs,) = played.costs.values()
    edge = _edge(showdown, {"ante": 500, "pair_up": 100})
    assert (row.game, row.rounds, row.edge_optimal_exact) == (showdown, 4, str(edge))
    assert Fraction(row.edge_played_exact or "") - edge == sum(costs, Fraction(0)) / 2400
    unregister(showdown)
    try:
        (gone,) = hold_report(service).rows
    finally:
        discover()
    assert (gone.rounds, gone.unweighed_reasons, gone.edge_optimal) == (
        0, {"game not installed": 4}, None,
    )  # fmt: skip
    service.engine.dispose()
