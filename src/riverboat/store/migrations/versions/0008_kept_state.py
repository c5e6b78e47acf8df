"""Kept state: sessions, failed log-ins and rate-limit counts in the database, where
every server process sees them and a restart keeps them.

Revision ID: 0008_kept_state
Revises: 0007_drop_idempotency_key
"""

import sqlalchemy as sa
from alembic import op

revision = "0008_kept_state"
down_revision = "0007_drop_idempotency_key"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "kept_state",
        sa.Column("key", sa.String(400), primary_key=True),
        sa.Column("value", sa.Text),
        sa.Column("count", sa.BigInteger, nullable=False, server_default="0"),
        sa.Column("expires", sa.Float, nullable=False),
    )
    op.create_index("kept_state_expires", "kept_state", ["expires"])


def downgrade() -> None:
    op.drop_index("kept_state_expires", "kept_state")
    op.drop_table("kept_state")
