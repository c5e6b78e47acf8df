"""The analyses' tables kept on disk: read by another process, rebuilt when damaged,
written safely by several processes at once, one file per rules."""

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import riverboat
from damage import spoil
from riverboat.analysis import disk_cache as cache
from riverboat.analysis.adapters import heads_up_game
from riverboat.analysis.headsup import HeadsUpGame
from riverboat.analysis.solution import Counted
from riverboat.cli import app
from riverboat.games import tri_card
from riverboat.settings import reload


@pytest.fixture(autouse=True, scope="module")
def no_edges_under_way() -> None:
    """An earlier test's web app may still be working out the house edges and strategy
    cards (``riverboat.table.edges``: a worker process, started with the cache folder
    of the moment, and the thread that waits on it): these tests change that folder,
    so they wait for it first."""
    for thread in threading.enumerate():
        if thread.name == "house-edges":
            thread.join(timeout=600)


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(cache.ENVIRONMENT, str(tmp_path))
    reload()  # the settings read the environment again
    return tmp_path


def fresh(rules: tri_card.TriCardRules | None = None) -> HeadsUpGame:
    """A model with nothing counted in memory (``heads_up`` keeps one per rules)."""
    return heads_up_game(rules or tri_card.TriCardRules())


def same(first: Counted, second: Counted) -> bool:
    pairs = zip(first.arrays().values(), second.arrays().values(), strict=True)
    return all(np.array_equal(a, b) for a, b in pairs)


def counted_file(game: HeadsUpGame) -> Path:
    return cache.CacheKey(game.name, "counted", game.rules).path


def run(code: str, folder: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, cache.ENVIRONMENT: str(folder)}
    return subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )


# a process that fails if it has to count: it can only read what another one kept
_READ_ONLY = """
from riverboat.analysis import _counting
from riverboat.analysis.headsup import HeadsUpGame
from riverboat.analysis.adapters import heads_up_game
from riverboat.games import tri_card
def refuse(*args, **kwargs):
    raise SystemExit("counted again instead of reading the kept tables")
HeadsUpGame.line_totals = refuse
HeadsUpGame._find_classes = refuse
_counting.canonical_hands = refuse
game = heads_up_game(tri_card.TriCardRules())
print(int(game.counted().totals.sum()), int(game.classes[1].sum()))
"""


def test_another_process_reads_the_tables_the_first_kept(folder: Path) -> None:
    run("from riverboat.analysis import analyze; analyze('tri-card')", folder)
    kept = {e.path.name.rsplit("-", 1)[0] for e in cache.entries()}
    assert kept == {
        "tri-card-classes",
        "tri-card-counted",
        "hands-suit-classes-3",
        "tri-card-report",  # what the report says (riverboat.analysis.kept)
    }
    game = fresh()
    expected = (
        f"{int(game.line_totals(game.hands[0]).totals.sum())} {int(game._find_classes()[1].sum())}"
    )
    assert run(_READ_ONLY, folder).stdout.split() == expected.split()


def test_a_second_model_reads_the_same_numbers_it_counted(folder: Path) -> None:
    counted = fresh().counted()
    assert counted_file(fresh()).is_file()
    again = fresh()
    assert same(again.counted(), counted)
    assert np.array_equal(again.hands[0], fresh().hands[0])


@pytest.mark.parametrize("damage", ["flip a byte", "truncate", "another table's file", "empty"])
def test_a_damaged_file_is_counted_again_never_trusted(folder: Path, damage: str) -> None:
    game = fresh()
    counted = game.counted()
    path = counted_file(game)
    if damage == "another table's file":
        path.write_bytes(cache.CacheKey(game.name, "classes", game.rules).path.read_bytes())
    else:
        spoil(path, damage)
    assert cache.load(cache.CacheKey(game.name, "counted", game.rules)) is None
    assert same(fresh().counted(), counted)  # counted again, equal
    assert cache.load(cache.CacheKey(game.name, "counted", game.rules)) is not None  # replaced


def test_stored_arrays_that_do_not_fit_the_game_are_counted_again(folder: Path) -> None:
    game = fresh()
    counted = game.counted()
    arrays = {"hands": game.hands[0][:-1], "weights": game.hands[1][:-1], **counted.arrays()}
    cache.store(cache.CacheKey(game.name, "counted", game.rules), arrays)
    assert same(fresh().counted(), counted)


