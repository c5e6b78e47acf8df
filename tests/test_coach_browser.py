"""The coach on the web page: the switch in the table menu (and key c), off at first and
remembered; after a decision a verdict line by the decisions and the visit's tally in
the menu, from the server's verdict. Screenshots at 390 and 1440 px wide go to
test-artifacts/screenshots/."""

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, Response, expect

from browser_support import SHOTS, choose, tap


@pytest.fixture(params=[(390, 844), (1440, 900)], ids=["phone", "wide"])
def tab(request: pytest.FixtureRequest, server: str, browser: Browser) -> Iterator[Page]:
    width, height = request.param
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(server)
    page.wait_for_selector(".spot")
    yield page
    page.close()


def _verdict(response: Response) -> bool:
    return "/coach?" in response.url and response.request.method == "GET"


def test_the_coach_says_each_verdict_and_keeps_the_tally(tab: Page) -> None:
    width = tab.viewport_size["width"] if tab.viewport_size else 0
    choose(tab, "Tri-Card Poker")
    expect(tab.locator("#coach-toggle")).not_to_be_checked()  # off at first
    tab.keyboard.press("c")
    expect(tab.locator("#message")).to_have_text(
        "Coach on: after each decision it says whether it was the best play, and what "
        "another cost."
    )
    expect(tab.locator("#coach-toggle")).to_be_checked()
    tap(tab, "ante")
    for _ in range(2):
        tab.click("#deal")
        expect(tab.locator("[data-action=fold]")).to_be_visible()
        with tab.expect_response(_verdict) as answer:
            tab.locator("[data-action=fold]").click()
        verdict = answer.value.json()
        line = tab.locator("#coach-line")
        expect(line).to_be_visible()
        expect(line).to_contain_text(verdict["text"])
        assert verdict["action"] == "fold"
        expect(line).to_have_class("coach-line coach-best" if verdict["best"] else "coach-line")
        tab.wait_for_timeout(400)  # the dealing animation
    tab.screenshot(path=str(SHOTS / f"coach-verdict-{width}.png"))
    tab.click("#logo")
    expect(tab.locator("#coach-session")).to_contain_text("This visit: 2 decisions, ")
    tab.screenshot(path=str(SHOTS / f"coach-menu-{width}.png"))
    tab.locator("#tables .close").click()
    tab.reload()  # remembered
    tab.wait_for_selector(".spot")
    expect(tab.locator("#coach-toggle")).to_be_checked()
    expect(tab.locator("#coach-session")).to_contain_text("2 decisions")
    tab.keyboard.press("c")
    expect(tab.locator("#coach-toggle")).not_to_be_checked()
