"""Load at the shoe: many players (WebSocket clients on loopback) betting at shared
Baccarat shoes served by two `riverboat serve` processes over PostgreSQL and a Redis of
the bench's own (tests/chaos.py's cluster), every player on either process.

Each player sits, and once every player is seated bets on every coup: Banker, $5. It
prints, over the run:

* bets acknowledged: from a bet sent to the player's own snapshot showing it (p50/p99);
* results: for each coup, from its first player's result to each other's, so the
  spread of one draw's results over everyone (p50/p99, and the last);
* coups per minute at each table, and rounds (a player's coup) a second in all;
* the two servers' CPU per player: CPU seconds per player-round, and as a share of
  the run's wall-clock time (the two servers' share of the machine);
* then the audit of the database: the ledger sums to zero, every balance its entries'.

A figure's meaning is its ratio: the results' spread against the same run's bet
acknowledgements, CPU against wall-clock time.

    python bench/shoe.py                        # 1,000 players at one shoe, 90 s
    python bench/shoe.py --players 100 --tables 10
    python bench/shoe.py --players 40 --seconds 5 --betting 3 --json   # tests/test_bench_shoe.py
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed
from websockets.typing import Origin

from arguments import at_least

# the cluster (tests/chaos.py) and riverboat are imported where they are used, so that
# --help answers without them
if TYPE_CHECKING:
    from chaos import Cluster

#: handshakes made at once (each process lets an address make a few at a time)
CONNECTING_AT_ONCE = 4
BET = {"banker": 500}


@dataclass
class Figures:
    """What the players measured, in seconds on this process's clock."""

    acks: list[float] = field(default_factory=list)
    #: each coup's results' arrival times, by (table, the coup's cards)
    results: dict[tuple[str, str], list[float]] = field(default_factory=lambda: defaultdict(list))
    refusals: list[str] = field(default_factory=list)
    reconnects: int = 0
    seated: int = 0


@dataclass
class Player:
    name: str
    token: str
    table: str
    port: int


async def _seat(player: Player, figures: Figures) -> Any:
    """A connection at the player's table, made again while the process says to try later."""
    from riverboat.web.deps import SESSION_COOKIE
    from riverboat.web.errors import CLOSE_TRY_LATER

    base = f"http://127.0.0.1:{player.port}"
    address = base.replace("http://", "ws://") + f"/ws/tables/{player.table}"
    headers = {"Cookie": f"{SESSION_COOKIE}={player.token}"}
    for _ in range(200):
        ws = await connect(
            address, origin=Origin(base), additional_headers=headers, open_timeout=30
        )
        try:
            first = json.loads(await asyncio.wait_for(ws.recv(), 30))
        except ConnectionClosed as closed:
            if closed.rcvd is not None and closed.rcvd.code == CLOSE_TRY_LATER:
                figures.reconnects += 1
                await asyncio.sleep(0.2)
                continue
            raise
        if first.get("type") == "table":
            figures.seated += 1
            return ws, first
        raise RuntimeError(f"{player.name}: the table said {first}")
    raise RuntimeError(f"{player.name}: never seated")


async def _play(
    player: Player,
    figures: Figures,
    go: asyncio.Event,
    stop: asyncio.Event,
    gate: asyncio.Semaphore,
) -> None:
    async with gate:
        ws, message = await _seat(player, figures)
    sent: float | None = None
    try:
        while True:
            kind = message.get("type")
            now = time.perf_counter()
            if kind == "table":
                mine = next((s for s in message["seats"] if s["you"]), None)
                if sent is not None and mine and mine["wagers"]:
                    figures.acks.append(now - sent)
                    sent = None
                ready = message["phase"] == "betting" and message.get("commitment")
                idle = mine is not None and not mine["wagers"] and not mine["in_round"]
                if go.is_set() and not stop.is_set() and ready and idle and sent is None:
                    sent = time.perf_counter()
                    await ws.send(json.dumps({"type": "bet", "wagers": BET}))
            elif kind == "result":
                cards = json.dumps(message["round"]["cards"], sort_keys=True)
                figures.results[(player.table, cards)].append(now)
                sent = None
            elif kind == "error":
                figures.refusals.append(message.get("message", ""))
                sent = None
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), 1.0))
            except TimeoutError:
                if stop.is_set():
                    return
                message = {"type": "idle"}
                if go.is_set() and sent is None:  # a snapshot may have come before go
                    await ws.send(json.dumps({"type": "bet", "wagers": BET}))
                    sent = time.perf_counter()
    finally:
        await ws.close()


