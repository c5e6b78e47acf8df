"""Company at a shared table, in a real browser: every seat drawn along the felt's rail
with its player's name and chips by line, a tick once a seat has decided, the free
seats as empty places, the table's clock as a ring on the felt, and who sat down and
who left told on the page and through the polite live region. Never another seat's
cards (C8). Screenshots of a table of three in test-artifacts/screenshots/."""

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Locator, Page, expect

from browser_support import choose, new_context, serving, shoot, tap

PASSWORD = "a long password"
CRAZY4, BACCARAT = "Crazy 4 Poker · shared", "Baccarat · shared"


@pytest.fixture(autouse=True)
def patient() -> Iterator[None]:
    """Four tabs and a server on a shared machine: each check waits up to 20 s."""
    expect.set_options(timeout=20_000)
    yield
    expect.set_options(timeout=5_000)


@pytest.fixture(scope="module")
def company_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server with the accounts ann and bob, and carol registered here."""

    def carol(app: object) -> None:
        app.state.service.register("carol", PASSWORD)  # type: ignore[attr-defined]

    with serving(
        Path(tmp_path_factory.mktemp("company")) / "company.db",
        local_player=False,
        extra=carol,
        betting_seconds=60,
    ) as address:
        yield address


def signed_in(
    browser: Browser,
    address: str,
    name: str,
    size: tuple[int, int] = (1100, 800),
    touch: bool = False,
) -> Page:
    context = new_context(
        browser, viewport={"width": size[0], "height": size[1]}, has_touch=touch, is_mobile=touch
    )
    tab = context.new_page()
    tab.goto(address)
    tab.fill("#login-name", name)
    tab.fill("#login-password", PASSWORD)
    tab.click("#login-form button")
    expect(tab.locator("#balance")).to_have_text(re.compile(r"\$"))
    return tab


def seat(tab: Page, name: str) -> Locator:
    """The place of ``name``'s seat on the felt."""
    return tab.locator("#seats .seat--taken").filter(
        has=tab.locator(".seat__name", has_text=re.compile(f"^{name}$"))
    )


def announced(tab: Page, text: str) -> None:
    """``text`` in the line of comings and goings and in the polite live region."""
    expect(tab.locator("#seat-news")).to_contain_text(text)
    expect(tab.locator("[aria-live=polite]#announce")).to_contain_text(text)


def audit(tab: Page, where: str) -> None:
    """axe-core's audit of the page as it is: no serious or critical violation."""
    violations = Axe().run(tab).response["violations"]
    grave = [(v["id"], v["help"]) for v in violations if v["impact"] in ("serious", "critical")]
    assert not grave, f"{where}: {grave}"


def no_sideways_scroll(tab: Page, width: int) -> None:
    """Nothing on the page reaches past ``width`` once the deal's motion is over (a card
    slides in from the right of its place); what does is named."""
    for _ in range(60):
        moving = tab.evaluate(
            """() => document.getAnimations().filter((a) => a.playState === "running"
              && a.effect.getComputedTiming().endTime !== Infinity).length"""
        )
        if not moving:
            break
        tab.wait_for_timeout(50)
    wide = tab.evaluate("document.documentElement.scrollWidth")
    past = tab.evaluate(
        """(width) => [...document.querySelectorAll("body *")]
        .filter((e) => e.getBoundingClientRect().right > width + 0.5 && e.checkVisibility())
        .slice(0, 8).map((e) => `${e.tagName.toLowerCase()}#${e.id}.${e.className} `
          + `${Math.round(e.getBoundingClientRect().right)}px`)""",
        width,
    )
    assert wide <= width, past


