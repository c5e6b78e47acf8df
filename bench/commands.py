"""Small commands end to end: `riverboat --help` and each command's `--help`,
`play tri-card --auto optimal --rounds 1`, `history -n 3`, `verify` of one round and
`audit` on a small database, each in fresh processes, for this tree and (with
--base) another commit's code in the same run; seconds and the ratio new/old.

Each version has a data folder of its own (XDG_DATA_HOME and XDG_CACHE_HOME: its
SQLite database and its analyses' cache where a user's would be, RIVERBOAT_
variables left out), and runs `python -m riverboat` with PYTHONPATH at its src.
Bytecode is written (PYTHONDONTWRITEBYTECODE left out), as an install compiles it.
Each version first plays a round in a scratch folder, untimed, so that numba's
compiled kernels (kept beside the source: a fresh worktree compiles them) are on
disk for both. Each command then runs once untimed: its "first" figure, for play
with an empty database and analysis cache (the database made, and anything the
first run keeps, counted). Then --runs timed
runs, this tree's and the old one's taking turns, so that the machine's load falls
on both alike: the median and the spread (min-max) of wall seconds, the median CPU
seconds (user + system, of the process and its children), and the ratio of the
medians new/old. The machine is shared: the load average is printed before and
after, and the ratios are the figures to read. Beside them, "floor": a process that
imports only the libraries a command on the database needs (typer, pydantic, numpy,
SQLAlchemy's ORM) and no riverboat, timed the same way: what no change to riverboat
can take away (and, being the same code for both versions, its ratio is the run's
noise). With --instructions, each command also runs once per version under
valgrind's callgrind, which counts the instructions it carries out: the same count
whatever else the machine is doing, so the steadiest figure on a busy machine
(callgrind runs a program some 50 times slower: seconds per command).

    python bench/commands.py [--runs 5] [--base GIT_REF | --base-tree PATH]
                             [--commands help,helps,play,history,verify,audit,floor]
                             [--instructions] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

from worktrees import checked_out

ROOT = Path(__file__).resolve().parents[1]
#: the commands timed, by name; "helps" is every command's and group's --help
COMMANDS: dict[str, list[str]] = {
    "help": ["--help"],
    "play": ["play", "tri-card", "--auto", "optimal", "--rounds", "1"],
    "history": ["history", "-n", "3"],
    "verify": ["verify", "{round}"],
    "audit": ["audit"],
    # no riverboat at all: the libraries a command on the database cannot do without,
    # imported alone (the same for both versions: its ratio shows the run's noise)
    "floor": ["-c", "import typer, pydantic, numpy, sqlalchemy.orm"],
}
NAMES = ("help", "helps", "play", "history", "verify", "audit", "floor")
#: what issue 28 asks of each, in seconds
TARGET = 0.5


@dataclass
class Version:
    """One version of the code: its tree, its data folder and its figures."""

    name: str
    tree: Path
    folder: Path
    first: dict[str, float] = field(default_factory=dict)
    runs: dict[str, list[tuple[float, float]]] = field(default_factory=dict)
    instructions: dict[str, int] = field(default_factory=dict)

    def env(self) -> dict[str, str]:
        keep = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith("RIVERBOAT_") and key != "PYTHONDONTWRITEBYTECODE"
        }
        return {
            **keep,
            "PYTHONPATH": str(self.tree / "src"),
            "XDG_DATA_HOME": str(self.folder / "data"),
            "XDG_CACHE_HOME": str(self.folder / "cache"),
        }

    def compile_kernels(self) -> None:
        """A round played in a scratch folder: numba's cache for this tree filled."""
        scratch = Version(self.name, self.tree, self.folder / "scratch")
        scratch.folder.mkdir()
        scratch.run(COMMANDS["play"])

    def run(self, arguments: list[str]) -> tuple[float, float]:
        """`riverboat ARGUMENTS` of this version: wall and CPU seconds."""
        arguments = [a.replace("{round}", str(self.folder / "round.json")) for a in arguments]
        command = arguments if arguments[0] == "-c" else ["-m", "riverboat", *arguments]
        start = time.perf_counter()
        child = subprocess.Popen(
            [sys.executable, *command],
            env=self.env(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        error = child.stderr.read().decode() if child.stderr else ""
        if child.returncode != 0:
            raise SystemExit(f"{self.name}: riverboat {' '.join(arguments)}: {error}")
        return wall, usage.ru_utime + usage.ru_stime

    def count(self, arguments: list[str]) -> int:
        """Instructions `riverboat ARGUMENTS` of this version carries out (callgrind)."""
        arguments = [a.replace("{round}", str(self.folder / "round.json")) for a in arguments]
        command = arguments if arguments[0] == "-c" else ["-m", "riverboat", *arguments]
        out = self.folder / "callgrind.out"
        valgrind = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"]
        done = subprocess.run(
            [*valgrind, sys.executable, *command],
            env=self.env(),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        if done.returncode != 0:
            said = f"{self.name}: callgrind riverboat {' '.join(arguments)}: {done.stderr}"
            raise SystemExit(said)
        for line in out.read_text().splitlines():
            if line.startswith(("summary:", "totals:")):
                return int(line.split()[1])
        raise SystemExit(f"{self.name}: callgrind wrote no total for {' '.join(arguments)}")

    def keep_a_round(self) -> None:
        """The newest round, as `history --format json` gives it, for `verify`."""
        done = subprocess.run(
            [sys.executable, "-m", "riverboat", "history", "-n", "1", "--format", "json"],
            env=self.env(),
            capture_output=True,
            text=True,
            check=True,
        )
        (self.folder / "round.json").write_text(done.stdout)


def every_help() -> dict[str, list[str]]:
    """`--help` of each command and group of this tree's command line, by its words."""
    import typer.main

    sys.path.insert(0, str(ROOT / "src"))
    from riverboat.cli import app

    found: dict[str, list[str]] = {}

    def walk(command: object, words: list[str]) -> None:
        for name, sub in sorted(getattr(command, "commands", {}).items()):
            found[" ".join([*words, name])] = [*words, name, "--help"]
            walk(sub, [*words, name])

    walk(typer.main.get_command(app), [])
    return found


def measure(versions: list[Version], timed: dict[str, list[str]], runs: int) -> None:
    """Each command: once untimed per version (its first run), then ``runs`` runs of
    each version in turns."""
    for version in versions:
        version.compile_kernels()
    for name, arguments in timed.items():
        for version in versions:
            version.first[name] = version.run(arguments)[0]
            if name == "play":
                version.keep_a_round()
        for _ in range(runs):
            for version in versions:
                version.runs.setdefault(name, []).append(version.run(arguments))


def _figures(version: Version, name: str) -> dict[str, float]:
    runs = version.runs[name]
    walls = [wall for wall, _ in runs]
    return {
        "first": version.first[name],
        "wall": statistics.median(walls),
        "wall_min": min(walls),
        "wall_max": max(walls),
        "cpu": statistics.median(cpu for _, cpu in runs),
    }


def _cells(figures: dict[str, float]) -> str:
    spread = f"{figures['wall_min']:.2f}-{figures['wall_max']:.2f}"
    return f"{figures['first']:>6.2f} {figures['wall']:>6.2f} {spread:>11} {figures['cpu']:>6.2f}"


def report(versions: list[Version], names: list[str]) -> list[dict[str, object]]:
    """One row a command: each version's first run, median wall seconds and their
    spread (min-max), median CPU seconds; the ratios new/old of the medians."""
    rows: list[dict[str, object]] = []
    width = max(len(name) for name in [*names, "riverboat ..."])
    columns = f"{'first':>6} {'wall':>6} {'(min-max)':>11} {'cpu':>6}"
    header = f"{'riverboat ...':<{width}}  {columns}"
    if len(versions) > 1:
        header += f"  | old {columns}  | new/old wall  cpu"
    print(header)
    for name in names:
        row: dict[str, object] = {"command": name}
        line = f"{name:<{width}}"
        for version in versions:
            figures = _figures(version, name)
            row[version.name] = figures
            line += ("  | old " if version is not versions[0] else "  ") + _cells(figures)
        if len(versions) > 1:
            new, old = _figures(versions[0], name), _figures(versions[1], name)
            row["new/old wall"] = new["wall"] / old["wall"]
            row["new/old cpu"] = new["cpu"] / old["cpu"]
            line += f"  | {row['new/old wall']:>12.2f} {row['new/old cpu']:>4.2f}"
        print(line)
        rows.append(row)
    return rows


def report_instructions(versions: list[Version], names: list[str]) -> None:
    """One row a command: millions of instructions of each version, and new/old."""
    width = max(len(name) for name in [*names, "riverboat ..."])
    header = f"{'riverboat ...':<{width}}  {'M instr':>8}"
    if len(versions) > 1:
        header += f"  {'old':>8}  new/old"
    print(header)
    for name in names:
        counts = [version.instructions[name] for version in versions]
        line = f"{name:<{width}}  " + "  ".join(f"{count / 1e6:>8.0f}" for count in counts)
        if len(counts) > 1:
            line += f"  {counts[0] / counts[1]:>7.3f}"
        print(line)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs of each command")
    parser.add_argument("--base", help="also time this git ref's code (a temporary worktree)")
    parser.add_argument("--base-tree", type=Path, help="also time the code checked out here")
    parser.add_argument("--commands", default=",".join(NAMES), help=", ".join(NAMES))
    parser.add_argument(
        "--instructions", action="store_true", help="also count instructions (valgrind)"
    )
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args(argv)
    if args.instructions and shutil.which("valgrind") is None:
        parser.error("--instructions counts with valgrind, which is not installed")
    # stopped (SIGTERM): the temporary folders and worktree are removed all the same
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    chosen = [name.strip() for name in args.commands.split(",") if name.strip()]
    unknown = sorted(set(chosen) - set(NAMES))
    if unknown:
        parser.error(f"no command {', '.join(unknown)}: the commands are {', '.join(NAMES)}")
    timed: dict[str, list[str]] = {}
    for name in NAMES:  # play first: history, verify and audit read its rounds
        if name in ("history", "verify", "audit") and "play" not in chosen and name in chosen:
            timed.setdefault("play", COMMANDS["play"])
        if name == "helps" and name in chosen:
            timed |= {f"{words} --help": arguments for words, arguments in every_help().items()}
        elif name in chosen:
            timed["--help" if name == "help" else name] = COMMANDS[name]
    timed = dict(sorted(timed.items(), key=lambda item: item[0] != "play"))
    load_before = os.getloadavg()
    print(f"cores: {os.cpu_count()}  python: {sys.version.split()[0]}  load: {load_before}")
    with ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        versions = [Version("new", ROOT, folder / "new")]
        base_tree = args.base_tree
        if args.base and base_tree is None:
            base_tree = stack.enter_context(checked_out(args.base))
        if base_tree is not None:
            versions.append(Version("old", base_tree.resolve(), folder / "old"))
        for version in versions:
            version.folder.mkdir()
        measure(versions, timed, args.runs)
        print(f"{args.runs} timed runs each after one untimed (first); seconds")
        rows = report(versions, list(timed))
        if args.instructions:
            for name, arguments in timed.items():
                for version in versions:
                    version.instructions[name] = version.count(arguments)
            print("instructions carried out, one run under callgrind each")
            report_instructions(versions, list(timed))
            for row in rows:
                command = str(row["command"])
                row["instructions"] = {v.name: v.instructions[command] for v in versions}
    load_after = os.getloadavg()
    new = {name: _figures(versions[0], name) for name in timed}
    helps = [name for name in timed if name.endswith("--help")]
    if helps:
        slowest = max(helps, key=lambda name: new[name]["wall"])
        print(f"slowest --help: riverboat {slowest}, {new[slowest]['wall']:.2f} s")
    for figure in ("wall", "cpu"):
        over = [name for name in timed if new[name][figure] >= TARGET]
        print(f"{TARGET} s or more (median {figure}): {', '.join(over) if over else 'none'}")
    print(f"load: before {load_before}, after {load_after}")
    if args.json:
        figures = {"load_before": load_before, "load_after": load_after, "rows": rows}
        Path(args.json).write_text(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
