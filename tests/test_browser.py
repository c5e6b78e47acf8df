"""The web table in a real browser (Debian's Chromium driven by Playwright): a full round
of each game by clicking, with Fold, Buy & Play, Quick Replay and hold-to-reset, two
players at each shared table, and a screenshot of each table in
test-artifacts/screenshots/."""

import asyncio
import json
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import suppress
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Error, Page, Route, WebSocketRoute, expect

from riverboat.table.live.table import SharedTable
from riverboat.table.live.views import TableMessage
from riverboat.table.service import TableService

from browser_support import (
    choose,
    finish,
    new_context,
    new_tab,
    pick_chip,
    shoot,
    table_tab,
    tap,
)


def test_the_page_loads_as_es_modules(page: Page, server: str) -> None:
    """index.html loads js/main.js as a module; every module it imports is served as
    JavaScript (a module with another MIME type would not run) and the page started."""
    assert 'type="module" src="/static/js/main.js"' in page.content()
    loaded = page.evaluate(
        "performance.getEntriesByType('resource').map(e => e.name)"
        ".filter(n => n.includes('/static/js/'))"
    )
    assert len(loaded) >= 8
    for address in loaded:
        served = page.request.get(address)
        assert served.ok
        assert "javascript" in served.headers["content-type"]
    expect(page.locator("#fair-line")).to_contain_text("SHA-256")


def test_rabbit_hunter_buy_and_play(page: Page) -> None:
    choose(page, "Rabbit Hunter")
    tap(page, "ante")
    tap(page, "bonus")
    expect(page.locator("[data-spot=bonus] strong")).to_have_text("$5")
    page.click("#deal")
    page.click("[data-action=buy]")
    expect(page.locator("#player svg")).to_have_count(6)  # five and the rabbit
    finish(page, "rabbit-hunter")


def test_tri_card_fold_and_quick_replay(page: Page) -> None:
    choose(page, "Tri-Card Poker")
    tap(page, "ante", 2)
    expect(page.locator("#fair-line")).to_contain_text("SHA-256")
    shown = page.locator("#fair-line").get_attribute("data-commitment") or ""
    assert re.fullmatch("[0-9a-f]{64}", shown)
    expect(page.locator("#fair-line")).to_contain_text(shown[:8])  # its first digits show
    page.click("#deal")
    page.click("[data-action=fold]")
    expect(page.locator("#message")).to_contain_text("folds")
    page.click("#history-toggle")  # the round was dealt on the seed committed to before
    expect(page.locator("#rounds li .row-fair").first).to_contain_text(shown)
    page.keyboard.press("Escape")
    expect(page.locator("#history")).to_be_hidden()
    # a new one for the next
    expect(page.locator("#fair-line")).not_to_have_attribute("data-commitment", shown)
    page.click("#replay")  # the same $10 Ante again (R10)
    expect(page.locator("[data-spot=ante] strong")).to_have_text("$10")
    page.click("[data-action=raise]")
    finish(page, "tri-card")


def test_crazy4_play_and_the_pay_table(page: Page) -> None:
    choose(page, "Crazy 4 Poker")
    tap(page, "ante")
    expect(page.locator("[data-spot=super_bonus] strong")).to_have_text("$5")  # it follows the Ante
    page.click("#deal")
    page.locator("[data-action=play]").first.click()
    finish(page, "crazy4")
    page.click("#rules")
    expect(page.locator("#paytable")).to_contain_text("Four Aces")
    expect(page.locator("#paytable")).to_contain_text("the best four count")  # the rules (R11)
    page.keyboard.press("Escape")


def test_baccarat_coup_hold_to_reset_and_roads(page: Page) -> None:
    choose(page, "Baccarat")
    tap(page, "tie")
    spot = page.locator("[data-spot=tie]")
    spot.hover()
    page.mouse.down()
    page.wait_for_timeout(900)  # press and hold resets (R2)
    page.mouse.up()
    page.wait_for_timeout(300)
    expect(page.locator("[data-spot=tie] strong")).to_have_text("$0")
    tap(page, "banker")
    page.click("#deal")
    finish(page, "baccarat")
    # no Tie wager was left: no "Tie +$..." or "Tie -$..." result (the coup may still tie)
    expect(page.locator("#message")).not_to_contain_text(re.compile(r"Tie [+-]\$"))
    expect(page.locator("#bead span")).not_to_have_count(0)


#: each game's round on a phone: its table, the spot tapped and the decision (Baccarat has none)
PHONE_ROUNDS = (
    ("Rabbit Hunter", "ante", "buy"),
    ("Tri-Card Poker", "ante", "raise"),
    ("Crazy 4 Poker", "ante", "play"),
    ("Baccarat", "player", None),
)


