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

Each seat connects from an address of its own, as each player logs in from one: the
server budgets table handshakes and requests by address, and seats all from
127.0.0.1 were refused one another's turns; a handshake the server asks to wait
(closed with 4429 and the seconds to wait) is made again after that wait. Besides
the figures of each kind of table, each setup's row ``both`` gives the rounds of
both kinds a second and the CPU milliseconds per round of the server processes
together and of the database's backends (/proc), and the share of the machine's
cores busy meanwhile. With --repeats N the setups take turns N times and the
tables give the medians, then the spread (min-max).

One asyncio process drives every player; on a small machine the client, the servers,
PostgreSQL and Redis share the CPUs: read the ratios, measured in the same run, and
the CPU per round, which does not depend on how many cores were free.

    python bench/multi.py [--players 16] [--seats 6] [--seconds 10] [--repeats N]
                          [--json PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
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
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed
from websockets.typing import Origin

from load import (  # the load benchmark's clients and servers' helpers
    NO_HOUSE_EDGES,
    PASSWORD,
    ROOT,
    Costs,
    Tally,
    _medians,
    _spread,
    _wait_until_ready,
    add_postgres_option,
    database,
    free_port,
    log_in,
    play,
    player_address,
)

REDIS = os.environ.get("RIVERBOAT_TEST_REDIS", "redis://127.0.0.1:6379/0")
OWN_SHARED = ("own", "shared")
#: why a shared seat had to bet again, counted over the run
NOTES: Counter[str] = Counter()


@contextmanager
def serving(url: str, processes: int, prefix: str | None) -> Iterator[tuple[list[str], list[int]]]:
    """``processes`` servers on ``url`` sharing Redis under ``prefix`` (None: one
    without Redis); their bases and process ids."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), **NO_HOUSE_EDGES}
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
        yield bases, [server.pid for server in servers]
    finally:
        for server in servers:
            server.terminate()
            server.wait(timeout=30)


#: the close code of a handshake the server asked to come back later (its budget of
#: connections under way spent), and the most such refusals a seat takes
CLOSE_TRY_LATER, SITTING_TRIES = 4429, 50


def sitting(client: httpx.AsyncClient, local: str) -> connect:
    """A connection to the shared Baccarat table from address ``local`` (the seat's
    own, as its log-in's: the server budgets handshakes and requests by address, so
    seats all from 127.0.0.1 refused each other), with the client's session."""
    base = str(client.base_url).rstrip("/")
    cookie = f"riverboat_session={client.cookies['riverboat_session']}"
    address = base.replace("http://", "ws://") + "/ws/tables/baccarat"
    headers = {"Cookie": cookie}
    return connect(address, origin=Origin(base), additional_headers=headers, local_addr=(local, 0))


async def shared_seat(client: httpx.AsyncClient, local: str, until: float, tally: Tally) -> None:
    """Bet the next Baccarat coup at the shared table as soon as the last is settled; a
    handshake the server asked to wait (accepted, then closed saying when to try again)
    is made again after that wait."""
    for _ in range(SITTING_TRIES):
        try:
            async with sitting(client, local) as ws:
                await _bet_coups(ws, until, tally)
                return
        except ConnectionClosed as closed:
            if closed.rcvd is None or closed.rcvd.code != CLOSE_TRY_LATER:
                raise
            NOTES["sat down again"] += 1
            said = closed.rcvd.reason.split("try again in ")[-1].split()
            await asyncio.sleep(float(said[0]) if said else 1.0)
    raise RuntimeError(f"no seat after {SITTING_TRIES} handshakes")


async def _bet_coups(ws: ClientConnection, until: float, tally: Tally) -> None:
    """Coup after coup until ``until``: a bet, then its result."""
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
    bases: list[str], players: int, seats: int, seconds: float, server: tuple[list[int], str]
) -> dict[str, dict[str, float]]:
    """Every player, spread over ``bases`` in turn, plays for ``seconds``; their figures
    by kind of table, and (``cost``) the CPU of the servers (``server``: their process
    ids and database) and of the database's backends per round settled at either."""
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
    before = Costs.now(*server)
    began = ended = time.monotonic()
    until = began + seconds
    tasks = [play(c, until, tallies["own"], 0, random.Random(n)) for n, c in enumerate(own)]
    tasks += [
        shared_seat(c, player_address(players + n), until, tallies["shared"])
        for n, c in enumerate(sitting)
    ]
    seated = asyncio.gather(*tasks[len(own) :])
    try:  # a shared seat still waiting for a coup at the end is not waited for long
        await asyncio.wait_for(asyncio.gather(*tasks[: len(own)]), seconds + 30)
        ended = time.monotonic()  # the own-table players' last round settled
        await asyncio.wait_for(seated, max(1.0, until + 2 - ended))
    except TimeoutError:
        pass
    finally:
        seated.cancel()
        elapsed = max(seconds, ended - began)  # the window the rounds were played in
        after = Costs.now(*server)
        await asyncio.gather(*(c.aclose() for c in [*own, *sitting]))
    for kind, tally in tallies.items():
        if tally.errors:
            raise RuntimeError(f"{kind} players stopped: {tally.errors[0][:200]}")
    figures = {kind: tally.figures(elapsed) for kind, tally in tallies.items()}
    settled = sum(tally.settled for tally in tallies.values())
    figures["cost"] = {"rounds_per_s": settled / elapsed, **after.since(before, settled)}
    return figures


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
    parser.add_argument(
        "--repeats", type=int, default=1, help="runs of each setup, in turns: the medians"
    )
    parser.add_argument("--json", type=Path, help="also write every run's figures here")
    add_postgres_option(parser)
    args = parser.parse_args(argv)
    runs: dict[str, dict[str, list[dict[str, float]]]] = {}
    print(f"load average {_load()}")
    print(_header(), flush=True)
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(args.repeats):  # 1 local, 1, 2, 1 local, 1, 2, ...: the same load
            for setup, processes, redis in (("1 local", 1, False), ("1", 1, True), ("2", 2, True)):
                prefix = f"riverboat-bench-{uuid.uuid4().hex[:8]}:" if redis else None
                try:
                    with database("postgresql", Path(folder), args.postgres) as url:
                        _register(url, args.players, args.seats)
                        with serving(url, processes, prefix) as (bases, pids):
                            found = asyncio.run(
                                stretch(bases, args.players, args.seats, args.seconds, (pids, url))
                            )
                finally:
                    if prefix is not None:
                        _forget(prefix)
                for kind, figures in found.items():
                    runs.setdefault(setup, {}).setdefault(kind, []).append(figures)
                    _print_row(setup, kind, figures)
    results = {
        setup: {kind: _medians(found) for kind, found in kinds.items()}
        for setup, kinds in runs.items()
    }
    medians = f", the medians of {args.repeats} runs" if args.repeats > 1 else ""
    print(
        f"\n{args.players} own-table players (Tri-Card) and {args.seats} shared Baccarat "
        f"seats, {args.seconds:g} s{medians}; PostgreSQL + Redis; load average {_load()}"
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
        cost, was = results[new]["cost"], results[old]["cost"]
        print(
            f"{'both':<7} {cost['rounds_per_s'] / was['rounds_per_s']:>8.2f}x"
            f"  server CPU per round {cost['server_ms'] / was['server_ms']:.2f}x"
        )
    if args.repeats > 1:
        print("\nspread (min-max) over the runs: rounds/s, own and shared; server CPU ms/round")
        for setup, kinds in runs.items():
            spreads = [
                _spread([run["rounds_per_s"] for run in kinds[k]]) for k in ("own", "shared")
            ]
            spreads.append(_spread([run["server_ms"] for run in kinds["cost"]]))
            print(f"{setup:<7} " + " ".join(f"{spread:>12}" for spread in spreads))
    if NOTES:
        print("\nwhy a shared seat bet again: " + "; ".join(f"{n} x {w}" for w, n in NOTES.items()))
    if args.json:
        args.json.write_text(json.dumps({"runs": runs, "medians": results}, indent=1))
    return 0


def _load() -> str:
    return " ".join(f"{load:.2f}" for load in os.getloadavg())


def _header() -> str:
    return f"{'procs':<7} {'table':<7} {'rounds/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'again':>5}"


def _print_row(setup: str, kind: str, figures: dict[str, float]) -> None:
    if kind == "cost":  # both kinds of round together: the CPU each cost
        print(
            f"{setup:<7} {'both':<7} {figures['rounds_per_s']:9.1f}  server CPU "
            f"{figures['server_ms']:.2f} ms/round, database {figures['database_ms']:.2f}, "
            f"machine busy {figures['machine_busy']:.0%}",
            flush=True,
        )
        return
    print(
        f"{setup:<7} {kind:<7} {figures['rounds_per_s']:9.1f} {figures['p50_ms']:8.1f} "
        f"{figures['p99_ms']:8.1f} {figures['refused']:5.0f}",
        flush=True,
    )


if __name__ == "__main__":
    raise SystemExit(main())
