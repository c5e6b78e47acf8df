"""The indexes a player's credits page reads by (riverboat.table.accounts.credits): their
transactions by kind, newest first, and the one entry of their own account in each.
The ledger's index by account becomes one by account and transaction, which still
serves every read by account (its first column), so a write keeps as many indexes to
update on the ledger as before.

Revision ID: 0010_credit_indexes
Revises: 0009_shared_table_state
"""

from alembic import op

revision = "0010_credit_indexes"
down_revision = "0009_shared_table_state"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("transactions_player_kind", "transactions", ["player_id", "kind", "id"])
    op.create_index("ledger_account_transaction", "ledger", ["account", "transaction_id"])
    op.drop_index("ledger_account", table_name="ledger")


def downgrade() -> None:
    op.create_index("ledger_account", "ledger", ["account"])
    op.drop_index("ledger_account_transaction", table_name="ledger")
    op.drop_index("transactions_player_kind", table_name="transactions")