@pytest.mark.parametrize(("width", "height"), [(390, 844), (844, 390)])
def test_every_game_by_touch_on_a_phone(
    server: str, browser: Browser, width: int, height: int
) -> None:
    """A round of each game played by taps alone on a touch phone upright and on its
    side: the table menu, a spot, Deal and the decision, all in reach without
    sideways scrolling. The phone loads the page once and plays the games one after
    another, as a player moves from table to table."""
    phone = new_tab(
        browser, viewport={"width": width, "height": height}, is_mobile=True, has_touch=True
    )
    phone.goto(server)
    phone.wait_for_selector(".spot")
    for title, spot, decision in PHONE_ROUNDS:
        case = f"{title} at {width}x{height}"
        phone.locator("#logo").tap()
        phone.locator("#games").get_by_role("button", name=title, exact=True).tap()
        expect(phone.locator("#logo"), case).to_have_text(title)
        phone.wait_for_load_state("networkidle")  # the page's own load, the first table's
        # a later table's load: its open round and its commitment are in
        expect(phone.locator("body"), case).not_to_have_attribute("data-choosing", re.compile(".*"))
        phone.locator(f"[data-spot={spot}]").tap()
        expect(phone.locator(f"[data-spot={spot}]"), case).to_have_class(
            re.compile("circle--staked")
        )
        phone.locator("#deal").tap()
        if decision:
            phone.locator(f"[data-action={decision}]").first.tap()
        expect(phone.locator("#message"), case).to_contain_text("Net")
        scrolled = phone.evaluate("document.documentElement.scrollWidth")
        assert scrolled <= width, f"{case}: the page is {scrolled} px wide"
        phone.wait_for_timeout(600)  # the deal and the chips' animation
        shoot(phone, f"phone-touch-{spot}-{title.split()[0].lower()}-{width}x{height}")
    phone.close()


def test_nothing_scrolls_sideways_on_the_narrowest_phone(server: str, browser: Browser) -> None:
    """At 320 px every table fits the screen: no sideways scrolling."""
    phone = new_tab(browser, viewport={"width": 320, "height": 700}, is_mobile=True, has_touch=True)
    phone.goto(server)
    phone.wait_for_selector(".spot")
    for title in ("Rabbit Hunter", "Tri-Card Poker", "Crazy 4 Poker", "Baccarat"):
        choose(phone, title)
        phone.wait_for_timeout(200)
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= 320, f"{title} is {width} px wide on a 320 px screen"
    shoot(phone, "phone-320-baccarat", full_page=True)
    phone.close()


def test_a_shared_server_asks_for_a_log_in(shared_server: str, browser: Browser) -> None:
    tab = new_tab(browser)
    tab.goto(shared_server)
    expect(tab.locator("#login")).to_be_visible()
    tab.fill("#login-name", "ann")
    tab.fill("#login-password", "wrong password")
    tab.click("#login-form button")
    expect(tab.locator("#login-error")).to_contain_text("wrong password")
    tab.fill("#login-password", "a long password")
    tab.click("#login-form button")
    expect(tab.locator("#balance")).to_have_text("$1,000")
    tab.click("#logo")  # Log out sits in the table menu, beside the coach, not in the header
    expect(tab.locator("#logout")).to_be_visible()
    tab.close()


def test_a_new_player_signs_up_beside_the_log_in(shared_server: str, browser: Browser) -> None:
    """The log-in dialog's sign-up form: a look-alike of a taken name is refused in the
    form's own words, then a new name makes the account and the player is at the table;
    at 390 px the dialog fits the screen, and axe finds nothing serious in it."""
    tab = new_tab(browser, viewport={"width": 390, "height": 844})
    tab.goto(shared_server)
    expect(tab.locator("#signup-form")).to_be_visible()
    expect(tab.locator("#signup-rules")).to_contain_text("one writing system")
    tab.fill("#signup-name", "A.NN")  # ann's look-alike
    tab.fill("#signup-password", "a long password")
    tab.click("#signup-form button")
    expect(tab.locator("#signup-error")).to_contain_text("is taken, or looks like one that is")
    expect(tab.locator("#login-error")).to_have_text("")
    assert tab.evaluate("document.documentElement.scrollWidth") <= 390
    violations = Axe().run(tab).response["violations"]
    grave = [v["id"] for v in violations if v["impact"] in ("serious", "critical")]
    assert not grave, grave
    shoot(tab, "sign-up-390")
    tab.fill("#signup-name", "Zoë")
    tab.click("#signup-form button")
    expect(tab.locator("#login")).to_be_hidden()
    expect(tab.locator("#balance")).to_have_text("$1,000")
    me = tab.request.get(shared_server.rstrip("/") + "/api/me")
    assert me.status == 200  # a session of its own
    tab.close()


def _verify(page: Page, title: str, nth: int = 0) -> None:
    """Verify the `nth` newest round of the game titled `title`, in its row's Fairness."""
    expect(page.locator("#rounds")).to_have_attribute("aria-busy", "false")  # the newest are in
    row = page.locator(f"#rounds li:has(.row-title strong:text-is('{title}'))").nth(nth)
    row.locator(".row-fair summary").click()
    button = row.locator(".verify")
    button.click()
    expect(button.locator("xpath=following-sibling::span[1]")).to_contain_text(
        "verified in your browser"
    )


