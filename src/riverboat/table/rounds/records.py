"""Round records in the database: events appended as rows, the record read back.

A round's stored truth is its rows in ``round_events``, one per event in its one JSON
form, numbered 0, 1, 2, ... and only ever added to, plus what the record holds
besides events, on the round's row: the record format and the rules (written once)
and the cards drawn (a list that only grows). :func:`load` rebuilds the record from
them, the same JSON :meth:`~riverboat.games.Round.record` gives (docs/round-record.md).

>>> from sqlalchemy.orm import Session
>>> from riverboat.games import find_game
>>> from riverboat.store import connect
>>> from riverboat.store.models import Player, RoundRow
>>> session = Session(connect("sqlite://"))
>>> session.add(Player(id=1, name="ann", failed_logins=0))
>>> row = RoundRow(player_id=1, game="tri-card", status="open", server_seed="s",
...                commitment="c", client_seed="x", nonce=0, balance_before=0)
>>> session.add(row)
>>> session.flush()
>>> game_round = find_game("tri-card").new_round()
>>> _ = game_round.place_wagers({"ante": 1000})
>>> game_round.deal()
>>> append(session, row, game_round)
2
>>> game_round.act("fold")
>>> append(session, row, game_round)   # the decision and the settlement
2
>>> load(row) == game_round.record()
True
>>> [event.kind for event in stored(session, row)]
['wagers', 'deal', 'decision', 'settle']

History reads the events of a page of rounds at once:

>>> rebuilt = stored_events(session, [row.id])
>>> build(row, rebuilt[row.id]) == game_round.record()
True
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from sqlalchemy import Update, bindparam, insert, select, update
from sqlalchemy.orm import Session, object_session
from sqlalchemy.orm.attributes import set_committed_value

from riverboat.games import GameRules, Round, RoundRecord
from riverboat.json_types import JsonObject
from riverboat.store import statements
from riverboat.store.models import RoundEvent, RoundRow

__all__ = ["RecordError", "append", "build", "load", "stored", "stored_events", "update_row"]

_ADD_EVENTS = insert(RoundEvent)
_UPDATES: dict[tuple[str, ...], Update] = {}


class RecordError(ValueError):
    """A round whose stored events and columns are not a record, or a round that does
    not carry on from what is stored."""


def append(
    session: Session,
    row: RoundRow,
    game_round: Round[GameRules],
    have: int | None = None,
    record: RoundRecord | None = None,
) -> int:
    """Store the round's events that are not stored yet (by ``seq``), and the cards it
    has drawn since; how many events were added. Nothing stored is changed: the
    events stored must be the first of the round's (same kind, same body), the rules
    and format are written with the first events, and the cards drawn must carry on
    from those stored; else :class:`RecordError` and nothing is added.

    ``game_round`` is a new round, or one rebuilt from :func:`load` (whose replay
    reproduces the stored events exactly) and played on. ``have``, if given, is how
    many events are stored, known to be the round's first (events are only added, so
    a round rebuilt from that many, or a new round's none): they are not read back.
    The row's columns are written as Core updates and set on ``row`` as stored.
    ``record``, if given, is ``game_round.record()`` as it is now, already built.
    """
    if record is None:
        record = game_round.record()
    events = record["events"]
    if have is None:
        have = _check_stored(session, row, events)
    elif have > len(events):
        raise RecordError(f"round {row.id} stores {have} events; the round has {len(events)}")
    rules = json.dumps(record["rules"])
    changed: dict[str, object] = {}
    if row.rules is None:
        changed.update(rules=rules, record_format=record["format"])
    elif (row.rules, row.record_format) != (rules, record["format"]):
        raise RecordError(f"round {row.id} was stored under other rules or another format")
    drawn = record["cards_drawn"]
    before = json.loads(row.cards_drawn or "[]")
    if drawn[: len(before)] != before:
        raise RecordError(f"round {row.id}'s cards drawn do not carry on from those stored")
    if row.cards_drawn is None or len(drawn) != len(before):
        changed["cards_drawn"] = json.dumps(drawn)
    added = [
        {"round_id": row.id, "seq": seq, "kind": event["kind"], "body": json.dumps(event)}
        for seq, event in enumerate(events[have:], start=have)
    ]
    if added:
        statements.write(session.connection(), _ADD_EVENTS, added)
    update_row(session, row, **changed)
    return len(added)


def update_row(session: Session, row: RoundRow, **values: object) -> None:
    """Write ``values`` to the round's columns (one Core statement, no flush) and set
    them on ``row`` as stored (an ORM row in the session is not written again)."""
    if not values:
        return
    names = tuple(sorted(values))
    statement = _UPDATES.get(names)
    if statement is None:  # built once for each set of columns
        settings: dict[str, object] = {name: bindparam(f"new_{name}") for name in names}
        statement = update(RoundRow).where(RoundRow.id == bindparam("round")).values(settings)
        _UPDATES[names] = statement
    parameters = {f"new_{name}": value for name, value in values.items()}
    statements.write(session.connection(), statement, {"round": row.id, **parameters})
    for name, value in values.items():
        set_committed_value(row, name, value)


def _check_stored(session: Session, row: RoundRow, events: Sequence[JsonObject]) -> int:
    """How many events the round stores, once checked to be the first of ``events``."""
    kept = stored(session, row)
    have = len(kept)
    if have > len(events):
        raise RecordError(f"round {row.id} stores {have} events; the round has {len(events)}")
    for seq, (row_event, event) in enumerate(zip(kept, events, strict=False)):
        if row_event.kind != event["kind"] or json.loads(row_event.body) != json.loads(
            json.dumps(event)
        ):
            raise RecordError(
                f"round {row.id} does not carry on from its stored events: event {seq} is "
                f"stored as {row_event.kind} {row_event.body}, the round has {json.dumps(event)}"
            )
    return have


def stored(session: Session, row: RoundRow) -> list[RoundEvent]:
    """The round's event rows, in order."""
    query = select(RoundEvent).where(RoundEvent.round_id == row.id).order_by(RoundEvent.seq)
    return list(session.scalars(query))


