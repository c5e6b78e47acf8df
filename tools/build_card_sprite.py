"""Build cards.svg, the deck's one sprite, from Adrian Kennard's CC0 card SVGs.

    python tools/build_card_sprite.py KENNARD_DIR COURTS_DIR > cards.svg

KENNARD_DIR holds his 52 two-colour faces as ``KH.svg``, ``TC.svg``...: the rank
glyphs, suit pips and court layers come from there. COURTS_DIR holds the twelve
court faces after ``svgo`` (whole-number precision, ids kept): their art is taken
from there, far smaller and the same to the eye. Every layout here is this
project's own: four-corner indices, the pip patterns, the Ace of spades, the
mini faces for history rows and the back (recoloured by the page's CSS).
"""

from __future__ import annotations

import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

SVG = "{http://www.w3.org/2000/svg}"
XLINK = "{http://www.w3.org/1999/xlink}href"
RANKS = "23456789TJQKA"
SUITS = "cdhs"
RED, BLACK, GOLD = "#c8102e", "#111", "#e8c35a"

# the card is 240 by 336 (5:7), its centre at the origin
INDEX_X, RANK_H, RANK_Y, PIP_H, PIP_Y = 95.0, 52.0, -162.0, 36.0, -108.0
PIP, COL, TOP, MID4 = 54.0, 44.0, -112.0, -112.0 / 3
# centres of the pips: those drawn twice (the second turned half round), those once
LAYOUTS: dict[str, tuple[list[tuple[float, float]], list[tuple[float, float]]]] = {
    "2": ([(0, TOP)], []),
    "3": ([(0, TOP)], [(0, 0)]),
    "4": ([(-COL, TOP), (COL, TOP)], []),
    "5": ([(-COL, TOP), (COL, TOP)], [(0, 0)]),
    "6": ([(-COL, TOP), (COL, TOP)], [(-COL, 0), (COL, 0)]),
    "7": ([(-COL, TOP), (COL, TOP)], [(-COL, 0), (COL, 0), (0, TOP / 2)]),
    "8": ([(-COL, TOP), (COL, TOP), (0, TOP / 2)], [(-COL, 0), (COL, 0)]),
    "9": ([(-COL, TOP), (COL, TOP), (-COL, MID4), (COL, MID4)], [(0, 0)]),
    "T": ([(-COL, TOP), (COL, TOP), (-COL, MID4), (COL, MID4), (0, (TOP + MID4) / 2)], []),
}
# Kennard's court frame, drawn smaller so that it clears the four indices
CARD_RECT = (
    '<rect x="-119" y="-167" width="238" height="334" rx="12" '
    'fill="{fill}" stroke="{stroke}" stroke-width="2"/>'
)
FRAME_W, FRAME_H = 164.8, 260.8
COURT_SCALE = 138 / FRAME_W


def num(value: float) -> str:
    """A coordinate, short."""
    return f"{value:.2f}".rstrip("0").rstrip(".")


def colour(suit: str) -> str:
    return RED if suit in "dh" else BLACK


def use(ref: str, cx: float, cy: float, size: float, extra: str = "") -> str:
    """A square symbol of ``size`` centred on (cx, cy)."""
    half = size / 2
    return (
        f'<use href="#{ref}" x="{num(cx - half)}" y="{num(cy - half)}" '
        f'width="{num(size)}" height="{num(size)}"{extra}/>'
    )


def source_symbols(path: Path) -> dict[str, ET.Element]:
    return {s.get("id", ""): s for s in ET.parse(path).getroot().iter(f"{SVG}symbol")}


