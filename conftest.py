"""Settings for every test, the doctests of src/, docs/ and README.md among them, and
how the tests are shared among pytest-xdist's workers (``-n`` in pyproject.toml)."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

from riverboat.settings import reload

# Bytecode is written, as an installed package has it, even where the environment says
# not to (PYTHONDONTWRITEBYTECODE): the workers and the servers and commands the tests
# start load riverboat's modules compiled instead of compiling them again each time.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
# One OpenBLAS thread in every worker and every process the tests start, as the
# riverboat command has it: no test leans on BLAS, and a thread per core started
# at each numpy import is CPU the workers share (docs/settings.md).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

if TYPE_CHECKING:
    from xdist.scheduler import LoadGroupScheduling

#: the files whose tests take longest (``pytest --durations``), longest first: the
#: workers begin with them, so that none is left running alone at the end of the run
#: while the other workers wait. A file is one unit of work (its module-scoped
#: fixtures, a browser and a server, are made once), unless its tests are marked
#: ``xdist_group`` (each group is one unit, wherever its tests are), it is one of
#: :data:`TOGETHER` or it is in :data:`SPLIT`.
SLOWEST_FIRST = (
    "timing-sensitive",
    "tests/test_bench_cold_analysis.py",
    "tests/test_server_crash.py",
    "tests/test_bench_commands.py",
    "tests/test_bench_simulate.py",
    "tests/test_analysis_kept.py",
    "tests/test_analysis.py",
    "tests/test_design.py",
    "tests/test_analysis_counting.py",
    "tests/test_bench_first_deal.py",
    "tests/test_browser_company.py",
    "tests/test_bench_page.py",
    "tests/test_accounts.py",
    "tests/test_browser.py",
    "tests/test_browser_detail.py",
    "tests/test_bench_evaluators.py",
    "tests/test_bench_scripts.py",
    "tests/test_bench_writes.py",
)
#: long files of independent tests (no fixture wider than a test): each test is a
#: unit of its own, so that one file's tests run on several workers at once
SPLIT = (
    "tests/test_server_crash.py",
    "tests/test_analysis.py",
    "tests/test_design.py",
    "tests/test_analysis_counting.py",
    "tests/test_accounts.py",
    "tests/test_bench_scripts.py",
)
#: files that measure how soon several server processes hand a table over, or deal a
#: big shoe, under faults they inject (a holder frozen or killed, Redis killed, a slow
#: network): one unit, so that they run one after another, never beside each other
TOGETHER = {
    "tests/test_chaos.py": "timing-sensitive",
    "tests/test_multi_process.py": "timing-sensitive",
    "tests/test_bench_shoe.py": "timing-sensitive",
}


def _unit(nodeid: str) -> str:
    """The unit of work a test belongs to: its ``xdist_group`` (pytest-xdist adds it to
    the test's id after an ``@``), else its file's in :data:`TOGETHER`, else the test
    in a :data:`SPLIT` file, else its file."""
    if "@" in nodeid:
        return nodeid.rsplit("@", 1)[1]
    file = nodeid.split("::", 1)[0]
    if file in TOGETHER:
        return TOGETHER[file]
    return nodeid if file in SPLIT else file


def _first(nodeid: str) -> int:
    file = nodeid.split("::", 1)[0]
    unit = _unit(nodeid)
    rank = unit if unit in SLOWEST_FIRST else file
    return SLOWEST_FIRST.index(rank) if rank in SLOWEST_FIRST else len(SLOWEST_FIRST)


def pytest_configure(config: pytest.Config) -> None:
    """On an xdist worker, numba's compiles one at a time across the run's workers
    (:func:`_compiles_taking_turns`)."""
    if hasattr(config, "workerinput"):
        _compiles_taking_turns()


def _compiles_taking_turns() -> None:
    """numba compiles (or reads from its cache) one kernel at a time across the
    workers, under a lock file of this tree's: with numba's cache empty, as in a fresh
    clone, the workers began the same kernels at once and each compiled them; now the
    first compiles and saves a kernel while the others wait, and they read it from
    the cache. Reentrant: a kernel compiled inside another's compile takes no turn.
    (The analysis, hands, simulation, design and strategy-card tests on four workers
    from an empty cache: 141-143 CPU s against 163-171 without the turns, 79-81 s
    against 86-91; with the cache full, the same within the noise. docs/development.md)"""
    import fcntl
    import hashlib
    import tempfile
    import threading
    from pathlib import Path

    from numba.core import dispatcher

    tree = hashlib.sha256(str(Path(__file__).resolve().parent).encode()).hexdigest()[:12]
    lock = Path(tempfile.gettempdir()) / f"riverboat-tests-numba-{tree}.lock"
    handle = open(lock, "a")  # noqa: SIM115 (held open for the worker's life: its turns)
    turn, depth = threading.RLock(), [0]
    compile_alone = dispatcher.Dispatcher.compile

    def compile_in_turn(self: Any, sig: Any) -> Any:
        with turn:
            if depth[0] == 0:
                fcntl.flock(handle, fcntl.LOCK_EX)
            depth[0] += 1
            try:
                return compile_alone(self, sig)
            finally:
                depth[0] -= 1
                if depth[0] == 0:
                    fcntl.flock(handle, fcntl.LOCK_UN)

    dispatcher.Dispatcher.compile = compile_in_turn  # type: ignore[method-assign]


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> LoadGroupScheduling:
    """Whole files (or ``xdist_group`` groups) to the workers, the slowest first."""
    from xdist.scheduler import LoadGroupScheduling

    class SlowestFilesFirst(LoadGroupScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return _unit(nodeid)

    config.option.loadscopereorder = False  # the order is the collection's: see below
    return SlowestFilesFirst(config, log)


@pytest.hookimpl(trylast=True)  # after xdist has added the groups to the tests' ids
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On an xdist worker, the slowest files' tests first (the scheduler hands out the
    files in this order); a run without workers keeps the files' own order."""
    if hasattr(config, "workerinput"):
        items.sort(key=lambda item: _first(item.nodeid))


@pytest.fixture(autouse=True, scope="session")
def analysis_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The analyses' tables are kept in a folder of the test run's own (the
    commands the tests start as processes inherit it), never the user's cache. The
    run's workers share it, so that a table is counted once a run, not once a worker
    (a file is written whole and renamed into place: riverboat.analysis.disk_cache);
    tests that remove tables or count the files use a folder of their own."""
    if "PYTEST_XDIST_WORKER" in os.environ:  # the run's folder, above each worker's own
        shared = tmp_path_factory.getbasetemp().parent / "analysis-cache"
        shared.mkdir(exist_ok=True)
        folder = str(shared)
    else:
        folder = str(tmp_path_factory.mktemp("analysis-cache"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("RIVERBOAT_CACHE_DIR", folder)
        reload()
        yield folder
    reload()


@pytest.fixture(autouse=True)
def settings_of_the_environment() -> Iterator[None]:
    """Each test starts and ends with the settings of the environment as it is then: a
    test that changes the environment reads it again (``reload()``) and leaves no
    setting behind (an autouse fixture ends after ``monkeypatch`` has undone it)."""
    reload()
    yield
    reload()


# Production's argon2 parameters (64 MiB, 3 passes, 4 lanes) cost about 0.18 CPU s a
# hash or a check on the idle build machine, and the suite's sign-ups and log-ins in its
# own processes make over a thousand of them: some 180 CPU s (docs/development.md). So
# every test and doctest hashes with the same argon2id at its smallest cost, and
# `_DUMMY_HASH` (what a name nobody has is checked against) is a hash made at that cost:
# what they check of hashing (a check made for a name nobody has, an old hash made
# again) does not depend on the cost. A test marked ``production_password_hashes`` runs
# with production's hasher and hash: those that need hashes slow enough to overlap (two
# sign-ups at once, guesses at once) and those of production's parameters. The servers
# the suite starts as processes of their own hash as production does.
QUICK_HASHER_COST = {"time_cost": 1, "memory_cost": 8, "parallelism": 1}


@pytest.fixture(scope="session", autouse=True)
def quick_password_hashes() -> Iterator[dict[str, object]]:
    """Every test's players hash with :data:`QUICK_HASHER_COST`; the fixture's value is
    production's hasher and made-up name's hash, as the players' module made them."""
    from argon2 import PasswordHasher

    from riverboat.table.accounts import players

    production = {"_hasher": players._hasher, "_DUMMY_HASH": players._DUMMY_HASH}
    quick = PasswordHasher(**QUICK_HASHER_COST)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(players, "_hasher", quick)
        patch.setattr(players, "_DUMMY_HASH", quick.hash("riverboat: a password nobody has"))
        yield production


@pytest.fixture(autouse=True)
def _hashes_by_marker(
    request: pytest.FixtureRequest, quick_password_hashes: dict[str, object]
) -> Iterator[None]:
    """Production's hasher and made-up name's hash for a test marked
    ``production_password_hashes`` (the marker is the switch: there is no fixture of
    that name to ask for)."""
    if request.node.get_closest_marker("production_password_hashes") is None:
        yield
        return
    from riverboat.table.accounts import players

    with pytest.MonkeyPatch.context() as patch:
        for name, value in quick_password_hashes.items():
            patch.setattr(players, name, value)
        yield
