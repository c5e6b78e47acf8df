"""Sound, vibration, the win celebration and the settings in a real browser: the settings
dialog opened by touch (from the table menu) and by key s, clean under axe and kept
across a reload (on <html> before the modules run); the cues a chip, a deal, a refusal
and a settled round schedule through Web Audio, and none with the sound off; vibration
and its switch; Fast speed halving the animations; reduced motion (the system's or the
setting's) with no deal slide and no celebration; a celebration that lets the next tap
through; and the card back each setting draws. Nothing here listens to the sound: the
tests read what sound.js scheduled. Screenshots go to test-artifacts/screenshots/."""

import io
import json
from collections.abc import Callable, Iterator
from typing import Any, Literal

import pytest
from axe_playwright_python.sync_playwright import Axe
from PIL import Image
from playwright.sync_api import Browser, Page, Response, expect, sync_playwright

from browser_support import MOTION, choose, launch_chromium, new_context, shoot

Round = dict[str, Any]
SOUND = "import('/static/js/sound.js').then((m) => "
CELEBRATE = "import('/static/js/celebrate.js').then((m) => "
SETTINGS = "import('/static/js/settings.js').then((m) => "
STATE = "import('/static/js/state.js').then((m) => "


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """The tests' headless Chromium, allowed to start an AudioContext (the taps here are
    real input events, but a headless browser may still hold sound back)."""
    with sync_playwright() as playwright:
        launched = launch_chromium(playwright, "--autoplay-policy=no-user-gesture-required")
        yield launched
        launched.close()


Opener = Callable[..., Page]

# a tab put back as a new one would be: the default settings and none stored, the
# device's own vibrator, no dialog open, no celebration held
RESET = """() => import('/static/js/settings.js').then((settings) => {
  const defaults = settings.read(null);
  if (JSON.stringify(settings.settings) !== JSON.stringify(defaults)) {
    settings.changeSettings(defaults);
  }
  localStorage.removeItem('riverboat-settings');
  localStorage.removeItem('riverboat-look');
  delete navigator.vibrate;
  delete window.buzzes;
  if (window.holding) window.holding.disconnect();
  document.querySelectorAll('.celebration')
    .forEach((layer) => layer.getAnimations({ subtree: true }).forEach((a) => a.play()));
  document.querySelectorAll('dialog[open]').forEach((dialog) => dialog.close());
})"""
# and nothing played, buzzed or celebrated yet (sound.js and celebrate.js record from
# the page's start)
FORGET = """() => Promise.all([import('/static/js/sound.js'), import('/static/js/celebrate.js')])
  .then(([sound, celebrate]) => {
    for (const list of [sound.played, sound.buzzed, celebrate.celebrations]) list.length = 0;
  })"""


@pytest.fixture(scope="module")
def tabs(browser: Browser) -> Iterator[dict[bool, Page]]:
    """The module's tabs at the tables, one by touch and one by mouse, each in a context
    of its own: a page load costs more than putting a tab back as a new one would be."""
    kept: dict[bool, Page] = {}
    yield kept
    for tab in kept.values():
        tab.context.close()


@pytest.fixture
def open_tab(tabs: dict[bool, Page], browser: Browser, server: str) -> Opener:
    """A tab at the tables (its own localStorage, apart from the other kind's), as a new
    one would be: the module's tab for touch (or the mouse's), put back, sized and in
    motion unless ``reduced_motion`` is given."""

    def opener(
        width: int = 1100,
        height: int = 800,
        *,
        touch: bool = False,
        reduced_motion: Literal["no-preference", "reduce"] = "no-preference",
    ) -> Page:
        page = tabs.get(touch)
        if page is None:
            context = new_context(
                browser,
                viewport={"width": width, "height": height},
                has_touch=touch,
                is_mobile=touch,
                **MOTION,
            )
            page = tabs[touch] = context.new_page()
            page.goto(server)
            page.wait_for_selector(".spot")
        else:
            page.set_viewport_size({"width": width, "height": height})
            if page.locator(".spot").count() == 0:  # left without its modules: loaded again
                page.unroute_all()
                page.goto(server)
                page.wait_for_selector(".spot")
            page.evaluate(RESET)
            # a celebration still bursting (the last test's) goes before the records do
            _until(page, lambda: page.locator(".celebration").count() == 0, "no celebration")
            page.evaluate(FORGET)
        page.emulate_media(reduced_motion=reduced_motion)
        return page

    return opener


