"""``GET /docs``: the API's page for people, Swagger UI from files shipped with the
package (``fastapi-offline`` ships them), nothing loaded from another origin, under the same
content security policy as every page (``script-src 'self'``: its start is a file,
not an inline script)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

__all__ = ["FILES", "router", "swagger_files"]

router = APIRouter()

#: where Swagger UI's own files are served
FILES = "/docs/files"

_PAGE = f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>riverboat: the API</title>
<link rel="stylesheet" href="{FILES}/swagger-ui.css">
</head>
<body>
<div id="api"></div>
<script src="{FILES}/swagger-ui-bundle.js"></script>
<script src="/static/api/start.js"></script>
</body>
</html>
"""


@router.get("/docs", response_class=HTMLResponse, include_in_schema=False)
async def api_docs() -> HTMLResponse:
    """The API's page: every route, its models and its refusals, from ``/openapi.json``."""
    return HTMLResponse(_PAGE)


def swagger_files() -> str:
    """The folder of Swagger UI's files in the installed ``fastapi-offline``."""
    from pathlib import Path

    import fastapi_offline

    return str(Path(fastapi_offline.__file__).parent / "static")
