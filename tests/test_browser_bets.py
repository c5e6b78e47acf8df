"""The bet tools and what a player sees of their money, in a real browser: chips that
show at once and are taken back when refused, the bet total beside the balance, chips
the balance cannot cover greyed, Undo, Clear and Double (by touch on a phone too), a
tap past the maximum and a hold (by key, mouse and finger) saying what they did, Quick
Replay after a reload, the decisions' stakes, the banner's words, the focus after
Deal, the toast above the action bar, the hand and decisions in view at a decision on
phones in both orientations, keyboard words only where there is a keyboard, the last
win and the balance counting to it, and nothing of one table showing at another, the
shared tables included (the store, js/store.js)."""

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route, expect
from playwright.sync_api import Error as PlaywrightError

from browser_support import choose, new_context, pick_chip, shoot, won

Box = dict[str, float]


def _tab(
    server: str, browser: Browser, width: int = 1100, height: int = 800, touch: bool = False
) -> Page:
    context = new_context(
        browser, viewport={"width": width, "height": height}, has_touch=touch, is_mobile=touch
    )
    tab = context.new_page()
    tab.goto(server)
    tab.wait_for_selector(".spot")
    expect(tab.locator("#balance")).to_have_text(re.compile(r"\$"))
    return tab


# Two tabs serve the whole module, one on a desktop's screen (a mouse and a keyboard) and
# one on a phone's (touch alone, sized by each test), each set back before every test to
# where a new tab would start it (`_ready`): a page load costs more than the rest of most
# of these tests. The server, with the balance and each table's rounds, is the module's.
@pytest.fixture(scope="module")
def desk_tab(server: str, browser: Browser) -> Iterator[Page]:
    page = _tab(server, browser)
    yield page
    page.context.close()


@pytest.fixture(scope="module")
def phone_tab(server: str, browser: Browser) -> Iterator[Page]:
    page = _tab(server, browser, 390, 844, touch=True)
    yield page
    page.context.close()


def _ready(page: Page, width: int, height: int) -> Page:
    """The shared tab as a new one at ``width`` x ``height`` would be: no answer held back
    or made up, the reduced motion of every browser test, the table menu shut, no round
    open at the table in view, the $5 chip chosen, the balance and its top-up rule the
    server's, nothing focused, scrolled to the top, the coach off."""
    page.unroute_all(behavior="ignoreErrors")
    page.emulate_media(reduced_motion="reduce")
    page.set_viewport_size({"width": width, "height": height})
    if page.locator("#tables").is_visible():
        page.locator("#tables .close").click()
    _finish_open_round(page)
    if page.locator("[data-chip='500']").get_attribute("aria-pressed") != "true":
        pick_chip(page, 500)
        expect(page.locator("[data-chip='500']")).to_have_attribute("aria-pressed", "true")
    page.evaluate(REFRESH_BALANCE)
    expect(page.locator("#balance")).to_have_attribute("data-trend", "")
    page.evaluate(
        "document.activeElement?.blur(); scrollTo(0, 0); localStorage.removeItem('riverboat-coach')"
    )
    return page


@pytest.fixture
def tab(desk_tab: Page) -> Iterator[Page]:
    """The desktop's tab at 1100x800, ready for a test; a round the test left open is
    folded after it, as the server is every tab's."""
    yield _ready(desk_tab, 1100, 800)
    _finish_open_round(desk_tab)


@pytest.fixture
def phone(phone_tab: Page) -> Iterator[Page]:
    """The phone's tab at 390x844, ready for a test (which may size it otherwise)."""
    yield _ready(phone_tab, 390, 844)
    _finish_open_round(phone_tab)


def _sized(request: pytest.FixtureRequest, width: int, height: int, touch: bool) -> Page:
    """The phone's tab (``touch``) or the desktop's, ready for a test at ``width`` x
    ``height``."""
    page: Page = request.getfixturevalue("phone" if touch else "tab")
    page.set_viewport_size({"width": width, "height": height})
    return page


#: the balance asked of the server again, as a page load asks for it
REFRESH_BALANCE = "import('/static/js/bank.js').then((bank) => bank.refreshBalance())"


def _finish_open_round(page: Page) -> None:
    """A round left open at the table in view is folded (or its last decision made), so
    the next test starts between rounds."""
    decided = lambda r: r.request.method == "POST" and r.url.endswith("/actions")  # noqa: E731
    for _ in range(3):
        if not page.locator("#choices button").count():
            return
        fold = page.locator("[data-action=fold]")
        button = (fold if fold.count() else page.locator("#choices button").first).element_handle()
        with page.expect_response(decided):
            button.click()
        # the answer drawn (the buttons are made anew): a look before it, on a loaded
        # machine, saw the old buttons and clicked one as the answer took it away
        button.wait_for_element_state("hidden")


