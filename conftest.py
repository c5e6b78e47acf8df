"""Settings for every test, the doctests of src/, docs/ and README.md among them."""

from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True, scope="session")
def analysis_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The analyses' tables are kept in a folder of the test run's own (the
    commands the tests start as processes inherit it), never the user's cache."""
    folder = str(tmp_path_factory.mktemp("analysis-cache"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("RIVERBOAT_CACHE_DIR", folder)
        yield folder
