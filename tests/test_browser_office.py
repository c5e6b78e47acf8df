"""The back office's page (/office) in a real browser (Debian's Chromium driven by
Playwright): an operator logs in, finds a player and credits them (the balance moves in
the database), recalls a round played beforehand, reads the hold report (the same
figures as riverboat.table.office.hold gives); a player who is not an operator is told
so; the search and a credit work from the keyboard alone; every request stays on the
origin, the content security policy reports nothing, and nothing scrolls sideways at
320 px."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from playwright.sync_api import Browser, Page, Route, expect

from riverboat.table.office.actions import grant, revoke
from riverboat.table.office.hold import hold_report
from riverboat.table.service import TableService
from riverboat.web.guards import CONTENT_SECURITY_POLICY

from browser_support import new_tab, serving, shoot

PASSWORD = "a long password"  # ann's, bob's (browser_support.serving) and boss's

#: every violation of the policy the page reports, and every console error, kept on
#: ``window`` for the test to read
RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__violations.push(`${event.violatedDirective} blocked ${event.blockedURI || "inline"}`);
});
"""

#: the right edge of the widest thing shown, and what it is
WIDEST = """() => {
  let right = 0, what = "";
  for (const e of document.querySelectorAll("body *")) {
    const box = e.getBoundingClientRect();
    if (box.width && box.height && box.right > right) {
      right = box.right;
      what = `${e.tagName}.${e.className}`;
    }
  }
  return [right, what, document.documentElement.scrollWidth];
}"""


@dataclass
class Office:
    """A server with accounts: boss and carl, operators; ann and bob, players; a round of
    ann's at Tri-Card and a coup of bob's at Baccarat, settled."""

    address: str
    service: TableService
    ann: int
    round_id: int


@pytest.fixture(scope="module")
def office(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Office]:
    made: dict[str, object] = {}

    def prepare(app: object) -> None:
        service: TableService = app.state.service  # type: ignore[attr-defined]
        for name in ("boss", "carl"):
            service.register(name, PASSWORD)
            grant(service.engine, name, by="test", reason="runs the tables")
        ann = service.office.find("ann", 1)[0].id
        bob = service.office.find("bob", 1)[0].id
        dealt = service.start_round(ann, "tri-card", {"ante": 1000, "pair_plus": 500}, "ann's")
        service.act(ann, dealt.id, "raise")
        service.start_round(bob, "baccarat", {"banker": 2500}, "bob's")
        made.update(service=service, ann=ann, round_id=dealt.id)

    database = tmp_path_factory.mktemp("office") / "office.db"
    with serving(database, local_player=False, extra=prepare, house_edges=False) as address:
        yield Office(address, made["service"], made["ann"], made["round_id"])  # type: ignore[arg-type]


def dollars(cents: int) -> str:
    """Money as the page writes it: $1,000, $1,012.50."""
    return f"${cents / 100:,.2f}" if cents % 100 else f"${cents // 100:,}"


def open_office(browser: Browser, office: Office, width: int = 1100, height: int = 800) -> Page:
    """A new tab (a session of its own) at /office, its requests noted on ``page.asked``."""
    page = new_tab(browser, viewport={"width": width, "height": height})
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.asked = asked  # type: ignore[attr-defined]
    page.add_init_script(RECORD_VIOLATIONS)
    answer = page.goto(office.address + "office")
    assert answer is not None
    assert answer.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    expect(page.locator("#login-view")).to_be_visible()
    return page


def log_in(page: Page, name: str) -> None:
    page.fill("#login-name", name)
    page.fill("#login-password", PASSWORD)
    page.click("#login-form button")


def clean(page: Page, office: Office) -> None:
    """Nothing asked of another origin, no policy violated."""
    asked: list[str] = page.asked  # type: ignore[attr-defined]
    assert asked
    assert [url for url in asked if not url.startswith(office.address)] == []
    assert page.evaluate("window.__violations") == []


