"""The first deal on a fresh install: from the page loaded to the first round's cards,
and from the server's start to every pay table's house edges known.

Each run starts ``riverboat serve`` in a fresh process on a free loopback port, with an
empty analysis cache (``RIVERBOAT_CACHE_DIR``; ``--analysis kept`` leaves the
environment's, whose tables a second start reads instead of counting), a new SQLite file
and, unless ``--numba kept``, an empty ``NUMBA_CACHE_DIR`` (a fresh install has compiled
nothing yet; ``kept`` leaves numba's cache beside the sources, as a developer's tree or
a second start has it). As soon as the server accepts connections, Debian's Chromium
(launched beforehand, a new browser context each run: nothing cached, its service worker
registered as on a first visit unless ``--no-worker``) opens the table as a player does;
once the table is loaded (drawn, its commitment shown), it taps the first game's Ante
and presses Deal. Meanwhile another client, from an address of its own, asks
``/api/games`` every half second until every game's house edges and strategy card are in
it.

Figures, in seconds from the server process's start unless said: listening; the page
loaded; the first round's cards (the answer to the deal) and, the target, the page
loaded to those cards, Deal pressed to them, and the deal's request sent to its
answer received (the browser's own timing: the server's part); every edge known; and
the requests the server refused (429). A figure never reached (a table that did not load) is NaN and
left out of the medians; the runs that dealt are counted. With ``--base REV`` the same
runs are made with that commit's code (a temporary detached git worktree; or
``--base-tree PATH``, one made beforehand), taking turns, and the ratios of the
medians (this tree / REV) are printed.

The machine's load (``/proc/loadavg``) is printed before and after: on a shared
machine the figures move with it, so read the ratios of runs made side by side.

    python bench/first_deal.py [--runs 3] [--base REV | --base-tree PATH]
                               [--numba fresh|kept] [--analysis fresh|kept]
                               [--no-worker] [--edges-wait 600]
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import httpx
from playwright.sync_api import Browser, Page, sync_playwright
from playwright.sync_api import Error as PlaywrightError

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from load import checked_out, free_port  # noqa: E402  (bench/load.py)

#: the figures of one run, in the order printed
FIGURES = (
    ("listening", "start to listening"),
    ("page", "start to page loaded"),
    ("cards", "start to first cards"),
    ("page_to_cards", "page loaded to first cards"),
    ("deal_to_cards", "Deal pressed to cards"),
    ("deal_answered", "the deal's request to its answer"),
    ("edges", "start to every edge known"),
)
#: the page loaded: its table chosen and drawn, the next deal's commitment shown
LOADED = (
    "() => document.querySelector('#fair-line')?.dataset.commitment"
    " && !document.body.dataset.choosing && !!document.querySelector('[data-spot]')"
)
#: what the page shows when it did not load: its commitment line, the table being
#: chosen, the spots drawn, the table's message
STATE = (
    "() => [document.querySelector('#fair-line')?.outerHTML, document.body.dataset.choosing,"
    " document.querySelectorAll('[data-spot]').length,"
    " document.querySelector('#message')?.textContent]"
)


def load() -> str:
    """The load averages over 1, 5 and 15 minutes."""
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


@contextmanager
def server(tree: Path, folder: Path, numba: str, analysis: str) -> Iterator[tuple[str, float]]:
    """``riverboat serve`` of ``tree`` in a fresh process (a session of its own, so
    its children stop with it), its address and the moment it started."""
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(tree / "src")}
    if analysis == "fresh":
        env["RIVERBOAT_CACHE_DIR"] = str(folder / "analysis")
    if numba == "fresh":
        env["NUMBA_CACHE_DIR"] = str(folder / "numba")
    else:
        env.pop("NUMBA_CACHE_DIR", None)
    database = f"sqlite:///{folder / 'first.db'}"
    command = [sys.executable, "-m", "riverboat", "serve", "--port", str(port)]
    started = time.monotonic()
    process = subprocess.Popen(
        [*command, "--database", database],
        env=env,
        cwd=tree,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        yield f"http://127.0.0.1:{port}", started
    finally:
        # the server's children (an edge worker has a session of its own) stop with it
        children = descendants(process.pid)
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        gone(children)


def descendants(pid: int) -> list[int]:
    """The processes ``pid`` started, and theirs (Linux's /proc)."""
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            children = [int(child) for child in (task / "children").read_text().split()]
        except OSError:
            continue
        for child in children:
            found += [child, *descendants(child)]
    return found


def gone(pids: list[int]) -> None:
    """Wait until ``pids`` have ended (the server's edge worker ends once the server
    has), killing any left after 10 s: the next run starts on a quiet machine."""
    deadline = time.monotonic() + 10
    for pid in pids:
        while alive(pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        if alive(pid):
            os.kill(pid, signal.SIGKILL)


def alive(pid: int) -> bool:
    """Running, not ended (a zombie waits only for its parent to read its status)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def listening(address: str, deadline: float) -> float:
    port = int(address.rsplit(":", 1)[1])
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return time.monotonic()
        except OSError:
            time.sleep(0.01)
    raise RuntimeError("the server did not listen within its time")


def complete(games: list[dict[str, object]]) -> bool:
    """Every game's edges and, for a game with decisions, its strategy card."""
    return all(
        game.get("edges") is not None and (game.get("strategy_card") or not game.get("options"))
        for game in games
    )


def watch_edges(address: str, stop: threading.Event, found: dict[str, float]) -> None:
    """Ask for the games every half second, from an address of its own (the page's rate
    limit is not spent), until every edge is in them."""
    transport = httpx.HTTPTransport(local_address="127.0.0.9")
    with httpx.Client(base_url=address, timeout=30, transport=transport) as client:
        while not stop.is_set():
            try:
                answer = client.get("/api/games")
                if answer.status_code == 200 and complete(answer.json()):
                    found["edges"] = time.monotonic()
                    return
            except (httpx.HTTPError, ValueError):
                pass
            stop.wait(0.5)


def one_run(
    tree: Path, browser: Browser, *, numba: str, analysis: str, worker: bool, edges_wait: float
) -> dict[str, float]:
    """One fresh server of ``tree`` and one player's first deal: the figures (NaN for
    those never reached: a table that did not load, its requests refused)."""
    nan = float("nan")
    with tempfile.TemporaryDirectory() as folder:
        context = browser.new_context(
            viewport={"width": 1100, "height": 800},
            service_workers="allow" if worker else "block",
        )
        refused: list[str] = []
        context.on("response", lambda r: refused.append(r.url) if r.status == 429 else None)
        page = context.new_page()
        times: dict[str, float] = {}
        stop = threading.Event()
        with server(tree, Path(folder), numba, analysis) as (address, started):
            times["listening"] = listening(address, started + 120)
            watcher = threading.Thread(target=watch_edges, args=(address, stop, times))
            watcher.start()
            try:
                page.goto(address + "/", timeout=120_000)
                first_deal(page, times)
                watcher.join(edges_wait)
            finally:
                stop.set()
                watcher.join()
                context.close()
        figures = {name: times.get(name, nan) - started for name, _ in FIGURES}
        figures["page_to_cards"] = times.get("cards", nan) - times.get("page", nan)
        figures["deal_to_cards"] = times.get("deal_to_cards", nan)
        figures["deal_answered"] = times.get("deal_answered", nan)
        figures["refused"] = len(refused)
        return figures


def first_deal(page: Page, times: dict[str, float]) -> None:
    """Once the table is loaded, a chip on its first spot and Deal: the moments the
    table loaded and the cards came, and how long after Deal they came."""
    try:
        page.wait_for_function(LOADED, timeout=60_000)
    except PlaywrightError:  # the table never loaded (say its requests were refused)
        print(f"the table did not load: {page.evaluate(STATE)}", file=sys.stderr)
        return
    times["page"] = time.monotonic()
    page.locator("[data-spot]").first.click()
    deal = page.locator("#deal")
    page.wait_for_function("() => !document.querySelector('#deal').disabled")
    dealt = lambda r: r.request.method == "POST" and r.url.endswith("/api/rounds")  # noqa: E731
    with page.expect_response(dealt, timeout=120_000) as answer:
        pressed = time.monotonic()
        deal.click()
    if not answer.value.ok:
        print(f"the deal was refused: {answer.value.text()}", file=sys.stderr)
        return
    times["cards"] = time.monotonic()
    times["deal_to_cards"] = times["cards"] - pressed
    answer.value.finished()
    timing = answer.value.request.timing  # milliseconds from the request's start
    times["deal_answered"] = (timing["responseEnd"] - timing["requestStart"]) / 1000


def spread(values: list[float]) -> str:
    known = [v for v in values if v == v]
    if not known:
        return "never"
    median = statistics.median(known)
    return f"{median:6.2f} ({min(known):.2f}-{max(known):.2f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="fresh starts per version")
    parser.add_argument("--base", metavar="REV", help="the same runs with REV's code too")
    parser.add_argument("--base-tree", type=Path, help="or with the code in this tree")
    parser.add_argument("--numba", choices=("fresh", "kept"), default="fresh")
    parser.add_argument("--analysis", choices=("fresh", "kept"), default="fresh")
    parser.add_argument(
        "--no-worker", action="store_true", help="the page without its service worker"
    )
    parser.add_argument(
        "--edges-wait", type=float, default=600, help="seconds a run waits for every edge"
    )
    options = parser.parse_args()
    chromium = shutil.which("chromium")
    if not chromium:
        sys.exit("Debian's chromium package is needed: apt-get install chromium")
    print(f"load average before: {load()}  ({os.cpu_count()} CPUs)")
    results: dict[str, list[dict[str, float]]] = {}
    with ExitStack() as stack:
        trees = {"this tree": ROOT}
        if options.base_tree:
            options.base = str(options.base_tree)
            trees = {options.base: options.base_tree, **trees}
        elif options.base:
            trees = {options.base: stack.enter_context(checked_out(options.base)), **trees}
        playwright = stack.enter_context(sync_playwright())
        browser = playwright.chromium.launch(
            executable_path=chromium,
            args=["--no-sandbox", "--disable-background-networking", "--disable-gpu"],
        )
        for run in range(options.runs):
            order = list(trees.items())
            for name, tree in order if run % 2 == 0 else order[::-1]:
                figures = one_run(
                    tree,
                    browser,
                    numba=options.numba,
                    analysis=options.analysis,
                    worker=not options.no_worker,
                    edges_wait=options.edges_wait,
                )
                results.setdefault(name, []).append(figures)
                shown = "  ".join(f"{key} {figures[key]:.2f}" for key, _ in FIGURES)
                print(f"run {run + 1}, {name}: {shown}  refused {figures['refused']:.0f}")
        browser.close()
    print(f"load average after: {load()}")
    worker = "blocked" if options.no_worker else "allowed"
    print(
        f"\nseconds, median (min-max) of {options.runs} runs, numba cache {options.numba}, "
        f"analysis cache {options.analysis}, service worker {worker}:"
    )
    width = max(len(label) for _, label in FIGURES)
    print(f"{'':{width}}  " + "  ".join(f"{name:>20}" for name in results))
    for key, label in FIGURES:
        cells = [spread([r[key] for r in runs]) for runs in results.values()]
        print(f"{label:{width}}  " + "  ".join(f"{cell:>20}" for cell in cells))
    dealt = [
        f"{sum(r['cards'] == r['cards'] for r in runs)} of {len(runs)}" for runs in results.values()
    ]
    print(f"{'runs that dealt':{width}}  " + "  ".join(f"{cell:>20}" for cell in dealt))
    refused = [str(sum(int(r["refused"]) for r in runs)) for runs in results.values()]
    print(f"{'requests refused (429)':{width}}  " + "  ".join(f"{cell:>20}" for cell in refused))
    if options.base:
        before, after = results[options.base], results["this tree"]
        print(f"\nthis tree / {options.base}, ratio of the medians:")
        for key, label in FIGURES:
            old, new = median([r[key] for r in before]), median([r[key] for r in after])
            print(f"{label:{width}}  {new / old:6.2f}x")


def median(values: list[float]) -> float:
    """The median of the figures a run reached (NaN if none did)."""
    known = [v for v in values if v == v]
    return statistics.median(known) if known else float("nan")


if __name__ == "__main__":
    main()
