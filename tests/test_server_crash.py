"""Crash safety of the running web table: ``riverboat serve`` is killed (SIGKILL) at
random moments while players deal and decide over HTTP, and started again, again and
again. After each restart the audit is clean, the ledger sums to zero, every round a
player saw settle is settled with the net they saw, every round they saw dealt is
settled, void and refunded, or open and resumable (G7), and every balance is the
starting credit plus the nets of the settled rounds: not a cent lost or made.

Each player plays from a loopback address of their own (127.0.0.N), as players on
other machines would, so the server's per-address rate limit counts each apart.

Each server is ``riverboat serve`` forked from one process that has imported what it
imports and dealt a round of each game in memory, as it does before it listens: what
a fresh interpreter spends on its imports (some two CPU seconds here, six times a
test) is spent once. Nothing of the database is opened before the fork: each server
connects, recovers and serves as a process of its own, and dies by SIGKILL as one.
"""

import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from riverboat.store.models import LedgerEntry, RoundRow
from riverboat.table.accounts.ledger import STARTING_CREDIT
from riverboat.table.rounds.rows import resume
from riverboat.table.service import TableService

KILLS = 5
PASSWORD = "a long password"
NAMES = (None, "ann", "bob")  # None: the local player, who needs no log-in on loopback
WAGERS = {"ante": 500}  # at most $10 a round with the Raise: no top-up needed
SRC = str(Path(__file__).resolve().parents[1] / "src")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


#: forks ``riverboat serve`` on demand: "serve PORT URL LOG" answers the server's
#: process id, "reap PID" (once it is killed) answers "reaped PID"
FORKS = """
import os
import sys

import uvicorn  # noqa: F401  what riverboat serve imports, imported once
import riverboat.cli.tables  # noqa: F401
import riverboat.web.app  # noqa: F401
from riverboat.cli import run
from riverboat.games.warm import warm_up

warm_up()
for line in sys.stdin:
    word, *rest = line.split()
    if word == "reap":
        os.waitpid(int(rest[0]), 0)
        print("reaped", rest[0], flush=True)
        continue
    port, url, log = rest
    child = os.fork()
    if child:
        print(child, flush=True)
        continue
    output = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    os.dup2(output, 1)
    os.dup2(output, 2)
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    sys.argv = ["riverboat", "serve", "--port", port, "--database", url]
    try:
        run()
    finally:
        os._exit(1)
"""


class Servers:
    """The process that forks the servers (:data:`FORKS`), for as long as the block runs."""

    def __enter__(self) -> "Servers":
        # the house edges off: each restarted server would start a worker to work them
        # out again (some 2 CPU s), and nothing here reads them
        path = SRC + os.pathsep + os.environ.get("PYTHONPATH", "")
        env = {**os.environ, "PYTHONPATH": path, "RIVERBOAT_HOUSE_EDGES": "0"}
        self.forks = subprocess.Popen(
            [sys.executable, "-c", FORKS], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )
        return self

    def __exit__(self, *_: object) -> None:
        self.forks.kill()
        self.forks.wait()

    def ask(self, words: str) -> str:
        assert self.forks.stdin is not None
        assert self.forks.stdout is not None
        self.forks.stdin.write(words.encode() + b"\n")
        self.forks.stdin.flush()
        return self.forks.stdout.readline().decode().strip()


@dataclass
class Server:
    """A forked ``riverboat serve``."""

    servers: Servers
    pid: int
    reaped: bool = False

    def poll(self) -> int | None:
        """None while it runs (as :meth:`subprocess.Popen.poll`), else 1."""
        stat = Path(f"/proc/{self.pid}/stat")
        running = stat.exists() and stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"
        return None if running else 1

    def kill(self) -> None:
        """SIGKILL, and the process gone (once: killed again, nothing happens)."""
        if self.reaped:
            return
        os.kill(self.pid, signal.SIGKILL)
        assert self.servers.ask(f"reap {self.pid}") == f"reaped {self.pid}"
        self.reaped = True


def start_server(servers: Servers, url: str, port: int, log: Path) -> Server:
    return Server(servers, int(servers.ask(f"serve {port} {url} {log}")))


def wait_until_serving(base: str, server: Server) -> None:
    deadline = time.monotonic() + 120  # a loaded machine imports slowly
    while time.monotonic() < deadline:
        assert server.poll() is None, "the server stopped while starting"
        try:
            # plain HTTP: no CA certificates loaded (docs/development.md: 33 ms of CPU)
            if httpx.get(base + "/api/me", timeout=2, verify=False).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.05)
    raise AssertionError("the server did not start in 120 s")


