"""The table as an installable app in a real browser (Debian's Chromium driven by
Playwright, the server on 127.0.0.1, a secure context): the service worker registers
after the page has loaded and controls it from the next load, keeps the page's own
files and never an answer of the server's; without its server the page opens from
what it kept, says it needs the server and plays nothing, and starts again once the
server answers; a new install replaces the cache; Chromium finds the table
installable."""

from __future__ import annotations

import re
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, Response, expect

from riverboat.admission.gates import RateLimiter
from riverboat.settings import amended
from riverboat.web.app import create_app, server_options
from riverboat.web.routes.page import STATIC
from riverboat.web.routes.worker import WORKER, precache

from browser_support import CHROMIUM_ARGS, choose, shoot, tap

OFFLINE = "You are offline: the table deals only when it can reach its server."

# the names of the origin's caches, and nothing else: CACHED's caches.open would make a
# cache again that a worker deletes between its keys() and the open, an empty cache
# left for good beside the new one (so a test of a worker replaced polls this instead)
CACHE_NAMES = "caches.keys()"

# every cache of the origin, with the path (and query) of each request it holds
CACHED = """async () => {
  const kept = {};
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    kept[name] = (await cache.keys()).map((request) => {
      const url = new URL(request.url);
      return url.pathname + url.search;
    });
  }
  return kept;
}"""

# the registered worker's state once it is active: "activated" when its files are kept
ACTIVATED = """navigator.serviceWorker.ready.then((registration) => {
  const worker = registration.active;
  if (worker.state === "activated") return "activated";
  return new Promise((done) =>
    worker.addEventListener("statechange", () => worker.state === "activated" && done("activated"))
  );
})"""

# every violation of the page's content security policy, kept on window
RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) =>
  window.__violations.push(`${event.violatedDirective} blocked ${event.blockedURI}`));