def _amount(page: Page, spot: str) -> Any:
    return page.locator(f"[data-spot={spot}] .pile__amount")


def _clear_felt(page: Page) -> None:
    if not page.locator("#clear").is_disabled():
        page.click("#clear")
    expect(page.locator("#bet-total")).to_be_hidden()


def _cents(text: str | None) -> int:
    """ "$1,234.50" in cents."""
    figure = (text or "").strip().replace(",", "")
    assert re.fullmatch(r"-?\$\d+(\.\d\d)?", figure), text
    return round(float(figure.replace("$", "")) * 100)


def _money(cents: int) -> str:
    """Cents as the page writes them: "$5", "$1,000", "$2.50"."""
    dollars = abs(cents) / 100
    return ("-$" if cents < 0 else "$") + (f"{dollars:,.2f}" if cents % 100 else f"{dollars:,.0f}")


def _hold(page: Page, spot: str) -> None:
    """Press and hold on ``spot`` with the mouse, past the hold's 600 ms."""
    circle = page.locator(f"[data-spot={spot}]")
    box = None
    for _ in range(3):  # the felt may draw the circle anew as a chip's answer lands
        expect(circle).to_be_visible()
        box = circle.bounding_box()
        if box is not None:
            break
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    with page.expect_response("**/api/chips"):
        page.mouse.down()
        page.wait_for_timeout(800)
        page.mouse.up()


def _touch_hold(page: Page, spot: str) -> None:
    """Press and hold on ``spot`` with a finger (touch events, as a phone sends them)."""
    circle = page.locator(f"[data-spot={spot}]")
    for attempt in range(3):  # the felt may draw the circle anew as a chip's answer lands
        try:
            circle.scroll_into_view_if_needed()
            break
        except PlaywrightError as error:
            if "not attached" not in str(error) or attempt == 2:
                raise
    box = circle.bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    under = "([x, y]) => document.elementFromPoint(x, y)?.closest('[data-spot]')?.dataset.spot"
    assert page.evaluate(under, [x, y]) == spot, "the finger would land on something else"
    touch = page.context.new_cdp_session(page)
    with page.expect_response("**/api/chips"):
        finger = {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]}
        touch.send("Input.dispatchTouchEvent", finger)
        page.wait_for_timeout(800)
        touch.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    touch.detach()


def test_a_chip_shows_at_once_and_the_bet_total_and_balance_follow(tab: Page) -> None:
    choose(tab, "Tri-Card Poker")
    _clear_felt(tab)
    held: list[Route] = []
    tab.route("**/api/chips", lambda route: held.append(route))  # the answer held back
    balance = tab.locator("#balance").text_content() or ""
    tab.click("[data-spot=ante]")
    # drawn before the server answers: the chip, the bet and the balance less the bet
    expect(_amount(tab, "ante")).to_have_text("$5")
    expect(tab.locator("[data-spot=ante] .chip3d")).to_have_count(1)
    expect(tab.locator("#bet-total")).to_have_text("$5")
    assert held, "the tap went to the server"
    start = float(balance.replace("$", "").replace(",", ""))
    expect(tab.locator("#balance")).to_have_text(f"${start - 5:,.0f}")
    held[0].continue_()
    tab.unroute("**/api/chips")
    expect(tab.locator("#deal")).to_be_enabled()
    expect(_amount(tab, "ante")).to_have_text("$5")


def test_a_refused_chip_is_taken_back_and_says_why(tab: Page) -> None:
    choose(tab, "Tri-Card Poker")
    _clear_felt(tab)
    refusal = {"error": "the table is closing for the night", "code": "illegal_action"}
    tab.route(
        "**/api/chips",
        lambda route: route.fulfill(
            status=422, content_type="application/json", body=json.dumps(refusal)
        ),
    )
    tab.click("[data-spot=ante]")
    expect(tab.locator("#message")).to_have_text(
        "the table is closing for the night: the chip is taken back."
    )
    expect(tab.locator("#message")).to_have_attribute("data-tone", "refusal")
    expect(_amount(tab, "ante")).to_have_text("$0")
    expect(tab.locator("#bet-total")).to_be_hidden()
    tab.unroute("**/api/chips")


