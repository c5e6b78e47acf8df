"""A command's process: its start without the garbage collector's passes over what it
loads, and its end without the interpreter's teardown.

A small command on the database is mostly its imports (SQLAlchemy, pydantic, numpy
and typer), and two costs came with them (docs/benchmarks.md, "Small commands"):

- **The collector at start.** Importing makes some hundred thousand objects that live
  as long as the process, and Python's collector, passing every 700 net allocations
  of the objects it tracks, walked the growing set again in its older generations'
  passes: some 200 passes, about 0.05 s. :func:`start` lets the first pass wait for
  :data:`FIRST_PASS` net allocations, then gives the collector Python's own
  thresholds back (a command that makes that much is past its start), in this
  process and any it forks. Until then, cyclic garbage waits too: at most that many
  objects (and what they hold), once per process.
- **The teardown at the end.** Python's exit frees every object of every module one
  by one: about 0.1 s of a 0.5 s command. :func:`finish` does the parts of that exit
  that anyone can see (the ``atexit`` handlers: the databases' connections closed,
  logging's last flush, temporary folders, multiprocessing's children; then standard
  output and error flushed) and ends the process at once, with the command's code.
  It does so only when nothing else is running and nothing watches: a thread that is
  not a daemon, which Python's exit would wait for, or a profiler or tracer
  (cProfile's ``-m``, a debugger, coverage), which writes what it saw once the
  program returns, sends the command down the ordinary exit instead, as does a
  command that fails with an exception (its traceback printed as always).
"""

from __future__ import annotations

import atexit
import gc
import os
import sys
import threading
from typing import Any

__all__ = ["FIRST_PASS", "exit_code", "finish", "start"]

#: the net allocations the collector's first pass waits for (Python 3.11's: 700)
FIRST_PASS = 200_000

#: the code Python ends with when standard output cannot be flushed at exit
UNFLUSHED = 120


def start() -> None:
    """The collector's first pass deferred until :data:`FIRST_PASS` net allocations
    (the young generation's threshold), Python's thresholds back once it has run;
    nothing more while a deferral is under way."""
    thresholds = gc.get_threshold()
    if thresholds[0] == FIRST_PASS:
        return  # started already: these are not Python's thresholds to give back

    def after_first_pass(phase: str, _info: dict[str, Any]) -> None:
        if phase == "stop" and gc.get_threshold()[0] == FIRST_PASS:  # still deferred
            gc.set_threshold(*thresholds)

    gc.callbacks.append(after_first_pass)
    gc.set_threshold(FIRST_PASS, *thresholds[1:])


def exit_code(code: object) -> int:
    """The process's exit code for ``SystemExit(code)``, as Python's exit makes it:
    none is 0, a number is itself, anything else (a message, printed) is 1.

    >>> exit_code(None), exit_code(2), exit_code("no such round")
    (0, 2, 1)
    """
    if code is None:
        return 0
    return code if isinstance(code, int) else 1


def finish(code: object) -> None:
    """End the process with ``SystemExit(code)``'s exit code, skipping the teardown,
    or raise ``SystemExit(code)`` while another thread that is not a daemon runs or
    a profiler or tracer is on."""
    main = threading.main_thread()
    others = any(t is not main and not t.daemon for t in threading.enumerate())
    if others or sys.getprofile() is not None or sys.gettrace() is not None:
        raise SystemExit(code)
    status = exit_code(code)
    if not isinstance(code, int | None):  # a message, printed as Python's exit does
        print(code, file=sys.stderr)
    atexit._run_exitfuncs()
    if not _flushed(sys.stdout):
        status = UNFLUSHED  # as Python's exit: whatever the command's code was
    _flushed(sys.stderr)
    os._exit(status)


def _flushed(stream: object) -> bool:
    """Whether ``stream`` is flushed: a stream already closed, or none, counts as
    flushed, as at Python's exit; a pipe closed at the other end does not."""
    flush = getattr(stream, "flush", None)
    if flush is None or getattr(stream, "closed", False):
        return True
    try:
        flush()
    except OSError:
        return False
    return True
