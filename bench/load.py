"""Load on the web table as its users make it: `riverboat serve` in a child process,
N players over loopback, each from an address of its own, on SQLite and PostgreSQL.

Each player logs in to an account of its own and plays Tri-Card rounds (deal, then
raise), in two stretches of --seconds:

* saturated: each player sends its next request the moment the last answer arrives
  (a closed loop with no pause). This measures the most settled rounds per second the
  server gives; its latencies are not what a player feels: with N players always
  waiting, a request waits behind the others, so p99 is about N / throughput
  (Little's law), whatever the server.
* paced: each player pauses a think time between actions (--think, 1 s by default,
  each pause drawn between half and one and a half times it), as a person does; the
  p50/p99 of these requests is the latency a player feels, read beside the offered
  load (players / think time, in requests per second) and the saturated capacity.

With --attackers the players then play a paced stretch beside 40 loops of failed
log-ins and 3 loops of `GET /api/history?limit=100` (logged in beforehand), each from
an address of its own, none pausing or heeding Retry-After, in a separate process (so
the attackers' own work does not slow the players' client); the server's limits
refusing their floods is the point, and the players' p99 beside them is shown as a
ratio to their paced p99 alone, measured in the same run, with the answers the
attackers got a second, the share of refusals that said Retry-After in a JSON body,
and the seconds the attacked account's owner took to log in meanwhile. With
--baseline-ref the same load runs against that git ref's server too (checked out into
a temporary worktree), one after the other for each database and player count, and
the new/old ratios are printed. With --repeats N each server runs its stretches N
times, a fresh server each time (new, old, new, old, ... with --baseline-ref), and the
tables give the median of each figure, the spread (min-max) of rounds/s, the p99s and
the owner's log-in beside it, and the ratios of the medians.

Each stretch also counts the CPU the server process used (/proc, every thread, not the
client's) and that of the PostgreSQL backends serving its database, in milliseconds
per settled round, and the share of the machine's cores busy meanwhile (everyone's
work); where both databases ran, PostgreSQL's figures over SQLite's.

One asyncio process drives every player (httpx); on a small machine the client and
the server share the CPUs, which bounds the figures at high player counts: read the
ratios, which compare peers measured in the same run, and the CPU per round.

    python bench/load.py [--players 8,64,256] [--seconds 8] [--think 1.0] [--attackers]
                         [--databases sqlite,postgresql] [--baseline-ref GIT_REF]
                         [--repeats N] [--json PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from multiprocessing.queues import Queue
from multiprocessing.synchronize import Event
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
PASSWORD = "load-test-password"
VICTIM = "victim"  # the account the failed log-ins aim at: no player is locked out
LOG_IN_LOOPS, HISTORY_LOOPS = 40, 3
TRACEBACKS: dict[str, int] = {}  # by database URL: the tracebacks its server logged
#: by base address: the serving process's id and its database's URL (its CPU is read)
SERVERS: dict[str, tuple[int, str]] = {}
_REGISTER = """
import sys
from riverboat.table.service import TableService
service = TableService(sys.argv[1])
for name in [f"player{i}" for i in range(int(sys.argv[2]))] + [sys.argv[3]]:
    service.register(name, sys.argv[4])
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def player_address(number: int) -> str:
    return f"127.2.{number // 250}.{number % 250 + 1}"


def attacker_address(number: int) -> str:
    return f"127.3.{number // 250}.{number % 250 + 1}"


# ------------------------------------------------------------------ the server
@contextmanager
def serving(tree: Path, url: str, players: int, wrap: Sequence[str] = ()) -> Iterator[str]:
    """``tree``'s `riverboat serve` on ``url`` with ``players`` accounts (and the
    victim's), ready; its base address. ``wrap`` goes before the command (a profiler's,
    say: bench/server_instructions.py runs it under callgrind)."""
    env = {**os.environ, "PYTHONPATH": str(tree / "src"), **NO_HOUSE_EDGES}
    register = [sys.executable, "-c", _REGISTER, url, str(players), VICTIM, PASSWORD]
    subprocess.run(register, env=env, check=True, cwd=tree)
    port = free_port()
    serve = [sys.executable, "-m", "riverboat", "serve", "--port", str(port), "--database", url]
    command = [*wrap, *serve]
    with tempfile.TemporaryFile() as log:  # the server's complaints, counted afterwards
        server = subprocess.Popen(command, env=env, cwd=tree, stdout=subprocess.DEVNULL, stderr=log)
        base = f"http://127.0.0.1:{port}"
        SERVERS[base] = (server.pid, url)
        try:
            _wait_until_ready(base, server)
            yield base
        finally:
            SERVERS.pop(base, None)
            server.terminate()
            server.wait(timeout=30)
            log.seek(0)
            TRACEBACKS[url] = log.read().count(b"Traceback (most recent call last)")