def test_undo_clear_and_double_by_touch_and_key(tab: Page) -> None:
    choose(tab, "Tri-Card Poker")
    _clear_felt(tab)
    tab.click("[data-spot=ante]")
    tab.click("[data-spot=ante]")
    expect(_amount(tab, "ante")).to_have_text("$10")
    with tab.expect_response("**/api/chips/double"):
        tab.click("#double")
    expect(_amount(tab, "ante")).to_have_text("$20")
    expect(tab.locator("#bet-total")).to_have_text("$20")
    tab.click("#undo")
    expect(_amount(tab, "ante")).to_have_text("$10")
    tab.locator("body").press("x")  # Clear
    expect(_amount(tab, "ante")).to_have_text("$0")
    expect(tab.locator("#message")).to_contain_text("Undo puts them back")
    tab.locator("body").press("u")  # Undo
    expect(_amount(tab, "ante")).to_have_text("$10")
    tab.locator("body").press("w")  # Double
    expect(_amount(tab, "ante")).to_have_text("$20")


@pytest.mark.parametrize(("width", "height"), [(390, 844), (844, 390)])
def test_undo_clear_and_double_by_touch_on_a_phone(phone: Page, width: int, height: int) -> None:
    page = phone
    page.set_viewport_size({"width": width, "height": height})
    choose(page, "Tri-Card Poker")
    _finish_open_round(page)
    _clear_felt(page)

    def shows(ante: str, pair_plus: str, total: str | None) -> None:
        expect(_amount(page, "ante")).to_have_text(ante)
        expect(_amount(page, "pair_plus")).to_have_text(pair_plus)
        if total is None:
            expect(page.locator("#bet-total")).to_be_hidden()
        else:
            expect(page.locator("#bet-total")).to_have_text(total)

    for spot in ("ante", "ante", "pair_plus"):
        page.locator(f"[data-spot={spot}]").tap()
    shows("$10", "$5", "$15")
    with page.expect_response("**/api/chips/double"):
        page.locator("#double").tap()
    shows("$20", "$10", "$30")
    page.locator("#undo").tap()  # the Double taken back
    shows("$10", "$5", "$15")
    page.locator("#clear").tap()
    shows("$0", "$0", None)
    expect(page.locator("#message")).to_contain_text("Undo puts them back")
    page.locator("#undo").tap()  # the Clear taken back
    shows("$10", "$5", "$15")
    page.locator("#undo").tap()  # the last chip: the Pair Plus's
    shows("$10", "$0", "$10")
    expect(page.locator("#balance")).to_have_attribute("data-trend", "")  # done counting
    shoot(page, f"bet-tools-touch-{width}x{height}")


def test_double_past_a_spots_maximum_is_refused_and_changes_nothing(tab: Page) -> None:
    choose(tab, "Tri-Card Poker")
    _clear_felt(tab)
    tab.click("[data-chip='10000']")  # $100: Pair Plus's maximum (T1)
    tab.click("[data-spot=ante]")
    tab.click("[data-spot=pair_plus]")
    expect(_amount(tab, "pair_plus")).to_have_text("$100")
    tab.click("#double")
    expect(tab.locator("#message")).to_have_text(
        "Double would put the Pair Plus at $200: its maximum is $100."
    )
    expect(_amount(tab, "ante")).to_have_text("$100")
    expect(_amount(tab, "pair_plus")).to_have_text("$100")
    tab.click("[data-chip='500']")
    _clear_felt(tab)


def test_a_tap_past_the_maximum_and_a_hold_say_what_they_did(tab: Page) -> None:
    choose(tab, "Rabbit Hunter")
    _clear_felt(tab)
    tab.click("[data-chip='10000']")
    for _ in range(5):  # the Ante's maximum is $500 (R1)
        tab.click("[data-spot=ante]")
    expect(_amount(tab, "ante")).to_have_text("$500")
    tab.click("[data-spot=ante]")
    expect(tab.locator("#message")).to_contain_text(
        "Ante was at its $500 maximum: this tap cleared it"
    )
    expect(_amount(tab, "ante")).to_have_text("$0")
    tab.click("[data-chip='500']")
    # each tap's answer is in (Clear is enabled again) before the next press: a press
    # made while the page draws the last answer may last past the hold's 600 ms on a
    # loaded machine, and be the hold it then is
    tab.click("[data-spot=ante]")
    expect(tab.locator("#clear")).to_be_enabled()
    tab.click("[data-spot=bonus]")  # the Bonus takes the Ante's amount
    expect(_amount(tab, "bonus")).to_have_text("$5")
    tab.locator("[data-spot=ante]").focus()
    tab.keyboard.press("Backspace")  # the keyboard's hold
    expect(tab.locator("#message")).to_have_text("Ante and Bonus cleared.")
    tab.click("[data-spot=ante]")
    expect(tab.locator("#clear")).to_be_enabled()
    tab.click("[data-spot=bonus]")
    expect(_amount(tab, "bonus")).to_have_text("$5")
    _hold(tab, "bonus")  # the mouse's hold: the Bonus alone
    expect(tab.locator("#message")).to_have_text("Bonus cleared.")
    expect(_amount(tab, "bonus")).to_have_text("$0")
    expect(_amount(tab, "ante")).to_have_text("$5")
    _hold(tab, "bad_beat")  # nothing there
    expect(tab.locator("#message")).to_have_text("Bad Beat has no chips to clear.")
    expect(_amount(tab, "ante")).to_have_text("$5")


