"""A wager and a page of history for a player holding N settled rounds, against a fresh
player's, measured in the same run on the same database: the ratio is what a long
history costs (1.0x: nothing).

The long history is copied in bulk from one real Tri-Card round: its round row, its
events, its transactions and their ledger entries, N times. Then the two players take
turns playing a Tri-Card round (two calls: the wager, which deals, and a fold, which
settles); and the newest
page of history (100 rounds) is read for the long history and for a player holding
just one page of it.

    python bench/history.py [--rounds 100000] [--wagers 40] [--postgres URL_WITHOUT_DATABASE]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from sqlalchemy import Engine, func, insert, select
from sqlalchemy.orm import Session

from riverboat.store import writer
from riverboat.store.models import (
    LedgerEntry,
    RoundEvent,
    RoundRow,
    Transaction,
)
from riverboat.table.service import TableService

#: rows per INSERT while copying
CHUNK = 5000
WAGER = {"ante": 500}


def copy_history(engine: Engine, player: int, rounds: int) -> None:
    """``rounds`` more settled coups for ``player``, copied from their last one."""
    with Session(writer(engine)) as session, session.begin():
        last = session.scalars(
            select(RoundRow).where(RoundRow.player_id == player).order_by(RoundRow.id.desc())
        ).first()
        assert last is not None, "play one round first"
        row = {c.key: getattr(last, c.key) for c in RoundRow.__table__.columns if c.key != "id"}
        events = [
            {"seq": e.seq, "kind": e.kind, "body": e.body}
            for e in session.scalars(select(RoundEvent).where(RoundEvent.round_id == last.id))
        ]
        txns = session.scalars(select(Transaction).where(Transaction.round_id == last.id)).all()
        entries = {
            t.id: [
                (e.account, e.amount)
                for e in session.scalars(
                    select(LedgerEntry).where(LedgerEntry.transaction_id == t.id)
                )
            ]
            for t in txns
        }
        net = sum(a for t in txns for acc, a in entries[t.id] if acc == f"player:{player}")
        top_round = session.scalar(select(func.max(RoundRow.id))) or 0
        top_txn = session.scalar(select(func.max(Transaction.id))) or 0
        for start in range(0, rounds, CHUNK):
            ids = range(top_round + start + 1, top_round + min(start + CHUNK, rounds) + 1)
            session.execute(insert(RoundRow), [{**row, "id": i} for i in ids])
            session.execute(insert(RoundEvent), [{**e, "round_id": i} for i in ids for e in events])
            txn_rows, entry_rows = [], []
            for i in ids:
                for t in txns:
                    top_txn += 1
                    txn_rows.append(
                        {"id": top_txn, "kind": t.kind, "player_id": player, "round_id": i}
                    )
                    entry_rows += [
                        {
                            "transaction_id": top_txn,
                            "account": f"round:{i}" if account.startswith("round:") else account,
                            "amount": amount,
                        }
                        for account, amount in entries[t.id]
                    ]
            session.execute(insert(Transaction), txn_rows)
            session.execute(insert(LedgerEntry), entry_rows)
        # the house makes good what the copies lost, so the balance stays as it was
        top_txn += 1
        session.execute(
            insert(Transaction), [{"id": top_txn, "kind": "credit", "player_id": player}]
        )
        session.execute(
            insert(LedgerEntry),
            [
                {"transaction_id": top_txn, "account": f"player:{player}", "amount": -net * rounds},
                {"transaction_id": top_txn, "account": "house", "amount": net * rounds},
            ],
        )
    if engine.dialect.name == "postgresql":  # the copies took ids by hand
        with Session(writer(engine)) as session, session.begin():
            for table in ("rounds", "transactions"):
                session.execute(
                    select(
                        func.setval(
                            func.pg_get_serial_sequence(table, "id"),
                            select(
                                func.max(RoundRow.id if table == "rounds" else Transaction.id)
                            ).scalar_subquery(),
                        )
                    )
                )
    with writer(engine).connect() as connection:  # the statistics a live database keeps
        connection.exec_driver_sql("ANALYZE")
        connection.commit()


def play(service: TableService, player: int) -> None:
    """A Tri-Card round: the wager, then a fold."""
    view = service.start_round(player, "tri-card", WAGER)
    service.act(player, view.id, "fold")


def median_ms(call: Callable[[], object], samples: list[float]) -> None:
    began = time.perf_counter()
    call()
    samples.append((time.perf_counter() - began) * 1000)


def measure(url: str, rounds: int, wagers: int) -> dict[str, float]:
    service = TableService(url)
    long_, fresh, page = (service.register(n, "bench-password") for n in ("long", "fresh", "page"))
    for player in (long_, fresh, page):
        play(service, player)
    began = time.perf_counter()
    copy_history(service.engine, long_, rounds)
    built = time.perf_counter() - began
    copy_history(service.engine, page, 99)
    times: dict[str, list[float]] = {k: [] for k in ("long", "fresh", "long_page", "fresh_page")}
    for _ in range(wagers):  # taking turns, so both see the same load on the machine
        for name, player, pager in (("long", long_, long_), ("fresh", fresh, page)):
            median_ms(lambda p=player: play(service, p), times[name])
            median_ms(lambda p=pager: service.history(p, 100), times[f"{name}_page"])
            if service.balance(player) < 10_000:
                service.top_up(player)
    assert service.balance(long_) == _sum(service.engine, long_), "the running balance drifted"
    return {"built_s": built, **{k: statistics.median(v) for k, v in times.items()}}


def _sum(engine: Engine, player: int) -> int:
    with Session(engine) as session:
        total = session.scalar(
            select(func.sum(LedgerEntry.amount)).where(LedgerEntry.account == f"player:{player}")
        )
        return int(total or 0)


@contextmanager
def postgres_database(admin_url: str) -> Iterator[str]:
    import psycopg

    name = f"riverboat_history_{uuid.uuid4().hex[:8]}"
    admin = admin_url.replace("postgresql+psycopg://", "postgresql://") + "/postgres"
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"{admin_url}/{name}"
    finally:
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=100_000)
    parser.add_argument("--wagers", type=int, default=40)
    parser.add_argument("--postgres", default=None, help="also on PostgreSQL at this server")
    args = parser.parse_args(argv)
    results = {}
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{os.path.join(folder, 'history.db')}"
        results["sqlite"] = measure(url, args.rounds, args.wagers)
    if args.postgres:
        with postgres_database(args.postgres) as url:
            results["postgresql"] = measure(url, args.rounds, args.wagers)
    print(f"a player with {args.rounds:,} settled rounds against a fresh player (history: "
          f"one of 100 rounds), median of {args.wagers} each, taking turns")  # fmt: skip
    print(f"{'database':<11} {'built s':>8} {'wager ms':>18} {'ratio':>7} "
          f"{'history page ms':>18} {'ratio':>7}")  # fmt: skip
    for name, r in results.items():
        print(
            f"{name:<11} {r['built_s']:8.1f} {r['long']:8.1f} vs {r['fresh']:6.1f} "
            f"{r['long'] / r['fresh']:6.2f}x {r['long_page']:8.1f} vs {r['fresh_page']:6.1f} "
            f"{r['long_page'] / r['fresh_page']:6.2f}x"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
