"""PAR sheets: the page parses, holds the analysis' own figures, loads nothing from
outside, escapes every text; the session ranges against exact counts."""

import re
from fractions import Fraction
from html.parser import HTMLParser
from math import comb
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest
from typer.testing import CliRunner

from riverboat.analysis import Analysis, analyze
from riverboat.analysis.net_ranges import net_ranges
from riverboat.analysis.par_sheet import CONFIDENCES, ROUNDS, card_for, render
from riverboat.analysis.report import percent
from riverboat.cli import app
from riverboat.games import find_game
from riverboat.table.felt_views import PaySection
from riverboat.table.paytables import pay_sections

if TYPE_CHECKING:
    from playwright.sync_api import Browser

#: HTML elements without an end tag
_VOID = {"meta", "br", "hr", "img", "input", "link"}


class Page(HTMLParser):
    """The page read back: tags balanced, every attribute, each table's rows of cells
    (each cell its text chunks), the headings and all text."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[str] = []
        self.attributes: list[tuple[str, str, str | None]] = []
        self.tables: list[list[list[list[str]]]] = []
        self.headings: list[str] = []
        self.text: list[str] = []
        self._heading: list[str] | None = None
        self.feed(text)
        self.close()
        assert not self.open, f"unclosed: {self.open}"

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.attributes += [(tag, name, value) for name, value in attrs]
        if tag not in _VOID:
            self.open.append(tag)
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self.tables[-1][-1].append([])
        elif tag in ("h1", "h2", "h3"):
            self._heading = []

    def handle_endtag(self, tag: str) -> None:
        assert self.open[-1:] == [tag], f"</{tag}> closes {self.open[-1:]}"
        self.open.pop()
        if tag in ("h1", "h2", "h3") and self._heading is not None:
            self.headings.append("".join(self._heading))
            self._heading = None

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self._heading is not None:
            self._heading.append(data)
        if "td" in self.open or "th" in self.open:
            self.tables[-1][-1][-1].append(data)

    def figures(self) -> dict[str, str]:
        """Every two-column figures table: the figure's name to its value (the first
        text of each cell; the basis and exact fraction follow)."""
        return {
            row[0][0]: row[1][0]
            for table in self.tables
            if table and [c[0] for c in table[0]] == ["Figure", "Value"]
            for row in table[1:]
        }


@pytest.fixture(scope="module")
def tri_card() -> Analysis:
    return analyze("tri-card", wagers={"ante": 1, "pair_plus": 1})


@pytest.fixture(scope="module")
def crazy4() -> Analysis:
    return analyze("crazy4", variant="standard", wagers={"ante": 1, "super_bonus": 1})


def _sections(analysis: Analysis) -> list[PaySection]:
    return pay_sections(find_game(analysis.game), analysis.rules)


def test_tri_card_page_holds_the_analysis_figures(tri_card: Analysis) -> None:
    card = card_for(tri_card)
    assert card is not None
    text = render(tri_card, _sections(tri_card), card)
    page = Page(text)
    f = tri_card.figures
    shown = page.figures()
    # both conventions, each labelled as the analysis labels them: Wizard of Odds,
    # "Three Card Poker": 3.3730% of the Ante is the Ante's own edge; with the Pair
    # Plus the round's loss per Ante is the sum, 3.3730% + 2.3167%
    assert dict(tri_card.edge_lines()).items() <= shown.items()
    assert shown["House edge per Ante (as published)"] == percent(
        Fraction(686689, 20358520) + Fraction(512, 22100)
    )
    assert shown["Hit frequency"] == percent(f.hit_frequency, 2)
    assert shown["Standard deviation"] == f"{f.std_dev:.4f}"
    assert shown["Volatility index 90% / 95%"] == (
        f"{f.volatility_index(0.9):.4f} / {f.volatility_index(0.95):.4f}"
    )
    assert shown["Cycle"] == "407,170,400"
    assert f"exact {f.house_edge}" in page.text
    assert f"exact {f.element_of_risk}" in page.text
    decisions = {row[0][0]: row[1][0] for row in page.tables[1][1:]}
    assert decisions == {"Fold": percent(f.decisions["fold"], 2), "Raise": percent(
        f.decisions["raise"], 2)}  # fmt: skip
    # every return table, row for row
    for wager in f.per_wager:
        rows = [[c[0] for c in row] for t in page.tables for row in t[1:] if len(row) == 5]
        for r in wager.return_table:
            assert [r.event, f"{r.combinations:,}"] == next(
                [row[0], row[2]] for row in rows if row[2] == f"{r.combinations:,}"
                and row[0] == r.event
            )  # fmt: skip
    assert "Ante and Raise together under optimal strategy" in page.headings
    assert "Pair Plus alone" in page.headings
    assert tri_card.strategy is not None
    assert tri_card.strategy.summary()[0] in page.text
    # the strategy card, rule by rule, with its exact cost against optimal play
    assert "Raise with Q-6-4 or better." in page.text
    assert [str(rule) for rule in card.rules] == [
        t for t in page.text if t in {str(rule) for rule in card.rules}
    ]
    assert card.summary() in page.text
    assert "riverboat strategy" not in text
    # the rules in words, from the table service's pay tables
    assert "The dealer qualifies with Queen-high or better." in page.text
    # the chart: one bar per net result, each titled with its probability
    assert text.count("<rect class=") == len({r.pays for r in f.net_table})
    ranges = [[c[0] for c in row] for row in page.tables[-1][1:]]
    assert [row[0] for row in ranges] == [f"{n:,}" for n in ROUNDS]
    assert {row[-1] for row in ranges} == {"exact"}


def test_page_loads_nothing_from_outside(tri_card: Analysis) -> None:
    text = render(tri_card, _sections(tri_card))
    page = Page(text)
    assert "http:" not in text
    assert "https:" not in text
    assert "url(" not in text
    assert not [a for a in page.attributes if a[1] in ("src", "href", "action")]
    assert not {"script", "link", "img", "iframe"} & {a[0] for a in page.attributes}
    assert "<script" not in text
    assert "<svg" in text
    assert "@media print" in text


def test_rules_text_is_escaped(tri_card: Analysis) -> None:
    hostile = PaySection(
        title="<script>alert(1)</script>",
        rows=[["Buy & Play", "<b>10 to 1</b>"]],
        notes=['"quoted" <img src=x onerror=alert(1)>'],
    )
    text = render(tri_card, [*_sections(tri_card), hostile])
    page = Page(text)
    assert "<script>" not in text
    assert "<img" not in text
    assert "<b>10" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert "Buy &amp; Play" in text
    assert "<script>alert(1)</script>" in page.headings  # read back as the text it was
    assert '"quoted" <img src=x onerror=alert(1)>' in page.text


def test_crazy4_page_beyond_the_exact_limit_says_normal_approximation(
    crazy4: Analysis,
) -> None:
    text = render(crazy4, _sections(crazy4), max_points=200_000)
    page = Page(text)
    # no card given: the page names the command that prints it
    assert "riverboat strategy crazy4" in text
    shown = page.figures()
    f = crazy4.figures
    # Wizard of Odds, "Crazy 4 Poker": 3.42% per Ante (Ante and Super Bonus, optimal)
    assert shown["House edge per Ante (as published)"] == "3.4189%"
    assert dict(crazy4.edge_lines()).items() <= shown.items()
    assert crazy4.blind is not None
    assert shown["Blind hand (C8): per total initial wager"] == percent(crazy4.blind.house_edge)
    assert shown["Cycle"] == f"{f.cycle:,}" == "3,986,646,103,440"
    methods = [row[-1][0] for row in page.tables[-1][1:]]
    # the support grows with the rounds: 100 rounds fit, 10,000 do not
    assert methods[0] == "exact"
    assert methods[-1] == "normal approximation"
    assert any("Normal approximation: " in t for t in page.text)


def test_baccarat_is_shown_wager_by_wager() -> None:
    result = analyze("baccarat", wagers={"player": 1, "banker": 1, "tie": 1})
    page = Page(render(result, _sections(result)))
    assert [h for h in page.headings if h.endswith(" alone")] == [
        "Player alone",
        "Banker alone",
        "Tie alone",
    ]
    edges = [row[1][0] for t in page.tables for row in t[1:] if row[0][0] == "House edge"]
    # Wizard of Odds, "Baccarat", 8 decks: Player 1.2351%, Banker 1.0579%, Tie 14.3596%
    assert edges == ["1.2351%", "1.0579%", "14.3596%"]
    deviations = [
        row[1][0] for t in page.tables for row in t[1:] if row[0][0] == "Standard deviation"
    ]
    alone = [analyze("baccarat", wagers={w: 1}).figures.std_dev for w in ("player", "banker")]
    assert deviations[:2] == [f"{sd:.4f}" for sd in alone]
    assert not [name for name in page.figures() if "per Ante" in name]  # there is no Ante


# ------------------------------------------------------------- session ranges
def test_ranges_of_an_even_money_wager_are_binomial_quantiles() -> None:
    coin = {Fraction(-1): 1, Fraction(1): 1}
    for rounds in (100, 1001):
        cdf = np.cumsum([comb(rounds, k) for k in range(rounds + 1)]) / 2**rounds
        for r in net_ranges(coin, rounds, CONFIDENCES):
            tail = (1 - r.confidence) / 2
            low_k = int(np.searchsorted(cdf, tail))
            high_k = int(np.searchsorted(cdf, 1 - tail))
            assert (r.low, r.high) == (2 * low_k - rounds, 2 * high_k - rounds)
            assert r.method == "exact"


def test_exact_ranges_equal_a_direct_convolution(tri_card: Analysis) -> None:
    distribution: dict[Fraction, int] = {}
    for row in tri_card.figures.net_table:
        distribution[row.pays] = distribution.get(row.pays, 0) + row.combinations
    values = sorted(distribution)
    lowest, step = values[0], Fraction(1, 2)  # Tri-Card nets are in half initial wagers
    one = np.zeros(int((values[-1] - lowest) / step) + 1)
    for v in values:
        one[int((v - lowest) / step)] = distribution[v] / tri_card.figures.cycle
    total = one
    for _ in range(29):
        total = np.convolve(total, one)
    cdf = np.cumsum(total)
    for r in net_ranges(distribution, 30, CONFIDENCES):
        tail = (1 - r.confidence) / 2
        ends = [lowest * 30 + int(np.searchsorted(cdf, q)) * step for q in (tail, 1 - tail)]
        assert (r.low, r.high) == tuple(float(e) for e in ends)


def test_normal_approximation_when_the_support_is_too_large() -> None:
    coin = {Fraction(-1): 1, Fraction(1): 1}
    (r,) = net_ranges(coin, 10_000, [0.95], max_points=1000)
    assert r.method == "normal approximation"
    assert (round(r.low, 3), round(r.high, 3)) == (-195.996, 195.996)  # 1.959964 * 100
    with pytest.raises(ValueError, match="confidence"):
        net_ranges(coin, 10, [1.5])


# --------------------------------------------------------------------- the command
def test_cli_writes_the_page_and_refuses_output_without_html(tmp_path: Path) -> None:
    runner = CliRunner(env={"COLUMNS": "200", "NO_COLOR": "1"})
    target = tmp_path / "tri-card.html"
    command = ["analyze", "tri-card", "--wagers", "ante", "--format", "html"]
    done = runner.invoke(app, [*command, "--output", str(target)])
    assert done.exit_code == 0, done.output
    assert "3.3730%" in Page(target.read_text(encoding="utf-8")).figures().values()
    refused = runner.invoke(app, ["analyze", "tri-card", "--output", str(target)])
    assert refused.exit_code == 2
    assert "add --format html" in " ".join(refused.output.split())
    missing = tmp_path / "no" / "page.html"
    refused = runner.invoke(
        app, ["analyze", "tri-card", "--format", "html", "--output", str(missing)]
    )
    assert refused.exit_code == 2
    assert "does not exist" in " ".join(refused.output.split())
    assert not missing.parent.exists()
    shown = runner.invoke(app, ["analyze", "baccarat", "--format", "html"])
    assert shown.exit_code == 0
    assert re.findall(r"<h2>(\w+) alone</h2>", shown.output) == ["Player", "Banker", "Tie"]


# ------------------------------------------------------------------------ browser
def test_page_in_a_browser_at_desk_and_phone_widths(
    tri_card: Analysis, browser: "Browser", tmp_path: Path
) -> None:
    from browser_support import new_tab, shoot

    target = tmp_path / "par-sheet.html"
    target.write_text(render(tri_card, _sections(tri_card), card_for(tri_card)), encoding="utf-8")
    requests: list[str] = []
    for width in (1440, 390):
        requests.clear()
        tab = new_tab(browser, viewport={"width": width, "height": 900})
        tab.on("request", lambda request: requests.append(request.url))
        tab.goto(target.as_uri())
        assert tab.locator("h1").inner_text() == "Tri-Card Poker: PAR sheet"
        assert tab.locator("svg rect").count() == len({r.pays for r in tri_card.figures.net_table})
        # nothing wider than the phone but the tables and chart that scroll inside
        assert tab.evaluate("document.documentElement.scrollWidth") <= width
        shoot(tab, f"par-sheet-{width}", full_page=True)
        assert requests == [target.as_uri()]  # the page alone: nothing else fetched
        tab.close()
    tab = new_tab(browser)
    tab.goto(target.as_uri())
    assert tab.pdf(format="A4")[:5] == b"%PDF-"  # the print style sheet lays it out
    tab.close()
