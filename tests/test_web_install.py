"""The table as an installable app, over HTTP: the manifest and its icons, the service
worker at ``/sw.js`` (its headers, the files it keeps, the version its cache is named
after), and both met at the edge like any other static file (host names, the rate
limit). The worker in a real browser is tests/test_browser_install.py's."""

import json
import re
import shutil
import struct
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from riverboat.admission.gates import RateLimiter
from riverboat.settings import amended
from riverboat.web.app import PAGE_VISITS, create_app
from riverboat.web.guards import CONTENT_SECURITY_POLICY
from riverboat.web.routes.page import STATIC
from riverboat.web.routes.worker import WORKER, precache

FOLDER = Path(str(STATIC))
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(path: Path) -> tuple[int, int]:
    """A PNG's width and height, from its IHDR chunk (the first, right after the signature)."""
    head = path.read_bytes()[:24]
    assert head[:8] == PNG_SIGNATURE, f"{path.name} is not a PNG"
    assert head[12:16] == b"IHDR"
    width, height = struct.unpack(">II", head[16:24])
    return width, height


def static_file(url: str) -> Path:
    assert url.startswith("/static/"), url
    return FOLDER / url.removeprefix("/static/")


def test_the_manifest_has_what_an_install_needs() -> None:
    manifest = json.loads((FOLDER / "manifest.webmanifest").read_text())
    assert manifest["name"] == "riverboat"
    assert manifest["short_name"]
    assert (manifest["start_url"], manifest["scope"], manifest["display"]) == (
        "/",
        "/",
        "standalone",
    )
    theme = re.search(
        r'name="theme-color" content="(#[0-9a-f]{6})"', (FOLDER / "index.html").read_text()
    )
    assert theme is not None
    assert manifest["theme_color"] == manifest["background_color"] == theme.group(1)
    assert theme.group(1) in (FOLDER / "style.css").read_text()  # the page's own night colour


def test_each_icon_exists_and_is_the_size_it_claims() -> None:
    icons = json.loads((FOLDER / "manifest.webmanifest").read_text())["icons"]
    pngs = [icon for icon in icons if icon["type"] == "image/png"]
    for icon in pngs:
        width, height = png_size(static_file(icon["src"]))
        assert icon["sizes"] == f"{width}x{height}", icon["src"]
    sizes = {(icon["sizes"], icon.get("purpose", "any")) for icon in pngs}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in icons:
        if icon["type"] == "image/svg+xml":
            assert static_file(icon["src"]).read_text().startswith("<svg")


def test_the_page_links_the_manifest_and_its_icons() -> None:
    html = (FOLDER / "index.html").read_text()
    assert 'href="data:,"' not in html  # the empty favicon is gone
    links = dict(re.findall(r'<link rel="(manifest|apple-touch-icon)" href="([^"]+)"', html))
    assert links["manifest"] == "/static/manifest.webmanifest"
    assert png_size(static_file(links["apple-touch-icon"])) == (180, 180)
    for icon in re.findall(r'<link rel="icon" href="([^"]+)"', html):
        assert static_file(icon).is_file(), icon


def test_the_worker_is_served_at_the_root_fresh_each_time(client: TestClient) -> None:
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/javascript")
    assert answer.headers["cache-control"] == "no-cache"
    assert answer.headers["service-worker-allowed"] == "/"
    assert answer.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert answer.text.endswith(WORKER.read_text())
    manifest = client.get("/static/manifest.webmanifest")
    assert manifest.headers["content-type"] == "application/manifest+json"
    assert json.loads(manifest.text)["name"] == "riverboat"


def worker_constants(script: str) -> tuple[str, list[str]]:
    version = re.search(r'^const VERSION = "([0-9a-f]{16})";$', script, re.MULTILINE)
    listed = re.search(r"^const PRECACHE = (\[.*\]);$", script, re.MULTILINE)
    assert version, script[:300]
    assert listed, script[:300]
    return version.group(1), json.loads(listed.group(1))


