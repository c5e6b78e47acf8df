"""Load across server processes: 1 and then 2 `riverboat serve` processes on one
PostgreSQL database and Redis (docs/deploy.md), players spread over them.

Own-table players play Tri-Card (deal, then raise) over HTTP, as in bench/load.py,
whose clients this reuses; shared-table players sit at the one Baccarat table over
WebSockets, each betting the next coup as soon as the last is settled (a coup is
dealt once every seated player has bet, so the table goes at its slowest seat's
pace, and with 2 processes half the seats are on the process that does not run the
table: their bets and results cross Redis). Both kinds play at once for --seconds.
The figures are settled rounds per second and the p50/p99 of a request (own table)
or of a bet until its result (shared table), for 1 and 2 processes in the same run,
and the ratios of 2 to 1. One process without Redis (the tables in its memory, as
by default, here on PostgreSQL) runs first as the peer that shows what running
the tables through Redis and the database costs one process.

One asyncio process drives every player; on a small machine the client, the servers,
PostgreSQL and Redis share the CPUs: read the ratios, measured in the same run.

    python bench/multi.py [--players 16] [--seats 6] [--seconds 10]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
from websockets.asyncio.client import connect
from websockets.typing import Origin

from load import (  # the load benchmark's clients and servers' helpers
    PASSWORD,
    ROOT,
    Tally,
    _wait_until_ready,
    add_postgres_option,
    database,
    free_port,
    log_in,
    play,
    player_address,
)

REDIS = os.environ.get("RIVERBOAT_TEST_REDIS", "redis://127.0.0.1:6379/0")
#: why a shared seat had to bet again, counted over the run
NOTES: Counter[str] = Counter()


@contextmanager
def serving(url: str, processes: int, prefix: str | None) -> Iterator[list[str]]:
    """``processes`` servers on ``url`` sharing Redis under ``prefix`` (None: one
    without Redis); their bases."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    env.pop("RIVERBOAT_REDIS_URL", None)
    if prefix is not None:
        env |= {"RIVERBOAT_REDIS_URL": REDIS, "RIVERBOAT_REDIS_PREFIX": prefix}
    servers: list[subprocess.Popen[bytes]] = []
    bases = []
    try:
        for _ in range(processes):
            port = free_port()
            command = [sys.executable, "-m", "riverboat", "serve", "--port", str(port)]
            command += ["--database", url]
            servers.append(
                subprocess.Popen(
                    command,
                    env=env,
                    cwd=ROOT,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )
            bases.append(f"http://127.0.0.1:{port}")
        for base, server in zip(bases, servers, strict=True):
            _wait_until_ready(base, server)
        yield bases
    finally:
        for server in servers:
            server.terminate()
            server.wait(timeout=30)


async def shared_seat(client: httpx.AsyncClient, until: float, tally: Tally) -> None:
    """Bet the next Baccarat coup at the shared table as soon as the last is settled."""
    base = str(client.base_url).rstrip("/")
    cookie = f"riverboat_session={client.cookies['riverboat_session']}"
    address = base.replace("http://", "ws://") + "/ws/tables/baccarat"
    async with connect(address, origin=Origin(base), additional_headers={"Cookie": cookie}) as ws:
        while time.monotonic() < until:
            began = time.perf_counter()
            await ws.send(json.dumps({"type": "bet", "wagers": {"banker": 500}}))
            while True:
                message = json.loads(await ws.recv())
                if message["type"] == "result":
                    tally.latencies.append(time.perf_counter() - began)
                    tally.settled += 1
                    break
                if message["type"] == "error":
                    said = message["message"]
                    if "balance" in said:
                        tally.errors.append(said)
                        return
                    if message.get("code") == "note" and not said.startswith("not dealt in"):
                        continue  # the table's note: the coup goes on
                    NOTES[said.split(":")[0]] += 1
                    tally.refused += 1  # refused, or not dealt in: bet again
                    await asyncio.sleep(0.05)
                    break


async def stretch(
    bases: list[str], players: int, seats: int, seconds: float
) -> dict[str, dict[str, float]]:
    """Every player, spread over ``bases`` in turn, plays for ``seconds``."""
    own = await asyncio.gather(
        *(
            log_in(bases[n % len(bases)], player_address(n), f"player{n}", PASSWORD)
            for n in range(players)
        )
    )
    sitting = await asyncio.gather(
        *(
            log_in(bases[n % len(bases)], player_address(players + n), f"seat{n}", PASSWORD)
            for n in range(seats)
        )
    )
    tallies = {"own": Tally(), "shared": Tally()}
    began = time.monotonic()
    until = began + seconds
    tasks = [play(c, until, tallies["own"]) for c in own]
    tasks += [shared_seat(c, until, tallies["shared"]) for c in sitting]
    try:  # a shared seat still waiting for a coup at the end is not waited for
        await asyncio.wait_for(asyncio.gather(*tasks), seconds + 30)
    except TimeoutError:
        pass
    finally:
        await asyncio.gather(*(c.aclose() for c in [*own, *sitting]))
    elapsed = time.monotonic() - began
    for kind, tally in tallies.items():
        if tally.errors:
            raise RuntimeError(f"{kind} players stopped: {tally.errors[0][:200]}")
    return {kind: tally.figures(elapsed) for kind, tally in tallies.items()}


def _register(url: str, players: int, seats: int) -> None:
    from riverboat.table.service import TableService

    service = TableService(url)
    names = [f"player{n}" for n in range(players)] + [f"seat{n}" for n in range(seats)]
    for name in names:
        service.register(name, PASSWORD)
    service.engine.dispose()


def _forget(prefix: str) -> None:
    """Delete this run's Redis keys (its prefix's alone)."""
    import redis

    client = redis.Redis.from_url(REDIS)
    for key in client.scan_iter(match=f"{prefix}*"):
        client.delete(key)
    client.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--players", type=int, default=16, help="own-table players")
    parser.add_argument("--seats", type=int, default=6, help="shared Baccarat seats (max 7)")
    parser.add_argument("--seconds", type=float, default=10)
    add_postgres_option(parser)
    args = parser.parse_args(argv)
    results: dict[str, dict[str, dict[str, float]]] = {}
    print(_header(), flush=True)
    with tempfile.TemporaryDirectory() as folder:
        for setup, processes, redis in (("1 local", 1, False), ("1", 1, True), ("2", 2, True)):
            prefix = f"riverboat-bench-{uuid.uuid4().hex[:8]}:" if redis else None
            try:
                with database("postgresql", Path(folder), args.postgres) as url:
                    _register(url, args.players, args.seats)
                    with serving(url, processes, prefix) as bases:
                        results[setup] = asyncio.run(
                            stretch(bases, args.players, args.seats, args.seconds)
                        )
            finally:
                if prefix is not None:
                    _forget(prefix)
            for kind, figures in results[setup].items():
                _print_row(setup, kind, figures)
    print(
        f"\n{args.players} own-table players (Tri-Card) and {args.seats} shared Baccarat "
        f"seats, {args.seconds:g} s; PostgreSQL + Redis"
    )
    print(_header())
    for setup, kinds in results.items():
        for kind, figures in kinds.items():
            _print_row(setup, kind, figures)
    for title, new, old in (
        ("2 processes / 1, both on Redis", "2", "1"),
        ("1 process on Redis / 1 without", "1", "1 local"),
    ):
        print(f"\n{title}, same run")
        print(f"{'table':<7} {'rounds/s':>9} {'p50':>7} {'p99':>7}")
        for kind in ("own", "shared"):
            ratios = [
                results[new][kind][k] / results[old][kind][k]
                for k in ("rounds_per_s", "p50_ms", "p99_ms")
            ]
            print(f"{kind:<7} {ratios[0]:>8.2f}x {ratios[1]:>6.2f}x {ratios[2]:>6.2f}x")
    if NOTES:
        print("\nwhy a shared seat bet again: " + "; ".join(f"{n} x {w}" for w, n in NOTES.items()))
    return 0


def _header() -> str:
    return f"{'procs':<7} {'table':<7} {'rounds/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'again':>5}"


def _print_row(setup: str, kind: str, figures: dict[str, float]) -> None:
    print(
        f"{setup:<7} {kind:<7} {figures['rounds_per_s']:9.1f} {figures['p50_ms']:8.1f} "
        f"{figures['p99_ms']:8.1f} {figures['refused']:5.0f}",
        flush=True,
    )


if __name__ == "__main__":
    raise SystemExit(main())
