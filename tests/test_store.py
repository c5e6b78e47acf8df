"""The schema's migrations: a database made by an earlier release upgrades in place,
its players, rounds and ledger intact, on SQLite and on PostgreSQL."""

from sqlalchemy import text

from riverboat.store import connect, migrate
from riverboat.table.service import TableService


def test_a_database_with_rounds_upgrades_from_the_first_schema(database_url: str) -> None:
    engine = connect(database_url, revision="0001")
    with engine.begin() as connection:  # as the first release left it: a player's round
        for statement in (
            "INSERT INTO players (id, name, failed_logins, created_at)"
            " VALUES (7, 'ann', 0, '2026-01-01')",
            "INSERT INTO rounds (id, player_id, game, status, server_seed, commitment,"
            " client_seed, nonce, record, balance_before, created_at, updated_at) VALUES"
            " (3, 7, 'tri-card', 'settled', 's', 'c', 'x', 0, '{\"format\": 1,"
            " \"game\": \"tri-card\", \"rules\": {}, \"cards_drawn\": [], \"events\": []}', 0,"
            " '2026-01-01', '2026-01-01')",
            "INSERT INTO transactions (id, kind, player_id, round_id, created_at)"
            " VALUES (5, 'wager', 7, 3, '2026-01-01')",
            "INSERT INTO ledger (transaction_id, account, amount, created_at)"
            " VALUES (5, 'player:7', 100000, '2026-01-01'), (5, 'house', -100000, '2026-01-01')",
        ):
            connection.execute(text(statement))
    migrate(engine)
    with engine.connect() as connection:
        rows = connection.execute(text("SELECT id, deal_id, deal_cards FROM rounds")).all()
        assert [tuple(row) for row in rows] == [(3, None, None)]
        assert connection.execute(text("SELECT count(*) FROM transactions")).scalar() == 1
        # 0013: no player is an operator, none is locked, and the operators' log is empty
        roles = connection.execute(text("SELECT operator, locked FROM players")).all()
        assert [tuple(row) for row in roles] == [(False, False)]
        assert connection.execute(text("SELECT count(*) FROM operator_actions")).scalar() == 0
    engine.dispose()
    service = TableService(database_url)  # and the service runs on it
    assert service.balance(7) == 100000
    assert service.start_round(7, "baccarat", {"banker": 1000}).status == "settled"
    service.engine.dispose()
