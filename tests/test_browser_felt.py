"""The felt in a real browser: a betting circle for every line of the game (the wagers
and the lines a decision places), chips stacked in them, the rabbit in its own place,
Baccarat's boxes with their totals and its third cards sideways, the result at a glance
(the banner, the made cards, each circle's win or loss) read against the round the
server sent, circles whose words stay inside them on a phone, and a banner that lets
the next tap through. Screenshots of every own table at 390x844, 844x390 and 1440x900,
before the deal, at a decision and at a result, go to test-artifacts/screenshots/.

One tab serves most tests, at a desktop's size or a phone's (``wide``, ``phone``): each
test takes it to its table afresh, and a test that fails leaves it to be replaced."""

import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Response, expect

from browser_support import choose, new_context, new_tab, pick_chip, resize, shoot, tap

Round = dict[str, Any]


def _money(cents: int) -> str:
    """As the page writes an amount: "$5", "$4.75", "$1,000"."""
    whole, part = divmod(abs(cents), 100)
    text = f"${whole:,}" + (f".{part:02d}" if part else "")
    return "-" + text if cents < 0 else text


def _signed(cents: int) -> str:
    """A circle's result: "+$5", "−$5" (a minus sign) or "push"."""
    if cents > 0:
        return "+" + _money(cents)
    return "−" + _money(-cents) if cents < 0 else "push"


def _tab(browser: Browser, server: str, width: int, height: int) -> Page:
    tab = new_tab(browser, viewport={"width": width, "height": height})
    tab.goto(server)
    tab.wait_for_selector(".spot")
    return tab


class _Kept:
    """A tab kept across a module's tests: one page load where each test would make its
    own, each test starting from its table chosen afresh."""

    def __init__(self, browser: Browser, server: str) -> None:
        self.browser, self.server = browser, server
        self.tab: Page | None = None

    @contextmanager
    def lent(self, request: pytest.FixtureRequest, width: int, height: int) -> Iterator[Page]:
        """The tab at `width` x `height` for one test; one that fails may leave it
        anywhere (a round open, a chip chosen), so the next test gets a new one."""
        failed = request.session.testsfailed
        if self.tab is None:
            self.tab = _tab(self.browser, self.server, width, height)
        resize(self.tab, width, height)
        yield self.tab
        if request.session.testsfailed > failed:
            self.close()

    def close(self) -> None:
        if self.tab is not None:
            self.tab.close()
            self.tab = None


@pytest.fixture(scope="module")
def kept(server: str, browser: Browser) -> Iterator[_Kept]:
    tabs = _Kept(browser, server)
    yield tabs
    tabs.close()


@pytest.fixture
def wide(kept: _Kept, request: pytest.FixtureRequest) -> Iterator[Page]:
    """The module's tab at 1440x900."""
    with kept.lent(request, 1440, 900) as tab:
        yield tab


@pytest.fixture
def phone(kept: _Kept, request: pytest.FixtureRequest) -> Iterator[Page]:
    """The module's tab at 390x844 (a phone's size, without touch)."""
    with kept.lent(request, 390, 844) as tab:
        yield tab


@contextmanager
def _case(name: str) -> Iterator[None]:
    """A check that fails inside says it failed at `name`."""
    try:
        yield
    except AssertionError as error:
        raise AssertionError(f"{name}: {error}") from error


def _posted(path_end: str) -> Callable[[Response], bool]:
    return lambda response: response.request.method == "POST" and response.url.endswith(path_end)


def _deal(page: Page) -> Round:
    """Deal, and the round the server answered with."""
    with page.expect_response(_posted("/api/rounds")) as answer:
        page.click("#deal")
    round_: Round = answer.value.json()
    return round_


def _decide(page: Page, action: str) -> Round:
    with page.expect_response(_posted("/actions")) as answer:
        page.locator(f"[data-action={action}]").first.click()
    round_: Round = answer.value.json()
    return round_


#: each server's /api/games, by its address: the same for as long as it serves
_GAMES: dict[str, list[dict[str, Any]]] = {}


def _game(page: Page, name: str) -> dict[str, Any]:
    origin = "/".join(page.url.split("/")[:3])
    if origin not in _GAMES:
        _GAMES[origin] = page.evaluate("fetch('/api/games').then((r) => r.json())")
    return next(game for game in _GAMES[origin] if game["game"] == name)


def _circle(page: Page, name: str) -> Any:
    return page.locator(f"#felt [data-spot={name}], #felt [data-line={name}]")


