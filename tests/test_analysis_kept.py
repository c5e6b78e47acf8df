"""Reports kept on disk (riverboat.analysis.kept): a later run writes the same bytes
without counting, never reads a report of other rules, wagers or code, and counts
again over a damaged one. The module keeps its tables in a folder of its own, with a
copy of the run's counting tables; only the reports are forgotten, so each test starts
from an uncached report."""

import contextlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import riverboat.analysis
from damage import SPOILS, spoil
from riverboat.analysis import analyze, disk_cache, kept, kept_cards
from riverboat.analysis.par_sheet import card_for, default_wagers, render
from riverboat.cli import app
from riverboat.cli._output import _return_tables_csv
from riverboat.games import find_game
from riverboat.settings import reload
from riverboat.table.paytables import pay_sections

#: every game with its default wagers and with every wager placed
CASES = [
    ("tri-card", None),
    ("tri-card", "ante,pair_plus"),
    ("tri-card", "pair_plus"),
    ("baccarat", None),
    ("baccarat", "player,banker,tie"),
    ("crazy4", None),
    ("crazy4", "ante,super_bonus,queens_up"),
    ("rabbit-hunter", None),
    ("rabbit-hunter", "ante,bonus,bad_beat"),
]
FORMATS = ["text", "json", "csv", "markdown", "html"]
#: the kinds of file that are reports, not counting tables
_REPORTS = ("-report-", "-card-", "net-ranges-")


def forget_reports() -> None:
    for entry in disk_cache.entries():
        if any(kind in entry.path.name for kind in _REPORTS):
            entry.path.unlink(missing_ok=True)


