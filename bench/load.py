"""Load on the web table: N simulated players over loopback, on SQLite and PostgreSQL.

Starts `riverboat serve`'s app with uvicorn in a child process (shared-server mode),
registers N players, and lets each play Tri-Card rounds (deal, then raise) for a
fixed time. Then up to seven of them sit at the shared Baccarat table over
WebSockets and bet every coup for the same time. Prints settled rounds per second and
the p50/p99 latency (of the HTTP requests; of a bet's answer at the shared table),
for each database; the PostgreSQL figure is shown as a ratio to SQLite's, measured in
the same run. Bounded: at most twice --seconds per database, loopback only.

    python bench/load.py [--players 8] [--seconds 10] [--postgres URL_WITHOUT_DATABASE]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable

import httpx
from websockets.sync.client import connect

_SERVER = """
import sys, uvicorn
from riverboat.web.app import create_app
app = create_app(sys.argv[1], local_player=False, rate_limit=100000, house_edges=False)
for i in range(int(sys.argv[3])):
    try:
        app.state.service.register(f"player{i}", "load-test-password")
    except ValueError:
        pass
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[2]), log_level="warning")
"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def log_in(client: httpx.Client, number: int) -> dict[str, str]:
    """Log in as the numbered player; the headers (CSRF token) for its requests."""
    client.get("/")
    headers = {"X-CSRF-Token": client.cookies["riverboat_csrf"]}
    login = {"name": f"player{number}", "password": "load-test-password"}
    client.post("/api/login", json=login, headers=headers).raise_for_status()
    return {"X-CSRF-Token": client.cookies["riverboat_csrf"]}  # renewed at log-in


def run(url: str, players: int, seconds: float) -> dict[str, float]:
    port = free_port()
    server = subprocess.Popen([sys.executable, "-c", _SERVER, url, str(port), str(players)])
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                httpx.get(base + "/api/games", timeout=1)
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        latencies: list[float] = []
        settled = [0]
        lock = threading.Lock()
        stop = time.monotonic() + seconds

        errors: list[str] = []

        def player(number: int) -> None:
            with httpx.Client(base_url=base, timeout=30) as client:
                headers = log_in(client, number)

                def post(path: str, body: dict[str, object]) -> httpx.Response:
                    began = time.perf_counter()
                    response = client.post(path, json=body, headers=headers)
                    with lock:
                        latencies.append(time.perf_counter() - began)
                    return response

                while time.monotonic() < stop:
                    dealt = post("/api/rounds", {"game": "tri-card", "wagers": {"ante": 500}})
                    if dealt.status_code == 422 and "balance" in dealt.text:
                        post("/api/top-up", {})
                        continue
                    if dealt.status_code != 200:
                        errors.append(dealt.text)
                        return
                    done = post(f"/api/rounds/{dealt.json()['id']}/actions", {"action": "raise"})
                    if done.status_code != 200:
                        errors.append(done.text)
                        return
                    with lock:
                        settled[0] += 1

        duration = _all_at_once(player, players)
        if errors:
            raise RuntimeError(f"{len(errors)} players stopped: {errors[0]}")
        return {
            **_figures(settled[0] / duration, latencies),
            **{f"shared_{k}": v for k, v in shared(base, min(players, 7), seconds).items()},
        }
    finally:
        server.terminate()
        server.wait(timeout=10)


def _all_at_once(player: Callable[[int], None], players: int) -> float:
    """Run ``player(0)`` ... ``player(players - 1)`` in threads; the seconds they took."""
    threads = [threading.Thread(target=player, args=(n,)) for n in range(players)]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.monotonic() - started


def _figures(rate: float, latencies: list[float]) -> dict[str, float]:
    latencies.sort()
    return {
        "rounds_per_s": rate,
        "p50_ms": statistics.median(latencies) * 1000,
        "p99_ms": latencies[int(len(latencies) * 0.99) - 1] * 1000,
        "requests": len(latencies),
    }


def shared(base: str, players: int, seconds: float) -> dict[str, float]:
    """``players`` at the shared Baccarat table, each betting every coup: settled player
    rounds per second, and how long a bet waits for its result (the coup deals when
    the last seat has bet, so this includes waiting for the others)."""
    latencies: list[float] = []
    settled = [0]
    lock = threading.Lock()
    stop = time.monotonic() + seconds
    going = [True]  # decided once per coup for every seat: no one bets alone at the end
    ready = threading.Barrier(players, action=lambda: going.__setitem__(0, time.monotonic() < stop))
    errors: list[str] = []

    def player(number: int) -> None:
        with httpx.Client(base_url=base, timeout=30) as client:
            client.post("/api/top-up", headers=log_in(client, number))
            cookie = f"riverboat_session={client.cookies['riverboat_session']}"
        socket_url = base.replace("http://", "ws://") + "/ws/tables/baccarat"
        with connect(socket_url, origin=base, additional_headers={"Cookie": cookie}) as table:  # type: ignore[arg-type]
            while True:
                ready.wait()  # every seat decides at once whether to bet again
                if not going[0]:
                    break
                began = time.perf_counter()
                table.send('{"type": "bet", "wagers": {"banker": 500}}')
                while True:
                    message = json.loads(table.recv())
                    if message["type"] == "result":
                        break
                    if message["type"] == "error":
                        errors.append(message["message"])
                        return
                with lock:
                    latencies.append(time.perf_counter() - began)
                    settled[0] += 1

    duration = _all_at_once(player, players)
    if errors:
        raise RuntimeError(f"{len(errors)} shared-table players stopped: {errors[0]}")
    return _figures(settled[0] / duration, latencies)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--postgres", default="postgresql+psycopg://postgres@127.0.0.1:5432")
    args = parser.parse_args(argv)
    results = {}
    with tempfile.TemporaryDirectory() as folder:
        results["sqlite"] = run(
            f"sqlite:///{os.path.join(folder, 'load.db')}", args.players, args.seconds
        )
    import psycopg

    name = f"riverboat_load_{uuid.uuid4().hex[:8]}"
    admin = args.postgres.replace("postgresql+psycopg://", "postgresql://") + "/postgres"
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    try:
        results["postgresql"] = run(f"{args.postgres}/{name}", args.players, args.seconds)
    finally:
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    print(f"{args.players} players over loopback, {args.seconds:g} s each, Tri-Card deal + raise")
    header = f"{'database':<11} {'rounds/s':>9} {'p50 ms':>8} {'p99 ms':>8} {'requests':>9}"
    print(f"{header} {'vs sqlite':>10}")
    for prefix in ("", "shared_"):
        if prefix:
            seated = min(args.players, 7)
            print(f"\n{seated} players at the shared Baccarat table (WebSockets), every coup")
            print(header.replace("requests", "bets    "), f"{'vs sqlite':>10}")
        base = results["sqlite"][f"{prefix}rounds_per_s"]
        for name_, figures in results.items():
            rate = figures[f"{prefix}rounds_per_s"]
            print(
                f"{name_:<11} {rate:9.1f} {figures[f'{prefix}p50_ms']:8.1f} "
                f"{figures[f'{prefix}p99_ms']:8.1f} {figures[f'{prefix}requests']:9.0f} "
                f"{rate / base:9.2f}x"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
