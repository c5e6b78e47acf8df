"""The page under its content security policy, in a real browser (Debian's Chromium
driven by Playwright): a round of Tri-Card plays and nothing the page does is
blocked by the policy (no inline script, no inline style, nothing from elsewhere)."""

from __future__ import annotations

from collections import Counter

from playwright.sync_api import Browser, expect

from riverboat.web.guards import CONTENT_SECURITY_POLICY

from browser_support import choose, new_tab

#: every violation the page reports, kept on ``window`` for the test to read
RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__violations.push(
    `${event.violatedDirective} blocked ${event.blockedURI || "inline"} at ` +
    `${event.sourceFile}:${event.lineNumber} ${event.sample}`);
});
"""


def test_a_tri_card_round_runs_under_the_content_security_policy(
    browser: Browser, server: str
) -> None:
    page = new_tab(browser, viewport={"width": 1100, "height": 800})
    page.add_init_script(RECORD_VIOLATIONS)
    answer = page.goto(server)
    assert answer is not None
    assert answer.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    page.wait_for_selector(".spot")
    choose(page, "Tri-Card Poker")
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
