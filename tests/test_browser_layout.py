"""The table's shell in a real browser: every table fits every screen from a 320 px
phone to a 1920 px desktop with 44 px targets, the table menu, the pay tables in words,
and axe-core's accessibility audit (no serious or critical violation) on every table,
own and shared, on a phone and a desktop."""

import re
from collections.abc import Callable, Iterator

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, Request, expect

from browser_support import choose, new_context, resize, shoot, table_tab

OWN = ("Rabbit Hunter", "Tri-Card Poker", "Crazy 4 Poker", "Baccarat")
SHARED = ("Crazy 4 Poker · shared", "Baccarat · shared")
PHONES = (320, 360, 390, 430)
SCREENS = (768, 1024, 1440, 1920)
SHOWN = (390, 1440)  # the widths whose tables are kept as screenshots too
AUDITED = (390, 1440)  # a phone's and a desktop's

# every visible, enabled control outside a closed dialog: what is wrong with it, if
# anything (wider than the screen, off it sideways, under 44x44 CSS px, off the page,
# or, in the action bar, off the screen)
FITS = """() => {
  const wrong = [], width = innerWidth, height = innerHeight;
  const page = document.documentElement;
  if (page.scrollWidth > width) wrong.push(`the page is ${page.scrollWidth} px wide`);
  const controls = "button, [role=button], input, select, a[href]";
  for (const control of document.querySelectorAll(controls)) {
    if (control.closest("dialog:not([open])") || control.disabled) continue;
    const box = control.getBoundingClientRect();
    if (!box.width || !box.height || getComputedStyle(control).visibility === "hidden") continue;
    const data = control.dataset;
    const name = control.id || data.spot || data.action || data.chip || data.table
      || control.textContent.trim().slice(0, 24);
    if (box.width < 43.5 || box.height < 43.5) wrong.push(`${name} is ${box.width}x${box.height}`);
    if (box.left < -0.5 || box.right > width + 0.5)
      wrong.push(`${name} spans ${box.left} to ${box.right}`);
    const top = box.top + scrollY, bottom = box.bottom + scrollY;
    if (top < -0.5 || bottom > page.scrollHeight + 0.5) wrong.push(`${name} is off the page`);
    if (control.closest("#action-bar") && (box.top < -0.5 || box.bottom > height + 0.5))
      wrong.push(`${name} is in the action bar but off the screen`);
  }
  return wrong;
}"""

# the felt's foot, scrolled to the page's end, above the action bar
HIDDEN_BY_BAR = """() => {
  scrollTo(0, document.documentElement.scrollHeight);
  const felt = document.getElementById("table").getBoundingClientRect();
  const bar = document.getElementById("action-bar").getBoundingClientRect();
  const hidden = felt.bottom - bar.top;
  scrollTo(0, 0);
  return hidden;
}"""


# the next deal's commitment on show: an own table's line, or a shared table's
COMMITTED = """() => /SHA-256|commitment [0-9a-f]/.test(
  document.getElementById("fair-line").textContent
  + document.getElementById("table-line").textContent)"""


def _height(width: int) -> int:
    return 844 if width <= 430 else 900