def test_a_round_verifies_in_the_browser(page: Page, server: str) -> None:
    page.click("#history-toggle")
    _verify(page, "Rabbit Hunter")  # a deck, from its top
    page.keyboard.press("Escape")
    # a Baccarat shoe deals coup after coup and shows its seed at the cut card (B1):
    # play this player's shoe to its end, then check a coup from its middle
    csrf = next(c["value"] for c in page.context.cookies() if c["name"] == "riverboat_csrf")
    for _ in range(120):
        coup = page.request.post(
            server + "api/rounds",
            data={"game": "baccarat", "wagers": {"banker": 500}},
            headers={"X-CSRF-Token": csrf},
        ).json()
        if coup["server_seed"]:
            break
    page.click("#history-toggle")  # History asks for the newest rounds each time it opens
    expect(page.locator("#rounds")).to_have_attribute("aria-busy", "false")
    row = page.locator("#rounds li:has(.row-title strong:text-is('Baccarat'))").nth(5)
    row.locator(".row-fair summary").click()
    button = row.locator(".verify")
    button.click()
    expect(button.locator("xpath=following-sibling::span[1]")).to_contain_text(
        "coups run end to end from the burn to the cut card"
    )
    page.keyboard.press("Escape")


def test_the_page_checks_a_big_coups_seeds_against_its_client_seed(
    page: Page, tmp_path: Path
) -> None:
    """At a shoe of more players than a client seed holds, the deal's client seed is the
    SHA-256 of everyone's seeds (docs/fairness.md): the page's Verify hashes the seeds
    the round carries as the server does, and names a list that was changed."""
    service = TableService(f"sqlite:///{tmp_path / 'shoe.db'}")
    names = [service.register(f"p{n:02}", "a long password") for n in range(12)]

    async def coup() -> int:
        table = SharedTable(service, "baccarat", betting_seconds=60)
        for player in names:
            await table.sit(player, _ignore)
        for player in names:  # the last bet deals the coup
            await table.bet(player, {"banker": 500}, client_seed=f"seed-é-{player:04}")
        assert table.deal is not None
        return table.deal.id

    with ThreadPoolExecutor(1) as aside:  # Playwright's own loop runs in this thread
        service.reveal_deal(aside.submit(asyncio.run, coup()).result())
    round_ = service.history(names[0], 1)[0].model_dump(mode="json")
    assert len(round_["seeds"] or "") > 128  # hashed, not kept as it is
    check = "(round) => import('/static/js/verify.js').then((m) => m.verifyRound(round))"
    assert page.evaluate(check, round_).startswith("verified in your browser")
    forged = {**round_, "seeds": "|".join(reversed(round_["seeds"].split("|")))}
    assert page.evaluate(check, forged) == (
        "the client seed is not the SHA-256 of the seated players' seeds"
    )


async def _ignore(message: TableMessage) -> None:
    """A seat's messages, unread."""


def test_a_reload_picks_up_the_round_in_play(page: Page) -> None:
    choose(page, "Rabbit Hunter")
    tap(page, "ante")
    page.click("#deal")
    expect(page.locator("[data-action=play]")).to_be_visible()
    dealt = page.locator("#player").inner_html()
    page.reload()
    page.wait_for_selector(".spot")
    expect(page.locator("#message")).to_contain_text("still open")
    assert page.locator("#player").inner_html().count("<svg") == dealt.count("<svg")
    page.click("[data-action=fold]")
    expect(page.locator("#message")).to_contain_text("folds")


def test_chips_tapped_while_a_table_loads_stay_put(page: Page) -> None:
    """The table's open round comes late (held below); chips tapped meanwhile, and the
    same table chosen twice, keep the chips: the later choice wins, nothing resets."""
    choose(page, "Crazy 4 Poker")
    for spot in page.locator("#spots [data-spot]").all():  # empty circles to start
        spot.focus()
        page.keyboard.press("Backspace")
    held: list[Route] = []
    page.route("**/api/games/tri-card/open", lambda route: held.append(route))

    def pick() -> None:  # the table, its load held: drawn at once, still choosing
        page.click("#logo")
        page.locator("#games").get_by_role("button", name="Tri-Card Poker").click()
        expect(page.locator("#logo")).to_have_text("Tri-Card Poker")
        expect(page.locator("body")).to_have_attribute("data-choosing", "tri-card")
        page.locator("#tables").evaluate("dialog => dialog.open && dialog.close()")

    pick()
    tap(page, "pair_plus")
    pick()  # again, before the first load ends
    tap(page, "pair_plus")
    expect(page.locator("[data-spot=pair_plus] .pile__amount")).to_have_text("$10")
    assert len(held) == 2
    for route in reversed(held):  # both loads end now, the first one last of all
        route.continue_()
    page.unroute("**/api/games/tri-card/open")
    expect(page.locator("body")).not_to_have_attribute("data-choosing", re.compile(".*"))
    expect(page.locator("[data-spot=pair_plus] .pile__amount")).to_have_text("$10")


