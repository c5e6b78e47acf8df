"""A command's process (riverboat.cli._process): at its start the collector's first pass
deferred, then Python's own thresholds; at its end the interpreter's teardown skipped,
and everything a player or a script can see of an exit kept: the exit code, every byte
of output, the atexit handlers; the ordinary exit while another thread or a profiler
still needs it."""

import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from riverboat.cli._process import FIRST_PASS, exit_code, finish

#: a program that ends through finish: an atexit handler, a finalizer that only the
#: interpreter's teardown runs, more output than a pipe holds, then finish(CODE)
PROGRAM = """
import atexit, sys
from riverboat.cli._process import finish

class Torn:
    def __del__(self):
        print("torn down", flush=True)

kept = Torn()
atexit.register(print, "atexit ran")
sys.stdout.write("#" * 200_000)
print()
finish({code!r})
"""


def _ended(code: object, *before: str) -> subprocess.CompletedProcess[str]:
    program = "\n".join(before) + PROGRAM.format(code=code)
    return subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=60, check=False
    )


@pytest.mark.parametrize(("code", "status"), [(None, 0), (0, 0), (2, 2), ("bad input", 1)])
def test_finish_keeps_the_code_the_output_and_the_atexit_handlers(
    code: object, status: int
) -> None:
    done = _ended(code)
    assert done.returncode == status
    assert done.stdout.count("#") == 200_000
    assert done.stdout.endswith("atexit ran\n")
    assert "torn down" not in done.stdout  # the teardown was skipped
    assert done.stderr == ("bad input\n" if code == "bad input" else "")


def test_finish_takes_the_ordinary_exit_while_a_thread_still_works() -> None:
    # the thread works until Python's exit has begun (its main thread stopped), so it
    # is still at work when finish looks, however slow the machine
    done = _ended(
        3,
        "import threading, time",
        "def work():",
        "    while threading.main_thread().is_alive():",
        "        time.sleep(0.01)",
        "    print('worked')",
        "threading.Thread(target=work).start()",
    )
    assert done.returncode == 3
    assert "worked" in done.stdout  # Python's exit waited for it
    assert "torn down" in done.stdout


