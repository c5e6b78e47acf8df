"""Refill on a phone: a balance drained below the table's minimum is offered Refill in
the header and in the status line when a chip is refused; the refill brings the
balance back to $1,000 and the history drawer lists it among the rounds, by time, with
the starting credit."""

import re
from collections.abc import Iterator

import pytest
from axe_playwright_python.sync_playwright import Axe
from fastapi import FastAPI
from playwright.sync_api import Browser, Page, expect

from riverboat.table.service import TableService

from browser_support import SHOTS, serving

LEFT = 300  # $3: below every table's minimum


def _drain(app: FastAPI) -> None:
    """The local player's balance folded away to :data:`LEFT`, through the service."""
    service: TableService = app.state.service
    me = service.local_player()
    while (left := service.balance(me)) > LEFT:
        view = service.start_round(me, "tri-card", {"ante": min(50_000, left - LEFT)})
        service.act(me, view.id, "fold")
    assert service.balance(me) == LEFT


@pytest.fixture(scope="module")
def drained(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    database = tmp_path_factory.mktemp("refill") / "refill.db"
    with serving(database, local_player=True, extra=_drain, house_edges=False) as address:
        yield address


@pytest.fixture
def phone(drained: str, browser: Browser) -> Iterator[Page]:
    tab = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    tab.goto(drained)
    tab.wait_for_selector(".spot")
    yield tab
    tab.close()


def test_a_drained_player_refills_and_the_history_lists_it(phone: Page) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    expect(phone.locator("#balance")).to_have_text("$3")
    refill = phone.locator("#refill")
    expect(refill).to_be_visible()
    box = refill.bounding_box()
    assert box is not None
    assert box["height"] >= 44  # a touch target
    assert box["width"] >= 44
    # a tap on a spot with a chip the balance cannot cover: refused, and Refill offered
    phone.locator(".spot").first.tap()
    message = phone.locator("#message")
    expect(message).to_contain_text("Out of chips?")
    expect(message).to_contain_text("$3 cannot cover this table's")
    expect(message).to_contain_text("Refill brings your play money back to $1,000")
    phone.screenshot(path=str(SHOTS / "refill-offered-390.png"))

    refill.tap()
    expect(phone.locator("#balance")).to_have_text("$1,000")
    expect(refill).to_be_hidden()
    expect(message).to_contain_text("Refilled")

    phone.locator("#history-toggle").tap()
    rounds = phone.locator("#rounds")
    expect(rounds).to_have_attribute("aria-busy", "false")
    credits = rounds.locator("li.credit-row")
    expect(credits.first).to_contain_text("Refill")
    expect(credits.first).to_contain_text("+$997")  # $1,000 less the $3 left
    expect(credits.first).to_contain_text("balance $1,000")
    # newest first: the refill above the rounds that drained the balance
    first = rounds.locator("> li").first
    expect(first).to_have_attribute("data-kind", "top_up")
    kinds = rounds.locator("> li").evaluate_all("rows => rows.map(r => r.dataset.kind || 'round')")
    assert kinds[0] == "top_up"
    assert kinds.count("round") >= 2  # the folds, below it
    # no sideways scroll in the drawer
    wide = phone.evaluate("document.querySelector('#history').scrollWidth")
    assert wide <= phone.evaluate("document.querySelector('#history').clientWidth")
    phone.screenshot(path=str(SHOTS / "history-refill-390.png"))
    violations = Axe().run(phone).response["violations"]
    grave = [v["id"] for v in violations if v["impact"] in ("serious", "critical")]
    assert not grave, grave


def test_the_header_holds_refill_a_bet_and_five_figures_at_320(phone: Page) -> None:
    """The money in one column on a phone: the widest balance and bet a table's limits
    allow, or Refill (a plus named "Refill", offered while the balance, bet included, is
    below $100) with a bet, and the
    tools, with no sideways scroll (the figures are written in, whichever test of this
    module ran first)."""
    phone.set_viewport_size({"width": 320, "height": 640})
    expect(phone.locator("#balance")).to_have_text(re.compile(r"^\$[\d,]+$"))
    phone.wait_for_load_state("networkidle")  # the page's own drawing done
    for balance, bet, refill in (("$99,999.50", "$1,000", False), ("$50.50", "$49", True)):
        phone.evaluate(
            """([balance, bet, refill]) => {
            document.getElementById("balance").textContent = balance;
            for (const id of ["bet-total", "bet-label"]) document.getElementById(id).hidden = false;
            document.getElementById("bet-total").textContent = bet;
            document.getElementById("refill").hidden = !refill; }""",
            [balance, bet, refill],
        )
        expect(phone.locator("#bet-total")).to_be_visible()
        expect(phone.get_by_role("button", name="Refill")).to_be_visible(visible=refill)
        tools = phone.locator(".tools").bounding_box()
        assert tools is not None
        assert tools["x"] + tools["width"] <= 320, (balance, refill)
        assert phone.evaluate("document.documentElement.scrollWidth") <= 320
        shot = SHOTS / f"header-320{'-refill' if refill else ''}.png"
        phone.screenshot(path=str(shot), clip={"x": 0, "y": 0, "width": 320, "height": 80})


def test_the_starting_credit_is_listed_once_every_round_is(phone: Page) -> None:
    phone.locator("#history-toggle").tap()
    rounds = phone.locator("#rounds")
    expect(rounds).to_have_attribute("aria-busy", "false")
    rows = rounds.locator("> li")
    expect(rows.last).to_have_attribute("data-kind", "start")  # the oldest of all
    expect(rows.last).to_contain_text(re.compile(r"Starting credit.*\$1,000"))
    assert rounds.locator("li[data-kind='start']").count() == 1
    times = rows.evaluate_all("rows => rows.map(r => Date.parse(r.querySelector('time').dateTime))")
    assert times == sorted(times, reverse=True)  # by time, newest first