"""


#: a phone held upright, by touch
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "has_touch": True,
    "is_mobile": True,
}


class Table:
    """The app on one loopback port, which can be stopped and served again there (a
    server that went away and came back); each start is a new app on the same database."""

    def __init__(self, database: Path) -> None:
        self.database = database
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.address = f"http://127.0.0.1:{self.port}/"
        self.runner: uvicorn.Server | None = None
        self.thread: threading.Thread | None = None
        self.app: Any = None
        self.gateway_down = False  # then every request is answered 502, as by a proxy

    def start(self) -> None:
        self.app = create_app(
            amended(database_url=f"sqlite:///{self.database}", rate_limit=1000, house_edges=False)
        )
        config = uvicorn.Config(
            self._gateway,
            host="127.0.0.1",
            port=self.port,
            log_level="critical",
            interface="asgi3",  # a bound method: uvicorn would guess ASGI 2
            **server_options(),
        )
        self.runner = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.runner.run, daemon=True)
        self.thread.start()
        for _ in range(200):
            if self.runner.started:
                return
            time.sleep(0.05)
        raise AssertionError("the server did not start")

    async def _gateway(self, scope: Any, receive: Any, send: Any) -> None:
        if self.gateway_down and scope["type"] == "http":
            await send({"type": "http.response.start", "status": 502, "headers": []})
            await send({"type": "http.response.body", "body": b"Bad Gateway"})
            return
        await self.app(scope, receive, send)

    def stop(self) -> None:
        assert self.runner is not None
        assert self.thread is not None
        self.runner.should_exit = True
        self.thread.join(timeout=10)
        assert not self.thread.is_alive()


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    """One server for the module (each browser context has a worker of its own); a test
    that stops it or changes its worker leaves it as it found it."""
    served = Table(tmp_path_factory.mktemp("install") / "install.db")
    served.start()
    yield served
    if served.thread is not None and served.thread.is_alive():
        served.stop()


class Visit:
    """A browser context of the module's (a phone, a desktop), kept from test to test with
    its tab: a first visit costs a page load and the worker's install (its files fetched
    and kept), where a tab put back at the table costs next to nothing. A test that needs
    a first visit asks for one; the others take the tab as the last test left it, online
    again and at the table."""

    def __init__(self, browser: Browser, table: Table, options: dict[str, Any]) -> None:
        self.browser, self.table, self.options = browser, table, options
        self.tab: Page | None = None

    def fits(self, options: dict[str, Any]) -> bool:
        """Whether ``options`` are this context's, but for the size of its viewport."""
        return {**options, "viewport": None} == {**self.options, "viewport": None}

    def first_visit(self, init_script: str | None = None) -> Page:
        """A tab in a new context (the one before it closed), not yet at the table."""
        self.close()
        context = self.browser.new_context(**self.options)
        if init_script is not None:
            context.add_init_script(init_script)
        self.tab = context.new_page()
        return self.tab

    def at_the_table(self, viewport: dict[str, int] | None = None) -> Page:
        """The tab at the tables, online, at the top of the page, its viewport ``viewport``
        (else the context's): the tab before, else a first visit's if there is none or its
        worker has kept another version of the page than the server's."""
        tab = self.tab
        if tab is not None:
            # sized first: a page that starts again below is then laid out at this size
            tab.set_viewport_size(viewport or self.options["viewport"])
            # asked before the network comes back: the kept shell then loads the page again
            shell = tab.evaluate("document.body.hasAttribute('data-offline')")
            tab.context.set_offline(False)
            if shell:  # it starts again by itself (within 5 s, as a player's would)
                expect(tab.locator("body")).not_to_have_attribute(
                    "data-offline", "", timeout=20_000
                )
            tab.wait_for_selector(".spot", timeout=15_000)
            if not tab.evaluate("navigator.serviceWorker.getRegistration().then(Boolean)"):
                # offline as soon as it loaded, the page could not register its worker
                tab.reload()
                tab.wait_for_selector(".spot")
            current = f"riverboat-{self.table.app.state.precache.version}"
            if any(name != current for name in tab.evaluate(CACHE_NAMES)):
                tab = None
        if tab is None:
            tab = self.first_visit()
            if viewport is not None:
                tab.set_viewport_size(viewport)
            tab.goto(self.table.address)
            tab.wait_for_selector(".spot")
        tab.evaluate("scrollTo(0, 0)")
        return tab

    def close(self) -> None:
        if self.tab is not None:
            self.tab.context.close()
            self.tab = None


#: a desktop's window, by mouse
DESKTOP: dict[str, Any] = {"viewport": {"width": 1100, "height": 800}}


@pytest.fixture(scope="module")
def desktop(browser: Browser, table: Table) -> Iterator[Visit]:
    visit = Visit(browser, table, DESKTOP)
    yield visit
    visit.close()


@pytest.fixture(scope="module")
def phone(browser: Browser, table: Table) -> Iterator[Visit]:
    visit = Visit(browser, table, PHONE)
    yield visit
    visit.close()


def installed(tab: Page) -> None:
    """Once the worker is active (its files kept), the page under it: loaded again if the
    worker does not control it yet (a worker controls the pages loaded after its install)."""
    assert tab.evaluate(ACTIVATED) == "activated"
    if not tab.evaluate("navigator.serviceWorker.controller !== null"):
        tab.reload()
        tab.wait_for_selector(".spot")
    assert tab.evaluate("navigator.serviceWorker.controller !== null")


def worker_files(tab: Page) -> list[str]:
    """The files the served worker keeps, as it lists them."""
    return list(
        tab.evaluate(
            "fetch('/sw.js').then((r) => r.text()).then((t) => "
            "JSON.parse(t.match(/^const PRECACHE = (.*);$/m)[1]))"
        )
    )


