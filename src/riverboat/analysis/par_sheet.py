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
from functools import cache
from importlib.metadata import PackageNotFoundError, version
from importlib.resources import files
from typing import Protocol

from riverboat.analysis import Analysis
from riverboat.analysis._html import Markup, join, table, tag
from riverboat.analysis._par_ranges import (
    CONFIDENCES,
    ROUNDS,
    chart,
    distribution_of,
    ranges,
    std_dev,
    z,
)
from riverboat.analysis.kept_cards import kept_card
from riverboat.analysis.net_chart import net_text
from riverboat.analysis.net_ranges import MAX_POINTS
from riverboat.analysis.report import WagerFigures, percent
from riverboat.analysis.strategy_cards import StrategyCard
from riverboat.games import find_game

__all__ = ["CONFIDENCES", "ROUNDS", "PaySectionText", "card_for", "default_wagers", "render"]

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
    analysis: Analysis,
    sections: Sequence[PaySectionText],
    card: StrategyCard | None = None,
    max_points: int = MAX_POINTS,
) -> str:
    """The PAR sheet of ``analysis`` with the game's rules and pay tables ``sections``
    (``riverboat.table.paytables.pay_sections``) and its strategy card (``card_for``;
    None: the page names the command that prints it); ``max_points`` bounds the exact
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
            _section("Key figures", _key_figures(analysis)),
            _section("Decisions", _decisions(analysis)),
            _section("Strategy", _strategy(analysis, card)),
            _section("Rules and pay tables", _rules(sections)),
            _section("Return tables", *(_returns(w, analysis) for w in analysis.figures.per_wager)),
            _section(
                "Net result of a round",
                chart(distribution_of(analysis.figures.net_table), f"{title}: net result"),
            ),
            _section(
                "A player's result over many rounds",
                ranges(distribution_of(analysis.figures.net_table), max_points),
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
            tag("style", Markup(_style())),
        ),
        tag("body", tag("main", *body)),
        lang="en",
    )
    return f"<!DOCTYPE html>\n{page}\n"


# ------------------------------------------------------------------ parts
@cache
def _style() -> str:
    """The sheet's CSS (par_sheet.css beside this module), for a page of one file."""
    return files("riverboat.analysis").joinpath("par_sheet.css").read_text()


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
            "Every figure is counted exactly over all ",
            tag("b", f"{f.cycle:,}"),
            " deals of the cycle, through the game's own settlement"
            + ("" if analysis.strategy is None else ", the player following the optimal strategy")
            + "; the ranges after many rounds say how they were found. "
            + f"riverboat {_package_version()}.",
        ),
        *(tag("p", note, class_="note") for note in analysis.notes),
    )


def _figure(name: str, basis: str) -> Markup:
    return join([name, tag("span", basis, class_="basis")])


def _value(text: str, exact: Fraction | None = None) -> Markup:
    return join([text, tag("span", f"exact {exact}", class_="exact") if exact is not None else ""])


def _figures_table(rows: Iterable[tuple[Markup, Markup]]) -> Markup:
    return tag("div", table(["Figure", "Value"], rows, numeric=[1]), class_="figures")


#: what each edge line of ``Analysis.edge_lines`` is a share of
_EDGE_BASIS = (
    "the whole round's loss per unit of the Ante, as published references quote it",
    "the same loss per unit of every wager placed before the deal",
    "the same loss per unit of everything wagered, decisions included",
)


def _key_figures(analysis: Analysis) -> Markup:
    f = analysis.figures
    exact = [f.house_edge, f.element_of_risk]
    basis = list(_EDGE_BASIS[1:])
    if f.house_edge_per_ante is not None:
        exact.insert(0, f.house_edge_per_ante)
        basis.insert(0, _EDGE_BASIS[0])
    rows = [
        (_figure(label, why), _value(text, value))
        for (label, text), why, value in zip(analysis.edge_lines(), basis, exact, strict=True)
    ]
    rows += [
        (
            _figure("Average total bet", "in initial wagers"),
            _value(f"{float(f.average_total_bet):.4f}"),
        ),
        (
            _figure("Win / push / loss", "the round's net result"),
            _value(f"{percent(f.win, 2)} / {percent(f.push, 2)} / {percent(f.loss, 2)}"),
        ),
        (_figure("Hit frequency", "some wager wins"), _value(percent(f.hit_frequency, 2))),
        (
            _figure("Standard deviation", "of the round's net result, in initial wagers"),
            _value(f"{f.std_dev:.4f}"),
        ),
        (
            _volatility_figure(),
            _value(" / ".join(f"{f.volatility_index(c):.4f}" for c in CONFIDENCES)),
        ),
    ]
    if f.dealer_qualifies is not None:
        rows.append(
            (_figure("Dealer qualifies", "share of rounds"), _value(percent(f.dealer_qualifies, 2)))
        )
    rows.append((_figure("Cycle", "deals counted, each equally likely"), _value(f"{f.cycle:,}")))
    blind = analysis.blind
    if blind is not None:
        why = "a second position that always plays 1x"
        if blind.house_edge_per_ante is not None:
            rows.append(
                (
                    _figure("Blind hand (C8): house edge per Ante", why),
                    _value(percent(blind.house_edge_per_ante), blind.house_edge_per_ante),
                )
            )
        rows.append(
            (
                _figure("Blind hand (C8): per total initial wager", why),
                _value(percent(blind.house_edge), blind.house_edge),
            )
        )
    return _figures_table(rows)


