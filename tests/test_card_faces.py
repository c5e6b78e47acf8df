"""The deck the web table draws: every face in the package's sprite, cards.js's markup and
names run through node, the files served, and a contact sheet of the deck in Chromium
under a strict Content-Security-Policy (test-artifacts/screenshots/card-faces.jpg)."""

import io
import json
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from PIL import Image
from playwright.sync_api import Page, Route, sync_playwright

from riverboat.settings import amended
from riverboat.web.app import create_app

from browser_support import launch_chromium, new_tab, serving, shoot

STATIC = Path(__file__).resolve().parent.parent / "src" / "riverboat" / "web" / "static"
SPRITE = STATIC / "cards" / "cards.svg"
CODES = [rank + suit for suit in "cdhs" for rank in "23456789TJQKA"]
CSP = "default-src 'self'; style-src 'self'; img-src 'self' data:"
SVG = "{http://www.w3.org/2000/svg}"


def _ids_and_refs() -> tuple[set[str], set[str]]:
    root = ET.parse(SPRITE).getroot()
    ids = {element.get("id", "") for element in root.iter()} - {""}
    refs = {element.get("href", "") for element in root.iter(f"{SVG}use")}
    return ids, refs


def test_every_card_and_the_back_is_in_the_sprite() -> None:
    ids, _ = _ids_and_refs()
    faces = set(CODES) | {f"{c}-mini" for c in CODES} | {"back"}
    assert len(CODES) == 52
    assert faces <= ids
    root = ET.parse(SPRITE).getroot()
    # each face is a whole card, 5:7, so that cards.css's boxes fit it
    for symbol in root.iter(f"{SVG}symbol"):
        if symbol.get("id") in faces:
            assert symbol.get("viewBox") == "-120 -168 240 336", symbol.get("id")


def test_the_sprite_refers_only_to_itself_and_keeps_to_its_budget() -> None:
    ids, refs = _ids_and_refs()
    assert refs, "the faces are drawn with <use>"
    assert all(ref.startswith("#") and ref[1:] in ids for ref in refs), refs - {
        f"#{i}" for i in ids
    }
    text = SPRITE.read_text()
    assert "http:" not in text.replace("http://www.w3.org/", "")
    assert "https:" not in text
    assert "xlink:href" not in text  # SVG 2's href only
    assert SPRITE.stat().st_size <= 350_000


def test_court_cards_have_their_art_and_pip_cards_their_pips() -> None:
    root = ET.parse(SPRITE).getroot()
    symbols = {s.get("id"): s for s in root.iter(f"{SVG}symbol")}

    def uses(code: str) -> list[str]:
        return [u.get("href", "") for u in symbols[code].iter(f"{SVG}use")]

    for suit in "cdhs":
        for rank in "JQK":
            art = {ref for ref in uses(rank + suit) if re.fullmatch(rf"#{rank}{suit}\d", ref)}
            assert len(art) >= 4, (rank + suit, art)
        for count, rank in enumerate("23456789T", start=2):
            # the pips plus the suit in each of the four corners
            assert uses(rank + suit).count(f"#s{suit}") == count + 4, rank + suit
            assert uses(rank + suit).count(f"#r{rank}") == 4, rank + suit


def test_the_court_arts_own_pips_keep_their_placement() -> None:
    """The court art places its small pips (the King of spades' robe) in boxes as wide as
    the art, left-aligned: the suit symbols keep Kennard's xMinYMid, or the pips drift."""
    root = ET.parse(SPRITE).getroot()
    symbols = {s.get("id"): s for s in root.iter(f"{SVG}symbol")}
    art = [u for code in ("Ks1", "Ks2", "Ks3", "Ks4", "Ks5", "Ks6") for u in symbols[code].iter()]
    robe = [u for u in art if u.tag == f"{SVG}use"]
    assert robe, "the King of spades' robe has its spades"
    assert all(u.get("width") is None and u.get("href") == "#ss" for u in robe)
    for suit in "cdhs":
        assert symbols[f"s{suit}"].get("preserveAspectRatio") == "xMinYMid"


def test_the_licence_and_the_credit_ship_with_the_deck() -> None:
    licence = (STATIC / "cards" / "LICENCE-CC0.txt").read_text()
    assert "CC0 1.0 Universal" in licence
    readme = (STATIC / "cards" / "README.md").read_text()
    assert "Adrian Kennard" in readme
    assert "CC0" in readme


