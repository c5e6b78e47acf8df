"""A shared Crazy 4 showdown that cannot reach its database: it is tried again, then
every seat's round is void and refunded (G7: none of its decisions was carried out) and
betting reopens; if the void cannot be written either, the table stays closed to bets
until it can. A round is never both settled and void, never neither, and no money
stays held. The retries run beside the table: meanwhile seats sit, are answered and
bet for the next deal.

The database is held by another connection, as another program would hold it: on
SQLite a ``BEGIN EXCLUSIVE`` (in WAL mode readers still read, writers wait), on
PostgreSQL ``LOCK TABLE rounds IN EXCLUSIVE MODE`` (plain reads pass, ``SELECT ... FOR
UPDATE`` and writes wait) with a short ``lock_timeout`` on the service's side, as
SQLite's short busy timeout.
"""

import asyncio
import logging
import sqlite3
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, Protocol

import psycopg
import pytest
from pydantic import TypeAdapter
from sqlalchemy import Engine, event, select
from sqlalchemy.orm import Session
from starlette.websockets import WebSocketDisconnect

from riverboat.games.rules import IllegalAction
from riverboat.store.models import RoundRow, Transaction
from riverboat.table.live import seats
from riverboat.table.live.table import SharedTable
from riverboat.table.live.views import TableMessage
from riverboat.table.service import TableService

Messages = list[dict[str, Any]]
Sent: TypeAdapter[TableMessage] = TypeAdapter(TableMessage)
ANTE = {"ante": 1000, "super_bonus": 1000}  # $20 a seat
VOID = "the table could not reach its database: your round is void and your $20 is back"
WAIT_MS = 200  # how long the service waits for a held database before it gives up


class Holder(Protocol):
    def hold(self) -> None: ...
    def release(self) -> None: ...
    def status(self, round_id: int) -> str: ...


class SqliteHolder:
    """Another connection holding the SQLite file's write lock."""

    def __init__(self, path: str) -> None:
        self.connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)

    def hold(self) -> None:
        self.connection.execute("BEGIN EXCLUSIVE")

    def release(self) -> None:
        if self.connection.in_transaction:
            self.connection.execute("COMMIT")

    def status(self, round_id: int) -> str:
        """A round's status, read while holding the lock."""
        found = self.connection.execute("SELECT status FROM rounds WHERE id = ?", (round_id,))
        return str(found.fetchone()[0])


class PostgresHolder:
    """Another connection holding the rounds table against writers and row locks."""

    def __init__(self, url: str) -> None:
        self.connection = psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://"))

    def hold(self) -> None:
        self.connection.execute("LOCK TABLE rounds IN EXCLUSIVE MODE")

    def release(self) -> None:
        self.connection.commit()

    def status(self, round_id: int) -> str:
        found = self.connection.execute("SELECT status FROM rounds WHERE id = %s", (round_id,))
        row = found.fetchone()
        assert row is not None
        return str(row[0])


def _short_waits(engine: Engine) -> None:
    """The service gives up on a held database after ``WAIT_MS``."""
    sqlite = engine.dialect.name == "sqlite"

    @event.listens_for(engine, "checkout")
    def _wait(connection, _record, _proxy):  # type: ignore[no-untyped-def]
        cursor = connection.cursor()
        cursor.execute(
            f"PRAGMA busy_timeout = {WAIT_MS}" if sqlite else f"SET lock_timeout = {WAIT_MS}"
        )
        cursor.close()


@pytest.fixture
def setup(database_url: str) -> Iterator[tuple[TableService, Holder]]:
    service = TableService(database_url)
    service.engine.dispose()  # every connection from here on waits briefly
    _short_waits(service.engine)
    holder: Holder
    if database_url.startswith("sqlite"):
        holder = SqliteHolder(database_url.removeprefix("sqlite:///"))
    else:
        holder = PostgresHolder(database_url)
    yield service, holder
    holder.release()
    holder.connection.close()
    service.engine.dispose()


def listener() -> tuple[Messages, Callable[[TableMessage], Awaitable[None]]]:
    inbox: Messages = []

    async def send(message: TableMessage) -> None:
        inbox.append(Sent.dump_python(message, mode="json"))

    return inbox, send


def of_type(inbox: Messages, kind: str) -> Messages:
    return [m for m in inbox if m["type"] == kind]


def notes(inbox: Messages) -> list[str]:
    return [m["message"] for m in of_type(inbox, "error")]


def held_showdown(
    service: TableService, holder: Holder, attempts: int, then: Callable[[], None]
) -> list[bool]:
    """The database held just as the showdown begins; its attempts counted (True for
    one that was written); after the ``attempts``-th, ``then``."""
    real, tried = service.showdown, []

    def counted(decisions: Any, fence: Any = None, game: Any = None) -> dict[int, str]:
        if not tried:
            holder.hold()
        try:
            written = real(decisions, fence, game)
        except Exception:
            tried.append(False)
            raise
        else:
            tried.append(True)
            return written
        finally:
            if len(tried) == attempts:
                then()

    service.showdown = counted  # type: ignore[method-assign]
    return tried


