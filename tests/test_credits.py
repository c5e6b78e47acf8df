"""A player's credits of play money that are not rounds (the starting credit, each
top-up): the service's read on SQLite and on PostgreSQL, its indexes, and
``GET /api/credits``."""

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import Engine, event, inspect

from riverboat.games import IllegalAction
from riverboat.settings import amended
from riverboat.store import connect, migrate
from riverboat.table.accounts import credits as credit_reads
from riverboat.table.service import STARTING_CREDIT, TableService
from riverboat.web.app import create_app


@pytest.fixture
def service(database_url: str) -> Iterator[TableService]:
    table = TableService(database_url)
    yield table
    table.engine.dispose()


def drain(service: TableService, player: int, down_to: int = 2000) -> None:
    """Fold Antes until the balance is ``down_to`` (cents; a multiple of $5 below $500)."""
    while (left := service.balance(player)) > down_to:
        view = service.start_round(player, "tri-card", {"ante": min(50_000, left - down_to)})
        service.act(player, view.id, "fold")
    assert service.balance(player) == down_to


@contextmanager
def statements(engine: Engine) -> Iterator[list[str]]:
    seen: list[str] = []

    def count(_conn: object, _cursor: object, sql: str, *_: object) -> None:
        seen.append(sql)

    event.listen(engine, "before_cursor_execute", count)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", count)


def test_the_starting_credit_and_a_top_up_are_listed_newest_first(service: TableService) -> None:
    me = service.local_player()
    (start,) = service.credits(me)
    assert (start.kind, start.amount, start.balance_after) == (
        "start",
        STARTING_CREDIT,
        STARTING_CREDIT,
    )
    drain(service, me, 2000)
    before = datetime.now(UTC)
    assert service.top_up(me) == STARTING_CREDIT
    top_up, again = service.credits(me)
    assert again == start
    assert (top_up.kind, top_up.amount, top_up.balance_after) == ("top_up", 98_000, STARTING_CREDIT)
    assert top_up.id > start.id
    assert top_up.at.tzinfo is not None  # UTC, whatever the database keeps
    assert before - timedelta(seconds=5) <= top_up.at <= datetime.now(UTC) + timedelta(seconds=5)
    assert start.at <= top_up.at
    assert service.audit() == []  # the top-up balanced its entries like any other credit


def test_another_players_credits_are_never_listed(service: TableService) -> None:
    me, other = service.local_player(), service.register("ann", "a long password")
    drain(service, me, 0)
    service.top_up(me)
    mine = {c.id for c in service.credits(me)}
    theirs = service.credits(other)
    assert [(c.kind, c.amount) for c in theirs] == [("start", STARTING_CREDIT)]
    assert not mine & {c.id for c in theirs}
    assert len(mine) == 2
    assert service.credits(9999) == []  # no such player: nothing, not someone's


def test_credits_come_in_pages_with_before(service: TableService) -> None:
    me = service.local_player()
    for down_to in (0, 5000, 9500):
        drain(service, me, down_to)
        service.top_up(me)
    everything = service.credits(me, limit=10)
    assert [c.kind for c in everything] == ["top_up", "top_up", "top_up", "start"]
    assert [c.amount for c in everything] == [90_500, 95_000, 100_000, 100_000]
    ids = [c.id for c in everything]
    assert ids == sorted(ids, reverse=True)
    pages, before = [], None
    while page := service.credits(me, limit=1, before=before):
        pages.append(page[0].id)
        before = page[0].id
    assert pages == ids
    with pytest.raises(IllegalAction, match="credits show 1 to 1000"):
        service.credits(me, limit=0)
    with pytest.raises(IllegalAction, match="before is a credit's id"):
        service.credits(me, before=0)
    assert service.audit() == []


def test_a_page_of_credits_is_one_query_whatever_the_history_holds(service: TableService) -> None:
    me = service.local_player()
    drain(service, me, 0)
    service.top_up(me)
    with statements(service.engine) as seen:
        assert len(service.credits(me)) == 2
    assert len([sql for sql in seen if sql.lstrip().upper().startswith("SELECT")]) == 1


def test_the_page_reads_by_the_indexes_on_sqlite(tmp_path: Path) -> None:
    """The player's transactions by kind (not every transaction of theirs), and their
    own entry in each (not every entry of their account)."""
    path = tmp_path / "plan.db"
    service = TableService(f"sqlite:///{path}")
    me = service.local_player()
    drain(service, me, 0)
    service.engine.dispose()
    for statement in (credit_reads._PAGE, credit_reads._OLDER):
        sql = str(statement.compile(service.engine))
        sql = sql.replace("(__[POSTCOMPILE_kind_1])", "('credit', 'top-up')")
        parameters = [f"player:{me}", me] + [5] * (sql.count("?") - 2)
        with sqlite3.connect(path) as database:
            plan = " / ".join(
                row[3] for row in database.execute(f"EXPLAIN QUERY PLAN {sql}", parameters)
            )
        assert "USING INDEX transactions_player_kind" in plan, plan
        assert "USING INDEX ledger_account_transaction (account=? AND transaction_id=?)" in plan, (
            plan
        )
        assert "SCAN" not in plan, plan


