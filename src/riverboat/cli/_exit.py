"""A command's end without the interpreter's teardown.

Once a command is done, Python's own exit frees every object of every module it
loaded, one by one: about 0.1 s of a small command's 0.5 s on the database
(SQLAlchemy, pydantic, numpy and typer loaded; docs/benchmarks.md, "Small
commands"). :func:`finish` does the parts of that exit that anyone can see (the
``atexit`` handlers: the databases' connections closed, logging's last flush,
temporary folders, multiprocessing's children; then standard output and error
flushed) and ends the process at once, with the code the command exited with.

It does so only when nothing else is running and nothing watches: a thread that is
not a daemon, which Python's exit would wait for, or a profiler or tracer (cProfile's
``-m``, a debugger, coverage), which writes what it saw once the program returns,
sends the command down the ordinary exit instead, as does a command that fails with
an exception (its traceback printed as always).
"""

from __future__ import annotations

import atexit
import os
import sys
import threading

__all__ = ["exit_code", "finish"]

#: the code Python ends with when standard output cannot be flushed at exit
UNFLUSHED = 120


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
    if not (code is None or isinstance(code, int)):
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
