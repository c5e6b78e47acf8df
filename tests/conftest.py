"""Test settings shared by every test module, and the databases the service runs on."""

import importlib
import os
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


@contextmanager
def postgres_database() -> Iterator[str]:
    """A PostgreSQL database made for the block and dropped after it: its URL."""
    import psycopg

    name = f"riverboat_test_{uuid.uuid4().hex[:12]}"
    admin = POSTGRES.replace("postgresql+psycopg://", "postgresql://") + "/postgres"
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"{POSTGRES}/{name}"
    finally:
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """A fresh database: an SQLite file, or a PostgreSQL database made and dropped here."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path_factory.mktemp('db') / 'riverboat.db'}"
        return
    with postgres_database() as url:
        yield url


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh PostgreSQL database alone (:func:`postgres_database`)."""
    with postgres_database() as url:
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
