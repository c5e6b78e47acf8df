"""A round's events as rows only ever added to (``round_events``), and what its record
holds besides events as columns of the round; every stored record is carried over and
the ``rounds.record`` column, rewritten on every action, is gone.

Revision ID: 0004
Revises: 0003
"""

import json
from collections.abc import Iterator
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

#: rounds carried over per statement
BATCH = 500

rounds = sa.table(
    "rounds",
    sa.column("id", sa.Integer),
    sa.column("game", sa.String),
    sa.column("record", sa.Text),
    sa.column("record_format", sa.Integer),
    sa.column("rules", sa.Text),
    sa.column("cards_drawn", sa.Text),
)
events = sa.table(
    "round_events",
    sa.column("round_id", sa.Integer),
    sa.column("seq", sa.Integer),
    sa.column("kind", sa.String),
    sa.column("body", sa.Text),
)


def _batches(*columns: Any) -> Iterator[list[tuple[Any, ...]]]:
    """The rounds' ``columns`` (id first), a batch at a time, in order of id."""
    bind = op.get_bind()
    last = None
    while True:
        query = sa.select(*columns).order_by(rounds.c.id).limit(BATCH)
        if last is not None:
            query = query.where(rounds.c.id > last)
        batch = [tuple(row) for row in bind.execute(query)]
        if not batch:
            return
        yield batch
        last = batch[-1][0]


def upgrade() -> None:
    op.create_table(
        "round_events",
        sa.Column("round_id", sa.Integer, sa.ForeignKey("rounds.id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("body", sa.Text, nullable=False),
    )
    op.add_column("rounds", sa.Column("record_format", sa.Integer))
    op.add_column("rounds", sa.Column("rules", sa.Text))
    op.add_column("rounds", sa.Column("cards_drawn", sa.Text))
    bind = op.get_bind()
    for batch in _batches(rounds.c.id, rounds.c.record):
        rows = []
        for round_id, text in batch:
            try:
                record = json.loads(text)
                fields = record["format"], record["rules"], record["cards_drawn"]
                stored = record["events"]
                kinds = [event["kind"] for event in stored]
            except (ValueError, TypeError, KeyError):
                raise RuntimeError(
                    f"round {round_id}'s record is not a round record, so it cannot be"
                    " carried over: repair it, then upgrade"
                ) from None
            bind.execute(
                rounds.update()
                .where(rounds.c.id == round_id)
                .values(
                    record_format=fields[0],
                    rules=json.dumps(fields[1]),
                    cards_drawn=json.dumps(fields[2]),
                )
            )
            rows += [
                {"round_id": round_id, "seq": seq, "kind": kind, "body": json.dumps(event)}
                for seq, (kind, event) in enumerate(zip(kinds, stored, strict=True))
            ]
        if rows:
            bind.execute(events.insert(), rows)
    # SQLite drops a column in place (3.35+); copying the table, as a batch alteration
    # would, cannot drop the old one while transactions refer to its rounds (see 0002)
    if bind.dialect.name == "sqlite":
        op.execute("ALTER TABLE rounds DROP COLUMN record")
    else:
        op.drop_column("rounds", "record")


def downgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name == "sqlite":  # in place; NOT NULL needs a default there
        op.execute("ALTER TABLE rounds ADD COLUMN record TEXT NOT NULL DEFAULT '{}'")
    else:
        op.add_column("rounds", sa.Column("record", sa.Text))
    columns = (rounds.c.id, rounds.c.game, rounds.c.record_format, rounds.c.rules)
    for batch in _batches(*columns, rounds.c.cards_drawn):
        for round_id, game, record_format, rules, cards_drawn in batch:
            bodies = bind.scalars(
                sa.select(events.c.body).where(events.c.round_id == round_id).order_by(events.c.seq)
            )
            record = {
                "format": record_format,
                "game": game,
                "rules": json.loads(rules or "{}"),
                "cards_drawn": json.loads(cards_drawn or "[]"),
                "events": [json.loads(body) for body in bodies],
            }
            bind.execute(
                rounds.update().where(rounds.c.id == round_id).values(record=json.dumps(record))
            )
    if bind.dialect.name != "sqlite":
        op.alter_column("rounds", "record", nullable=False)
    for column in ("cards_drawn", "rules", "record_format"):
        if bind.dialect.name == "sqlite":
            op.execute(f"ALTER TABLE rounds DROP COLUMN {column}")
        else:
            op.drop_column("rounds", column)
    op.drop_table("round_events")
