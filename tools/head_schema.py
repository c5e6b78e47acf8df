"""A new SQLite database's schema at the head revision, as the migrations make it.

    python tools/head_schema.py          # write src/riverboat/store/migrations/head.sqlite.sql
    python tools/head_schema.py --check  # exit 1 if that file is not the migrations'

``riverboat.store.migrate`` makes a new SQLite database from that file in one go
instead of running every migration; a file of another head is not used (the
migrations run), and tests/test_store.py fails until it is written again.
"""

from __future__ import annotations

import sys

from riverboat.store import HEAD_SCHEMA, head_schema


def main(argv: list[str]) -> int:
    if argv not in ([], ["--check"]):
        print(
            f"usage: python tools/head_schema.py [--check] (not {' '.join(argv)})", file=sys.stderr
        )
        return 2
    made = head_schema()
    if argv:
        if HEAD_SCHEMA.exists() and HEAD_SCHEMA.read_text(encoding="utf-8") == made:
            return 0
        print(
            f"{HEAD_SCHEMA} is not the migrations' schema: run python tools/head_schema.py",
            file=sys.stderr,
        )
        return 1
    HEAD_SCHEMA.write_text(made, encoding="utf-8")
    print(f"wrote {HEAD_SCHEMA}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