def _check_result(page: Page, game: dict[str, Any], round_: Round) -> None:
    """The banner, the made cards and every circle agree with the settled round."""
    banner = page.locator("#banner")
    expect(banner).to_be_visible()
    assert banner.get_attribute("aria-hidden") == "true"  # the sentence is announced instead
    net = round_["net"]
    outcome = "win" if net > 0 else "loss" if net < 0 else "push"
    expect(banner).to_have_attribute("data-outcome", outcome)
    # the hand and the money apart: a hand won can lose money (the rabbit fee, a side wager)
    head, money = banner.locator(".banner__head"), banner.locator(".banner__money")
    expect(money).to_have_text(f"Net {_signed(net)}" if net else "Net even")
    words = _hand_words(game, round_)
    if words:
        expect(head).to_have_text(words)
    else:  # nothing played against the dealer (Pair Plus alone): the money says it all
        expect(head).to_have_count(0)
    for name in round_["hand_names"].values():  # the hands' names, where ranked
        if not round_["totals"]:
            expect(banner).to_contain_text(name)
    made = sum(len(indices) for indices in round_["made"].values())
    expect(page.locator("#felt .card--made")).to_have_count(made)
    stakes = round_["stakes"]
    for line in game["lines"]:
        circle = _circle(page, line["name"])
        expect(circle).to_have_count(1)
        staked, result = stakes.get(line["name"], 0), round_["result"].get(line["name"], 0)
        if staked or result:
            expect(circle.locator(".pile__result")).to_have_text(_signed(result))
        if staked:
            expect(circle.locator(".pile__amount")).to_have_text(_money(staked))


#: the banner's words for how a poker hand ended (RoundView.hand_outcome)
_HAND_WORDS = {
    "won": "You win the hand",
    "lost": "{dealer} wins the hand",
    "tied": "The hands tie",
    "folded": "You folded",
    "not_qualified": "{dealer} does not qualify",
    "no_play": "",
}


def _hand_words(game: dict[str, Any], round_: Round) -> str:
    """What the banner's head should say of the round's hand: a coup its side."""
    house = next((hand for hand in game["hands"] if hand["house"]), None)
    if house is None:
        return "Tie" if round_["winner"] == "Tie" else f"{round_['winner']} wins"
    return _HAND_WORDS[round_["hand_outcome"]].format(dealer=house["title"])


def _shot(page: Page, game: str, phase: str, *, screen_only: bool = False) -> None:
    """The page whole, to test-artifacts/screenshots/{game}-{width}x{height}-{phase}.jpg,
    or with `screen_only` just what its screen shows, to ...-{phase}-screen.jpg (the
    other tests here take the whole page at the same sizes)."""
    # the deal's and the chips' animations over, rather than a fixed wait: with reduced
    # motion, as the tests' contexts ask for it (browser_support.CONTEXT), none runs
    page.wait_for_function("document.getAnimations().every((a) => a.playState !== 'running')")
    size = page.viewport_size or {"width": 0, "height": 0}
    name = f"{game}-{size['width']}x{size['height']}-{phase}" + ("-screen" if screen_only else "")
    shoot(page, name, full_page=not screen_only)


def _fresh(page: Page, title: str) -> None:
    """At `title`'s table with its circles empty: the chips last dealt there, which come
    back with the table, cleared."""
    choose(page, title)
    page.wait_for_load_state("networkidle")  # the table's requests answered: its wagers set
    staked = page.locator("#spots .circle--staked").evaluate_all(
        "(circles) => circles.map((circle) => circle.dataset.spot)"
    )
    for spot in staked:  # Backspace clears a spot; an empty one needs none
        page.locator(f"#spots [data-spot={spot}]").focus()
        page.keyboard.press("Backspace")
    expect(page.locator("#spots .circle--staked")).to_have_count(0)


def _stake(page: Page, spot: str) -> None:
    """A tap on a spot, and the server's answer drawn (the chips placed)."""
    tap(page, spot)
    expect(page.locator(f"[data-spot={spot}] .pile__amount")).not_to_have_text("$0")


