"""A shared table's live state, for the server process that runs its clock: the
fencing token of the last lease that wrote it, the phase, the deadline of the
pending step, the deal in play and the seats' bets and decisions (JSON).

Revision ID: 0009_shared_table_state
Revises: 0008_kept_state
"""

import sqlalchemy as sa
from alembic import op

revision = "0009_shared_table_state"
down_revision = "0008_kept_state"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "shared_tables",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("token", sa.BigInteger, nullable=False),
        sa.Column("phase", sa.String(16), nullable=False),
        sa.Column("deadline", sa.Float, nullable=True),
        sa.Column("deal_id", sa.Integer, sa.ForeignKey("deals.id"), nullable=True),
        sa.Column("state", sa.Text, nullable=False),
        sa.Column("updated_at", sa.DateTime, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("shared_tables")