def clock_in_view(tab: Page, size: tuple[int, int]) -> None:
    """The felt's clock counts down at the page's top, wholly on the screen."""
    tab.set_viewport_size({"width": size[0], "height": size[1]})
    tab.evaluate("scrollTo(0, 0)")
    clock = tab.locator("#table-clock")
    expect(clock).to_be_visible()
    expect(tab.locator("#table-clock-seconds")).to_have_text(re.compile(r"^\d+ s$"))
    expect(clock).to_have_attribute("aria-label", re.compile(r"Next deal in \d+ seconds"))
    box = clock.bounding_box()
    assert box
    assert box["x"] >= 0
    assert box["y"] >= 0
    assert box["x"] + box["width"] <= size[0]
    assert box["y"] + box["height"] <= size[1]
    # not under the header nor the action bar
    header = tab.locator("header.topbar").bounding_box()
    bar = tab.locator("#action-bar").bounding_box()
    assert header
    assert bar
    assert box["y"] >= header["y"] + header["height"]
    assert box["y"] + box["height"] <= bar["y"]


def test_two_players_at_crazy4_see_each_others_seats_chips_and_decisions_c8(
    company_server: str, browser: Browser
) -> None:
    ann = signed_in(browser, company_server, "ann")
    bob = signed_in(browser, company_server, "bob", (390, 844), touch=True)
    choose(ann, CRAZY4)
    expect(seat(ann, "ann")).to_have_count(1)
    expect(ann.locator("#seats .seat--free")).to_have_count(5)  # six places, five free
    choose(bob, CRAZY4)
    announced(ann, "bob sat down")
    expect(ann.locator("#seats .seat")).to_have_count(6)
    expect(ann.locator("#seats .seat--free")).to_have_count(4)
    # each sees the other by name, and their own seat marked as theirs
    expect(seat(bob, "ann")).to_have_count(1)
    expect(seat(bob, "bob").locator(".seat__you")).to_have_text("you")
    expect(seat(bob, "ann").locator(".seat__you")).to_have_count(0)
    expect(seat(bob, "ann")).to_have_attribute("data-seat", "1")
    expect(seat(bob, "bob")).to_have_attribute("data-seat", "2")
    # ann's bet, with a blind second hand (C8), as chips on her seat at bob's page
    tap(ann, "ante")
    ann.check("#blind-toggle")
    ann.click("#deal")
    anns = seat(bob, "ann")
    for line, label in (("ante", "A"), ("super_bonus", "SB")):
        bet = anns.locator(f".seat__bets:not(.seat__bets--blind) [data-line={line}]")
        expect(bet.locator(".seat__amount")).to_have_text("$5")
        expect(bet.locator(".seat__line")).to_have_text(label)
        expect(bet.locator(".stack svg.chip3d")).to_have_count(1)
    blind = anns.locator(".seat__bets--blind")
    expect(blind.locator(".seat__bet")).to_have_count(3)  # Ante, Super Bonus and its 1x Play
    expect(blind.locator("[data-line=play] .seat__amount")).to_have_text("$5")
    expect(anns.locator(".seat__state")).to_have_text("✓ bet")
    expect(anns.locator(".visually-hidden")).to_have_text(
        "Seat 1: ann, Ante $5, Super Bonus $5, blind second hand Ante $5, Super Bonus $5, "
        "Play $5; bet."
    )
    expect(seat(bob, "bob").locator(".seat__state")).to_have_text("no bet yet")
    # the clock counts to the deal, on the felt and in view, phone upright and on its side
    clock_in_view(bob, (390, 844))
    clock_in_view(bob, (844, 390))
    bob.set_viewport_size({"width": 390, "height": 844})
    tap(bob, "ante", 2)
    bob.click("#deal")  # every seat has bet: the deal
    for tab in (ann, bob):
        expect(tab.locator("[data-action=fold]")).to_be_visible()
        for name in ("ann", "bob"):
            expect(seat(tab, name).locator(".seat__state")).to_have_text("deciding…")
    expect(seat(ann, "bob").locator("[data-line=ante] .seat__amount")).to_have_text("$10")
    expect(ann.locator("#table-clock")).to_have_attribute(
        "aria-label", re.compile(r"Decisions close in \d+ seconds")
    )
    audit(bob, "deciding at 390")
    ann.locator("[data-action=play]").first.click()
    expect(seat(bob, "ann")).to_have_class(re.compile(r"\bseat--decided\b"))
    expect(seat(bob, "ann").locator(".seat__state")).to_have_text("✓ decided")
    expect(seat(bob, "bob").locator(".seat__state")).to_have_text("deciding…")
    # what ann decided is not on her seat: her chips are still her bet's
    first = seat(bob, "ann").locator(".seat__bets:not(.seat__bets--blind) .seat__bet")
    expect(first).to_have_count(2)
    # no one's cards on the seats, at any time
    for tab in (ann, bob):
        expect(tab.locator("#seats .card")).to_have_count(0)
    bob.set_viewport_size({"width": 320, "height": 700})
    no_sideways_scroll(bob, 320)
    bob.click("[data-action=fold]")
    for tab in (ann, bob):
        expect(tab.locator("#message")).to_contain_text("Net")
        expect(seat(tab, "ann").locator(".seat__bet")).to_have_count(0)  # settled
    bob.click("#leave")  # bob goes to a table of his own
    announced(ann, "bob left")
    expect(seat(ann, "bob")).to_have_count(0)
    expect(ann.locator("#seats .seat--free")).to_have_count(5)
    for tab in (ann, bob):
        tab.context.close()