def test_a_hold_by_touch_on_a_phone_says_what_it_cleared(phone: Page) -> None:
    page = phone  # 390x844
    choose(page, "Tri-Card Poker")
    _finish_open_round(page)
    _clear_felt(page)
    page.locator("[data-spot=ante]").tap()
    page.locator("[data-spot=pair_plus]").tap()
    expect(_amount(page, "pair_plus")).to_have_text("$5")
    expect(page.locator("#bet-total")).to_have_text("$10")
    _touch_hold(page, "pair_plus")
    expect(page.locator("#message")).to_have_text("Pair Plus cleared.")
    expect(_amount(page, "pair_plus")).to_have_text("$0")  # a hold, not a tap as well
    expect(_amount(page, "ante")).to_have_text("$5")
    expect(page.locator("#bet-total")).to_have_text("$5")


def test_chips_the_balance_cannot_cover_are_greyed_and_say_why(tab: Page) -> None:
    choose(tab, "Tri-Card Poker")
    _clear_felt(tab)

    def poor(route: Route) -> None:  # the balance as the server would say it: $30
        answer = route.fetch().json()
        route.fulfill(json={**answer, "balance": 3000, "top_up_below": 10_000})

    tab.route("**/api/me", poor)
    tab.evaluate("import('/static/js/bank.js').then((bank) => bank.refreshBalance())")
    expect(tab.locator("#balance")).to_have_text("$30")
    expect(tab.locator("[data-chip='2500']")).to_have_attribute("aria-disabled", "false")
    expect(tab.locator("[data-chip='10000']")).to_have_attribute("aria-disabled", "true")
    tab.click("[data-chip='2500']")
    tab.click("[data-spot=ante]")
    expect(tab.locator("#balance")).to_have_text("$5")  # the balance less the bet
    expect(tab.locator("[data-chip='2500']")).to_have_attribute("aria-disabled", "true")
    tab.locator("[data-chip='2500']").click(force=True)  # greyed, not disabled: it says why
    expect(tab.locator("#message")).to_contain_text(
        "more than the $5 left beside the chips on the felt"
    )
    tab.click("[data-spot=ante]")  # with the $25 chip still chosen: $50 on a $30 balance
    expect(tab.locator("#message")).to_contain_text("choose a smaller chip")
    expect(tab.locator("#refill")).to_be_visible()  # the service's rule allows one below $100
    tab.unroute("**/api/me")
    tab.click("[data-chip='500']")
    _clear_felt(tab)


def test_a_chips_late_answer_leaves_a_later_refusal_on_show(tab: Page) -> None:
    """A tap's answer that comes after a later tap was refused (a loaded server) clears
    nothing: the refusal stays, as it said what the player did last."""
    choose(tab, "Tri-Card Poker")
    _clear_felt(tab)

    def poor(route: Route) -> None:  # the balance as the server would say it: $30
        answer = route.fetch().json()
        route.fulfill(json={**answer, "balance": 3000, "top_up_below": 10_000})

    held: list[Route] = []

    def hold(route: Route) -> None:  # the answer waits until let go, below
        held.append(route)

    tab.route("**/api/me", poor)
    tab.evaluate("import('/static/js/bank.js').then((bank) => bank.refreshBalance())")
    expect(tab.locator("#balance")).to_have_text("$30")
    tab.route("**/api/chips", hold)
    tab.click("[data-chip='2500']")
    tab.click("[data-spot=ante]")
    expect(tab.locator("#balance")).to_have_text("$5")  # shown at once, the answer to come
    tab.click("[data-spot=ante]")  # $50 on a $30 balance: refused in the page
    expect(tab.locator("#message")).to_contain_text("choose a smaller chip")
    with tab.expect_response("**/api/chips"):
        held.pop().continue_()
    expect(tab.locator("#undo")).to_be_enabled()  # the answer is in and handled
    expect(_amount(tab, "ante")).to_have_text("$25")
    expect(tab.locator("#message")).to_contain_text("choose a smaller chip")
    tab.unroute("**/api/chips")
    tab.unroute("**/api/me")
    tab.click("[data-chip='500']")
    _clear_felt(tab)


