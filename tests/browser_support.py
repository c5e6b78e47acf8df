"""What the browser tests share: the app served on a loopback port, Debian's headless
Chromium driven by Playwright (nothing downloaded), a tab at the tables, and the taps
and checks a round needs. The fixtures built on these are in conftest.py."""

import re
import shutil
import socket
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import uvicorn
from fastapi import FastAPI
from playwright.sync_api import Browser, BrowserContext, Locator, Page, Playwright, expect

from riverboat.settings import amended
from riverboat.web.app import create_app, server_options, warm_up_server

SHOTS = Path(__file__).resolve().parent.parent / "test-artifacts" / "screenshots"


@contextmanager
def serving(
    database: Path,
    local_player: bool = True,
    *,
    options: dict[str, Any] | None = None,
    extra: Callable[[FastAPI], object] | None = None,
    **settings: Any,
) -> Iterator[str]:
    """The app on a free loopback port, in a thread, for as long as the block runs: with
    the options ``riverboat serve`` gives it (or ``options``), ``extra`` applied to the
    app first, ``settings`` the app's (``house_edges``, say) or the lobby's ``tables`` and,
    when no local player plays, the accounts ann and bob. Yields the address with its
    trailing slash."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    tables = settings.pop("tables", None)
    chosen = amended(
        database_url=f"sqlite:///{database}", local_player=local_player, rate_limit=1000, **settings
    )
    app = create_app(chosen, tables=tables)
    if not local_player:
        for name in ("ann", "bob"):
            app.state.service.register(name, "a long password")
    if extra is not None:
        extra(app)
    warm_up_server()  # as `riverboat serve` does: no first round waits for a game's first use
    settings = server_options() if options is None else options
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="critical", **settings)
    runner = uvicorn.Server(config)
    thread = threading.Thread(target=runner.run, daemon=True)
    thread.start()
    for _ in range(200):
        if runner.started:
            break
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        runner.should_exit = True
        thread.join(timeout=10)


#: a context's options in every browser test except those of the page's service worker
#: (tests/test_browser_install.py) and of the page's weight (tests/test_browser_metrics.py):
#:
#: - no worker registers, so a new context does not fetch and keep the page's files a
#:   second time (about 0.6 CPU s of the browser's and the server's a context:
#:   docs/development.md). The worker keeps only the page and its files, never an answer
#:   of the server's; and a test's ``page.route`` sees every request, none answered by
#:   the worker instead;
#: - the system's reduced motion, as a player may ask for it: the cards, chips and
#:   figures go straight to where they end. The deal's and the result's animations are
#:   drawn frame by frame in software here, and cost Chromium about a quarter of the
#:   browser tests' CPU (docs/development.md). The tests of motion itself ask for
#:   ``reduced_motion="no-preference"`` (:data:`MOTION`, or ``page.emulate_media``).
CONTEXT: dict[str, Any] = {"service_workers": "block", "reduced_motion": "reduce"}

#: the options of a test of the page's motion (animations, the balance counting up)
MOTION: dict[str, Any] = {"reduced_motion": "no-preference"}


def new_context(browser: Browser, **options: Any) -> BrowserContext:
    """``browser.new_context(**options)``, with :data:`CONTEXT`'s options unless
    ``options`` says otherwise."""
    return browser.new_context(**{**CONTEXT, **options})


def new_tab(browser: Browser, **options: Any) -> Page:
    """``browser.new_page(**options)``: a tab in a context of its own (which closes when
    the tab does), with :data:`CONTEXT`'s options unless ``options`` says otherwise."""
    return browser.new_page(**{**CONTEXT, **options})


def table_tab(server: str, browser: Browser) -> Page:
    """A new tab at the tables, its spots drawn."""
    tab = new_tab(browser, viewport={"width": 1100, "height": 800})
    tab.goto(server)
    tab.wait_for_selector(".spot")
    return tab


#: two frames drawn: by then a resize's event and the page's size observers (the action
#: bar's padding, the roads' newest column) have run, which the resize does not wait for
TWO_FRAMES = "new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"


def resize(page: Page, width: int, height: int) -> None:
    """The page at ``width`` x ``height``, laid out and drawn at that size. The page
    follows its size through media queries and size observers alone, so a resized page
    lays out as one loaded at that size."""
    page.set_viewport_size({"width": width, "height": height})
    page.evaluate(TWO_FRAMES)


