"""The schema's migrations: a database made by an earlier release upgrades in place,
its players, rounds and ledger intact, on SQLite and on PostgreSQL."""

import sqlite3
import subprocess
import sys
import time
from contextlib import closing
from pathlib import Path

from sqlalchemy import text

from riverboat.store import (
    HEAD_SCHEMA,
    MIGRATIONS,
    connect,
    head_revision,
    head_schema,
    migrate,
    sqlite_engine,
    upgrade,
)
from riverboat.table.service import TableService


def test_a_database_with_rounds_upgrades_from_the_first_schema(database_url: str) -> None:
    engine = connect(database_url, revision="0001")
    with engine.begin() as connection:  # as the first release left it: a player's round
        for statement in (
            "INSERT INTO players (id, name, failed_logins, created_at)"
            " VALUES (7, 'ann', 0, '2026-01-01')",
            "INSERT INTO rounds (id, player_id, game, status, server_seed, commitment,"
            " client_seed, nonce, record, balance_before, created_at, updated_at) VALUES"
            " (3, 7, 'tri-card', 'settled', 's', 'c', 'x', 0, '{\"format\": 1,"
            " \"game\": \"tri-card\", \"rules\": {}, \"cards_drawn\": [], \"events\": []}', 0,"
            " '2026-01-01', '2026-01-01')",
            "INSERT INTO transactions (id, kind, player_id, round_id, created_at)"
            " VALUES (5, 'wager', 7, 3, '2026-01-01')",
            "INSERT INTO ledger (transaction_id, account, amount, created_at)"
            " VALUES (5, 'player:7', 100000, '2026-01-01'), (5, 'house', -100000, '2026-01-01')",
        ):
            connection.execute(text(statement))
    migrate(engine)
    with engine.connect() as connection:
        rows = connection.execute(text("SELECT id, deal_id, deal_cards FROM rounds")).all()
        assert [tuple(row) for row in rows] == [(3, None, None)]
        assert connection.execute(text("SELECT count(*) FROM transactions")).scalar() == 1
        # 0013: no player is an operator, none is locked, and the operators' log is empty
        roles = connection.execute(text("SELECT operator, locked FROM players")).all()
        assert [tuple(row) for row in roles] == [(False, False)]
        assert connection.execute(text("SELECT count(*) FROM operator_actions")).scalar() == 0
    engine.dispose()
    service = TableService(database_url)  # and the service runs on it
    assert service.balance(7) == 100000
    assert service.start_round(7, "baccarat", {"banker": 1000}).status == "settled"
    service.engine.dispose()


def test_the_head_read_from_the_files_is_alembics() -> None:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    assert head_revision() == ScriptDirectory.from_config(config).get_current_head()


def test_a_database_at_the_head_opens_without_alembic(database_url: str) -> None:
    """Once migrated, a database is opened with one read: Alembic is not even imported."""
    connect(database_url).dispose()
    assert not imports_alembic_opening(database_url)


def imports_alembic_opening(url: str) -> bool:
    """Whether a new process that opens the database at ``url`` imports Alembic."""
    opened = (
        "import sys; from riverboat.store import connect; "
        f"connect({url!r}).dispose(); print('alembic' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", opened], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip() == "True"


def test_processes_opening_a_new_database_at_once_migrate_it_once(database_url: str) -> None:
    """Four processes open a new database at the same moment: each waits its turn to
    migrate (SQLite's write lock, PostgreSQL's advisory lock) and finds the schema the
    one before it left; none fails, and the database is at the head once."""
    opened = (
        "import sys, time; from riverboat.store import connect\n"
        "time.sleep(max(0.0, float(sys.argv[2]) - time.time()))\n"
        "connect(sys.argv[1]).dispose()\n"
    )
    start = f"{time.time() + 2.0}"  # every process imported and waiting by then
    children = [
        subprocess.Popen(
            [sys.executable, "-c", opened, database_url, start],
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(4)
    ]
    errors = [child.communicate(timeout=120)[1] for child in children]
    assert [child.returncode for child in children] == [0] * 4, errors
    engine = connect(database_url)
    with engine.connect() as connection:
        versions = connection.execute(text("SELECT version_num FROM alembic_version")).all()
    engine.dispose()
    assert [row[0] for row in versions] == [head_revision()]


def _dumped(path: Path) -> list[str]:
    with closing(sqlite3.connect(path)) as database:
        return list(database.iterdump())


def test_the_head_schema_file_is_the_migrations() -> None:
    assert HEAD_SCHEMA.read_text(encoding="utf-8") == head_schema(), (
        "a migration changed the schema: run python tools/head_schema.py"
    )


def test_a_new_sqlite_database_is_made_as_the_migrations_make_it(tmp_path: Path) -> None:
    """Made from the head schema in one go (Alembic not even imported), a new database
    holds what Alembic's migrations leave an empty one with, statement for statement."""
    migrated = sqlite_engine(f"sqlite:///{tmp_path / 'migrated.db'}")
    upgrade(migrated)
    migrated.dispose()
    made = tmp_path / "made.db"
    assert not imports_alembic_opening(f"sqlite:///{made}")
    assert _dumped(made) == _dumped(tmp_path / "migrated.db")
    assert any(line.startswith("CREATE TABLE players") for line in _dumped(made))


def test_a_head_schema_of_another_head_is_not_used() -> None:
    from riverboat.store import _head_statements

    assert _head_statements(head_revision())  # the file's own head
    assert _head_statements("0001") == ()  # an older file: the migrations run instead
