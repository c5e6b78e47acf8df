"""Players, the double-entry ledger, transactions and rounds.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(64), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(256)),
        sa.Column("failed_logins", sa.Integer, nullable=False),
        sa.Column("locked_until", sa.DateTime),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    op.create_table(
        "rounds",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("game", sa.String(32), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("server_seed", sa.String(64), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("client_seed", sa.String(128), nullable=False),
        sa.Column("nonce", sa.Integer, nullable=False),
        sa.Column("record", sa.Text, nullable=False),
        sa.Column("balance_before", sa.BigInteger, nullable=False),
        sa.Column("balance_after", sa.BigInteger),
        sa.Column("created_at", sa.DateTime, nullable=False),
        sa.Column("updated_at", sa.DateTime, nullable=False),
    )
    op.create_index("rounds_player_status", "rounds", ["player_id", "status"])
    op.create_table(
        "transactions",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id")),
        sa.Column("round_id", sa.Integer, sa.ForeignKey("rounds.id")),
        sa.Column("idempotency_key", sa.String(128), unique=True),
        sa.Column("request", sa.Text),
        sa.Column("response", sa.Text),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    op.create_table(
        "ledger",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("transaction_id", sa.Integer, sa.ForeignKey("transactions.id"), nullable=False),
        sa.Column("account", sa.String(64), nullable=False),
        sa.Column("amount", sa.BigInteger, nullable=False),
        sa.Column("created_at", sa.DateTime, nullable=False),
    )
    op.create_index("ledger_account", "ledger", ["account"])


def downgrade() -> None:
    op.drop_table("ledger")
    op.drop_table("transactions")
    op.drop_table("rounds")
    op.drop_table("players")
