"""On each player's row a running balance and a count of the rounds dealt them; on a
round's row a column for its outcome; idempotency keys scoped to their player; and the
indexes history pages and the audit read by. The balances are the sums of the
players' entries, the counts their rounds, in SQL alone.

The outcomes of rounds finished before this revision are left empty: working them out
takes the games' replay, which is the application's and changes with it, while a
migration must do the same thing whenever it runs. History replays a finished round
whose outcome is empty, as it did before this revision.

Revision ID: 0006_running_balance
Revises: 0005_name_key
"""

import sqlalchemy as sa
from alembic import op

revision = "0006_running_balance"
down_revision = "0005_name_key"
branch_labels = None
depends_on = None

players = sa.table(
    "players",
    sa.column("id", sa.Integer),
    sa.column("balance", sa.BigInteger),
    sa.column("rounds_dealt", sa.Integer),
)
ledger = sa.table("ledger", sa.column("account", sa.String), sa.column("amount", sa.BigInteger))
transactions = sa.table(
    "transactions",
    sa.column("idempotency_key", sa.String),
    sa.column("request_key", sa.String),
)
rounds = sa.table("rounds", sa.column("id", sa.Integer), sa.column("player_id", sa.Integer))


def upgrade() -> None:
    bind = op.get_bind()
    op.add_column(
        "players", sa.Column("balance", sa.BigInteger, nullable=False, server_default="0")
    )
    sums = bind.execute(
        sa.select(ledger.c.account, sa.func.sum(ledger.c.amount))
        .where(ledger.c.account.like("player:%"))
        .group_by(ledger.c.account)
    ).all()
    for account, total in sums:
        player_id = int(account.removeprefix("player:"))
        bind.execute(players.update().where(players.c.id == player_id).values(balance=total))

    op.add_column(
        "players", sa.Column("rounds_dealt", sa.Integer, nullable=False, server_default="0")
    )
    counts = bind.execute(
        sa.select(rounds.c.player_id, sa.func.count()).group_by(rounds.c.player_id)
    ).all()
    for player_id, count in counts:
        bind.execute(players.update().where(players.c.id == player_id).values(rounds_dealt=count))

    op.add_column("transactions", sa.Column("request_key", sa.String(128)))
    bind.execute(
        transactions.update()
        .where(transactions.c.idempotency_key.is_not(None))
        .values(request_key=transactions.c.idempotency_key, idempotency_key=None)
    )
    op.create_index(
        "transactions_player_key", "transactions", ["player_id", "request_key"], unique=True
    )
    op.create_index("transactions_round", "transactions", ["round_id"])
    op.create_index("rounds_player", "rounds", ["player_id", "id"])
    op.create_index("rounds_player_commitment", "rounds", ["player_id", "commitment", "id"])

    op.add_column("rounds", sa.Column("result", sa.Text))  # left empty: see the docstring


def downgrade() -> None:
    bind = op.get_bind()
    shared = bind.execute(
        sa.select(transactions.c.request_key)
        .where(transactions.c.request_key.is_not(None))
        .group_by(transactions.c.request_key)
        .having(sa.func.count() > 1)
    ).first()
    if shared is not None:
        raise RuntimeError(
            f"idempotency key {shared[0]!r} is used by more than one player; keys were "
            "unique across players before this revision: remove the older uses, then downgrade"
        )
    bind.execute(
        transactions.update()
        .where(transactions.c.request_key.is_not(None))
        .values(idempotency_key=transactions.c.request_key)
    )
    for index, table in (
        ("rounds_player_commitment", "rounds"),
        ("rounds_player", "rounds"),
        ("transactions_round", "transactions"),
        ("transactions_player_key", "transactions"),
    ):
        op.drop_index(index, table_name=table)
    # in place on SQLite (3.35+): copying a table others refer to cannot drop it (see 0004)
    dropped = (
        ("rounds", "result"),
        ("transactions", "request_key"),
        ("players", "rounds_dealt"),
        ("players", "balance"),
    )
    for table, column in dropped:
        if bind.dialect.name == "sqlite":
            op.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
        else:
            op.drop_column(table, column)