@dataclass
class Player:
    """A player over HTTP, and what the server acknowledged to them."""

    name: str | None
    address: str
    id: int = 0
    dealt: set[int] = field(default_factory=set)
    settled: dict[int, int] = field(default_factory=dict)  # round: the net they saw
    problems: list[str] = field(default_factory=list)
    ready: threading.Event = field(default_factory=threading.Event)  # logged in, playing

    def client(self, base: str) -> tuple[httpx.Client, dict[str, str]]:
        """A client from the player's own address, logged in; its CSRF header."""
        transport = httpx.HTTPTransport(local_address=self.address, verify=False)
        client = httpx.Client(base_url=base, transport=transport, timeout=10)
        client.get("/")
        headers = {"X-CSRF-Token": client.cookies["riverboat_csrf"]}
        if self.name is not None:
            body = {"name": self.name, "password": PASSWORD}
            while _answer(client.post("/api/login", json=body, headers=headers)) is None:
                pass  # asked to wait: try again, as a person would
            headers = {"X-CSRF-Token": client.cookies["riverboat_csrf"]}
        self.id = client.get("/api/me").json()["player"]
        return client, headers

    def play(self, base: str, choices: random.Random) -> None:
        """Deal and decide Tri-Card rounds until the server dies."""
        try:
            try:
                client, headers = self.client(base)
            finally:
                self.ready.set()
            try:
                while True:
                    self._round(client, headers, choices)
            finally:
                client.close()
        except httpx.TransportError:
            return  # the server was killed
        except httpx.HTTPStatusError as error:
            self.problems.append(f"{self.name}: {error.response.text}")

    def _round(self, client: httpx.Client, headers: dict[str, str], choices: random.Random) -> None:
        open_now = client.get("/api/games/tri-card/open")  # one left by a crash: resume it
        if open_now.status_code in (429, 503):
            time.sleep(0.05)
            return
        open_now.raise_for_status()
        if open_now.json() is not None:
            round_id = open_now.json()["id"]
        else:
            body = {"game": "tri-card", "wagers": WAGERS}
            dealt = _answer(client.post("/api/rounds", json=body, headers=headers))
            if dealt is None:
                return
            round_id = dealt["id"]
            self.dealt.add(round_id)
        action = {"action": choices.choice(["raise", "fold"])}
        done = _answer(client.post(f"/api/rounds/{round_id}/actions", json=action, headers=headers))
        if done is not None:
            self.settled[round_id] = done["net"]


def _answer(response: httpx.Response) -> dict[str, int] | None:
    """The answer's body, or None for one refused for now, which changed nothing: the
    rate limit (429), or a database busy for longer than the server waits (503)."""
    if response.status_code in (429, 503):
        time.sleep(0.05)
        return None
    response.raise_for_status()
    body: dict[str, int] = response.json()
    return body


def check_books(url: str, players: list[Player]) -> None:
    """What must hold after a restart (the server ran its recovery as it started)."""
    service = TableService(url)
    try:
        assert service.audit() == []
        with Session(service.engine) as session:  # read, then closed: one writer on SQLite
            assert session.scalar(select(func.sum(LedgerEntry.amount))) in (0, None)
            rows = {row.id: row for row in session.scalars(select(RoundRow))}
        for row in rows.values():
            if row.status == "open":  # G7: only past the player's first decision
                assert resume(row).player_decided, f"round {row.id} open before a decision"
        for player in players:
            assert not player.problems, player.problems
            mine = [r for r in rows.values() if r.player_id == player.id]
            nets = {r.id: service.round(player.id, r.id).net for r in mine}
            assert player.dealt <= {r.id for r in mine}  # every acknowledged deal is there
            for round_id, net in player.settled.items():  # and every settlement seen
                assert rows[round_id].status == "settled"
                assert nets[round_id] == net
            settled = sum(nets[r.id] or 0 for r in mine if r.status == "settled")
            open_stakes = sum(
                sum(p.staked for p in resume(r).positions) for r in mine if r.status == "open"
            )
            assert service.balance(player.id) == STARTING_CREDIT + settled - open_stakes
    finally:
        service.engine.dispose()


def test_the_server_killed_at_any_moment_keeps_the_books_whole_g7(
    database_url: str, tmp_path: Path
) -> None:
    service = TableService(database_url)
    for name in NAMES:
        if name is not None:
            service.register(name, PASSWORD)
    service.engine.dispose()
    players = [Player(name, f"127.0.0.{10 + n}") for n, name in enumerate(NAMES)]
    generator = random.Random(11)
    port, log = free_port(), tmp_path / "server.log"
    base = f"http://127.0.0.1:{port}"
    with Servers() as servers:
        server = start_server(servers, database_url, port, log)
        try:
            for kill in range(KILLS + 1):
                wait_until_serving(base, server)  # after a kill: it has recovered (G7)
                if kill:
                    check_books(database_url, players)
                if kill == KILLS:
                    break
                threads = [
                    threading.Thread(target=p.play, args=(base, random.Random(generator.random())))
                    for p in players
                ]
                for player in players:
                    player.ready.clear()
                for thread in threads:
                    thread.start()
                for player in players:
                    assert player.ready.wait(60)
                time.sleep(generator.uniform(0.3, 1.5))  # somewhere in a deal or a decision
                server.kill()
                for thread in threads:
                    thread.join(timeout=30)
                server = start_server(servers, database_url, port, log)
        finally:
            server.kill()
    assert sum(len(p.settled) for p in players) > KILLS  # the players did play
    audit = subprocess.run(
        [sys.executable, "-m", "riverboat", "audit", "--database", database_url],
        env={**os.environ, "PYTHONPATH": SRC},
        capture_output=True,
        text=True,
        check=False,
    )
    assert audit.returncode == 0, audit.stdout + audit.stderr
    assert "audit clean" in audit.stdout
