"""A PAR sheet: one self-contained HTML page an operator files for a game, its rules
and the wagers placed, rendered from an :class:`~riverboat.analysis.Analysis`.

It holds the rules and pay tables in words, the key figures (house edge per Ante and
per total initial wager, element of risk, hit frequency, standard deviation,
volatility index, the cycle), the decision frequencies, the strategy, the return
table of each wager, a chart of the net result of a round and the range of a
player's net result after 100, 1,000 and 10,000 rounds. No external resource: the
style sheet (print included) and the chart are inline. Every text is escaped
(:mod:`riverboat.analysis._html`). A game without decisions (Baccarat) is shown
wager by wager, since each bet stands alone.

>>> from riverboat.analysis import analyze
>>> page = render(analyze("baccarat", wagers={"banker": 1}), [])
>>> page.startswith("<!DOCTYPE html>"), "1.0579%" in page
(True, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from importlib.metadata import PackageNotFoundError, version
from math import sqrt
from statistics import NormalDist
from typing import Protocol

from riverboat.analysis import Analysis
from riverboat.analysis._html import Markup, join, table, tag
from riverboat.analysis.net_chart import bar_chart, net_text
from riverboat.analysis.net_ranges import MAX_POINTS, NetRange, net_ranges
from riverboat.analysis.report import ReturnRow, WagerFigures, percent
from riverboat.games import find_game

__all__ = ["CONFIDENCES", "ROUNDS", "PaySectionText", "default_wagers", "render"]

#: the session lengths and confidences of the ranges of a player's result
ROUNDS = (100, 1_000, 10_000)
CONFIDENCES = (0.90, 0.95)


class PaySectionText(Protocol):
    """One wager's pay table and rules in words (the table service's ``PaySection``)."""

    @property
    def title(self) -> str: ...
    @property
    def rows(self) -> Sequence[Sequence[str]]: ...
    @property
    def notes(self) -> Sequence[str]: ...


def default_wagers(game: str) -> dict[str, Fraction] | None:
    """The wagers a PAR sheet shows by default: for a game without decisions every
    wager (each is shown on its own), else None (the analysis' own default).

    >>> default_wagers("baccarat")
    {'player': Fraction(1, 1), 'banker': Fraction(1, 1), 'tie': Fraction(1, 1)}
    >>> default_wagers("tri-card") is None
    True
    """
    kind = find_game(game)
    if kind.spec(kind.rules()).options:
        return None
    return {spot.name: Fraction(1) for spot in kind.new_round().spots}


def render(
    analysis: Analysis, sections: Sequence[PaySectionText], max_points: int = MAX_POINTS
) -> str:
    """The PAR sheet of ``analysis`` with the game's rules and pay tables ``sections``
    (``riverboat.table.paytables.pay_sections``); ``max_points`` bounds the exact
    convolutions of the session ranges (beyond it, a normal approximation)."""
    title = find_game(analysis.game).title
    labels = _wager_labels(analysis)
    body = [_header(analysis, title, labels)]
    if analysis.strategy is None:  # no decisions: every wager stands alone
        body += [
            _section("Rules and pay tables", _rules(sections)),
            *(_wager_alone(w, labels, analysis, max_points) for w in analysis.figures.per_wager),
        ]
    else:
        body += [
            _section("Key figures", _key_figures(analysis, labels)),
            _section("Decisions", _decisions(analysis)),
            _section("Strategy", _strategy(analysis)),
            _section("Rules and pay tables", _rules(sections)),
            _section("Return tables", *(_returns(w, labels) for w in analysis.figures.per_wager)),
            _section(
                "Net result of a round",
                _chart(_distribution(analysis.figures.net_table), f"{title}: net result"),
            ),
            _section(
                "A player's result over many rounds",
                _ranges(_distribution(analysis.figures.net_table), max_points),
            ),
        ]
    body.append(_section("Definitions", _definitions()))
    page = tag(
        "html",
        tag(
            "head",
            Markup('<meta charset="utf-8">'),
            Markup('<meta name="viewport" content="width=device-width, initial-scale=1">'),
            tag("title", f"{title}: PAR sheet"),
            tag("style", Markup(_STYLE)),
        ),
        tag("body", tag("main", *body)),
        lang="en",
    )
    return f"<!DOCTYPE html>\n{page}\n"


# ------------------------------------------------------------------ parts
def _section(heading: str, *content: object) -> Markup:
    return tag("section", tag("h2", heading), *content)


def _wager_labels(analysis: Analysis) -> dict[str, str]:
    spots = find_game(analysis.game).new_round(analysis.rules).spots
    return {spot.name: spot.label for spot in spots}


def _package_version() -> str:
    try:
        return version("riverboat")
    except PackageNotFoundError:  # pragma: no cover - run from a source tree
        return "unknown"


def _header(analysis: Analysis, title: str, labels: Mapping[str, str]) -> Markup:
    f = analysis.figures
    placed = ", ".join(f"{labels.get(k, k)} {v}" for k, v in f.wagers.items())
    unit = "Ante" if "ante" in f.wagers else "base wager"
    variant = getattr(analysis.rules, "variant", "")
    return tag(
        "header",
        tag("h1", f"{title}: PAR sheet"),
        tag(
            "p",
            tag("b", "Rules: "),
            variant,
            ". ",
            tag("b", "Wagers: "),
            placed,
            f" (in units of the {unit}).",
        ),
        tag(
            "p",
            "Every figure is exact: all ",
            tag("b", f"{f.cycle:,}"),
            " deals of the cycle counted through the game's own settlement"
            + ("" if analysis.strategy is None else ", the player following the optimal strategy")
            + f". riverboat {_package_version()}.",
        ),
        *(tag("p", note, class_="note") for note in analysis.notes),
    )


def _exact(value: Fraction) -> Markup:
    return tag("span", str(value), class_="exact")


def _key_figures(analysis: Analysis, labels: Mapping[str, str]) -> Markup:
    f = analysis.figures
    initial = " + ".join(labels.get(k, k) for k in f.wagers)
    rows: list[tuple[object, object, object]] = [
        (
            "House edge per total initial wager",
            percent(f.house_edge),
            join([f"per unit of {initial}; exact ", _exact(f.house_edge)]),
        ),
        (
            "Element of risk",
            percent(f.element_of_risk),
            join(
                [
                    "per unit of everything wagered, decisions included; exact ",
                    _exact(f.element_of_risk),
                ]
            ),
        ),
        ("Average total bet", f"{float(f.average_total_bet):.4f}", "initial wagers"),
        (
            "Win / push / loss",
            f"{percent(f.win, 2)} / {percent(f.push, 2)} / {percent(f.loss, 2)}",
            "the round's net result",
        ),
        ("Hit frequency", percent(f.hit_frequency, 2), "some wager wins"),
        ("Standard deviation", f"{f.std_dev:.4f}", "of the net result, in initial wagers"),
        (
            "Volatility index 90% / 95%",
            f"{f.volatility_index(0.9):.4f} / {f.volatility_index(0.95):.4f}",
            "1.645 and 1.960 standard deviations",
        ),
    ]
    if f.dealer_qualifies is not None:
        rows.append(("Dealer qualifies", percent(f.dealer_qualifies, 2), ""))
    rows.append(("Cycle", f"{f.cycle:,}", "deals counted, each equally likely"))
    if analysis.blind is not None:
        rows.append(
            (
                "Blind hand house edge (C8)",
                percent(analysis.blind.house_edge),
                "a second position that always plays 1x",
            )
        )
    return table(["Figure", "Value", "Basis"], rows, numeric=[1])


def _decisions(analysis: Analysis) -> Markup:
    f = analysis.figures
    assert analysis.strategy is not None
    names = {o.name: o.label for o in analysis.strategy.game.options}
    rows = [
        (names.get(name, name), percent(share, 2), f"{int(share * f.cycle):,}")
        for name, share in f.decisions.items()
    ]
    return table(["Decision", "Share of rounds", "Deals"], rows, numeric=[1, 2])


def _strategy(analysis: Analysis) -> Markup:
    assert analysis.strategy is not None
    command = f"riverboat strategy {analysis.game}"
    return join(
        [
            tag("p", "Strategy card: see ", tag("code", command), "."),
            tag("h3", "Optimal strategy by hand rank"),
            tag("ul", *(tag("li", line) for line in analysis.strategy.summary())),
        ]
    )


def _rules(sections: Sequence[PaySectionText]) -> Markup:
    return join(
        tag(
            "div",
            tag("h3", section.title),
            table(["Hand or event", "Pays"], section.rows) if section.rows else "",
            tag("ul", *(tag("li", note) for note in section.notes)) if section.notes else "",
            class_="rules",
        )
        for section in sections
    )


def _wager_title(wager: WagerFigures, labels: Mapping[str, str]) -> str:
    return labels.get(wager.name, wager.name)


def _returns(wager: WagerFigures, labels: Mapping[str, str]) -> Markup:
    label = _wager_title(wager, labels)
    rows = [
        (
            r.event,
            net_text(r.pays),
            f"{r.combinations:,}",
            f"{float(r.probability):.6e}",
            f"{float(r.contribution):+.6f}",
        )
        for r in wager.return_table
    ]
    return tag(
        "div",
        tag("h3", f"{label}: house edge {percent(wager.house_edge)}"),
        tag(
            "p",
            f"Per unit of the {label}: what each event pays, its combinations in the cycle, "
            "its probability and its contribution to the return; the contributions add up "
            f"to minus the house edge. Hit frequency {percent(wager.hit_frequency, 2)}.",
        ),
        table(
            ["Event", "Pays", "Combinations", "Probability", "Contribution"],
            rows,
            numeric=[1, 2, 3, 4],
        ),
        class_="returns",
    )


def _distribution(rows: Iterable[ReturnRow]) -> dict[Fraction, int]:
    """Deals per net result (rows with the same result added together)."""
    counts: dict[Fraction, int] = {}
    for row in rows:
        counts[row.pays] = counts.get(row.pays, 0) + row.combinations
    return counts


def _chart(distribution: Mapping[Fraction, int], title: str) -> Markup:
    return tag(
        "figure",
        tag("div", bar_chart(distribution, title), class_="chart"),
        tag(
            "figcaption",
            "The probability of each net result of a round (log scale), in initial wagers. "
            "Red: a loss; grey: a push; green: a win.",
        ),
    )


def _range_text(r: NetRange) -> str:
    return f"{r.low:+,.1f} to {r.high:+,.1f}"


def _ranges(distribution: Mapping[Fraction, int], max_points: int) -> Markup:
    rows = []
    methods = set()
    for rounds in ROUNDS:
        ranges = net_ranges(distribution, rounds, CONFIDENCES, max_points)
        methods.add(ranges[0].method)
        rows.append(
            (
                f"{rounds:,}",
                f"{ranges[0].mean:+,.1f}",
                *(_range_text(r) for r in ranges),
                ranges[0].method,
            )
        )
    return join(
        [
            table(
                ["Rounds", "Expected", *(f"{c:.0%} range" for c in CONFIDENCES), "Method"],
                rows,
                numeric=[0, 1, 2, 3],
            ),
            tag(
                "p",
                "The player's net result after that many independent rounds, in initial "
                "wagers: the central range holding at least that share of results (half "
                "the rest cut from each end). ",
                _METHODS["exact"] if "exact" in methods else "",
                " " if len(methods) == 2 else "",
                _METHODS["normal approximation"] if "normal approximation" in methods else "",
                class_="note",
            ),
        ]
    )


_METHODS = {
    "exact": "Exact: the distribution of one round convolved with itself once per round "
    "(by Fourier transform), its percentiles read off.",
    "normal approximation": "Normal approximation: the expected result plus or minus z "
    "standard deviations times the square root of the rounds (z = 1.645 at 90%, 1.960 "
    "at 95%), where the exact sum has too many possible values to count.",
}


def _wager_alone(
    wager: WagerFigures, labels: Mapping[str, str], analysis: Analysis, max_points: int
) -> Markup:
    """One wager of a game without decisions: its figures, returns, chart and ranges."""
    label = _wager_title(wager, labels)
    distribution = _distribution(wager.return_table)
    f = analysis.figures
    sd = _std_dev(distribution)
    rows = [
        ("House edge", percent(wager.house_edge), join(["per unit wagered; exact ",
                                                         _exact(wager.house_edge)])),
        ("Hit frequency", percent(wager.hit_frequency, 2), "the wager wins"),
        ("Standard deviation", f"{sd:.4f}", "of the net result, per unit wagered"),
        (
            "Volatility index 90% / 95%",
            " / ".join(f"{_z(c) * sd:.4f}" for c in CONFIDENCES),
            "1.645 and 1.960 standard deviations",
        ),
        ("Cycle", f"{f.cycle:,}", "deals counted, each equally likely"),
    ]  # fmt: skip
    return _section(
        label,
        tag(
            "p",
            f"The {label} wager on its own: with nothing to decide, the house edge per "
            "wager and the element of risk are the same figure.",
        ),
        table(["Figure", "Value", "Basis"], rows, numeric=[1]),
        _returns(wager, labels),
        _chart(distribution, f"{label}: net result"),
        _ranges(distribution, max_points),
    )


def _std_dev(distribution: Mapping[Fraction, int]) -> float:
    total = sum(distribution.values())
    mean = sum((v * c for v, c in distribution.items()), Fraction(0)) / total
    second = sum((v * v * c for v, c in distribution.items()), Fraction(0)) / total
    return sqrt(second - mean * mean)


def _z(confidence: float) -> float:
    """The two-sided normal quantile: 1.645 at 90%, 1.960 at 95%."""
    return NormalDist().inv_cdf(0.5 + confidence / 2)


def _definitions() -> Markup:
    terms = [
        ("House edge", "minus the expected net result per unit of the initial wagers (per "
         "wager: per unit of that wager)."),
        ("Element of risk", "minus the expected net result per unit of everything wagered, "
         "the wagers a decision adds included."),
        ("Hit frequency", "the share of rounds on which some wager wins."),
        ("Standard deviation", "of the net result of a round, in initial wagers; the "
         "volatility index is it times the two-sided normal quantile."),
        ("Cycle", "the number of equally likely deals counted; every probability here is "
         "a count of them over the cycle."),
    ]  # fmt: skip
    return tag("dl", *(join([tag("dt", term), tag("dd", text)]) for term, text in terms))


_STYLE = """
:root { color-scheme: light; --ink: #1b1f23; --muted: #57606a; --rule: #d0d7de;
  --loss: #c0392b; --push: #8c959f; --win: #1f7a3f; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--ink); background: #fff;
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main { max-width: 1040px; margin: 0 auto; padding: 24px 20px 48px; }
h1 { font-size: 1.7rem; margin: 0 0 .4rem; }
h2 { font-size: 1.25rem; margin: 2rem 0 .6rem; padding-bottom: .2rem;
  border-bottom: 2px solid var(--ink); }
h3 { font-size: 1.05rem; margin: 1.2rem 0 .4rem; }
p, ul, dl { margin: .4rem 0 .8rem; }
.note, figcaption { color: var(--muted); font-size: .9rem; }
table { border-collapse: collapse; width: 100%; margin: .4rem 0 1rem;
  font-variant-numeric: tabular-nums; }
th, td { border-bottom: 1px solid var(--rule); padding: .3rem .5rem; text-align: left;
  vertical-align: top; }
th { background: #f3f5f7; font-weight: 600; }
.num { text-align: right; white-space: nowrap; }
.exact { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: .85em;
  overflow-wrap: anywhere; }
code { font-family: ui-monospace, Menlo, Consolas, monospace; background: #f3f5f7;
  padding: 0 .25em; border-radius: 3px; }
.returns, .rules, table { break-inside: avoid; }
figure { margin: .4rem 0 1rem; }
.chart { overflow-x: auto; }
.chart svg { display: block; width: 100%; min-width: 640px; height: auto; }
.grid line { stroke: var(--rule); stroke-width: 1; }
.tick, .axis { font-size: 12px; fill: var(--muted); }
.tick.y { text-anchor: end; }
.tick.x, .axis { text-anchor: middle; }
rect.loss { fill: var(--loss); } rect.push { fill: var(--push); } rect.win { fill: var(--win); }
dt { font-weight: 600; } dd { margin: 0 0 .5rem 1.2rem; }
@media (max-width: 600px) {
  main { padding: 16px 10px 32px; }
  body { font-size: 14px; }
  th, td { padding: .25rem .3rem; }
  table { display: block; overflow-x: auto; }
}
@media print {
  @page { size: A4; margin: 14mm; }
  body { font-size: 10pt; }
  main { max-width: none; padding: 0; }
  h2 { break-after: avoid; }
  section { break-inside: auto; }
  .chart { overflow: visible; }
  .chart svg { min-width: 0; }
  th { background: none; }
  * { print-color-adjust: exact; -webkit-print-color-adjust: exact; }
}
"""