def test_finish_takes_the_ordinary_exit_under_a_profiler(tmp_path: Path) -> None:
    profile = tmp_path / "command.prof"
    script = tmp_path / "command.py"
    script.write_text(PROGRAM.format(code=0))
    done = subprocess.run(
        [sys.executable, "-m", "cProfile", "-o", str(profile), str(script)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert profile.stat().st_size > 0  # cProfile wrote what it saw


def test_in_process_finish_raises_while_another_thread_runs() -> None:
    stop = threading.Event()
    worker = threading.Thread(target=stop.wait)
    worker.start()
    try:
        with pytest.raises(SystemExit) as raised:
            finish(4)
        assert raised.value.code == 4
    finally:
        stop.set()
        worker.join()


def test_exit_codes_are_pythons() -> None:
    assert [exit_code(c) for c in (None, 0, 1, 7, "a message")] == [0, 0, 1, 7, 1]


def test_output_the_reader_never_takes_ends_as_pythons_exit_does() -> None:
    """Standard output not flushed at the end, its reader gone: 120, as Python's exit."""
    program = """
import os, sys, time
from riverboat.cli._process import finish
sys.stdout = os.fdopen(1, "w", buffering=8192)  # held until the end, however the tests run
print("kept in the buffer until the end")
time.sleep(0.5)
finish(0)
"""
    command = [sys.executable, "-c", program]
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as process:
        assert process.stdout is not None
        process.stdout.close()  # no reader
        process.wait(timeout=60)
    assert process.returncode == 120


def test_output_the_command_closed_is_not_written_again() -> None:
    program = "import sys\nfrom riverboat.cli._process import finish\nprint('said')\n"
    closed = subprocess.run(
        [sys.executable, "-c", program + "sys.stdout.close()\nfinish(0)"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (closed.returncode, closed.stdout, closed.stderr) == (0, "said\n", "")


def test_a_command_on_sqlite_closes_its_database(tmp_path: Path) -> None:
    """The engines are closed at exit (riverboat.store), as the teardown closed them:
    the last connection's close writes the WAL into the database and removes it."""
    import os

    env = {
        **os.environ,
        "PYTHONPATH": str(Path(__file__).resolve().parents[1] / "src"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
    }
    env.pop("RIVERBOAT_DATABASE_URL", None)
    done = subprocess.run(
        [sys.executable, "-m", "riverboat", "history", "-n", "1"],  # the database made
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    folder = tmp_path / "data" / "riverboat"
    assert sorted(p.name for p in folder.iterdir()) == ["riverboat.db"]  # no -wal, no -shm


#: start(), then cyclic garbage made well past the first pass: the thresholds before
#: and after, what the collector freed, and the same in a child forked after start
STARTED = """
import gc, json, os, sys
from riverboat.cli._process import start

def garbage(cycles):
    for _ in range(cycles):
        a = []
        a.append(a)

python = gc.get_threshold()
passes = lambda: sum(s["collections"] for s in gc.get_stats())
start()
deferred, before = gc.get_threshold(), passes()
garbage(1000)
quiet = passes() - before
child = os.fork()
garbage({cycles})
if child:
    os.waitpid(child, 0)
collected = sum(s["collected"] for s in gc.get_stats())
figures = [python, deferred, quiet, gc.get_threshold(), collected]
print("child" if child == 0 else "parent", json.dumps(figures))
sys.stdout.flush()
os._exit(0)
"""


def test_start_defers_the_first_pass_then_gives_python_its_thresholds_back() -> None:
    done = subprocess.run(
        [sys.executable, "-c", STARTED.format(cycles=3 * FIRST_PASS)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    lines = sorted(line.split(" ", 1) for line in done.stdout.splitlines())
    assert [who for who, _ in lines] == ["child", "parent"], done.stderr
    for _, figures in lines:
        python, deferred, quiet, after, collected = json.loads(figures)
        assert deferred == [FIRST_PASS, *python[1:]]
        assert quiet == 0  # no pass over the first thousand cycles
        assert after == python  # Python's own thresholds once a pass has run
        assert collected >= 2 * FIRST_PASS  # the garbage collected, not kept


def test_the_command_starts_so_and_a_second_start_changes_nothing() -> None:
    """riverboat's process (run_and_exit) starts with the first pass deferred; start()
    again before that pass keeps Python's thresholds to give back."""
    program = """
import atexit, gc, json, sys
from riverboat.cli import run_and_exit
from riverboat.cli._process import start

python = gc.get_threshold()
def report():
    deferred = gc.get_threshold()
    start()  # again: nothing more
    again = gc.get_threshold()
    gc.collect()
    print(json.dumps([python, deferred, again, gc.get_threshold()]))
atexit.register(report)
sys.argv = ["riverboat", "--version"]
run_and_exit()
"""
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    python, deferred, again, after = json.loads(done.stdout.splitlines()[-1])
    assert deferred == [FIRST_PASS, *python[1:]]  # started so
    assert again == deferred
    assert after == python  # Python's given back, not the deferral's


def test_an_engine_that_fails_to_close_does_not_stop_the_others(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At exit each engine is closed; one whose database no longer answers raises
    nothing and keeps the others from nothing (this process's own engines left be)."""
    import weakref

    from riverboat import store

    class Failing:
        def dispose(self) -> None:
            raise OSError("the server is gone")

    class Closing:
        closed = False

        def dispose(self) -> None:
            self.closed = True

    failing, closing = Failing(), Closing()
    monkeypatch.setattr(store, "_OPEN", weakref.WeakSet([failing, closing]))
    store._close_open()
    assert closing.closed