def _cpu_seconds(pids: list[int]) -> float:
    """User and system CPU time the processes have used, in seconds."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / tick


def _percentile(values: list[float], share: float) -> float:
    """The ``share`` quantile (0.5, 0.99) of ``values``; nan for none."""
    if len(values) < 2:
        return values[0] if values else float("nan")
    return statistics.quantiles(values, n=100, method="inclusive")[round(share * 100) - 1]


async def _run(
    cluster: Cluster, players: list[Player], seconds: float
) -> tuple[Figures, float, float]:
    figures, go, stop = Figures(), asyncio.Event(), asyncio.Event()
    gate = asyncio.Semaphore(CONNECTING_AT_ONCE)
    tasks = [asyncio.create_task(_play(p, figures, go, stop, gate)) for p in players]
    while figures.seated < len(players):  # every player seated before anyone bets
        failed = next((t for t in tasks if t.done()), None)
        if failed is not None:
            failed.result()  # its error, raised here
            raise RuntimeError("a player left before the betting began")
        await asyncio.sleep(0.2)
    await asyncio.sleep(1.0)  # the last seats' first snapshots
    pids = [server.pid for server in cluster.servers.values()]
    cpu, began = _cpu_seconds(pids), time.perf_counter()
    go.set()
    await asyncio.sleep(seconds)
    stop.set()
    used, elapsed = _cpu_seconds(pids) - cpu, time.perf_counter() - began
    done = await asyncio.gather(*tasks, return_exceptions=True)
    failed = [d for d in done if isinstance(d, BaseException)]
    if failed:
        raise RuntimeError(f"{len(failed)} players failed; the first: {failed[0]!r}")
    return figures, used, elapsed


def measure(players: int, tables: int, seconds: float, betting: float) -> dict[str, Any]:
    """Run the bench; its figures."""
    from chaos import Cluster, settle_down
    from riverboat.store.state import DatabaseStore
    from riverboat.table.service import TableService
    from riverboat.web.deps import Sessions

    names = [f"p{n:05}" for n in range(players)]
    configs = [
        {"id": f"shoe-{n + 1}", "game": "baccarat", "name": f"Shoe {n + 1}"} for n in range(tables)
    ]
    with tempfile.TemporaryDirectory() as workdir:
        cluster = Cluster(
            Path(workdir), names, tables=configs, betting_seconds=betting, slowed=False
        )
        try:
            service = TableService(cluster.database)
            sessions = Sessions(DatabaseStore(service.engine))
            ports = list(cluster.servers)
            seated = [
                Player(
                    name,
                    sessions.open(cluster.players[name]),
                    configs[n % tables]["id"],
                    ports[n % 2],
                )
                for n, name in enumerate(names)
            ]
            figures, cpu, elapsed = asyncio.run(_run(cluster, seated, seconds))
            settle_down(cluster)  # the last coups' rounds settled
            problems = service.audit()  # the ledger sums to zero, every balance its entries'
            service.engine.dispose()
        finally:
            cluster.close()
    spreads = [t - min(times) for times in figures.results.values() for t in times]
    lasts = [max(times) - min(times) for times in figures.results.values()]
    coups = len(figures.results)
    rounds = sum(len(times) for times in figures.results.values())
    return {
        "players": players,
        "tables": tables,
        "seconds": round(elapsed, 1),
        "betting_seconds": betting,
        "coups": coups,
        "rounds": rounds,
        "coups_per_minute_per_table": round(coups / tables / elapsed * 60, 2),
        "rounds_per_second": round(rounds / elapsed, 1),
        "bet_ack_p50_ms": round(_percentile(figures.acks, 0.5) * 1000, 1),
        "bet_ack_p99_ms": round(_percentile(figures.acks, 0.99) * 1000, 1),
        "result_spread_p50_ms": round(_percentile(spreads, 0.5) * 1000, 1),
        "result_spread_p99_ms": round(_percentile(spreads, 0.99) * 1000, 1),
        "result_last_median_ms": round(statistics.median(lasts) * 1000, 1) if lasts else None,
        "server_cpu_ms_per_round": round(cpu / rounds * 1000, 2) if rounds else None,
        "server_cpu_share": round(cpu / elapsed, 2),
        "refusals": len(figures.refusals),
        "first_refusal": figures.refusals[0] if figures.refusals else None,
        "handshakes_told_to_wait": figures.reconnects,
        "audit_problems": problems,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=at_least(1, int), default=1000, help="in all")
    parser.add_argument("--tables", type=at_least(1, int), default=1, help="shoes they share")
    parser.add_argument("--seconds", type=at_least(5, float), default=90.0, help="of betting")
    parser.add_argument(
        "--betting", type=at_least(1, float), default=15.0, help="each coup's betting clock"
    )
    parser.add_argument("--json", action="store_true", help="the figures as one JSON line")
    args = parser.parse_args()
    import psycopg

    try:
        found = measure(args.players, args.tables, args.seconds, args.betting)
    except (AssertionError, OSError, psycopg.OperationalError) as error:
        first = str(error).splitlines()[0] if str(error) else type(error).__name__
        print(f"bench/shoe.py: the cluster could not start: {first}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(found))
        return 0
    for key, value in found.items():
        print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