def test_the_worker_registers_after_load_and_controls_the_next_load(
    desktop: Visit, table: Table
) -> None:
    tab = desktop.first_visit(RECORD_VIOLATIONS)
    errors: list[str] = []
    tab.on(
        "console", lambda message: errors.append(message.text) if message.type == "error" else None
    )
    tab.on("pageerror", lambda error: errors.append(str(error)))
    tab.goto(table.address)
    tab.wait_for_selector(".spot")
    # registered after load, and not claiming the page it was registered from
    assert tab.evaluate("navigator.serviceWorker.ready.then((r) => r.active.scriptURL)") == (
        f"{table.address}sw.js"
    )
    assert tab.evaluate("navigator.serviceWorker.controller") is None
    version = table.app.state.precache.version
    kept = tab.evaluate(CACHED)
    assert list(kept) == [f"riverboat-{version}"]
    assert sorted(kept[f"riverboat-{version}"]) == sorted(worker_files(tab))
    assert "/static/js/install.js" in kept[f"riverboat-{version}"]
    answers: list[Response] = []
    tab.on("response", lambda answer: answers.append(answer))
    installed(tab)
    scripts = [
        answer for answer in answers if answer.url.endswith(".js") and "/static/js/" in answer.url
    ]
    assert len(scripts) > 20
    assert all(answer.from_service_worker for answer in scripts)  # the page's own, kept
    # the page itself from the server while it answers (the kept shell would be marked)
    assert any(answer.url == table.address for answer in answers)
    assert not tab.evaluate("document.body.hasAttribute('data-offline')")
    assert tab.evaluate("window.__violations") == []
    assert errors == []


def test_a_first_visit_is_never_refused_under_the_default_rate_limit(
    browser: Browser, table: Table
) -> None:
    """A first visit under ``riverboat serve``'s rate limit (60 requests a second from
    one address): the page's files and its table's requests, then the worker's install
    (its 67 files at once), all answered. With every file counted against the 60 some
    of both were refused with 429 (the table's commitment among them: no deal) and the
    install never finished; the page's files have an allowance of their own."""
    table.app.state.limiter = RateLimiter(60)  # the default's, counted in memory
    try:
        context = browser.new_context(viewport={"width": 1100, "height": 800})
        statuses: list[tuple[int, str]] = []
        context.on("response", lambda answer: statuses.append((answer.status, answer.url)))
        tab = context.new_page()
        tab.goto(table.address)
        expect(tab.locator("#fair-line")).to_have_attribute("data-commitment", re.compile("."))
        within = f"Promise.race([{ACTIVATED}, new Promise((done) => setTimeout(done, 30000))])"
        assert tab.evaluate(within) == "activated"  # an install refused in part never is
        refused = [url for status, url in statuses if status == 429]
        assert refused == []
        assert len(statuses) > 100  # the page's and the worker's, counted
        context.close()
    finally:
        table.app.state.limiter = RateLimiter(1000)


def test_no_answer_of_the_server_is_ever_kept(desktop: Visit) -> None:
    tab = desktop.at_the_table()
    installed(tab)
    answers: list[Response] = []
    tab.on("response", lambda answer: answers.append(answer))
    choose(tab, "Tri-Card Poker")
    tap(tab, "ante", 2)
    tab.click("#deal")
    tab.click("[data-action=raise]")
    expect(tab.locator("#message")).to_contain_text("Net")
    tab.click("#history-toggle")
    tab.wait_for_selector("#history li")
    from_server = [answer for answer in answers if "/api/" in answer.url]
    assert len(from_server) >= 4  # the table's, the deal, the decision, the history...
    assert not [answer.url for answer in from_server if answer.from_service_worker]
    kept = tab.evaluate(CACHED)
    assert len(kept) == 1
    urls = next(iter(kept.values()))
    assert sorted(urls) == sorted(worker_files(tab))  # nothing added while playing
    assert not [url for url in urls if url.startswith(("/api", "/ws", "/openapi"))]


def expect_offline(tab: Page) -> None:
    expect(tab.locator("#offline-note")).to_have_text(OFFLINE)
    expect(tab.locator("#offline-note")).to_be_visible()
    expect(tab.locator("body")).to_have_attribute("data-offline", "")
    assert tab.locator(".spot").count() == 0  # no table dealt: nothing came from the server
    # nothing to press: the felt, the action bar and the header are inert
    inert = tab.evaluate(
        "['#deal', '#hint', '#logo', '#rules'].map((s) => "
        "document.querySelector(s).closest('[inert]') !== null)"
    )
    assert inert == [True] * 4
    tab.keyboard.press("d")
    tab.keyboard.press("t")
    assert tab.locator("dialog[open]").count() == 0