def _hold(page: Page, pattern: str) -> list[Route]:
    """Requests to `pattern` held, unanswered, until the test lets them go."""
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    page.route(pattern, hold)
    return held


def _rounds_after(page: Page, server: str, last: int) -> int:
    """How many rounds this player has dealt since round `last`."""
    rounds = page.request.get(server + "api/history?limit=200").json()
    return sum(1 for r in rounds if r["id"] > last)


def _last_round(page: Page, server: str) -> int:
    rounds = page.request.get(server + "api/history?limit=1").json()
    return int(rounds[0]["id"]) if rounds else 0


@pytest.mark.parametrize(("title", "spot"), [("Baccarat", "banker"), ("Tri-Card Poker", "ante")])
def test_a_double_click_on_deal_deals_once(page: Page, server: str, title: str, spot: str) -> None:
    choose(page, title)
    tap(page, spot)
    expect(page.locator("#fair-line")).to_contain_text("SHA-256")
    last = _last_round(page, server)
    page.dblclick("#deal")
    expect(page.locator("#message")).to_contain_text(re.compile("Net|Your decision"))
    page.wait_for_timeout(500)  # time for a second request, were one sent
    assert _rounds_after(page, server, last) == 1
    expect(page.locator("#message")).not_to_contain_text("first")  # no "finish round N first"
    if page.locator("[data-action=fold]").count():
        page.click("[data-action=fold]")
        expect(page.locator("#message")).to_contain_text("folds")


@pytest.mark.parametrize(("title", "spot"), [("Baccarat", "banker"), ("Tri-Card Poker", "ante")])
def test_two_quick_replay_taps_raise_no_false_alarm(
    page: Page, server: str, title: str, spot: str
) -> None:
    """Two taps on Quick Replay 150 ms apart, the second while the next commitment is
    still being fetched (held here until after it): one round, and no warning that the
    round carries another commitment than the one shown."""
    choose(page, title)
    tap(page, spot)
    page.click("#deal")
    expect(page.locator("#message")).to_contain_text(re.compile("Net|Your decision"))
    if page.locator("[data-action=fold]").count():
        page.click("[data-action=fold]")
    expect(page.locator("#message")).to_contain_text("Net")
    expect(page.locator("#replay")).to_be_enabled()
    last = _last_round(page, server)
    held = _hold(page, "**/commitment")
    box = page.locator("#replay").bounding_box()
    assert box
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.click(x, y)
    page.wait_for_timeout(150)
    page.mouse.click(x, y)  # 150 ms later: a tap on a button that may be disabled
    page.wait_for_timeout(150)
    for route in held:
        route.continue_()
    page.unroute("**/commitment")
    expect(page.locator("#fair-line")).to_contain_text("SHA-256")
    expect(page.locator("#message")).to_contain_text(re.compile("Net|Your decision|Warning"))
    page.wait_for_timeout(300)
    expect(page.locator("#message")).not_to_contain_text("Warning")
    expect(page.locator("#message")).not_to_contain_text("first")
    assert _rounds_after(page, server, last) == 1
    if page.locator("[data-action=fold]").count():
        page.click("[data-action=fold]")
        expect(page.locator("#message")).to_contain_text("folds")
    expect(page.locator("#message")).not_to_contain_text("Warning")


def test_a_hint_at_work_says_so_and_can_be_dismissed(page: Page) -> None:
    choose(page, "Rabbit Hunter")
    tap(page, "ante")
    page.click("#deal")
    expect(page.locator("#hint")).to_be_enabled()
    held = _hold(page, "**/hint")  # a first hint can take a while: held here
    page.click("#hint")
    expect(page.locator("#hint-box")).to_contain_text("Working out the expected values")
    expect(page.locator("#hint")).to_be_disabled()  # one hint at a time
    page.click("#hint-close")
    expect(page.locator("#hint-box")).to_be_hidden()
    expect(page.locator("#hint")).to_be_enabled()
    for route in held:
        with suppress(Error):  # the page gave the request up already
            route.abort()
    page.unroute("**/hint")
    page.click("[data-action=fold]")
    expect(page.locator("#message")).to_contain_text("folds")


# ---------------------------------------------------------------- by keyboard alone


@pytest.fixture(scope="module")
def keyboard_tab(server: str, browser: Browser) -> Iterator[Page]:
    """A tab of the keyboard tests' own: no wagers of the other tests are remembered in it
    (Quick Replay's, which come back on the felt when their table is chosen again)."""
    tab = table_tab(server, browser)
    yield tab
    tab.close()


