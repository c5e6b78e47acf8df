"""The web layer's own cost per request: the CPU the app spends on POST /api/rounds
and POST /api/rounds/{id}/actions outside the table service, this tree against a
baseline ref's, measured in the same run.

A child process per version builds the app (``create_app`` on a fresh SQLite file,
no house edges, a rate limit no round reaches, the host names ``riverboat serve``
allows on a loopback address; then ``freeze_startup``, where the version has it, as
``serve`` does), logs a player in, then drives the ASGI app directly (no sockets, no
HTTP client: a scope, a body, the answer's messages collected) for --rounds Tri-Card
rounds, deal then raise, one request at a time. It reads the process's CPU time
around the rounds, the event loop's (the main thread's), and the service's: each
service call's CPU time in the thread that runs it (``time.thread_time``:
``TableService.start_round`` and ``act`` wrapped) plus the SQLite writer thread's
(group commit: the service's writes run there); what the app spends outside the
service is the difference. The children run in turn, --repeats times each (the
machine is shared: of each version's repeats, the one that spent least outside the
service is reported, and the ratios compare versions measured in the same run).

With --served (and --baseline-ref) both versions' ``riverboat serve`` run at once
instead, each on a fresh SQLite file under --players saturating players (Tri-Card,
deal then raise, over loopback, from one client process: ``bench/load.py``'s), for
--stretches stretches of --seconds; each server's CPU time (Linux's ``/proc``) per
settled round, uvicorn included, is printed stretch by stretch. Both meet the same
machine at the same moment, so CPU per round compares them where rounds per second,
one version after the other, swing with whatever else the machine runs.

    python bench/requests.py [--rounds 400] [--repeats 3] [--baseline-ref GIT_REF]
    python bench/requests.py --served --baseline-ref GIT_REF [--players 32]
                             [--seconds 12] [--stretches 4]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from contextlib import ExitStack, nullcontext
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import load  # noqa: E402  (bench/load.py: a ref in a temporary worktree, its players)

PASSWORD = "bench-password-long-enough"
CSRF = "bench-csrf-token-0123456789"
WARM_UP = 30  # rounds played before the timing starts (imports, caches, the pool)
#: the host names `riverboat serve` on a loopback address answers to (and no other)
LOOPBACK = ["127.0.0.1", "localhost", "[::1]", "::1"]
#: the name of the thread that runs an SQLite engine's writes (riverboat.store.commits)
WRITER = "riverboat-writer"


class Driver:
    """Requests straight into an ASGI app, one at a time: the answer's status and body."""

    def __init__(self, app: Any) -> None:
        self.app, self.cookies = app, {"riverboat_csrf": CSRF}

    async def post(self, path: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        data = json.dumps(body).encode()
        cookie = "; ".join(f"{k}={v}" for k, v in self.cookies.items()).encode()
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "POST",
            "scheme": "http",
            "path": path,
            "raw_path": path.encode(),
            "root_path": "",
            "query_string": b"",
            "headers": [
                (b"host", b"127.0.0.1:8000"),
                (b"content-type", b"application/json"),
                (b"content-length", str(len(data)).encode()),
                (b"accept-encoding", b"gzip, deflate"),
                (b"x-csrf-token", CSRF.encode()),
                (b"cookie", cookie),
            ],
            "client": ("127.0.0.1", 50000),
            "server": ("127.0.0.1", 8000),
        }
        sent = False
        answer: dict[str, Any] = {"body": b""}

        async def receive() -> dict[str, Any]:
            nonlocal sent
            if sent:
                await asyncio.sleep(3600)  # no disconnect while the app answers
            sent = True
            return {"type": "http.request", "body": data, "more_body": False}

        async def send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                answer["status"], answer["headers"] = message["status"], message["headers"]
            else:
                answer["body"] += message.get("body", b"")

        await self.app(scope, receive, send)
        for name, value in answer["headers"]:
            if name == b"set-cookie":
                key, _, rest = value.decode().partition("=")
                self.cookies[key] = rest.split(";", 1)[0]
        return answer["status"], json.loads(answer["body"]) if answer["body"] else {}


