"""Test settings shared by every test module, and the databases the service runs on."""

import os
import uuid
from collections.abc import Iterator

import pytest
from hypothesis import settings

# The first call of an evaluator builds its tables and may load compiled code, which
# takes longer than Hypothesis' default 200 ms deadline; speed is measured in bench/.
settings.register_profile("riverboat", deadline=None, print_blob=True)
settings.load_profile("riverboat")

POSTGRES = os.environ.get("RIVERBOAT_TEST_POSTGRES", "postgresql+psycopg://postgres@127.0.0.1:5432")


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """A fresh database: an SQLite file, or a PostgreSQL database made and dropped here."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path_factory.mktemp('db') / 'riverboat.db'}"
        return
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
