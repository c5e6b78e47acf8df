"""The ledger and history at scale: reads never wait for a writer (SQLite WAL), each
player's running balance is the sum of their entries (and the audit says when it is
not), history pages cost the same whatever the history holds, idempotency keys are
each player's own, a top-up counts the money in open rounds, and migration
0006_running_balance fills in what earlier databases lack."""

from __future__ import annotations

import ast
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from fastapi.testclient import TestClient
from sqlalchemy import Engine, event, func, insert, inspect, select, text, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session
from typer.testing import CliRunner

from riverboat.cli import app
from riverboat.errors import Conflict, IllegalAction
from riverboat.settings import amended
from riverboat.store import MIGRATIONS, writer
from riverboat.store.models import LedgerEntry, Player, RoundEvent, RoundRow, Transaction
from riverboat.table.accounts.ledger import TOP_UP_BELOW, Ledger, player_account
from riverboat.table.rounds.exports import export_round, reveal_state
from riverboat.table.service import TableService
from riverboat.web.app import create_app


def _take(service: TableService, player: int, cents: int) -> None:
    """Move ``cents`` of the player's money to the house, as one ledger transaction."""

    def work(session: Session) -> None:
        txn = Transaction(kind="adjust", player_id=player)
        session.add(txn)
        session.flush()
        Ledger.move(session, txn, [(player_account(player), -cents), ("house", cents)])

    service.ledger.write(work)


def _play_a_mix(service: TableService, player: int) -> None:
    """Rounds of every game, settled, folded, left open and voided (G7)."""
    service.start_round(player, "baccarat", {"banker": 1000, "tie": 500}, client_seed="mix")
    service.start_round(player, "baccarat", {"player": 2000}, client_seed="mix")
    folded = service.start_round(player, "tri-card", {"ante": 1000}, client_seed="mix")
    service.act(player, folded.id, "fold")
    raised = service.start_round(player, "tri-card", {"ante": 500, "pair_plus": 500})
    service.act(player, raised.id, "raise")
    hunted = service.start_round(player, "rabbit-hunter", {"ante": 1000})
    service.act(player, hunted.id, "fold")
    crazy = service.start_round(player, "crazy4", {"ante": 1000, "super_bonus": 1000})
    service.act(player, crazy.id, "fold")
    service.start_round(player, "tri-card", {"ante": 700})  # open until recovery voids it
    assert service.recover()  # the round above: void and refunded (G7)
    service.start_round(player, "tri-card", {"ante": 800})  # stays open


def _entries_sum(engine: Engine, player: int) -> int:
    with Session(engine) as session:
        return int(
            session.scalar(
                select(func.coalesce(func.sum(LedgerEntry.amount), 0)).where(
                    LedgerEntry.account == player_account(player)
                )
            )
            or 0
        )


def _counts(engine: Engine, player: int) -> tuple[int, int]:
    """The player's count of rounds dealt, and their rounds counted (G2's nonce)."""
    with Session(engine) as session:
        kept = session.scalar(select(Player.rounds_dealt).where(Player.id == player))
        counted = session.scalar(select(func.count()).where(RoundRow.player_id == player))
        return int(kept or 0), int(counted or 0)


# ------------------------------------------------------------ no waiting for writers
@contextmanager
def _writer_holding(path: Path) -> Iterator[None]:
    """Another connection holding SQLite's write lock, with a write not yet committed."""
    other = sqlite3.connect(path, isolation_level=None, timeout=0)
    try:
        other.execute("BEGIN IMMEDIATE")
        other.execute("UPDATE players SET failed_logins = failed_logins")
        yield
    finally:
        other.execute("ROLLBACK")
        other.close()


def _answers_within(seconds: float, call: Callable[[], Any]) -> Any:
    """``call``'s answer, from a thread that must finish while the writer holds on (the
    busy timeout is 30 s: a read waiting for the lock would not)."""
    answer: list[Any] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            answer.append(call())
        except BaseException as error:  # reported below
            failed.append(error)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), "the read waited for the writer"
    assert not failed, failed
    return answer[0]


