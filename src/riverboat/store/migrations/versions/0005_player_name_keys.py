"""Each player's name key (what the name reads as: NFKC, case-folded, ASCII look-alikes
folded), unique, so no new name can look like one already taken.

Existing names keep their keys in order of age, the local player's first; a name whose
key an older name (or a reserved word) already has gets none, and still logs in by its
exact name. The fold is written out here, as it was when this revision was made.

Revision ID: 0005_name_key
Revises: 0004
"""

import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "0005_name_key"
down_revision = "0004"
branch_labels = None
depends_on = None

RESERVED = (
    "local",
    "admin",
    "administrator",
    "root",
    "system",
    "house",
    "dealer",
    "banker",
    "player",
    "riverboat",
    "moderator",
    "support",
)
LONGEST = 200

players = sa.table(
    "players",
    sa.column("id", sa.Integer),
    sa.column("name", sa.String),
    sa.column("name_key", sa.String),
)


def _key(name: str) -> str:
    key = unicodedata.normalize("NFKC", name).casefold()
    key = key.translate(str.maketrans("01i|", "olll"))
    return key.replace("rn", "m").replace("vv", "w")


def upgrade() -> None:
    op.add_column("players", sa.Column("name_key", sa.String(LONGEST)))
    bind = op.get_bind()
    rows = sorted(
        bind.execute(sa.select(players.c.id, players.c.name)),
        key=lambda row: (row.name != "local", row.id),
    )
    taken = {_key(word) for word in RESERVED if word != "local"}
    for player_id, name in rows:
        key = _key(name)
        if key in taken or len(key) > LONGEST or (key == "local" and name != "local"):
            continue
        taken.add(key)
        bind.execute(players.update().where(players.c.id == player_id).values(name_key=key))
    op.create_index("players_name_key_unique", "players", ["name_key"], unique=True)


def downgrade() -> None:
    op.drop_index("players_name_key_unique", "players")
    if op.get_bind().dialect.name == "sqlite":  # in place, as 0004 drops its column
        op.execute("ALTER TABLE players DROP COLUMN name_key")
    else:
        op.drop_column("players", "name_key")
