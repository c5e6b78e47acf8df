"""Figures of the code's shape, for keeping one home per idea honest.

    python tools/code_metrics.py          # the figures, one a line
    python tools/code_metrics.py --json   # the same as one JSON object

It counts, over ``src/riverboat`` (its migrations left out): the largest modules and
functions by lines; the lines that mention ``Any``; the reads of the environment
outside :mod:`riverboat.settings`; the lines outside ``games/`` (Python) and in
the page's JavaScript that name a game in quotes, which is knowledge of one game
kept outside its home (docstrings and comments are left out: their examples and
words may name a game); and the imports of one game's own module or package
(``riverboat.games.tri_card``...) outside ``games/``.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
from pathlib import Path

from riverboat.games import GAMES

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "riverboat"
_NAMED = re.compile("|".join(rf"[\"']{re.escape(game)}[\"']" for game in GAMES))
#: each game's own module or package (riverboat.games.tri_card), from its rules' home
_GAME_HOMES = {".".join(game.rules_type.__module__.split(".")[:3]) for game in GAMES.values()}
_READS_ENVIRONMENT = re.compile(r"os\.environ\.get|os\.getenv|environ\[[^\]]+\](?!\s*=)")


def _sources() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "migrations" not in p.parts)


def _example(line: str) -> bool:
    stripped = line.lstrip()
    return stripped.startswith((">>>", "... ", "#"))


def _docstring_lines(tree: ast.Module) -> set[int]:
    """The line numbers of the module's, its classes' and its functions' docstrings."""
    found: set[int] = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            value = body[0].value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                found.update(range(value.lineno, (value.end_lineno or value.lineno) + 1))
    return found


def _imports_a_game(node: ast.AST) -> bool:
    """Whether an import statement imports one game's own module or package."""
    if isinstance(node, ast.Import):
        return any(_in_a_game(alias.name) for alias in node.names)
    if isinstance(node, ast.ImportFrom) and node.module:
        return _in_a_game(node.module) or any(
            _in_a_game(f"{node.module}.{alias.name}") for alias in node.names
        )
    return False


def _in_a_game(module: str) -> bool:
    return any(module == home or module.startswith(home + ".") for home in _GAME_HOMES)


def figures() -> dict[str, object]:
    """The figures, by name."""
    modules: list[tuple[int, str]] = []
    functions: list[tuple[int, str]] = []
    any_lines = environment = named = game_imports = 0
    for path in _sources():
        text = path.read_text()
        lines = text.splitlines()
        tree = ast.parse(text)
        documented = _docstring_lines(tree)
        where = str(path.relative_to(ROOT))
        modules.append((len(lines), where))
        any_lines += sum(1 for line in lines if re.search(r"\bAny\b", line))
        if path.name != "settings.py":
            environment += sum(
                1 for line in lines if _READS_ENVIRONMENT.search(line) and not _example(line)
            )
        if "games" not in path.relative_to(PACKAGE).parts:
            game_imports += sum(1 for node in ast.walk(tree) if _imports_a_game(node))
            named += sum(
                1
                for number, line in enumerate(lines, start=1)
                if _NAMED.search(line) and number not in documented and not _example(line)
            )
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                functions.append((length, f"{where}:{node.name}"))
    scripts = sorted((PACKAGE / "web" / "static" / "js").glob("*.js"))
    named_js = sum(
        1 for path in scripts for line in path.read_text().splitlines() if _NAMED.search(line)
    )
    modules.sort(reverse=True)
    functions.sort(reverse=True)
    return {
        "largest_modules": [f"{where} {size}" for size, where in modules[:3]],
        "largest_functions": [f"{where} {size}" for size, where in functions[:3]],
        "lines_mentioning_any": any_lines,
        "environment_reads_outside_settings": environment,
        "game_names_outside_games_python": named,
        "game_names_in_the_page": named_js,
        "game_modules_imported_outside_games": game_imports,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true", help="one JSON object")
    found = figures()
    if parser.parse_args().json:
        print(json.dumps(found))
        return
    for name, value in found.items():
        print(f"{name}: {value}")


if __name__ == "__main__":
    main()