def test_rabbit_hunter_buy_and_play_stakes_the_play_and_the_fee(wide: Page) -> None:
    page = wide
    game = _game(page, "rabbit-hunter")
    _fresh(page, "Rabbit Hunter")
    _stake(page, "ante")
    _stake(page, "bonus")
    assert page.locator("[data-spot=ante] .chip3d").count() == 1  # one $5 chip
    _shot(page, "rabbit-hunter", "before")
    dealt = _deal(page)
    assert dealt["status"] == "open"
    for line in game["lines"]:  # printed on the felt, staked or not
        expect(_circle(page, line["name"])).to_have_count(1)
    expect(page.locator("[data-line=play] .chip3d")).to_have_count(0)  # not placed yet
    rabbit = page.locator("#player [data-hand=rabbit]")
    expect(rabbit).to_contain_text("The rabbit")  # its own place, empty until bought
    expect(rabbit.locator(".card")).to_have_count(0)
    _shot(page, "rabbit-hunter", "decision")
    settled = _decide(page, "buy")
    assert settled["stakes"]["play"] == settled["stakes"]["fee"] == 500
    for line in ("play", "fee"):  # Buy & Play placed both, chips and all
        expect(page.locator(f"[data-line={line}] .pile__amount")).to_have_text("$5")
        stake = page.locator(f"[data-line={line}] .stack:not(.stack--paid) .chip3d")
        expect(stake).to_have_count(1)
    expect(rabbit.locator(".card")).to_have_count(1)  # the rabbit, dealt apart
    expect(page.locator("[data-line=fee] .pile__result")).to_have_text("−$5")  # never returned
    _check_result(page, game, settled)
    _shot(page, "rabbit-hunter", "result")


def _ante_and_decide(page: Page, slug: str, title: str, action: str) -> Round:
    """At `title`'s table: an Ante, Deal and `action`, photographed before, at the
    decision and at the result; the settled round, its result checked on the felt."""
    game = _game(page, slug)
    _fresh(page, title)
    _stake(page, "ante")
    _shot(page, slug, "before")
    _deal(page)
    _shot(page, slug, "decision")
    settled = _decide(page, action)
    line = "raise" if action == "raise" else "play"
    expect(page.locator(f"[data-line={line}] .pile__amount")).to_have_text(
        _money(settled["stakes"][line])
    )
    _check_result(page, game, settled)
    _shot(page, slug, "result")
    return settled


def test_tri_card_raise_stakes_the_raise(wide: Page) -> None:
    settled = _ante_and_decide(wide, "tri-card", "Tri-Card Poker", "raise")
    assert settled["stakes"]["raise"] == settled["stakes"]["ante"]  # T3


def test_crazy4_play_shows_the_play_from_the_stakes(wide: Page) -> None:
    settled = _ante_and_decide(wide, "crazy4", "Crazy 4 Poker", "play")
    assert settled["stakes"]["play"] >= 500
    # the best four of five are lifted: four in each hand
    assert all(len(indices) == 4 for indices in settled["made"].values())


def test_baccarat_totals_and_a_third_card_sideways(wide: Page) -> None:
    page = wide
    game = _game(page, "baccarat")
    _fresh(page, "Baccarat")
    _stake(page, "player")
    _shot(page, "baccarat", "before")
    third = False
    for coup in range(40):  # coups until one draws a third card (most shoes do in a few)
        round_ = _deal(page) if coup == 0 else _replay(page)
        player, banker = round_["totals"]
        expect(page.locator("#player-name")).to_have_text(str(player))
        expect(page.locator("#dealer-name")).to_have_text(str(banker))
        for hand, box in (("player", "#player"), ("banker", "#dealer")):
            cards = page.locator(f"{box} .card")
            expect(cards).to_have_count(len(round_["cards"][hand]))
            # the third card (past the two every hand is dealt) lies on its side
            sideways = page.locator(f"{box} .card--sideways")
            expect(sideways).to_have_count(len(round_["cards"][hand]) - 2)
            third = third or len(round_["cards"][hand]) == 3
        _check_result(page, game, round_)
        if third:
            break
    assert third
    _shot(page, "baccarat", "result")


def _replay(page: Page) -> Round:
    with page.expect_response(_posted("/replay")) as answer:
        page.click("#replay")
    round_: Round = answer.value.json()
    return round_