def test_the_migration_adds_the_indexes_and_its_downgrade_takes_them_away(
    database_url: str,
) -> None:
    engine = connect(database_url, revision="0009_shared_table_state")
    before = {i["name"] for i in inspect(engine).get_indexes("ledger")}
    assert "ledger_account" in before
    migrate(engine)
    assert "transactions_player_kind" in {
        i["name"] for i in inspect(engine).get_indexes("transactions")
    }
    ledger = {i["name"]: i["column_names"] for i in inspect(engine).get_indexes("ledger")}
    assert ledger == {"ledger_account_transaction": ["account", "transaction_id"]}
    engine.dispose()
    service = TableService(database_url)
    me = service.local_player()
    assert [c.kind for c in service.credits(me)] == ["start"]
    assert service.audit() == []
    service.engine.dispose()


def post(client: TestClient, path: str) -> object:
    return client.post(path, json={}, headers={"X-CSRF-Token": client.cookies["riverboat_csrf"]})


def test_a_refill_is_listed_by_the_api_and_only_for_its_player(tmp_path: Path) -> None:
    app = create_app(
        amended(
            database_url=f"sqlite:///{tmp_path / 'web.db'}",
            local_player=False,
            rate_limit=1000,
            house_edges=False,
        )
    )
    service: TableService = app.state.service
    ann, bob = (
        service.register("ann", "a long password"),
        service.register("bob", "a long password"),
    )
    drain(service, ann, 3000)
    with TestClient(app) as client:
        client.get("/")
        assert client.get("/api/credits").status_code == 401
        headers = {"X-CSRF-Token": client.cookies["riverboat_csrf"]}
        body = {"name": "ann", "password": "a long password"}
        client.post("/api/login", json=body, headers=headers).raise_for_status()
        assert post(client, "/api/top-up").json() == {"balance": STARTING_CREDIT}  # type: ignore[attr-defined]
        listed = client.get("/api/credits").json()
        assert [(c["kind"], c["amount"], c["balance_after"]) for c in listed] == [
            ("top_up", 97_000, STARTING_CREDIT),
            ("start", STARTING_CREDIT, STARTING_CREDIT),
        ]
        assert datetime.fromisoformat(listed[0]["at"]).utcoffset() == timedelta(0)
        older = client.get(f"/api/credits?limit=1&before={listed[0]['id']}").json()
        assert older == listed[1:]
        assert client.get("/api/credits?limit=0").status_code == 422
        assert client.get("/api/credits?before=0").status_code == 422
        # an id beyond the database's integers is refused, not overflowed there (500)
        for path in ("/api/credits", "/api/history"):
            for before in (2**31, 36960524017139859456):
                answer = client.get(f"{path}?before={before}")
                assert answer.status_code == 422, (path, before, answer.text)
                assert "before" in answer.text
        bob_ids = {c.id for c in service.credits(bob)}
        assert not bob_ids & {c["id"] for c in listed}
        schema = client.get("/openapi.json").json()
        credit = schema["components"]["schemas"]["CreditView"]
        assert credit["properties"]["kind"]["enum"] == [
            "start", "top_up", "adjustment", "locked", "unlocked", "sessions_ended"
        ]  # the house's kinds too (riverboat.table.office)
        assert set(credit["required"]) == {"id", "kind", "amount", "balance_after", "at"}
        answer = schema["paths"]["/api/credits"]["get"]["responses"]
        assert "CreditView" in str(answer["200"]["content"]["application/json"]["schema"])
        assert "429" in answer


def test_credits_pages_are_limited_per_player(tmp_path: Path) -> None:
    app = create_app(
        amended(database_url=f"sqlite:///{tmp_path / 'web.db'}", rate_limit=1000, house_edges=False)
    )
    with TestClient(app) as client:
        client.get("/")
        assert client.get("/api/credits?limit=1000").status_code == 200  # a full bucket
        refused = client.get("/api/credits?limit=1000")
        assert refused.status_code == 429
        assert int(refused.headers["retry-after"]) >= 1
        assert client.get("/api/history?limit=20").status_code == 200  # the rounds' own bucket
