"""The rule book, docs/rules.md: every ruling id the code, the tests and the pages
cite is defined there, once, with its source.

A ruling id is a family letter (G, R, T, C or B) and a number, 1 to 99, standing as
a word of its own: "(C8)", "ruling B1:", "R1-R11". It is looked for where people
write citations: in Python comments and strings (docstrings included), in the
comments of the page's JavaScript, HTML and CSS, and anywhere in Markdown. A letter
and digits inside a longer word ("0xB1", "AB12", "#C4", 2024-01-01T10:00) are no
citation.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "docs" / "rules.md"

#: a ruling id standing alone: not glued to letters, digits, or a path, hex or anchor
RULING = re.compile(r"(?<![\w./#$%])([GRTCB][1-9][0-9]?)(?!\w)")
#: where the book defines a ruling: a list item opening with the bold id
DEFINITION = re.compile(r"^- \*\*([GRTCB][1-9][0-9]?)\.\*\*", re.MULTILINE)
#: the rule texts a source line may come from
SOURCE_FILES = {"rabbit-hunter.txt", "tri-card-poker.txt", "crazy-4-poker.txt", "baccarat.txt"}
_COMMENTS = {
    ".js": re.compile(r"//[^\n]*|/\*.*?\*/", re.DOTALL),
    ".css": re.compile(r"/\*.*?\*/", re.DOTALL),
    ".html": re.compile(r"<!--.*?-->|/\*.*?\*/|//[^\n]*", re.DOTALL),
}


def _ids(text: str, first_line: int) -> Iterator[tuple[int, str]]:
    """(line, id) for each ruling id in ``text``, which starts at ``first_line``."""
    for found in RULING.finditer(text):
        yield first_line + text.count("\n", 0, found.start()), found.group(1)


def cited_in_python(source: str) -> Iterator[tuple[int, str]]:
    """Ruling ids in a Python module's comments and strings (docstrings included)."""
    kinds = {tokenize.COMMENT, tokenize.STRING}
    kinds |= {getattr(tokenize, "FSTRING_MIDDLE", tokenize.STRING)}  # Python 3.12+
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type in kinds:
            yield from _ids(token.string, token.start[0])


def cited_in_comments(source: str, suffix: str) -> Iterator[tuple[int, str]]:
    """Ruling ids in the comments of a JavaScript, CSS or HTML file."""
    for comment in _COMMENTS[suffix].finditer(source):
        yield from _ids(comment.group(), 1 + source.count("\n", 0, comment.start()))


def cited_in_markdown(source: str) -> Iterator[tuple[int, str]]:
    return _ids(source, 1)


def cited_in(path: Path) -> Iterator[tuple[int, str]]:
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".py":
        return cited_in_python(text)
    if path.suffix == ".md":
        return cited_in_markdown(text)
    return cited_in_comments(text, path.suffix)


def citing_files() -> list[Path]:
    """The files whose citations the book must cover."""
    suffixes = {".py", *_COMMENTS}
    files = [
        path
        for folder in (ROOT / "src", ROOT / "tests")
        for path in sorted(folder.rglob("*"))
        if path.suffix in suffixes and "__pycache__" not in path.parts
    ]
    files += [path for path in sorted((ROOT / "docs").glob("*.md")) if path != BOOK]
    return [*files, ROOT / "README.md"]


def defined(book: str) -> list[str]:
    """The ids the book defines, in order (an id defined twice appears twice)."""
    return DEFINITION.findall(book)


def undefined_citations(
    citations: dict[Path, list[tuple[int, str]]], known: set[str]
) -> list[str]:
    """``file:line: id`` for each cited id the book does not define."""
    return [
        f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}:{line}: {ruling}"
        for path, found in citations.items()
        for line, ruling in found
        if ruling not in known
    ]


def _entries(book: str) -> dict[str, str]:
    """Each defined id with the text of its entry, up to the next entry or heading."""
    starts = [(m.start(), m.group(1)) for m in DEFINITION.finditer(book)]
    ends = [start for start, _ in starts[1:]] + [len(book)]
    return {
        ruling: re.split(r"\n#", book[start:end])[0]
        for (start, ruling), end in zip(starts, ends, strict=True)
    }