def _decisions(analysis: Analysis) -> Markup:
    f = analysis.figures
    assert analysis.strategy is not None
    names = analysis.strategy.labels()
    rows = [
        (names.get(name, name), percent(share, 2), f"{int(share * f.cycle):,}")
        for name, share in f.decisions.items()
    ]
    return tag(
        "div",
        table(["Decision", "Share of rounds", "Deals"], rows, numeric=[1, 2]),
        class_="figures",
    )


def card_for(analysis: Analysis) -> StrategyCard | None:
    """The strategy card for the analysis' game, rules and wagers (kept on disk once
    found); None where there is none to follow (no decision, or no Ante: Baccarat,
    Pair Plus alone)."""
    if analysis.strategy is None or analysis.figures.house_edge_per_ante is None:
        return None
    return kept_card(analysis.game, analysis.rules, analysis.wagers)


def _card(card: StrategyCard | None, game: str) -> Markup:
    if card is None:
        return tag("p", "Strategy card: see ", tag("code", f"riverboat strategy {game}"), ".")
    return join(
        [
            tag("h3", "Strategy card"),
            tag("p", "The first rule that matches your hand wins."),
            tag("ol", *(tag("li", str(rule)) for rule in card.rules), class_="card"),
            tag("p", card.summary()),
        ]
    )


def _strategy(analysis: Analysis, card: StrategyCard | None) -> Markup:
    assert analysis.strategy is not None
    return join(
        [
            _card(card, analysis.game),
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


def _returns(wager: WagerFigures, analysis: Analysis, heading: bool = True) -> Markup:
    scope, _, said = analysis.wager_line(wager).partition(": ")
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
        tag("h3", scope) if heading else "",
        tag("p", said[:1].upper() + said[1:], "."),
        tag(
            "p",
            "What each event pays per unit, its combinations in the cycle, its probability "
            "and its contribution; the contributions add up to minus the house edge. Hit "
            f"frequency {percent(wager.hit_frequency, 2)}.",
            class_="note",
        ),
        table(
            ["Event", "Pays", "Combinations", "Probability", "Contribution"],
            rows,
            numeric=[1, 2, 3, 4],
        ),
        class_="returns",
    )


def _wager_alone(
    wager: WagerFigures, labels: Mapping[str, str], analysis: Analysis, max_points: int
) -> Markup:
    """One wager of a game without decisions: its figures, returns, chart and ranges."""
    label = labels.get(wager.name, wager.name)
    distribution = distribution_of(wager.return_table)
    sd = std_dev(distribution)
    rows = [
        (
            _figure("House edge", "per unit wagered; with nothing to decide, also the "
                    "element of risk"),
            _value(percent(wager.house_edge), wager.house_edge),
        ),
        (_figure("Hit frequency", "the wager wins"), _value(percent(wager.hit_frequency, 2))),
        (
            _figure("Standard deviation", "of the net result, per unit wagered"),
            _value(f"{sd:.4f}"),
        ),
        (
            _volatility_figure(),
            _value(" / ".join(f"{z(c) * sd:.4f}" for c in CONFIDENCES)),
        ),
        (
            _figure("Cycle", "deals counted, each equally likely"),
            _value(f"{analysis.figures.cycle:,}"),
        ),
    ]  # fmt: skip
    return _section(
        analysis.wager_scope(wager.name),
        _figures_table(rows),
        _returns(wager, analysis, heading=False),
        chart(distribution, f"{label}: net result"),
        ranges(distribution, max_points),
    )


def _volatility_figure() -> Markup:
    """The volatility index's heading: its confidences and their z, from
    :data:`CONFIDENCES`."""
    levels = " / ".join(f"{c:.0%}" for c in CONFIDENCES)
    zs = " and ".join(f"{z(c):.3f}" for c in CONFIDENCES)
    return _figure(f"Volatility index {levels}", f"{zs} standard deviations")


def _definitions() -> Markup:
    terms = [
        ("House edge per Ante", "minus the expected net result of the whole round per "
         "unit of the Ante: the convention of published references and PAR sheets for a "
         "game with an Ante."),
        ("House edge per total initial wager", "the same loss per unit of every wager "
         "placed before the deal (a wager's own: per unit of that wager)."),
        ("Element of risk", "minus the expected net result per unit of everything wagered, "
         "the wagers a decision adds included."),
        ("Hit frequency", "the share of rounds on which some wager wins."),
        ("Standard deviation", "of the net result of a round, in initial wagers; the "
         "volatility index is it times the two-sided normal quantile."),
        ("Cycle", "the number of equally likely deals counted; every probability here is "
         "a count of them over the cycle."),
    ]  # fmt: skip
    return tag("dl", *(join([tag("dt", term), tag("dd", text)]) for term, text in terms))