def test_no_circles_words_run_past_it_on_a_phone(phone: Page) -> None:
    page = phone
    outside = """() => [...document.querySelectorAll('#felt .circle')].flatMap((circle) => {
        const box = circle.getBoundingClientRect();
        const shown = (part) => getComputedStyle(part).display !== 'none'
          && !part.classList.contains('visually-hidden');
        const out = (r) => r.left < box.left - 1 || r.right > box.right + 1
          || r.top < box.top - 1 || r.bottom > box.bottom + 1;
        return [...circle.querySelectorAll('.circle__text, .pile__amount, .pile__limits')]
          .filter((part) => shown(part) && out(part.getBoundingClientRect()))
          .map((part) => `${circle.dataset.spot || circle.dataset.line}: ${part.textContent}`);
      })"""
    for title in ("Rabbit Hunter", "Tri-Card Poker", "Crazy 4 Poker", "Baccarat"):
        _fresh(page, title)
        assert page.locator("#felt .circle").count() >= 3
        assert page.evaluate(outside) == [], title
        pick_chip(page, 10_000)  # a $100 chip: "$100" inside
        _stake(page, page.locator("#spots [data-spot]").first.get_attribute("data-spot") or "")
        assert page.evaluate(outside) == [], title
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    pick_chip(page, 500)  # the $5 chip again, for the tests after


