"""Round records as events only ever added to: a database from every earlier schema
upgrades with each round's record intact, the service only appends, and a stored
event altered afterwards is caught by the audit; on SQLite and on PostgreSQL."""

import json
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import Engine, inspect, select, text, update
from sqlalchemy.orm import Session, object_session

from riverboat.deck import Deck, Shoe
from riverboat.errors import NotFound
from riverboat.games import Round, find_game, replay
from riverboat.games.codec import to_json
from riverboat.rng import FairSource
from riverboat.store import MIGRATIONS, connect, migrate
from riverboat.store.models import RoundEvent, RoundRow
from riverboat.table.rounds import records
from riverboat.table.rounds.rows import owned, resume
from riverboat.table.service import TableService

PLAYER = 7
WHEN = "2026-01-01"


def _downgrade(engine: Engine, revision: str) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, revision)


class OldDatabase:
    """Rounds written as a release at ``revision`` wrote them: the record as one JSON
    text in ``rounds.record``, the money in the ledger."""

    def __init__(self, engine: Engine, revision: str) -> None:
        self.engine, self.revision = engine, revision
        self.next_id = 1
        self.records: dict[int, str] = {}
        self._run(
            "INSERT INTO players (id, name, failed_logins, created_at)"
            " VALUES (:id, 'ann', 0, :when)",
            id=PLAYER,
        )
        self._money(None, [(f"player:{PLAYER}", 1_000_000), ("house", -1_000_000)], "credit")

    def _run(self, statement: str, **values: Any) -> None:
        with self.engine.begin() as connection:
            connection.execute(text(statement), {"when": WHEN, **values})

    def _money(self, round_id: int | None, entries: list[tuple[str, int]], kind: str) -> None:
        txn = self.next_id
        self.next_id += 1
        self._run(
            "INSERT INTO transactions (id, kind, player_id, round_id, created_at)"
            " VALUES (:id, :kind, :player, :round, :when)",
            id=txn,
            kind=kind,
            player=PLAYER,
            round=round_id,
        )
        for account, amount in entries:
            self._run(
                "INSERT INTO ledger (transaction_id, account, amount, created_at)"
                " VALUES (:txn, :account, :amount, :when)",
                txn=txn,
                account=account,
                amount=amount,
            )

    def play(
        self,
        game: str,
        wagers: dict[str, int],
        action: str | None = None,
        second: dict[str, int] | None = None,
        void: bool = False,
        own_shoe: bool = False,
    ) -> int:
        """A round of ``game`` as the service of that release stored it."""
        round_id = self.next_id
        self.next_id += 1
        game_round: Round[Any] = find_game(game).new_round()
        game_round.place_wagers(wagers)
        if second is not None:
            game_round.place_wagers(second, blind=True)
        rules = to_json(game_round.rules)
        source = FairSource.new(f"client-{round_id}", 0 if own_shoe else round_id)
        deal_id = places = None
        if own_shoe:  # a coup of the player's own shoe (0002 on; 0003 names the player)
            shoe = Shoe(rules["decks"], rules["cut_card_from_end"], source)
            places = list(range(len(shoe.burned), len(shoe.burned) + 6))
            game_round.deal(Deck.stacked(shoe.order[place] for place in places))
            places = places[: len(game_round.drawn)]
            deal_id = round_id
            owner = ", player_id" if self.revision >= "0003" else ""
            self._run(
                "INSERT INTO deals (id, game, rules, server_seed, commitment, client_seed,"
                f" revealed, created_at{owner}) VALUES (:id, :game, :rules, :seed,"
                f" :commitment, :client, false, :when{', :player' if owner else ''})",
                id=deal_id,
                game=game,
                rules=json.dumps(rules),
                seed=source.server_seed,
                commitment=source.commitment,
                client=source.client_seed,
                player=PLAYER,
            )
        elif game == "baccarat":
            game_round.deal(Shoe(rules["decks"], rules["cut_card_from_end"], source))
        else:
            game_round.deal(Deck(source))
        if void:
            game_round.void("interrupted before the first decision")
        elif action is not None:
            game_round.act(action)
        status = {"settled": "settled", "void": "void"}.get(game_round.phase.value, "open")
        record = json.dumps(game_round.record())
        shared = ", deal_id, deal_cards" if self.revision >= "0002" else ""
        self._run(
            "INSERT INTO rounds (id, player_id, game, status, server_seed, commitment,"
            f" client_seed, nonce, record, balance_before, created_at, updated_at{shared})"
            " VALUES (:id, :player, :game, :status, :seed, :commitment, :client, :nonce,"
            f" :record, 0, :when, :when{', :deal, :places' if shared else ''})",
            id=round_id,
            player=PLAYER,
            game=game,
            status=status,
            seed=source.server_seed,
            commitment=source.commitment,
            client=source.client_seed,
            nonce=source.nonce,
            record=record,
            deal=deal_id,
            places=json.dumps(places) if places is not None else None,
        )
        staked = sum(p.staked for p in game_round.positions)
        me, held = f"player:{PLAYER}", f"round:{round_id}"
        self._money(round_id, [(me, -staked), (held, staked)], "wager")
        if status != "open":
            net = game_round.net() if status == "settled" else 0
            self._money(round_id, [(held, -staked), (me, staked + net), ("house", -net)], status)
        self.records[round_id] = record
        return round_id

    def done(self) -> None:
        """PostgreSQL's id sequences moved past the ids given here."""
        if self.engine.dialect.name == "postgresql":
            tables = ["players", "rounds", "transactions"]
            for table in tables + (["deals"] if self.revision >= "0002" else []):
                self._run(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                    f" (SELECT coalesce(max(id), 0) + 1 FROM {table}), false)"
                )