def test_reads_do_not_wait_for_a_writer_on_sqlite(tmp_path: Path) -> None:
    path = tmp_path / "riverboat.db"
    service = TableService(f"sqlite:///{path}")
    me = service.local_player()
    _play_a_mix(service, me)
    balance, history = service.balance(me), service.history(me, 5)
    with _writer_holding(path):
        assert _answers_within(10, lambda: service.balance(me)) == balance
        assert _answers_within(10, lambda: service.history(me, 5)) == history
        assert _answers_within(10, lambda: service.round(me, history[0].id)) is not None
    with Session(service.engine) as session:  # WAL: readers and a writer side by side
        assert session.scalar(text("PRAGMA journal_mode")) == "wal"


def test_the_web_reads_do_not_wait_for_a_writer_on_sqlite(tmp_path: Path) -> None:
    path = tmp_path / "web.db"
    app = create_app(
        amended(
            database_url=f"sqlite:///{path}", local_player=True, rate_limit=1000, house_edges=False
        )
    )
    with TestClient(app) as client:
        client.get("/")
        headers = {"X-CSRF-Token": client.cookies["riverboat_csrf"]}
        body = {"game": "baccarat", "wagers": {"banker": 1000}}
        assert client.post("/api/rounds", json=body, headers=headers).status_code == 200
        with _writer_holding(path):
            me = _answers_within(10, lambda: client.get("/api/me"))
            history = _answers_within(10, lambda: client.get("/api/history?limit=5"))
        assert me.status_code == 200
        assert me.json()["balance"] == app.state.service.balance(1)
        assert history.status_code == 200
        assert len(history.json()) == 1


def test_a_writer_still_waits_for_a_writer_on_sqlite(tmp_path: Path) -> None:
    """Writes take turns: a write transaction begins by taking the lock, so a second
    writer is refused (or waits) while another holds it."""
    path = tmp_path / "riverboat.db"
    service = TableService(f"sqlite:///{path}")
    with _writer_holding(path), writer(service.engine).connect() as connection:
        connection.connection.driver_connection.execute("PRAGMA busy_timeout = 0")  # type: ignore[union-attr]
        with pytest.raises(OperationalError, match="database is locked"):
            connection.begin()


# --------------------------------------------------------------- running balances
def test_the_running_balance_is_the_sum_of_the_entries(database_url: str) -> None:
    service = TableService(database_url)
    ann, bob = service.register("ann", "password-ann"), service.register("bob", "password-bob")
    _play_a_mix(service, ann)
    _play_a_mix(service, bob)
    _take(service, ann, service.balance(ann) - 5000)  # leaves $50
    assert service.balance(ann) == 5000
    assert service.top_up(ann) == service.balance(ann) == 100_000
    assert service.open_round(bob, "tri-card") is not None  # money held in a round
    for player in (ann, bob):
        assert service.balance(player) == _entries_sum(service.engine, player)
        assert _counts(service.engine, player) == (8, 8)  # the rounds dealt: the next nonce
    assert service.audit() == []


def test_the_audit_catches_a_tampered_running_balance(database_url: str) -> None:
    service = TableService(database_url)
    me = service.local_player()
    _play_a_mix(service, me)
    with Session(service.engine) as session, session.begin():
        session.execute(update(Player).where(Player.id == me).values(balance=Player.balance + 1))
    total = _entries_sum(service.engine, me)
    assert service.audit() == [
        f"player {me}: the running balance is {total + 1} cents, the entries sum to {total}"
    ]


