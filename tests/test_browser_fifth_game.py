"""Two-Card Showdown, the plug-in game of tests/plugins, in the browser: it is in the
table menu, takes chips, deals, decides and shows its result, by touch on a phone and
by mouse on a desktop, drawn from its spec alone (the page names no game)."""

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from browser_support import new_tab, serving, shoot


@pytest.fixture
def plugin_server(showdown: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with serving(tmp_path_factory.mktemp("fifth") / "fifth.db", local_player=True) as address:
        yield address


@pytest.mark.parametrize(
    ("width", "height", "touch"), [(390, 844, True), (844, 390, True), (1440, 900, False)]
)
def test_a_round_of_the_fifth_game(
    plugin_server: str, browser: Browser, width: int, height: int, touch: bool
) -> None:
    page = new_tab(
        browser, viewport={"width": width, "height": height}, is_mobile=touch, has_touch=touch
    )
    page.goto(plugin_server)
    page.wait_for_selector(".spot")
    logo = page.locator("#logo")
    logo.tap() if touch else logo.click()
    button = page.locator("#games").get_by_role("button", name="Two-Card Showdown", exact=True)
    button.tap() if touch else button.click()
    expect(logo).to_have_text("Two-Card Showdown")
    page.wait_for_load_state("networkidle")
    ante = page.locator("[data-spot=ante]")
    ante.tap() if touch else ante.click()
    expect(ante).to_have_class(re.compile("circle--staked"))
    expect(page.locator("#balance")).not_to_have_text("$1,000")  # the bet is taken off
    deal = page.locator("#deal")
    deal.tap() if touch else deal.click()
    play = page.locator("[data-action=play]").first
    expect(play).to_contain_text("Play $")  # the decision shows its stake
    page.wait_for_timeout(600)  # the deal's animation
    shoot(page, f"fifth-game-decision-{width}x{height}")
    play.tap() if touch else play.click()
    expect(page.locator("#message")).to_contain_text("Net")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.wait_for_timeout(600)  # the deal and the chips' animation
    shoot(page, f"fifth-game-result-{width}x{height}")
    page.close()
