"""The page's JavaScript, as its type checking and its store expect it.

TypeScript checks the page's modules through their JSDoc (``npx tsc -p jsconfig.json``,
run by CI, not here: docs/development.md). A module left out of jsconfig.json's
``include`` would not be checked at all, silently, so every module under static/js
must be covered. And the page's state changes only through the store's named actions
(``store.act``, called in actions.js and state.js): a module that assigns to the state
directly skips the views that draw it, so no module may.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "jsconfig.json"
JS = ROOT / "src" / "riverboat" / "web" / "static" / "js"
#: where the store is made: its own ``state[key] = value`` is the one write allowed
STORE = "store.js"
#: the modules that call ``store.act``: the named actions, and the status line's ``say``
ACTING = {"actions.js", "state.js"}

#: a write to the store's state: an assignment (compound ones too) to one of its keys,
#: to an entry or a field under one, ``Object.assign(state, ...)``, ``++``/``--``,
#: ``delete``, or an array method that changes the array in place
_ASSIGNED = r"(?:[-+*/%&|^]|\*\*|<<|>>>?|&&|\|\||\?\?)?=(?![=>])"
WRITES = re.compile(
    r"\bstate\.\w+\s*" + _ASSIGNED
    + r"|\bstate\.\w+\[[^\]]*\]\s*" + _ASSIGNED
    + r"|\bstate(?:\.\w+|\[[^\]]*\])+\s*" + _ASSIGNED
    + r"|Object\.assign\(\s*(?:store\.)?state\b"
    + r"|(?:\+\+|--)\s*(?:store\.)?state\.|\bstate(?:\.\w+|\[[^\]]*\])+\s*(?:\+\+|--)"
    + r"|\bdelete\s+(?:store\.)?state\."
    + r"|\bstate(?:\.\w+|\[[^\]]*\])+\."
    + r"(?:push|pop|shift|unshift|splice|sort|reverse|fill|copyWithin)\("
)
#: comments, left out of the scan (a "//" after a colon or a quote is a URL's or a string's)
COMMENTS = re.compile(r"/\*.*?\*/|(?<![:\"'`\\])//[^\n]*", re.DOTALL)
ACTS = re.compile(r"\.act\(")

#: the files TypeScript finds under a folder named in ``include`` without a wildcard
_CHECKED_SUFFIXES = (".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx")
#: tsconfig's exclude when the file names none
_DEFAULT_EXCLUDE = ["node_modules", "bower_components", "jspm_packages"]


def _matching(root: Path, patterns: list[str]) -> set[Path]:
    """The files under ``root`` that tsconfig's ``include``/``exclude`` ``patterns``
    name: a glob (``*``, ``?``, ``**/``), or a folder and everything under it."""
    found: set[Path] = set()
    for pattern in patterns:
        pattern = pattern.removeprefix("./")
        if not any(mark in pattern for mark in "*?"):
            path = root / pattern
            if path.is_dir():
                found.update(p for p in path.rglob("*") if p.name.endswith(_CHECKED_SUFFIXES))
            elif path.is_file():
                found.add(path)
            continue
        found.update(p for p in root.glob(pattern) if p.is_file())
    return found


def covered(root: Path, config: dict[str, object]) -> set[Path]:
    """The files a tsconfig/jsconfig at ``root`` gives the checker: its ``files`` and
    ``include`` (everything when it has neither), less its ``exclude``."""
    files = config.get("files") or []
    include = config.get("include", [] if files else ["**/*"])
    exclude = config.get("exclude", _DEFAULT_EXCLUDE)
    assert isinstance(files, list)
    assert isinstance(include, list)
    assert isinstance(exclude, list)
    named = {root / str(name) for name in files}
    left_out = _matching(root, [str(p) for p in exclude])
    return named | (_matching(root, [str(p) for p in include]) - left_out)


def uncovered(root: Path, config: dict[str, object], modules: Path) -> list[str]:
    """The page's modules under ``modules`` that the config leaves unchecked."""
    checked = {path.resolve() for path in covered(root, config)}
    return sorted(
        str(path.relative_to(root))
        for path in modules.rglob("*.js")
        if path.resolve() not in checked
    )


