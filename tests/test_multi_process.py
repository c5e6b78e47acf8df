"""Shared tables served by two ``riverboat serve`` processes over one PostgreSQL
database and Redis (docs/deploy.md): players on different processes sit at one table,
see the same coups and only their own cards (C8); the process running a table is
killed (SIGKILL) mid-hand and the other takes it over, finishes the hand, and every
balance and the audit agree, with no seed shown before its hand is over.

These tests need PostgreSQL at 127.0.0.1:5432 and Redis at 127.0.0.1:6379 (CI checks
both answer first). One that does not answer FAILS here, saying which: nothing is
skipped. Each run has a database of its own (dropped after) and a Redis key prefix
of its own (its keys deleted after).
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session
from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as ws_connect
from websockets.typing import Origin

from riverboat.store.models import Deal, LedgerEntry, RoundRow
from riverboat.table.accounts.ledger import STARTING_CREDIT
from riverboat.table.live.across.live_state import LeaseLostError, claim
from riverboat.table.live.core import HANDLED_KEPT
from riverboat.table.live.table import SharedTable
from riverboat.table.live.views import TableMessage
from riverboat.table.service import SharedCards, TableService
from riverboat.web.errors import CLOSE_NO_TABLE

POSTGRES = os.environ.get("RIVERBOAT_TEST_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432")
REDIS = os.environ.get("RIVERBOAT_TEST_REDIS", "redis://127.0.0.1:6379/0")
SRC = str(Path(__file__).resolve().parents[1] / "src")
PASSWORD = "a long password"
#: the longest a killed or frozen holder's table may take to run again: its lease
#: (2 s) and room for a loaded machine (measured: about 2 s; docs/deploy.md)
TAKEOVER_LIMIT = 8.0


@dataclass
class Deployment:
    """A fresh database, a Redis key prefix, and the servers started on them."""

    database: str
    prefix: str
    servers: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)  # base: process
    redis: Any = None

    def holder(self, key: str) -> str:
        """The base address of the server holding the table's lease, or ''."""
        held = self.redis.get(f"{self.prefix}table:{key}:lease")
        if held is None:
            return ""
        pid = int(held.decode().split("-")[0])
        return next((base for base, p in self.servers.items() if p.pid == pid), "")


def _answers(what: str, check: Callable[[], object]) -> None:
    try:
        check()
    except Exception as error:
        pytest.fail(f"{what} does not answer, and the multi-process tests need it: {error}")


def _start(deployment: Deployment, port: int, log: Path) -> str:
    env = {
        **os.environ,
        "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", ""),
        "RIVERBOAT_REDIS_PREFIX": deployment.prefix,
    }
    command = [sys.executable, "-m", "riverboat", "serve", "--port", str(port)]
    command += ["--database", deployment.database, "--redis", REDIS]
    with log.open("ab") as output:
        server = subprocess.Popen(command, env=env, stdout=output, stderr=output)
    base = f"http://127.0.0.1:{port}"
    deployment.servers[base] = server
    deadline = time.monotonic() + 120  # a loaded machine imports slowly
    while time.monotonic() < deadline:
        assert server.poll() is None, f"the server stopped while starting: {log.read_text()}"
        try:
            # plain HTTP: no CA certificates loaded (docs/development.md: 33 ms of CPU)
            if httpx.get(base + "/api/me", timeout=2, verify=False).status_code == 200:
                return base
        except httpx.TransportError:
            pass
        time.sleep(0.05)
    raise AssertionError("the server did not start in 120 s")