_WRITER = """
import numpy as np
from riverboat.analysis import disk_cache as cache
key = cache.CacheKey("demo", "race", {"n": 1})
for _ in range(25):
    cache.store(key, {"x": np.arange(300_000)})
"""

_READER = """
import numpy as np
from riverboat.analysis import disk_cache as cache
key = cache.CacheKey("demo", "race", {"n": 1})
seen = 0
for _ in range(300):
    arrays = cache.load(key)
    if arrays is not None:
        assert np.array_equal(arrays["x"], np.arange(300_000)), "a torn file was read"
        seen += 1
print(seen)
"""


def test_several_writers_and_a_reader_at_once_see_only_whole_files(folder: Path) -> None:
    env = {**os.environ, cache.ENVIRONMENT: str(folder)}
    writers = [
        subprocess.Popen([sys.executable, "-c", _WRITER], env=env, stderr=subprocess.PIPE)
        for _ in range(3)
    ]
    reader = subprocess.run(
        [sys.executable, "-c", _READER], env=env, capture_output=True, text=True
    )
    for writer in writers:
        _, errors = writer.communicate(timeout=120)
        assert writer.returncode == 0, errors
    assert reader.returncode == 0, reader.stderr
    assert "damaged" not in reader.stderr
    [entry] = cache.entries()  # one whole file, no temporary left behind
    assert entry.path.suffix == ".npz"
    arrays = cache.load(cache.CacheKey("demo", "race", {"n": 1}))
    assert arrays is not None
    assert np.array_equal(arrays["x"], np.arange(300_000))


