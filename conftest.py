"""Settings for every test, the doctests of src/, docs/ and README.md among them."""

from collections.abc import Iterator

import pytest

from riverboat.settings import reload


@pytest.fixture(autouse=True, scope="session")
def analysis_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The analyses' tables are kept in a folder of the test run's own (the
    commands the tests start as processes inherit it), never the user's cache."""
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
