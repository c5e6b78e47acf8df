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
    # a plain ADD COLUMN, which SQLite does in place: copying the table, as a batch
    # alteration would, cannot drop the old one while transactions refer to its rounds
    if op.get_bind().dialect.name == "sqlite":  # Alembic leaves SQLite's REFERENCES to SQL
        op.execute("ALTER TABLE rounds ADD COLUMN deal_id INTEGER REFERENCES deals (id)")
    else:
        op.add_column(
            "rounds",
            sa.Column("deal_id", sa.Integer, sa.ForeignKey("deals.id", name="rounds_deal")),
        )
    op.add_column("rounds", sa.Column("deal_cards", sa.Text))


def downgrade() -> None:
    op.drop_column("rounds", "deal_cards")
    op.drop_column("rounds", "deal_id")
    op.drop_table("deals")