def test_offline_the_page_opens_says_so_and_recovers(phone: Visit) -> None:
    tab = phone.at_the_table()
    installed(tab)
    context = tab.context
    context.set_offline(True)
    answer = tab.reload()
    assert answer is not None
    assert answer.from_service_worker  # the shell kept at install
    expect_offline(tab)
    audit = Axe().run(tab)
    serious = [v for v in audit.response["violations"] if v["impact"] in ("serious", "critical")]
    assert serious == [], [v["id"] for v in serious]
    context.set_offline(False)  # the page starts again by itself
    # (the worker's network may come back a moment after the page's: the page can load
    # once more from the shell, and asks again within 5 s)
    expect(tab.locator("body")).not_to_have_attribute("data-offline", "", timeout=20_000)
    tab.wait_for_selector(".spot", timeout=15_000)
    expect(tab.locator("#offline-note")).to_have_count(0)


def test_a_page_that_loses_the_network_says_so_until_it_is_back(phone: Visit) -> None:
    tab = phone.at_the_table()
    context = tab.context
    context.set_offline(True)
    expect(tab.locator("#offline-note")).to_have_text(OFFLINE)
    assert tab.evaluate("document.getElementById('action-bar').inert")
    assert tab.evaluate("document.getElementById('table').inert")
    assert not tab.evaluate("document.querySelector('header').inert")  # the pay table still opens
    note = tab.locator("#offline-note").bounding_box()
    bar = tab.locator("#action-bar").bounding_box()
    assert note is not None
    assert bar is not None
    assert 0 <= note["y"] < note["y"] + note["height"] <= bar["y"]
    context.set_offline(False)
    expect(tab.locator("#offline-note")).to_be_hidden()
    assert not tab.evaluate("document.getElementById('action-bar').inert")
    tap(tab, "ante")
    tab.click("#deal")
    expect(tab.locator("#message")).not_to_be_empty()


def test_a_server_that_went_away_and_came_back(phone: Visit, table: Table) -> None:
    """The phone reaches nothing (the server stopped, the port closed): the kept shell
    opens and says so; once the server answers again the page starts by itself."""
    tab = phone.at_the_table()
    installed(tab)
    table.stop()
    try:
        answer = tab.reload()
        assert answer is not None
        assert answer.from_service_worker
        expect_offline(tab)
        tab.wait_for_timeout(1000)
        assert tab.locator(".spot").count() == 0
    finally:
        table.start()
    tab.wait_for_selector(".spot", timeout=15_000)  # asked again every 5 s
    expect(tab.locator("body")).not_to_have_attribute("data-offline", "")


def test_a_proxy_that_cannot_reach_the_server_gets_the_kept_page_too(
    phone: Visit, table: Table
) -> None:
    """Behind a proxy the phone reaches the proxy, which answers 502 for a server that is
    down: the kept shell, not the proxy's error page."""
    tab = phone.at_the_table()
    installed(tab)
    table.gateway_down = True
    try:
        answer = tab.reload()
        assert answer is not None
        assert answer.status == 200
        expect_offline(tab)
        tab.wait_for_timeout(6000)  # asked again once (502): still the kept page
        expect_offline(tab)
    finally:
        table.gateway_down = False
    tab.wait_for_selector(".spot", timeout=15_000)  # the proxy reaches it again
    expect(tab.locator("body")).not_to_have_attribute("data-offline", "")


