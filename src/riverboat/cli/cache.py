"""``riverboat cache``: where the analyses' tables are kept on this machine, and
clearing them (:mod:`riverboat.analysis.disk_cache`).

A command of its own, not an option of ``analyze``: the tables are shared by
``analyze``, ``simulate``, ``bankroll``, ``play`` and ``serve`` alike.
"""

from __future__ import annotations

import typer

cache = typer.Typer(
    help="The analyses' tables kept on this machine: where, how large; clear them.",
    invoke_without_command=True,
)


def _size(count: int) -> str:
    """Bytes for people.

    >>> _size(0), _size(2_048), _size(161_234_567)
    ('0 B', '2.0 kB', '161.2 MB')
    """
    size, unit = float(count), "B"
    for bigger in ("kB", "MB", "GB", "TB"):
        if size < 1000:
            break
        size, unit = size / 1000, bigger
    return f"{count} B" if unit == "B" else f"{size:.1f} {unit}"


@cache.callback()
def cache_info(context: typer.Context) -> None:
    """Show where the tables are kept, each table and the total size."""
    if context.invoked_subcommand is not None:
        return
    from riverboat.analysis.disk_cache import ENVIRONMENT, cache_dir, entries

    found = entries()
    typer.echo(f"folder: {cache_dir()} (set {ENVIRONMENT} to use another)")
    for entry in found:
        typer.echo(f"  {entry.path.name}  {_size(entry.size)}")
    total = sum(entry.size for entry in found)
    typer.echo(f"{len(found)} table{'' if len(found) == 1 else 's'}, {_size(total)}")


@cache.command("clear")
def cache_clear() -> None:
    """Remove every kept table; each is counted again when next needed."""
    from riverboat.analysis.disk_cache import cache_dir, clear

    removed, freed = clear()
    typer.echo(
        f"removed {removed} table{'' if removed == 1 else 's'} ({_size(freed)}) from {cache_dir()}"
    )
