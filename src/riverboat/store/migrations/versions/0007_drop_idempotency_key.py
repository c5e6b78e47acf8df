"""Drop ``transactions.idempotency_key``: 0006 moved each key to ``request_key``, unique
per player, and left the old column (unique across players) empty.

PostgreSQL drops the column and its constraint in place. SQLite cannot drop a column
that is part of a UNIQUE constraint, and cannot copy a table that ledger entries refer
to while foreign keys are enforced, nor stop enforcing them inside a transaction: so
on SQLite the work before this revision is committed, foreign keys are switched off,
the table is copied without the column (its schema written out here, as it was at this
revision) in a transaction of its own that must leave no broken reference, and foreign
keys are switched on again before the migration carries on.

The downgrade adds the column back, empty, with a unique index (SQLite adds no UNIQUE
column in place), so 0006's downgrade can fill it again.

Revision ID: 0007_drop_idempotency_key
Revises: 0006_running_balance
"""

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0007_drop_idempotency_key"
down_revision = "0006_running_balance"
branch_labels = None
depends_on = None

#: the transactions table at this revision, and its indexes
_TABLE = """
CREATE TABLE transactions_copy (
    id INTEGER NOT NULL,
    kind VARCHAR(32) NOT NULL,
    player_id INTEGER,
    round_id INTEGER,
    request TEXT,
    response TEXT,
    created_at DATETIME NOT NULL,
    request_key VARCHAR(128),
    PRIMARY KEY (id),
    FOREIGN KEY(player_id) REFERENCES players (id),
    FOREIGN KEY(round_id) REFERENCES rounds (id)
)"""
_COLUMNS = "id, kind, player_id, round_id, request, response, created_at, request_key"
_INDEXES = (
    "CREATE UNIQUE INDEX transactions_player_key ON transactions (player_id, request_key)",
    "CREATE INDEX transactions_round ON transactions (round_id)",
)
_OLD_INDEX = "transactions_idempotency_key"


def upgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name != "sqlite":
        op.drop_column("transactions", "idempotency_key")
        return
    raw: Any = bind.connection.driver_connection  # the sqlite3 connection itself
    raw.execute("COMMIT")  # the revisions before this one are kept, with their version
    raw.execute("PRAGMA foreign_keys = OFF")  # it takes effect outside a transaction only
    try:
        _copy_without_the_column(raw)
    finally:
        raw.execute("PRAGMA foreign_keys = ON")
        raw.execute("BEGIN IMMEDIATE")  # the migration carries on in a transaction


def _copy_without_the_column(raw: Any) -> None:
    """The transactions table copied without ``idempotency_key``, in one transaction
    that is rolled back if any reference would break."""
    raw.execute("BEGIN IMMEDIATE")
    try:
        raw.execute(_TABLE)
        raw.execute(
            f"INSERT INTO transactions_copy ({_COLUMNS}) SELECT {_COLUMNS} FROM transactions"
        )
        raw.execute("DROP TABLE transactions")
        raw.execute("ALTER TABLE transactions_copy RENAME TO transactions")
        for index in _INDEXES:
            raw.execute(index)
        broken = raw.execute("PRAGMA foreign_key_check").fetchall()
        if broken:
            raise RuntimeError(f"copying the transactions table would break {broken[:3]}")
    except BaseException:
        raw.execute("ROLLBACK")
        raise
    raw.execute("COMMIT")


def downgrade() -> None:
    op.add_column("transactions", sa.Column("idempotency_key", sa.String(128)))
    op.create_index(_OLD_INDEX, "transactions", ["idempotency_key"], unique=True)