def _posted(path_end: str) -> Callable[[Response], bool]:
    return lambda response: response.request.method == "POST" and response.url.endswith(path_end)


def _played(page: Page) -> list[str]:
    played: list[str] = page.evaluate(SOUND + "m.played.slice())")
    return played


def _celebrations(page: Page) -> int:
    count: int = page.evaluate(CELEBRATE + "m.celebrations.length)")
    return count


def _until(page: Page, check: Callable[[], bool], what: str, timeout_ms: int = 4000) -> None:
    """Polls ``check`` (the page's policy refuses the string evaluation wait_for_function
    makes) every 100 ms: each look is a round trip to the page, and most import a module
    there, so looking twice as often would cost the browser about twice the CPU."""
    for _ in range(timeout_ms // 100):
        if check():
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"still not so after {timeout_ms} ms: {what}")


def _fresh(page: Page, title: str) -> None:
    """At `title`'s table with its circles empty, every clear answered: each Backspace
    sends one and cues a chip when its answer comes, so a cue counted from here on is
    never a clear's that came late. The table is chosen only when another is in view:
    choosing the one in view again would draw it again for nothing."""
    if page.locator("#logo").text_content() != title:
        choose(page, title)
    page.wait_for_load_state("networkidle")
    for spot in page.locator("#spots [data-spot]").all():
        spot.focus()
        page.keyboard.press("Backspace")
    expect(page.locator("#spots .circle--staked")).to_have_count(0)
    _until(page, lambda: page.evaluate(STATE + "m.state.placing)") == 0, "the clears answered")


def _stake(page: Page, spot: str) -> None:
    with page.expect_response(_posted("/api/chips")):
        page.click(f"[data-spot={spot}]")
    expect(page.locator(f"[data-spot={spot}] .pile__amount")).not_to_have_text("$0")


def _deal(page: Page) -> Round:
    expect(page.locator("#deal")).to_be_enabled()
    with page.expect_response(_posted("/api/rounds")) as answer:
        page.click("#deal")
    round_: Round = answer.value.json()
    return round_


def _coup_won(page: Page, tries: int = 40) -> Round:
    """Baccarat coups on the Player (each wins about 45 times in 100) until one wins."""
    for _ in range(tries):
        round_ = _deal(page)
        if round_["net"] > 0:
            return round_
    raise AssertionError(f"no Player win in {tries} coups")


def _coup_won_heard(page: Page, tries: int = 40) -> list[str]:
    """Like `_coup_won`, but each coup's result is heard before the next is dealt (a result
    is cued after its cards, so quick coups would overlap): the cues of the winning coup."""
    for _ in range(tries):
        before = len(_played(page))
        round_ = _deal(page)
        won = round_["net"] > 0
        results = {"win", "bigwin"} if won else {"loss", "push"}  # a Tie pushes the Player
        heard = lambda results=results, before=before: bool(results & set(_played(page)[before:]))  # noqa: E731
        _until(page, heard, "the coup's result cue")
        if won:
            return _played(page)[before:]
    raise AssertionError(f"no Player win in {tries} coups")


def _settings(page: Page) -> None:
    """The settings dialog, opened by its key."""
    page.locator("body").focus()
    page.keyboard.press("s")
    expect(page.locator("#settings")).to_be_visible()


def _close_settings(page: Page) -> None:
    page.locator("#settings .close").click()
    expect(page.locator("#settings")).to_be_hidden()


def _audit(page: Page, where: str) -> None:
    grave = [
        (v["id"], v["impact"], [" ".join(n["target"]) for n in v["nodes"][:4]])
        for v in Axe().run(page).response["violations"]
        if v["impact"] in ("serious", "critical")
    ]
    assert not grave, f"{where}: {grave}"


# ------------------------------------------------------------------ the settings dialog