@pytest.fixture
def keyboard_page(keyboard_tab: Page) -> Page:
    """The keyboard tests' tab as each test finds it, driven by the keyboard only: at
    Tri-Card Poker with no round open and no chips on the felt, the $5 chip chosen, no
    dialog open, nothing focused and no request held. Tri-Card is the one table that
    more than one of these tests deals at: chosen again from here it comes back empty,
    as in a fresh tab; each other table is dealt at by one test alone."""
    page = keyboard_tab
    page.unroute_all(behavior="ignoreErrors")
    page.evaluate("document.querySelectorAll('dialog[open]').forEach((d) => d.close())")
    fold = page.locator("[data-action=fold]")
    if fold.count():
        fold.click()
        expect(page.locator("#message")).to_contain_text("Net")
    if page.locator("#logo").text_content() != "Tri-Card Poker":
        choose(page, "Tri-Card Poker")
    if page.locator("#spots .circle--staked").count():
        page.click("#clear")
    expect(page.locator("#spots .circle--staked")).to_have_count(0)
    if page.locator("#chips [aria-pressed=true]").get_attribute("aria-label") != "$5 chip":
        pick_chip(page, 500)
    # Tab goes on from the top of the page, as in a fresh tab: from the table's name
    page.locator("#logo").focus()
    page.evaluate("document.activeElement.blur()")
    return page


def _key_to_table(page: Page, title: str) -> None:
    """The table's number key (1 to 6, in the order of the table menu)."""
    titles = page.locator("#games .table-title").all_text_contents()
    page.keyboard.press(str(titles.index(title) + 1))
    expect(page.locator("#logo")).to_have_text(title)
    expect(page.locator("body")).not_to_have_attribute("data-choosing", re.compile(".*"))


def _tab_to(page: Page, spot: str) -> None:
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.dataset.spot") == spot:
            return
    raise AssertionError(f"Tab never reached the {spot} spot")


def _announced(page: Page, text: str) -> None:
    live = page.locator("[aria-live=polite]#announce")
    expect(live).to_contain_text(text)


def test_tri_card_by_keyboard_alone(keyboard_page: Page) -> None:
    page = keyboard_page
    _key_to_table(page, "Tri-Card Poker")
    _tab_to(page, "ante")
    spot = page.locator("[data-spot=ante]")
    expect(spot).to_have_attribute(
        "aria-label", re.compile(r"^Ante, \$0, limits \$\d+ to \$[\d,]+$")
    )
    page.keyboard.press("Enter")
    expect(page.locator("[data-spot=ante] strong")).to_have_text("$5")
    expect(page.locator("[data-spot=ante]")).to_be_focused()  # the place is kept
    page.keyboard.press("Space")
    expect(page.locator("[data-spot=ante] strong")).to_have_text("$10")
    page.keyboard.press("Backspace")  # clears the spot, like a press and hold
    expect(page.locator("[data-spot=ante] strong")).to_have_text("$0")
    page.keyboard.press("ArrowRight")  # the $25 chip
    expect(page.locator("#chips [aria-pressed=true]")).to_have_attribute("aria-label", "$25 chip")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Enter")
    expect(page.locator("[data-spot=ante]")).to_have_attribute(
        "aria-label", re.compile(r"^Ante, \$5,")
    )
    expect(page.locator("#fair-line")).to_contain_text("SHA-256")
    page.keyboard.press("d")
    raise_button = page.locator("[data-action=raise]")
    expect(raise_button).to_be_enabled()
    expect(raise_button).to_have_attribute("aria-keyshortcuts", "r")
    _announced(page, "Your decision")
    page.keyboard.press("r")
    expect(page.locator("#message")).to_contain_text("Net")
    _announced(page, "Net")
    sentence = page.locator("#message").text_content() or ""
    page.wait_for_timeout(200)
    assert page.locator("#announce").inner_text() == sentence  # the result stays there
    page.wait_for_timeout(300)
    shoot(page, "keyboard-tri-card")


@pytest.mark.parametrize("title", ["Rabbit Hunter", "Crazy 4 Poker"])
def test_a_poker_game_by_keyboard_alone_to_its_result(keyboard_page: Page, title: str) -> None:
    """Rabbit Hunter and Crazy 4 played to a result with keys only: the table's number,
    Tab to the Ante, Enter for a chip, d to deal, then each decision by the key its
    button shows (never Fold) until the hand is settled."""
    page = keyboard_page
    _key_to_table(page, title)
    _tab_to(page, "ante")
    page.keyboard.press("Enter")
    expect(page.locator("[data-spot=ante] strong")).to_have_text("$5")
    expect(page.locator("#fair-line")).to_contain_text("SHA-256")
    page.keyboard.press("d")
    decisions = page.locator("#choices button:not([data-action=fold])")
    expect(decisions.first).to_be_enabled()
    _announced(page, "Your decision")
    # the focus is never on a decision, which a second key press would take
    assert page.evaluate("document.activeElement.closest('#choices button')") is None
    for _ in range(4):  # Rabbit Hunter: the rabbit, then Play; Crazy 4: Play
        if not decisions.count():
            break
        button = decisions.first.element_handle()
        key = button.get_attribute("data-key")
        assert key
        assert button.get_attribute("aria-keyshortcuts") == key
        with page.expect_response(lambda r: r.request.method == "POST" and "/actions" in r.url):
            page.keyboard.press(key)
        for _ in range(100):  # the answer drawn: the decisions offered before are gone
            if not button.evaluate("b => b.isConnected"):
                break
            page.wait_for_timeout(50)
    expect(page.locator("#message")).to_contain_text("Net")
    _announced(page, "Net")
    page.wait_for_timeout(300)
    shoot(page, f"keyboard-{title.split()[0].lower()}")


