"""Pre-built Core statements run on the driver's cursor (sqlite3's, psycopg's) store,
read and refuse exactly what SQLAlchemy's own execution does, commit with
SQLAlchemy's commit, and on PostgreSQL lose a connection as SQLAlchemy does: it is
invalidated and replaced (riverboat.store.statements)."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import Connection, bindparam, create_engine, func, insert, select, text, update
from sqlalchemy.exc import DBAPIError, IntegrityError

from riverboat.store import connect, statements, writer
from riverboat.store.models import Deal, KeptState, LedgerEntry, Player, RoundRow, Transaction

_ROUND = {
    "player_id": 1,
    "game": "tri-card",
    "status": "open",
    "server_seed": "s",
    "commitment": "c",
    "client_seed": "x",
    "nonce": 0,
    "balance_before": 500,
}


def _stored(connection: Connection, table: str, key: int) -> list[Any]:
    """The row as the database holds it, each column's value and its storage type."""
    found = connection.exec_driver_sql(f"SELECT * FROM {table} WHERE id = {key}").first()
    assert found is not None
    return list(found)


def test_rows_are_stored_as_sqlalchemy_stores_them(database_url: str) -> None:
    engine = connect(database_url)
    at = datetime(2026, 1, 2, 3, 4, 5, 678901, tzinfo=UTC)
    with writer(engine).begin() as connection:
        connection.execute(insert(Player), {"id": 1, "name": "ann", "failed_logins": 0})
        values = {**_ROUND, "created_at": at, "updated_at": at}
        ours = statements.insert(connection, insert(RoundRow), values)
        theirs = connection.execute(insert(RoundRow), values).inserted_primary_key
        assert theirs is not None
        assert ours + 1 == theirs[0]
        assert (
            _stored(connection, "rounds", ours)[1:] == _stored(connection, "rounds", ours + 1)[1:]
        )
        # a default filled in on the client (created_at) and an onupdate (updated_at)
        txn = statements.insert(connection, insert(Transaction), {"kind": "k", "player_id": 1})
        made = connection.execute(select(Transaction.created_at).where(Transaction.id == txn))
        assert made.scalar_one() is not None
        change = update(RoundRow).where(RoundRow.id == bindparam("round"))
        statements.write(
            connection, change.values(status=bindparam("to")), {"round": ours, "to": "void"}
        )
        status, updated = connection.execute(
            select(RoundRow.status, RoundRow.updated_at).where(RoundRow.id == ours)
        ).one()
        assert status == "void"
        assert updated.replace(tzinfo=UTC) > at


def test_many_rows_in_one_statement_each_get_their_default(database_url: str) -> None:
    engine = connect(database_url)
    with writer(engine).begin() as connection:
        txn = statements.insert(connection, insert(Transaction), {"kind": "k", "player_id": None})
        rows = [{"transaction_id": txn, "account": f"a{n}", "amount": n} for n in (5, -5)]
        statements.write(connection, insert(LedgerEntry), rows)
        statements.write(connection, insert(LedgerEntry), [])  # nothing to run
        found = connection.execute(
            select(LedgerEntry.account, LedgerEntry.amount, LedgerEntry.created_at).order_by(
                LedgerEntry.id
            )
        ).all()
        assert [(account, amount) for account, amount, _ in found] == [("a5", 5), ("a-5", -5)]
        assert all(created is not None for *_, created in found)


def test_rows_read_with_bound_literals_and_typed_results(database_url: str) -> None:
    engine = connect(database_url)
    with writer(engine).begin() as connection:
        connection.execute(insert(Player), {"id": 1, "name": "ann", "failed_logins": 0})
        for revealed in (False, True):
            connection.execute(
                insert(Deal),
                {"game": "g", "rules": "{}", "server_seed": "s", "commitment": "c",
                 "revealed": revealed, "player_id": 1},
            )  # fmt: skip
        query = select(Deal.id, Deal.revealed).where(
            Deal.player_id == bindparam("player"), Deal.game == "g"
        )
        found = statements.rows(connection, query.order_by(Deal.id), {"player": 1})
        assert [revealed for _, revealed in found] == [False, True]  # bools, as SQLAlchemy gives
        assert all(type(revealed) is bool for _, revealed in found)
        bumped = update(Player).where(Player.id == bindparam("player"))
        statements.write(
            connection, bumped.values(rounds_dealt=Player.rounds_dealt + 1), {"player": 1}
        )
        assert statements.rows(connection, select(Player.rounds_dealt), {}) == [(1,)]
        assert statements.rows(connection, query, {"player": 2}) == []


