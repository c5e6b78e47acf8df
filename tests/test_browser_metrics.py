"""What a player waits for and downloads, measured by the browser itself: the page's
weight on a first visit (every file it fetched, as sent and as unpacked) and the time
from a tap on Deal to the player's cards on the felt. The figures are written to
test-artifacts/page-metrics.json for the record; the checks are on what must hold
whatever the machine: nothing fetched from elsewhere, a weight within its budget, and
the dealt cards on show."""

import json
from pathlib import Path

from playwright.sync_api import Browser, expect

from browser_support import SHOTS, choose, tap

METRICS = SHOTS.parent / "page-metrics.json"
#: the page, its styles, modules and the deck's sprite, unpacked (the sprite is 254 KB)
BUDGET = 600_000

#: every file the page fetched: (address, bytes on the wire, bytes unpacked)
RESOURCES = """() => [performance.getEntriesByType("navigation")[0],
  ...performance.getEntriesByType("resource")].map(
  (e) => [e.name, e.transferSize, e.decodedBodySize])"""

#: Deal tapped, then the time until the new round's cards are in the player's hand
#: (cards of an earlier round still on the felt do not count)
DEAL_TO_CARDS = """async () => {
  const before = new Set(document.querySelectorAll("#player .card"));
  const started = performance.now();
  document.getElementById("deal").click();
  await new Promise((done) => {
    const look = () => {
      const now = [...document.querySelectorAll("#player .card")];
      const fresh = now.length >= 3 && !now.some((card) => before.has(card));
      return fresh ? done() : requestAnimationFrame(look);
    };
    look();
  });
  return performance.now() - started;
}"""


def test_page_weight_and_deal_to_cards(browser: Browser, server: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})  # a cold cache
    page = context.new_page()
    page.goto(server)
    page.wait_for_selector(".spot")
    choose(page, "Tri-Card Poker")
    tap(page, "ante")
    page.wait_for_load_state("networkidle")
    first = page.evaluate(DEAL_TO_CARDS)  # the first deal also fetches the deck
    expect(page.locator("#player .card")).to_have_count(3)
    page.click("[data-action=fold]")
    expect(page.locator("#deal")).to_be_enabled()
    page.wait_for_load_state("networkidle")
    again = page.evaluate(DEAL_TO_CARDS)
    page.wait_for_load_state("networkidle")
    fetched = page.evaluate(RESOURCES)
    context.close()

    origin = server.rstrip("/")
    assert all(address.startswith(origin) for address, _, _ in fetched), fetched
    files = [entry for entry in fetched if "/api/" not in entry[0]]  # the page, not answers
    unpacked = sum(size for _, _, size in files)
    wire = sum(size for _, size, _ in files)
    assert unpacked <= BUDGET, f"the page weighs {unpacked} bytes unpacked"
    assert any("/static/cards/cards.svg" in address for address, _, _ in files), files
    METRICS.parent.mkdir(parents=True, exist_ok=True)
    METRICS.write_text(
        json.dumps(
            {
                "files": len(files),
                "bytes_on_the_wire": wire,
                "bytes_unpacked": unpacked,
                "first_deal_to_cards_ms": round(first, 1),
                "next_deal_to_cards_ms": round(again, 1),
                "largest": sorted(
                    ((Path(a).name, u) for a, _, u in files), key=lambda f: -f[1]
                )[:5],
            },
            indent=2,
        )
    )
