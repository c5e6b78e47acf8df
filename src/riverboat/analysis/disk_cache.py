"""The analyses' tables on disk: computed once per machine, read by every process.

A full analysis (Rabbit Hunter's most of all) counts for seconds; its tables depend
only on the game's rules and on the code that counts them. Each table is one
NumPy ``.npz`` file in :func:`cache_dir` (``RIVERBOAT_CACHE_DIR``, or the user's
cache directory), named by a digest of its :class:`CacheKey`: the game, the kind of
table, the rules' canonical JSON (:mod:`riverboat.games.codec`), the package version,
a digest of the counting code (a working copy changes without a new version) and
:data:`FORMAT`.

Safe with several processes: a file is written whole to a temporary name in the same
folder and renamed over the old one (``os.replace`` is atomic), so a reader sees
either no file or a complete one; a process that needs a table another is building
waits for it and reads it (a lock file beside it) rather than counting it twice, and
if two do build at once (a lock held too long, a folder without locks) both end with
a valid file (the last rename wins; both wrote the same numbers). Writing a table
removes the same table kept by other code (an older version). Nothing read is
trusted: the archive is loaded without pickle, every member is checked against the
CRC-32 its zip entry carries as it is read, the key stored inside must be the one
asked for and the caller checks the arrays' shapes; a file failing any of these is
counted again and replaced.

>>> import tempfile
>>> from riverboat.settings import overridden
>>> key = CacheKey("demo", "squares", {"up_to": 4})
>>> squares = lambda: np.arange(4) ** 2
>>> with overridden(cache_dir=Path(tempfile.mkdtemp())):  # a folder of the example's
...     remember(key, squares, lambda arrays: arrays["x"], lambda x: {"x": x})
...     [entry.path.name.startswith("demo-squares-") for entry in entries()]
...     clear()[0]
array([0, 1, 4, 9])
[True]
1
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
import zipfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt
from filelock import FileLock
from filelock import Timeout as FileLockTimeout

from riverboat.settings import settings

__all__ = [
    "ENVIRONMENT",
    "FORMAT",
    "CacheEntry",
    "CacheKey",
    "cache_dir",
    "clear",
    "entries",
    "remember",
]

#: the environment variable naming another folder for the tables (tests use one)
ENVIRONMENT = "RIVERBOAT_CACHE_DIR"
#: the layout of the files; raised when what a file holds changes
FORMAT = 1
#: how long a process waits for another that is building the same table, in seconds (a
#: cold Rabbit Hunter analysis, the longest, takes about 10 on a 2-core build machine:
#: ``python bench/cold_analysis.py``)
BUILD_WAIT = 300.0
#: the packages whose code decides the numbers in the tables
_COUNTING_CODE = ("analysis", "games", "hands")

Arrays = Mapping[str, npt.NDArray[Any]]  # each kind of report its own dtypes
T = TypeVar("T")
_log = logging.getLogger(__name__)


def cache_dir() -> Path:
    """Where the tables live: ``$RIVERBOAT_CACHE_DIR``, or ``analysis`` in the
    user's cache directory (``~/.cache/riverboat/analysis`` on Linux)."""
    chosen = settings().cache_dir
    if chosen:
        return chosen
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("riverboat")) / "analysis"


@cache
def _code_digest() -> str:
    """A digest of the source of the modules the tables are counted with."""
    package = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for folder in _COUNTING_CODE:
        for source in sorted((package / folder).glob("*.py")):
            digest.update(source.name.encode())
            digest.update(source.read_bytes())
    return digest.hexdigest()[:16]


@dataclass(frozen=True)
class CacheKey:
    """What a table depends on: its ``game``, its ``kind`` and the game's ``rules``
    (as their canonical JSON), with the package version and code (:attr:`text`)."""

    game: str
    kind: str
    rules: object

    @property
    def text(self) -> str:
        from riverboat import __version__
        from riverboat.games.codec import to_json

        return json.dumps(
            {
                "format": FORMAT,
                "version": __version__,
                "code": _code_digest(),
                "game": self.game,
                "kind": self.kind,
                "rules": to_json(self.rules),
            },
            sort_keys=True,
            separators=(",", ":"),
        )

    @property
    def path(self) -> Path:
        digest = hashlib.sha256(self.text.encode()).hexdigest()[:24]
        return cache_dir() / f"{self.game}-{self.kind}-{digest}.npz"


def load(
    key: CacheKey, members: Sequence[str] | None = None
) -> dict[str, npt.NDArray[np.generic]] | None:
    """The arrays stored under ``key`` (only ``members``, if given), or None when there
    are none or the file is damaged, foreign or from other code (then it is left for
    :func:`store` to replace)."""
    path = key.path
    try:
        with np.load(path, allow_pickle=False) as archive:
            if "key" not in archive.files or str(archive["key"][()]) != key.text:
                raise ValueError("it was written for other rules or other code")
            wanted = [name for name in archive.files if name != "key"]
            if members is not None:
                wanted = list(members)
            # reading a member whole checks it against its zip entry's CRC-32
            return {name: archive[name] for name in wanted}
    except FileNotFoundError:
        return None
    except (OSError, ValueError, EOFError, KeyError, zipfile.BadZipFile) as error:
        _log.warning("ignoring the damaged table %s (%s): counting it again", path, error)
        return None