def test_a_refused_statement_raises_sqlalchemys_error(database_url: str) -> None:
    engine = connect(database_url)
    with writer(engine).connect() as connection, connection.begin():
        row = {"key": "k", "count": 0, "expires": 1.0}
        statements.write(connection, insert(KeptState), row)
        with pytest.raises(IntegrityError), connection.begin_nested():
            statements.write(connection, insert(KeptState), row)
        with pytest.raises(IntegrityError), connection.begin_nested():
            statements.write(connection, insert(KeptState), [row])
        assert connection.execute(text("SELECT count(*) FROM kept_state")).scalar() == 1


def test_a_connection_not_yet_begun_commits_what_ran_on_the_driver(database_url: str) -> None:
    engine = connect(database_url)
    row = {"key": "k", "count": 0, "expires": 1.0}
    with engine.connect() as connection:  # nothing run through SQLAlchemy: not begun
        statements.write(connection, insert(KeptState), {**row, "key": "undone"})
        connection.rollback()
        statements.write(connection, insert(KeptState), row)
        connection.commit()
    with engine.connect() as connection:
        assert statements.rows(connection, select(KeptState.key), {}) == [("k",)]
    engine.dispose()


def test_a_lost_postgresql_connection_is_invalidated_and_replaced(postgres_url: str) -> None:
    engine = connect(postgres_url)
    backend = select(func.pg_backend_pid())
    with engine.connect() as connection:
        pid = statements.rows(connection, backend, {})[0][0]
        with engine.connect() as other:  # back in the pool, used a moment ago: not pinged
            idle = other.execute(backend).scalar_one()
            other.execute(select(func.pg_terminate_backend(pid)))
        with pytest.raises(DBAPIError) as lost:
            statements.rows(connection, select(KeptState.key), {})
        assert lost.value.connection_invalidated  # riverboat: "the database did not answer"
        assert connection.invalidated
    with engine.connect() as connection:  # the pool's connections were replaced, all of them
        assert statements.rows(connection, backend, {})[0][0] not in (pid, idle)
    engine.dispose()


def test_a_write_on_an_engine_that_sends_nothing_held_runs_at_once(postgres_url: str) -> None:
    connect(postgres_url).dispose()  # migrated
    plain = create_engine(postgres_url)  # not riverboat.store's: no held writes sent
    with plain.begin() as connection:
        statements.write(connection, insert(KeptState), {"key": "k", "expires": 1.0})
    with plain.connect() as connection:
        assert connection.execute(select(KeptState.key)).scalars().all() == ["k"]
    plain.dispose()


# ------------------------------------------------------------------ reads sent ahead
_BALANCE = select(Player.balance).where(Player.id == bindparam("player"))
_LOCKED = _BALANCE.with_for_update()
_PLAYER = {"id": 1, "name": "ann", "failed_logins": 0, "balance": 500}


def test_reads_sent_ahead_are_what_they_would_have_read(database_url: str) -> None:
    """Each read sent with an INSERT is handed out once; a write before it is asked for
    drops it (the read then runs, and sees the write), as does the transaction's end."""
    engine = connect(database_url)
    with writer(engine).begin() as connection:
        connection.execute(insert(Player), _PLAYER)
    raise_to = update(Player).where(Player.id == bindparam("player")).values(balance=700)
    with writer(engine).begin() as connection:
        ahead = [(_LOCKED, {"player": 1}), (_BALANCE, {"player": 1})]
        statements.insert(connection, insert(Transaction), {"kind": "k", "player_id": 1}, ahead)
        assert statements.rows(connection, _LOCKED, {"player": 1}) == [(500,)]
        statements.write(connection, raise_to, {"player": 1})
        assert statements.rows(connection, _BALANCE, {"player": 1}) == [(700,)]
        assert connection.connection.info.get(statements.AHEAD) is None
    with writer(engine).begin() as connection:  # left unasked, then the transaction ends
        ahead = [(_BALANCE, {"player": 1})]
        statements.insert(connection, insert(Transaction), {"kind": "k", "player_id": 1}, ahead)
    with writer(engine).begin() as connection:
        assert connection.connection.info.get(statements.AHEAD) is None
        connection.execute(update(Player).values(balance=900))
        assert statements.rows(connection, _BALANCE, {"player": 1}) == [(900,)]
    engine.dispose()