def test_an_operator_finds_a_player_and_credits_them(browser: Browser, office: Office) -> None:
    page = open_office(browser, office)
    log_in(page, "boss")
    expect(page.locator("#operator")).to_have_text("boss")
    page.fill("#find-name", "AN")  # found as one types, whatever the case
    found = page.locator("#found a")
    expect(found).to_have_count(1)
    expect(found.first).to_contain_text("ann")
    before = office.service.balance(office.ann)
    expect(found.first).to_contain_text(dollars(before))
    found.first.click()
    expect(page.locator("#file-name")).to_contain_text("ann")
    expect(page.locator("#file-balance")).to_have_text(dollars(before))

    page.click("#file button[data-do=credit]")
    dialog = page.locator("#adjust")
    expect(dialog).to_be_visible()
    page.fill("#adjust-amount", "12.505")
    page.fill("#adjust-reason", "goodwill: the table froze")
    page.fill("#adjust-password", PASSWORD)
    page.click("#adjust-confirm")
    expect(page.locator("#adjust-error")).to_contain_text("two figures after the point")
    page.fill("#adjust-amount", "12.50")
    expect(page.locator("#adjust-amount-said")).to_have_text("$12.50")
    page.fill("#adjust-password", "not my password")
    page.click("#adjust-confirm")  # refused 401: said in the dialog, still logged in
    expect(page.locator("#adjust-error")).not_to_be_empty()
    expect(dialog).to_be_visible()
    assert office.service.balance(office.ann) == before
    page.fill("#adjust-password", PASSWORD)
    page.click("#adjust-confirm")
    done = page.locator("#adjust-done")
    expect(done).to_contain_text("Credited $12.50 to ann")
    assert office.service.balance(office.ann) == before + 1250
    expect(done).to_contain_text(f"balance is now {dollars(before + 1250)}")
    page.locator("#adjust .actions [data-close]").click()
    expect(page.locator("#file-balance")).to_have_text(dollars(before + 1250))
    account = page.locator("#file .entry", has_text="goodwill: the table froze")
    expect(account.first).to_contain_text("+$12.50")
    page.click("#file button[data-do=debit]")
    page.fill("#adjust-amount", "2.5")
    page.fill("#adjust-reason", "a credit made twice")
    page.fill("#adjust-password", PASSWORD)
    page.click("#adjust-confirm")
    expect(page.locator("#adjust-done")).to_contain_text("Debited $2.50 from ann")
    assert office.service.balance(office.ann) == before + 1000
    page.keyboard.press("Escape")
    expect(page.locator("#file-balance")).to_have_text(dollars(before + 1000))
    page.click("#tabs a[data-view=log]")
    logged = page.locator("#log-list .entry")
    expect(logged.nth(0)).to_contain_text("Debit · ann")
    expect(logged.nth(1)).to_contain_text("Credit · ann")
    expect(logged.nth(1)).to_contain_text("+$12.50")
    expect(logged.nth(1)).to_contain_text("goodwill: the table froze")
    clean(page, office)
    page.close()


def test_the_page_names_nothing_of_another_origin_and_inlines_nothing(office: Office) -> None:
    page = httpx.get(f"{office.address}office", timeout=5)
    assert page.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    html = page.text
    modules = ["office", "office-api", "office-format", "office-players", "office-recall"]
    modules += ["office-log", "office-hold"]
    code = [httpx.get(f"{office.address}static/js/{name}.js", timeout=5) for name in modules]
    assert all(answer.status_code == 200 for answer in code)
    for text in [html, httpx.get(f"{office.address}static/office.css", timeout=5).text]:
        assert "http://" not in text
        assert "https://" not in text
    assert "<script>" not in html  # every script a file of this origin's
    assert " style=" not in html
    assert re.search(r"\son[a-z]+=", html) is None  # no inline handler (onclick=...)
    for answer in code:
        assert "http://" not in answer.text
        assert "https://" not in answer.text
        assert ".style." not in answer.text  # no style set from the code either


def test_dollars_are_read_as_whole_cents_by_their_digits(browser: Browser, office: Office) -> None:
    page = open_office(browser, office)
    read = page.evaluate(
        """async (typed) => {
          const { parseDollars } = await import("/static/js/office-format.js");
          return typed.map((text) => {
            const read = parseDollars(text);
            return read.error === undefined ? read.cents : null;
          });
        }""",
        ["12.50", "0.29", "1,234.5", "$7", ".05", "19.99", "12.505", "-5", "abc", "0", "1,23", ""],
    )
    assert read == [1250, 29, 123450, 700, 5, 1999, None, None, None, None, None, None]
    page.close()


