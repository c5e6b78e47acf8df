"""The back office: a player may be an operator (granted from the command line) or
locked (by an operator), and every operator action is a row of an append-only log.

Revision ID: 0013_operators
Revises: 0012_username_profile
"""

import sqlalchemy as sa
from alembic import op

revision = "0013_operators"
down_revision = "0012_username_profile"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # columns added in place (a batch would copy the table, which the rounds and the
    # ledger refer to)
    for column in ("operator", "locked"):
        op.add_column(
            "players", sa.Column(column, sa.Boolean(), nullable=False, server_default=sa.false())
        )
    op.create_table(
        "operator_actions",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.Column("operator_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=True),
        sa.Column("by", sa.String(64), nullable=False),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("player_id", sa.Integer(), sa.ForeignKey("players.id"), nullable=True),
        sa.Column(
            "transaction_id", sa.Integer(), sa.ForeignKey("transactions.id"), nullable=True
        ),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("detail", sa.Text(), nullable=True),
    )
    op.create_index("operator_actions_player", "operator_actions", ["player_id", "id"])
    op.create_index("operator_actions_transaction", "operator_actions", ["transaction_id"])


def downgrade() -> None:
    op.drop_index("operator_actions_transaction", "operator_actions")
    op.drop_index("operator_actions_player", "operator_actions")
    op.drop_table("operator_actions")
    op.drop_column("players", "locked")
    op.drop_column("players", "operator")