def test_any_other_statement_drops_the_reads_sent_ahead(postgres_url: str) -> None:
    """A statement of SQLAlchemy's, a read not sent ahead and a SAVEPOINT each drop
    them (a SELECT may take a lock, a SAVEPOINT's rollback gives locks back); a read
    sent ahead with other parameters is another read; inside a SAVEPOINT nothing is
    sent ahead."""
    engine = connect(postgres_url)
    with writer(engine).begin() as connection:
        connection.execute(insert(Player), _PLAYER)
        connection.execute(insert(Player), {**_PLAYER, "id": 2, "name": "bob", "balance": 300})
    txn = {"kind": "k", "player_id": 1}
    info = statements.AHEAD
    with writer(engine).begin() as connection:
        ahead = [(_BALANCE, {"player": 1}), (_LOCKED, {"player": 1})]
        statements.insert(connection, insert(Transaction), txn, ahead)
        assert set(connection.connection.info[info]) == {
            statements._read_key(*read) for read in ahead
        }
        assert statements.rows(connection, _BALANCE, {"player": 1}) == [(500,)]  # handed out
        assert len(connection.connection.info[info]) == 1
        connection.execute(select(Player.name))  # SQLAlchemy's
        assert info not in connection.connection.info
    with writer(engine).begin() as connection:
        statements.insert(connection, insert(Transaction), txn, [(_BALANCE, {"player": 1})])
        assert statements.rows(connection, _BALANCE, {"player": 2}) == [(300,)]  # bob's
        assert info not in connection.connection.info
    with writer(engine).begin() as connection:
        statements.insert(connection, insert(Transaction), txn, [(_BALANCE, {"player": 1})])
        with connection.begin_nested():
            assert info not in connection.connection.info
            statements.insert(connection, insert(Transaction), txn, [(_BALANCE, {"player": 1})])
            assert info not in connection.connection.info
    engine.dispose()


def test_a_read_sent_ahead_after_a_lock_waits_for_it(postgres_url: str) -> None:
    """The reads go after the INSERT, one after another: one that takes a lock another
    transaction holds waits, and what it and the reads after it give is what that
    transaction committed."""
    import threading

    engine = connect(postgres_url)
    with writer(engine).begin() as connection:
        connection.execute(insert(Player), _PLAYER)
    holding, found = threading.Event(), []

    def second() -> None:
        holding.wait(10)
        with writer(engine).begin() as connection:
            ahead = [(_LOCKED, {"player": 1}), (_BALANCE, {"player": 1})]
            txn = {"kind": "k", "player_id": 1}
            statements.insert(connection, insert(Transaction), txn, ahead)
            found.extend(statements.rows(connection, *read) for read in ahead)

    waiting = threading.Thread(target=second)
    waiting.start()
    with writer(engine).begin() as connection:
        statements.rows(connection, _LOCKED, {"player": 1})
        holding.set()
        with engine.connect() as watching:  # the second transaction waits for the lock
            waits = text(
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE wait_event_type = 'Lock' AND datname = current_database()"
            )
            for _ in range(200):
                found_waiting = watching.execute(waits).scalar()
                watching.rollback()  # the view is read once a transaction: a new one
                if found_waiting:
                    break
                time.sleep(0.05)
            else:
                raise AssertionError("the read sent ahead never waited for the lock")
        assert waiting.is_alive()
        connection.execute(update(Player).values(balance=650))
    waiting.join(10)
    assert found == [[(650,)], [(650,)]]
    engine.dispose()