def test_chromium_finds_the_table_installable(
    browser: Browser, table: Table, tmp_path: Path
) -> None:
    """In a profile of its own (an incognito context, as Playwright's are, is never
    installable): the manifest parses with no error and Chromium lists no reason the
    table could not be installed. The full Chromium: the headless shell the other tests
    drive does not run Chrome's installability check (its list of reasons is empty for
    every page, a blank one included), so an empty list proves nothing there."""
    chromium = shutil.which("chromium")
    assert chromium, "Debian's chromium package is needed (.ci/run installs it)"
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"),
        executable_path=chromium,
        headless=True,
        args=list(CHROMIUM_ARGS),
    )
    tab = context.new_page()
    tab.goto(table.address)
    tab.wait_for_selector(".spot")
    installed(tab)
    devtools = context.new_cdp_session(tab)
    manifest = devtools.send("Page.getAppManifest")
    assert manifest["url"] == f"{table.address}static/manifest.webmanifest"
    assert manifest["errors"] == []
    parsed = manifest["manifest"]
    assert (parsed["name"], parsed["display"], parsed["startUrl"]) == (
        "riverboat",
        "kStandalone",
        table.address,
    )
    assert devtools.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    # this browser does check: the API's page, which links no manifest, has that reason
    bare = context.new_page()
    bare.goto(f"{table.address}docs")
    reasons = context.new_cdp_session(bare).send("Page.getInstallabilityErrors")
    assert "no-manifest" in {error["errorId"] for error in reasons["installabilityErrors"]}, reasons
    context.close()


TOUCH = {"has_touch": True, "is_mobile": True}
SCREENS: dict[str, dict[str, Any]] = {
    "phone": {"viewport": {"width": 390, "height": 844}, **TOUCH},
    "phone-sideways": {"viewport": {"width": 844, "height": 390}, **TOUCH},
    "narrow": {"viewport": {"width": 320, "height": 640}, **TOUCH},
    "desktop": {"viewport": {"width": 1440, "height": 900}},
}


@pytest.mark.parametrize("screen", list(SCREENS))
def test_the_offline_page_fits_every_screen(phone: Visit, desktop: Visit, screen: str) -> None:
    """Wherever the page was scrolled, the note is in sight just above the action bar and
    nothing scrolls sideways. On the phone's or the desktop's tab, sized for the screen."""
    visit = next(visit for visit in (phone, desktop) if visit.fits(SCREENS[screen]))
    tab = visit.at_the_table(SCREENS[screen]["viewport"])
    installed(tab)
    tab.evaluate("scrollTo(0, document.documentElement.scrollHeight)")  # kept over the reload
    tab.context.set_offline(True)
    tab.reload()
    expect(tab.locator("#offline-note")).to_be_visible()
    width, height = SCREENS[screen]["viewport"]["width"], SCREENS[screen]["viewport"]["height"]
    note = tab.locator("#offline-note").bounding_box()
    bar = tab.locator("#action-bar").bounding_box()
    assert note is not None
    assert bar is not None
    assert note["x"] >= 0
    assert note["x"] + note["width"] <= width
    assert note["y"] >= 0
    assert note["y"] + note["height"] <= bar["y"] <= height
    assert tab.evaluate("document.documentElement.scrollWidth") <= width
    shoot(tab, f"offline-{screen}")


def test_a_new_install_replaces_the_cache(desktop: Visit, table: Table, tmp_path: Path) -> None:
    """Last of the desktop's tests: its worker is then another riverboat's (a test after
    it would have a first visit)."""
    tab = desktop.at_the_table()
    installed(tab)
    first = table.app.state.precache.version
    assert tab.evaluate(CACHE_NAMES) == [f"riverboat-{first}"]
    changed = tmp_path / "sw.js"  # another riverboat: its worker (so its version) differs
    changed.write_text(WORKER.read_text() + "\n// the next release\n")
    table.app.state.precache = precache(STATIC, changed)
    second = table.app.state.precache.version
    assert second != first
    try:
        replaced(tab, second)
    finally:
        table.app.state.precache = precache(STATIC)


def replaced(tab: Page, second: str) -> None:
    tab.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.update())")
    for _ in range(150):  # the new worker installs, activates and deletes the old cache
        if tab.evaluate(CACHE_NAMES) == [f"riverboat-{second}"]:
            break
        tab.wait_for_timeout(100)
    assert tab.evaluate(CACHE_NAMES) == [f"riverboat-{second}"]
    assert tab.evaluate(ACTIVATED) == "activated"
    tab.reload()
    tab.wait_for_selector(".spot")
    assert list(tab.evaluate(CACHED)) == [f"riverboat-{second}"]
