"""Baccarat's roads beside the bets, in a real browser: the bead plate and the big road on
screen together with the felt's betting circles, the cards and Deal (a strip under the
felt on a phone held upright, a column beside it on a phone on its side and on a
desktop), at one's own table after a shoe's coups and at a shared table; the derived
roads and the ask one tap (or Enter) away; a shared table's big road in miniature in the
table menu; axe-core's audit; nothing wider than a 320 px screen. Screenshots go to
test-artifacts/screenshots/roads-*.jpg.

The tests that deal nothing share two tabs, a phone's and a desktop's (``phone``,
``desk``): each test takes one to its table afresh, and a test that fails leaves it to be
replaced. Those that deal open their own: a tab that has dealt keeps the chips for the
table and the visit's tally in its header."""

import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, BrowserContext, Page, expect

from riverboat.table.lobby import default_tables, parse_counts

from browser_support import choose, new_context, new_tab, resize, serving, shoot, tap

OWN_COUPS = 40  # enough for the big road to outgrow a phone's box
SHARED = "Baccarat · shared"
# (name, width, height, touch): a phone upright and on its side, a desktop
SCREENS = [("phone", 390, 844, True), ("landscape", 844, 390, True), ("desktop", 1440, 900, False)]

# every box the player needs at once, against the screen and the action bar: each is
# [left, top, right, bottom]
BOXES = """() => {
  const box = (element) => {
    const b = element.getBoundingClientRect();
    return [b.left, b.top, b.right, b.bottom];
  };
  const all = (selector) => [...document.querySelectorAll(selector)].map(box);
  return { width: innerWidth, height: innerHeight, page: document.documentElement.scrollWidth,
    bar: box(document.getElementById("action-bar")), deal: box(document.getElementById("deal")),
    bead: box(document.getElementById("bead")), big: box(document.getElementById("big")),
    more: box(document.getElementById("roads-more")), spots: all("#spots .spot"),
    cards: all("#player .card, #dealer .card"), beadCells: all("#bead > span") };
}"""


@pytest.fixture(scope="module", autouse=True)
def patient() -> Iterator[None]:
    """Checks wait up to 20 s here: a loaded machine answers slowly, not wrongly."""
    expect.set_options(timeout=20000)
    yield
    expect.set_options(timeout=5000)


def _post(page: Page, server: str, path: str, body: dict[str, Any]) -> Any:
    csrf = next(c["value"] for c in page.context.cookies() if c["name"] == "riverboat_csrf")
    answer = page.request.post(server + path, data=body, headers={"X-CSRF-Token": csrf})
    assert answer.ok, answer.text()
    return answer.json()


@pytest.fixture(scope="module")
def roads_server(tmp_path_factory: pytest.TempPathFactory, browser: Browser) -> Iterator[str]:
    """A server with one shared table of each game, an own shoe of 40 coups and a
    shared shoe of 4 (each bet and dealt through the page at the shared table)."""
    tables = default_tables(parse_counts("crazy4=1,baccarat=1"))
    database = tmp_path_factory.mktemp("roads") / "roads.db"
    with serving(database, local_player=True, tables=tables) as server:
        page = new_tab(browser, viewport={"width": 1440, "height": 900})
        page.goto(server)
        page.wait_for_selector(".spot")
        roads = server + "api/games/baccarat/roads"
        # the coups counted again after each batch of the coups missing, till there are enough
        while (coups := len(page.request.get(roads).json()["bead_plate"])) < OWN_COUPS:
            for _ in range(OWN_COUPS - coups):
                _post(page, server, "api/rounds", {"game": "baccarat", "wagers": {"banker": 500}})
        choose(page, SHARED)
        tap(page, "banker")
        for coup in range(1, 5):
            button = page.locator("#deal" if coup == 1 else "#replay")
            expect(button).to_be_enabled()
            button.click()
            expect(page.locator("#bead > span")).to_have_count(coup)
        choose(page, "Baccarat")  # leaves the shared seat
        page.close()
        yield server


def _context(browser: Browser, width: int, height: int, touch: bool) -> BrowserContext:
    return new_context(
        browser, viewport={"width": width, "height": height}, has_touch=touch, is_mobile=touch
    )


def _opened(context: BrowserContext, server: str) -> Page:
    page = context.new_page()
    page.goto(server)
    page.wait_for_selector(".spot")
    return page


def _at(page: Page, title: str) -> Page:
    choose(page, title)
    page.wait_for_load_state("networkidle")
    return page