def test_the_settings_open_by_touch_from_the_table_menu(open_tab: Opener) -> None:
    page = open_tab(390, 844, touch=True)
    page.tap("#logo")
    expect(page.locator("#tables")).to_be_visible()
    opener = page.locator("#tables #settings-open")
    expect(opener).to_have_text("Settings")
    expect(opener).to_have_attribute("aria-keyshortcuts", "s")
    opener.tap()
    expect(page.locator("#settings")).to_be_visible()
    expect(page.locator("#tables")).to_be_hidden()  # the menu gave way to it
    page.wait_for_timeout(200)
    shoot(page, "settings-390")
    _audit(page, "the settings dialog on a phone")
    # every control a 44 px target; the sheet as wide as the phone and no wider
    small = page.evaluate(
        """() => [...document.querySelectorAll(
              '#settings button, #settings .toggle, #settings .pick, #settings input[type=range]')]
            .map((e) => [e.id || e.textContent.trim(), e.getBoundingClientRect()])
            .filter(([, r]) => r.width < 43.5 || r.height < 43.5).map(([name]) => name)"""
    )
    assert small == []
    assert page.evaluate("document.getElementById('settings').scrollWidth") <= 390
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # a choice by touch, shown at once
    page.locator("#settings .pick", has_text="Fast").tap()
    expect(page.locator("#settings input[value=fast]")).to_be_checked()
    assert "pace-fast" in (page.locator("html").get_attribute("class") or "")
    page.locator("#settings .close").tap()
    expect(page.locator("#settings")).to_be_hidden()
    expect(page.locator("#logo")).to_be_focused()  # back to the menu's opener


def test_the_settings_by_keyboard_alone(open_tab: Opener) -> None:
    page = open_tab(1440, 900)
    _settings(page)
    assert page.evaluate("document.getElementById('settings').contains(document.activeElement)")
    shoot(page, "settings-1440")
    _audit(page, "the settings dialog")
    sound = page.locator("#settings-sound")
    expect(sound).to_be_checked()  # on at first
    sound.focus()
    page.keyboard.press("Space")
    expect(sound).not_to_be_checked()
    expect(page.locator("#settings-volume")).to_be_disabled()  # no volume without sound
    page.locator("#settings input[value=blue]").focus()
    page.keyboard.press("ArrowRight")  # a radio group moves with the arrows
    expect(page.locator("#settings input[value=green]")).to_be_checked()
    assert "back-green" in (page.locator("html").get_attribute("class") or "")
    page.keyboard.press("Escape")
    expect(page.locator("#settings")).to_be_hidden()
    page.keyboard.press("?")  # the keys list names it
    expect(page.locator("#keys-list")).to_contain_text("Settings: sound, vibration, speed")
    page.keyboard.press("Escape")


# ------------------------------------------------------------------ sound and vibration


def test_a_chip_a_deal_a_refusal_and_a_settled_round_play_their_cues(open_tab: Opener) -> None:
    page = open_tab()
    _fresh(page, "Tri-Card Poker")
    before = _played(page)
    voices = page.evaluate(SOUND + "m.counts.voices)")
    _stake(page, "ante")
    _until(page, lambda: _played(page)[len(before) :] == ["chip"], "a chip's cue")
    assert page.evaluate(SOUND + "m.counts.voices)") > voices  # audio nodes started
    # the context sleeps once its sounds have ended, and a cue wakes it, gesture or none
    awake = page.evaluate(SOUND + "m.AWAKE)")
    state = lambda: page.evaluate(SOUND + "m.audioState())")  # noqa: E731
    _until(page, lambda: state() == "suspended", "the context asleep", int(awake * 1000) + 4000)
    page.evaluate(SOUND + "m.cue('chip'))")
    _until(page, lambda: state() == "running", "the context woken by a cue")
    _until(page, lambda: state() == "suspended", "asleep again", int(awake * 1000) + 4000)
    _deal(page)
    expect(page.locator("[data-action=fold]")).to_be_visible()
    assert _played(page)[-1] == "deal"
    with page.expect_response(_posted("/actions")) as answer:
        page.locator("[data-action=fold]").click()
    assert answer.value.json()["net"] < 0  # a fold loses the Ante
    _until(page, lambda: _played(page)[-2:] == ["card", "loss"], "the fold's cards and its loss")
    # a deal with nothing staked is refused, and says so
    _fresh(page, "Tri-Card Poker")
    expect(page.locator("#deal")).to_be_enabled()
    page.click("#deal")
    _until(page, lambda: _played(page)[-1] == "refused", "a refusal's cue")
    # a win: Baccarat on the Player until it wins
    _fresh(page, "Baccarat")
    _stake(page, "player")
    heard = _coup_won_heard(page)
    # the winning coup's own cues: its deal, then its win, and no other coup's result
    assert heard[0] == "deal", heard
    assert heard[-1] in ("win", "bigwin"), heard
    assert not {"loss", "push"} & set(heard), heard
    # with the sound off, none at all
    _settings(page)
    page.locator("#settings-sound").uncheck()
    _close_settings(page)
    count = len(_played(page))
    _fresh(page, "Tri-Card Poker")
    _stake(page, "ante")
    _deal(page)
    page.locator("[data-action=fold]").click()
    expect(page.locator("#banner")).to_be_visible()
    page.wait_for_timeout(700)  # past the result's cue
    assert len(_played(page)) == count
    with pytest.raises(Exception, match="unknown cue"):
        page.evaluate(SOUND + "m.cue('fanfare'))")