def test_the_audit_reads_one_snapshot_while_a_round_settles_under_it(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A round settled while the audit runs, between its reading the round's row (open)
    and what the round's account holds: the audit sees the database as of its start,
    and is clean (READ COMMITTED saw 'holds 0 cents, expected 500' on PostgreSQL)."""
    from riverboat.table.accounts import audit as auditing

    service = TableService(database_url)
    me = service.local_player()
    opened = service.start_round(me, "tri-card", {"ante": 500})
    assert opened.status == "open"
    settled: list[int] = []
    resume = auditing.resume

    def settling_under_the_audit(row: RoundRow) -> Any:
        if row.id == opened.id and not settled:
            assert service.act(me, opened.id, "fold").status == "settled"  # another connection
            settled.append(row.id)
        return resume(row)

    monkeypatch.setattr(auditing, "resume", settling_under_the_audit)
    assert service.audit() == []
    assert settled == [opened.id]  # the round did settle while the audit read
    monkeypatch.undo()
    assert service.audit() == []  # and as of now too, settled


# ------------------------------------------------------------------------- history
def _replayed(service: TableService, player: int) -> list[dict[str, Any]]:
    """Every round of the player's as the replaying export gives it, newest first."""
    with Session(service.engine) as session:
        rows = session.scalars(
            select(RoundRow).where(RoundRow.player_id == player).order_by(RoundRow.id.desc())
        ).all()
        return [export_round(r, *reveal_state(session, r)).model_dump(mode="json") for r in rows]


def test_history_pages_cover_every_round_once_newest_first(database_url: str) -> None:
    service = TableService(database_url)
    me = service.local_player()
    for _ in range(2):
        _play_a_mix(service, me)
        service.act(me, service.open_round(me, "tri-card").id, "raise")  # type: ignore[union-attr]
    pages, before = [], None
    while page := service.history(me, 3, before=before):
        pages.append(page)
        before = page[-1].id
    ids = [r.id for page in pages for r in page]
    assert ids == sorted(ids, reverse=True)
    assert len(ids) == len(set(ids)) == 16
    assert all(len(page) == 3 for page in pages[:-1])
    # the stored outcomes give exactly what replaying each round gives
    assert [r.model_dump(mode="json") for page in pages for r in page] == _replayed(service, me)
    assert service.history(me, 1000) == [r for page in pages for r in page]
    with pytest.raises(IllegalAction, match="before is a round id"):
        service.history(me, 3, before=0)


def test_history_pages_over_http(tmp_path: Path) -> None:
    app = create_app(
        amended(database_url=f"sqlite:///{tmp_path / 'web.db'}", rate_limit=1000, house_edges=False)
    )
    with TestClient(app) as client:
        client.get("/")
        headers = {"X-CSRF-Token": client.cookies["riverboat_csrf"]}
        for _ in range(5):
            body = {"game": "baccarat", "wagers": {"banker": 1000}}
            client.post("/api/rounds", json=body, headers=headers).raise_for_status()
        first = client.get("/api/history?limit=2").json()
        second = client.get(f"/api/history?limit=2&before={first[-1]['id']}").json()
        assert [r["id"] for r in first + second] == [5, 4, 3, 2]
        assert client.get("/api/history?limit=2&before=0").status_code == 422


def _copy_rounds(engine: Engine, player: int, copies: int) -> None:
    """``copies`` more settled rounds for the player, copied in bulk from their last."""
    if not copies:
        return
    with Session(writer(engine)) as session, session.begin():
        last = session.scalars(
            select(RoundRow).where(RoundRow.player_id == player).order_by(RoundRow.id.desc())
        ).first()
        assert last is not None
        assert last.status == "settled"
        columns = [c.key for c in RoundRow.__table__.columns if c.key != "id"]
        values = {key: getattr(last, key) for key in columns}
        events = [(e.seq, e.kind, e.body) for e in session.scalars(
            select(RoundEvent).where(RoundEvent.round_id == last.id))]  # fmt: skip
        top = session.scalar(select(func.max(RoundRow.id))) or 0
        session.execute(insert(RoundRow), [{**values, "id": top + n} for n in range(1, copies + 1)])
        session.execute(
            insert(RoundEvent),
            [
                {"round_id": top + n, "seq": seq, "kind": kind, "body": body}
                for n in range(1, copies + 1)
                for seq, kind, body in events
            ],
        )


@contextmanager
def _counting(engine: Engine) -> Iterator[dict[str, int]]:
    """Count the SQL statements run on ``engine`` and the rows the ORM loads."""
    counts = {"statements": 0, "rounds": 0, "events": 0}

    def statement(*_: object) -> None:
        counts["statements"] += 1

    def loaded_round(*_: object) -> None:
        counts["rounds"] += 1

    def loaded_event(*_: object) -> None:
        counts["events"] += 1

    event.listen(engine, "before_cursor_execute", statement)
    event.listen(RoundRow, "load", loaded_round)
    event.listen(RoundEvent, "load", loaded_event)
    try:
        yield counts
    finally:
        event.remove(engine, "before_cursor_execute", statement)
        event.remove(RoundRow, "load", loaded_round)
        event.remove(RoundEvent, "load", loaded_event)


def test_a_history_page_costs_the_same_whatever_the_history_holds(database_url: str) -> None:
    service = TableService(database_url)
    me = service.local_player()
    for _ in range(10):
        service.start_round(me, "baccarat", {"banker": 500}, client_seed="size")
    costs = []
    for copies in (0, 490):  # 10 rounds of history, then 500
        _copy_rounds(service.engine, me, copies)
        with _counting(service.engine) as counts:
            page = service.history(me, 10)
        with _counting(service.engine) as later:
            assert len(service.history(me, 5, before=page[4].id)) == 5
        costs += [dict(counts), dict(later)]
        assert len(page) == 10
    assert costs[0] == costs[2]
    assert costs[1] == costs[3]
    assert costs[0]["rounds"] == 10
    assert costs[1]["rounds"] == 5
    assert costs[0]["events"] == costs[2]["events"] <= 10 * 8  # the page's events alone


# -------------------------------------------------------------------- idempotency
def test_an_idempotency_key_is_each_players_own(database_url: str) -> None:
    service = TableService(database_url)
    ann, bob = service.register("ann", "password-ann"), service.register("bob", "password-bob")
    anns = service.start_round(ann, "tri-card", {"ante": 1000}, idempotency_key="shared-key")
    bobs = service.start_round(bob, "tri-card", {"ante": 2000}, idempotency_key="shared-key")
    assert bobs.id != anns.id
    assert bobs.wagers["ante"] == 2000
    assert service.balance(bob) == 100_000 - 2000
    assert service.balance(ann) == 100_000 - 1000
    again = service.start_round(bob, "tri-card", {"ante": 2000}, idempotency_key="shared-key")
    assert again == bobs  # the key still names bob's own request to bob
    with pytest.raises(Conflict, match="used for another request"):  # bob's own reuse
        service.start_round(bob, "tri-card", {"ante": 3000}, idempotency_key="shared-key")
    assert service.round(ann, anns.id).wagers["ante"] == 1000


# ------------------------------------------------------------------------- top-up
def test_no_top_up_past_the_limit_with_money_in_an_open_round(database_url: str) -> None:
    service = TableService(database_url)
    me = service.local_player()
    _take(service, me, 100_000 - 15_000)  # $150 left
    staked = service.start_round(me, "tri-card", {"ante": 6000}, client_seed="hide")
    assert service.balance(me) == 9000 < TOP_UP_BELOW  # below $100, with $60 in the round
    with pytest.raises(IllegalAction) as refused:
        service.top_up(me)
    assert str(refused.value) == (
        "a top-up is for balances below $100, counting open rounds; the balance is $90"
        " and open rounds hold $60 more: finish them first"
    )
    assert service.balance(me) == 9000  # the refusal changed nothing
    service.act(me, staked.id, "fold")
    assert service.top_up(me) == 100_000  # nothing held any more: $90 tops up
    assert service.audit() == []


# ---------------------------------------------------------------------- migration
def _migrate(engine: Engine, revision: str, down: bool = False) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with writer(engine).begin() as connection:
        config.attributes["connection"] = connection
        (command.downgrade if down else command.upgrade)(config, revision)


def test_the_migration_backfills_balances_and_history_replays_older_outcomes(
    database_url: str,
) -> None:
    service = TableService(database_url)
    ann, bob = service.register("ann", "password-ann"), service.register("bob", "password-bob")
    _play_a_mix(service, ann)
    _play_a_mix(service, bob)
    service.start_round(ann, "tri-card", {"ante": 500}, idempotency_key="k")
    expected = {p: (service.balance(p), service.history(p, 1000)) for p in (ann, bob)}
    _migrate(service.engine, "0004", down=True)  # the schema of 0004, its rounds and entries
    columns = {column["name"] for column in inspect(service.engine).get_columns("players")}
    assert "balance" not in columns
    service.engine.dispose()
    again = TableService(database_url)  # connecting upgrades to the latest
    with Session(again.engine) as session:
        stored = dict(session.execute(select(Player.id, Player.balance)).all())
        results = session.scalars(select(RoundRow.result).where(RoundRow.status != "open")).all()
    assert len(results) == 15  # of 17 rounds, bob's last and ann's "k" are open
    assert set(results) == {None}  # no replay in a migration: history replays them
    for player in (ann, bob):
        balance, history = expected[player]
        assert stored[player] == balance == _entries_sum(again.engine, player)
        kept, counted = _counts(again.engine, player)
        assert kept == counted == (9 if player == ann else 8)
        assert again.history(player, 1000) == history
    assert again.audit() == []
    with pytest.raises(Conflict, match="idempotency key 'k'"):  # ann's key, carried over
        again.start_round(ann, "tri-card", {"ante": 600}, idempotency_key="k")


def test_no_migration_imports_the_application() -> None:
    """A migration does the same whenever it runs: it takes nothing from riverboat's
    own modules, which change with the application."""
    for path in sorted((MIGRATIONS / "versions").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            assert not [n for n in names if n.split(".")[0] == "riverboat"], path.name


def _transaction_columns(engine: Engine) -> set[str]:
    return {column["name"] for column in inspect(engine).get_columns("transactions")}


def test_0007_drops_the_emptied_key_column_and_its_downgrade_adds_it_back(
    database_url: str,
) -> None:
    service = TableService(database_url)
    ann, bob = service.register("ann", "password-ann"), service.register("bob", "password-bob")
    _play_a_mix(service, ann)
    service.start_round(ann, "baccarat", {"banker": 500}, idempotency_key="k")
    service.start_round(bob, "baccarat", {"banker": 500}, idempotency_key="k")  # bob's own k
    balances = {p: service.balance(p) for p in (ann, bob)}
    engine = service.engine
    assert "idempotency_key" not in _transaction_columns(engine)
    assert "request_key" in _transaction_columns(engine)
    _migrate(engine, "0006_running_balance", down=True)
    assert "idempotency_key" in _transaction_columns(engine)
    with writer(engine).begin() as connection:  # back, empty, and unique again
        keys = connection.execute(text("SELECT idempotency_key FROM transactions")).scalars()
        assert set(keys) == {None}
        connection.execute(text("UPDATE transactions SET idempotency_key = 'x' WHERE id = 1"))
    with pytest.raises(IntegrityError), writer(engine).begin() as connection:
        connection.execute(text("UPDATE transactions SET idempotency_key = 'x' WHERE id = 2"))
    with writer(engine).begin() as connection:
        connection.execute(text("UPDATE transactions SET idempotency_key = NULL"))
    _migrate(engine, "head")
    assert "idempotency_key" not in _transaction_columns(engine)
    indexes = {index["name"] for index in inspect(engine).get_indexes("transactions")}
    assert {"transactions_player_key", "transactions_round"} <= indexes
    with pytest.raises(IntegrityError), writer(engine).begin() as connection:  # still checked
        connection.execute(
            text(
                "INSERT INTO ledger (transaction_id, account, amount, created_at)"
                " VALUES (999999, 'house', 0, '2026-01-01')"
            )
        )
    engine.dispose()
    again = TableService(database_url)
    assert {p: again.balance(p) for p in (ann, bob)} == balances
    assert again.audit() == []
    for player in (ann, bob):  # each player's key, still theirs alone
        with pytest.raises(Conflict, match="idempotency key 'k'"):
            again.start_round(player, "baccarat", {"banker": 600}, idempotency_key="k")
    again.engine.dispose()


# ---------------------------------------------- a decision rebuilt before the write
def test_a_decision_rebuilds_a_round_that_changed_after_it_was_read(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A decision rebuilds its round before the write transaction; if the round gained
    events after that read, the decision rebuilds it from what is stored instead."""
    service = TableService(database_url)
    me = service.local_player()
    view = service.start_round(me, "tri-card", {"ante": 1000}, client_seed="ahead")
    stale = service.rounds._resumed_ahead(me, view.id)
    assert stale is not None
    stale.act("raise")  # not what is stored: two events more than the round has
    monkeypatch.setattr(service.rounds, "_resumed_ahead", lambda *_: stale)
    done = service.act(me, view.id, "fold")
    assert done.status == "settled"
    assert done.net == -1000  # the fold, from the stored round, not the raise
    assert service.balance(me) == 99_000
    assert service.audit() == []


def test_the_command_line_pages_history_with_before(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    service = TableService(url)
    me = service.local_player()
    for _ in range(4):
        service.start_round(me, "baccarat", {"banker": 500}, client_seed="cli")
    service.engine.dispose()
    runner = CliRunner(env={"COLUMNS": "200", "NO_COLOR": "1"})
    shown = runner.invoke(app, ["history", "--database", url, "-n", "2", "--before", "4"])
    assert shown.exit_code == 0, shown.output
    assert [line.split()[0] for line in shown.output.splitlines()] == ["#3", "#2"]
    refused = runner.invoke(app, ["history", "--database", url, "--before", "0"])
    assert refused.exit_code == 2
    assert "--before" in refused.output