def test_baccarat_by_keyboard_alone_and_a_refusal_announced(keyboard_page: Page) -> None:
    page = keyboard_page
    _key_to_table(page, "Baccarat")
    _tab_to(page, "banker")
    page.keyboard.press("Enter")
    expect(page.locator("[data-spot=banker] strong")).to_have_text("$5")
    expect(page.locator("#fair-line")).to_contain_text("SHA-256")
    page.keyboard.press("d")
    expect(page.locator("#message")).to_contain_text("Net")
    _announced(page, "Net")
    expect(page.locator("#replay")).to_be_enabled()
    page.keyboard.press("Backspace")
    expect(page.locator("[data-spot=banker] strong")).to_have_text("$0")
    expect(page.locator("#message")).to_have_text("Banker cleared.")  # a hold says what it did
    page.keyboard.press("d")  # no wager: the server refuses, and the refusal is heard
    expect(page.locator("#message")).to_have_attribute("data-tone", "refusal")
    refusal = page.locator("#message").text_content() or ""
    assert refusal
    _announced(page, refusal)


def test_a_decision_key_pressed_before_the_cards_show_is_said_to_be_early(
    keyboard_page: Page,
) -> None:
    """R pressed while the deal's answer is on its way is not dropped in silence: the
    message says the cards are still coming; once they show, R raises."""
    page = keyboard_page
    _key_to_table(page, "Tri-Card Poker")
    _tab_to(page, "ante")
    page.keyboard.press("Backspace")
    page.keyboard.press("Enter")
    expect(page.locator("[data-spot=ante] strong")).to_have_text("$5")
    expect(page.locator("#fair-line")).to_contain_text("SHA-256")
    held: list[Route] = []
    page.route("**/api/rounds", lambda route: held.append(route))  # the deal waits here
    page.keyboard.press("d")
    page.wait_for_function("() => document.getElementById('deal').disabled")
    page.keyboard.press("r")
    expect(page.locator("#message")).to_have_text(
        "The cards are still coming: press R again once they show."
    )
    _announced(page, "The cards are still coming")
    for route in held:
        route.continue_()
    page.unroute("**/api/rounds")
    expect(page.locator("#message")).to_have_text("Your decision.")
    page.keyboard.press("r")
    expect(page.locator("#message")).to_contain_text("Net")


def test_what_is_said_while_a_table_loads_is_not_covered_by_its_prompt(
    keyboard_page: Page,
) -> None:
    """A key answered while the table's load is on its way (its open round asked for)
    keeps its message: the table's "Tap a spot" prompt, which comes later, is older news."""
    page = keyboard_page
    held: list[Route] = []
    page.route("**/open", lambda route: held.append(route))  # the table's load waits here
    titles = page.locator("#games .table-title").all_text_contents()
    page.keyboard.press(str(titles.index("Tri-Card Poker") + 1))
    expect(page.locator("#logo")).to_have_text("Tri-Card Poker")
    page.wait_for_function("() => document.body.dataset.choosing === 'tri-card'")
    page.keyboard.press("d")  # no wager down yet: Deal says so
    said = page.locator("#message")
    expect(said).not_to_have_text("")
    early = said.text_content()
    for route in held:
        route.continue_()
    page.unroute("**/open")
    expect(page.locator("body")).not_to_have_attribute("data-choosing", re.compile(".*"))
    expect(said).to_have_text(early or "")