def test_quick_replay_survives_a_reload(tab: Page) -> None:
    page = tab
    choose(page, "Baccarat")
    _clear_felt(page)
    page.click("[data-spot=banker]")
    page.click("[data-spot=banker]")
    with page.expect_response("**/api/rounds"):
        page.click("#deal")
    expect(page.locator("#banner")).to_be_visible()
    page.reload()
    page.wait_for_selector(".spot")
    expect(page.locator("#logo")).to_have_text("Baccarat")
    expect(page.locator("#replay")).to_be_enabled()
    with page.expect_response("**/replay") as answer:
        page.click("#replay")
    assert answer.value.json()["wagers"]["banker"] == 1000


def test_decisions_show_their_stake_and_fold_stakes_nothing(tab: Page) -> None:
    choose(tab, "Rabbit Hunter")
    _clear_felt(tab)
    tab.click("[data-spot=ante]")
    tab.click("[data-spot=ante]")
    tab.click("#deal")
    expect(tab.locator("[data-action=play]")).to_have_text("Play $10")
    expect(tab.locator("[data-action=buy]")).to_have_text(
        "Buy & Play $20"
    )  # R4: a Play and the fee
    expect(tab.locator("[data-action=fold]")).to_have_text("Fold")
    tab.click("[data-action=fold]")
    banner = tab.locator("#banner")
    expect(banner.locator(".banner__head")).to_have_text("You folded")
    expect(banner.locator(".banner__money")).to_have_text("Net −$10")
    expect(banner).to_have_attribute("data-outcome", "loss")


def _stake_of(button: Any, label: str) -> int:
    """The amount a decision's button says it stakes ("Raise $10": 1000)."""
    text = button.text_content() or ""
    assert text.startswith(f"{label} $"), text
    return _cents(text.removeprefix(f"{label} "))


def test_raise_and_play_show_what_they_stake_against_the_ante(tab: Page) -> None:
    choose(tab, "Tri-Card Poker")  # T: the Raise is the Ante's amount
    _finish_open_round(tab)
    _clear_felt(tab)
    tab.click("[data-spot=ante]")
    tab.click("[data-spot=ante]")  # $10: not the $5 chip's amount
    expect(_amount(tab, "ante")).to_have_text("$10")
    ante = _cents(_amount(tab, "ante").text_content())
    with tab.expect_response("**/api/rounds"):
        tab.click("#deal")
    expect(tab.locator("[data-action=raise]")).to_have_count(1)
    assert _stake_of(tab.locator("[data-action=raise]"), "Raise") == ante
    expect(tab.locator("[data-action=fold]")).to_have_text("Fold")
    tab.click("[data-action=fold]")
    expect(tab.locator("#banner")).to_be_visible()

    choose(tab, "Crazy 4 Poker")  # C3: Play 1x the Ante; with aces or better, up to 3x
    _finish_open_round(tab)
    _clear_felt(tab)
    tab.click("[data-spot=ante]")
    tab.click("[data-spot=ante]")
    expect(_amount(tab, "ante")).to_have_text("$10")
    ante = _cents(_amount(tab, "ante").text_content())
    seen: set[tuple[int, ...]] = set()
    for _ in range(30):  # about one deal in five offers 3x: both kinds of offer seen
        expect(tab.locator("#deal")).to_be_enabled()
        with tab.expect_response("**/api/rounds"):
            tab.click("#deal")
        expect(tab.locator("[data-action=play]").first).to_be_visible()
        plays = tab.locator("[data-action=play]").all()
        offered = tuple(_stake_of(play, "Play") for play in plays)
        assert offered in ((ante,), (ante, 3 * ante)), offered
        seen.add(offered)
        tab.click("[data-action=fold]")
        expect(tab.locator("#banner")).to_be_visible()
        if len(seen) == 2:
            break
    assert seen == {(ante,), (ante, 3 * ante)}, seen


def test_focus_after_deal_never_lands_on_a_decision(tab: Page) -> None:
    choose(tab, "Tri-Card Poker")
    _clear_felt(tab)
    tab.click("[data-spot=ante]")
    tab.locator("#deal").focus()
    with tab.expect_response("**/api/rounds"):
        tab.keyboard.press("Enter")
    expect(tab.locator("[data-action=fold]")).to_be_visible()
    assert tab.evaluate("document.activeElement.id") == "choices"
    tab.keyboard.press("Enter")  # a second Enter takes no decision
    tab.wait_for_timeout(400)
    expect(tab.locator("[data-action=fold]")).to_be_visible()
    tab.keyboard.press("Tab")  # the keyboard goes on to the decisions
    assert tab.evaluate("document.activeElement.dataset.action") in ("fold", "raise")