#: the servers measured start without working out the games' house edges, which has
#: nothing to do with a round and takes a CPU for a second or more (an older tree that
#: works them out anyway is waited for, below)
NO_HOUSE_EDGES = {"RIVERBOAT_HOUSE_EDGES": "0"}


def _wait_until_ready(base: str, server: subprocess.Popen[bytes]) -> None:
    """Serving, and no game's house edge being worked out (an older tree's, which works
    them out whatever NO_HOUSE_EDGES says); on a machine too busy to finish them in 10
    minutes, measured without waiting, and said."""
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError("the server stopped while starting")
        try:
            # plain HTTP: no CA certificates loaded (docs/development.md: 33 ms of CPU)
            games = httpx.get(base + "/api/games", timeout=30, verify=False).json()
            if all(
                game.get("house_edge") is not None or game.get("edges_state") == "unavailable"
                for game in games
            ):
                return
        except (httpx.HTTPError, ValueError):
            pass
        time.sleep(0.5)
    print("(the house edges were still being worked out during this run)", flush=True)


@contextmanager
def database(kind: str, folder: Path, postgres: str) -> Iterator[str]:
    """A fresh database of ``kind``: an SQLite file in ``folder``, or a PostgreSQL
    database made here and dropped afterwards."""
    if kind == "sqlite":
        yield f"sqlite:///{folder / f'load-{uuid.uuid4().hex[:8]}.db'}"
        return
    import psycopg

    name = f"riverboat_load_{uuid.uuid4().hex[:8]}"
    admin = postgres.replace("postgresql+psycopg://", "postgresql://") + "/postgres"
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"{postgres}/{name}"
    finally:
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@contextmanager
def checked_out(ref: str) -> Iterator[Path]:
    """``ref`` in a temporary detached worktree of this repository."""
    with tempfile.TemporaryDirectory() as folder:
        tree = Path(folder) / "baseline"
        git = ["git", "-C", str(ROOT)]
        subprocess.run([*git, "worktree", "add", "--detach", str(tree), ref], check=True)
        try:
            yield tree
        finally:
            subprocess.run([*git, "worktree", "remove", "--force", str(tree)], check=True)


# ------------------------------------------------------------------ the clients
async def log_in(base: str, address: str, name: str, password: str) -> httpx.AsyncClient:
    """A client from ``address``, logged in as ``name``, its CSRF header set."""
    transport = httpx.AsyncHTTPTransport(local_address=address, retries=3, verify=False)
    client = httpx.AsyncClient(base_url=base, transport=transport, timeout=120)
    await client.get("/")
    headers = {"X-CSRF-Token": client.cookies["riverboat_csrf"]}
    body = {"name": name, "password": password}
    for _ in range(100):  # a busy server may ask the log-in to wait, or to try again
        answer = await client.post("/api/login", json=body, headers=headers)
        if answer.status_code not in (429, 503):
            break
        await asyncio.sleep(float(answer.headers.get("Retry-After", 1)))
    answer.raise_for_status()
    client.headers["X-CSRF-Token"] = client.cookies["riverboat_csrf"]  # renewed at log-in
    return client


@dataclass
class Tally:
    """What the players did in one stretch."""

    latencies: list[float] = field(default_factory=list)
    settled: int = 0
    refused: int = 0  # 429s a player met (and waited out)
    busy: int = 0  # 503s (a locked database: nothing changed, try again) likewise
    dropped: int = 0  # connections the server dropped mid-request (tried again)
    errors: list[str] = field(default_factory=list)

    def figures(self, seconds: float) -> dict[str, float]:
        ordered = sorted(self.latencies) or [float("nan")]
        return {
            "settled": self.settled,
            "rounds_per_s": self.settled / seconds,
            "p50_ms": statistics.median(ordered) * 1000,
            "p99_ms": ordered[max(0, int(len(ordered) * 0.99) - 1)] * 1000,
            "requests": len(self.latencies),
            "refused": self.refused,
            "busy": self.busy,
            "dropped": self.dropped,
        }