def writes(text: str) -> list[tuple[int, str]]:
    """(line, code) of each direct write to the store's state in a module's source."""
    found = []
    for match in WRITES.finditer(COMMENTS.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), text)):
        line = text.count("\n", 0, match.start()) + 1
        found.append((line, text.splitlines()[line - 1].strip()))
    return found


def _modules() -> list[Path]:
    return sorted(JS.rglob("*.js"))


def test_the_config_checks_strictly() -> None:
    options = json.loads(CONFIG.read_text())["compilerOptions"]
    assert options["checkJs"] is True
    assert options["strict"] is True
    assert options["noEmit"] is True  # the page ships as written: the checker makes nothing


def test_every_page_module_is_type_checked() -> None:
    modules = _modules()
    assert len(modules) > 20, "the page's modules were not found"
    assert uncovered(ROOT, json.loads(CONFIG.read_text()), JS) == []


def test_the_api_types_are_checked_with_the_modules() -> None:
    checked = covered(ROOT, json.loads(CONFIG.read_text()))
    assert ROOT / "src" / "riverboat" / "web" / "typing" / "api.d.ts" in checked


def test_a_module_left_out_of_the_include_is_found(tmp_path: Path) -> None:
    modules = tmp_path / "static" / "js"
    (modules / "parts").mkdir(parents=True)
    for name in ("main.js", "felt.js", "parts/deep.js"):
        (modules / name).write_text("export {};\n")
    assert uncovered(tmp_path, {"include": ["static/js/**/*.js"]}, modules) == []
    assert uncovered(tmp_path, {"include": ["static/js"]}, modules) == []
    shallow = {"include": ["static/js/*.js"]}
    assert uncovered(tmp_path, shallow, modules) == ["static/js/parts/deep.js"]
    assert uncovered(tmp_path, {"files": ["static/js/main.js"]}, modules) == [
        "static/js/felt.js", "static/js/parts/deep.js",
    ]
    left = {"include": ["static/js/**/*.js"], "exclude": ["static/js/felt.js"]}
    assert uncovered(tmp_path, left, modules) == ["static/js/felt.js"]


@pytest.mark.parametrize(
    "code",
    [
        "state.round = null;",
        "  state.busy=true",
        "store.state.balance = 5;",
        "state.wagers[spot] = 500;",
        'state.last[tableKey()] = { ...state.wagers };',
        "state.session.rounds = 3;",
        "state.placing += 1;",
        "state.placing++;",
        "--state.placing;",
        "state.chip ??= 500;",
        "Object.assign(state, { busy: false });",
        "Object.assign(state.wagers, more);",
        "delete state.wagers.ante;",
        "state.undo.push({ ...state.wagers });",
        "state.games.sort((a, b) => a.title < b.title ? -1 : 1);",
    ],
)
def test_a_direct_write_to_the_state_is_found(code: str) -> None:
    assert writes(f"import {{ state }} from './state.js';\n{code}\n") == [(2, code.strip())]


@pytest.mark.parametrize(
    "code",
    [
        "if (state.round === null) return;",
        "const open = state.round && state.round.status == 'open';",
        "const wagers = { ...state.wagers };",
        "const undone = [...state.undo].reverse();",
        "store.act('busy', { busy: true });",
        "const seen = (state) => state.round;",
        "const pieces = state.wagers[spot] >= 500;",
        "// state.round = null is for actions.js to do",
        "/* Object.assign(state, changes) */",
        "const gameState = 1; myState.round = 2;",
    ],
)
def test_reading_the_state_is_no_write(code: str) -> None:
    assert writes(code) == []


def test_no_module_writes_to_the_state_directly() -> None:
    found = {
        path.name: writes(path.read_text())
        for path in _modules()
        if path.name != STORE
    }
    assert {name: lines for name, lines in found.items() if lines} == {}


def test_only_the_actions_call_the_store() -> None:
    acting = {
        path.name
        for path in _modules()
        if path.name != STORE and ACTS.search(COMMENTS.sub("", path.read_text()))
    }
    assert acting <= ACTING, f"store.act called outside {sorted(ACTING)}: {sorted(acting - ACTING)}"
    assert "actions.js" in acting