def store(key: CacheKey, arrays: Arrays) -> Path | None:
    """Write ``arrays`` under ``key`` atomically; None (and a warning) if the
    folder cannot be written: the tables are then simply counted again next time."""
    path = key.path
    temporary = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(
            dir=path.parent, prefix=f".{path.stem}-", suffix=".tmp", delete=False
        ) as out:
            temporary = Path(out.name)
            members: dict[str, Any] = {"key": np.array(key.text), **arrays}
            np.savez(out, **members)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except OSError as error:
        _log.warning("cannot keep the table in %s (%s)", path.parent, error)
        if temporary is not None:
            temporary.unlink(missing_ok=True)
        return None
    _remove_older(key)
    return path


def _remove_older(key: CacheKey) -> None:
    """Remove the files of ``key``'s table kept by other code (an older version, a
    changed working copy): nothing reads them again. Other rules' files stay."""
    mine = json.loads(key.text)
    for path in key.path.parent.glob(f"{key.game}-{key.kind}-*.npz"):
        if path == key.path:
            continue
        try:
            with np.load(path, allow_pickle=False) as archive:
                theirs = json.loads(str(archive["key"][()]))
            if all(theirs.get(name) == mine[name] for name in ("game", "kind", "rules")):
                path.unlink()
                path.with_suffix(".lock").unlink(missing_ok=True)  # its lock: nobody builds it
        except (OSError, ValueError, EOFError, KeyError, zipfile.BadZipFile):
            continue  # damaged, or gone already: left to whoever needs it


def remember(
    key: CacheKey,
    build: Callable[[], T],
    decode: Callable[[Arrays], T],
    encode: Callable[[T], Arrays],
) -> T:
    """The value stored under ``key``, or ``build()`` stored there.

    ``decode`` turns stored arrays back into the value and raises ValueError if
    they do not fit together (then the value is built again); ``encode`` gives
    the arrays to store.
    """
    kept = _decoded(key, decode)
    if kept is not None:
        return kept
    with _building(key):
        kept = _decoded(key, decode)  # built meanwhile by the process that held the lock
        if kept is not None:
            return kept
        value = build()
        store(key, encode(value))
    return value


def _decoded(key: CacheKey, decode: Callable[[Arrays], T]) -> T | None:
    """The value stored under ``key``, or None when there is none that decodes."""
    arrays = load(key)
    if arrays is None:
        return None
    try:
        return decode(arrays)
    except (ValueError, KeyError) as error:
        _log.warning("ignoring the table %s (%s): counting it again", key.path, error)
        return None


@contextmanager
def _building(key: CacheKey) -> Iterator[None]:
    """Held while ``key``'s table is built: a process that needs the same table meanwhile
    (the tables' server and its house-edge worker, two servers starting together, the
    tests' workers) waits for it and reads it instead of counting it too. The lock is
    the kernel's, on a file beside the table, so it dies with its holder; one held past
    :data:`BUILD_WAIT` seconds (a frozen process) is not waited on further, and the table
    is counted here as well. Where no lock file can be made, nothing is waited on."""
    path = key.path.with_suffix(".lock")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        lock = FileLock(path, timeout=BUILD_WAIT)
        lock.acquire()
    except FileLockTimeout:
        _log.warning("%s was held for %s s: counting its table here too", path, BUILD_WAIT)
        yield
        return
    except OSError as error:
        _log.warning("cannot lock %s (%s): counting its table unlocked", path, error)
        yield
        return
    try:
        yield
    finally:
        lock.release()


@dataclass(frozen=True)
class CacheEntry:
    """One stored table: its file and size in bytes."""

    path: Path
    size: int


def entries() -> list[CacheEntry]:
    """The stored tables (leftover temporary files too), by name."""
    folder = cache_dir()
    if not folder.is_dir():
        return []
    found = []
    for path in sorted(folder.iterdir()):
        if path.is_file() and (path.suffix == ".npz" or path.suffix == ".tmp"):
            found.append(CacheEntry(path, path.stat().st_size))
    return found


def clear() -> tuple[int, int]:
    """Remove every stored table: (files removed, bytes freed). The tables' empty lock
    files go too, uncounted (a process building meanwhile keeps the lock it holds; one
    that comes after it may build the same table again, and both write valid files)."""
    removed = freed = 0
    for entry in entries():
        try:
            entry.path.unlink()
        except FileNotFoundError:  # another process removed or replaced it first
            continue
        removed += 1
        freed += entry.size
    for lock in cache_dir().glob("*.lock"):
        lock.unlink(missing_ok=True)
    return removed, freed