def test_a_transaction_begun_in_its_first_pipeline_commits_and_rolls_back_whole(
    postgres_url: str,
) -> None:
    """Its BEGIN goes with its first statements (psycopg then sees the transaction open
    and sends no BEGIN of its own), its writes are still held for
    the COMMIT, a rollback undoes them all, and so does a write refused at the COMMIT:
    the connection's next transactions are whole too."""
    engine = connect(postgres_url)
    with writer(engine).begin() as connection:
        connection.execute(insert(Player), _PLAYER)
    raise_to = update(Player).where(Player.id == bindparam("player")).values(balance=700)
    txn = {"kind": "k", "player_id": 1}
    ahead = [(_LOCKED, {"player": 1})]
    drivers: list[Any] = []

    def begun(connection: Connection) -> None:
        statements.insert(connection, insert(Transaction), txn, ahead)
        driver: Any = connection.connection.driver_connection
        drivers.append(driver)
        assert not driver.autocommit
        assert driver.info.transaction_status.name == "INTRANS"

    def undone() -> None:
        with writer(engine).begin() as connection:
            begun(connection)
            statements.write(connection, raise_to, {"player": 1})
            assert connection.connection.info[statements.LATER]  # held for the COMMIT
            raise RuntimeError("undo it all")

    def refused_at_the_commit() -> None:
        with writer(engine).begin() as connection:
            begun(connection)
            statements.write(connection, raise_to, {"player": 1})
            statements.write(connection, insert(Transaction), {**txn, "player_id": 2})  # none

    def half_refused() -> None:  # psycopg's own BEGIN, on the same connection
        with writer(engine).begin() as connection:
            statements.write(connection, raise_to, {"player": 1})
            statements.write(connection, insert(Transaction), {**txn, "player_id": 2})
            statements.rows(connection, _BALANCE, {"player": 1})

    with pytest.raises(RuntimeError):
        undone()
    with pytest.raises(IntegrityError):
        refused_at_the_commit()
    with pytest.raises(IntegrityError):
        half_refused()
    with writer(engine).begin() as connection:
        begun(connection)
        statements.write(connection, raise_to, {"player": 1})
    assert len(set(map(id, drivers))) == 1  # one connection, lent again and again
    with engine.connect() as connection:
        assert statements.rows(connection, _BALANCE, {"player": 1}) == [(700,)]
        assert connection.execute(select(func.count()).select_from(Transaction)).scalar() == 1
    engine.dispose()


def test_an_id_taken_ahead_is_the_row_s_and_its_insert_is_held(postgres_url: str) -> None:
    """The INSERT into a table whose next id went ahead uses that id, is held for the
    COMMIT (no RETURNING waited for), and an id taken but not used, or taken in a
    transaction that ended, is never used again."""
    engine = connect(postgres_url)
    with writer(engine).begin() as connection:
        connection.execute(insert(Player), _PLAYER)
    txn = {"kind": "k", "player_id": 1}
    with writer(engine).begin() as connection:
        first = statements.insert(
            connection, insert(Transaction), txn, [statements.next_id("transactions")]
        )
        assert connection.connection.info[statements.IDS] == {"transactions": first + 1}
        second = statements.insert(connection, insert(Transaction), txn)
        assert second == first + 1
        assert connection.connection.info[statements.LATER]  # held, not yet sent
        assert statements.IDS not in connection.connection.info or not (
            connection.connection.info[statements.IDS]
        )
    with writer(engine).begin() as connection:  # an id taken and left: a gap
        ahead = [statements.next_id("transactions")]
        statements.insert(connection, insert(Transaction), txn, ahead)
    with writer(engine).begin() as connection:
        assert statements.IDS not in connection.connection.info
        third = statements.insert(connection, insert(Transaction), txn)
    assert third == first + 4
    with engine.connect() as connection:
        stored = connection.execute(select(Transaction.id).order_by(Transaction.id)).scalars()
        assert stored.all() == [first, second, first + 2, third]
    engine.dispose()