def transactions(service: TableService, round_id: int) -> list[str]:
    with Session(service.engine) as session:
        return list(
            session.scalars(
                select(Transaction.kind)
                .where(Transaction.round_id == round_id, Transaction.kind != "wager")
                .order_by(Transaction.id)
            )
        )


def status(service: TableService, round_id: int) -> str:
    with Session(service.engine) as session:
        row = session.get(RoundRow, round_id)
        assert row is not None
        return row.status


async def deal_two(
    service: TableService, table: SharedTable
) -> tuple[list[int], list[Messages], list[int]]:
    """Ann and Bob seated, both bet and dealt; ann has decided. Their balances before."""
    ann, bob = (
        service.register("ann", "a long password"),
        service.register("bob", "a long password"),
    )
    before = [service.balance(ann), service.balance(bob)]
    (a, send_a), (b, send_b) = listener(), listener()
    await table.sit(ann, send_a)
    await table.sit(bob, send_b)
    await table.bet(ann, ANTE)
    await table.bet(bob, ANTE)
    assert table.phase == "deciding"
    await table.decide(ann, "play", 1000)
    return [ann, bob], [a, b], before


async def full_round(
    service: TableService, table: SharedTable, seats: list[int]
) -> list[dict[str, Any]]:
    """Both bet again and play a round to its end; their settled rounds."""
    inboxes = []
    for player in seats:
        inbox, send = listener()
        await table.sit(player, send)
        inboxes.append(inbox)
    for player in seats:
        await table.bet(player, ANTE)
    assert table.phase == "deciding"
    for player in seats:
        await table.decide(player, "play", 1000)
    return [of_type(inbox, "result")[-1]["round"] for inbox in inboxes]


def table_for(service: TableService) -> SharedTable:
    table = SharedTable(service, "crazy4", betting_seconds=60, decision_seconds=60)
    table.retry_pauses, table.reopen_seconds = (0.05, 0.1, 0.2), 0.1
    return table


def check_void(
    service: TableService, inboxes: list[Messages], before: list[int], seats: list[int]
) -> None:
    for inbox, player, balance in zip(inboxes, seats, before, strict=True):
        assert VOID in notes(inbox)
        result = of_type(inbox, "result")[-1]["round"]
        assert result["status"] == "void"
        assert status(service, result["id"]) == "void"
        assert transactions(service, result["id"]) == ["void"]  # never settled as well
        assert service.balance(player) == balance  # the $20 is back, nothing held
    assert service.audit() == []


def test_a_showdown_that_cannot_reach_the_database_is_void_and_refunded_g7(
    setup: tuple[TableService, Holder],
) -> None:
    service, holder = setup
    table = table_for(service)

    async def play() -> None:
        seats, inboxes, before = await deal_two(service, table)
        tried = held_showdown(service, holder, 4, holder.release)  # the first try and 3 more
        await table.decide(seats[1], "fold")  # the last decision: the showdown
        await table.settled()
        assert tried == [False] * 4
        assert table.phase == "betting"
        check_void(service, inboxes, before, seats)
        results = await full_round(service, table, seats)
        assert [r["status"] for r in results] == ["settled", "settled"]
        for player, balance, result in zip(seats, before, results, strict=True):
            assert service.balance(player) == balance + result["net"]
        assert service.audit() == []

    asyncio.run(play())


def test_while_the_void_cannot_be_written_the_table_stays_closed_then_reopens_g7(
    setup: tuple[TableService, Holder],
) -> None:
    service, holder = setup
    table = table_for(service)

    async def play() -> None:
        seats, inboxes, before = await deal_two(service, table)
        cy, (_, send_c) = service.register("cy", "a long password"), listener()
        await table.sit(cy, send_c)  # looking on, not in the round
        held_showdown(service, holder, 0, lambda: None)
        await table.decide(seats[1], "play", 1000)
        assert table.phase == "settling"  # tried again beside the table, then closed
        for _ in range(600):  # closed, and the seats told (the telling follows the phase)
            if table.phase == "closed" and all(of_type(i, "table") and notes(i) for i in inboxes):
                break
            await asyncio.sleep(0.05)
        assert table.phase == "closed"
        for inbox in inboxes:
            assert notes(inbox)[-1].startswith("the table could not reach its database: your")
            assert of_type(inbox, "table")[-1]["phase"] == "closed"
        with pytest.raises(IllegalAction, match="could not reach its database"):
            await table.bet(seats[0], ANTE)
        await table.leave(cy, send_c)  # a seat without a round goes: the retries go on
        await asyncio.sleep(0.5)  # it keeps trying meanwhile
        assert table.phase == "closed"
        held = [holder.status(of_type(i, "dealt")[0]["round"]["id"]) for i in inboxes]
        assert held == ["open", "open"]  # nothing settled, nothing void yet
        holder.release()
        for _ in range(400):  # the next try at the void (every 2 s), on a busy machine
            if table.phase == "betting" and all(VOID in notes(inbox) for inbox in inboxes):
                break
            await asyncio.sleep(0.05)
        assert table.phase == "betting"
        check_void(service, inboxes, before, seats)
        results = await full_round(service, table, seats)
        assert [r["status"] for r in results] == ["settled", "settled"]
        assert service.audit() == []

    asyncio.run(play())


