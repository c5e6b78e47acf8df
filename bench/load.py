"""Load on the web table: N simulated players over loopback, on SQLite and PostgreSQL.

Starts `riverboat serve`'s app with uvicorn in a child process (shared-server mode),
registers N players, and lets each play Tri-Card rounds (deal, then raise) for a
fixed time. Prints settled rounds per second and the p50/p99 latency of the requests,
for each database; the PostgreSQL figure is shown as a ratio to SQLite's, measured in
the same run. Bounded: at most --seconds per database, loopback only.

    python bench/load.py [--players 8] [--seconds 10] [--postgres URL_WITHOUT_DATABASE]
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid

import httpx

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
                client.get("/")
                headers = {"X-CSRF-Token": client.cookies["riverboat_csrf"]}
                login = {"name": f"player{number}", "password": "load-test-password"}
                client.post("/api/login", json=login, headers=headers).raise_for_status()

                def post(path: str, body: dict[str, object]) -> httpx.Response:
                    began = time.perf_counter()
                    response = client.post(path, json=body, headers=headers)
                    with lock:
                        latencies.append(time.perf_counter() - began)
                    return response

                while time.monotonic() < stop:
                    dealt = post("/api/rounds", {"game": "tri-card", "wagers": {"ante": 500}})
                    if dealt.status_code == 400 and "balance" in dealt.text:
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

        threads = [threading.Thread(target=player, args=(n,)) for n in range(players)]
        started = time.monotonic()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        duration = time.monotonic() - started
        if errors:
            raise RuntimeError(f"{len(errors)} players stopped: {errors[0]}")
        latencies.sort()
        return {
            "rounds_per_s": settled[0] / duration,
            "p50_ms": statistics.median(latencies) * 1000,
            "p99_ms": latencies[int(len(latencies) * 0.99) - 1] * 1000,
            "requests": len(latencies),
        }
    finally:
        server.terminate()
        server.wait(timeout=10)


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
    base = results["sqlite"]["rounds_per_s"]
    for name_, figures in results.items():
        ratio = figures["rounds_per_s"] / base
        print(
            f"{name_:<11} {figures['rounds_per_s']:9.1f} {figures['p50_ms']:8.1f} "
            f"{figures['p99_ms']:8.1f} {figures['requests']:9.0f} {ratio:9.2f}x"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
