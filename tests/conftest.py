"""Test settings shared by every test module, and the databases the service runs on."""

import importlib
import os
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import settings

if TYPE_CHECKING:
    from fastapi.testclient import TestClient
    from playwright.sync_api import Browser, Page

# The first call of an evaluator builds its tables and may load compiled code, which
# takes longer than Hypothesis' default 200 ms deadline; speed is measured in bench/.
settings.register_profile("riverboat", deadline=None, print_blob=True)
settings.load_profile("riverboat")

#: riverboat_showdown, a game in a package of its own (tests/plugins), installed only
#: by the tests that ask for it (the fixture ``showdown``)
collect_ignore = ["plugins"]
PLUGINS = Path(__file__).resolve().parent / "plugins"

POSTGRES = os.environ.get("RIVERBOAT_TEST_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432")


class PostgresDatabases:
    """Empty PostgreSQL databases for one test process's tests.

    Making a database cost the server about 0.25 CPU s on the build machine once a
    suite had run (it copies the template's 7.5 MB through the write-ahead log), 0.33
    with riverboat's migrations; emptying a used one and migrating it again, 0.11
    (docs/development.md). So a database a test is done with is renamed (a process the
    test left behind can no longer reach it), its schema dropped and made again, and
    kept for the process's next test; the ones kept are dropped at the end. Where it
    cannot be emptied (a connection came back), it is dropped instead.
    """

    def __init__(self) -> None:
        self.admin = POSTGRES.replace("postgresql+psycopg://", "postgresql://")
        self.spare: list[str] = []

    @contextmanager
    def database(self) -> Iterator[str]:
        """An empty database for the block: its URL."""
        import psycopg

        name = self.spare.pop() if self.spare else self._made()
        try:
            yield f"{POSTGRES}/{name}"
        finally:
            try:
                self.spare.append(self._emptied(name))
            except psycopg.Error:
                self._dropped(name)

    def _made(self) -> str:
        import psycopg

        name = f"riverboat_test_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(f"{self.admin}/postgres", autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{name}"')
        return name

    def _emptied(self, name: str) -> str:
        """The database, its connections ended, under a new name and with nothing in it."""
        import psycopg

        new = f"riverboat_test_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(f"{self.admin}/postgres", autocommit=True) as connection:
            connection.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
                (name,),
            )
            for _ in range(50):  # the ended connections leave within milliseconds
                try:
                    connection.execute(f'ALTER DATABASE "{name}" RENAME TO "{new}"')
                    break
                except psycopg.errors.ObjectInUse:
                    time.sleep(0.02)
            else:
                raise psycopg.errors.ObjectInUse(f"{name} is still in use")
        with psycopg.connect(f"{self.admin}/{new}", autocommit=True) as connection:
            connection.execute("DROP SCHEMA public CASCADE")
            connection.execute("CREATE SCHEMA public")
        return new

    def _dropped(self, name: str) -> None:
        import psycopg

        with psycopg.connect(f"{self.admin}/postgres", autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def close(self) -> None:
        while self.spare:
            self._dropped(self.spare.pop())


@pytest.fixture(scope="session")
def postgres_databases() -> Iterator[PostgresDatabases]:
    """This test process's PostgreSQL databases (:class:`PostgresDatabases`)."""
    databases = PostgresDatabases()
    yield databases
    databases.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(
    request: pytest.FixtureRequest,
    tmp_path_factory: pytest.TempPathFactory,
    postgres_databases: PostgresDatabases,
) -> Iterator[str]:
    """A fresh database: an SQLite file, or an empty PostgreSQL database."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path_factory.mktemp('db') / 'riverboat.db'}"
        return
    with postgres_databases.database() as url:
        yield url


@pytest.fixture
def postgres_url(postgres_databases: PostgresDatabases) -> Iterator[str]:
    """An empty PostgreSQL database alone (:class:`PostgresDatabases`)."""
    with postgres_databases.database() as url:
        yield url


@pytest.fixture
def showdown(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Two-Card Showdown installed as a plug-in, as ``pip install`` would leave it: its
    package and its distribution's metadata (the ``riverboat.games`` entry point) on
    the path, for this process and the commands it starts. Uninstalled after."""
    from riverboat.games import GAMES, discover, unregister

    monkeypatch.syspath_prepend(str(PLUGINS))
    paths = [str(PLUGINS), os.environ.get("PYTHONPATH", "")]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(path for path in paths if path))
    importlib.invalidate_caches()
    assert "showdown" in discover() or "showdown" in GAMES
    yield "showdown"
    unregister("showdown")


# ------------------------------------------------------------------ the browser tests
# (tests/browser_support.py: a served app, Debian's headless Chromium, the taps a round
# needs)
@pytest.fixture(scope="module")
def browser() -> Iterator["Browser"]:
    """A headless Chromium for one test module: Playwright's sync API holds an event loop
    while it runs, which the asyncio tests of other modules (Textual, Starlette) refuse."""
    from playwright.sync_api import sync_playwright

    from browser_support import launch_chromium

    with sync_playwright() as playwright:
        launched = launch_chromium(playwright)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The web table for the local player, on a loopback port, for one test module."""
    from browser_support import serving

    with serving(tmp_path_factory.mktemp("web") / "browser.db", local_player=True) as address:
        yield address


@pytest.fixture(scope="module")
def shared_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server with accounts (ann and bob, password "a long password")."""
    from browser_support import serving

    with serving(tmp_path_factory.mktemp("shared") / "shared.db", local_player=False) as address:
        yield address


@pytest.fixture(scope="module")
def page(server: str, browser: "Browser") -> Iterator["Page"]:
    """A tab at the tables, shared by one module's tests."""
    from browser_support import table_tab

    tab = table_tab(server, browser)
    yield tab
    tab.close()


# ------------------------------------------------------------------ the web API tests
@pytest.fixture
def client(tmp_path: "Path") -> Iterator["TestClient"]:
    """The app for the local player, through Starlette's test client, its CSRF cookie set."""
    from fastapi.testclient import TestClient

    from riverboat.settings import amended
    from riverboat.web.app import create_app

    app = create_app(
        amended(database_url=f"sqlite:///{tmp_path / 'web.db'}", local_player=True, rate_limit=1000)
    )
    with TestClient(app) as test_client:
        test_client.get("/")  # the page sets the CSRF cookie
        yield test_client