@pytest.fixture(autouse=True, scope="module")
def own_folder(analysis_cache: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """A folder of this module's own, with a copy of the run's counting tables: these
    tests remove reports and count the files, which the test workers running beside
    them (sharing the run's folder) must not see or change."""
    folder = tmp_path_factory.mktemp("kept-analysis")
    for table in Path(analysis_cache).glob("*.npz"):
        if not any(kind in table.name for kind in _REPORTS):
            with contextlib.suppress(FileNotFoundError):  # replaced meanwhile: counted here
                shutil.copyfile(table, folder / table.name)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(disk_cache.ENVIRONMENT, str(folder))
        reload()
        yield
    reload()


@pytest.fixture(autouse=True)
def no_reports() -> Iterator[None]:
    forget_reports()
    yield
    forget_reports()


def refuse(*args: object, **kwargs: object) -> None:
    raise AssertionError("counted again instead of reading the kept report")


@pytest.fixture
def counting_refused(monkeypatch: pytest.MonkeyPatch) -> Callable[[], None]:
    """Call it to make any counting behind a report fail (the kept one must be read)."""

    def now() -> None:
        monkeypatch.setattr(riverboat.analysis, "_counted", refuse)
        monkeypatch.setattr(riverboat.analysis, "_distribution", refuse)
        monkeypatch.setattr(kept_cards, "strategy_card", refuse)
        monkeypatch.setattr(kept, "net_ranges", refuse)

    return now


def invoke(*args: str) -> str:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def report_key(game: str, wagers: dict[str, int] | None = None) -> disk_cache.CacheKey:
    rules = find_game(game).rules()
    return kept.key(game, "report", rules, riverboat.analysis.wager_units(game, wagers))


def counted_outputs(game: str, wagers: str | None) -> dict[str, str]:
    """What `riverboat analyze GAME [--wagers W] --format F` prints for each format,
    from analyses counted here (the reports forgotten first), as the command writes it."""
    forget_reports()
    units = None if wagers is None else dict.fromkeys(wagers.split(","), 1)
    result = analyze(game, wagers=units)
    page = result if units is not None else analyze(game, wagers=default_wagers(game))
    assert result.strategy is None or result.strategy.kept_summary is None  # counted
    return {
        "text": result.to_text(),
        "markdown": result.to_text(markdown=True),
        "json": json.dumps(result.to_json(), indent=2) + "\n",
        "csv": _return_tables_csv(result),
        "html": render(page, pay_sections(find_game(game), page.rules), card_for(page)),
    }


@pytest.mark.parametrize(("game", "wagers"), CASES)
def test_a_kept_report_writes_the_same_bytes_without_counting(
    game: str, wagers: str | None, counting_refused: Callable[[], None]
) -> None:
    counted = counted_outputs(game, wagers)
    assert any("-report-" in e.path.name for e in disk_cache.entries())
    counting_refused()
    for output in FORMATS:
        command = ["analyze", game, "--format", output, *(["--wagers", wagers] if wagers else [])]
        assert invoke(*command) == counted[output], output


@pytest.mark.parametrize("game", ["tri-card", "crazy4", "rabbit-hunter"])
def test_a_kept_strategy_card_prints_the_same_bytes_without_counting(
    game: str, counting_refused: Callable[[], None]
) -> None:
    found = kept_cards.kept_card(game)
    assert not isinstance(found, kept_cards.KeptCard)  # found, not read back
    counting_refused()
    assert invoke("strategy", game, "--format", "text") == found.to_text()
    assert (
        invoke("strategy", game, "--format", "json") == json.dumps(found.to_json(), indent=2) + "\n"
    )


def test_a_kept_strategy_counts_its_solution_only_when_asked() -> None:
    counted = analyze("tri-card", wagers={"ante": 1, "pair_plus": 1})
    again = analyze("tri-card", wagers={"ante": 1, "pair_plus": 1})
    assert counted.strategy is not None
    assert again.strategy is not None
    assert again.strategy.kept_summary is not None  # read back, not counted
    assert "solution" not in again.strategy.__dict__
    assert again.strategy.summary() == counted.strategy.summary()
    assert np.array_equal(again.strategy.solution.choice, counted.strategy.solution.choice)
    assert again.strategy.rows() == counted.strategy.rows()


def test_a_kept_card_counts_its_choice_only_when_asked() -> None:
    found = kept_cards.kept_card("crazy4")
    again = kept_cards.kept_card("crazy4")
    assert isinstance(again, kept_cards.KeptCard)
    assert "choice" not in again.__dict__
    kept_fields = ("game", "variant", "wagers", "rules", "agreement", "card", "optimal")
    assert [getattr(again, f) for f in kept_fields] == [getattr(found, f) for f in kept_fields]
    assert np.array_equal(again.choice, found.choice)
    assert np.array_equal(again.solution.choice, found.solution.choice)
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        again.nothing  # noqa: B018


def test_a_report_of_other_rules_wagers_or_code_is_not_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rules = find_game("tri-card").rules()
    other = rules.with_tables(pair_plus="1-3-6-30-40")
    ante = {"ante": Fraction(1), "pair_plus": Fraction(0)}
    both = {"ante": Fraction(1), "pair_plus": Fraction(1)}
    keys = {
        kept.key("tri-card", "report", rules, ante).path,
        kept.key("tri-card", "report", other, ante).path,
        kept.key("tri-card", "report", rules, both).path,
        kept.key("tri-card", "card", rules, ante).path,
    }
    assert len(keys) == 4
    first = analyze("tri-card", rules, both)
    assert analyze("tri-card", other, both).figures != first.figures
    built = []
    counted = riverboat.analysis._counted
    monkeypatch.setattr(
        riverboat.analysis, "_counted", lambda *args: built.append(args) or counted(*args)
    )
    assert analyze("tri-card", rules, both).figures == first.figures
    assert built == []  # read back
    monkeypatch.setattr(disk_cache, "_code_digest", lambda: "other code")
    assert analyze("tri-card", rules, both).figures == first.figures
    assert len(built) == 1  # other code: counted again, and kept in place of the old
    reports = [e.path.name for e in disk_cache.entries() if "tri-card-report-" in e.path.name]
    assert len(reports) == 2  # the other rules' report stays


def _stored(key: disk_cache.CacheKey, text: bytes) -> None:
    disk_cache.store(key, {"report": np.frombuffer(text, dtype=np.uint8)})


@pytest.mark.parametrize(
    "damage",
    [
        "flip a byte",
        "truncate",
        "empty",
        "not JSON",
        "not an object",
        "a key missing",
        "a wrong type",
        "no figures inside",
        "not text",
        "no strategy for a game with decisions",
    ],
)
def test_a_damaged_report_is_counted_again_and_rewritten(damage: str) -> None:
    key = report_key("tri-card")
    counted = analyze("tri-card")
    if damage in SPOILS:
        spoil(key.path, damage)
    elif damage == "not JSON":
        _stored(key, b"{figures")
    elif damage == "not an object":
        _stored(key, b"[1, 2, 3]")
    elif damage == "a key missing":
        _stored(key, b'{"figures": {}, "blind": null, "notes": [], "strategy": null}')
    elif damage == "a wrong type":
        _stored(key, b'{"figures": 7, "blind": null, "notes": 3, "strategy": []}')
    elif damage == "no figures inside":
        disk_cache.store(key, {"other": np.arange(3)})
    elif damage == "no strategy for a game with decisions":
        figures = kept.figures_data(counted.figures)
        report = {"figures": figures, "blind": None, "notes": [], "strategy": None}
        _stored(key, json.dumps(report).encode())
    else:
        disk_cache.store(key, {"report": np.arange(3.0)})
    again = analyze("tri-card")
    assert again.to_text() == counted.to_text()
    assert again.strategy is not None
    assert again.strategy.kept_summary is None  # counted, not read
    assert analyze("tri-card").strategy.kept_summary is not None  # type: ignore[union-attr]


def test_damaged_kept_ranges_are_found_again() -> None:
    distribution = {Fraction(-1): 1, Fraction(1): 1}
    found = kept.kept_ranges(distribution, [100], [0.9, 0.95], 1 << 20)
    [entry] = [e for e in disk_cache.entries() if "net-ranges-" in e.path.name]
    disk_cache.store(
        disk_cache.CacheKey(
            "net",
            "ranges",
            {
                "distribution": [["-1", 1], ["1", 1]],
                "rounds": [100],
                "confidences": [0.9, 0.95],
                "max_points": 1 << 20,
            },
        ),
        {"report": np.frombuffer(b'[[[100, 0.9, 0, -16, 16, "guessed"]]]', dtype=np.uint8)},
    )
    assert entry.path.is_file()
    assert kept.kept_ranges(distribution, [100], [0.9, 0.95], 1 << 20) == found
    assert [(r.low, r.high) for r in found[0]] == [(-16.0, 16.0), (-20.0, 20.0)]


_LOADED = """
import sys
from riverboat.cli import app
app({args!r}, standalone_mode=False)
heavy = ["riverboat.analysis.headsup", "riverboat.analysis._counting", "riverboat.analysis.hints",
         "riverboat.analysis.strategy_cards", "scipy.linalg"]
print("loaded:", *[name for name in heavy if name in sys.modules])
"""


@pytest.mark.parametrize("game", ["tri-card", "rabbit-hunter"])
def test_a_kept_report_loads_no_counting_code(game: str) -> None:
    invoke("analyze", game)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    code = _LOADED.format(args=["analyze", game])
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout
    assert out.splitlines()[-1] == "loaded:"


def test_a_kept_par_sheet_or_card_runs_no_compiled_code() -> None:
    """numba's compiled code (and the scipy.linalg it loads) is never reached."""
    invoke("analyze", "rabbit-hunter", "--format", "html")
    invoke("strategy", "rabbit-hunter")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    for args in (["analyze", "rabbit-hunter", "--format", "html"], ["strategy", "rabbit-hunter"]):
        out = subprocess.run(
            [sys.executable, "-c", _LOADED.format(args=args)],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        assert "scipy.linalg" not in out.splitlines()[-1]
        assert "riverboat.analysis.hints" not in out.splitlines()[-1]


def test_figures_read_back_exactly() -> None:
    for game, wagers in [("crazy4", None), ("rabbit-hunter", {"ante": 1, "bad_beat": 1})]:
        figures = analyze(game, wagers=wagers).figures
        assert kept.figures_from(kept.figures_data(figures)) == figures