def test_two_players_at_baccarat_see_each_others_bets_b2(
    company_server: str, browser: Browser
) -> None:
    ann = signed_in(browser, company_server, "ann", (844, 390), touch=True)
    bob = signed_in(browser, company_server, "bob")
    for tab in (ann, bob):
        choose(tab, BACCARAT)
    # a shoe has no seat limit: the seats taken, no free places, and everyone summed
    expect(bob.locator("#seats .seat")).to_have_count(2)
    expect(bob.locator("#seats .seat--free")).to_have_count(0)
    tap(ann, "banker", 2)
    ann.click("#deal")
    expect(bob.locator("#table-summary")).to_have_text(
        "2 players at the table · on the felt: Banker $10"
    )
    banker = seat(bob, "ann").locator("[data-line=banker]")
    expect(banker.locator(".seat__amount")).to_have_text("$10")
    expect(banker.locator(".seat__line")).to_have_text("B")
    expect(banker.locator(".stack svg.chip3d")).to_have_count(2)
    clock_in_view(ann, (844, 390))
    clock_in_view(ann, (390, 844))
    tap(bob, "player")
    tap(bob, "tie")
    bob.click("#deal")  # the coup: the bets are settled
    for tab in (ann, bob):
        expect(tab.locator("#message")).to_contain_text("Net")
    expect(seat(bob, "ann").locator(".seat__bet")).to_have_count(0)
    bob.click("#replay")  # the next coup: bob bets first this time
    bobs = seat(ann, "bob")
    expect(bobs.locator("[data-line=player] .seat__amount")).to_have_text("$5")
    expect(bobs.locator("[data-line=tie] .seat__line")).to_have_text("T")
    expect(bobs.locator(".seat__state")).to_have_text("✓ bet")
    audit(ann, "Baccarat at 390")
    ann.set_viewport_size({"width": 320, "height": 640})
    no_sideways_scroll(ann, 320)
    ann.context.close()
    announced(bob, "ann left")
    bob.context.close()


def test_a_session_ended_at_a_shared_table_leads_back_to_log_in_and_the_seat(
    company_server: str, browser: Browser
) -> None:
    """ann's session ends while she sits at a shared table (logged out elsewhere): her
    next Bet closes the table's connection for a log-in (CLOSE_LOG_IN, with its
    reason), the page says so and opens the log-in, and once she has logged in she
    sits at the same table again."""
    ann = signed_in(browser, company_server, "ann", (390, 844), touch=True)
    choose(ann, CRAZY4)
    expect(seat(ann, "ann")).to_have_count(1)
    table = ann.evaluate("JSON.parse(localStorage.getItem('riverboat-table')).shared")
    ended = ann.evaluate(
        """async () => (await fetch("/api/logout", {method: "POST", headers: {"X-CSRF-Token":
        document.cookie.match(/riverboat_csrf=([^;]+)/)[1]}})).status"""
    )
    assert ended == 200
    tap(ann, "ante")
    ann.click("#deal")
    expect(ann.locator("#login")).to_be_visible()
    expect(ann.locator("#message")).to_have_text("The session has ended: log in again.")
    ann.fill("#login-name", "ann")
    ann.fill("#login-password", PASSWORD)
    ann.locator("#login-form button").click()
    expect(ann.locator("#login")).to_be_hidden()
    expect(seat(ann, "ann")).to_have_count(1)  # seated again, at the same table
    assert ann.evaluate("JSON.parse(localStorage.getItem('riverboat-table')).shared") == table
    ann.context.close()


