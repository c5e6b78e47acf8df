"""The page's API types, made from the server's OpenAPI schema.

    python tools/page_types.py          # write src/riverboat/web/typing/api.d.ts
    python tools/page_types.py --check  # exit 1 if that file is not the schema's

The page's modules are JavaScript checked by TypeScript through JSDoc (``npm run
check``); the shapes of what the server sends them (a ``RoundView``, a table's
messages) come from here, so a change to a view that the page does not follow fails
the check. openapi-typescript (``npm ci`` installs it) turns the schema into types.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TYPES = ROOT / "src" / "riverboat" / "web" / "typing" / "api.d.ts"
HEADER = "// Made by tools/page_types.py from the server's OpenAPI schema: do not edit.\n"


def schema() -> dict[str, object]:
    """The OpenAPI schema of the app as ``riverboat serve`` makes it."""
    from riverboat.settings import amended
    from riverboat.web.app import create_app

    with tempfile.TemporaryDirectory() as folder:
        settings = amended(database_url=f"sqlite:///{folder}/types.db", local_player=True)
        app = create_app(settings)
        return app.openapi()


def types() -> str:
    """The schema as TypeScript declarations."""
    tool = ROOT / "node_modules" / ".bin" / "openapi-typescript"
    if not tool.exists():
        sys.exit("openapi-typescript is missing: run `npm ci` in the repository first")
    with tempfile.TemporaryDirectory() as folder:
        source, target = Path(folder) / "openapi.json", Path(folder) / "api.d.ts"
        source.write_text(json.dumps(schema()))
        subprocess.run(
            [str(tool), str(source), "--output", str(target), "--root-types"],
            check=True,
            capture_output=True,
        )
        return HEADER + target.read_text()


def main() -> None:
    made = types()
    if "--check" in sys.argv[1:]:
        if not TYPES.exists() or TYPES.read_text() != made:
            stale = TYPES.relative_to(ROOT)
            sys.exit(f"{stale} is not the schema's: run python tools/page_types.py")
        return
    TYPES.write_text(made)


if __name__ == "__main__":
    main()