def test_vibration_where_there_is_one_and_its_switch(open_tab: Opener) -> None:
    page = open_tab(390, 844, touch=True)
    # a recording vibrator in place of the device's (sound.js looks for it at each cue)
    page.evaluate(
        "navigator.vibrate = (pattern) => {"
        " (window.buzzes = window.buzzes || []).push(pattern); return true; }"
    )
    _fresh(page, "Tri-Card Poker")
    buzzes = "(window.buzzes || []).length"
    before = page.evaluate(buzzes)
    _stake(page, "ante")
    _until(page, lambda: page.evaluate(buzzes) > before, "a chip's buzz")
    assert page.evaluate("window.buzzes.at(-1)") == 8  # a short tap
    assert page.evaluate(SOUND + "m.buzzed.at(-1))") == "chip"
    _settings(page)
    expect(page.locator("#settings-haptics-note")).to_contain_text("On a phone that has it")
    page.locator("#settings-haptics").uncheck()
    _close_settings(page)
    buzzed = page.evaluate(buzzes)
    _stake(page, "ante")
    page.wait_for_timeout(200)
    assert page.evaluate(buzzes) == buzzed  # no more
    assert "chip" in _played(page)[-1:]  # the sound is its own switch


# ------------------------------------------------------------------ speed and motion

ANIMATION = """() => {
  const card = document.querySelector('#felt .card--i1');
  const style = getComputedStyle(card);
  return [style.animationName, style.animationDuration, style.animationDelay,
    getComputedStyle(document.getElementById('banner')).animationDuration];
}"""


def test_fast_halves_the_deal_and_the_results_animations(open_tab: Opener) -> None:
    page = open_tab()
    _fresh(page, "Tri-Card Poker")
    _stake(page, "ante")
    _deal(page)
    page.locator("[data-action=fold]").click()  # a fold loses: the Ante's chips are taken
    expect(page.locator("#banner")).to_be_visible()
    expect(page.locator("#felt .stack--taken")).not_to_have_count(0)
    assert page.evaluate(ANIMATION) == ["card-deal", "0.3s", "0.07s", "0.35s"]
    paid = (
        "[...document.querySelectorAll('#felt .stack--paid, #felt .stack--taken')]"
        ".map((e) => getComputedStyle(e).animationDuration)"
    )
    assert set(page.evaluate(paid)) == {"0.45s"}
    _settings(page)
    page.locator("#settings input[value=fast]").check()
    _close_settings(page)
    assert page.evaluate(ANIMATION) == ["card-deal", "0.15s", "0.035s", "0.175s"]
    assert set(page.evaluate(paid)) == {"0.225s"}