class _Kept:
    """A tab kept across the module's tests: one context and page load where each test
    would make its own, each test starting from its table chosen afresh."""

    def __init__(self, browser: Browser, server: str, width: int, height: int, touch: bool):
        self.browser, self.server = browser, server
        self.width, self.height, self.touch = width, height, touch
        self.tab: Page | None = None

    @contextmanager
    def lent(self, request: pytest.FixtureRequest) -> Iterator[Page]:
        """The tab at its size for one test; one that fails may leave it anywhere (a
        dialog open, a seat taken), so the next test gets a new one."""
        failed = request.session.testsfailed
        if self.tab is None:
            context = _context(self.browser, self.width, self.height, self.touch)
            self.tab = _opened(context, self.server)
        resize(self.tab, self.width, self.height)
        yield self.tab
        if request.session.testsfailed > failed:
            self.close()

    def close(self) -> None:
        if self.tab is not None:
            self.tab.context.close()
            self.tab = None


@pytest.fixture(scope="module")
def kept_phone(roads_server: str, browser: Browser) -> Iterator[_Kept]:
    kept = _Kept(browser, roads_server, 390, 844, True)
    yield kept
    kept.close()


@pytest.fixture(scope="module")
def kept_desk(roads_server: str, browser: Browser) -> Iterator[_Kept]:
    kept = _Kept(browser, roads_server, 1440, 900, False)
    yield kept
    kept.close()


@pytest.fixture
def phone(kept_phone: _Kept, request: pytest.FixtureRequest) -> Iterator[Page]:
    """The module's phone tab (touch) at 390x844."""
    with kept_phone.lent(request) as tab:
        yield tab


@pytest.fixture
def desk(kept_desk: _Kept, request: pytest.FixtureRequest) -> Iterator[Page]:
    """The module's desktop tab at 1440x900."""
    with kept_desk.lent(request) as tab:
        yield tab


def _turned(
    page: Page, screens: list[tuple[str, int, int, bool]]
) -> Iterator[tuple[str, int, int]]:
    """The page at each of `screens` in turn (each one's name and size), the one it is at
    first: a phone turned on its side and back as seldom as can be."""
    size = page.viewport_size or {"width": 0, "height": 0}
    for name, width, height, _ in sorted(
        screens, key=lambda screen: (screen[1], screen[2]) != (size["width"], size["height"])
    ):
        resize(page, width, height)
        yield name, width, height


def _inside(box: list[float], width: int, height: int) -> bool:
    left, top, right, bottom = box
    return left >= -0.5 and top >= -0.5 and right <= width + 0.5 and bottom <= height + 0.5


def _all_in_view(page: Page, where: str, cards: int = 0) -> dict[str, Any]:
    """The bead plate, the big road, More roads, every betting circle and (once dealt)
    every card on screen and clear of the action bar; Deal on screen; the page no wider
    than the screen."""
    seen: dict[str, Any] = page.evaluate(BOXES)
    width, height, bar_top = seen["width"], seen["height"], seen["bar"][1]
    assert seen["page"] <= width, f"{where}: the page is {seen['page']} px wide"
    assert len(seen["cards"]) >= cards, f"{where}: {len(seen['cards'])} cards"
    named = [("bead plate", seen["bead"]), ("big road", seen["big"]), ("More roads", seen["more"])]
    named += [(f"circle {n}", box) for n, box in enumerate(seen["spots"])]
    named += [(f"card {n}", box) for n, box in enumerate(seen["cards"])]
    assert len(seen["spots"]) == 3
    for name, box in named:
        assert _inside(box, width, height), (
            f"{where}: the {name} at {box} is off a {width}x{height} screen"
        )
        assert box[3] <= bar_top + 0.5, (
            f"{where}: the action bar (top {bar_top}) covers the {name} at {box}"
        )
    assert _inside(seen["deal"], width, height), (
        f"{where}: Deal at {seen['deal']} is off the screen"
    )
    return seen


