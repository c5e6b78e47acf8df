"""Variants written as files: a game's rules as commented TOML a designer edits, read
back and checked, every mistake named by its line, its field and what is allowed.

:func:`variant_text` writes a variant (``riverboat variant new``); :func:`read_variant`
reads one back as the game's rules (``riverboat variant check``, and every command
that takes a variant); :func:`variant_schema` is the file's JSON Schema, from the same
model that checks it (:mod:`riverboat.games.variant_model`).

>>> text = variant_text("tri-card")
>>> print(text.splitlines()[0])
# Tri-Card Poker: a variant of riverboat's "standard" rules. Edit it, then
>>> game, rules = read_variant(text.replace('variant = "standard"', 'variant = "mine"'))
>>> game.name, rules.variant, rules == game.rules().__class__(variant="mine")
('tri-card', 'mine', True)
>>> try:
...     read_variant(text.replace("Flush = 4", "Flush = -4"))
... except VariantError as error:
...     print(error.problems[0])
line 42: pair_plus_table.Flush: a pay cannot be negative (-4 to 1)
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import re
import tomllib
import typing
from collections.abc import Iterator
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel, ValidationError

from riverboat.games.rules import PayTable, RulesError, Spot
from riverboat.games.variant_model import (
    doc_of,
    hand_names,
    hand_ranking,
    is_cap,
    is_money_list,
    rules_from,
    variant_model,
)

if TYPE_CHECKING:
    from riverboat.games.definition import GameRules, SomeGame

__all__ = ["VariantError", "read_variant", "rules_text", "variant_schema", "variant_text"]


class VariantError(ValueError):
    """A variant file that is not a variant: each problem as "line N: field: what is
    wrong", in the file's order."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


def _version() -> str:
    from riverboat import __version__

    return str(__version__)