def test_a_round_played_beforehand_is_recalled_verified(browser: Browser, office: Office) -> None:
    page = open_office(browser, office)
    log_in(page, "boss")
    page.click("#tabs a[data-view=recall]")
    page.fill("#recall-id", str(office.round_id))
    page.press("#recall-id", "Enter")
    recall = page.locator("#recall")
    expect(recall.locator("#recall-round")).to_contain_text(f"Round #{office.round_id}")
    expect(recall.locator("#recall-round")).to_contain_text("Tri-Card Poker")
    expect(recall.locator(".recall-who")).to_contain_text("ann")
    expect(recall.locator(".verdict-badge")).to_have_attribute("data-verified", "true")
    expect(recall.locator(".recall-hands .card")).to_have_count(6)  # three each, faces up
    expect(recall.locator(".steps")).to_contain_text("Raise")
    expect(recall.locator(".facts")).to_contain_text("Server seed")
    recalled = office.service.office.recall(office.round_id)
    expect(recall.locator(".ledger tbody tr")).to_have_count(len(recalled.ledger))
    # from the player's file: its round's link opens the same recall
    page.click(".recall-who a")
    expect(page.locator("#file-name")).to_contain_text("ann")
    page.click(f"#file a[href='#recall/{office.round_id}']")
    expect(page.locator("#recall-round")).to_be_focused()
    missing = page.locator("#recall-error")
    page.fill("#recall-id", "99999")
    page.press("#recall-id", "Enter")
    expect(missing).to_contain_text("no round")
    clean(page, office)
    page.close()


def test_the_hold_report_shows_the_reports_figures(browser: Browser, office: Office) -> None:
    page = open_office(browser, office)
    log_in(page, "boss")
    asked = lambda r: urlsplit(r.url).path == "/api/office/hold"  # noqa: E731
    with page.expect_response(asked, timeout=120_000) as answered:
        page.click("#tabs a[data-view=hold]")
    query = {key: values[0] for key, values in parse_qs(urlsplit(answered.value.url).query).items()}
    assert set(query) == {"since", "band"}  # the last day, the default band
    since = datetime.fromisoformat(query["since"])
    expected = hold_report(office.service, since, band=float(query["band"]))
    assert answered.value.json() == expected.model_dump(mode="json")
    rows = page.locator("#hold-rows tbody tr")
    expect(rows).to_have_count(len(expected.rows))
    for row, figures in zip(rows.all(), expected.rows, strict=True):
        expect(row.locator("td[data-label=Rounds]")).to_have_text(str(figures.rounds))
        expect(row.locator("td[data-label=Wagered]")).to_have_text(dollars(figures.wagered))
    expect(page.locator("#hold-chart svg path.actual")).to_have_count(1)
    expect(page.locator("#hold-chart figcaption")).to_contain_text("the house won")

    def alarmed(route: Route) -> None:  # the real report, its first row's alarm rung
        report = route.fetch().json()
        report["rows"][0]["alarm"] = True
        route.fulfill(json=report)

    page.route("**/api/office/hold?*", alarmed)
    page.click("label.period:has-text('Last week')")
    expect(page.locator("#hold-rows tbody tr.row--alarm")).to_have_count(1)
    expect(page.locator("#hold-rows tbody tr.row--alarm .badge--alarm")).to_have_text("Alarm")
    expect(page.locator("#hold-said")).to_contain_text("1 outside the band")
    expect(page.locator("#hold-chart svg path.actual--alarm")).to_have_count(1)
    page.unroute("**/api/office/hold?*")
    page.click("label.period:has-text('Custom')")
    page.fill("#hold-since", "2026-12-02T00:00")
    page.fill("#hold-until", "2026-12-01T00:00")
    page.click("#hold-form button.primary")
    expect(page.locator("#hold-error")).to_contain_text("ends before it begins")
    clean(page, office)
    page.close()


def test_a_player_who_is_not_an_operator_is_told_so(browser: Browser, office: Office) -> None:
    page = open_office(browser, office, 390, 844)
    log_in(page, "bob")
    refused = page.locator("#refused-view")
    expect(refused).to_be_visible()
    expect(refused).to_contain_text("You are logged in as bob, who is not an operator")
    expect(page.locator("#desk")).to_be_hidden()
    page.click("#refused-logout")
    expect(page.locator("#login-view")).to_be_visible()
    expect(page.locator("#login-said")).to_have_text("You are logged out.")
    page.fill("#login-name", "bob")
    page.fill("#login-password", "not the password")
    page.click("#login-form button")
    expect(page.locator("#login-error")).not_to_be_empty()
    clean(page, office)
    page.close()