def _timed(method: Callable[..., Any], spent: list[float]) -> Callable[..., Any]:
    def timed(*args: Any, **kwargs: Any) -> Any:
        began = time.thread_time()
        try:
            return method(*args, **kwargs)
        finally:
            spent[0] += time.thread_time() - began

    return timed


def _writers_cpu() -> dict[int, float]:
    """Each living writer thread's CPU seconds so far, by thread id."""
    spent = {}
    for thread in threading.enumerate():
        if thread.name == WRITER and thread.ident is not None:
            try:
                clock = time.pthread_getcpuclockid(thread.ident)
                spent[thread.ident] = time.clock_gettime(clock)
            except (OSError, ProcessLookupError):  # it ended meanwhile
                continue
    return spent


async def _rounds(rounds: int) -> dict[str, float]:
    from riverboat.settings import amended
    from riverboat.web import app as web_app
    from riverboat.web.app import create_app

    folder = tempfile.mkdtemp()
    app = create_app(
        amended(
            database_url=f"sqlite:///{folder}/bench.db",
            local_player=False,
            house_edges=False,
            rate_limit=10**9,
            allowed_hosts=LOOPBACK,
        )
    )
    freeze = getattr(web_app, "freeze_startup", None)
    if freeze is not None:  # as `riverboat serve` does before it serves, in a tree that does
        freeze()
    service = app.state.service
    service.register("bench", PASSWORD)
    driver = Driver(app)
    status, said = await driver.post("/api/login", {"name": "bench", "password": PASSWORD})
    assert status == 200, said
    driver.cookies["riverboat_csrf"] = CSRF  # the header keeps the bench's token

    spent = [0.0]
    service.start_round = _timed(service.start_round, spent)
    service.act = _timed(service.act, spent)

    async def play(count: int) -> None:
        for _ in range(count):
            status, dealt = await driver.post(
                "/api/rounds", {"game": "tri-card", "wagers": {"ante": 500}}
            )
            if status == 422 and "balance" in dealt["error"]:
                await driver.post("/api/top-up", {})
                continue
            assert status == 200, dealt
            status, done = await driver.post(
                f"/api/rounds/{dealt['id']}/actions", {"action": "raise"}
            )
            assert status == 200, done
            assert done["status"] == "settled", done

    await play(WARM_UP)
    spent[0] = 0.0
    writers = _writers_cpu()
    began_cpu, began_loop = time.process_time(), time.thread_time()
    began_wall = time.perf_counter()
    await play(rounds)
    cpu, wall = time.process_time() - began_cpu, time.perf_counter() - began_wall
    loop = time.thread_time() - began_loop
    # a writer that ended during the rounds is not counted (it idles out after seconds)
    written = sum(now - writers.get(ident, 0.0) for ident, now in _writers_cpu().items())
    service = spent[0] + written
    requests = 2 * rounds
    return {
        "cpu_ms": cpu / requests * 1000,
        "service_ms": service / requests * 1000,
        "outside_ms": (cpu - service) / requests * 1000,
        "loop_ms": loop / requests * 1000,
        "wall_ms": wall / requests * 1000,
    }


def child(rounds: int) -> None:
    """Run in the version's tree: print its figures as JSON."""
    print(json.dumps(asyncio.run(_rounds(rounds))))


def measure(tree: Path, rounds: int) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    command = [sys.executable, str(ROOT / "bench" / "requests.py"), "--child", str(rounds)]
    done = subprocess.run(command, env=env, cwd=tree, capture_output=True, text=True, check=True)
    figures: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def _server_cpu(port: str) -> float:
    """The CPU seconds so far of the `riverboat serve` listening on ``port``."""
    for entry in Path("/proc").iterdir():
        try:
            command = (entry / "cmdline").read_bytes().split(b"\0")
            if b"serve" not in command or port.encode() not in command:
                continue
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # not a process, or one that ended meanwhile
            continue
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    raise LookupError(f"no server on port {port}")


