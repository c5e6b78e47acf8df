"""Render the page's icons, static/icons/*.png, from their SVG sources beside them.

    python tools/render_icons.py

Chromium (Debian's, driven by Playwright, as the browser tests drive it) draws each
SVG at the size named below and saves it as a PNG with its transparency; the icons
are the manifest's (``static/manifest.webmanifest``) and the page's
``apple-touch-icon``. Rerun after changing an SVG and commit the PNGs with it.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from playwright.sync_api import sync_playwright

ICONS = Path(__file__).resolve().parent.parent / "src" / "riverboat" / "web" / "static" / "icons"
#: each PNG made: its SVG source and its width and height in pixels
RENDERS = {
    "icon-192.png": ("icon.svg", 192),
    "icon-512.png": ("icon.svg", 512),
    "icon-maskable-512.png": ("icon-maskable.svg", 512),
    "apple-touch-icon.png": ("icon-maskable.svg", 180),  # iOS rounds the corners itself
}


def main() -> None:
    chromium = shutil.which("chromium")
    assert chromium, "Debian's chromium package is needed"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, headless=True)
        for png, (svg, size) in RENDERS.items():
            page = browser.new_page(viewport={"width": size, "height": size})
            source = (ICONS / svg).read_text()
            page.set_content(
                "<style>html,body{margin:0;background:transparent}svg{display:block;"
                f"width:{size}px;height:{size}px}}</style>{source}"
            )
            page.screenshot(path=str(ICONS / png), omit_background=True)
            page.close()
            print(f"{png}: {svg} at {size}x{size}")
        browser.close()


if __name__ == "__main__":
    main()