def shared_symbols(kennard: Path) -> list[str]:
    """Rank glyphs (stroked, colour from the card) and suit pips (filled likewise)."""
    out = []
    for rank in RANKS:
        path = source_symbols(kennard / f"{rank}S.svg")[f"VS{rank}"][0]
        d = path.get("d", "")
        out.append(
            f'<symbol id="r{rank}" viewBox="-500 -500 1000 1000"><path d="{d}" '
            'fill="none" stroke-linecap="square" '
            'stroke-miterlimit="1.5"/></symbol>'
        )
    for suit in SUITS:
        big = suit.upper()
        d = source_symbols(kennard / f"2{big}.svg")[f"S{big}2"][0].get("d", "")
        # xMinYMid as Kennard's: the courts' own pips are placed by it in wide boxes
        out.append(
            f'<symbol id="s{suit}" viewBox="-600 -600 1200 1200" preserveAspectRatio="xMinYMid">'
            f'<path d="{d}"/></symbol>'
        )
    return out


def stroked(suit: str, width: int, uses: str) -> str:
    """Rank glyphs are strokes: the colour and weight come from here, not the pips."""
    return f'<g stroke="{colour(suit)}" stroke-width="{width}">{uses}</g>'


def index_group(rank: str, suit: str) -> str:
    """The rank and suit in the two top corners; the card turns it for the bottom."""
    ranks = "".join(use(f"r{rank}", cx, RANK_Y + RANK_H / 2, RANK_H) for cx in (-INDEX_X, INDEX_X))
    pips = "".join(use(f"s{suit}", cx, PIP_Y + PIP_H / 2, PIP_H) for cx in (-INDEX_X, INDEX_X))
    return stroked(suit, 96, ranks) + pips


def face_rect() -> str:
    return CARD_RECT.format(fill="#fff", stroke="#555")


def court_art(courts: Path, kennard: Path, rank: str, suit: str) -> tuple[list[str], str]:
    """The court's layers as symbols, and the frame that draws them both ways up."""
    big = suit.upper()
    layers = []
    for sid, symbol in source_symbols(courts / f"{rank}{big}.svg").items():
        if not re.fullmatch(f"{big}{rank}[0-9]", sid):
            continue
        for element in symbol.iter():
            element.tag = element.tag.removeprefix(SVG)
            if element.tag == "path" and "fill" not in element.attrib:
                # svgo drops black, the default; the card's colour must not show through
                element.set("fill", "#000")
            ref = element.attrib.pop(XLINK, None) or element.get("href")
            if ref is not None:
                element.set("href", f"#s{suit}")
                element.set("fill", colour(suit))
        symbol.set("id", f"{rank}{suit}{sid[-1]}")
        layers.append(ET.tostring(symbol, encoding="unicode"))
    # Kennard's large pip in the frame's corner, from the full-precision face
    corner = next(
        u for u in ET.parse(kennard / f"{rank}{big}.svg").getroot().iter(f"{SVG}use")
        if u.get("height") == "55.68"
    )
    frame = f'x="{num(-FRAME_W / 2)}" y="{num(-FRAME_H / 2)}" width="{FRAME_W}" height="{FRAME_H}"'
    half = "".join(f'<use href="#{rank}{suit}{n}" {frame}/>' for n in range(1, len(layers) + 1))
    pip = (
        f'<use href="#s{suit}" x="{corner.get("x")}" y="{corner.get("y")}" '
        f'width="55.68" height="55.68"/>'
    )
    body = (
        f'<g transform="scale({COURT_SCALE:.4f})">{half}<g transform="rotate(180)">{half}</g>'
        f'<g fill="{colour(suit)}">{pip}<g transform="rotate(180)">{pip}</g></g>'
        f'<rect {frame} fill="none" stroke="#44f" stroke-width="2"/></g>'
    )
    return layers, body


def pips(rank: str, suit: str) -> str:
    if rank == "A":
        if suit == "s":
            return ace_of_spades()
        return use(f"s{suit}", 0, 0, 96)
    twice, once = LAYOUTS[rank]
    top = "".join(use(f"s{suit}", x, y, PIP) for x, y in twice)
    flat = "".join(use(f"s{suit}", x, y, PIP) for x, y in once)
    return f'{top}<g transform="rotate(180)">{top}</g>{flat}'


