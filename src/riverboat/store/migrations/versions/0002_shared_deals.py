"""Shared tables: deals (a deck or shoe dealt to several players) and each round's place in one.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "deals",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("server_seed", sa.String(64), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("client_seed", sa.String(128)),
        sa.Column("revealed", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    with op.batch_alter_table("rounds") as rounds:  # SQLite alters by copying the table
        rounds.add_column(sa.Column("deal_id", sa.Integer, nullable=True))
        rounds.add_column(sa.Column("deal_cards", sa.Text, nullable=True))
        rounds.create_foreign_key("rounds_deal", "deals", ["deal_id"], ["id"])


def downgrade() -> None:
    with op.batch_alter_table("rounds") as rounds:
        rounds.drop_constraint("rounds_deal", type_="foreignkey")
        rounds.drop_column("deal_cards")
        rounds.drop_column("deal_id")
    op.drop_table("deals")