def _old_database(url: str, revision: str) -> tuple[Engine, dict[int, str]]:
    engine = connect(url, revision=revision)
    old = OldDatabase(engine, revision)
    old.play("rabbit-hunter", {"ante": 500, "bonus": 500}, "buy")  # a card after a decision
    old.play("tri-card", {"ante": 1000, "pair_plus": 500}, "raise")
    old.play("tri-card", {"ante": 1000})  # still open
    old.play("tri-card", {"ante": 1000}, void=True)
    crazy4 = {"ante": 500, "super_bonus": 500}
    old.play("crazy4", crazy4, "play", second=crazy4)  # and its blind second position
    old.play("baccarat", {"banker": 1000, "tie": 500})  # a coup: cards in drawing order
    if revision >= "0002":
        old.play("baccarat", {"player": 1000}, own_shoe=True)
    old.done()
    return engine, old.records


@pytest.mark.parametrize("revision", ["0001", "0002", "0003"])
def test_rounds_of_every_earlier_schema_upgrade_with_their_records(
    database_url: str, revision: str
) -> None:
    engine, before = _old_database(database_url, revision)
    migrate(engine)
    assert "record" not in {c["name"] for c in inspect(engine).get_columns("rounds")}
    with Session(engine) as session:
        rows = session.scalars(select(RoundRow).order_by(RoundRow.id)).all()
        assert [row.id for row in rows] == list(before)
        for row in rows:
            record = records.load(row)
            assert json.dumps(record) == before[row.id]  # the same JSON, key for key
            assert replay(record).record() == record
            seqs = [event.seq for event in records.stored(session, row)]
            assert seqs == list(range(len(record["events"])))
    engine.dispose()
    service = TableService(database_url)
    assert service.audit() == []
    history = service.history(PLAYER, limit=100)
    # history gives typed exports: the record as the JSON it was stored as
    finished = {h.id: h.model_dump(mode="json")["record"] for h in history if h.status != "open"}
    assert {i: json.dumps(r) for i, r in finished.items()} == {
        i: text for i, text in before.items() if i in finished
    }
    open_round = next(h.id for h in history if h.status == "open")
    assert service.act(PLAYER, open_round, "fold").status == "settled"  # plays on
    assert service.audit() == []
    service.engine.dispose()


def test_the_downgrade_puts_every_record_back(database_url: str) -> None:
    engine, before = _old_database(database_url, "0003")
    migrate(engine)
    _downgrade(engine, "0003")
    assert "round_events" not in inspect(engine).get_table_names()
    with engine.connect() as connection:
        after = dict(connection.execute(text("SELECT id, record FROM rounds")).all())
    assert after == before
    migrate(engine)  # and up again
    with Session(engine) as session:
        rows = session.scalars(select(RoundRow)).all()
        assert {row.id: json.dumps(records.load(row)) for row in rows} == before
    engine.dispose()


def _stored(service: TableService, round_id: int) -> list[tuple[int, str, str]]:
    with Session(service.engine) as session:
        query = select(RoundEvent).where(RoundEvent.round_id == round_id)
        return [(e.seq, e.kind, e.body) for e in session.scalars(query.order_by(RoundEvent.seq))]


def _record(service: TableService, round_id: int) -> dict[str, Any]:
    with Session(service.engine) as session:
        row = session.get(RoundRow, round_id)
        assert row is not None
        return records.load(row)