async def play(
    client: httpx.AsyncClient, until: float, tally: Tally, think: float, pauses: random.Random
) -> None:
    """Tri-Card rounds, deal then raise, until ``until``; with ``think``, a pause
    before each action of between half and one and a half times it."""

    async def pause() -> None:
        if think:
            await asyncio.sleep(think * pauses.uniform(0.5, 1.5))

    async def post(path: str, body: dict[str, object]) -> httpx.Response:
        while True:
            began = time.perf_counter()
            try:
                answer = await client.post(path, json=body)
            except httpx.TransportError:  # the server dropped the connection: again
                tally.dropped += 1
                await asyncio.sleep(0.1)
                continue
            tally.latencies.append(time.perf_counter() - began)
            if answer.status_code not in (429, 503):
                return answer
            if answer.status_code == 429:
                tally.refused += 1
            else:
                tally.busy += 1
            await asyncio.sleep(min(1.0, float(answer.headers.get("Retry-After", 0.1))))

    while time.monotonic() < until:
        await pause()
        dealt = await post("/api/rounds", {"game": "tri-card", "wagers": {"ante": 500}})
        if dealt.status_code == 422 and "balance" in dealt.text:
            await post("/api/top-up", {})
            continue
        if dealt.status_code != 200:
            tally.errors.append(dealt.text)
            return
        await pause()
        done = await post(f"/api/rounds/{dealt.json()['id']}/actions", {"action": "raise"})
        if done.status_code != 200:
            tally.errors.append(done.text)
            return
        tally.settled += 1


async def stretch(
    clients: list[httpx.AsyncClient], seconds: float, think: float = 0
) -> dict[str, float]:
    """Every player plays for ``seconds`` (pausing ``think`` between actions); their
    figures."""
    tally = Tally()
    began = time.monotonic()
    until = began + seconds
    await asyncio.gather(
        *(play(c, until, tally, think, random.Random(n)) for n, c in enumerate(clients))
    )
    if tally.errors:
        raise RuntimeError(f"{len(tally.errors)} players stopped: {tally.errors[0][:200]}")
    return tally.figures(time.monotonic() - began)


# ------------------------------------------------------------------ CPU per round
TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def cpu_seconds(pid: int) -> float:
    """The CPU seconds (user and system, every thread) process ``pid`` has used, from
    /proc (Linux); its children's not counted. NaN where /proc cannot say."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return float("nan")
    fields = stat.rpartition(")")[2].split()  # after the name, which may hold spaces
    return (int(fields[11]) + int(fields[12])) / TICK


def backends(url: str) -> dict[int, float]:
    """The CPU seconds of each PostgreSQL backend process serving ``url``'s database on
    this machine, by process id (their titles name the database); none for SQLite."""
    if not url.startswith("postgresql"):
        return {}
    name = f" {url.rsplit('/', 1)[1]} ".encode()
    found = {}
    for entry in Path("/proc").iterdir() if Path("/proc").is_dir() else []:
        if not entry.name.isdigit():
            continue
        try:
            title = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if title.startswith(b"postgres: ") and name in title:
            found[int(entry.name)] = cpu_seconds(int(entry.name))
    return found


@dataclass
class Costs:
    """CPU seconds at one moment: the server processes', the database's backends', and
    the whole machine's busy and total time (every core)."""

    servers: float
    database: dict[int, float]
    busy: float
    total: float

    @classmethod
    def now(cls, pids: list[int], url: str) -> Costs:
        busy, total = machine_seconds()
        return cls(sum(cpu_seconds(pid) for pid in pids), backends(url), busy, total)

    def since(self, before: Costs, settled: int) -> dict[str, float]:
        """Milliseconds of server and database CPU per settled round from ``before`` to
        this moment, and the share of the machine's CPUs that were busy meanwhile (with
        every other program's work). A backend that ended meanwhile is not counted, one
        that began is counted from nothing."""
        database = sum(
            seconds - before.database.get(pid, 0.0) for pid, seconds in self.database.items()
        )
        rounds = max(settled, 1)
        return {
            "server_ms": 1000 * (self.servers - before.servers) / rounds,
            "database_ms": 1000 * database / rounds if self.database else 0.0,
            "machine_busy": min(
                1.0, (self.busy - before.busy) / max(self.total - before.total, 1e-9)
            ),
        }


