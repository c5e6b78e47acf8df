"""The page under its content security policy, in a real browser (Debian's Chromium
driven by Playwright): a round of Tri-Card plays and nothing the page does is
blocked by the policy (no inline script, no inline style, nothing from elsewhere)."""

from __future__ import annotations

import shutil
import socket
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import uvicorn
from playwright.sync_api import Browser, expect, sync_playwright

from riverboat.web.app import create_app, server_options
from riverboat.web.guards import CONTENT_SECURITY_POLICY

#: every violation the page reports, kept on ``window`` for the test to read
RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__violations.push(
    `${event.violatedDirective} blocked ${event.blockedURI || "inline"} at ` +
    `${event.sourceFile}:${event.lineNumber} ${event.sample}`);
});
"""


@contextmanager
def _serving(database: Path) -> Iterator[str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    app = create_app(f"sqlite:///{database}", rate_limit=1000, house_edges=False)
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", **server_options()
    )
    runner = uvicorn.Server(config)
    thread = threading.Thread(target=runner.run, daemon=True)
    thread.start()
    for _ in range(100):
        if runner.started:
            break
        time.sleep(0.1)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        runner.should_exit = True
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    chromium = shutil.which("chromium")
    assert chromium, "Debian's chromium package is needed (.ci/run installs it)"
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=chromium,
            headless=True,
            args=["--no-sandbox", "--disable-background-networking", "--disable-gpu"],
        )
        yield launched
        launched.close()


def test_a_tri_card_round_runs_under_the_content_security_policy(
    browser: Browser, tmp_path: Path
) -> None:
    with _serving(tmp_path / "csp.db") as server:
        page = browser.new_page(viewport={"width": 1100, "height": 800})
        page.add_init_script(RECORD_VIOLATIONS)
        answer = page.goto(server)
        assert answer is not None
        assert answer.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
        page.wait_for_selector(".spot")
        page.locator("#games").get_by_role("button", name="Tri-Card Poker", exact=True).click()
        expect(page.locator("#logo")).to_have_text("Tri-Card Poker")
        for _ in range(2):
            page.click("[data-spot=ante]")
            page.wait_for_timeout(150)
        page.click("#deal")
        page.click("[data-action=raise]")
        expect(page.locator("#message")).to_contain_text("Net")
        page.wait_for_timeout(500)  # the dealing animation, and any late report
        violations = page.evaluate("window.__violations")
        page.close()
    found = Counter(violations)
    listed = "\n".join(f"{count} x {violation}" for violation, count in found.items())
    assert not found, f"the page breaks its policy:\n{listed}"