def test_two_processes_counting_at_once_both_end_with_a_valid_file(folder: Path) -> None:
    env = {**os.environ, cache.ENVIRONMENT: str(folder)}
    code = "from riverboat.analysis import analyze; print(analyze('tri-card').figures.house_edge)"
    both = [
        subprocess.Popen([sys.executable, "-c", code], env=env, stdout=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    edges = {process.communicate(timeout=300)[0].strip() for process in both}
    assert all(process.returncode == 0 for process in both)
    assert len(edges) == 1
    # the three tables and the report, and no temporary
    assert sorted(e.path.suffix for e in cache.entries()) == [".npz"] * 4
    assert cache.load(cache.CacheKey("tri-card", "counted", tri_card.TriCardRules())) is not None


# a process that needs the table "demo"/"once" (its build logged to BUILDS and slow) and
# prints what it got
_NEEDS_ONCE = """
import os, sys, time
import numpy as np
from riverboat.analysis import disk_cache as cache
def build():
    with open(os.environ["BUILDS"], "a") as log:
        log.write(f"{os.getpid()}\\n")
    time.sleep(float(sys.argv[1]))
    return np.arange(5)
value = cache.remember(
    cache.CacheKey("demo", "once", {}), build, lambda arrays: arrays["x"], lambda x: {"x": x}
)
print(int(value.sum()))
"""


def _needing_once(folder: Path, builds: Path, seconds: float) -> subprocess.Popen[str]:
    env = {**os.environ, cache.ENVIRONMENT: str(folder), "BUILDS": str(builds)}
    command = [sys.executable, "-c", _NEEDS_ONCE, str(seconds)]
    return subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True)


def test_processes_needing_a_table_at_once_count_it_once_and_all_read_it(
    folder: Path, tmp_path: Path
) -> None:
    builds = tmp_path / "builds.log"
    needing = [_needing_once(folder, builds, 1.0) for _ in range(3)]
    answers = [process.communicate(timeout=120)[0].strip() for process in needing]
    assert all(process.returncode == 0 for process in needing)
    assert answers == ["10"] * 3
    assert len(builds.read_text().split()) == 1  # one counted it, the others waited and read
    [entry] = cache.entries()  # the lock file is not a table
    assert entry.path.suffix == ".npz"
    assert list(folder.glob("*.lock"))
    assert cache.clear() == (1, entry.size)  # the table counted, its lock file gone too
    assert cache.entries() == []
    assert list(folder.glob("*.lock")) == []


def test_a_builder_killed_mid_way_holds_no_one_up(folder: Path, tmp_path: Path) -> None:
    builds = tmp_path / "builds.log"
    holder = _needing_once(folder, builds, 600.0)
    for _ in range(200):  # until it is building, the lock held
        if builds.is_file() and builds.read_text():
            break
        time.sleep(0.05)
    holder.kill()  # the kernel lets go of its lock
    holder.wait()
    after = _needing_once(folder, builds, 0.0)
    assert after.communicate(timeout=60)[0].strip() == "10"
    assert len(builds.read_text().split()) == 2


def test_a_lock_held_too_long_is_not_waited_on_further(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    key = cache.CacheKey("demo", "held", {})
    monkeypatch.setattr(cache, "BUILD_WAIT", 0.3)
    holding, release = threading.Event(), threading.Event()

    def hold() -> None:  # as a frozen process would
        with cache._building(key):
            holding.set()
            release.wait(30)

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert holding.wait(30)
        value = cache.remember(key, lambda: np.arange(3), lambda a: a["x"], lambda x: {"x": x})
        assert value.tolist() == [0, 1, 2]
    finally:
        release.set()
        holder.join()


def test_different_rules_version_or_format_make_different_keys(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = tri_card.TriCardRules()
    other = rules.with_tables(pair_plus="1-3-6-30-40")
    key = cache.CacheKey("tri-card", "counted", rules)
    assert key.path != cache.CacheKey("tri-card", "counted", other).path
    assert key.path != cache.CacheKey("tri-card", "classes", rules).path
    assert key.path == cache.CacheKey("tri-card", "counted", tri_card.TriCardRules()).path
    before = key.path
    monkeypatch.setattr(riverboat, "__version__", "999.0")
    assert key.path != before
    monkeypatch.undo()
    monkeypatch.setenv(cache.ENVIRONMENT, str(folder))
    reload()  # the settings read the environment again
    monkeypatch.setattr(cache, "FORMAT", cache.FORMAT + 1)
    assert key.path != before


def test_a_new_version_replaces_its_own_tables_and_leaves_other_rules(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules, other = (
        tri_card.TriCardRules(),
        tri_card.TriCardRules().with_tables(pair_plus="1-3-6-30-40"),
    )
    arrays = {"x": np.arange(3)}
    kept_other = cache.store(cache.CacheKey("tri-card", "counted", other), arrays)
    old = cache.store(cache.CacheKey("tri-card", "counted", rules), arrays)
    monkeypatch.setattr(riverboat, "__version__", "999.0")
    new = cache.store(cache.CacheKey("tri-card", "counted", rules), arrays)
    assert kept_other is not None
    assert old is not None
    assert new is not None
    assert {e.path for e in cache.entries()} == {kept_other, new}  # the old version's is gone


def test_different_rules_count_different_numbers(folder: Path) -> None:
    rules = tri_card.TriCardRules()
    other = rules.with_tables(pair_plus="1-3-6-30-40")
    assert not same(fresh(rules).counted(), fresh(other).counted())
    assert len(cache.entries()) == 5  # classes and counts of each, and the suit classes


def test_an_unwritable_folder_only_means_counting_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "a file, not a folder"
    blocker.write_text("")
    monkeypatch.setenv(cache.ENVIRONMENT, str(blocker / "analysis"))
    reload()  # the settings read the environment again
    game = fresh()
    assert game.counted().totals.shape[0] == len(game.hands[0])
    assert cache.entries() == []


def test_the_user_cache_folder_is_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    from platformdirs import user_cache_dir

    monkeypatch.delenv(cache.ENVIRONMENT, raising=False)
    reload()  # the settings read the environment again
    assert cache.cache_dir() == Path(user_cache_dir("riverboat")) / "analysis"


def test_the_cache_command_shows_and_clears_the_tables(folder: Path) -> None:
    runner = CliRunner()
    empty = runner.invoke(app, ["cache"])
    assert empty.exit_code == 0
    assert str(folder) in empty.output
    assert "0 tables, 0 B" in empty.output
    fresh().counted()
    shown = runner.invoke(app, ["cache"])
    assert "3 tables" in shown.output
    assert "tri-card-counted-" in shown.output
    assert "tri-card-classes-" in shown.output
    cleared = runner.invoke(app, ["cache", "clear"])
    assert cleared.exit_code == 0
    assert cleared.output.startswith("removed 3 tables")
    assert cache.entries() == []