def ace_of_spades() -> str:
    """A great spade with a gold heart of its own, ringed in white."""
    return (
        use("ss", 0, -4, 176)
        + use("ss", 0, -4, 112, ' fill="none" stroke="#fff" stroke-width="28"')
        + use("ss", 0, 0, 40, f' fill="{GOLD}"')
    )


def face(code: str, body: str) -> str:
    rank, suit = code[0], code[1]
    index = index_group(rank, suit)
    return (
        f'<symbol id="{code}" viewBox="-120 -168 240 336">{face_rect()}'
        f'<g fill="{colour(suit)}">{index}<g transform="rotate(180)">{index}</g>{body}</g>'
        "</symbol>"
    )


def mini(code: str) -> str:
    """For history rows: the rank and suit alone, as large as they go."""
    rank, suit = code[0], code[1]
    return (
        f'<symbol id="{code}-mini" viewBox="-120 -168 240 336">{face_rect()}'
        f'<g fill="{colour(suit)}">{stroked(suit, 120, use(f"r{rank}", 0, -72, 150))}'
        f"{use(f's{suit}', 0, 84, 150)}</g></symbol>"
    )


def lattice(left: float, top: float, right: float, bottom: float, step: float) -> str:
    """Diagonal lines both ways across a rectangle, cut at its edges."""
    segments = []
    width, height = right - left, bottom - top
    k = step / 2
    while k < width + height:
        # down-right lines start on the top or left edge
        x0, y0 = (left + k, top) if k <= width else (right, top + k - width)
        x1, y1 = (left, top + k) if k <= height else (left + k - height, bottom)
        segments.append(f"M{num(x0)} {num(y0)}L{num(x1)} {num(y1)}")
        segments.append(f"M{num(left + right - x0)} {num(y0)}L{num(left + right - x1)} {num(y1)}")
        k += step
    return "".join(segments)


def back() -> str:
    """The back: a lattice and border round the four suits in a medallion, in two colours
    the page gives it. The cloth is the inherited ``fill`` and the trim ``currentColor``,
    both set on the <use> by cards.css (the house's deep red and gold unless a card-back
    setting chooses another pair), so one symbol draws every colourway."""
    corners = (("s", -15, -15), ("h", 15, -15), ("c", -15, 15), ("d", 15, 15))
    suits = "".join(use(f"s{s}", x, y, 30) for s, x, y in corners)
    border = 'x="-106" y="-154" width="212" height="308" rx="7" fill="none"'
    lines = lattice(-98, -146, 98, 146, 14)
    return (
        '<symbol id="back" viewBox="-120 -168 240 336">'
        '<rect x="-119" y="-167" width="238" height="334" rx="12" '
        'stroke="#000" stroke-opacity=".5" stroke-width="2"/>'
        f'<rect {border} stroke="currentColor" stroke-width="3"/>'
        f'<path d="{lines}" stroke="currentColor" stroke-width="1.2" opacity=".55"/>'
        '<ellipse rx="44" ry="52" stroke="currentColor" stroke-width="3"/>'
        '<ellipse rx="37" ry="45" fill="none" stroke="currentColor" stroke-width="1"/>'
        f'<g fill="currentColor">{suits}</g></symbol>'
    )


def sprite(kennard: Path, courts: Path) -> str:
    defs = shared_symbols(kennard)
    cards = []
    for suit in SUITS:
        for rank in RANKS:
            code = rank + suit
            if rank in "JQK":
                layers, body = court_art(courts, kennard, rank, suit)
                defs.extend(layers)
            else:
                body = pips(rank, suit)
            cards.append(face(code, body))
            cards.append(mini(code))
    cards.append(back())
    return (
        '<svg xmlns="http://www.w3.org/2000/svg">'
        "<!-- Playing cards: court art and glyphs by Adrian Kennard, CC0; see README.md -->"
        + "".join(defs)
        + "".join(cards)
        + "</svg>\n"
    )


if __name__ == "__main__":
    sys.stdout.write(sprite(Path(sys.argv[1]), Path(sys.argv[2])))
