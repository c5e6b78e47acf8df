"""A command's end without the interpreter's teardown.

Once a command is done, Python's own exit frees every object of every module it
loaded, one by one: for a small command on the database (SQLAlchemy, pydantic, numpy
and typer loaded) that was 60-90 ms of a 0.5 s process (docs/benchmarks.md, "Small
commands"). :func:`finish` does the parts of that exit that anyone can see (the
``atexit`` handlers: logging's last flush, temporary folders, multiprocessing's
children; then standard output and error flushed) and ends the process at once,
with the code the command exited with.

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
    none is 0, a number is itself, anything else is printed to standard error and is 1.

    >>> exit_code(None), exit_code(2), exit_code(0)
    (0, 2, 0)
    """
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def finish(code: object) -> None:
    """End the process with ``SystemExit(code)``'s exit code, skipping the teardown,
    or raise ``SystemExit(code)`` while another thread that is not a daemon runs or
    a profiler or tracer is on."""
    main = threading.main_thread()
    others = any(t is not main and not t.daemon for t in threading.enumerate())
    if others or sys.getprofile() is not None or sys.gettrace() is not None:
        raise SystemExit(code)
    status = exit_code(code)
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe, a closed file
            status = status or UNFLUSHED
    os._exit(status)