def test_a_tap_on_deal_after_a_result_is_not_blocked(phone: Page) -> None:
    page = phone
    _fresh(page, "Tri-Card Poker")
    _stake(page, "ante")
    _deal(page)
    _decide(page, "fold")
    expect(page.locator("#banner")).to_be_visible()
    events = page.evaluate("getComputedStyle(document.getElementById('banner')).pointerEvents")
    assert events == "none"
    deal = page.locator("#deal")
    deal.scroll_into_view_if_needed()
    box = deal.bounding_box()
    assert box
    hit = page.evaluate(
        "([x, y]) => !!document.elementFromPoint(x, y)?.closest('#deal')",
        [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
    )
    assert hit
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(page.locator("#banner")).to_be_hidden()  # the last result goes at once
    expect(page.locator("[data-action=raise]")).to_be_visible()  # the tap dealt
    _decide(page, "fold")


def test_a_result_hides_no_word_half_way_and_the_tally_reads_as_words(
    phone: Page, server: str
) -> None:
    """A circle's result takes the place of what its line pays, printed along the
    ring's foot, instead of sitting half over it; the header's tally of the visit
    reads "1 round, -$5", then "2 rounds, -$10" (its net signed)."""
    page = phone
    page.goto(server)  # a fresh visit: its tally starts at nothing
    page.wait_for_selector(".spot")
    covered = """() => [...document.querySelectorAll('#felt .circle')].flatMap((circle) => {
        const badge = circle.querySelector('.pile__result');
        if (!badge) return [];
        const b = badge.getBoundingClientRect();
        return [...circle.querySelectorAll('.circle__text')]
          .filter((text) => getComputedStyle(text).opacity !== '0')
          .filter((text) => {
            const r = text.getBoundingClientRect();
            return r.left < b.right && b.left < r.right && r.top < b.bottom && b.top < r.bottom;
          })
          .map((text) => `${circle.dataset.spot}: ${text.textContent}`);
      })"""
    _fresh(page, "Tri-Card Poker")
    expect(page.locator("#stats")).to_have_text("")
    _stake(page, "ante")
    net = 0
    for played in (1, 2):
        _deal(page)
        net += _decide(page, "fold")["net"]  # a fold loses the Ante
        page.wait_for_timeout(900)  # the result's and the lettering's animations
        assert page.locator("#felt .pile__result").count() >= 1
        assert page.evaluate(covered) == []
        expect(page.locator("#stats")).to_have_text(
            f"{played} {'round' if played == 1 else 'rounds'}, {_money(net)}"
        )
    assert net < 0


def _at_each(page: Page, sizes: Sequence[tuple[int, int]]) -> Iterator[tuple[int, int]]:
    """The page at each of `sizes` in turn, the one it is at first (a turn fewer)."""
    size = page.viewport_size or {"width": 0, "height": 0}
    for width, height in sorted(sizes, key=lambda s: s != (size["width"], size["height"])):
        resize(page, width, height)
        yield width, height


def _screenshots(page: Page, sizes: Sequence[tuple[int, int]]) -> None:
    """Every own table dealt once and shown at each of `sizes` (the same round: a phone
    turned), as its screen shows it before the deal, at the decision and at the result,
    each result checked at each size against the round the server sent."""
    for title, game, spots, action in (
        ("Rabbit Hunter", "rabbit-hunter", ("ante", "bonus", "bad_beat"), "buy"),
        ("Tri-Card Poker", "tri-card", ("ante", "pair_plus"), "raise"),
        ("Crazy 4 Poker", "crazy4", ("ante", "queens_up"), "play"),
        ("Baccarat", "baccarat", ("banker", "tie"), None),
    ):
        _fresh(page, title)
        for spot in spots:
            _stake(page, spot)
        for _ in _at_each(page, sizes):
            _shot(page, game, "before", screen_only=True)
        round_ = _deal(page)
        if action:
            for _ in _at_each(page, sizes):
                _shot(page, game, "decision", screen_only=True)
            round_ = _decide(page, action)
        for width, height in _at_each(page, sizes):
            with _case(f"{title} at {width}x{height}"):
                _check_result(page, _game(page, game), round_)
                assert page.evaluate("document.documentElement.scrollWidth") <= width
            _shot(page, game, "result", screen_only=True)


def test_screenshots_on_a_phone_upright_and_sideways(server: str, browser: Browser) -> None:
    """Every own table on a phone held upright (390x844) and turned on its side
    (844x390), before the deal, at the decision and at the result (_screenshots)."""
    page = new_tab(browser, viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page.goto(server)
    page.wait_for_selector(".spot")
    _screenshots(page, [(390, 844), (844, 390)])
    page.close()


def test_screenshots_on_a_desktop(wide: Page) -> None:
    """Every own table at 1440x900, before the deal, at the decision and at the result
    (_screenshots)."""
    _screenshots(wide, [(1440, 900)])


def test_chips_break_greedily_and_a_tall_stack_is_capped(wide: Page) -> None:
    page = wide
    chips = "import('/static/js/chips-stack.js').then((m) => "
    broken = page.evaluate(chips + "m.breakChips(3775, [100, 500, 2500, 10000, 50000]))")
    assert broken == [2500, 500, 500, 100, 100]  # the 75 cents are no chip
    refused = page.evaluate(
        chips + "{ try { m.breakChips(-5, [100]); } catch (e) { return e.message; } })"
    )
    assert "whole cents, 0 or more" in refused
    stack = page.evaluate(chips + "m.chipStackHtml(1200, [100]))")
    assert stack.count("<svg") == 6  # six drawn,
    assert "×12" in stack  # the count beside them


def test_the_chips_move_without_motion_when_asked(wide: Page) -> None:
    tab = wide
    tab.emulate_media(reduced_motion="reduce")  # asked here too: this test's subject
    resize(tab, 1100, 800)
    _fresh(tab, "Baccarat")
    _stake(tab, "player")
    _stake(tab, "banker")
    _deal(tab)
    moving = tab.evaluate(
        "[...document.querySelectorAll('#felt .stack--paid, #felt .stack--taken, #banner')]"
        ".map((e) => getComputedStyle(e).animationName)"
    )
    assert moving
    assert set(moving) == {"none"}


def test_a_shared_crazy4_table_shows_the_blind_hands_circles_c8(
    shared_server: str, browser: Browser
) -> None:
    """The blind second position's circles (C8), from the table's own messages."""
    tab = new_context(browser, viewport={"width": 1100, "height": 900}).new_page()
    frames: list[dict[str, Any]] = []
    tab.on(
        "websocket",
        lambda socket: socket.on("framereceived", lambda frame: frames.append(json.loads(frame))),
    )
    tab.goto(shared_server)
    tab.fill("#login-name", "ann")
    tab.fill("#login-password", "a long password")
    tab.click("#login-form button")
    choose(tab, "Crazy 4 Poker · shared")
    expect(tab.locator("#seats")).to_contain_text("free")
    _stake(tab, "ante")
    tab.check("#blind-toggle")
    tab.click("#deal")
    expect(tab.locator("[data-action=fold]")).to_be_visible()
    dealt = next(m["round"] for m in frames if m.get("type") == "dealt")
    for name, staked in dealt["second_stakes"].items():
        circle = tab.locator(f'[data-line="blind:{name}"]')
        expect(circle).to_have_count(1)
        if staked:
            expect(circle.locator(".pile__amount")).to_have_text(_money(staked))
    tab.locator("[data-action=play]").first.click()
    expect(tab.locator("#message")).to_contain_text("Net")
    settled = next(m["round"] for m in reversed(frames) if m.get("type") == "result")
    _check_result(tab, _game(tab, "crazy4"), settled)
    for name, result in settled["second_result"].items():
        if settled["second_stakes"].get(name) or result:
            badge = tab.locator(f'[data-line="blind:{name}"] .pile__result')
            expect(badge).to_have_text(_signed(result))
    tab.context.close()