# the toast's box against the action bar's and the screen's, and what lies at its centre
TOAST = """() => {
  const toast = document.getElementById("message").getBoundingClientRect();
  const bar = document.getElementById("action-bar").getBoundingClientRect();
  const x = toast.left + toast.width / 2, y = toast.top + toast.height / 2;
  const atCentre = document.elementFromPoint(x, y);
  return { bottom: toast.bottom, top: toast.top, left: toast.left, right: toast.right,
           barTop: bar.top,
           width: innerWidth, covered: atCentre !== document.getElementById("message") };
}"""


@pytest.mark.parametrize(("width", "height"), [(320, 568), (390, 844), (844, 390), (1440, 900)])
def test_the_toast_is_never_under_the_action_bar(
    request: pytest.FixtureRequest, width: int, height: int
) -> None:
    page = _sized(request, width, height, touch=width < 1000)
    choose(page, "Tri-Card Poker")
    _clear_felt(page)
    page.click("#deal")  # nothing on the felt: refused, saying what to do
    toast = page.locator("#message")
    expect(toast).to_have_attribute("data-tone", "refusal")
    expect(toast).to_be_visible()
    box = page.evaluate(TOAST)
    assert box["bottom"] <= box["barTop"] + 0.5, box
    assert box["top"] >= 0, box
    assert box["left"] >= 0, box
    assert box["right"] <= box["width"] + 0.5, box
    assert not box["covered"], box


# every card of the player's hand and every decision inside the screen and clear of the
# action bar (decisions inside it)
IN_VIEW = """() => {
  const bar = document.getElementById("action-bar").getBoundingClientRect();
  const head = document.querySelector(".topbar").getBoundingClientRect().bottom;
  const wrong = [];
  for (const card of document.querySelectorAll("#player .card")) {
    const box = card.getBoundingClientRect();
    if (box.top < head - 0.5 || box.bottom > bar.top + 0.5 || box.left < 0
        || box.right > innerWidth + 0.5)
      wrong.push(`card at ${box.left},${box.top}-${box.bottom} (bar at ${bar.top})`);
  }
  for (const button of document.querySelectorAll("#choices button")) {
    const box = button.getBoundingClientRect();
    const inside = box.top >= 0 && box.bottom <= innerHeight + 0.5
      && box.left >= 0 && box.right <= innerWidth + 0.5;
    if (!inside)
      wrong.push(`${button.dataset.action} at ${box.left},${box.top}`);
  }
  return { wrong, cards: document.querySelectorAll("#player .card").length, bar: bar.height };
}"""

# every betting circle that lies under the action bar or under what shows above it (a
# toast, the hint, the coach), with what covers it
CIRCLES_COVERED = """() => {
  const covers = [document.getElementById("action-bar"),
                  ...document.querySelectorAll(".above-bar > *")]
    .filter((cover) => cover.checkVisibility({ visibilityProperty: true }));
  const wrong = [];
  for (const circle of document.querySelectorAll("#table .circle")) {
    const box = circle.getBoundingClientRect();
    for (const cover of covers) {
      const over = cover.getBoundingClientRect();
      if (box.left < over.right - 0.5 && over.left < box.right - 0.5
          && box.top < over.bottom - 0.5 && over.top < box.bottom - 0.5)
        wrong.push(`${circle.dataset.spot || circle.dataset.line} under #${cover.id}`);
    }
  }
  return wrong;
}"""

PHONES = [(320, 640), (390, 844), (430, 932), (640, 360), (844, 390), (932, 430)]


@pytest.mark.parametrize("game", ["Rabbit Hunter", "Tri-Card Poker", "Crazy 4 Poker"])
def test_the_hand_and_decisions_are_in_view_at_a_decision(phone: Page, game: str) -> None:
    """At each phone size, a round dealt there: the hand and the decisions in view at the
    decision, the banner at the result, and on its side no circle covered at either."""
    page = phone
    choose(page, game)
    _finish_open_round(page)
    for width, height in PHONES:
        # a round of its own at each size: the decision's toast shows for a few seconds
        # only, and on its side no circle may lie under it
        size = f"{width}x{height}"
        page.set_viewport_size({"width": width, "height": height})
        _clear_felt(page)
        page.locator("[data-spot=ante]").tap()
        with page.expect_response("**/api/rounds"):
            page.locator("#deal").tap()
        expect(page.locator("[data-action=fold]")).to_be_visible()
        page.wait_for_timeout(500)  # the deal's animation
        seen = page.evaluate(IN_VIEW)
        assert seen["cards"] >= 3, f"at {size}: {seen}"
        assert not seen["wrong"], f"at {size}: {seen}"
        tall = f"at {size} the action bar is {seen['bar']} px tall: one row of controls"
        assert seen["bar"] < 90, tall
        if width > height:  # on its side, no circle under the bar or a message
            covered = page.evaluate(CIRCLES_COVERED)
            assert not covered, f"at the decision at {size}: {covered}"
        shoot(page, f"decision-{game.split()[0].lower()}-{size}")
        page.locator("[data-action=fold]").tap()
        expect(page.locator("#banner")).to_be_visible()
        banner = page.locator("#banner").bounding_box()
        assert banner is not None, size
        assert banner["y"] >= 0, f"at {size}: {banner}"
        assert banner["y"] + banner["height"] <= height, f"at {size}: {banner}"
        if width > height:  # and at the result
            covered = page.evaluate(CIRCLES_COVERED)
            assert not covered, f"at the result at {size}: {covered}"


