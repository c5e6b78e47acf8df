"""The optional extras: a command that needs one says which to install, before any work."""

from __future__ import annotations

from importlib.util import find_spec

import typer

#: the optional extras: what each needs importable, and what it is for
_EXTRAS = {
    "plot": (("matplotlib",), "charts"),
    "web": (("fastapi", "uvicorn"), "the web table"),
    "terminal": (("textual",), "the terminal table"),
    "postgres": (("psycopg",), "PostgreSQL"),
    "redis": (("redis",), "Redis (kept state, shared tables across server processes)"),
    "cluster": (("dask", "distributed"), "a Dask cluster"),
}


def installed(module: str) -> bool:
    """Whether ``module`` can be imported (without importing it)."""
    return find_spec(module) is not None


def _need_extra(extra: str, option: str) -> None:
    """Before any work: stop with one line naming the extra to install when ``option``
    needs a package that is missing (exit code 2, as for any usage mistake)."""
    modules, purpose = _EXTRAS[extra]
    missing = [module for module in modules if not installed(module)]
    if missing:
        typer.echo(
            f"Error: {option} needs {purpose} ({' and '.join(missing)} "
            f"{'is' if len(missing) == 1 else 'are'} not installed): "
            f"pip install 'riverboat[{extra}]'",
            err=True,
        )
        raise typer.Exit(2)
