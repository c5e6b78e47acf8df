"""The chaos suite (tests/chaos.py), for as long as asked: two `riverboat serve`
processes on a PostgreSQL database and a Redis of the suite's own, players at the
shared Crazy 4 and Baccarat tables and at their own Tri-Card tables, and a fault every
few seconds, each kind in turn: the table's holder killed (SIGKILL) and restarted,
the holder frozen (SIGSTOP) past its lease, Redis killed and started again empty, the
servers' database connections terminated, their network to the database and Redis
made slow (each chunk held 50 ms each way) for a few seconds. Then every round is
checked (the ledger, the audit, every balance, every decision sent, no one else's
cards, no seed early).

It prints the faults injected, the rounds played, what became of each decision, each
table's hand-over time and the worst as a ratio to the lease (2 s: the hand-over's
floor, measured in the same run), and every violation; it exits 1 if there is one.
With ``--cycles N`` it goes on past ``--seconds`` until every kind of fault has been
injected N times (a loaded machine injects fewer a minute). tests/test_chaos.py runs it
for half a minute and one turn of every fault in CI.

    python bench/chaos.py [--seconds 600] [--every 5] [--cycles 0] [--shared 6] [--own 2]
                          [--json] [--keep DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from arguments import at_least


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=at_least(1, float), default=600.0, help="how long")
    parser.add_argument(
        "--every", type=at_least(1, float), default=5.0, help="seconds between faults"
    )
    parser.add_argument(
        "--cycles",
        type=at_least(0, int),
        default=0,
        help="and on until every kind of fault has been injected this many times",
    )
    parser.add_argument(
        "--shared", type=at_least(1, int), default=6, help="players at the shared tables"
    )
    parser.add_argument("--own", type=at_least(0, int), default=2, help="at their own tables")
    parser.add_argument("--json", action="store_true", help="the figures as one JSON line")
    parser.add_argument(
        "--keep",
        type=Path,
        metavar="DIR",
        help="keep the servers' logs in DIR and the database after the run, to look into",
    )
    args = parser.parse_args()
    if args.keep is not None and args.keep.exists() and not args.keep.is_dir():
        parser.error(f"--keep {args.keep}: that is a file; give a folder (made if need be)")
    # imported once the arguments are read: --help answers without the cluster
    # (tests/chaos.py) and riverboat
    import psycopg

    from chaos import Cluster, check, figures, run, settle_down
    from riverboat.table.live.across.lease import LEASE_SECONDS as LEASE

    with tempfile.TemporaryDirectory() as scratch:
        workdir = scratch if args.keep is None else str(args.keep)
        if args.keep is not None:
            args.keep.mkdir(parents=True, exist_ok=True)
        try:
            cluster = Cluster(Path(workdir), [f"player{n}" for n in range(args.shared + args.own)])
        except (AssertionError, OSError, psycopg.OperationalError) as error:
            first = str(error).splitlines()[0] if str(error) else type(error).__name__
            print(f"bench/chaos.py: the cluster could not start: {first}", file=sys.stderr)
            return 2
        try:
            faults, bots, owners = asyncio.run(
                run(cluster, args.seconds, args.every, args.shared, args.own, args.cycles)
            )
            settle_down(cluster)
            report = check(cluster, bots)
        finally:
            cluster.close(keep_database=args.keep is not None)
            if args.keep is not None:
                print(f"kept: the logs in {workdir}, the database {cluster.name}", file=sys.stderr)
    found = figures(faults, report, owners, LEASE)
    if args.json:
        print(json.dumps(found))
    else:
        handovers = found["handover_seconds"]
        print(f"faults injected: {found['faults']}")
        print(f"database connections terminated: {found['database_connections_terminated']}")
        print(
            f"shared-table rounds: {found['rounds']}; own-table rounds: {found['own_table_rounds']}"
        )
        print(f"decisions: {found['decisions']}")
        if handovers:
            print(
                f"hand-over: {handovers[0]:.2f} to {handovers[-1]:.2f} s; the worst "
                f"{found['handover_worst_to_lease']}x the lease of {LEASE:g} s"
            )
        trips = found["round_trip_seconds"]
        if trips["slow"] is not None:
            print(
                f"slow network: a round trip to Redis {trips['slow'] * 1000:.0f} ms, "
                f"fast {trips['fast'] * 1000:.1f} ms"
            )
        print(f"violations: {len(found['violations'])}")
        for violation in found["violations"]:
            print(f"  {violation}")
    return 1 if found["violations"] else 0


if __name__ == "__main__":
    sys.exit(main())