def test_a_database_back_during_the_retries_settles_the_showdown_once(
    setup: tuple[TableService, Holder],
) -> None:
    service, holder = setup
    table = table_for(service)

    async def play() -> None:
        seats, inboxes, before = await deal_two(service, table)
        tried = held_showdown(service, holder, 2, holder.release)
        await table.decide(seats[1], "play", 1000)
        await table.settled()
        assert tried == [False, False, True]
        assert table.phase == "betting"
        for inbox, player, balance in zip(inboxes, seats, before, strict=True):
            assert not any("database" in note for note in notes(inbox))
            results = of_type(inbox, "result")
            assert len(results) == 1
            result = results[0]["round"]
            assert result["status"] == "settled"
            assert transactions(service, result["id"]) == ["decision", "settle"]
            assert service.balance(player) == balance + result["net"]
        assert service.audit() == []

    asyncio.run(play())


def test_the_retries_leave_the_table_free_for_seats_messages_and_next_bets(
    setup: tuple[TableService, Holder],
) -> None:
    """While the showdown is tried again (the database held until the test lets it go),
    a new seat sits, a decision and bets are refused at once (a bet's client seed must
    follow the next deal's commitment, not made yet); once the showdown is written, its
    rounds are settled (never void), the next commitment shows and the three seats'
    bets deal the next hand."""
    service, holder = setup
    table = table_for(service)
    table.retry_pauses = (0.05,) * 400  # tries on until the test lets the database go

    async def play() -> None:
        seats, inboxes, before = await deal_two(service, table)
        cy, (c, send_c) = service.register("cy", "a long password"), listener()
        tried = held_showdown(service, holder, 0, lambda: None)
        await table.decide(seats[1], "play", 1000)  # the showdown: it fails, tries again
        assert table.phase == "settling"
        await table.sit(cy, send_c)  # all of this while the showdown is not written
        with pytest.raises(IllegalAction, match="no hand of yours to decide"):
            await table.decide(seats[0], "fold")
        for player in [*seats, cy]:
            with pytest.raises(IllegalAction, match="commitment shows"):
                await table.bet(player, ANTE)
        assert table.phase == "settling"
        assert not any(tried)  # nothing written yet: every try so far failed
        assert [of_type(inbox, "result") for inbox in inboxes] == [[], []]
        held = [holder.status(of_type(i, "dealt")[0]["round"]["id"]) for i in inboxes]
        assert held == ["open", "open"]
        holder.release()
        await table.settled()
        assert table.phase == "betting"
        for player in [*seats, cy]:  # against the commitment shown now
            await table.bet(player, ANTE)
        assert tried[-1] is True
        assert tried.count(True) == 1  # written once
        for inbox, player, balance in zip(inboxes, seats, before, strict=True):
            assert not any("void" in note for note in notes(inbox))
            first = of_type(inbox, "result")[0]["round"]
            assert first["status"] == "settled"
            assert transactions(service, first["id"]) == ["decision", "settle"]
            dealt = of_type(inbox, "dealt")
            assert len(dealt) == 2  # the next deal, from the bets made once it reopened
            assert service.balance(player) == balance + first["net"] - 2000
        assert len(of_type(c, "dealt")) == 1
        assert table.phase == "deciding"
        assert service.audit() == []

    asyncio.run(play())


def test_a_connection_that_hangs_or_has_gone_delays_no_other_seat(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(seats, "SEND_SECONDS", 1.0)
    service = TableService(f"sqlite:///{tmp_path / 'slow.db'}")
    ann, bob = (
        service.register("ann", "a long password"),
        service.register("bob", "a long password"),
    )

    async def hangs(message: TableMessage) -> None:
        await asyncio.Event().wait()  # a client that stopped reading

    async def gone(message: TableMessage) -> None:
        raise WebSocketDisconnect(1006)

    async def play() -> tuple[float, float, float]:
        table = SharedTable(service, "crazy4", betting_seconds=60, decision_seconds=60)
        (_, send_a), (_, send_b) = listener(), listener()
        await table.sit(ann, send_a)
        await table.sit(bob, send_b)
        await table.sit(ann, gone)
        arrived: list[float] = []

        async def timed(message: TableMessage) -> None:
            arrived.append(time.monotonic())

        await table.sit(bob, timed)
        began = time.monotonic()
        await table.sit(ann, hangs)  # the table's broadcast goes to every connection
        took = time.monotonic() - began
        seat = next(s for s in table.seats if s.player == ann)
        assert seat.listeners == [send_a]  # the hung and the gone connection dropped
        began_again = time.monotonic()
        await table.bet(ann, ANTE)
        return arrived[-2] - began, took, time.monotonic() - began_again

    bob_waited, took, next_broadcast = asyncio.run(play())
    assert took >= 1.0  # the hung connection was given its time, once
    assert bob_waited < 0.5  # while bob had the table at once
    assert next_broadcast < 0.5  # and nobody waits on it again
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    service.engine.dispose()
