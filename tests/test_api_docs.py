"""The API's page (/docs): Swagger UI from the package's own files, every request to
this origin, no content security policy violation, and every route on it."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, expect

from browser_support import new_tab, serving, shoot


def test_the_api_page_renders_offline_under_the_pages_policy(
    tmp_path: Path, browser: Browser
) -> None:
    with serving(tmp_path / "docs.db", house_edges=False) as server:
        page = new_tab(browser, viewport={"width": 1440, "height": 900})
        asked: list[str] = []
        page.on("request", lambda request: asked.append(request.url))
        violations: list[str] = []
        page.on(
            "console",
            lambda message: (
                violations.append(message.text)
                if "Content Security Policy" in message.text
                else None
            ),
        )
        page.goto(server + "docs")
        expect(page.locator(".opblock").first).to_be_visible(timeout=15_000)
        expect(page.locator(".info .title")).to_contain_text("riverboat")
        paths = page.locator(".opblock-summary-path").all_inner_texts()
        assert "/api/rounds" in " ".join(paths)
        assert len(paths) >= 10
        shoot(page, "api-docs-1440x900")
        page.set_viewport_size({"width": 390, "height": 844})
        page.wait_for_timeout(300)
        shoot(page, "api-docs-390x844")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390 + 1
        page.close()
    assert asked, "the page asked nothing"
    assert all(url.startswith(server) for url in asked), [
        u for u in asked if not u.startswith(server)
    ]
    assert violations == []