@pytest.mark.parametrize(
    "screens", [SCREENS[:2], SCREENS[2:]], ids=["phone-and-landscape", "desktop"]
)
def test_the_roads_felt_cards_and_deal_share_the_screen(
    roads_server: str, browser: Browser, screens: list[tuple[str, int, int, bool]]
) -> None:
    """At one's own table (a shoe of 40 coups, then one more dealt by the page, its cards
    and result on the felt) and at a shared table: the bead plate and big road are on
    screen with the circles, the cards and Deal, none under the action bar, at once; on
    a phone held upright and turned on its side (the same tab, turned at each step), and
    on a desktop."""
    _, width, height, touch = screens[0]  # a phone's screens share its touch
    context = _context(browser, width, height, touch)
    page = _at(_opened(context, roads_server), "Baccarat")
    coups = len(page.request.get(roads_server + "api/games/baccarat/roads").json()["bead_plate"])
    assert coups >= OWN_COUPS  # one more for each case before this one
    expect(page.locator("#bead > span")).to_have_count(coups)
    for name, _, _ in _turned(page, screens):
        seen = _all_in_view(page, f"{name}, own table")
        cells = seen["beadCells"]
        assert min(right - left for left, _, right, _ in cells) >= 17, (
            f"{name}: bead plate cells large enough to read"
        )
        # the big road's box scrolls to its newest column (the page never widens)
        big = page.evaluate(
            "(() => { const b = document.getElementById('big');"
            " return [b.scrollLeft, b.clientWidth, b.scrollWidth]; })()"
        )
        assert big[0] + big[1] >= big[2] - 1, (
            f"{name}: the big road is not at its newest column: {big}"
        )
        newest = page.evaluate(
            "(() => { const b = document.getElementById('big'), box = b.getBoundingClientRect();"
            " const last = [...b.children].sort((x, y) => x.dataset.column - y.dataset.column)"
            ".pop(); const r = last.getBoundingClientRect();"
            " return [r.left >= box.left - 1, r.right <= box.right + 1]; })()"
        )
        assert newest == [True, True], f"{name}: the big road's newest entry is out of its box"
    tap(page, "banker")
    page.click("#deal")
    expect(page.locator("#message")).to_contain_text("Net")
    expect(page.locator("#bead > span")).to_have_count(coups + 1)
    page.wait_for_timeout(500)  # the cards dealt and the result shown
    for name, width, height in _turned(page, screens):
        _all_in_view(page, f"{name}, own table, a coup dealt", cards=4)
        shoot(page, f"roads-own-{width}x{height}")
    choose(page, SHARED)
    expect(page.locator("#seats")).to_contain_text("(you)")  # seated: the seat names you
    expect(page.locator("#bead > span")).to_have_count(4)  # the shared shoe's, from its snapshot
    expect(page.locator("#table-line")).to_contain_text("commitment")
    for name, width, height in _turned(page, screens):
        _all_in_view(page, f"{name}, shared table")
        shoot(page, f"roads-shared-{width}x{height}")
    context.close()


def _derived_marks(page: Page) -> dict[str, int]:
    return {
        road: page.locator(f"#{road} > span").count()
        for road in ("big-eye-boy", "small-road", "cockroach-pig")
    }


def test_the_derived_roads_open_with_one_tap_and_by_keyboard(
    roads_server: str, phone: Page, desk: Page
) -> None:
    """More roads opens the big eye boy, small road, cockroach pig and the ask: one tap on
    a phone, Tab and Enter on a desktop; Escape closes it and gives the focus back."""
    _at(phone, "Baccarat")
    view = phone.request.get(roads_server + "api/games/baccarat/roads").json()
    dialog = phone.locator("#more-roads")
    expect(dialog).to_be_hidden()
    phone.locator("#roads-more").tap()
    expect(dialog).to_be_visible()
    assert _derived_marks(phone) == {
        road: len(view[road.replace("-", "_")])
        for road in ("big-eye-boy", "small-road", "cockroach-pig")
    }
    assert len(view["big_eye_boy"]) > 0  # 40 coups: the derived roads have begun
    expect(phone.locator("#ask")).to_contain_text("Banker next")
    expect(phone.locator("#ask")).to_contain_text("Player next")
    box = dialog.bounding_box()
    assert box is not None
    assert box["x"] >= 0
    assert box["x"] + box["width"] <= 390.5
    phone.wait_for_timeout(300)
    shoot(phone, "roads-more-390x844")
    dialog.locator(".close").tap()
    expect(dialog).to_be_hidden()

    _at(desk, "Baccarat")
    desk.locator("#spots .spot").last.focus()
    for _ in range(20):  # Tab from the last circle reaches More roads
        desk.keyboard.press("Tab")
        if desk.evaluate("document.activeElement.id") == "roads-more":
            break
    assert desk.evaluate("document.activeElement.id") == "roads-more"
    desk.keyboard.press("Enter")
    dialog = desk.locator("#more-roads")
    expect(dialog).to_be_visible()
    expect(desk.locator("#cockroach-pig > span").first).to_be_visible()
    desk.wait_for_timeout(300)
    shoot(desk, "roads-more-1440x900")
    desk.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    assert desk.evaluate("document.activeElement.id") == "roads-more"