def test_the_worker_keeps_every_file_of_the_page_and_nothing_else(client: TestClient) -> None:
    """The list is the static folder's, not kept by hand: every script, stylesheet,
    the card sprite, the icons and the manifest, with the page as "/"; never the
    server's answers, never the sprite's readme or licence."""
    version, urls = worker_constants(client.get("/sw.js").text)
    files = sorted(p.relative_to(FOLDER).as_posix() for p in FOLDER.rglob("*") if p.is_file())
    expected = ["/"] + [
        f"/static/{name}"
        for name in files
        if name != "index.html" and not name.endswith((".md", ".txt"))
    ]
    assert urls == expected
    for needed in (
        "js/main.js",
        "js/install.js",
        "style.css",
        "cards/cards.svg",
        "icons/icon-512.png",
    ):
        assert f"/static/{needed}" in urls
    assert len([url for url in urls if url.startswith("/static/js/")]) == len(
        list(FOLDER.glob("js/*.js"))
    )
    assert not [url for url in urls if url.startswith(("/api", "/ws", "/openapi", "/sw.js"))]
    assert version == client.app.state.precache.version  # type: ignore[attr-defined]
    for url in urls:  # each one is there to be fetched
        assert client.get(url).status_code == 200, url


def test_the_version_follows_the_files_contents(tmp_path: Path) -> None:
    """The same files give the same version (every worker process of one install names
    one cache); a file changed, added or the worker's own text changed gives another."""
    copy = tmp_path / "static"
    shutil.copytree(FOLDER, copy)
    first = precache(copy)
    assert precache(copy) == first
    assert first.version == precache(STATIC).version
    (copy / "js" / "api.js").write_text((copy / "js" / "api.js").read_text() + "\n// changed\n")
    changed = precache(copy)
    assert changed.version != first.version
    assert changed.urls == first.urls
    (copy / "js" / "new.js").write_text("export {};\n")
    added = precache(copy)
    assert "/static/js/new.js" in added.urls
    assert added.version not in (first.version, changed.version)
    other_worker = tmp_path / "sw.js"
    other_worker.write_text(WORKER.read_text() + "\n// changed\n")
    rewritten = precache(copy, other_worker)
    assert rewritten.version != added.version
    (copy / "cards" / "README.md").write_text("a readme the page never loads")
    assert precache(copy, other_worker) == rewritten


def test_the_worker_and_manifest_meet_the_host_check_like_other_files(tmp_path: Path) -> None:
    app = create_app(
        amended(
            database_url=f"sqlite:///{tmp_path / 'hosts.db'}",
            allowed_hosts=["127.0.0.1"],
            house_edges=False,
        )
    )
    paths = (
        "/sw.js",
        "/static/manifest.webmanifest",
        "/static/icons/icon-192.png",
        "/static/style.css",
    )
    with TestClient(app, base_url="http://127.0.0.1") as local:
        assert [local.get(path).status_code for path in paths] == [200] * 4
    with TestClient(app, base_url="http://evil.example") as rebound:
        refused = [rebound.get(path) for path in paths]
    assert [answer.status_code for answer in refused] == [403] * 4
    assert {answer.json()["code"] for answer in refused} == {"forbidden"}


@pytest.mark.parametrize("path", ["/sw.js", "/static/manifest.webmanifest", "/"])
def test_the_worker_and_manifest_count_against_the_page_files_limit(
    tmp_path: Path, path: str
) -> None:
    """The page's own files count against an allowance of their own (three visits'
    worth a second), not the API's: a visit spends none of what the table needs."""
    app = create_app(
        amended(database_url=f"sqlite:///{tmp_path / 'rate.db'}", rate_limit=3, house_edges=False)
    )
    assert app.state.page_limiter.limit == PAGE_VISITS * len(app.state.page_files)
    assert path in app.state.page_files
    app.state.limiter = RateLimiter(1, window=60.0)  # no request leaves the window
    app.state.page_limiter = RateLimiter(3, window=60.0, name="files")
    with TestClient(app) as client:
        codes = [client.get(path).status_code for _ in range(5)]
        assert client.get("/api/games").status_code == 200  # the API's one, unspent
    assert codes == [200, 200, 200, 429, 429]