def test_an_operator_revoked_while_the_page_is_open_is_told_so(
    browser: Browser, office: Office
) -> None:
    page = open_office(browser, office)
    log_in(page, "carl")
    expect(page.locator("#operator")).to_have_text("carl")
    page.fill("#find-name", "bob")
    expect(page.locator("#found a")).to_have_count(1)
    revoke(office.service.engine, "carl", by="test", reason="left the club")
    page.fill("#find-name", "bo")  # refused 403: the page asks who it is now
    expect(page.locator("#refused-view")).to_be_visible()
    expect(page.locator("#desk")).to_be_hidden()
    expect(page.locator("#found a")).to_have_count(0)  # nothing of the desk is kept
    clean(page, office)
    page.close()


def focused_with_a_ring(page: Page) -> None:
    """The focus is on something, and it shows (the page's white ring)."""
    ring = page.evaluate(
        """() => {
          const e = document.activeElement, look = getComputedStyle(e);
          const ring = look.outlineStyle !== "none" && parseFloat(look.outlineWidth) >= 2;
          return e !== document.body && ring;
        }"""
    )
    assert ring, page.evaluate("document.activeElement.outerHTML.slice(0, 200)")


def test_search_and_credit_by_keyboard_alone(browser: Browser, office: Office) -> None:
    page = open_office(browser, office, 390, 844)
    expect(page.locator("#login-name")).to_be_focused()
    page.keyboard.type("boss")
    page.keyboard.press("Tab")
    page.keyboard.type(PASSWORD)
    page.keyboard.press("Enter")
    expect(page.locator("#find-name")).to_be_focused()  # the desk starts at the search
    page.keyboard.type("an")
    expect(page.locator("#found a")).to_have_count(1)
    page.keyboard.press("ArrowDown")
    expect(page.locator("#found a").first).to_be_focused()
    focused_with_a_ring(page)
    page.keyboard.press("Enter")
    expect(page.locator("#file-name")).to_be_focused()
    before = office.service.balance(office.ann)
    page.keyboard.press("Tab")
    expect(page.locator("#file button[data-do=credit]")).to_be_focused()
    focused_with_a_ring(page)
    page.keyboard.press("Enter")
    expect(page.locator("#adjust-amount")).to_be_focused()
    page.keyboard.type("7.25")
    page.keyboard.press("Tab")
    page.keyboard.type("a keyboard's credit")
    page.keyboard.press("Tab")
    page.keyboard.type(PASSWORD)
    page.keyboard.press("Enter")
    expect(page.locator("#adjust-done")).to_contain_text("Credited $7.25 to ann")
    closing = page.locator("#adjust .actions [data-close]")
    expect(closing).to_be_focused()
    assert office.service.balance(office.ann) == before + 725
    page.keyboard.press("Escape")
    expect(page.locator("#adjust")).to_be_hidden()
    expect(page.locator("#file button[data-do=credit]")).to_be_focused()
    clean(page, office)
    page.close()


@pytest.mark.parametrize(("width", "height"), [(320, 640), (390, 844), (844, 390), (1440, 900)])
def test_nothing_scrolls_sideways(
    browser: Browser, office: Office, width: int, height: int
) -> None:
    page = open_office(browser, office, width, height)
    log_in(page, "boss")
    expect(page.locator("#desk")).to_be_visible()
    for view, ready in [
        (f"players/{office.ann}", "#file-name"),
        (f"recall/{office.round_id}", "#recall-round"),
        ("log", "#log-list .entry"),
        ("hold", "#hold-rows table"),
    ]:
        page.evaluate(f"location.hash = {json.dumps(view)}")
        expect(page.locator(ready).first).to_be_visible(timeout=120_000)
        page.wait_for_timeout(200)
        right, what, scrolled = page.evaluate(WIDEST)
        assert right <= width + 1, (view, right, what)
        assert scrolled <= width + 1, (view, scrolled)
        shoot(page, f"office-{view.split('/')[0]}-{width}x{height}")
    clean(page, office)
    page.close()