# ------------------------------------------------------------ the book against the code


def test_every_cited_ruling_is_in_the_book() -> None:
    known = set(defined(BOOK.read_text(encoding="utf-8")))
    citations = {path: list(cited_in(path)) for path in citing_files()}
    assert sum(map(len, citations.values())) > 100  # the scan does find the citations
    missing = undefined_citations(citations, known)
    assert not missing, "cited but not in docs/rules.md:\n" + "\n".join(missing)


def test_the_book_defines_each_ruling_once_and_cites_only_its_own() -> None:
    book = BOOK.read_text(encoding="utf-8")
    ids = defined(book)
    twice = sorted(ruling for ruling, count in Counter(ids).items() if count > 1)
    assert not twice, f"defined more than once: {twice}"
    families = {family: sorted(int(i[1:]) for i in ids if i[0] == family) for family in "GRTCB"}
    for family, numbers in families.items():
        assert numbers == list(range(1, len(numbers) + 1)), (family, numbers)  # no gaps
    missing = undefined_citations({BOOK: list(cited_in_markdown(book))}, set(ids))
    assert not missing, missing


def test_every_ruling_gives_its_source() -> None:
    """A source names a rule text and its lines, or says the ruling fills a gap."""
    lines_of = re.compile(r"([a-z0-9-]+\.txt), lines? ([0-9][0-9, and-]*[0-9]|[0-9])")
    for ruling, entry in _entries(BOOK.read_text(encoding="utf-8")).items():
        source = " ".join(entry.partition("*Source:")[2].split())
        assert source, f"{ruling} gives no source"
        cited = lines_of.findall(source)
        assert cited or source.startswith("no source line: a gap the ruling fills"), (
            ruling,
            source,
        )
        for name, numbers in cited:
            assert name in SOURCE_FILES, (ruling, name)
            for span in re.split(r", | and ", numbers):
                first, _, last = span.partition("-")
                assert 1 <= int(first) <= int(last or first) <= 100, (ruling, span)


# ------------------------------------------------------------ the scanner can fail


def _made_up(number: int) -> str:
    """A ruling id that does not exist (built here, so this file cites none)."""
    return "R" + str(number)


def test_the_scanner_reports_a_ruling_missing_from_the_book(tmp_path: Path) -> None:
    fake = _made_up(99)
    module = tmp_path / "module.py"
    module.write_text(f'"""Checks {fake}."""\n\nx = 1  # see ({fake})\n', encoding="utf-8")
    found = list(cited_in(module))
    assert found == [(1, fake), (3, fake)]
    known = set(defined(BOOK.read_text(encoding="utf-8")))
    assert fake not in known
    assert undefined_citations({module: found}, known) == [
        f"{module}:1: {fake}",
        f"{module}:3: {fake}",
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("# the dealer qualifies (R5)", ["R5"]),
        ("# rulings R1-R11 and C1-C9", ["R1", "R11", "C1", "C9"]),
        ("'ruling B1: the burn'", ["B1"]),
        ("# G7, G8.", ["G7", "G8"]),
        ("x = '0xB1 AB12 #C4 2024-01-01T10:00 T2x _G3 B1F2 src/R4'", []),
        ("# B0 and B001 are no ids", []),
        ("R5 = 3  # a name in code is no citation", []),
    ],
)
def test_the_scanner_finds_citations_and_skips_look_alikes(
    text: str, expected: list[str]
) -> None:
    assert [ruling for _, ruling in cited_in_python(text + "\n")] == expected


def test_the_scanner_reads_page_comments_and_markdown() -> None:
    script = "const a = 'C8';  // chips (R2)\n/* one shoe,\n   B1 */\n"
    assert list(cited_in_comments(script, ".js")) == [(1, "R2"), (3, "B1")]
    assert list(cited_in_markdown("Two lines.\nThe Bonus (R1) and C2.\n")) == [
        (2, "R1"),
        (2, "C2"),
    ]


def test_a_book_defining_an_id_twice_is_caught() -> None:
    book = "- **G1.** Cents.\n- **G1.** Again.\n- **G2.** Decks.\n"
    assert defined(book) == ["G1", "G1", "G2"]
    assert Counter(defined(book))["G1"] == 2