def served(ref: str, players: int, seconds: float, stretches: int) -> None:
    """This tree's server and ``ref``'s at once, each under ``players`` players."""

    async def run(bases: dict[str, str]) -> None:
        groups = {
            version: await asyncio.gather(
                *(
                    load.log_in(base, load.player_address(n + at), f"player{n}", load.PASSWORD)
                    for n in range(players)
                )
            )
            for at, (version, base) in zip((0, players), bases.items(), strict=True)
        }
        ports = {version: base.rsplit(":", 1)[1] for version, base in bases.items()}
        print(f"{'stretch':<8} {'version':<8} {'rounds/s':>9} {'CPU ms a round':>15}")
        for number in range(1, stretches + 1):
            before = {version: _server_cpu(port) for version, port in ports.items()}
            done = await asyncio.gather(*(load.stretch(c, seconds) for c in groups.values()))
            for (version, port), figures in zip(ports.items(), done, strict=True):
                spent = _server_cpu(port) - before[version]
                rounds = figures["rounds_per_s"] * seconds
                each = spent / rounds * 1000 if rounds else float("nan")
                print(f"{number:<8} {version:<8} {figures['rounds_per_s']:9.1f} {each:15.2f}")
        for clients in groups.values():
            await asyncio.gather(*(c.aclose() for c in clients))

    with load.checked_out(ref) as old, ExitStack() as servers:
        folder = Path(tempfile.mkdtemp())
        bases = {
            version: servers.enter_context(
                load.serving(tree, f"sqlite:///{folder / f'{version}.db'}", players)
            )
            for version, tree in (("new", ROOT), ("old", old))
        }
        asyncio.run(run(bases))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=400)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--baseline-ref", help="also measure this git ref: new/old ratios")
    parser.add_argument("--served", action="store_true", help="both servers at once")
    parser.add_argument("--players", type=int, default=32, help="with --served: per server")
    parser.add_argument("--seconds", type=float, default=12.0, help="with --served")
    parser.add_argument("--stretches", type=int, default=4, help="with --served")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.child)
        return 0
    if args.served:
        if not args.baseline_ref:
            parser.error("--served compares with --baseline-ref")
        served(args.baseline_ref, args.players, args.seconds, args.stretches)
        return 0
    trees = {"new": ROOT}
    baseline = load.checked_out(args.baseline_ref) if args.baseline_ref else nullcontext(None)
    with baseline as old:
        if old is not None:
            trees["old"] = old
        best: dict[str, dict[str, float]] = {}
        for _ in range(args.repeats):
            for version, tree in trees.items():
                figures = measure(tree, args.rounds)
                print(
                    f"{version}: " + ", ".join(f"{k} {v:.3f}" for k, v in figures.items()),
                    flush=True,
                )
                kept = best.get(version)
                if kept is None or figures["outside_ms"] < kept["outside_ms"]:
                    best[version] = figures
    print(
        f"\nTri-Card deal + raise straight into the ASGI app, {args.rounds} rounds; "
        f"CPU ms per request, best of {args.repeats}"
    )
    columns = ("cpu_ms", "service_ms", "outside_ms", "loop_ms", "wall_ms")
    print(f"{'version':<8} " + " ".join(f"{c.removesuffix('_ms'):>8}" for c in columns))
    for version, figures in best.items():
        print(f"{version:<8} " + " ".join(f"{figures[c]:8.3f}" for c in columns))
    if "old" in best:
        new, old = best["new"], best["old"]
        outside, total = old["outside_ms"] / new["outside_ms"], old["cpu_ms"] / new["cpu_ms"]
        loop = old["loop_ms"] / new["loop_ms"]
        print(
            f"old / new: outside the service {outside:.2f}x, the event loop {loop:.2f}x, "
            f"in all {total:.2f}x"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