def test_a_round_s_events_are_only_appended(database_url: str) -> None:
    service = TableService(database_url)
    me = service.local_player()
    plays = [
        ("rabbit-hunter", {"ante": 500, "bonus": 500}, None, "buy"),
        ("crazy4", {"ante": 500, "super_bonus": 500}, {"ante": 500, "super_bonus": 500}, "play"),
        ("tri-card", {"ante": 500}, None, "raise"),
    ]
    for game, wagers, second, action in plays:
        view = service.start_round(me, game, wagers, second=second)
        first = _stored(service, view.id)
        drawn = _record(service, view.id)["cards_drawn"]
        service.act(me, view.id, action)
        after = _stored(service, view.id)
        assert after[: len(first)] == first  # nothing stored changed
        assert len(after) > len(first)
        assert [seq for seq, *_ in after] == list(range(len(after)))
        record = _record(service, view.id)
        assert record["cards_drawn"][: len(drawn)] == drawn
        assert [kind for _, kind, _ in after] == [e["kind"] for e in record["events"]]
        assert [json.loads(body) for *_, body in after] == record["events"]
        assert replay(record).record() == record
    rabbit = _record(service, 1)
    assert [e["kind"] for e in rabbit["events"]][-2:] == ["draw", "settle"]

    open_round = service.start_round(me, "tri-card", {"ante": 500}).id
    first = _stored(service, open_round)
    assert service.recover() == [open_round]  # a void is appended too
    after = _stored(service, open_round)
    assert after[: len(first)] == first
    assert after[-1][1] == "void"
    assert service.audit() == []

    with Session(service.engine) as session:
        event = session.get(RoundEvent, (open_round, 0))
        assert event is not None
        event.body = "{}"
        with pytest.raises(ValueError, match="only added"):
            session.flush()
    service.engine.dispose()


@pytest.mark.parametrize(
    "tamper",
    [
        ("wagers", lambda e: {**e, "wagers": {**e["wagers"], "ante": e["wagers"]["ante"] * 2}}),
        ("deal", lambda e: {**e, "cards": {**e["cards"], "player": [0, 1, 2]}}),
        ("decision", lambda e: {**e, "action": "fold", "amount": 0}),
        ("settle", lambda e: {**e, "results": [{**e["results"][0], "ante": 99999}]}),
        ("settle", lambda e: {**e, "kind": "void", "reason": "?"}),
    ],
    ids=["wager", "deal", "decision", "settlement", "kind"],
)
def test_a_tampered_event_is_caught_by_the_audit(database_url: str, tamper: Any) -> None:
    service = TableService(database_url)
    me = service.local_player()
    round_id = service.start_round(me, "tri-card", {"ante": 1000, "pair_plus": 500}).id
    service.act(me, round_id, "raise")
    service.start_round(me, "tri-card", {"ante": 1000})  # another round, left alone
    assert service.audit() == []
    kind, change = tamper
    seq, _, body = next(e for e in _stored(service, round_id) if e[1] == kind)
    with service.engine.begin() as connection:  # behind the service's back
        connection.execute(
            update(RoundEvent)
            .where(RoundEvent.round_id == round_id, RoundEvent.seq == seq)
            .values(body=json.dumps(change(json.loads(body))))
        )
    problems = service.audit()
    assert problems
    assert all(p.startswith(f"round {round_id}:") for p in problems)
    service.engine.dispose()


def test_a_round_that_does_not_carry_on_from_its_stored_events_is_refused(
    database_url: str,
) -> None:
    engine = connect(database_url)
    migrate(engine)
    with Session(engine) as session:
        session.execute(
            text(
                "INSERT INTO players (id, name, failed_logins, created_at)"
                " VALUES (:id, 'ann', 0, :when)"
            ),
            {"id": PLAYER, "when": WHEN},
        )
        row = RoundRow(
            player_id=PLAYER, game="tri-card", status="open", server_seed="s",
            commitment="c", client_seed="x", nonce=0, balance_before=0,
        )  # fmt: skip
        session.add(row)
        session.flush()
        stored_round = find_game("tri-card").new_round()
        stored_round.place_wagers({"ante": 1000})
        stored_round.deal(Deck.stacked(range(6)))
        assert records.append(session, row, stored_round) == 2
        other = find_game("tri-card").new_round()  # as many events, other wagers
        other.place_wagers({"ante": 500})
        other.deal(Deck.stacked(range(6)))
        other.act("fold")
        with pytest.raises(records.RecordError, match="event 0 is stored as wagers"):
            records.append(session, row, other)
        assert [e.kind for e in records.stored(session, row)] == ["wagers", "deal"]
        stored_round.act("fold")  # the stored round, played on: appended
        assert records.append(session, row, stored_round) == 2
    engine.dispose()


def test_a_round_read_by_owned_is_the_stored_row_and_rebuilds_in_the_session_given(
    database_url: str,
) -> None:
    service = TableService(database_url)
    me = service.local_player()
    view = service.start_round(me, "tri-card", {"ante": 500})
    with Session(service.engine) as session:
        row = owned(session, me, view.id)
        assert object_session(row) is None  # read as Core, outside the session
        loaded = session.get(RoundRow, view.id)
        assert loaded is not None
        columns = [column.key for column in inspect(RoundRow).columns]
        assert [getattr(row, key) for key in columns] == [getattr(loaded, key) for key in columns]
        assert records.load(row, session) == records.load(loaded)
        assert resume(row, session).record() == records.load(loaded)
        with pytest.raises(records.RecordError, match="not in a database session"):
            records.load(row)
        with pytest.raises(NotFound):
            owned(session, me + 1, view.id)  # another's round is not found
    service.engine.dispose()
