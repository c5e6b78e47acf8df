"""Refill on a phone: a balance drained below the table's minimum is offered Refill in
the header and in the status line when a chip is refused; the refill brings the
balance back to $1,000 and the history drawer lists it among the rounds, by time, with
the starting credit. A balance low enough for Refill, with a win and a bet, keeps the
header one row."""

import re
from collections.abc import Iterator

import pytest
from axe_playwright_python.sync_playwright import Axe
from fastapi import FastAPI
from playwright.sync_api import Browser, Page, expect

from riverboat.table.service import TableService

from browser_support import choose, new_context, new_tab, serving, shoot, won

LEFT = 300  # $3: below every table's minimum
#: $85: enough for a run of lost $5 coups, and below the $100 Refill is offered under
#: after a $5 win at each of the two sizes tested
LOW = 8_500


def _drain(app: FastAPI, left: int = LEFT) -> None:
    """The local player's balance folded away to ``left``, through the service."""
    service: TableService = app.state.service
    me = service.local_player()
    while (balance := service.balance(me)) > left:
        view = service.start_round(me, "tri-card", {"ante": min(50_000, balance - left)})
        service.act(me, view.id, "fold")
    assert service.balance(me) == left


@pytest.fixture(scope="module")
def drained(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    database = tmp_path_factory.mktemp("refill") / "refill.db"
    with serving(database, local_player=True, extra=_drain, house_edges=False) as address:
        yield address


@pytest.fixture(scope="module")
def low(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A table whose player has :data:`LOW` left: Refill on offer, chips still to play."""
    database = tmp_path_factory.mktemp("low") / "low.db"
    drain = lambda app: _drain(app, LOW)  # noqa: E731
    with serving(database, local_player=True, extra=drain, house_edges=False) as address:
        yield address


@pytest.fixture
def phone(drained: str, browser: Browser) -> Iterator[Page]:
    tab = new_tab(browser, viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    tab.goto(drained)
    tab.wait_for_selector(".spot")
    yield tab
    tab.close()


def test_a_drained_player_refills_and_the_history_lists_it(phone: Page) -> None:
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
    shoot(phone, "refill-offered-390")

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
    shoot(phone, "history-refill-390")
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
        clip = {"x": 0, "y": 0, "width": 320, "height": 80}
        shoot(phone, f"header-320{'-refill' if refill else ''}", clip=clip)


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


@pytest.mark.parametrize(("width", "height"), [(320, 640), (844, 390)])
def test_the_header_stays_one_row_with_a_bet_a_last_win_and_refill(
    low: str, browser: Browser, width: int, height: int
) -> None:
    """Played to that state, not written in: a coup won at Baccarat by touch, its chips
    left on the felt as the next bet, a balance below $100 (Refill offered)."""
    context = new_context(
        browser, viewport={"width": width, "height": height}, has_touch=True, is_mobile=True
    )
    page = context.new_page()
    page.goto(low)
    page.wait_for_selector(".spot")
    choose(page, "Baccarat")
    page.wait_for_load_state("networkidle")
    if not page.locator("#clear").is_disabled():
        page.locator("#clear").tap()
    page.locator("[data-spot=player]").tap()
    expect(page.locator("[data-spot=player] .pile__amount")).to_have_text("$5")
    won(page, touch=True)
    expect(page.locator("#bet-total")).to_have_text("$5")  # on the felt for the next coup
    expect(page.locator("#last-win")).to_have_text("Last win +$5")
    expect(page.locator("#refill")).to_be_visible()
    expect(page.locator("#balance")).to_have_attribute("data-trend", "")  # done counting
    if width >= 768:  # the last win and the tally show beside the money from 48rem up
        expect(page.locator("#last-win")).to_be_visible()
    else:  # on a phone the bet on the felt has the line under the balance
        expect(page.locator("#last-win")).to_be_hidden()
    header = page.locator(".topbar").bounding_box()
    assert header is not None
    assert header["height"] < 60, f"the header is {header['height']} px tall at {width}"
    tops = page.evaluate(
        """() => [...document.querySelectorAll(".topbar > *")]
        .filter((part) => part.checkVisibility())
        .map((part) => part.getBoundingClientRect())
        .filter((box) => box.width > 2 && box.height > 2)  // not the names kept for readers
        .map((box) => [Math.round(box.top), Math.round(box.bottom)])"""
    )
    middle = header["y"] + header["height"] / 2
    assert len(tops) >= 4, tops  # the table's name, the money, Refill, the tools
    assert all(top < middle < bottom for top, bottom in tops), tops  # side by side
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.evaluate("document.body.scrollWidth") <= width
    shoot(page, f"header-won-refill-{width}x{height}")
    page.locator("#clear").tap()  # no chips down: on a phone the last win takes the bet's place
    expect(page.locator("#bet-total")).to_be_hidden()
    expect(page.locator("#last-win")).to_be_visible()
    header = page.locator(".topbar").bounding_box()
    assert header is not None
    assert header["height"] < 60, header
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shoot(page, f"header-last-win-{width}x{height}")
    context.close()