def _slug(words: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", words.lower()).strip("-")


def _resize(page: Page, width: int, height: int | None = None) -> None:
    """The page `width` px wide and a phone's or a screen's height (or `height`), laid
    out and drawn at that size (:func:`browser_support.resize`)."""
    resize(page, width, height or _height(width))


def _sized(page: Page, where: str) -> str:
    """`where`, with the page's size."""
    size = page.viewport_size or {"width": 0, "height": 0}
    return f"{where} at {size['width']}x{size['height']}"


def _fits(page: Page, where: str) -> None:
    wrong = page.evaluate(FITS)
    assert not wrong, f"{_sized(page, where)}: {wrong}"
    hidden = page.evaluate(HIDDEN_BY_BAR)
    assert hidden <= 0.5, f"{_sized(page, where)}: the action bar covers {hidden} px of the table"


def _settle(page: Page) -> None:
    """No round left open at this table: fold it (a folded round ends at once)."""
    page.wait_for_load_state("networkidle")
    fold = page.locator("[data-action=fold]")
    if fold.count():
        fold.click()
        expect(page.locator("#message")).to_contain_text("Net")


def _first_spot(page: Page) -> None:
    """The first betting spot holds a chip (a required wager comes first)."""
    spot = page.locator(".spot").first
    if spot.locator("strong").inner_text() in ("$0", ""):
        spot.click()
        page.wait_for_timeout(200)


def _deal(page: Page) -> None:
    """Deal (Bet at a shared table) and wait for a decision or the result."""
    page.wait_for_function(COMMITTED)  # the deal's commitment shows first
    page.click("#deal")
    expect(page.locator("#message")).to_contain_text(re.compile("Net|decision"), timeout=20000)


def _round(
    page: Page, title: str, widths: tuple[int, ...], check: Callable[[Page, str], None]
) -> None:
    """A round at the table `title`: before the deal, at a decision (or, with none, at
    the result) and at the result, the page resized to each of `widths` and `check` run
    at each. One round serves every width; Deal, and Fold at a decision, are tried at
    each width (Playwright's checks that a click would land on them) and pressed at the
    last."""
    choose(page, title)
    _settle(page)
    _first_spot(page)
    deal, fold = page.locator("#deal"), page.locator("[data-action=fold]")
    for width in widths:
        _resize(page, width)
        check(page, f"{title}, before the deal")
        deal.click(trial=True)
    _deal(page)
    decided = fold.count() > 0
    for width in widths:
        _resize(page, width)
        check(page, f"{title}, dealt")
        if decided:
            fold.click(trial=True)
    if decided:
        fold.click()
        expect(page.locator("#message")).to_contain_text("Net", timeout=20000)
        for width in widths:
            _resize(page, width)
            check(page, f"{title}, at the result")


@pytest.fixture(scope="module", autouse=True)
def patient() -> Iterator[None]:
    """Checks wait up to 20 s here: a loaded machine answers slowly, not wrongly."""
    expect.set_options(timeout=20000)
    yield
    expect.set_options(timeout=5000)


@pytest.fixture(scope="module")
def own(server: str, browser: Browser) -> Iterator[Page]:
    tab = table_tab(server, browser)
    yield tab
    tab.close()


@pytest.fixture(scope="module")
def ann(shared_server: str, browser: Browser) -> Iterator[Page]:
    """ann, logged in at the server with accounts."""
    tab = new_context(browser, viewport={"width": 1100, "height": 800}).new_page()
    tab.goto(shared_server)
    tab.fill("#login-name", "ann")
    tab.fill("#login-password", "a long password")
    tab.click("#login-form button")
    expect(tab.locator("#balance")).to_have_text(re.compile(r"\$"), timeout=30000)
    yield tab
    tab.context.close()


@pytest.mark.parametrize("title", [*OWN, *SHARED], ids=_slug)
def test_every_table_fits_the_screen_with_44_px_targets(
    request: pytest.FixtureRequest, title: str
) -> None:
    """No sideways scrolling, and every control on the screen's width and 44x44 px or
    more, at every width from a 320 px phone to a 1920 px desktop, before the deal, at a
    decision and at the result, at the table."""
    page: Page = request.getfixturevalue("own" if title in OWN else "ann")
    _round(page, title, (*PHONES, *SCREENS), _fits_and_shown)


def _fits_and_shown(page: Page, where: str) -> None:
    """`_fits`, and at the widths of SHOWN a screenshot of the table as it is, named for
    the width and step."""
    _fits(page, where)
    width = page.viewport_size["width"] if page.viewport_size else 0
    if width in SHOWN:
        shoot(page, f"table-{width}-{_slug(where)}")


def test_a_shared_tables_clock_stays_in_view_with_the_action_bar(ann: Page) -> None:
    ann.set_viewport_size({"width": 360, "height": 844})
    choose(ann, "Crazy 4 Poker · shared")
    _settle(ann)
    _first_spot(ann)
    _deal(ann)
    pill, ring = ann.locator("#clock"), ann.locator("#table-clock")
    expect(pill).to_contain_text(re.compile(r"Decisions close in \d+ s"))
    for scrolled in ("0", "document.documentElement.scrollHeight"):  # the page's top and end
        ann.evaluate(f"scrollTo(0, {scrolled})")
        # the felt's ring counts at the page's top; scrolled past it, the bar's pill does,
        # and never both (the pill would cover the seats at the felt's foot)
        clock = ring if scrolled == "0" else pill
        expect(clock).to_be_visible()
        if clock is ring:
            expect(pill).to_be_hidden()
        box = clock.bounding_box()
        assert box
        assert box["y"] >= 0
        assert box["y"] + box["height"] <= 844
        assert box["x"] >= 0
        assert box["x"] + box["width"] <= 360
    _settle(ann)


# the message under the table, at the page's top (no scrolling), wholly above the
# action bar: how far it reaches under the bar (0 or less: all of it shows)
MESSAGE_UNDER_BAR = """() => {
  scrollTo(0, 0);
  const message = document.getElementById("message").getBoundingClientRect();
  const bar = document.getElementById("action-bar").getBoundingClientRect();
  return message.bottom - bar.top;
}"""


@pytest.mark.parametrize("title", OWN, ids=_slug)
def test_the_result_message_shows_above_the_action_bar_without_scrolling(
    own: Page, title: str
) -> None:
    """On a laptop's or a desktop's screen (1024x768, 1366x768, 1440x900, 1920x1080) the
    message under the table (the result in words, a refusal) shows whole without
    scrolling: the decision circles sit beside the wager circles, and a short screen
    deals smaller cards. One round's result is looked at on each screen."""
    choose(own, title)
    _settle(own)
    _first_spot(own)
    _deal(own)
    _settle(own)
    for width, height in ((1024, 768), (1366, 768), (1440, 900), (1920, 1080)):
        _resize(own, width, height)
        under = own.evaluate(MESSAGE_UNDER_BAR)
        assert under <= 0.5, f"{title} at {width}x{height}: {under} px of the message under the bar"


# ------------------------------------------------------------------ the table menu


def test_the_table_menu_lists_six_tables_and_chooses_by_click_and_key(own: Page) -> None:
    for width in (390, 1440):
        own.set_viewport_size({"width": width, "height": _height(width)})
        own.click("#logo")
        menu = own.locator("#tables")
        expect(menu).to_be_visible()
        expect(menu.locator("#games button")).to_have_count(6)
        expect(menu.locator("#games")).to_contain_text("Shared table")
        expect(menu.locator("#games")).to_contain_text("Limits $5 to $500")
        own.wait_for_timeout(200)
        shoot(own, f"table-menu-{width}")
        own.get_by_role("button", name="Close").click()
        expect(menu).to_be_hidden()
    choose(own, "Baccarat")  # by a tap in the menu
    expect(own.locator("#tables")).to_be_hidden()
    expect(own.locator("[data-spot=banker]")).to_be_visible()
    own.keyboard.press("l")  # the menu by its key, then a table by its number
    expect(own.locator("#tables")).to_be_visible()
    own.keyboard.press("2")
    expect(own.locator("#tables")).to_be_hidden()
    expect(own.locator("#logo")).to_have_text("Tri-Card Poker")
    own.keyboard.press("1")  # a number with the menu closed chooses too
    expect(own.locator("#logo")).to_have_text("Rabbit Hunter")
    expect(own.locator("[data-spot=bad_beat]")).to_be_visible()
    own.keyboard.press("l")
    own.keyboard.press("Escape")
    expect(own.locator("#tables")).to_be_hidden()


def test_the_table_menu_keeps_its_buttons_while_the_lobby_refreshes(own: Page) -> None:
    """A tap lands on the table it was aimed at: the lobby fetched again while the menu
    is open rewrites the buttons' lines in place and never replaces the buttons (a
    button replaced as the lobby came back lost the tap made on it)."""
    own.click("#logo")
    expect(own.locator("#tables")).to_be_visible()
    own.evaluate("window.firstTable = document.querySelector('#games button')")
    for _ in range(2):  # the fetch as the menu opens, then the next refresh
        with own.expect_response(lambda answer: "/api/lobby" in answer.url):
            pass
    own.wait_for_timeout(200)  # the lobby's lines drawn
    assert own.evaluate("document.querySelector('#games button') === window.firstTable")
    expect(own.locator("#games")).to_contain_text("Shared table")
    own.keyboard.press("Escape")
    expect(own.locator("#tables")).to_be_hidden()


# --------------------------------------------------------------------- the pay tables


def _row(page: Page, section: str, line: str) -> str:
    """The words in a pay table's row: the table after the heading `section`, the row
    headed `line`."""
    table = page.locator(f"#paytable h3:text-is('{section}') + table")
    return table.locator("tr", has=page.locator(f"th[scope=row]:text-is('{line}')")).inner_text()


def test_the_pay_tables_in_words(own: Page) -> None:
    own.set_viewport_size({"width": 390, "height": 844})
    choose(own, "Tri-Card Poker")
    own.click("#rules")
    dialog = own.locator("#paytable")
    expect(dialog).to_be_visible()
    # the felt's lines: Ante and the Raise (Tri-Card's Play wager) pay 1 to 1
    assert "1 to 1" in _row(own, "Wagers", "Ante")
    assert "1 to 1" in _row(own, "Wagers", "Raise")
    assert "Placed when you choose Raise" in _row(own, "Wagers", "Raise")
    assert "$5 to $100" in _row(own, "Wagers", "Pair Plus")
    assert "40 to 1" in _row(own, "Pair Plus", "Straight Flush")
    expect(dialog.locator("th[scope=col]").first).to_be_visible()
    expect(dialog).not_to_contain_text("_")  # words, not identifiers
    expect(dialog.locator("#edges-pending, .edge-value").first).to_be_visible()
    shoot(own, "pay-table-390")
    own.get_by_role("button", name="Close").click()
    expect(dialog).to_be_hidden()
    own.set_viewport_size({"width": 1440, "height": 900})
    choose(own, "Rabbit Hunter")
    own.keyboard.press("t")
    expect(dialog).to_be_visible()
    assert "1 to 1" in _row(own, "Wagers", "Ante")
    assert "1 to 1" in _row(own, "Wagers", "Play")
    assert "10 to 1" in _row(own, "Wagers", "Bad Beat")
    assert "never returned" in _row(own, "Wagers", "Rabbit fee")
    assert "Placed when you choose Buy & Play" in _row(own, "Wagers", "Rabbit fee")
    assert "10 to 1" in _row(own, "2-Way Bad Beat", "The losing hand is a Pair of Tens or better")
    expect(dialog).to_contain_text("The dealer qualifies with Ace-high or better")
    shoot(own, "pay-table-1440")
    own.keyboard.press("Escape")
    expect(dialog).to_be_hidden()


def test_the_house_edges_per_ante_and_per_initial_wager(
    own: Page, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the edges are being worked out the pay table says so, and asks the server
    again every few seconds while it stays open: once they are ready they are filled
    in, each a percentage with what it is a share of. A server that works no edges out
    is not asked again."""
    from riverboat.table.edges import edge_lines
    from riverboat.table.states import EdgesState
    from riverboat.web.routes import games

    own.set_viewport_size({"width": 1024, "height": 900})
    monkeypatch.setattr(games, "edges", lambda name: None)
    monkeypatch.setattr(games, "edges_state", lambda name, working: EdgesState.UNAVAILABLE)
    own.reload()  # the page's games, with no edges and none to come
    own.wait_for_selector(".spot")
    choose(own, "Tri-Card Poker")
    dialog = own.locator("#paytable")
    own.click("#rules")
    expect(dialog.locator("#edges-none")).to_have_text("Not worked out by this server.")
    asked: list[str] = []

    def ask(request: Request) -> None:
        if request.url.endswith("/api/games"):
            asked.append(request.url)

    own.on("request", ask)
    own.wait_for_timeout(4000)  # longer than the page waits between asks
    own.remove_listener("request", ask)
    assert asked == []
    own.keyboard.press("Escape")
    monkeypatch.setattr(games, "edges_state", lambda name, working: EdgesState.PENDING)
    own.reload()  # the page's games, their edges being worked out
    own.wait_for_selector(".spot")
    choose(own, "Tri-Card Poker")
    own.click("#rules")
    expect(dialog.locator("#edges-pending")).to_contain_text("Being worked out")
    ready = edge_lines("tri-card")  # the analyzer's exact figures, ready while it is open
    monkeypatch.setattr(games, "edges", lambda name: ready if name == "tri-card" else None)
    expect(dialog.locator(".edge-value").first).to_be_visible(timeout=15_000)
    # Three Card Poker with Pair Plus paying 40, 30, 6, 4, 1: the Ante and Play's house
    # edge 3.37% per Ante, element of risk 2.01%, Pair Plus 2.32% (Wizard of Odds,
    # "Three Card Poker", its house edge and Pair Plus pay table 1)
    per_ante = _row(own, "House edge", "House edge per Ante (as published)")
    assert re.search(r"3\.37\d*%", per_ante)
    assert re.search(r"3\.37\d*%", _row(own, "House edge", "House edge per total initial wager"))
    assert re.search(r"2\.01\d*%", _row(own, "House edge", "Element of risk"))
    assert re.search(r"2\.3[12]\d*%", _row(own, "House edge", "Pair Plus alone"))
    assert "as a share of the Ante" in per_ante
    own.keyboard.press("Escape")


# ------------------------------------------------------------------ the accessibility


AXE = Axe()


def _audit(page: Page, where: str) -> None:
    """axe-core's audit of the page as it is: no serious or critical violation. The
    script is put in the page once (it stays until the page loads again), and only the
    violations come back."""
    if not page.evaluate("() => 'axe' in window"):
        page.evaluate(AXE.axe_script)
    violations = page.evaluate(
        "axe.run({resultTypes: ['violations']}).then(results => results.violations)"
    )
    grave = [v for v in violations if v["impact"] in ("serious", "critical")]
    report = "\n".join(
        f"{v['id']} ({v['impact']}): {v['help']} at "
        + "; ".join(" ".join(node["target"]) for node in v["nodes"][:6])
        for v in grave
    )
    assert not grave, f"{_sized(page, where)}:\n{report}"


def test_no_serious_accessibility_violation_on_any_table(own: Page, ann: Page) -> None:
    """At a phone's and a desktop's width: every table before the deal, at a decision
    and at the result, then (at the last own table) its pay table, the table menu and
    the keys."""
    for page, titles in ((own, OWN), (ann, SHARED)):
        for title in titles:
            _round(page, title, AUDITED, _audit)
    for width in AUDITED:
        _resize(own, width)
        own.click("#rules")
        expect(own.locator("#paytable")).to_be_visible()
        _audit(own, "the pay table")
        own.keyboard.press("Escape")
        own.click("#logo")
        _audit(own, "the table menu")
        own.keyboard.press("Escape")
        own.keyboard.press("?")
        _audit(own, "the keys")
        own.keyboard.press("Escape")