def machine_seconds() -> tuple[float, float]:
    """The machine's CPU time so far, busy and in all (every core), from /proc/stat."""
    try:
        first = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    except OSError:
        return float("nan"), float("nan")
    times = [int(value) for value in first[:8]]  # user nice system idle iowait irq softirq steal
    return (sum(times) - times[3] - times[4]) / TICK, sum(times) / TICK


async def costed(
    clients: list[httpx.AsyncClient], seconds: float, think: float, server: tuple[list[int], str]
) -> dict[str, float]:
    """:func:`stretch`, with the servers' and the database's CPU per settled round."""
    before = Costs.now(*server)
    figures = await stretch(clients, seconds, think)
    figures.update(Costs.now(*server).since(before, int(figures["settled"])))
    return figures


def attack(base: str, players: int, running: Event, stop: Event, told: Queue[Any]) -> None:
    """The attackers, in a process of their own, until ``stop`` is set; what they were
    answered (or what stopped them) goes to ``told``."""
    try:
        told.put(asyncio.run(_attack(base, players, running, stop)))
    except Exception as error:  # carried to the bench, which says it
        running.set()
        told.put({"failed": repr(error)})


async def _attack(base: str, players: int, running: Event, stop: Event) -> dict[str, float]:
    """The attackers' loops; how many answers they got a second (and history pages
    among them), how many were refusals (429 or 503) and how many of those said when to
    try again."""
    answers: Counter[str] = Counter()

    def count(answer: httpx.Response) -> None:
        answers["answers"] += 1
        answers["pages"] += answer.status_code == 200 and answer.url.path == "/api/history"
        if answer.status_code in (429, 503):
            answers["refused"] += 1
            json = answer.headers.get("content-type") == "application/json"
            answers["told"] += bool(answer.headers.get("Retry-After") and json)

    async def failed_log_ins(number: int) -> None:
        transport = httpx.AsyncHTTPTransport(local_address=attacker_address(number), verify=False)
        async with httpx.AsyncClient(base_url=base, transport=transport, timeout=120) as client:
            await client.get("/")
            headers = {"X-CSRF-Token": client.cookies.get("riverboat_csrf") or ""}
            wrong = {"name": VICTIM, "password": "not-the-password"}
            while not stop.is_set():
                count(await client.post("/api/login", json=wrong, headers=headers))

    async def history(client: httpx.AsyncClient) -> None:
        try:  # not `async with`: a client that has sent a request cannot be opened again
            while not stop.is_set():
                count(await client.get("/api/history", params={"limit": 100}))
        finally:
            await client.aclose()

    readers = await asyncio.gather(  # logged in before the guessing starts: all read at once
        *(
            log_in(base, attacker_address(LOG_IN_LOOPS + n), f"player{n % players}", PASSWORD)
            for n in range(HISTORY_LOOPS)
        )
    )
    loops = [failed_log_ins(n) for n in range(LOG_IN_LOOPS)]
    loops += [history(client) for client in readers]
    tasks = [asyncio.ensure_future(loop) for loop in loops]
    running.set()
    began = time.monotonic()
    while not stop.is_set():
        await asyncio.sleep(0.1)
    failed = [r for r in await asyncio.gather(*tasks, return_exceptions=True) if r is not None]
    if failed:  # a loop that stopped early would measure a milder attack: said, not hidden
        raise RuntimeError(f"{len(failed)} attack loops failed: {failed[0]!r}")
    seconds = time.monotonic() - began
    return {
        "per_s": answers["answers"] / seconds,
        "pages_per_s": answers["pages"] / seconds,
        "refused": answers["refused"],
        "told": answers["told"],
    }


async def owner_logs_in(base: str, players: int) -> float:
    """Seconds the attacked account's owner takes to log in, from an address of their
    own, while the attackers guess at it (429s waited out as a browser would)."""
    began = time.monotonic()
    client = await log_in(base, player_address(players), VICTIM, PASSWORD)
    await client.aclose()
    return time.monotonic() - began