@pytest.fixture(scope="module")
def deployment(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    """Two servers on two loopback ports; the first runs every table's clock."""
    import psycopg
    import redis

    admin = POSTGRES.replace("postgresql+psycopg://", "postgresql://") + "/postgres"
    _answers(f"PostgreSQL at {admin}", lambda: psycopg.connect(admin, connect_timeout=3).close())
    client = redis.Redis.from_url(REDIS, socket_connect_timeout=3)
    _answers(f"Redis at {REDIS}", client.ping)
    name = f"riverboat_multi_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    found = Deployment(f"{POSTGRES}/{name}", f"riverboat-test-{uuid.uuid4().hex[:12]}:")
    found.redis = client
    log = tmp_path_factory.mktemp("servers")
    try:
        service = TableService(found.database)  # migrated once, before the servers
        for player in ("ann", "bob", "cat", "dan"):
            service.register(player, PASSWORD)
        service.engine.dispose()
        first = _start(found, _free_port(), log / "first.log")
        # the first runs every table before the second starts
        _until(lambda: all(found.holder(k) == first for k in ("crazy4-1", "baccarat-1")))
        _start(found, _free_port(), log / "second.log")
        yield found
    finally:
        for server in found.servers.values():
            server.send_signal(signal.SIGKILL)
            server.wait()
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        for key in client.scan_iter(match=f"{found.prefix}*"):
            client.delete(key)
        client.close()


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _until(condition: Callable[[], bool], seconds: float = 30.0) -> float:
    """Wait until ``condition`` holds; the seconds it took."""
    start = time.monotonic()
    while not condition():
        assert time.monotonic() - start < seconds, "waited in vain"
        time.sleep(0.02)
    return time.monotonic() - start


class Player:
    """A named player logged in on one server, at one shared table over a WebSocket;
    what the table sent them, in order."""

    def __init__(self, base: str, name: str, game: str) -> None:
        self.base, self.name = base, name
        with httpx.Client(base_url=base, timeout=10, verify=False) as http:
            http.get("/")
            headers = {"X-CSRF-Token": http.cookies["riverboat_csrf"]}
            http.post("/api/login", json={"name": name, "password": PASSWORD}, headers=headers)
            self.id = int(http.get("/api/me").json()["player"])
            self.cookie = cookie = f"riverboat_session={http.cookies['riverboat_session']}"
        address = base.replace("http://", "ws://") + f"/ws/tables/{game}"
        self._connection = ws_connect(
            address,
            origin=Origin(base),
            additional_headers={"Cookie": cookie},
            open_timeout=10,
        )
        self.socket: ClientConnection = self._connection.__enter__()
        self.messages: list[dict[str, Any]] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        try:
            for text in self.socket:
                self.messages.append(json.loads(text))
        except Exception:
            return  # the server went

    def send(self, body: dict[str, Any]) -> None:
        self.socket.send(json.dumps(body))

    def next(self, kind: str, after: int = 0, seconds: float = 30.0) -> dict[str, Any]:
        """The first message of ``kind`` from the ``after``-th on."""

        def found() -> bool:
            return any(m.get("type") == kind for m in self.messages[after:])

        try:
            _until(found, seconds)
        except AssertionError:
            raise AssertionError(f"{self.name} got no {kind}: {self.messages[after:]}") from None
        return next(m for m in self.messages[after:] if m.get("type") == kind)

    def seated(self, seats: int) -> None:
        """Wait until the table shows ``seats`` seats to this player."""

        def shown() -> bool:
            tables = [m for m in self.messages if m.get("type") == "table"]
            return bool(tables) and len(tables[-1]["seats"]) == seats

        _until(shown)

    def close(self) -> None:
        self._connection.__exit__(None, None, None)


def _rounds_of(database: str) -> dict[int, RoundRow]:
    service = TableService(database)
    try:
        with Session(service.engine) as session:
            return {row.id: row for row in session.scalars(select(RoundRow))}
    finally:
        service.engine.dispose()


def _own_cards_only(players: list[Player], rows: dict[int, RoundRow]) -> None:
    """Every round a player was shown is their own (C8): no other player's cards."""
    for player in players:
        shown = [m["round"]["id"] for m in player.messages if m.get("type") in ("dealt", "result")]
        assert shown, f"{player.name} was shown no round"
        assert {rows[r].player_id for r in shown} == {player.id}


def test_players_on_two_processes_share_one_table_and_see_only_their_cards_c8(
    deployment: Deployment,
) -> None:
    first, second = list(deployment.servers)
    ann, bob = Player(first, "ann", "baccarat"), Player(second, "bob", "baccarat")
    try:
        ann.seated(2)  # each sees the other, across the processes
        bob.seated(2)
        # the lobby shows the table's true seats and phase on either process, the one
        # that runs it (from memory) and the other (from the state written)
        holder = deployment.holder("baccarat-1")
        for base in (holder, next(b for b in deployment.servers if b != holder)):
            tables = httpx.get(base + "/api/lobby", timeout=10, verify=False).json()["tables"]
            shown = next(t for t in tables if t["id"] == "baccarat-1")
            assert (shown["seats_taken"], shown["phase"]) == (2, "betting"), base
            assert sorted(shown["players"]) == ["ann", "bob"]
            assert [s["name"] for s in shown["seated"]] == shown["players"]
        for coup in range(2):
            marks = len(ann.messages), len(bob.messages)
            ann.send({"type": "bet", "wagers": {"banker": 500}, "client_seed": f"ann{coup}"})
            bob.send({"type": "bet", "wagers": {"player": 1000}, "client_seed": f"bob{coup}"})
            seen = ann.next("coup", marks[0]), bob.next("coup", marks[1])
            assert seen[0] == seen[1]  # one coup, the same cards, on both processes (B1)
            ann.next("result", marks[0])
            bob.next("result", marks[1])
        rows = _rounds_of(deployment.database)
        _own_cards_only([ann, bob], rows)
        shoes = {rows[m["round"]["id"]].deal_id for m in ann.messages if m.get("type") == "result"}
        assert len(shoes) == 1  # one shoe, coup after coup (B1)
        assert not _revealed(deployment.database, shoes.pop())  # its seed shows after the shoe
    finally:
        ann.close()
        bob.close()


def test_redis_emptied_logs_no_one_out_and_the_tables_deal_again(
    deployment: Deployment,
) -> None:
    """Every key of the deployment's gone from Redis, as when it restarts empty: the
    leases, the inboxes, the rate-limit counts. A player stays logged in (sessions are
    in the database), the tables are held again within seconds, and a coup is dealt."""
    second = list(deployment.servers)[1]
    ann = Player(second, "ann", "baccarat")
    try:
        ann.seated(1)
        start = time.monotonic()
        for key in deployment.redis.scan_iter(match=f"{deployment.prefix}*"):
            deployment.redis.delete(key)
        me = httpx.get(second + "/api/me", headers={"Cookie": ann.cookie}, timeout=10, verify=False)
        assert me.json()["player"] == ann.id  # still her session, not the local player's
        held = _until(lambda: deployment.holder("baccarat-1") != "", 10.0)
        mark = len(ann.messages)
        ann.send({"type": "bet", "wagers": {"banker": 500}, "client_seed": "after"})
        ann.next("result", mark, TAKEOVER_LIMIT)
        dealt = time.monotonic() - start
        print(f"\nRedis emptied: the table held again in {held:.2f} s, dealt in {dealt:.2f} s")
    finally:
        ann.close()
    _books_agree(deployment.database)


def test_a_refused_handshake_reaches_the_page_with_its_code_and_reason(
    deployment: Deployment,
) -> None:
    """Through a real server, a refused handshake is accepted, then closed with the
    app's code and a reason the page reads (a close before the accept reaches a
    browser as a bare HTTP 403): here an unknown table, naming the tables. (Refused
    for want of a session, CLOSE_LOG_IN, takes the same path: tests/test_web_tables.py;
    a loopback server lets its local player in.)"""
    from websockets.exceptions import ConnectionClosed

    base = next(iter(deployment.servers))
    address = base.replace("http://", "ws://") + "/ws/tables/nowhere"
    with (
        ws_connect(address, origin=Origin(base), open_timeout=10) as socket,
        pytest.raises(ConnectionClosed) as closed,
    ):
        socket.recv(timeout=10)
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == CLOSE_NO_TABLE
    assert "no table 'nowhere'; the tables are" in closed.value.rcvd.reason


def _holder_and_other(deployment: Deployment) -> tuple[str, str]:
    """The server running the crazy4 table, and the other one."""
    holder = deployment.holder("crazy4-1")
    assert holder, "no process holds the crazy4 table"
    return holder, next(base for base in deployment.servers if base != holder)


def _dealt_and_cat_played(cat: Player, dan: Player) -> int:
    """Both seated and dealt at the crazy4 table, and cat has played: cat's round."""
    cat.seated(2)
    dan.seated(2)
    wagers = {"ante": 500, "super_bonus": 500}
    cat.send({"type": "bet", "wagers": wagers, "client_seed": "cat"})
    dan.send({"type": "bet", "wagers": wagers, "client_seed": "dan"})
    cat_round = int(cat.next("dealt")["round"]["id"])
    dan.next("dealt")
    cat.send({"type": "decide", "action": "play", "amount": 500})
    cat.next("decided")
    return cat_round


def test_a_decision_read_by_a_frozen_holder_is_carried_out_by_its_successor(
    deployment: Deployment,
) -> None:
    """The holder is frozen (SIGSTOP) while it waits on the table's inbox; a decision
    sent then is taken off the inbox by the frozen process (Redis hands it over all the
    same) and stays pending there, unacknowledged. The other process takes the lease
    over when it runs out, reads that decision again and carries it out: the hand is
    played as decided, not folded by the clock. Woken, the old holder acts on nothing."""
    holder, other = _holder_and_other(deployment)
    cat, dan = Player(holder, "cat", "crazy4"), Player(other, "dan", "crazy4")
    frozen = deployment.servers[holder]
    try:
        _dealt_and_cat_played(cat, dan)
        inbox, lease = (f"{deployment.prefix}table:crazy4-1:{what}" for what in ("inbox", "lease"))
        frozen_name = deployment.redis.get(lease).decode()
        time.sleep(0.3)  # cat's decision carried out, the holder reads the inbox again
        frozen.send_signal(signal.SIGSTOP)  # mid-read of the inbox, blocked for up to 1 s
        mark, start = len(dan.messages), time.monotonic()
        dan.send({"type": "decide", "action": "play", "amount": 500})

        def taken_by_the_frozen() -> bool:
            pending = deployment.redis.xpending(inbox, "holders")
            by = {c["name"].decode(): c["pending"] for c in pending["consumers"]}
            return by.get(frozen_name, 0) >= 1

        _until(taken_by_the_frozen, 2.0)  # it did take dan's decision, and froze with it
        result = dan.next("result", mark, TAKEOVER_LIMIT)["round"]
        finished = time.monotonic() - start
        print(f"\nfrozen holder: the decision carried out by its successor in {finished:.2f} s")
        assert deployment.holder("crazy4-1") == other

        def consumers() -> set[str]:
            return {c["name"].decode() for c in deployment.redis.xinfo_consumers(inbox, "holders")}

        _until(lambda: frozen_name not in consumers(), 5.0)  # its claimed reads: dropped
        assert result["status"] == "settled"
        assert result["stakes"]["play"] == 500  # as dan decided: not folded by the clock
    finally:
        frozen.send_signal(signal.SIGCONT)
        cat.close()
        dan.close()
    time.sleep(1.0)  # awake: its renewal fails and it steps down, writing nothing
    assert deployment.holder("crazy4-1") == other
    _books_agree(deployment.database)


def test_a_killed_holder_s_table_is_taken_over_and_its_hand_finished_g7(
    deployment: Deployment,
) -> None:
    holder, other = _holder_and_other(deployment)
    cat, dan = Player(holder, "cat", "crazy4"), Player(other, "dan", "crazy4")
    try:
        dan_mark = len(dan.messages)
        cat_round = _dealt_and_cat_played(cat, dan)
        rows = _rounds_of(deployment.database)
        deal_id = rows[cat_round].deal_id
        assert not _revealed(deployment.database, deal_id)  # the hand is in play

        killed = deployment.servers.pop(holder)
        killed.send_signal(signal.SIGKILL)
        killed.wait()
        start = time.monotonic()
        _until(lambda: deployment.holder("crazy4-1") == other, TAKEOVER_LIMIT)
        taken = time.monotonic() - start
        assert not _revealed(deployment.database, deal_id)  # taken over, not yet over
        mark = len(dan.messages)
        dan.send({"type": "decide", "action": "fold"})
        result = dan.next("result", mark)
        finished = time.monotonic() - start
        print(f"\ntakeover: the lease in {taken:.2f} s, the hand over in {finished:.2f} s")
        assert finished < TAKEOVER_LIMIT

        rows = _rounds_of(deployment.database)
        assert {rows[cat_round].status, rows[result["round"]["id"]].status} == {"settled"}
        assert _revealed(deployment.database, deal_id)  # shown once its hand was over
        _own_cards_only([dan], rows)
        assert all(
            rows[m["round"]["id"]].player_id == dan.id
            for m in dan.messages[dan_mark:]
            if "round" in m
        )
        _books_agree(deployment.database)
    finally:
        cat.close()
        dan.close()


def _revealed(where: str | TableService, deal_id: int | None) -> bool:
    """Whether the deal's seed is shown, read from a database URL or a service's."""
    service = TableService(where) if isinstance(where, str) else where
    try:
        with Session(service.engine) as session:
            return bool(session.scalar(select(Deal.revealed).where(Deal.id == deal_id)))
    finally:
        if isinstance(where, str):
            service.engine.dispose()


def _books_agree(database: str) -> None:
    """The audit is clean, the ledger sums to zero, and each player's balance is the
    starting credit plus the nets of their settled rounds, less what open ones hold."""
    service = TableService(database)
    try:
        assert service.audit() == []
        with Session(service.engine) as session:
            assert session.scalar(select(func.sum(LedgerEntry.amount))) in (0, None)
            rows = list(session.scalars(select(RoundRow)))
        for player in {row.player_id for row in rows}:
            mine = [r for r in rows if r.player_id == player]
            assert all(r.status in ("settled", "void") for r in mine)
            nets = sum(service.round(player, r.id).net or 0 for r in mine if r.status == "settled")
            assert service.balance(player) == STARTING_CREDIT + nets
    finally:
        service.engine.dispose()


# -- takeover in one process: the state a stopped holder left, taken in -------------


async def _listen(messages: list[TableMessage]) -> Callable[[TableMessage], Any]:
    async def send(message: TableMessage) -> None:
        messages.append(message)

    return send


async def _holding(service: TableService, game: str, decision_seconds: float = 45.0) -> SharedTable:
    """A process's copy of the ``game`` table, run from its claim (the next token)."""
    table = SharedTable(service, game, betting_seconds=60, decision_seconds=decision_seconds)
    await table.take_over(*claim(service.engine, game))
    return table


async def _reaches(table: SharedTable, phase: str) -> None:
    """Wait (up to 2 s) for the table to reach ``phase``."""
    for _ in range(100):
        if table.phase == phase:
            return
        await asyncio.sleep(0.02)


def test_a_deck_dealt_halfway_when_its_holder_stopped_is_void_and_refunded_g7(
    tmp_path: Path,
) -> None:
    """The holder dealt a round, then stopped before it wrote the table's state: the
    next holder voids and refunds that round and deals the next hand from a new deck
    (the voided round's cards were seen); the old holder writes nothing more."""
    service = TableService(f"sqlite:///{tmp_path / 'takeover.db'}")
    ann, bob, cy = (service.register(name, PASSWORD) for name in ("ann", "bob", "cy"))

    async def play() -> None:
        first = await _holding(service, "crazy4")
        heard: list[TableMessage] = []
        await first.sit(ann, await _listen(heard))
        await first.sit(bob, await _listen(heard))
        await first.bet(ann, {"ante": 500, "super_bonus": 500}, client_seed="ann")
        assert first.deal is not None
        deck = first.deal.id
        layout = service.seal_deal(deck, "ann")  # the holder deals, then stops
        service.start_round(
            ann,
            "crazy4",
            first.seats[0].wagers or {},
            shared=SharedCards(deck, range(layout.first, layout.first + 10)),
        )
        assert service.balance(ann) == STARTING_CREDIT - 1000

        second = await _holding(service, "crazy4")
        assert service.balance(ann) == STARTING_CREDIT  # void and refunded
        assert second.deal is not None
        assert second.deal.id != deck
        assert _revealed(service, deck)  # nothing of the old one is in play
        assert [s.wagers for s in second.seats] == [None, None]
        assert second.phase == "betting"
        with pytest.raises(LeaseLostError):  # the old holder is fenced out
            await first.sit(cy, await _listen(heard))
        await first.step_down()
        await second.step_down()

    asyncio.run(play())
    assert service.audit() == []


def test_a_coup_dealt_when_its_holder_stopped_is_taken_in_b1(tmp_path: Path) -> None:
    """At a shoe, the coup dealt after the last state written stands: its bettor is
    done with their bet, the road shows it, and the next coup deals on after it."""
    service = TableService(f"sqlite:///{tmp_path / 'takeover.db'}")
    ann, bob = (service.register(name, PASSWORD) for name in ("ann", "bob"))

    async def play() -> None:
        first = await _holding(service, "baccarat")
        await first.sit(ann, await _listen([]))
        await first.sit(bob, await _listen([]))
        await first.bet(ann, {"banker": 500}, client_seed="ann")
        await first.bet(bob, {"player": 500}, client_seed="bob")  # every seat bet: dealt
        assert first.deal is not None
        assert first.layout is not None
        shoe, after_one = first.deal.id, first.next_place
        await first.bet(ann, {"banker": 500}, client_seed="ann")  # the next coup's bets
        places = range(after_one, after_one + 6)  # the holder deals ann, then stops
        dealt = service.start_round(
            ann, "baccarat", {"banker": 500}, shared=SharedCards(shoe, places)
        )

        second = await _holding(service, "baccarat")
        assert second.deal is not None
        assert second.deal.id == shoe
        assert second.next_place == after_one + len([c for h in dealt.cards.values() for c in h])
        assert second.road == [*first.road, dealt.winner]
        assert [s.wagers for s in second.seats] == [None, None]  # ann's bet was dealt
        assert not _revealed(service, shoe)
        await first.step_down()
        await second.step_down()

    asyncio.run(play())
    assert service.audit() == []


def test_redis_with_sqlite_is_refused_before_serving(tmp_path: Path) -> None:
    """Shared tables across processes need PostgreSQL: `serve --redis` on an SQLite
    file says so and serves nothing; without --redis, SQLite serves as ever."""
    from typer.testing import CliRunner

    from riverboat.cli import app

    database = f"sqlite:///{tmp_path / 'one.db'}"
    answer = CliRunner().invoke(app, ["serve", "--database", database, "--redis", REDIS])
    assert answer.exit_code == 2
    assert "need PostgreSQL" in answer.output
    assert not (tmp_path / "one.db").exists()  # nothing was opened


def test_a_message_carried_out_is_not_carried_out_again_by_the_next_holder(
    tmp_path: Path,
) -> None:
    """A holder that carried out a message and died before acknowledging it leaves it
    to be read again: the ids written with the table's state make the next holder
    pass it by, while a new message is carried out."""
    service = TableService(f"sqlite:///{tmp_path / 'once.db'}")
    ann = service.register("ann", PASSWORD)

    async def play() -> None:
        first = await _holding(service, "crazy4")
        assert first.first_time("message-1")
        assert not first.first_time("message-1")  # once, here
        await first.sit(ann, await _listen([]))  # the state written, with the ids
        second = await _holding(service, "crazy4")
        assert not second.first_time("message-1")  # and once, across the take-over
        assert second.first_time("message-2")
        for number in range(3, 400):  # only the newest are kept
            second.first_time(f"message-{number}")
        assert len(second.stored()["handled"]) == HANDLED_KEPT
        await first.step_down()
        await second.step_down()

    asyncio.run(play())


def test_a_seat_whose_player_does_not_sit_again_after_a_take_over_goes(
    tmp_path: Path,
) -> None:
    """After a take-over the seats come back without connections: ann sits again and
    has bet, bob (his process died with his connection) does not. Once the rejoin
    time is out bob's seat goes, and the deal that waited only for him is dealt."""
    service = TableService(f"sqlite:///{tmp_path / 'ghosts.db'}")
    ann, bob = (service.register(name, PASSWORD) for name in ("ann", "bob"))

    async def play() -> None:
        first = await _holding(service, "crazy4")
        await first.sit(ann, await _listen([]))
        await first.sit(bob, await _listen([]))
        await first.bet(ann, {"ante": 500, "super_bonus": 500}, client_seed="ann")
        second = SharedTable(service, "crazy4", betting_seconds=60)
        second.rejoin_seconds = 0.2
        await second.take_over(*claim(service.engine, "crazy4"))
        assert [s.name for s in second.seats] == ["ann", "bob"]
        await second.sit(ann, await _listen([]))  # ann's page sits again; bob's does not
        await _reaches(second, "deciding")
        assert [s.name for s in second.seats] == ["ann"]
        assert second.phase == "deciding"  # dealt without waiting out the betting clock
        await first.step_down()
        await second.step_down()

    asyncio.run(play())


def test_an_undecided_hand_whose_connection_the_servers_lost_is_void_g7(
    tmp_path: Path,
) -> None:
    """ann and bob are dealt; ann decides; then their holder dies, and with it bob's
    connection. After the take-over ann sits again, bob does not before the decision
    clock runs out: his hand is void and his wagers returned (G7: the servers' fault,
    before his decision), not folded; ann's is settled as she decided."""
    service = TableService(f"sqlite:///{tmp_path / 'cut.db'}")
    ann, bob = (service.register(name, PASSWORD) for name in ("ann", "bob"))
    wagers = {"ante": 500, "super_bonus": 500}

    async def play() -> None:
        first = await _holding(service, "crazy4", decision_seconds=1.0)
        await first.sit(ann, await _listen([]))
        await first.sit(bob, await _listen([]))
        await first.bet(ann, wagers, client_seed="ann")
        await first.bet(bob, wagers, client_seed="bob")
        assert first.phase == "deciding"
        await first.decide(ann, "play", 500)
        rounds = {seat.player: seat.round_id for seat in first.seats}
        await first.step_down()  # the holder dies, with bob's connection
        second = await _holding(service, "crazy4")  # its clock: 1 s's
        await second.sit(ann, await _listen([]))  # ann's page sits again; bob's is gone
        await _reaches(second, "betting")
        assert service.round(bob, rounds[bob]).status == "void"
        assert service.balance(bob) == STARTING_CREDIT  # his wagers returned
        assert service.round(ann, rounds[ann]).status == "settled"
        await second.step_down()

    asyncio.run(play())
    assert service.audit() == []