def test_on_a_touch_phone_the_header_is_one_row_without_keys(server: str, browser: Browser) -> None:
    page = _tab(server, browser, 390, 844, touch=True)  # a first visit's: its table, its chip
    expect(page.locator("#keys-toggle")).to_be_hidden()
    header = page.locator(".topbar").bounding_box()
    assert header is not None
    assert header["height"] < 60, header
    # the tray is folded into the chip button, and opens and closes with a tap
    expect(page.locator("#chips")).to_be_hidden()
    page.locator("#chip-toggle").tap()
    expect(page.locator("#chips")).to_be_visible()
    page.locator("[data-chip='2500']").tap()
    expect(page.locator("#chips")).to_be_hidden()
    expect(page.locator("#chip-toggle")).to_contain_text("$25 chip")
    page.context.close()


@pytest.mark.parametrize(
    ("width", "height", "touch"), [(844, 390, True), (1024, 768, True), (1440, 900, False)]
)
def test_the_keys_button_and_keyboard_words_only_where_there_is_a_keyboard(
    request: pytest.FixtureRequest, width: int, height: int, touch: bool
) -> None:
    page = _sized(request, width, height, touch)
    assert page.evaluate("matchMedia('(hover: none) and (pointer: coarse)').matches") is touch
    choose(page, "Tri-Card Poker")
    _finish_open_round(page)
    choose(page, "Tri-Card Poker")  # its prompt, between rounds
    message = page.locator("#message")
    expect(message).to_contain_text("press and hold to clear it")
    if touch:
        page.locator("#logo").tap()
    else:
        page.click("#logo")
    note = page.locator("#tables-note")
    expect(note).to_contain_text(re.compile("shared tables show their seats free", re.I))
    numbers = page.locator("#games .table-key").first
    if touch:
        expect(page.locator("#keys-toggle")).to_be_hidden()
        expect(message).not_to_contain_text(re.compile("key", re.I))
        expect(note).not_to_contain_text(re.compile("key", re.I))
        expect(numbers).to_be_hidden()
    else:
        expect(page.locator("#keys-toggle")).to_be_visible()
        expect(message).to_contain_text("By keyboard: Enter on a spot")
        expect(note).to_contain_text("Keys 1 to 6 choose a table too")
        expect(numbers).to_be_visible()
    page.locator("#tables .close").click()


# the balance's figure and trend each time it changes, from here on
COUNTING = """() => {
  const balance = document.getElementById("balance");
  window.counted = [];
  if (window.countWatch) return;
  window.countWatch = new MutationObserver(
    () => window.counted.push([balance.dataset.trend, balance.textContent]));
  window.countWatch.observe(balance, { attributes: true, attributeFilter: ["data-trend"],
                                       childList: true, characterData: true, subtree: true });
}"""


def test_a_win_shows_the_last_win_and_the_balance_counts_up_to_it(tab: Page) -> None:
    tab.emulate_media(reduced_motion="no-preference")  # the count is motion
    choose(tab, "Baccarat")
    _clear_felt(tab)
    tab.click("[data-spot=player]")
    expect(tab.locator("#bet-total")).to_have_text("$5")
    balance = tab.locator("#balance")
    before: list[int] = []

    def watch() -> None:  # before each coup: the last one's count done, and watched afresh
        expect(balance).to_have_attribute("data-trend", "")
        before[:] = [_cents(balance.text_content())]
        tab.evaluate(COUNTING)

    round_ = won(tab, before=watch)
    expect(tab.locator("#last-win")).to_be_visible()
    expect(tab.locator("#last-win")).to_have_text(f"Last win +{_money(round_['net'])}")
    final = round_["balance"] - 500  # the chips stay on the felt for the next coup
    expect(balance).to_have_text(_money(final))
    expect(balance).to_have_attribute("data-trend", "")  # done counting
    counted: list[list[str]] = tab.evaluate("window.counted")
    moving = [_cents(text) for trend, text in counted if trend == "up"]
    assert moving, f"the balance never showed it was counting up: {counted}"
    assert all(before[0] <= figure <= final for figure in moving), counted
    assert any(before[0] < figure < final for figure in moving), f"no figure between: {counted}"
    assert "down" not in [trend for trend, _ in counted], counted


