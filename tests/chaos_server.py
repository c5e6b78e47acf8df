"""One server process of the chaos suite's cluster (tests/chaos.py): riverboat's app on
a loopback port, over the cluster's PostgreSQL database and Redis, with the short
clocks the suite plays at. Its one argument is the settings, as JSON.

    python tests/chaos_server.py '{"port": 8101, "database": "postgresql+psycopg://...",
        "redis": "redis://127.0.0.1:6390/0", "betting_seconds": 1.5, ...}'
"""

from __future__ import annotations

import json
import sys

import uvicorn

from riverboat.settings import amended
from riverboat.table.lobby import TableConfig
from riverboat.web.app import create_app, freeze_startup, server_options

if __name__ == "__main__":
    settings = json.loads(sys.argv[1])
    port = int(settings.pop("port"))
    shared = settings.pop("tables", None)  # [{"id": ..., "game": ..., "name": ...}, ...]
    tables = None if shared is None else [TableConfig.model_validate(t) for t in shared]
    names = {"database": "database_url", "redis": "redis_url"}
    chosen = amended(**{names.get(name, name): value for name, value in settings.items()})
    app = create_app(chosen, tables=tables)
    freeze_startup()
    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", **server_options())
