"""A player's next server seed, committed to before they choose a client seed: deals
owned by a player.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":  # in place, as in 0002
        op.execute("ALTER TABLE deals ADD COLUMN player_id INTEGER REFERENCES players (id)")
    else:
        op.add_column(
            "deals",
            sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id", name="deals_player")),
        )
    # a player's seeds and shoe are looked up on every round; a deal's rounds likewise
    op.create_index("deals_player_game", "deals", ["player_id", "game"])
    op.create_index("rounds_deal", "rounds", ["deal_id"])


def downgrade() -> None:
    op.drop_index("rounds_deal", "rounds")
    op.drop_index("deals_player_game", "deals")
    op.drop_column("deals", "player_id")