def measure(
    base: str, players: int, seconds: float, think: float, attackers: bool
) -> dict[str, float]:
    """The players saturating the server, then paced, then (with ``attackers``) paced
    beside the attackers."""

    pid, url = SERVERS[base]
    server = ([pid], url)

    async def run() -> dict[str, float]:
        clients = await asyncio.gather(
            *(log_in(base, player_address(n), f"player{n}", PASSWORD) for n in range(players))
        )
        try:
            figures = await costed(clients, seconds, 0, server)
            paced = await costed(clients, seconds, think, server)
            figures.update({f"paced_{k}": v for k, v in paced.items()})
            if not attackers:
                return figures
            context = multiprocessing.get_context("spawn")
            running, stop, told = context.Event(), context.Event(), context.Queue()
            process = context.Process(target=attack, args=(base, players, running, stop, told))
            process.start()
            try:
                await asyncio.to_thread(running.wait, 120)
                await asyncio.sleep(1)  # the attackers under way
                attacked, owner = await asyncio.gather(
                    stretch(clients, seconds, think), owner_logs_in(base, players)
                )
            finally:
                stop.set()
                answered = await asyncio.to_thread(told.get, True, 60)
                await asyncio.to_thread(process.join, 60)
            if "failed" in answered:
                raise RuntimeError(f"the attackers stopped: {answered['failed'][:200]}")
            attacked["log_in_s"] = owner
            attacked.update({f"attackers_{k}": v for k, v in answered.items()})
            return {**figures, **{f"attacked_{k}": v for k, v in attacked.items()}}
        finally:
            await asyncio.gather(*(c.aclose() for c in clients))

    return asyncio.run(run())


# ------------------------------------------------------------------ the report
def refuse_unreachable_postgres(
    parser: argparse.ArgumentParser, kinds: list[str], postgres: str
) -> None:
    """Where ``kinds`` name PostgreSQL, a server at ``postgres`` that does not answer
    refused in one line (exit 2), before anything starts."""
    if "postgresql" not in kinds:
        return
    import psycopg

    admin = postgres.replace("postgresql+psycopg://", "postgresql://") + "/postgres"
    try:
        psycopg.connect(admin, connect_timeout=5).close()
    except psycopg.OperationalError as error:
        first = str(error).splitlines()[0]
        parser.exit(2, f"--postgres {postgres}: no database there ({first})\n")