# ------------------------------------------------------------------ writing
def _dollars(cents: int) -> str:
    return str(cents // 100) if cents % 100 == 0 else f"{cents / 100:.2f}"


def _number(value: Fraction) -> str:
    if value.denominator == 1:
        return str(value.numerator)
    if (value * 100).denominator == 1:
        return str(Decimal(value.numerator) / Decimal(value.denominator))
    return f'"{value.numerator}/{value.denominator}"'


def _key(name: str) -> str:
    return name if re.fullmatch(r"[A-Za-z0-9_-]+", name) else json.dumps(name)


def _value_lines(field: dataclasses.Field[object], value: object, hint: object) -> list[str]:
    """A field's lines of TOML (its own table for a spot or a pay table)."""
    ranking = hand_ranking(field)
    if isinstance(value, Spot):
        return [f"[{field.name}]", f"minimum = {_dollars(value.minimum)}",
                f"maximum = {_dollars(value.maximum)}"]  # fmt: skip
    if isinstance(value, PayTable):
        return [f"[{field.name}]"] + [
            f"{_key(line.label)} = {_number(line.pays)}" for line in value.lines
        ]
    if ranking is not None:
        name = next(n for n, key in hand_names(ranking).items() if key == value)
        return [f"{field.name} = {json.dumps(name)}"]
    if isinstance(value, bool):
        return [f"{field.name} = {str(value).lower()}"]
    if isinstance(value, Fraction):
        return [f"{field.name} = {_number(value)}"]
    if isinstance(value, tuple) and is_money_list(field, hint):
        return [f"{field.name} = [{', '.join(_dollars(int(c)) for c in value)}]"]
    if is_cap(hint):
        return [
            f'{field.name} = "none"'
            if value is None
            else f"{field.name} = {_dollars(int(str(value)))}"
        ]
    return [f"{field.name} = {value}"]


def _allowed(field: dataclasses.Field[object]) -> str:
    ranking = hand_ranking(field)
    if ranking is None:
        return ""
    names = list(hand_names(ranking))
    return f"# one of: {', '.join(names[:4])}, ... {names[-1]} (`riverboat variant hands`)"


def variant_text(game: str | SomeGame, based_on: str | None = None) -> str:
    """A variant of ``game`` as a commented TOML file: every rule of the named variant
    ``based_on`` (the game's default if None), ready to edit."""
    from riverboat.games import find_game

    kind = find_game(game) if isinstance(game, str) else game
    return rules_text(kind, kind.rules(based_on))


def rules_text(kind: SomeGame, rules: GameRules, based_on: str | None = None) -> str:
    """``rules`` of the game ``kind`` as a variant file's text, a variant of the named
    variant ``based_on`` (default: :func:`named_base`)."""
    based_on = named_base(kind, rules) if based_on is None else based_on
    head = [
        f'# {kind.title}: a variant of riverboat\'s "{based_on}" rules. Edit it, then',
        "# check it with `riverboat variant check FILE`.",
        '# Money is in dollars; a pay is X to 1 (a number, or a fraction as text: "3/2").',
        "",
        f'riverboat = "{_version()}"  # the riverboat it was written for',
        f'game = "{kind.name}"',
        f'based_on = "{based_on}"  # the rules this variant starts from',
        f'variant = "{rules.variant}"  # this variant\'s name: give it your own',
    ]
    hints = typing.get_type_hints(type(rules))
    plain: list[str] = []
    tables: list[str] = []
    for field in dataclasses.fields(rules):  # type: ignore[arg-type]
        if field.name in ("variant", "version"):
            continue
        value = getattr(rules, field.name)
        lines = _value_lines(field, value, hints[field.name])
        notes = [f"# {doc_of(field)}"] if doc_of(field) else []
        notes += [_allowed(field)] if _allowed(field) else []
        into = tables if lines[0].startswith("[") else plain
        into += ["", *notes, *lines]
    return "\n".join(head + plain + tables) + "\n"


def named_base(kind: SomeGame, rules: GameRules) -> str:
    """The named variant a file of ``rules`` is written against: the rules' own where
    they are one (a file's rules are not), else the first whose pay tables pay on the
    same hands (a file changes what a hand pays, not which hands pay).

    >>> from riverboat.games import find_game
    >>> named_base(find_game("baccarat"), find_game("baccarat").rules("6 decks"))
    '6 decks'
    """
    if kind.variants.get(rules.variant) == rules:
        return rules.variant

    def hands(of: GameRules) -> list[list[str]]:
        return [
            [line.label for line in value.lines]
            for field in dataclasses.fields(of)  # type: ignore[arg-type]
            if isinstance(value := getattr(of, field.name), PayTable)
        ]

    return next(
        (name for name, named in kind.variants.items() if hands(named) == hands(rules)),
        next(iter(kind.variants)),
    )


# ------------------------------------------------------------------ reading
_TABLE = re.compile(r"^\s*\[\s*([^\]]+?)\s*\]")
_KEY = re.compile(r'^\s*("(?:[^"\\]|\\.)*"|[A-Za-z0-9_-]+)\s*=')


def _lines(text: str) -> dict[tuple[str, ...], int]:
    """Where each key stands: (table, key) and (table,) -> line number (1-based)."""
    found: dict[tuple[str, ...], int] = {}
    table: tuple[str, ...] = ()
    for number, line in enumerate(text.splitlines(), start=1):
        if header := _TABLE.match(line):
            table = (header[1].strip('"'),)
            found.setdefault(table, number)
        elif key := _KEY.match(line):
            name = json.loads(key[1]) if key[1].startswith('"') else key[1]
            found.setdefault((*table, name), number)
    return found


def _where(
    loc: tuple[int | str, ...], model: type[BaseModel], lines: dict[tuple[str, ...], int]
) -> tuple[int, str]:
    """The line and the dotted field a pydantic error's location names (a pay table's
    hand by its label)."""
    parts = [str(p) for p in loc]
    if len(parts) >= 2 and parts[1].startswith("line_"):
        inner = model.model_fields[parts[0]].annotation
        if isinstance(inner, type) and issubclass(inner, BaseModel):
            alias = inner.model_fields[parts[1]].alias
            parts[1] = alias or parts[1]
    for size in range(len(parts), 0, -1):
        if tuple(parts[:size]) in lines:
            return lines[tuple(parts[:size])], ".".join(parts)
    return 0, ".".join(parts)


def _problems(
    error: ValidationError, model: type[BaseModel], text: str, base: object
) -> Iterator[tuple[int, str]]:
    lines = _lines(text)
    for problem in error.errors():
        number, field = _where(problem["loc"], model, lines)
        said = str(problem["msg"]).removeprefix("Value error, ")
        kind = problem["type"]
        if kind == "extra_forbidden":
            said = _unknown(problem["loc"], model, base)
        elif kind == "greater_than":
            said = f"more than {problem['ctx']['gt']}, not {problem['input']}"
        elif kind == "decimal_max_places":
            said = f"money is dollars to the cent, not {problem['input']}"
        elif kind in ("int_type", "int_from_float", "int_parsing"):
            said = f"a whole number, not {problem['input']!r}"
        elif kind in ("bool_type", "bool_parsing"):
            said = f"true or false, not {problem['input']!r}"
        elif kind == "missing":
            said = "missing: the variant needs it (see `riverboat variant new`)"
        elif kind == "literal_error":
            said = f"no such hand; {_hands_of(problem['loc'][0], base)}"
        yield number, f"line {number}: {field}: {said}" if number else f"{field}: {said}"


def _unknown(loc: tuple[int | str, ...], model: type[BaseModel], base: object) -> str:
    if len(loc) == 2 and loc[0] in model.model_fields:
        inner = model.model_fields[str(loc[0])].annotation
        if isinstance(inner, type) and issubclass(inner, BaseModel):
            hands = [f.alias or name for name, f in inner.model_fields.items()]
            if inner.__name__ == "FileSpot":
                return "no such limit; a wager's limits are minimum and maximum"
            return f"no such hand in this table; its hands are {', '.join(hands)}"
    from riverboat.games import game_of

    close = difflib.get_close_matches(str(loc[-1]), list(model.model_fields), n=1)
    hint = f" ({close[0]}?)" if close else ""
    fields = ", ".join(model.model_fields)
    return f"no such field{hint}; a {game_of(base).title} variant has {fields}"


def _hands_of(field_name: object, base: object) -> str:
    field = next(f for f in dataclasses.fields(base) if f.name == field_name)  # type: ignore[arg-type]
    ranking = hand_ranking(field)
    names = list(hand_names(ranking)) if ranking else []
    return f"a hand such as {', '.join(names[:3])} or {names[-1]} (`riverboat variant hands`)"


def _parsed(text: str) -> dict[str, object]:
    try:
        return tomllib.loads(text, parse_float=Decimal)
    except tomllib.TOMLDecodeError as error:
        said = str(error)
        at = re.search(r"\(at line (\d+), column \d+\)", said)
        where = f"line {at[1]}: " if at else ""
        what = re.sub(r" \(at line.*", "", said)
        raise VariantError([f"{where}not TOML: {what}"]) from None


def read_variant(source: str | Path) -> tuple[SomeGame, GameRules]:
    """A variant file (its text, or its path) as its game and that game's rules;
    :class:`VariantError` naming every mistake, each with its line."""
    from riverboat.games import GAMES, find_game

    text = source.read_text(encoding="utf-8") if isinstance(source, Path) else source
    data = _parsed(text)
    lines = _lines(text)
    name = data.get("game")
    if not isinstance(name, str) or name not in GAMES:
        where = lines.get(("game",), 0)
        raise VariantError([f"line {where}: game: {name!r} is not a game; the games are "
                            f"{', '.join(GAMES)}"])  # fmt: skip
    kind = find_game(name)
    based = data.get("based_on", None)
    if based is not None and (not isinstance(based, str) or based not in kind.variants):
        where = lines.get(("based_on",), 0)
        raise VariantError([f"line {where}: based_on: {based!r} is not a {kind.title} variant; "
                            f"they are {', '.join(kind.variants)}"])  # fmt: skip
    base = kind.rules(based)
    model = variant_model(base)
    try:
        checked = model.model_validate(data)
    except ValidationError as error:
        found = sorted(_problems(error, model, text, base))
        raise VariantError([said for _, said in found]) from None
    try:
        return kind, rules_from(base, checked)
    except RulesError as error:
        raise VariantError(_unplayable(base, checked, lines) or [_cannot(0, "", error)]) from None


def _cannot(number: int, field: str, error: RulesError) -> str:
    where = f"line {number}: {field}: " if number else ""
    return f"{where}a rule the engine cannot play: {error}"


def _unplayable(base: object, checked: BaseModel, lines: dict[tuple[str, ...], int]) -> list[str]:
    """Each field whose value alone makes rules the engine cannot play, by its line
    (rules refused only by two fields together are said without one)."""
    found = []
    for field in dataclasses.fields(base):  # type: ignore[arg-type]
        if field.name in ("variant", "version"):
            continue
        alone = _one_field(base, checked, field.name)
        try:
            rules_from(base, alone)
        except RulesError as error:
            found.append(_cannot(lines.get((field.name,), 0), field.name, error))
    return found


def _one_field(base: object, checked: BaseModel, name: str) -> BaseModel:
    """``checked`` with every field but ``name`` as ``base`` has it."""
    from riverboat.games import game_of

    model = type(checked)
    text = rules_text(game_of(base), base)  # type: ignore[arg-type]
    written = model.model_validate(tomllib.loads(text, parse_float=Decimal))
    return written.model_copy(update={name: getattr(checked, name)})


def variant_schema(game: str) -> dict[str, object]:
    """The JSON Schema of ``game``'s variant files (its default variant's hands)."""
    from riverboat.games import find_game

    kind = find_game(game)
    schema = variant_model(kind.rules()).model_json_schema()
    schema["title"] = f"A {kind.title} variant (riverboat {_version()})"
    return schema