def stored_events(session: Session, round_ids: Sequence[int]) -> dict[int, list[RoundEvent]]:
    """The event rows of several rounds, in one query: by round, each in order."""
    found: dict[int, list[RoundEvent]] = {round_id: [] for round_id in round_ids}
    if round_ids:
        query = (
            select(RoundEvent)
            .where(RoundEvent.round_id.in_(round_ids))
            .order_by(RoundEvent.round_id, RoundEvent.seq)
        )
        for event in session.scalars(query):
            found[event.round_id].append(event)
    return found


def load(row: RoundRow, session: Session | None = None) -> RoundRecord:
    """The round's record rebuilt from its stored events and columns, as
    :meth:`~riverboat.games.Round.record` gave it; read in ``session``, else in the
    row's own. :class:`RecordError` (a ``ValueError``) if what is stored is not a
    record."""
    session = session or object_session(row)
    if session is None:
        raise RecordError(f"round {row.id} is not in a database session")
    return build(row, stored(session, row))


def build(row: RoundRow, rows: Sequence[RoundEvent]) -> RoundRecord:
    """The round's record from its columns and its event ``rows`` (in order), as
    :func:`load` gives it; :class:`RecordError` if they are not a record."""
    if row.rules is None or row.record_format is None or row.cards_drawn is None:
        raise RecordError(f"round {row.id} has no record stored")
    events: list[JsonObject] = []
    for seq, event in enumerate(rows):
        if event.seq != seq:
            raise RecordError(f"round {row.id} has no event {seq}")
        body = json.loads(event.body)
        if not isinstance(body, dict) or body.get("kind") != event.kind:
            raise RecordError(f"round {row.id}'s event {seq} is not a {event.kind} event")
        events.append(body)
    return {
        "format": row.record_format,
        "game": row.game,
        "rules": json.loads(row.rules),
        "cards_drawn": json.loads(row.cards_drawn),
        "events": events,
    }