def test_a_deal_key_pressed_before_the_commitment_shows_is_said_to_be_early(
    keyboard_page: Page,
) -> None:
    """D pressed while the next deal's commitment is on its way (the Deal button waits
    for it) is not dropped in silence; once the commitment shows, D deals."""
    page = keyboard_page
    _key_to_table(page, "Tri-Card Poker")
    _tab_to(page, "ante")
    page.keyboard.press("Backspace")
    page.keyboard.press("Enter")
    expect(page.locator("[data-spot=ante] strong")).to_have_text("$5")
    expect(page.locator("#fair-line")).to_contain_text("SHA-256")
    page.wait_for_load_state("networkidle")  # the table's own commitment is in, not held
    held: list[Route] = []
    page.route("**/commitment", lambda route: held.append(route))  # the next one waits
    page.keyboard.press("f")  # nothing open: F decides nothing
    page.keyboard.press("d")
    expect(page.locator("#message")).to_have_text("Your decision.")
    page.keyboard.press("f")  # the fold settles; the next commitment is held
    expect(page.locator("#message")).to_contain_text("Net")
    page.wait_for_function("() => document.getElementById('deal').disabled")
    page.keyboard.press("d")
    expect(page.locator("#message")).to_have_text(
        "The next deal's commitment is on its way: press D again in a moment."
    )
    _announced(page, "The next deal's commitment is on its way")
    for route in held:
        route.continue_()
    page.unroute("**/commitment")
    expect(page.locator("#deal")).to_be_enabled()
    page.keyboard.press("d")
    expect(page.locator("#message")).to_have_text("Your decision.")
    page.keyboard.press("f")
    expect(page.locator("#message")).to_contain_text("Net")