def test_reduced_motion_of_the_system_stops_the_deal_and_the_celebration(open_tab: Opener) -> None:
    page = open_tab(reduced_motion="reduce")
    _fresh(page, "Baccarat")
    _stake(page, "player")
    _settings(page)
    expect(page.locator("#settings-motion-note")).to_have_text(
        "The system asks for reduced motion: the table follows it."
    )
    _close_settings(page)
    _coup_won(page)
    _until(page, lambda: _played(page)[-1] in ("win", "bigwin"), "a win's cue")  # heard, not seen
    page.wait_for_timeout(300)
    assert page.evaluate(ANIMATION)[0] == "none"
    assert _celebrations(page) == 0
    assert page.locator(".celebration").count() == 0


def test_reduced_motion_chosen_in_the_settings_does_the_same(open_tab: Opener) -> None:
    page = open_tab()
    _settings(page)
    page.locator("#settings input[value=reduce]").check()
    _close_settings(page)
    _fresh(page, "Baccarat")
    _stake(page, "player")
    _coup_won(page)
    _until(page, lambda: _played(page)[-1] in ("win", "bigwin"), "a win's cue")
    page.wait_for_timeout(300)
    assert page.evaluate(ANIMATION)[0] == "none"
    banner = "getComputedStyle(document.getElementById('banner')).animationName"
    assert page.evaluate(banner) == "none"
    assert _celebrations(page) == 0
    assert page.locator(".celebration").count() == 0


HOLD = """() => (window.holding = new MutationObserver((changes) => changes.forEach((change) => {
  for (const node of change.addedNodes) {
    if (!node.classList || !node.classList.contains('celebration')) continue;
    node.getAnimations({ subtree: true }).forEach((a) => a.pause());
  }
}))).observe(document.body, { childList: true })"""
# the hold let go: the held celebration plays on, and a later one (the next coup may
# win too) is not held
LET_GO = """() => { window.holding.disconnect(); document.querySelectorAll('.celebration')
  .forEach((layer) => layer.getAnimations({ subtree: true }).forEach((a) => a.play())); }"""


def test_the_celebration_lets_the_next_tap_through(open_tab: Opener) -> None:
    page = open_tab(390, 844, touch=True)
    _fresh(page, "Baccarat")
    _stake(page, "player")
    # a celebration is held still the moment it comes, so that this test's tap meets it
    # however slow the machine (it goes when its animations end)
    page.evaluate(HOLD)
    won = _coup_won(page)
    _until(page, lambda: page.locator(".celebration").count() == 1, "the celebration")
    assert page.evaluate(CELEBRATE + "m.celebrations.at(-1))") == {
        "amount": won["net"],
        "big": won["net"] >= 4 * sum(won["stakes"].values()),
    }
    layer = page.locator(".celebration")
    assert layer.get_attribute("aria-hidden") == "true"
    assert layer.evaluate("(e) => getComputedStyle(e).pointerEvents") == "none"
    assert layer.locator(".celebration__bit").count() >= 20
    shoot(page, "celebration-390")
    expect(page.locator("#deal")).to_be_enabled()
    box = page.locator("#deal").bounding_box()
    assert box
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    assert page.evaluate("([x, y]) => !!document.elementFromPoint(x, y)?.closest('#deal')", [x, y])
    assert page.locator(".celebration").count() == 1  # still bursting as the tap comes
    with page.expect_response(_posted("/api/rounds")) as answer:
        page.touchscreen.tap(x, y)
    assert answer.value.ok  # the tap dealt
    page.evaluate(LET_GO)
    _until(page, lambda: page.locator(".celebration").count() == 0, "the celebration gone", 5000)


# ------------------------------------------------------------------ the card back

BACKS = {"red": (0x7A, 0x1F, 0x2B), "blue": (0x1D, 0x3F, 0x78), "green": (0x0F, 0x4A, 0x33)}


def _share(page: Page, selector: str, near: tuple[int, int, int], within: int = 30) -> float:
    shot = page.locator(selector).screenshot(animations="disabled")
    pixels = list(Image.open(io.BytesIO(shot)).convert("RGB").get_flattened_data())
    hits = sum(1 for p in pixels if all(abs(a - b) <= within for a, b in zip(p, near, strict=True)))
    return hits / len(pixels)