def _node(script: str) -> object:
    node = shutil.which("node")
    assert node, "node runs cards.js outside a browser"
    module = (STATIC / "js" / "cards.js").as_uri()
    source = f"import * as cards from {json.dumps(module)};\n{script}"
    done = subprocess.run(
        [node, "--input-type=module", "-e", source],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return json.loads(done.stdout)


def test_card_markup_names_and_classes() -> None:
    out = _node(
        """
        const html = (code, options) => cards.cardHtml(code, options);
        console.log(JSON.stringify({
          ten: html("Th"),
          down: html(null, { index: 4 }),
          third: html("9s", { index: 2, sideways: true, made: true }),
          history: html("Ac", { size: "mini", dim: true }),
          late: html("2d", { index: 14 }),
          names: ["Th", "As", "2c", "Qd", "Kh", "Js", null].map(cards.cardName),
          exported: Object.keys(cards).sort(),
        }));
        """
    )
    assert isinstance(out, dict)
    assert out["names"] == [
        "Ten of hearts",
        "Ace of spades",
        "Two of clubs",
        "Queen of diamonds",
        "King of hearts",
        "Jack of spades",
        "face down",
    ]
    assert out["exported"] == ["cardHtml", "cardName"]
    ids, _ = _ids_and_refs()
    for key, label, classes, face in (
        ("ten", "Ten of hearts", {"card", "card--i0"}, "Th"),
        ("down", "face down", {"card", "card--i4", "card--down"}, "back"),
        ("third", "Nine of spades", {"card", "card--i2", "card--sideways", "card--made"}, "9s"),
        ("history", "Ace of clubs", {"card", "card--i0", "card--mini", "card--dim"}, "Ac-mini"),
        ("late", "Two of diamonds", {"card", "card--i9"}, "2d"),
    ):
        html = out[key]
        assert f'role="img" aria-label="{label}"' in html, html
        found = re.search(r'class="([^"]*)"', html)
        assert found, html
        assert set(found.group(1).split()) == classes, html
        assert f'href="/static/cards/cards.svg#{face}"' in html, html
        assert face in ids
        assert "style=" not in html  # a strict CSP refuses inline styles


@pytest.mark.parametrize(
    ("call", "message"),
    [
        ('cards.cardHtml("1h")', 'unknown card code "1h": a rank of 23456789TJQKA'),
        ('cards.cardHtml("th")', 'unknown card code "th"'),
        ('cards.cardName("Tx")', 'unknown card code "Tx"'),
        ("cards.cardHtml(undefined)", "unknown card code undefined"),
        ('cards.cardHtml("Th", { size: "huge" })', 'card size "huge": one of "normal", "mini"'),
        ('cards.cardHtml("Th", { index: -1 })', "card index -1: a whole number from 0"),
        ('cards.cardHtml("Th", { index: 1.5 })', "card index 1.5"),
    ],
)
def test_bad_card_input_is_refused_by_name(call: str, message: str) -> None:
    out = _node(
        f"try {{ console.log(JSON.stringify({{ made: {call} }})); }}"
        "catch (error) { console.log(JSON.stringify({ refused: error.message })); }"
    )
    assert isinstance(out, dict)
    assert "refused" in out, out
    assert message in out["refused"]


def test_the_app_serves_the_deck(tmp_path: Path) -> None:
    app = create_app(
        amended(
            database_url=f"sqlite:///{tmp_path / 'cards.db'}", local_player=True, rate_limit=1000
        )
    )
    with TestClient(app) as client:
        sprite = client.get("/static/cards/cards.svg")
        assert sprite.status_code == 200
        assert sprite.headers["content-type"].startswith("image/svg+xml")
        assert sprite.content == SPRITE.read_bytes()
        assert client.get("/static/cards.css").headers["content-type"].startswith("text/css")
        assert "javascript" in client.get("/static/js/cards.js").headers["content-type"]
        page = client.get("/").text
        assert '<link rel="stylesheet" href="/static/cards.css">' in page


# The contact sheet: a page of the app's origin with no inline script or style at all
SHEET_HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Card faces</title>
<link rel="stylesheet" href="/static/style.css">
<link rel="stylesheet" href="/static/cards.css">
<link rel="stylesheet" href="/sheet/sheet.css">
<script type="module" src="/sheet/sheet.js"></script></head>
<body><main id="sheet"></main></body></html>"""
SHEET_CSS = """
body { background: #0b5d3b; margin: .5rem; }
.row { display: flex; flex-wrap: wrap; gap: .3rem; margin: 0 0 1rem; min-height: 0; }
"""
SHEET_JS = """
import { cardHtml } from "/static/js/cards.js";
const rows = ["cdhs", "c", "d", "h", "s"];
const codes = (suit) => [..."A23456789TJQK"].map((r) => r + suit);
const sheet = document.getElementById("sheet");
const row = (html, id) => `<div class="row" id="${id}">${html}</div>`;
const hand = (s) => codes(s).map((c, i) => cardHtml(c, { index: i })).join("");
const made = ["Kh", "Qh", "Jh"].map((c) => cardHtml(c, { made: true })).join("");
sheet.innerHTML =
  ["s", "h", "d", "c"].map((s) => row(hand(s), `suit-${s}`)).join("") +
  row(
    cardHtml(null) + made + cardHtml("2c", { dim: true }) +
      cardHtml("9d", { sideways: true, index: 2 }) + cardHtml("Td", { sideways: true, made: true }),
    "states",
  ) +
  row(rows[0].split("").flatMap(codes).map((c) => cardHtml(c, { size: "mini" })).join(""), "minis");
sheet.dataset.ready = "yes";
"""


Opener = Callable[[int, float], tuple[Page, list[str]]]


@pytest.fixture(scope="module")
def open_sheet(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Opener]:
    """Opens the contact sheet in a tab of the given width and pixel ratio; the tab's list
    gathers the browser's Content-Security-Policy refusals."""
    bodies = {
        "/sheet/": ("text/html", SHEET_HTML),
        "/sheet/sheet.css": ("text/css", SHEET_CSS),
        "/sheet/sheet.js": ("text/javascript", SHEET_JS),
    }
    database = tmp_path_factory.mktemp("cards") / "cards.db"
    with serving(database, local_player=True) as address, sync_playwright() as pw:
        origin = address.rstrip("/")
        browser = launch_chromium(pw)

        def fulfil(route: Route) -> None:
            kind, body = bodies[route.request.url.removeprefix(origin)]
            route.fulfill(
                status=200,
                content_type=kind,
                body=body,
                headers={"Content-Security-Policy": CSP},
            )

        def opener(width: int, scale: float) -> tuple[Page, list[str]]:
            page = new_tab(
                browser, viewport={"width": width, "height": 900}, device_scale_factor=scale
            )
            refusals: list[str] = []
            page.on(
                "console",
                lambda m: refusals.append(m.text) if "Content Security Policy" in m.text else None,
            )
            page.route(f"{origin}/sheet/**", fulfil)
            page.goto(f"{origin}/sheet/")
            page.wait_for_selector("#sheet[data-ready=yes]")
            page.wait_for_load_state("networkidle")
            # the deal's slide moves the boxes until it ends (polled from here: the
            # page's policy refuses the string evaluation wait_for_function makes)
            for _ in range(200):
                if page.evaluate("document.getAnimations().every(a => a.playState === 'finished')"):
                    break
                page.wait_for_timeout(25)
            return page, refusals

        yield opener
        browser.close()


@pytest.fixture(scope="module")
def sheet_page(open_sheet: Opener) -> tuple[Page, list[str]]:
    return open_sheet(1100, 1)


def _pixels(page: Page, selector: str) -> list[tuple[int, int, int]]:
    shot = page.locator(selector).screenshot(animations="disabled")
    return list(Image.open(io.BytesIO(shot)).convert("RGB").get_flattened_data())


Rgb = tuple[int, int, int]


def _share(pixels: list[Rgb], near: Rgb, within: int = 40) -> float:
    """The fraction of pixels within ``within`` of the colour ``near`` in every channel."""
    hits = sum(1 for p in pixels if all(abs(a - b) <= within for a, b in zip(p, near, strict=True)))
    return hits / len(pixels)


def test_contact_sheet_of_the_deck_under_a_strict_csp(sheet_page: tuple[Page, list[str]]) -> None:
    page, refusals = sheet_page
    shoot(page, "card-faces", full_page=True, animations="disabled")
    assert refusals == []
    assert page.locator(".card").count() == 52 + 7 + 52
    assert page.locator('[aria-label="Ten of hearts"]').count() == 2
    # the faces are drawn, not blank: red on the hearts, the house red on the back,
    # the court art's gold on a king, and white paper on a pip card
    hearts = _pixels(page, '#suit-h [aria-label="Ace of hearts"]')
    assert _share(hearts, (200, 16, 46)) > 0.05
    back = _pixels(page, '#states [aria-label="face down"]')
    assert _share(back, (0x7A, 0x1F, 0x2B)) > 0.4
    assert _share(back, (0xE8, 0xC3, 0x5A), within=60) > 0.015
    king = _pixels(page, '#suit-c [aria-label="King of clubs"]')
    assert _share(king, (0xFF, 0xCC, 0x44), within=50) > 0.02
    two = _pixels(page, '#suit-c [aria-label="Two of clubs"]')
    assert _share(two, (255, 255, 255), within=10) > 0.6


def test_card_states_take_their_boxes(sheet_page: tuple[Page, list[str]]) -> None:
    page, _ = sheet_page
    box = page.locator('#suit-s [aria-label="Ace of spades"]').bounding_box()
    assert box is not None
    assert box["width"] == pytest.approx(4.3 * 16, abs=0.5)
    assert box["height"] == pytest.approx(4.3 * 16 * 7 / 5, abs=0.5)
    third = page.locator('#states [aria-label="Nine of diamonds"]').bounding_box()
    assert third is not None
    assert third["width"] == pytest.approx(box["height"], abs=0.5)
    assert third["height"] == pytest.approx(box["width"], abs=0.5)
    mini = page.locator('#minis [aria-label="Ace of clubs"]').bounding_box()
    assert mini is not None
    assert mini["width"] == pytest.approx(1.6 * 16, abs=0.5)
    made = page.locator('#states [aria-label="King of hearts"]').bounding_box()
    plain = page.locator('#states [aria-label="Two of clubs"]')
    assert made is not None
    assert made["y"] < (plain.bounding_box() or {"y": 0})["y"] - 4  # lifted
    # stepped back in shade, not see-through: the felt's green must not show through it
    assert plain.evaluate("e => getComputedStyle(e).opacity") == "1"
    assert "brightness(0.6)" in plain.evaluate("e => getComputedStyle(e).filter")


def test_faces_are_legible_on_a_phone(open_sheet: Opener) -> None:
    """On a 390 px phone (three device pixels to one) the cards are 3.4rem wide, and the
    corner index is a large share of the card."""
    page, refusals = open_sheet(390, 3)
    assert refusals == []
    box = page.locator('#suit-h [aria-label="Ten of hearts"]').bounding_box()
    assert box is not None
    assert box["width"] == pytest.approx(3.4 * 16, abs=0.5)
    shoot(page.locator("#suit-h"), "card-faces-phone", animations="disabled")
    # the top-left index (rank and suit) is red ink in the card's top-left fifth
    shot = page.locator('#suit-h [aria-label="Ten of hearts"]').screenshot(animations="disabled")
    card = Image.open(io.BytesIO(shot)).convert("RGB")
    width, height = card.size
    assert width >= 3.4 * 16 * 3 - 1  # three device pixels to the CSS pixel
    corner = list(card.crop((0, 0, width // 5, height // 3)).get_flattened_data())
    assert _share(corner, (200, 16, 46), within=60) > 0.1
    page.close()


def test_the_deal_is_staggered_and_still_for_reduced_motion(
    sheet_page: tuple[Page, list[str]],
) -> None:
    page, _ = sheet_page
    page.emulate_media(reduced_motion="no-preference")
    row = page.locator("#suit-s .card")
    style = "e => [getComputedStyle(e).animationName, getComputedStyle(e).animationDelay]"
    assert row.nth(0).evaluate(style) == ["card-deal", "0s"]
    assert row.nth(3).evaluate(style) == ["card-deal", "0.21s"]
    assert row.nth(12).evaluate(style) == ["card-deal", "0.63s"]  # card--i9, the last delay
    page.emulate_media(reduced_motion="reduce")
    try:
        assert row.nth(3).evaluate(style)[0] == "none"
    finally:
        page.emulate_media(reduced_motion="reduce")  # the context's own (CONTEXT)