def test_the_keys_overlay_and_escape(keyboard_page: Page) -> None:
    page = keyboard_page
    page.keyboard.press("?")
    overlay = page.locator("#keys-help")
    expect(overlay).to_be_visible()
    for key, does in (
        ("d", "Deal"),
        ("g", "Quick Replay"),
        ("f", "Fold"),
        ("p", "Play"),
        ("b", "Buy"),
        ("r", "Raise"),
        ("h", "Hint"),
        ("t", "Pay table"),
        ("y", "History"),
        ("← →", "chip"),
        ("↑ ↓", "spot"),
    ):
        expect(overlay.locator("tr", has=page.locator(f"kbd:text-is('{key}')"))).to_contain_text(
            does
        )
    expect(overlay).to_contain_text("Tri-Card Poker")
    shoot(page, "keyboard-help")
    page.keyboard.press("Escape")
    expect(overlay).to_be_hidden()
    page.keyboard.press("y")  # History opens; Escape closes it too
    expect(page.locator("#history")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#history")).to_be_hidden()
    page.keyboard.press("t")  # the pay table, closed by Escape
    expect(page.locator("#paytable")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#paytable")).to_be_hidden()


def test_a_focused_spot_shows_a_focus_ring(keyboard_page: Page) -> None:
    page = keyboard_page
    _tab_to(page, "ante")
    ring = page.evaluate(
        "(() => { const s = getComputedStyle(document.activeElement);"
        " return [s.outlineStyle, s.outlineWidth, s.outlineColor]; })()"
    )
    assert ring[0] != "none"
    assert ring[1] != "0px"
    assert ring[2] == "rgb(255, 255, 255)"
    page.keyboard.press("Tab")  # the next spot, or a chip: ringed too
    assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none"
    page.keyboard.press("Shift+Tab")
    page.wait_for_timeout(300)
    shoot(page, "keyboard-focus-ring")


def test_the_own_shoes_roads_and_a_new_shoe_clears_them(page: Page, server: str) -> None:
    choose(page, "Baccarat")
    # the table's commitment (and so whether a shoe is in play) has loaded: the line
    # shows this table's, not the last table's
    committed = page.request.get(server + "api/games/baccarat/commitment").json()
    expect(page.locator("#fair-line")).to_have_attribute("data-commitment", committed["commitment"])
    if page.locator("#new-shoe").is_visible():  # start from a fresh shoe
        page.click("#new-shoe")
        expect(page.locator("#new-shoe")).to_be_hidden()
    expect(page.locator("#bead span")).to_have_count(0)
    for coup in (1, 2, 3):
        if coup == 1:
            tap(page, "banker")
            page.click("#deal")
        else:
            page.click("#replay")
        expect(page.locator("#bead span")).to_have_count(coup)  # the server's bead plate
    expect(page.locator("#roads")).to_be_visible()
    big = page.locator("#big .ring").count() + (1 if page.locator("#big-ties").inner_text() else 0)
    assert 1 <= big <= 3  # ties go on the entry before, not on a circle of their own
    expect(page.locator("#ask")).to_contain_text("Banker next")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 1100  # the roads scroll in their own boxes
    page.wait_for_timeout(400)
    shoot(page.locator("#roads"), "baccarat-roads")
    page.click("#new-shoe")
    for road in ("bead", "big", "big-eye-boy", "small-road", "cockroach-pig"):
        expect(page.locator(f"#{road} span")).to_have_count(0)


# ---------------------------------------------------------------- two players at a shared table
# (last in the file: ann and bob, signed in once for these tests, stay seated at their
# table until the module ends)


def _signed_in(browser: Browser, address: str, name: str) -> Page:
    tab = new_context(browser, viewport={"width": 1100, "height": 800}).new_page()
    tab.goto(address)
    tab.fill("#login-name", name)
    tab.fill("#login-password", "a long password")
    tab.click("#login-form button")
    expect(tab.locator("#balance")).to_have_text(re.compile(r"\$"))
    return tab


def test_a_closed_shared_table_says_betting_waits_for_the_void_g7(
    shared_server: str, browser: Browser
) -> None:
    """The table's messages pass through as sent, but for a phase of ``closed`` (a
    showdown that could not be written, its void pending: G7): the clock says so, and
    the commitment is shortened on its line, its whole in the line's title."""
    # ann in a context of her own: the WebSocket route below cannot be taken off again
    ann = _signed_in(browser, shared_server, "ann")

    def closing(route: WebSocketRoute) -> None:
        server = route.connect_to_server()

        def relay(message: str | bytes) -> None:
            data = json.loads(message)
            if data.get("type") == "table":
                data = {**data, "phase": "closed", "seconds_left": None}
            route.send(json.dumps(data))

        server.on_message(relay)

    ann.route_web_socket(re.compile(r"/ws/tables/"), closing)
    choose(ann, "Crazy 4 Poker · shared")
    expect(ann.locator("#clock")).to_have_text(
        "Betting is closed until the last round is voided and refunded"
    )
    line = ann.locator("#table-line")
    expect(line).to_contain_text(re.compile(r"commitment SHA-256 [0-9a-f]{8}…"))
    assert re.fullmatch(r"commitment [0-9a-f]{64}", line.get_attribute("title") or "")
    ann.set_viewport_size({"width": 390, "height": 844})
    shoot(ann, "crazy4-shared-closed-phone")
    ann.context.close()


@pytest.fixture(scope="module")
def ann_and_bob(shared_server: str, browser: Browser) -> Iterator[tuple[Page, Page]]:
    """ann and bob signed in, each in a context of their own, for the tests of two
    players at a shared table: each test takes both to its table."""
    ann, bob = (_signed_in(browser, shared_server, name) for name in ("ann", "bob"))
    yield ann, bob
    for tab in (ann, bob):
        tab.context.close()


def test_two_players_at_a_shared_crazy4_table_c8(ann_and_bob: tuple[Page, Page]) -> None:
    ann, bob = ann_and_bob
    for tab in (ann, bob):
        choose(tab, "Crazy 4 Poker · shared")
        expect(tab.locator("#seats")).to_contain_text("free")
        tap(tab, "ante")
    expect(ann.locator("#seats")).to_contain_text("bob")  # each sees the other seated
    ann.check("#blind-toggle")  # a blind second position (C8)
    ann.click("#deal")
    # two hands and the blind Play
    blind = "blind second hand Ante $5, Super Bonus $5, Play $5"
    expect(bob.locator("#seats")).to_contain_text(blind)
    bob.click("#deal")
    for tab in (ann, bob):
        expect(tab.locator("[data-action=fold]")).to_be_visible()
        expect(tab.locator("#player svg")).to_have_count(5)
        expect(tab.locator("#dealer .card[aria-label='face down']")).to_have_count(5)
    expect(ann.locator("#blind .card[aria-label='face down']")).to_have_count(5)
    ann.locator("[data-action=play]").first.click()
    expect(ann.locator("#message")).to_contain_text("waiting for 1 more")
    bob.click("[data-action=fold]")
    for tab in (ann, bob):
        expect(tab.locator("#message")).to_contain_text("Net")
        expect(tab.locator("#dealer .card[aria-label='face down']")).to_have_count(0)
    expect(ann.locator("#blind .card:not([aria-label='face down'])")).to_have_count(5)
    assert ann.locator("#dealer").inner_html() == bob.locator("#dealer").inner_html()
    ann.wait_for_timeout(400)
    shoot(ann, "crazy4-shared")
    ann.reload()  # back at the same table
    expect(ann.locator("#logo")).to_have_text("Crazy 4 Poker · shared")
    expect(ann.locator("#seats")).to_contain_text("ann (you)")


def test_two_players_at_a_shared_baccarat_shoe_b1(ann_and_bob: tuple[Page, Page]) -> None:
    ann, bob = ann_and_bob
    for tab, spot in ((ann, "banker"), (bob, "player")):
        choose(tab, "Baccarat · shared")
        expect(tab.locator("#table-line")).to_contain_text("commitment")
        tap(tab, spot)
    expect(ann.locator("#seats")).to_contain_text("bob")
    for coup in (1, 2):
        ann.click("#deal" if coup == 1 else "#replay")  # the second coup by Quick Replay (R10)
        bob.click("#deal" if coup == 1 else "#replay")
        for tab in (ann, bob):
            expect(tab.locator("#message")).to_contain_text("Net")
            expect(tab.locator("#bead span")).to_have_count(coup)
    assert ann.locator("#player").inner_html() == bob.locator("#player").inner_html()
    expect(ann.locator("#table-line")).to_contain_text("cards left in the shoe")
    ann.wait_for_timeout(400)
    shoot(ann, "baccarat-shared")