def test_the_card_back_setting_changes_the_face_down_cards(open_tab: Opener) -> None:
    page = open_tab(390, 844, touch=True)
    _fresh(page, "Tri-Card Poker")
    _stake(page, "ante")
    _deal(page)
    back = "#dealer .card--down"
    expect(page.locator(back)).to_have_count(3)
    page.wait_for_timeout(900)  # the deal's slide
    first = f"{back} >> nth=0"
    assert _share(page, first, BACKS["red"]) > 0.4
    for name in ("blue", "green", "red"):
        _settings(page)
        page.locator(f"#settings input[value={name}]").check()
        _close_settings(page)
        fill = page.locator(f"{back} .card__face").first.evaluate("(e) => getComputedStyle(e).fill")
        assert fill == "rgb({}, {}, {})".format(*BACKS[name])
        assert _share(page, first, BACKS[name]) > 0.4, name
        for other, colour in BACKS.items():
            if other != name:
                assert _share(page, first, colour, within=12) < 0.05, (name, other)
        if name == "blue":
            shoot(page, "card-back-blue-390")
    page.locator("[data-action=fold]").click()


def test_every_route_the_modules_use_is_served(browser: Browser, server: str) -> None:
    """motion.css and the new modules are served with their types (a module with another
    MIME type would not run), and the page sends them under its policy. Asked by a
    context's own requests: no page has to load for them."""
    context = new_context(browser)  # closed with the browser should a check fail
    request = context.request
    for path, kind in (
        ("static/motion.css", "text/css"),
        ("static/js/early.js", "javascript"),
        ("static/js/settings.js", "javascript"),
        ("static/js/sound.js", "javascript"),
        ("static/js/celebrate.js", "javascript"),
    ):
        served = request.get(server + path)
        assert served.ok, path
        assert kind in served.headers["content-type"], path
    html = request.get(server).text()
    context.close()
    assert '<link rel="stylesheet" href="/static/motion.css">' in html
    assert '<script src="/static/js/early.js"></script>' in html


# ------------------------------------------------------------------ the settings kept
# (last of the tests by mouse: it leaves its tab without the page's modules, and the next
# test at that tab would load the page again)


def test_the_choices_persist_across_a_reload_before_the_modules_run(
    open_tab: Opener, server: str
) -> None:
    page = open_tab()
    _settings(page)
    page.locator("#settings-volume").fill("30")
    expect(page.locator("#settings-volume-said")).to_have_text("30%")
    for choice in ("fast", "reduce", "blue"):
        page.locator(f"#settings input[value={choice}]").check()
    page.locator("#settings-haptics").uncheck()
    page.locator("#settings-sound").uncheck()
    _close_settings(page)
    kept = json.loads(page.evaluate("localStorage.getItem('riverboat-settings')"))
    assert kept == {
        "sound": False,
        "volume": 30,
        "haptics": False,
        "pace": "fast",
        "motion": "reduce",
        "back": "blue",
    }
    page.reload()
    page.wait_for_selector(".spot")
    look = set((page.locator("html").get_attribute("class") or "").split())
    assert look == {"pace-fast", "reduce-motion", "back-blue"}
    _settings(page)
    expect(page.locator("#settings-sound")).not_to_be_checked()
    expect(page.locator("#settings-haptics")).not_to_be_checked()
    expect(page.locator("#settings-volume")).to_have_value("30")
    for choice in ("fast", "reduce", "blue"):
        expect(page.locator(f"#settings input[value={choice}]")).to_be_checked()
    # before the first paint: with the page's modules not run at all, <html> has them,
    # put there by the classic script in <head>
    page.route("**/static/js/main.js", lambda route: route.abort())
    page.goto(server)
    page.wait_for_load_state("load")
    assert page.locator(".spot").count() == 0  # no module ran
    look = set((page.locator("html").get_attribute("class") or "").split())
    assert look == {"pace-fast", "reduce-motion", "back-blue"}
    page.unroute("**/static/js/main.js")
    # a damaged entry reads as the defaults
    damaged = json.dumps({"volume": 900, "back": "pink", "sound": 1, "pace": None})
    read = page.evaluate("(text) => " + SETTINGS + "m.read(text))", damaged)
    assert read == {
        "sound": True,
        "volume": 60,
        "haptics": True,
        "pace": "normal",
        "motion": "system",
        "back": "red",
    }
    assert page.evaluate(SETTINGS + "m.read('{not json'))") == read
