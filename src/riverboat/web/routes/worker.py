"""The service worker at ``/sw.js``, which keeps the page's own files so the table opens
at once and installs on a phone's home screen (``static/manifest.webmanifest``).

:func:`precache` reads the static folder once, when the app is made: the URLs of the
page's files (``/`` for ``index.html``; every file under ``static/`` but the card
sprite's readme and licence) and a hash of their contents and of the worker's own
text (``riverboat/web/sw.js``). The worker names its cache after that hash, so a new
install of riverboat (any file changed) fills a new cache and deletes the old one. It
never keeps an answer of the server's (``/api/``, ``/ws/``, ``/openapi.json``, any
request but a GET): the server stays authoritative and offline nothing is played.

>>> from riverboat.web.routes.page import STATIC
>>> found = precache(STATIC)
>>> found.urls[0], "/static/js/main.js" in found.urls, "/static/index.html" in found.urls
('/', True, False)
>>> len(found.version)
16
"""

from __future__ import annotations

import hashlib
import json
import mimetypes
from collections.abc import Iterator
from dataclasses import dataclass
from importlib.resources import files
from importlib.resources.abc import Traversable

from fastapi import APIRouter, Request
from fastapi.responses import Response

from riverboat.web.errors import RESPONSES

__all__ = [
    "PAGE_FILE",
    "WORKER",
    "WORKER_HEADERS",
    "WORKER_PATH",
    "Precache",
    "precache",
    "router",
]

#: the worker's source, served with its constants put first (:attr:`Precache.script`)
WORKER = files("riverboat.web") / "sw.js"
#: where the worker is served (its scope: the whole origin)
WORKER_PATH = "/sw.js"
#: the page, kept under its own URL ``/`` rather than its file's
PAGE_FILE = "index.html"
#: files in the static folder that the page never loads (the card sprite's readme and
#: licence): not kept
NOT_LOADED = (".md", ".txt")
#: the headers ``/sw.js`` is served with: checked afresh at every visit, root scope
WORKER_HEADERS = {"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"}

# the manifest's type, whatever the system's MIME table says (StaticFiles asks mimetypes)
mimetypes.add_type("application/manifest+json", ".webmanifest")

router = APIRouter(responses=RESPONSES)


@dataclass(frozen=True)
class Precache:
    """What the worker keeps: ``urls`` (``/`` first), ``version`` (16 hex digits of a
    SHA-256 of the files and the worker), and ``script``, the worker as served."""

    urls: tuple[str, ...]
    version: str
    script: str


def precache(static: Traversable, worker: Traversable = WORKER) -> Precache:
    """The page's files under ``static`` and their version, read once."""
    digest = hashlib.sha256()
    urls = ["/"]
    for path, item in sorted(_files(static, "")):
        if path.endswith(NOT_LOADED):
            continue
        digest.update(f"{path}\0{len(content := item.read_bytes())}\0".encode())
        digest.update(content)
        if path != PAGE_FILE:
            urls.append(f"/static/{path}")
    source = worker.read_text()
    digest.update(source.encode())
    version = digest.hexdigest()[:16]
    constants = f"const VERSION = {json.dumps(version)};\nconst PRECACHE = {json.dumps(urls)};\n"
    script = constants + source
    return Precache(tuple(urls), version, script)


def _files(folder: Traversable, prefix: str) -> Iterator[tuple[str, Traversable]]:
    for item in folder.iterdir():
        if item.is_dir():
            yield from _files(item, f"{prefix}{item.name}/")
        elif item.is_file():
            yield f"{prefix}{item.name}", item


@router.get(WORKER_PATH, include_in_schema=False)
def service_worker(request: Request) -> Response:
    """The worker, from the app's :class:`Precache` (made with the app)."""
    found: Precache = request.app.state.precache
    return Response(found.script, media_type="text/javascript", headers=WORKER_HEADERS)