def choose(page: Page, title: str) -> None:
    """The table `title`, from the table menu (opened by the table's name in the header)."""
    if not page.locator("#tables").is_visible():
        page.click("#logo")
    page.locator("#games").get_by_role("button", name=title, exact=True).click()
    expect(page.locator("#logo")).to_have_text(title)
    expect(page.locator("body")).not_to_have_attribute("data-choosing", re.compile(".*"))


def tap(page: Page, spot: str, times: int = 1) -> None:
    for _ in range(times):
        page.click(f"[data-spot={spot}]")
        page.wait_for_timeout(150)


def pick_chip(page: Page, cents: int) -> None:
    """Choose the chip of ``cents`` from the tray, opening it first where it is folded
    into the chip button (a phone)."""
    if not page.locator("#chips").is_visible():
        page.click("#chip-toggle")
    page.locator(f"#chips [data-chip='{cents}']").click()


def won(
    page: Page, *, touch: bool = False, before: Callable[[], object] | None = None, tries: int = 40
) -> dict[str, Any]:
    """Rounds dealt from the chips on the felt (a game with no decisions: Baccarat's
    Player wins about 45 coups in 100) until one wins: the winning round as the server
    answered it. Deal is tapped (``touch``) or clicked once it can be pressed, after
    ``before``, if given."""
    for _ in range(tries):
        expect(page.locator("#deal")).to_be_enabled()
        if before is not None:
            before()
        dealt = lambda r: r.request.method == "POST" and r.url.endswith("/api/rounds")  # noqa: E731
        with page.expect_response(dealt) as answer:
            if touch:
                page.locator("#deal").tap()
            else:
                page.locator("#deal").click()
        round_: dict[str, Any] = answer.value.json()
        assert round_["status"] == "settled", round_
        if round_["net"] > 0:
            return round_
    raise AssertionError(f"no win in {tries} rounds")


def finish(page: Page, name: str) -> None:
    expect(page.locator("#message")).to_contain_text("Net")
    page.wait_for_timeout(400)  # the dealing animation
    shoot(page, name)


def shoot(target: Page | Locator, name: str, **options: Any) -> None:
    """A screenshot of the page (or of one element) as a player sees it, to
    test-artifacts/screenshots/NAME.jpg, for people to look at; ``options`` are
    ``screenshot``'s (``full_page``, ``clip``...). JPEG at quality 85 reads as well as
    PNG on a screen, and Chromium makes it for about a fifth of the CPU (0.22x at
    1440x900, ``python bench/paint.py``); no test reads these files back."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    target.screenshot(path=str(SHOTS / f"{name}.jpg"), type="jpeg", quality=85, **options)


#: what every browser test's Chromium is started with: no sandbox (the tests run as
#: root in CI), no requests of the browser's own, no GPU
CHROMIUM_ARGS = ("--no-sandbox", "--disable-background-networking", "--disable-gpu")


def headless_chromium() -> str:
    """The path of the browser the tests drive: Debian's ``chromium-headless-shell``,
    else (with a warning) its full ``chromium``. The shell is the same Blink and V8
    without Chrome's browser layer, as Playwright's own headless Chromium is: a page
    load costs about 0.8 CPU s in it against 2.3 in the full browser run headless, and
    the browser tests take about three quarters of the CPU they took in the full
    browser (docs/development.md). The full browser is for what only it does: judging
    a page installable (tests/test_browser_install.py)."""
    shell = shutil.which("chromium-headless-shell")
    if shell:
        return shell
    full = shutil.which("chromium")
    assert full, "Debian's chromium-headless-shell package is needed (.ci/run installs it)"
    warnings.warn(
        "chromium-headless-shell is not installed: the browser tests drive chromium, "
        "at about 1.3 times their CPU",
        stacklevel=2,
    )
    return full


def launch_chromium(playwright: Playwright, *args: str) -> Browser:
    """The tests' headless Chromium (:func:`headless_chromium`), with
    :data:`CHROMIUM_ARGS` and ``args``."""
    return playwright.chromium.launch(
        executable_path=headless_chromium(), headless=True, args=[*CHROMIUM_ARGS, *args]
    )
