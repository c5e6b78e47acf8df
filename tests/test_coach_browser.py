"""The coach on the web page: the switch in the table menu (and key c), off at first and
remembered; after a decision a verdict line by the decisions and the visit's tally in
the menu, from the server's verdict, in dollars; the verdict's and the hint's figures
behind a Details tap. Screenshots at 390 and 1440 px wide go to
test-artifacts/screenshots/."""

import re
from collections.abc import Iterator

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, Response, expect

from riverboat.money import format_money, readable_cents
from riverboat.table.advice import tally_words

from browser_support import choose, new_tab, shoot, tap


@pytest.fixture(params=[(390, 844), (1440, 900)], ids=["phone", "wide"])
def tab(request: pytest.FixtureRequest, server: str, browser: Browser) -> Iterator[Page]:
    width, height = request.param
    page = new_tab(browser, viewport={"width": width, "height": height})
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
    verdicts = []
    for _ in range(2):
        tab.click("#deal")
        expect(tab.locator("[data-action=fold]")).to_be_visible()
        with tab.expect_response(_verdict) as answer:
            tab.locator("[data-action=fold]").click()
        verdict = answer.value.json()
        verdicts.append(verdict)
        line = tab.locator("#coach-line")
        expect(line).to_be_visible()
        expect(line).to_contain_text(verdict["text"])
        assert verdict["action"] == "fold"
        expect(line).to_have_class("coach-line coach-best" if verdict["best"] else "coach-line")
        tab.wait_for_timeout(400)  # the dealing animation
    shoot(tab, f"coach-verdict-{width}")
    tab.click("#logo")
    # the visit's tally in dollars, the page's rounding the server's (readable_cents)
    best = sum(v["best"] for v in verdicts)
    said = tally_words(2, best, sum(v["ev_cost_cents"] for v in verdicts))
    expect(tab.locator("#coach-session")).to_have_text(f"This visit: {said[0].upper()}{said[1:]}")
    expect(tab.locator("#coach-session")).not_to_contain_text("Antes")
    shoot(tab, f"coach-menu-{width}")
    tab.locator("#tables .close").click()
    tab.reload()  # remembered
    tab.wait_for_selector(".spot")
    expect(tab.locator("#coach-toggle")).to_be_checked()
    expect(tab.locator("#coach-session")).to_contain_text("2 decisions")
    tab.keyboard.press("c")
    expect(tab.locator("#coach-toggle")).not_to_be_checked()


def _hinted(response: Response) -> bool:
    return response.url.endswith("/hint") and response.request.method == "GET"


def test_the_hint_and_the_verdicts_in_words_with_the_figures_behind_details(tab: Page) -> None:
    width = tab.viewport_size["width"] if tab.viewport_size else 0
    choose(tab, "Tri-Card Poker")
    tab.keyboard.press("c")  # the coach on
    tap(tab, "ante")  # $5
    said = []
    for round_ in ("best", "worst"):
        tab.click("#deal")
        expect(tab.locator("[data-action=fold]")).to_be_visible()
        with tab.expect_response(_hinted) as answer:
            tab.click("#hint")
        hint = answer.value.json()
        box = tab.locator("#hint-box")
        # the words first, the best option in bold, no analyzer's units
        expect(box.locator(".hint-words > p")).to_have_text(hint["text"])
        best = hint["options"][0]["label"]
        expect(box.locator("strong")).to_have_text(f"Best: {best}.")
        assert "On average, with your $5 Ante, it " in hint["text"]
        assert "Antes" not in hint["text"]
        # the figures per $1 of Ante behind Details: closed, then opened by the keyboard
        figures = box.locator(".advice-details > p")
        expect(figures).to_be_hidden()
        summary = box.locator("summary")
        size = summary.bounding_box()
        assert size
        assert size["height"] >= 44
        summary.focus()
        tab.keyboard.press("Enter")
        expect(figures).to_be_visible()
        expect(figures).to_have_text(hint["details"])
        for option in hint["options"]:
            expect(figures).to_contain_text(option["label"])
        if round_ == "best":
            shoot(tab, f"hint-words-{width}")
            _no_grave_violation(tab)
        # the best option, then (the next round) the worst, as the hint ranks them
        chosen = hint["options"][0 if round_ == "best" else -1]
        with tab.expect_response(_verdict) as answer:
            tab.locator(f"[data-action={chosen['action']}]").click()
        verdict = answer.value.json()
        line = tab.locator("#coach-line")
        expect(line).to_contain_text(verdict["text"])
        text = line.locator(":scope > span:not(.coach-mark)")
        expect(text).to_have_text(verdict["text"])  # no "#11" before it
        if round_ == "best":
            assert verdict["best"]
            assert verdict["text"] == f"Coach: {chosen['label']} was the best play."
        else:
            assert not verdict["best"]
            assert re.fullmatch(
                rf"Coach: {re.escape(best)} was better: on average, with your \$5 Ante, it "
                rf"(loses|wins|comes out) (about \$[\d.]+|less than \$0\.01) "
                rf"(less than|more than|ahead of) {re.escape(chosen['label'])}\.",
                verdict["text"],
            )
        assert "Antes" not in verdict["text"]
        behind = line.locator(".advice-details > p")
        expect(behind).to_be_hidden()  # the figures behind Details, a tap away
        line.locator("summary").click()
        expect(behind).to_be_visible()
        expect(behind).to_have_text(verdict["details"])
        assert verdict["details"].startswith("Expected value per $1 of Ante: ")
        said.append(verdict)
        tab.wait_for_timeout(400)  # the dealing animation
        if round_ == "worst":
            shoot(tab, f"coach-details-{width}")
            _no_grave_violation(tab)
    assert tab.evaluate("document.documentElement.scrollWidth") <= width  # no sideways scroll
    tab.keyboard.press("c")  # off again, for the next test's tab


def _no_grave_violation(page: Page) -> None:
    violations = Axe().run(page).response["violations"]
    grave = [(v["id"], v["impact"]) for v in violations if v["impact"] in ("serious", "critical")]
    assert not grave


def test_the_page_rounds_amounts_for_reading_as_the_server_does(tab: Page) -> None:
    amounts = [0.3, 6.6, 84.5, 99.5, 341.7, -845.0, 999.96, 1249.9, 16360.0, 0.0]
    shown = tab.evaluate(
        "(amounts) => import('/static/js/advice.js').then((m) => amounts.map((c) => "
        "[m.readable(c), m.about(c)]))",
        amounts,
    )
    for cents, (rounded, words) in zip(amounts, shown, strict=True):
        assert rounded == readable_cents(cents), cents
        want = format_money(abs(readable_cents(cents)))
        assert words == (f"about {want}" if readable_cents(cents) else "less than $0.01")
