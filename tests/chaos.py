"""The chaos suite's harness: players at shared and own tables on two server processes,
while faults are injected, then a checker over every round.

A :class:`Cluster` is a fresh PostgreSQL database, a Redis server of its own (on a
loopback port of its own, so the machine's Redis is never touched) and two
``riverboat serve`` processes (tests/chaos_server.py) on it. Bots play for as long
as asked: at the shared Crazy 4 and Baccarat tables over WebSockets (each bets every
hand and plays each Crazy 4 hand it is dealt; a connection that breaks is made
again, on either process) and at their own Tri-Card tables over HTTP. Meanwhile
:func:`inject` takes its turn at each fault: the holder of a table's lease killed
(SIGKILL) and restarted, the holder frozen (SIGSTOP) past its lease and woken,
Redis killed and started again empty, and every database connection of the servers
terminated (``pg_terminate_backend``), and the network to PostgreSQL and Redis made
slow for a few seconds (the servers reach both through tests/slow_link.py, a relay
that holds every chunk while slow: a CI machine's kernel offers a test no ``tc
netem``).

:func:`check` then proves, over every round: the ledger sums to zero and the audit
is clean; every balance is its start plus its settled nets; no round is both settled
and void, and none is left open; every decision a player sent on a connection that
stayed up until its hand's result was carried out, or answered with a refusal, or
its hand voided and refunded; no player was shown another's cards; no seed was shown
with a hand still in play. ``tests/test_chaos.py`` runs it for about a minute in CI;
``python bench/chaos.py --seconds 600`` runs it longer.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from argon2 import PasswordHasher
from sqlalchemy import func, make_url, select
from sqlalchemy.orm import Session
from websockets.asyncio.client import connect
from websockets.typing import Origin

from riverboat.store.models import LedgerEntry, RoundRow, Transaction
from riverboat.table.accounts.ledger import STARTING_CREDIT
from riverboat.table.service import TableService

POSTGRES = os.environ.get("RIVERBOAT_TEST_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432")
HERE = Path(__file__).resolve().parent
PASSWORD = "a long password"
PREFIX = "chaos:"
#: the shared tables' clocks in the suite: short, so that many hands are played
BETTING_SECONDS, DECISION_SECONDS = 1.5, 6.0
#: the faults, in the order they take turns
FAULTS = ("kill", "freeze", "redis", "database", "slow")
#: a slow network: each chunk held this long each way (a round trip of twice it), for
#: this many seconds
SLOW_DELAY, SLOW_SECONDS = 0.05, 4.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Cluster:
    """A database, a Redis and two servers of the suite's own (``workdir`` holds their
    logs), the servers' network to the first two through links that can be made slow
    (unless not ``slowed``: a load bench's servers reach them directly); :meth:`close`
    stops them and drops the database."""

    def __init__(
        self,
        workdir: Path,
        players: list[str],
        tables: list[dict[str, Any]] | None = None,
        betting_seconds: float = BETTING_SECONDS,
        slowed: bool = True,
    ) -> None:
        import psycopg

        self.workdir, self.tables, self.betting_seconds = workdir, tables, betting_seconds
        self.admin = POSTGRES.replace("postgresql+psycopg://", "postgresql://") + "/postgres"
        self.name = f"riverboat_chaos_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.admin, autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{self.name}"')
        self.database = f"{POSTGRES}/{self.name}"  # the suite's own way in, never slow
        service = TableService(self.database)  # migrated once, before the servers
        hashed = PasswordHasher().hash(PASSWORD)  # one hash for all: a thousand take a second
        self.players = {name: service.players._player(name, hashed) for name in players}
        service.engine.dispose()
        self.redis_port = free_port()
        self.redis_url = f"redis://127.0.0.1:{self.redis_port}/0"
        self.redis: subprocess.Popen[bytes] | None = None
        self.servers: dict[int, subprocess.Popen[bytes]] = {}
        self.links: list[subprocess.Popen[bytes]] = []
        try:
            self.servers_database, self.servers_redis = self.database, self.redis_url
            if slowed:  # the servers reach the database and Redis through slow links
                url = make_url(self.database)
                to_database = self._link(url.port or 5432)
                self.servers_database = url.set(port=to_database).render_as_string(False)
                self.servers_redis = f"redis://127.0.0.1:{self._link(self.redis_port)}/0"
            self.start_redis()
            for port in (free_port(), free_port()):
                self.start_server(port)
        except BaseException:  # nothing left behind: the servers, Redis, the database
            self.close()
            raise

    # ------------------------------------------------------------ the network
    def _link(self, target: int) -> int:
        """A link (tests/slow_link.py) to ``target`` on a port of its own: the port."""
        port = free_port()
        command = [sys.executable, str(HERE / "slow_link.py"), str(port), str(target)]
        link = subprocess.Popen([*command, str(SLOW_DELAY)], stdout=subprocess.PIPE)
        self.links.append(link)
        assert link.stdout is not None
        assert link.stdout.readline().strip() == b"listening", "a slow link did not start"
        return port

    def slow_network(self, slow: bool) -> None:
        """The servers' network to the database and Redis slow, or fast again."""
        for link in self.links:
            link.send_signal(signal.SIGUSR1 if slow else signal.SIGUSR2)

    def round_trip(self) -> float | None:
        """Seconds for a Redis PING as the servers' network carries it (the best of 3),
        or None if Redis does not answer."""
        import redis

        client = redis.Redis.from_url(self.servers_redis, socket_timeout=5)
        try:
            client.ping()  # connected
            trips = []
            for _ in range(3):
                start = time.perf_counter()
                client.ping()
                trips.append(time.perf_counter() - start)
            return min(trips)
        except redis.RedisError:
            return None
        finally:
            client.close()

    # ------------------------------------------------------------ Redis
    def start_redis(self) -> None:
        binary = shutil.which("redis-server")
        assert binary, "the chaos suite starts a Redis of its own: redis-server is needed"
        command = [binary, "--port", str(self.redis_port), "--bind", "127.0.0.1"]
        command += ["--save", "", "--appendonly", "no", "--protected-mode", "no"]
        with (self.workdir / "redis.log").open("ab") as log:
            self.redis = subprocess.Popen(command, stdout=log, stderr=log)
        _until(lambda: self._redis_answers(), 20, "the suite's Redis did not start")

    def _redis_answers(self) -> bool:
        import redis

        try:
            return bool(redis.Redis.from_url(self.redis_url, socket_timeout=1).ping())
        except redis.RedisError:
            return False

    def kill_redis(self) -> None:
        assert self.redis is not None
        self.redis.send_signal(signal.SIGKILL)
        self.redis.wait()

    # ------------------------------------------------------------ the servers
    def start_server(self, port: int) -> None:
        settings = {
            "port": port,
            "database": self.servers_database,
            "redis": self.servers_redis,
            "redis_prefix": PREFIX,
            "local_player": False,
            "allowed_hosts": ["127.0.0.1", "localhost"],
            "betting_seconds": self.betting_seconds,
            "decision_seconds": DECISION_SECONDS,
            "house_edges": False,
            "rate_limit": 10_000,
        }
        if self.tables is not None:
            settings["tables"] = self.tables
        env = {**os.environ, "PYTHONPATH": str(HERE.parent / "src")}
        command = [sys.executable, str(HERE / "chaos_server.py"), json.dumps(settings)]
        with (self.workdir / f"server-{port}.log").open("ab") as log:
            self.servers[port] = subprocess.Popen(command, env=env, stdout=log, stderr=log)

        def answers() -> bool:
            try:
                # plain HTTP: no CA certificates loaded (docs/development.md: 33 ms of CPU)
                lobby = httpx.get(f"http://127.0.0.1:{port}/api/lobby", timeout=2, verify=False)
                return lobby.status_code == 200
            except httpx.TransportError:
                return False

        _until(answers, 120, f"the server on port {port} did not start")

    def holder(self, table: str) -> int | None:
        """The port of the server holding ``table``'s lease, if one does (and Redis
        answers)."""
        import redis

        try:
            held = redis.Redis.from_url(self.redis_url, socket_timeout=1).get(
                f"{PREFIX}table:{table}:lease"
            )
        except redis.RedisError:
            return None
        if held is None:
            return None
        pid = int(held.decode().split("-")[0])
        return next((port for port, p in self.servers.items() if p.pid == pid), None)

    def terminate_connections(self) -> int:
        """Every database connection of the servers, terminated; how many."""
        import psycopg

        with psycopg.connect(self.admin, autocommit=True) as connection:
            rows = connection.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = %s AND pid <> pg_backend_pid()",
                (self.name,),
            ).fetchall()
        return len(rows)

    def close(self, keep_database: bool = False) -> None:
        """Stop everything; drop the database unless it is to be kept."""
        import psycopg

        for server in self.servers.values():
            server.send_signal(signal.SIGCONT)
            server.send_signal(signal.SIGKILL)
            server.wait()
        if self.redis is not None:
            self.redis.send_signal(signal.SIGKILL)
            self.redis.wait()
        for link in self.links:
            link.send_signal(signal.SIGKILL)
            link.wait()
        if keep_database:
            return
        with psycopg.connect(self.admin, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')


def _until(condition: Any, seconds: float, failure: str) -> float:
    start = time.monotonic()
    while not condition():
        if time.monotonic() - start > seconds:
            raise AssertionError(failure)
        time.sleep(0.05)
    return time.monotonic() - start


# ------------------------------------------------------------------ the players
@dataclass
class Sent:
    """A decision a bot sent: on which of its connections, for which round, when."""

    connection: int
    round_id: int
    at: float


@dataclass
class Bot:
    """A player at a shared table: what it heard, on which connection, and what it sent."""

    name: str
    table: str
    heard: list[tuple[int, float, dict[str, Any]]] = field(default_factory=list)
    sent: list[Sent] = field(default_factory=list)
    connections: int = 0
    decided: set[int] = field(default_factory=set)  # the rounds it has decided in
    _thinking: set[asyncio.Task[None]] = field(default_factory=set)

    async def play(self, cluster: Cluster, stop: asyncio.Event) -> None:
        """Sit, bet each hand and play each Crazy 4 hand dealt, until ``stop``; a
        connection that breaks (its server killed, frozen, its Redis gone) is made again
        on either server."""
        while not stop.is_set():
            port = random.choice(list(cluster.servers))
            try:
                await self._sit_and_play(port, stop)
            except Exception:
                await asyncio.sleep(0.3)

    async def _sit_and_play(self, port: int, stop: asyncio.Event) -> None:
        base = f"http://127.0.0.1:{port}"
        async with httpx.AsyncClient(base_url=base, timeout=5, verify=False) as http:
            await http.get("/")
            headers = {"X-CSRF-Token": http.cookies["riverboat_csrf"]}
            answer = await http.post(
                "/api/login", json={"name": self.name, "password": PASSWORD}, headers=headers
            )
            answer.raise_for_status()
            cookie = f"riverboat_session={http.cookies['riverboat_session']}"
        address = base.replace("http://", "ws://") + f"/ws/tables/{self.table}"
        self.connections += 1
        connection, betting = self.connections, False
        async with connect(
            address, origin=Origin(base), additional_headers={"Cookie": cookie}, open_timeout=5
        ) as ws:
            while True:
                try:
                    text = await asyncio.wait_for(ws.recv(), 1.0)
                except TimeoutError:
                    if stop.is_set():
                        return
                    continue
                message = json.loads(text)
                self.heard.append((connection, time.monotonic(), message))
                kind = message.get("type")
                if kind == "table" and not stop.is_set():
                    mine = next((s for s in message["seats"] if s["you"]), None)
                    ready = message["phase"] == "betting" and message.get("commitment")
                    if mine and ready and not mine["wagers"] and not mine["in_round"]:
                        if not betting:
                            betting = True
                            await ws.send(json.dumps(self._bet()))
                    else:
                        betting = False
                elif kind in ("result", "error"):
                    betting = False
                elif kind == "dealt" and message["round"]["status"] == "open":
                    round_ = message["round"]
                    if round_["id"] in self.decided:
                        continue  # shown again (seated again): decided once, not twice
                    play = next((c for c in round_["choices"] if c["action"] == "play"), None)
                    if play is None:
                        continue
                    decision = {"type": "decide", "action": "play", "amount": play["minimum"]}
                    self.decided.add(round_["id"])
                    thinking = asyncio.create_task(
                        self._decide(ws, decision, connection, round_["id"])
                    )
                    self._thinking.add(thinking)  # kept until it is done
                    thinking.add_done_callback(self._thinking.discard)

    async def _decide(
        self, ws: Any, decision: dict[str, Any], connection: int, round_id: int
    ) -> None:
        """The decision after a player's moment of thought (up to a third of the clock),
        so that some are sent while a fault is under way; one that cannot be sent (the
        connection broke) is not counted as sent."""
        await asyncio.sleep(random.uniform(0, DECISION_SECONDS / 3))
        try:
            await ws.send(json.dumps(decision))
        except Exception:
            return
        self.sent.append(Sent(connection, round_id, time.monotonic()))

    def _bet(self) -> dict[str, Any]:
        seed = uuid.uuid4().hex[:12]
        if self.table.startswith("crazy4"):
            return {"type": "bet", "wagers": {"ante": 500, "super_bonus": 500}, "client_seed": seed}
        return {"type": "bet", "wagers": {"banker": 500}, "client_seed": seed}


@dataclass
class OwnBot:
    """A player at their own Tri-Card table over HTTP: deal, then raise, again and again;
    what was refused or dropped is tried again."""

    name: str
    rounds: int = 0
    troubles: Counter[str] = field(default_factory=Counter)

    async def play(self, cluster: Cluster, stop: asyncio.Event) -> None:
        while not stop.is_set():
            await self._session(cluster, stop)
        # a deal whose answer was lost (a slow network's timeout) left its round open:
        # finish it, as its player would on coming back
        for _ in range(20):
            if await self._session(cluster, stop, finish=True):
                return

    async def _session(self, cluster: Cluster, stop: asyncio.Event, finish: bool = False) -> bool:
        """Log in on either server and play until ``stop`` (or, to ``finish``, only
        play out a round left open); whether it went without trouble."""
        port = random.choice(list(cluster.servers))
        try:
            base = f"http://127.0.0.1:{port}"
            async with httpx.AsyncClient(base_url=base, timeout=5, verify=False) as http:
                await http.get("/")
                http.headers["X-CSRF-Token"] = http.cookies["riverboat_csrf"]
                body = {"name": self.name, "password": PASSWORD}
                (await http.post("/api/login", json=body)).raise_for_status()
                http.headers["X-CSRF-Token"] = http.cookies["riverboat_csrf"]
                if finish:
                    await self._round(http, deal=False)
                while not stop.is_set():
                    await self._round(http)
            return True
        except Exception as error:
            self.troubles[type(error).__name__] += 1
            await asyncio.sleep(0.3)
            return False

    async def _round(self, http: httpx.AsyncClient, deal: bool = True) -> None:
        open_ = (await http.get("/api/games/tri-card/open")).json()
        if not open_ and not deal:
            return
        if not open_:
            wagers = {"ante": 500}
            answer = await http.post(
                "/api/rounds",
                json={"game": "tri-card", "wagers": wagers, "idempotency_key": uuid.uuid4().hex},
            )
            answer.raise_for_status()
            open_ = answer.json()
        if open_["status"] == "open":
            action = {"action": "raise", "idempotency_key": uuid.uuid4().hex}
            answer = await http.post(f"/api/rounds/{open_['id']}/actions", json=action)
            if answer.status_code == 422 and "the balance is" in answer.text:  # gone broke:
                action = {"action": "fold", "idempotency_key": uuid.uuid4().hex}  # as one would
                answer = await http.post(f"/api/rounds/{open_['id']}/actions", json=action)
            answer.raise_for_status()
        self.rounds += 1
        await asyncio.sleep(0.05)


# ------------------------------------------------------------------ the faults
@dataclass
class Faults:
    """The faults injected, by kind, and how long each table took to be held again."""

    injected: Counter[str] = field(default_factory=Counter)
    handovers: list[float] = field(default_factory=list)
    terminated: int = 0
    #: a round trip to Redis over the servers' network, fast and while slow
    trips: dict[str, list[float]] = field(default_factory=lambda: {"fast": [], "slow": []})


def inject(cluster: Cluster, kind: str, faults: Faults, table: str = "crazy4-1") -> None:
    """One fault of ``kind`` (one of :data:`FAULTS`), and the table held again after."""
    if kind in ("kill", "freeze"):
        port = cluster.holder(table)
        if port is None:
            return
        server = cluster.servers[port]
        if kind == "kill":
            server.send_signal(signal.SIGKILL)
            server.wait()
        else:  # at a hand's decisions, so that some are sent to the frozen holder
            _deciding(port, table)
            server.send_signal(signal.SIGSTOP)
        faults.handovers.append(
            _until(lambda: cluster.holder(table) not in (None, port), 30, "no take-over")
        )
        if kind == "kill":
            del cluster.servers[port]
            cluster.start_server(port)
        else:
            time.sleep(1.0)
            server.send_signal(signal.SIGCONT)
    elif kind == "redis":
        cluster.kill_redis()
        time.sleep(1.0)
        cluster.start_redis()
        faults.handovers.append(
            _until(lambda: cluster.holder(table) is not None, 30, "no holder after Redis")
        )
    elif kind == "database":
        faults.terminated += cluster.terminate_connections()
    else:
        fast = cluster.round_trip()
        cluster.slow_network(True)
        slow = cluster.round_trip()
        if fast is not None and slow is not None:  # Redis answered both times
            faults.trips["fast"].append(fast)
            faults.trips["slow"].append(slow)
        time.sleep(SLOW_SECONDS)
        cluster.slow_network(False)
    faults.injected[kind] += 1


def _deciding(port: int, table: str, seconds: float = 10.0) -> None:
    """Wait (up to ``seconds``) until ``table`` is at a hand's decisions, as the lobby
    of the server on ``port`` shows it."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            lobby = httpx.get(f"http://127.0.0.1:{port}/api/lobby", timeout=2, verify=False)
            tables = lobby.json()["tables"]
            if next(t for t in tables if t["id"] == table)["phase"] == "deciding":
                return
        except (httpx.HTTPError, KeyError, StopIteration, ValueError):
            pass
        time.sleep(0.05)


# ------------------------------------------------------------------ the checker
@dataclass
class Report:
    """The figures of a run and every violation found (none, if all is well)."""

    rounds: Counter[str] = field(default_factory=Counter)
    decisions: Counter[str] = field(default_factory=Counter)
    violations: list[str] = field(default_factory=list)


def settle_down(cluster: Cluster, seconds: float = 90) -> None:
    """Wait (up to ``seconds``) until no round is open: the tables finish their hands by
    their clocks, the players theirs. What is still open then, :func:`check` names."""
    service = TableService(cluster.database)
    try:

        def none_open() -> bool:
            with Session(service.engine) as session:
                return not session.scalar(
                    select(func.count()).select_from(RoundRow).where(RoundRow.status == "open")
                )

        with contextlib.suppress(AssertionError):
            _until(none_open, seconds, "rounds still open after the run")
    finally:
        service.engine.dispose()


def check(cluster: Cluster, bots: list[Bot]) -> Report:
    """Every round, against the ledger, the audit and what the bots heard."""
    report = Report()
    service = TableService(cluster.database)
    try:
        problems = service.audit()
        report.violations += [f"audit: {p}" for p in problems]
        with Session(service.engine) as session:
            total = session.scalar(select(func.sum(LedgerEntry.amount))) or 0
            if total:
                report.violations.append(f"the ledger sums to {total}, not 0")
            rows = {row.id: row for row in session.scalars(select(RoundRow))}
            kinds: dict[int, set[str]] = {}
            for round_id, kind in session.execute(
                select(Transaction.round_id, Transaction.kind).where(
                    Transaction.round_id.is_not(None)
                )
            ):
                kinds.setdefault(round_id, set()).add(kind)
        for round_id, seen in kinds.items():
            if {"settle", "void"} <= seen:
                report.violations.append(f"round {round_id} was both settled and void")
        for row in rows.values():
            report.rounds[row.status] += 1
            if row.status not in ("settled", "void"):
                report.violations.append(f"round {row.id} is left {row.status}")
        for name, player in cluster.players.items():
            mine = [r for r in rows.values() if r.player_id == player]
            nets = sum(service.round(player, r.id).net or 0 for r in mine if r.status == "settled")
            if service.balance(player) != STARTING_CREDIT + nets:
                report.violations.append(
                    f"{name}: balance {service.balance(player)}, "
                    f"not the start plus the settled nets {STARTING_CREDIT + nets}"
                )
        for bot in bots:
            _check_bot(bot, cluster.players[bot.name], rows, report)
    finally:
        service.engine.dispose()
    return report


def _check_bot(bot: Bot, player: int, rows: dict[int, RoundRow], report: Report) -> None:
    for _, _, message in bot.heard:
        round_ = message.get("round")
        if round_ is not None and rows.get(round_["id"]) is not None:
            if rows[round_["id"]].player_id != player:
                report.violations.append(f"{bot.name} was shown round {round_['id']}, not theirs")
            if message["type"] == "dealt" and round_.get("server_seed"):
                report.violations.append(f"{bot.name} was shown a seed with its hand dealt")
        if message.get("type") == "table" and "server_seed" in json.dumps(message):
            report.violations.append(f"{bot.name} was shown a seed in a table snapshot")
    for sent in bot.sent:
        after = [(c, m) for c, t, m in bot.heard if t >= sent.at and c == sent.connection]
        result = next(
            (
                m
                for _, m in after
                if m.get("type") == "result" and m["round"]["id"] == sent.round_id
            ),
            None,
        )
        if result is None:  # the connection broke before the hand's result came
            report.decisions["connection lost first"] += 1
            continue
        row = rows.get(sent.round_id)
        refused = any(m.get("type") == "error" and m.get("code") != "note" for _, m in after)
        if row is not None and row.status == "void":
            report.decisions["hand voided and refunded"] += 1
        elif result["round"]["stakes"].get("play"):
            report.decisions["carried out"] += 1
        elif refused:
            report.decisions["refused"] += 1
        else:
            report.violations.append(
                f"{bot.name}'s decision in round {sent.round_id} was dropped: folded by the clock"
            )


def figures(faults: Faults, report: Report, owners: list[OwnBot], lease: float) -> dict[str, Any]:
    """A run's figures, as bench/chaos.py prints them (and tests/test_chaos.py reads)."""
    handovers = sorted(faults.handovers)
    return {
        "faults": dict(faults.injected),
        "database_connections_terminated": faults.terminated,
        "rounds": dict(report.rounds),
        "own_table_rounds": sum(o.rounds for o in owners),
        "own_table_troubles": dict(sum((o.troubles for o in owners), Counter[str]())),
        "decisions": dict(report.decisions),
        "handover_seconds": [round(h, 2) for h in handovers],
        "handover_worst_to_lease": round(handovers[-1] / lease, 2) if handovers else None,
        "round_trip_seconds": {
            speed: round(statistics.median(trips), 4) if trips else None
            for speed, trips in faults.trips.items()
        },
        "violations": report.violations,
    }


async def run(
    cluster: Cluster, seconds: float, every: float, shared: int, own: int, cycles: int = 0
) -> tuple[Faults, list[Bot], list[OwnBot]]:
    """``shared`` bots at the shared tables (by turns Crazy 4 and Baccarat) and ``own``
    at their own, for ``seconds`` and until every kind of fault has been injected
    ``cycles`` times, while a fault is injected every ``every`` seconds."""
    names = list(cluster.players)
    bots = [Bot(names[n], "crazy4-1" if n % 2 == 0 else "baccarat-1") for n in range(shared)]
    owners = [OwnBot(names[shared + n]) for n in range(own)]
    stop, faults = asyncio.Event(), Faults()
    tasks = [asyncio.create_task(b.play(cluster, stop)) for b in [*bots, *owners]]
    began = time.monotonic()
    turn = 0
    while time.monotonic() - began < seconds or turn < cycles * len(FAULTS):
        await asyncio.sleep(every)
        await asyncio.to_thread(inject, cluster, FAULTS[turn % len(FAULTS)], faults)
        turn += 1
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    return faults, bots, owners