def add_postgres_option(parser: argparse.ArgumentParser) -> None:
    """``--postgres``: the PostgreSQL server the benchmark makes its databases on."""
    parser.add_argument(
        "--postgres",
        default=os.environ.get(
            "RIVERBOAT_TEST_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432"
        ),
        help="a PostgreSQL server's URL without a database",
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", default="8,64,256", help="player counts, comma-separated")
    parser.add_argument("--seconds", type=float, default=8)
    parser.add_argument(
        "--think", type=float, default=1.0, help="a paced player's pause between actions, s"
    )
    parser.add_argument("--databases", default="sqlite,postgresql")
    parser.add_argument("--attackers", action="store_true", help="a second stretch beside them")
    parser.add_argument("--baseline-ref", help="also run this git ref's server: new/old ratios")
    parser.add_argument(
        "--repeats", type=int, default=1, help="stretches per server: medians and spreads"
    )
    parser.add_argument("--json", type=Path, help="also write every run's figures here")
    add_postgres_option(parser)
    args = parser.parse_args(argv)
    counts = [int(n) for n in args.players.split(",")]
    kinds = args.databases.split(",")
    runs: dict[tuple[str, int, str], list[dict[str, float]]] = {}
    print(_header(args.attackers), flush=True)
    if args.think <= 0:
        parser.error("--think is a pause in seconds, more than 0")
    if args.repeats < 1:
        parser.error("--repeats is how many times each server runs its stretches, 1 or more")
    refuse_unreachable_postgres(parser, kinds, args.postgres)
    with tempfile.TemporaryDirectory() as folder, _baseline(args.baseline_ref) as old:
        trees = {"new": ROOT, **({"old": old} if old else {})}
        for kind in kinds:
            for players in counts:
                for _ in range(args.repeats):  # new, old, new, old, ...: both see the same load
                    for version, tree in trees.items():
                        try:
                            with (
                                database(kind, Path(folder), args.postgres) as url,
                                serving(tree, url, players) as base,
                            ):
                                figures = measure(
                                    base, players, args.seconds, args.think, args.attackers
                                )
                        except (RuntimeError, httpx.HTTPError) as error:  # said; the rest run
                            print(f"{kind:<10} {players:>7} {version:<4} did not finish: {error}")
                            continue
                        figures["tracebacks"] = TRACEBACKS.pop(url)
                        runs.setdefault((kind, players, version), []).append(figures)
                        _print_row(kind, players, version, figures, args.attackers)
    _print_table({key: _medians(found) for key, found in runs.items()}, args)
    if args.repeats > 1:
        _print_spreads(runs, args.attackers)
    if args.json:
        rows = [
            {"database": kind, "players": players, "version": version, "runs": found}
            for (kind, players, version), found in runs.items()
        ]
        args.json.write_text(json.dumps(rows, indent=1))
    return 0


#: the figures whose spread over the repeats is shown: (column, figure)
SPREAD = [
    ("rounds/s", "rounds_per_s"),
    ("p99 ms", "p99_ms"),
    ("paced99", "paced_p99_ms"),
    ("srv cpu ms", "server_ms"),
    ("db cpu ms", "database_ms"),
]
ATTACKED_SPREAD = [("att p99", "attacked_p99_ms"), ("owner s", "attacked_log_in_s")]
#: the figures the medians' row adds up over the repeats instead
COUNTED = {"tracebacks", "dropped", "paced_dropped", "attacked_dropped"}


def _medians(runs: list[dict[str, float]]) -> dict[str, float]:
    """Each figure's median over ``runs``; the tracebacks and dropped connections, added
    up.

    >>> _medians([{"p99_ms": 3.0, "tracebacks": 1}, {"p99_ms": 1.0, "tracebacks": 0},
    ...           {"p99_ms": 2.0, "tracebacks": 0}])
    {'p99_ms': 2.0, 'tracebacks': 1}
    """
    return {
        key: sum(run[key] for run in runs)
        if key in COUNTED
        else statistics.median(run[key] for run in runs)
        for key in runs[0]
    }


def _print_spreads(
    runs: dict[tuple[str, int, str], list[dict[str, float]]], attackers: bool
) -> None:
    """The lowest and the highest of the figures whose medians the table gives."""
    shown = SPREAD + (ATTACKED_SPREAD if attackers else [])
    print("\nspread (min-max) over the repeats")
    print(
        f"{'database':<10} {'players':>7} {'ver':<4} {'runs':>4} "
        + " ".join(f"{column:>15}" for column, _ in shown)
    )
    for (kind, players, version), found in runs.items():
        spreads = " ".join(f"{_spread([run[key] for run in found]):>15}" for _, key in shown)
        print(f"{kind:<10} {players:>7} {version:<4} {len(found):>4} {spreads}")


def _spread(values: list[float]) -> str:
    """The least and the most of ``values``.

    >>> _spread([12.5, 3.25, 7.0])
    '3.2-12.5'
    """
    return f"{min(values):.1f}-{max(values):.1f}"


@contextmanager
def _baseline(ref: str | None) -> Iterator[Path | None]:
    if ref is None:
        yield None
        return
    with checked_out(ref) as tree:
        yield tree


def _print_row(
    kind: str, players: int, version: str, figures: dict[str, float], attackers: bool
) -> None:
    line = (
        f"{kind:<10} {players:>7} {version:<4} {figures['rounds_per_s']:9.1f} "
        f"{figures['p50_ms']:8.1f} {figures['p99_ms']:8.1f} "
        f"{figures['paced_p50_ms']:8.1f} {figures['paced_p99_ms']:8.1f} "
        f"{figures['busy'] + figures['paced_busy']:5.0f} {figures['tracebacks']:5.0f}"
        f" {figures['server_ms']:7.2f} {figures['database_ms']:6.2f}"
        f" {figures['paced_server_ms']:7.2f} {figures['machine_busy']:5.0%}"
    )
    if attackers:
        ratio = figures["attacked_p99_ms"] / figures["paced_p99_ms"]
        line += (
            f" {figures['attacked_p50_ms']:8.1f} {figures['attacked_p99_ms']:8.1f}"
            f" {ratio:8.2f}x {figures['attacked_attackers_per_s']:7.0f}"
            f" {figures['attacked_attackers_pages_per_s']:7.1f}"
            f" {_share(figures['attacked_attackers_told'], figures['attacked_attackers_refused'])}"
            f" {figures['attacked_log_in_s']:7.1f}"
        )
    dropped = sum(figures.get(k, 0) for k in ("dropped", "paced_dropped", "attacked_dropped"))
    if dropped:
        line += f"  ({dropped:.0f} connections dropped by the server, tried again)"
    print(line, flush=True)


def _print_table(
    results: dict[tuple[str, int, str], dict[str, float]], args: argparse.Namespace
) -> None:
    repeats = f", the median of {args.repeats} runs" if args.repeats > 1 else ""
    print(
        f"\nTri-Card deal + raise over loopback, {args.seconds:g} s a stretch{repeats}; p50/p99 "
        f"of the players' requests: saturated (no pause), then paced ({args.think:g} s think "
        "time, between half and 1.5 times it, before each action: the latency a player "
        "feels)"
    )
    print(_header(args.attackers))
    for (kind, players, version), figures in results.items():
        _print_row(kind, players, version, figures, args.attackers)
    _print_databases(results)
    if not args.baseline_ref:
        return
    print(f"\nnew ({_describe('HEAD')}) / old ({_describe(args.baseline_ref)}), same run")
    keys = ["rounds_per_s", "p50_ms", "p99_ms", "paced_p50_ms", "paced_p99_ms", "server_ms"]
    if args.attackers:
        keys += ["attacked_p99_ms"]
    print(f"{'database':<10} {'players':>7} " + " ".join(f"{k:>16}" for k in keys))
    for (kind, players, version), new in results.items():
        old = results.get((kind, players, "old"))
        if version != "new" or old is None:
            continue
        ratios = " ".join(f"{new[k] / old[k]:15.2f}x" for k in keys)
        print(f"{kind:<10} {players:>7} {ratios}")


def _print_databases(results: dict[tuple[str, int, str], dict[str, float]]) -> None:
    """PostgreSQL's figures over SQLite's, each version's, where both ran."""
    keys = ["rounds_per_s", "paced_p99_ms", "server_ms", "paced_server_ms"]
    pairs = [
        (players, version, found, results[("sqlite", players, version)])
        for (kind, players, version), found in results.items()
        if kind == "postgresql" and ("sqlite", players, version) in results
    ]
    if not pairs:
        return
    print("\npostgresql / sqlite, same run (server CPU per round: the server process's alone)")
    print(f"{'players':>7} {'ver':<4} " + " ".join(f"{k:>16}" for k in keys))
    for players, version, postgres, sqlite in pairs:
        ratios = " ".join(f"{postgres[k] / sqlite[k]:15.2f}x" for k in keys)
        print(f"{players:>7} {version:<4} {ratios}")


def _header(attackers: bool) -> str:
    header = (
        f"{'database':<10} {'players':>7} {'ver':<4} {'rounds/s':>9} {'p50 ms':>8} {'p99 ms':>8}"
        f" {'paced50':>8} {'paced99':>8}"  # the same players pausing between actions
    )
    header += f" {'503s':>5} {'trace':>5}"  # "busy: try again" answers; the server's tracebacks
    # CPU ms per settled round, saturated: the server process's, the database's backends'
    # (PostgreSQL); the server's paced; the share of the machine's cores busy (saturated,
    # everyone's work: the client's, the database's, other programs')
    header += f" {'srv cpu':>7} {'db cpu':>6} {'pcd cpu':>7} {'busy':>5}"
    if attackers:  # paced players beside the attackers: p50, p99, p99 over paced p99 alone;
        # the attackers' answers a second, the history pages among them, the share of
        # refusals with Retry-After and a JSON body; the seconds the attacked account's
        # owner took to log in meanwhile
        header += f" {'att p50':>8} {'att p99':>8} {'p99 x':>9}"
        header += f" {'att/s':>7} {'pages/s':>7} {'told':>5} {'owner s':>7}"
    return header


def _share(part: float, whole: float) -> str:
    """``part`` of ``whole`` as a percentage five characters wide.

    >>> _share(3, 4), _share(0, 0)
    ('  75%', '    -')
    """
    return f"{part / whole:5.0%}" if whole else "    -"


def _describe(ref: str) -> str:
    found = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", ref],
        capture_output=True,
        text=True,
        check=False,
    )
    return found.stdout.strip() or ref


if __name__ == "__main__":
    raise SystemExit(main())