# every seat not wholly between the header and the action bar, and by how much
SEATS_OUT_OF_VIEW = """() => {
  const top = document.querySelector(".topbar").getBoundingClientRect().bottom;
  const bar = document.getElementById("action-bar").getBoundingClientRect().top;
  return [...document.querySelectorAll("#seats .seat__shown")].flatMap((shown) => {
    const box = shown.getBoundingClientRect();
    const seat = shown.closest(".seat").dataset.seat;
    return box.top < top - 0.5 || box.bottom > bar + 0.5
      ? [`seat ${seat} spans ${box.top}-${box.bottom} (room ${top}-${bar})`] : [];
  });
}"""


def test_a_table_of_three_photographed(company_server: str, browser: Browser) -> None:
    """ann on a phone upright, bob on one on its side, carol at a desktop, at one Crazy 4
    table: each sees the three seats and the others' chips, all on the screen with the
    felt without scrolling."""
    ann = signed_in(browser, company_server, "ann", (390, 844), touch=True)
    bob = signed_in(browser, company_server, "bob", (844, 390), touch=True)
    carol = signed_in(browser, company_server, "carol", (1440, 900))
    for tab in (ann, bob, carol):
        choose(tab, CRAZY4)
    announced(ann, "carol sat down")
    tap(ann, "ante", 2)
    tap(ann, "queens_up")
    ann.check("#blind-toggle")
    ann.click("#deal")
    tap(bob, "ante", 4)
    bob.click("#deal")
    for tab, size in ((ann, "390x844"), (bob, "844x390"), (carol, "1440x900")):
        for name in ("ann", "bob", "carol"):
            expect(seat(tab, name)).to_have_count(1)
        queens_up = seat(tab, "ann").locator("[data-line=queens_up] .seat__amount")
        expect(queens_up).to_have_text(["$5", "$5"])  # on both of her hands
        expect(seat(tab, "bob").locator("[data-line=ante] .seat__amount")).to_have_text("$20")
        expect(tab.locator("#seats .seat--free")).to_have_count(3)
        tab.evaluate("scrollTo(0, 0)")
        hidden = tab.evaluate(SEATS_OUT_OF_VIEW)
        assert not hidden, f"at {size} without scrolling, seats out of view: {hidden}"
        shoot(tab, f"company-three-{size}")
        tab.evaluate("scrollTo(0, document.documentElement.scrollHeight)")  # the rail
        tab.wait_for_timeout(100)
        shoot(tab, f"company-three-{size}-seats")
        no_sideways_scroll(tab, int(size.split("x")[0]))
    audit(carol, "a table of three at 1440")
    # the lobby's live miniature of the table: a dot for each of its six seats, the
    # three taken with their players' initials, ann's and bob's ringed as bet
    carol.click("#logo")
    table = carol.locator("#games [data-table^='crazy4:']").filter(has_text="you sit here")
    dots = table.locator(".mini-seats i")
    expect(dots).to_have_count(6)
    expect(table.locator(".mini-seats")).to_have_attribute("aria-hidden", "true")
    expect(table.locator(".mini-seats i.taken")).to_have_text(["A", "B", "C"])  # seats 1, 2, 3
    expect(table.locator(".mini-seats i.bet")).to_have_text(["A", "B"])
    expect(table.locator(".mini-seats i.you")).to_have_text(["C"])
    expect(table).to_contain_text(re.compile(r"Now: betting, next deal in \d+ s"))
    audit(carol, "the table menu with a table's seats in miniature")
    shoot(carol, "company-lobby-1440x900")
    carol.keyboard.press("Escape")
    for tab in (ann, bob, carol):
        tab.context.close()