def test_the_table_menu_shows_a_shared_shoes_miniature_road(roads_server: str, phone: Page) -> None:
    """The shared Baccarat table's button draws its big road's entries as rings (hidden
    from a screen reader) and says its shoe in words: coups, wins by side, the last."""
    page = _at(phone, "Baccarat")
    page.click("#logo")
    lobby = page.request.get(roads_server + "api/lobby").json()["tables"]
    shared = next(t for t in lobby if t["game"] == "baccarat")
    crazy = next(t for t in lobby if t["game"] == "crazy4")
    button = page.locator(f"[data-table='baccarat:{shared['id']}']")
    mini = button.locator(".mini-road")
    expect(mini).to_have_attribute("aria-hidden", "true")
    expect(mini.locator("i")).to_have_count(len(shared["big_road"]))
    assert len(shared["big_road"]) >= 1
    shoe = shared["shoe"]
    said = (
        f"Banker {shoe['banker']}, Player {shoe['player']}, Tie {shoe['tie']}; last: {shoe['last']}"
    )
    expect(button).to_have_accessible_description(re.compile(re.escape(said)))
    expect(button).to_contain_text("Shoe: 4 coups dealt")
    rings = mini.locator("i").evaluate_all("rs => rs.map(r => r.className.split(' ')[0])")
    assert rings == ["B" if e["winner"] == "Banker" else "P" for e in shared["big_road"]]
    assert page.locator(f"[data-table='crazy4:{crazy['id']}'] .mini-road").count() == 0  # no shoe
    box = mini.bounding_box()
    assert box is not None
    assert box["x"] + box["width"] <= 390
    button.scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    shoot(page, "roads-menu-390x844")
    # the players seated are named; the lobby is fetched again while the menu is open
    page.keyboard.press("Escape")
    choose(page, SHARED)
    expect(page.locator("#seats")).to_contain_text("(you)")  # seated: the seat names you
    page.click("#logo")
    expect(button).to_contain_text(re.compile(r"Seated: \S+"))
    page.keyboard.press("Escape")


def _audit(page: Page, where: str) -> None:
    """axe-core's audit of the page as it is: no serious or critical violation."""
    results = Axe().run(page)
    grave = [v for v in results.response["violations"] if v["impact"] in ("serious", "critical")]
    report = "\n".join(
        f"{v['id']} ({v['impact']}): {v['help']} at "
        + "; ".join(" ".join(node["target"]) for node in v["nodes"][:6])
        for v in grave
    )
    assert not grave, f"{where}:\n{report}"


@pytest.mark.parametrize(("width", "height", "touch"), [(390, 844, True), (1440, 900, False)])
def test_no_serious_accessibility_violation_with_the_roads(
    request: pytest.FixtureRequest, width: int, height: int, touch: bool
) -> None:
    page: Page = request.getfixturevalue("phone" if touch else "desk")  # its tab at this size
    _at(page, "Baccarat")
    _audit(page, f"the roads at {width}")
    page.click("#roads-more")
    expect(page.locator("#more-roads")).to_be_visible()
    _audit(page, f"More roads at {width}")
    page.keyboard.press("Escape")
    page.click("#logo")
    expect(page.locator("#games .mini-road")).to_have_count(1)
    _audit(page, f"the table menu with a miniature road at {width}")
    page.keyboard.press("Escape")


def test_no_sideways_scroll_at_320_the_roads_scroll_in_their_boxes(
    roads_server: str, phone: Page
) -> None:
    resize(phone, 320, 640)  # the phone's tab on a 320 px screen (the next test's is 390 again)
    page = _at(phone, "Baccarat")
    coups = len(page.request.get(roads_server + "api/games/baccarat/roads").json()["bead_plate"])
    expect(page.locator("#bead > span")).to_have_count(coups)
    expect(page.locator("#roads")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    for road in ("bead", "big"):  # each box holds its columns and scrolls
        page.wait_for_function(
            f"(() => {{ const b = document.getElementById('{road}');"
            " return b.clientWidth > 0 && b.scrollWidth > b.clientWidth; })()"
        )
    page.click("#roads-more")
    expect(page.locator("#more-roads")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    box = page.locator("#more-roads").bounding_box()
    assert box is not None
    assert box["x"] >= 0
    assert box["x"] + box["width"] <= 320.5
    page.keyboard.press("Escape")
    page.click("#logo")
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    expect(page.locator("#games .mini-road")).to_have_count(1)
    page.locator("#games .mini-road").scroll_into_view_if_needed()
    shoot(page, "roads-menu-320")
    page.keyboard.press("Escape")


def test_the_strip_follows_the_spec_not_the_game(roads_server: str, phone: Page) -> None:
    """A game without a shoe in its /api/games info shows no roads; roads.js and lobby.js
    name no game, and draw with no style attribute in their markup (the CSP)."""
    page = _at(phone, "Tri-Card Poker")
    expect(page.locator("#roads")).to_be_hidden()
    games = page.request.get(roads_server + "api/games").json()
    assert [g["game"] for g in games if g.get("shoe")] == ["baccarat"]
    for module in ("roads", "lobby"):
        source = page.request.get(roads_server + f"static/js/{module}.js").text()
        assert "style=" not in source, module
        assert not re.search(r"[\"'](baccarat|crazy4|tri-card|rabbit-hunter)[\"']", source), module
