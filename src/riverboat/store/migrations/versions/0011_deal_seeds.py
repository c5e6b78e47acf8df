"""A shared deal keeps the seated players' client seeds it was sealed with, joined,
when there are more of them than its client seed column holds: its client seed is
then their SHA-256 (a Baccarat shoe's first coup may be bet on by any number).

Revision ID: 0011_deal_seeds
Revises: 0010_credit_indexes
"""

import sqlalchemy as sa
from alembic import op

revision = "0011_deal_seeds"
down_revision = "0010_credit_indexes"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("deals", sa.Column("seeds", sa.Text(), nullable=True))


def downgrade() -> None:
    op.drop_column("deals", "seeds")  # SQLite 3.35+ drops a column in place
