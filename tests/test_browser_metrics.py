"""What a player waits for and downloads, measured by the browser itself: the page's
weight on a first visit (the page's own files as first loaded, and every file it
fetched by the second deal, as sent and as unpacked), the time from a chip tap to the
chip drawn on its circle, and the time from a tap on Deal to the player's cards on the
felt. The figures are written to test-artifacts/page-metrics.json for the record; the
checks are on what must hold whatever the machine: nothing fetched from elsewhere, a
weight within its budget, a chip drawn without waiting for the server, and the dealt
cards on show."""

import json
import statistics
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, Route, expect

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


#: the next tap's watch, from the tap (its pointerup: a tap places its chip as the
#: finger or button lifts) to the first frame painted with a chip on the Ante's circle,
#: in performance marks; null if no chip shows within 5 seconds
CHIP_WATCH = """() => {
  const drawn = new Promise((done) => {
    addEventListener("pointerup", (event) => {
      performance.mark("chip-tap", { startTime: event.timeStamp });
      const look = () => {
        if (!document.querySelector("[data-spot=ante] .chip3d")) return requestAnimationFrame(look);
        setTimeout(() => {  // after the frame that paints it
          performance.mark("chip-drawn");
          done(performance.measure("chip-tap-to-drawn", "chip-tap", "chip-drawn").duration);
        });
      };
      requestAnimationFrame(look);
    }, { once: true, capture: true });
  });
  const late = new Promise((done) => setTimeout(() => done(null), 5000));
  window.chipDrawn = Promise.race([drawn, late]);
}"""
CHIP_TAPS = 7

Entry = tuple[str, int, int]


def _own_files(entries: list[Entry]) -> list[Entry]:
    """The page's files among the fetched (not the API's answers), each once: the deck's
    sprite read again for another card (``cards.svg#3c``, from the memory cache) is the
    file already counted."""
    files: dict[str, Entry] = {}
    for address, wire, size in entries:
        if "/api/" in address:
            continue
        name = address.split("#")[0]
        if name not in files or wire > files[name][1]:
            files[name] = (name, wire, size)
    return list(files.values())


def _chip_tap_to_drawn(page: Page) -> list[float]:
    """Taps on the empty Ante, each timed to its chip drawn while the server's answer
    is held back (the chip shows without it), then let through and the chip cleared."""
    timings: list[float] = []
    for _ in range(CHIP_TAPS):
        expect(page.locator("[data-spot=ante] .chip3d")).to_have_count(0)
        held: list[Route] = []
        page.route("**/api/chips", lambda route: held.append(route))  # noqa: B023
        page.evaluate(CHIP_WATCH)
        page.click("[data-spot=ante]")
        timing: Any = page.evaluate("window.chipDrawn")
        assert timing is not None, "the chip waited for the server's answer"
        for _ in range(50):  # the request reaches the route when the browser sends it
            if held:
                break
            page.wait_for_timeout(100)
        assert held, "the tap never went to the server"
        timings.append(float(timing))
        with page.expect_response("**/api/chips"):
            held[0].continue_()
        page.unroute("**/api/chips")
        expect(page.locator("#clear")).to_be_enabled()
        page.click("#clear")
    return timings


def test_page_weight_chip_to_drawn_and_deal_to_cards(browser: Browser, server: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})  # a cold cache
    page = context.new_page()
    page.goto(server)
    page.wait_for_selector(".spot")
    page.wait_for_load_state("networkidle")
    loaded = _own_files(page.evaluate(RESOURCES))
    choose(page, "Tri-Card Poker")
    chips = _chip_tap_to_drawn(page)
    tap(page, "ante")
    page.wait_for_load_state("networkidle")
    first = page.evaluate(DEAL_TO_CARDS)  # the first cards drawn (the deck came with the page)
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
    files = _own_files(fetched)  # the page, not answers
    unpacked = sum(size for _, _, size in files)
    wire = sum(size for _, size, _ in files)
    assert unpacked <= BUDGET, f"the page weighs {unpacked} bytes unpacked"
    assert any("/static/cards/cards.svg" in address for address, _, _ in files), files
    assert any(address.endswith("/static/js/main.js") for address, _, _ in loaded), loaded
    first_load = sum(size for _, _, size in loaded)
    assert 0 < first_load <= unpacked
    chip_ms = statistics.median(chips)
    METRICS.parent.mkdir(parents=True, exist_ok=True)
    METRICS.write_text(
        json.dumps(
            {
                "first_load": {  # the page's own files, as the first visit loads them
                    "files": len(loaded),
                    "bytes_on_the_wire": sum(size for _, size, _ in loaded),
                    "bytes_unpacked": first_load,
                },
                "chip_tap_to_drawn_ms": round(chip_ms, 1),  # the median of CHIP_TAPS
                "chip_tap_to_drawn_each_ms": [round(ms, 1) for ms in chips],
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
