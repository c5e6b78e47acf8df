"""The page's weight and the time from a chip tap to the chip drawn, in Chromium.

Serves the app (``riverboat serve``'s options, a fresh SQLite file) and opens the
table in Debian's Chromium at 390x844 with touch:

- **weight**: every byte the first visit fetches (the page, its modules, styles, the
  card sprite), as sent (gzip where the server compresses) and unpacked, and the
  same for a second visit from the browser's cache;
- **chip tap to chip drawn**: for --taps taps on the Ante (Clear between each few),
  the time from the tap's ``pointerup`` to the chip in the circle (a
  MutationObserver), beside the time to the server's answer to that tap (the chip
  waited for it before the page drew chips at once). Medians, and the ratio of the
  two, measured in the same run.

    python bench/page.py [--taps 40]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

# the tap's pointerup to the chip drawn in the Ante's circle, and to the server's answer
MEASURE = """() => { window.__measured = new Promise((done) => {
  const spot = () => document.querySelector("[data-spot=ante]");
  let tapped = 0, drawn = 0;
  const amount = () => document.querySelector("[data-spot=ante] .pile__amount").textContent;
  const before = amount();
  const seen = new MutationObserver(() => {
    if (!drawn && amount() !== before) drawn = performance.now();
  });
  seen.observe(spot().parentElement, { childList: true, subtree: true, characterData: true });
  const fetching = window.fetch;
  window.fetch = async (...args) => {
    const answer = await fetching(...args);
    if (String(args[0]).endsWith("/api/chips")) {
      const answered = performance.now();
      window.fetch = fetching;
      const times = () => ({ drawn: drawn - tapped, answered: answered - tapped });
      setTimeout(() => { seen.disconnect(); done(times()); }, 50);
    }
    return answer;
  };
  const mark = () => { tapped = performance.now(); };
  spot().addEventListener("pointerup", mark, { once: true, capture: true });
}); }"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--taps", type=int, default=40, help="chip taps timed (default 40)")
    options = parser.parse_args()
    # imported once the arguments are read: --help answers without the app and Playwright
    from playwright.sync_api import sync_playwright

    from browser_support import serving

    chromium = shutil.which("chromium")
    if not chromium:
        sys.exit("Debian's chromium package is needed: apt-get install chromium")
    with (
        tempfile.TemporaryDirectory() as folder,
        serving(Path(folder) / "bench.db") as address,
        sync_playwright() as playwright,
    ):
        browser = playwright.chromium.launch(
            executable_path=chromium, args=["--no-sandbox", "--disable-background-networking"]
        )
        context = browser.new_context(
            viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True
        )
        page = context.new_page()
        client = context.new_cdp_session(page)
        client.send("Network.enable")
        sent: dict[str, int] = {}
        client.on(
            "Network.loadingFinished",
            lambda event: sent.__setitem__(event["requestId"], int(event["encodedDataLength"])),
        )
        unpacked: list[int] = []
        page.on(
            "response",
            lambda r: (
                unpacked.append(len(r.body())) if r.ok and r.request.method == "GET" else None
            ),
        )
        page.goto(address)
        page.wait_for_selector(".spot")
        page.wait_for_load_state("networkidle")
        first_sent, first_unpacked, requests = sum(sent.values()), sum(unpacked), len(unpacked)
        sent.clear()
        unpacked.clear()
        page.reload()
        page.wait_for_selector(".spot")
        page.wait_for_load_state("networkidle")
        again_sent = sum(sent.values())

        drawn, answered = [], []
        for tap in range(options.taps):
            if tap % 8 == 0 and page.locator("#clear").is_enabled():
                page.locator("#clear").tap()
                page.wait_for_timeout(100)
            page.evaluate(MEASURE)
            page.locator("[data-spot=ante]").tap()
            result = page.evaluate("window.__measured")
            drawn.append(result["drawn"])
            answered.append(result["answered"])
        browser.close()
    kb = 1024
    ratio = first_sent / max(first_unpacked, 1)
    print(f"first visit: {requests} requests, {first_sent / kb:.1f} KB sent, ", end="")
    print(f"{first_unpacked / kb:.1f} KB unpacked ({ratio:.2f}x)")
    print(f"second visit (the browser's cache): {again_sent / kb:.1f} KB sent ", end="")
    print(f"({again_sent / max(first_sent, 1):.2f}x the first)")
    median_drawn, median_answered = statistics.median(drawn), statistics.median(answered)
    p90 = sorted(drawn)[int(0.9 * len(drawn))]
    print(f"chip tap to chip drawn: median {median_drawn:.1f} ms (p90 {p90:.1f} ms)", end="")
    print(f", {len(drawn)} taps")
    print(f"chip tap to the server's answer: median {median_answered:.1f} ms")
    print(f"drawn / answered: {median_drawn / max(median_answered, 0.001):.2f}x")


if __name__ == "__main__":
    main()