def _chips_shown(page: Page) -> dict[str, str]:
    """The spots with chips on them and their amounts, and the bet total ("bet") if it
    shows."""
    shown = {
        spot.get_attribute("data-spot") or "": spot.locator(".pile__amount").text_content() or ""
        for spot in page.locator("#spots .circle--staked").all()
    }
    if page.locator("#bet-total").is_visible():
        shown["bet"] = page.locator("#bet-total").text_content() or ""
    return shown


def test_a_verdict_message_or_hint_never_shows_at_another_table(tab: Page) -> None:
    """Every table in the menu, the shared ones too, visited mid-round: nothing of one
    shows at another (a verdict, the hint, a decision, cards, chips or the bet total);
    each table shows only its own chips (its round's, or the last it dealt: chips
    placed and not dealt stay behind with the table left)."""
    page = tab
    # a first visit's page, the coach switched on: no table's last wagers kept from before
    page.evaluate(
        "localStorage.clear(); sessionStorage.clear();"
        " localStorage.setItem('riverboat-coach', 'on')"
    )
    page.reload()
    page.wait_for_selector(".spot")
    choose(page, "Rabbit Hunter")
    _finish_open_round(page)
    _clear_felt(page)
    page.click("[data-spot=ante]")
    page.click("#deal")
    page.click("[data-action=play]")
    expect(page.locator("#coach-line")).to_be_visible()  # the verdict on the Play
    told = page.locator("#message").text_content() or ""
    own = {"Rabbit Hunter": {"ante": "$5", "bet": "$5"}}  # the chips each table keeps
    choose(page, "Tri-Card Poker")  # mid-verdict, to another game
    expect(page.locator("#coach-line")).to_be_hidden()
    expect(page.locator("#message")).not_to_have_text(told)
    expect(page.locator("#banner")).to_be_hidden()
    expect(page.locator("#bet-total")).to_be_hidden()  # none of Rabbit Hunter's chips
    assert _chips_shown(page) == {}
    page.click("[data-spot=ante]")
    page.click("[data-spot=ante]")  # $10: not Rabbit Hunter's $5
    page.click("#deal")
    expect(page.locator("[data-action=raise]")).to_be_visible()
    own["Tri-Card Poker"] = {"ante": "$10", "bet": "$10"}
    page.click("#hint")
    expect(page.locator("#hint-box")).to_be_visible()
    # mid-round, everywhere else; at a shared table chips go down too ($10, unlike
    # Rabbit Hunter's $5), and are left there
    visits = [
        ("Crazy 4 Poker", None),
        ("Baccarat · shared", "banker"),
        ("Baccarat", None),  # the same circles as the shared table's: none of its chips
        ("Crazy 4 Poker · shared", "ante"),
        ("Rabbit Hunter", None),
        ("Baccarat · shared", None),  # its chips were never bet: gone with the seat
    ]
    for other, spot in visits:
        choose(page, other)
        expect(page.locator("#hint-box")).to_be_hidden()
        expect(page.locator("#coach-line")).to_be_hidden()
        expect(page.locator("[data-action=raise]")).to_have_count(0)
        expect(page.locator("#player .card")).to_have_count(0)
        page.wait_for_timeout(300)  # anything carried over would be drawn by now
        assert _chips_shown(page) == own.get(other, {}), other
        if spot:
            for _ in range(2):
                with page.expect_response("**/api/chips"):
                    page.click(f"[data-spot={spot}]")
            expect(_amount(page, spot)).to_have_text("$10")
            expect(page.locator("#bet-total")).to_be_visible()
    choose(page, "Tri-Card Poker")  # back: the round picked up, nothing else of before
    expect(page.locator("[data-action=raise]")).to_be_visible()
    expect(page.locator("#coach-line")).to_be_hidden()
    expect(page.locator("#hint-box")).to_be_hidden()
    assert _chips_shown(page) == own["Tri-Card Poker"]
    page.click("[data-action=fold]")
    expect(page.locator("#coach-line")).to_be_visible()  # this round's own verdict
    page.evaluate("localStorage.setItem('riverboat-coach', 'off')")
