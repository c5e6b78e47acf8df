"""What Chromium spends drawing the table: its CPU for a Tri-Card round (a chip, Deal,
Fold) with this tree's page files against a baseline ref's, and for a screenshot as
PNG against JPEG, measured in the same run.

Serves the app (``riverboat serve``'s options, a fresh SQLite file, no house-edge
worker, whose CPU would count) and opens the table in Debian's headless Chromium shell
with the test contexts' options (reduced motion, no service worker). For the rounds,
contexts with this tree's page files and with the baseline's take turns ``--repeats``
times, ``--rounds`` rounds each after one unmeasured round. Every ``/static/`` file is
answered by the bench, from this tree's folder or from ``git show REF:...``, alike for
both, so that both pay the same for the answering; the server is the same. A
context's CPU is that of every process this one started (the browser, its renderers,
Playwright's driver) and its own (the server's threads), per round. The screenshots
are of the same table at 1440x900, the two formats taking turns. Medians, and each
ratio is the new figure over the old one (below 1: cheaper).

    python bench/paint.py [--baseline-ref ef609b4] [--rounds 8] [--repeats 5]
                          [--width 390] [--height 844] [--shots 8]
"""

from __future__ import annotations

import argparse
import mimetypes
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from first_deal import descendants  # bench/first_deal.py
from load import ROOT, TICK  # bench/load.py
from worktrees import is_commit  # bench/worktrees.py

# Playwright and the app (tests/browser_support.py) are imported where they are used, so
# that --help answers without them
if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, Route

STATIC = "src/riverboat/web/static/"


def cpu_seconds() -> float:
    """CPU seconds of this process and of every process under it, living or reaped
    (each one's own and its reaped children's: a closed tab's renderer is reaped by
    Chromium's zygote)."""
    total = 0
    for pid in [os.getpid(), *descendants(os.getpid())]:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # ended meanwhile: counted by its parent once reaped
            continue
        total += sum(int(field) for field in fields[11:15])
    return total / TICK


def page_files(ref: str | None) -> Callable[[Route], None]:
    """A route handler answering each ``/static/`` file with its bytes in this tree
    (``ref`` None) or at ``ref``."""
    kept: dict[str, bytes | None] = {}

    def read(path: str) -> bytes | None:
        if ref is None:
            file = ROOT / STATIC / path
            return file.read_bytes() if file.is_file() else None
        command = ["git", "-C", str(ROOT), "show", f"{ref}:{STATIC}{path}"]
        shown = subprocess.run(command, capture_output=True)
        return shown.stdout if shown.returncode == 0 else None

    def answer(route: Route) -> None:
        path = route.request.url.split("/static/", 1)[1].split("?", 1)[0]
        if path not in kept:
            kept[path] = read(path)
        body = kept[path]
        if body is None:
            route.fulfill(status=404, body=b"")
            return
        kind = mimetypes.guess_type(path)[0] or "application/octet-stream"
        route.fulfill(status=200, body=body, content_type=kind)

    return answer


def play_round(page: Page) -> None:
    """A chip on the Ante, Deal, and Fold, to the result."""
    from playwright.sync_api import expect

    if page.locator("#clear").is_enabled():
        page.click("#clear")
    page.click("[data-spot=ante]")
    expect(page.locator("#deal")).to_be_enabled()
    page.click("#deal")
    expect(page.locator("[data-action=fold]")).to_be_visible()
    page.click("[data-action=fold]")
    expect(page.locator("#message")).to_contain_text("Net")


def round_cost(
    browser: Browser, server: str, size: dict[str, int], rounds: int, ref: str | None
) -> float:
    """CPU seconds a round in a new context, with ``ref``'s page files (None: this
    tree's)."""
    from browser_support import CONTEXT, choose

    context = browser.new_context(**CONTEXT, viewport=size)
    try:
        page = context.new_page()
        page.route("**/static/**", page_files(ref))
        page.goto(server)
        page.wait_for_selector(".spot")
        choose(page, "Tri-Card Poker")
        play_round(page)
        start = cpu_seconds()
        for _ in range(rounds):
            play_round(page)
        return (cpu_seconds() - start) / rounds
    finally:
        context.close()


def shot_cost(page: Page, kind: str, shots: int, folder: Path) -> float:
    """CPU seconds a screenshot of ``page`` as ``kind`` ("png" or "jpeg")."""
    start = cpu_seconds()
    for number in range(shots):
        if kind == "png":
            page.screenshot(path=str(folder / f"{number}.png"))
        else:
            page.screenshot(path=str(folder / f"{number}.jpg"), type="jpeg", quality=85)
    return (cpu_seconds() - start) / shots


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline-ref", default="ef609b4", help="git ref of the old page files")
    parser.add_argument("--rounds", type=int, default=8, help="rounds measured a context")
    parser.add_argument("--repeats", type=int, default=5, help="contexts of each, taking turns")
    parser.add_argument("--width", type=int, default=390)
    parser.add_argument("--height", type=int, default=844)
    parser.add_argument("--shots", type=int, default=8, help="screenshots of each format a turn")
    args = parser.parse_args()
    for name in ("rounds", "repeats", "width", "height", "shots"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be 1 or more, not {getattr(args, name)}")
    if not is_commit(args.baseline_ref):
        parser.error(f"--baseline-ref {args.baseline_ref!r} is no commit of this repository")
    from playwright.sync_api import sync_playwright

    from browser_support import CONTEXT, launch_chromium, serving

    size = {"width": args.width, "height": args.height}
    rounds: dict[str, list[float]] = {"new": [], "old": []}
    shots: dict[str, list[float]] = {"png": [], "jpeg": []}
    with (
        tempfile.TemporaryDirectory() as folder,
        serving(Path(folder) / "paint.db", house_edges=False) as server,
        sync_playwright() as playwright,
    ):
        browser = launch_chromium(playwright)
        for turn in range(args.repeats):
            print(f"turn {turn + 1} of {args.repeats}", file=sys.stderr, flush=True)
            rounds["new"].append(round_cost(browser, server, size, args.rounds, None))
            rounds["old"].append(round_cost(browser, server, size, args.rounds, args.baseline_ref))
        page = browser.new_page(**CONTEXT, viewport={"width": 1440, "height": 900})
        page.goto(server)
        page.wait_for_selector(".spot")
        for _ in range(args.repeats):
            for kind in shots:
                shots[kind].append(shot_cost(page, kind, args.shots, Path(folder)))
        browser.close()
    new, old = statistics.median(rounds["new"]), statistics.median(rounds["old"])
    png, jpeg = statistics.median(shots["png"]), statistics.median(shots["jpeg"])
    print(f"Chromium's CPU, medians of {args.repeats}; ratio = new / old")
    print(f"{'what':<34}{'new s':>8}{'old s':>8}{'ratio':>8}")
    where = f"{args.width}x{args.height}"
    print(
        f"{'Tri-Card round ' + where + ' vs ' + args.baseline_ref:<34}"
        f"{new:>8.3f}{old:>8.3f}{new / old:>7.2f}x"
    )
    print(f"{'screenshot 1440x900 JPEG vs PNG':<34}{jpeg:>8.3f}{png:>8.3f}{jpeg / png:>7.2f}x")


if __name__ == "__main__":
    main()
