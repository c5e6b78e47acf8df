"""Variants written as files: ``riverboat variant new`` writes every rule of a variant
as commented TOML, ``check`` reads it back and names each mistake by its line, its
field and what is allowed, and every command that takes a game takes a file."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from riverboat import __version__
from riverboat.analysis import analyze
from riverboat.cli import app
from riverboat.games import find_game
from riverboat.games.baccarat import BaccaratRules
from riverboat.games.variant_files import VariantError, read_variant, variant_schema, variant_text

runner = CliRunner(env={"COLUMNS": "200", "NO_COLOR": "1"})


def _problems(text: str) -> list[str]:
    with pytest.raises(VariantError) as caught:
        read_variant(text)
    return caught.value.problems


def _line_of(text: str, start: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if line.startswith(start))


@pytest.mark.parametrize(
    ("game", "variant"),
    [
        (g, v)
        for g in ("tri-card", "crazy4", "rabbit-hunter", "baccarat")
        for v in find_game(g).variants
    ],
)
def test_every_named_variant_reads_back_as_the_same_rules(game: str, variant: str) -> None:
    text = variant_text(game, variant)
    kind, rules = read_variant(text)
    assert kind.name == game
    assert rules == find_game(game).rules(variant)
    assert f'riverboat = "{__version__}"' in text  # the version it was written for


def test_a_file_names_hands_as_players_read_them_and_money_in_dollars() -> None:
    text = variant_text("rabbit-hunter")
    assert '"Royal Flush" = 500' in text  # R7's Bonus table
    assert 'dealer_qualifies = "Ace-high"' in text  # R5
    assert 'bad_beat_at_least = "Pair of Tens"' in text  # R8
    assert "max_payout = 50000" in text  # R9: $50,000
    assert "chips = [1, 5, 25, 100, 500]" in text
    baccarat = variant_text("baccarat")
    assert "commission = 0.05" in baccarat  # B7: 5%


def test_pays_as_fractions_and_decimals_are_exact() -> None:
    text = variant_text("baccarat").replace("commission = 0.05", 'commission = "1/25"')
    _, rules = read_variant(text.replace("tie_pays = 8", "tie_pays = 9.5"))
    assert isinstance(rules, BaccaratRules)
    assert rules.commission == Fraction(1, 25)  # 4%
    assert rules.tie_pays == Fraction(19, 2)


def test_each_mistake_is_named_by_its_line_field_and_what_is_allowed() -> None:
    good = variant_text("tri-card")
    bad = (
        good.replace("Flush = 4", "Flush = -4")
        .replace("Straight = 6", 'Straight = "six"')
        .replace("Pair = 1", "Pear = 1")
        .replace('dealer_qualifies = "Queen-high"', 'dealer_qualifies = "Queen high"')
        .replace(
            "[pair_plus]\nminimum = 5\nmaximum = 100", "[pair_plus]\nminimum = 50\nmaximum = 10"
        )
    )
    problems = _problems(bad)
    said = {  # each mistake's line, and how what is said of it begins
        _line_of(bad, "dealer_qualifies"): "dealer_qualifies: no such hand; a hand such as High",
        _line_of(bad, "[pair_plus]"): "pair_plus: the minimum ($50) is above the maximum ($10)",
        _line_of(bad, "[pair_plus_table]"): "pair_plus_table.Pair: missing: the variant needs it",
        _line_of(bad, 'Straight = "six"'): "pair_plus_table.Straight: a pay is a number or a",
        _line_of(bad, "Flush = -4"): "pair_plus_table.Flush: a pay cannot be negative (-4 to 1)",
        _line_of(bad, "Pear"): "pair_plus_table.Pear: no such hand in this table; its hands",
    }
    assert len(said) == 6
    for line, start in said.items():
        assert any(p.startswith(f"line {line}: {start}") for p in problems), (line, problems)
    assert len(problems) == 6  # every mistake, not only the first
    numbers = [int(p.split(":")[0].removeprefix("line ")) for p in problems]
    assert numbers == sorted(numbers)  # in the file's order


def test_a_rule_the_engine_cannot_play_is_named_by_its_line() -> None:
    text = variant_text("baccarat").replace("decks = 8", "decks = 40")
    assert _problems(text) == [
        f"line {_line_of(text, 'decks')}: decks: a rule the engine cannot play: "
        "a shoe holds 1 to 12 decks, not 40"  # B1's shoe, as BaccaratRules checks it
    ]


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        ('game = "tri-card"', 'game = "poker"', "game: 'poker' is not a game; the games are"),
        (
            'based_on = "standard"',
            'based_on = "fancy"',
            "based_on: 'fancy' is not a Tri-Card Poker variant",
        ),
        ("[ante]", "[ante", "not TOML: Expected ']'"),
        ("chips = [1,", "chips = [1.005,", "chips.0: money is dollars to the cent, not 1.005"),
        (
            "maximum = 500",
            "maximum = 500\nmost = 3",
            "ante.most: no such limit; a wager's limits are minimum and maximum",
        ),
        (
            "minimum = 5\nmaximum = 500",
            "minimum = 0\nmaximum = 500",
            "ante.minimum: more than 0, not 0",
        ),
    ],
)
def test_other_mistakes(old: str, new: str, said: str) -> None:
    text = variant_text("tri-card")
    assert old in text
    problems = _problems(text.replace(old, new, 1))
    assert len(problems) == 1
    assert said in problems[0]
    assert problems[0].startswith("line ") or problems[0].startswith("chips")


def test_a_misspelt_field_is_said_with_the_one_it_resembles() -> None:
    text = variant_text("tri-card")
    problems = _problems(text.replace("\nchips", "\nchip", 1))
    assert problems == [
        "chips: missing: the variant needs it (see `riverboat variant new`)",
        f"line {_line_of(text, 'chips')}: chip: no such field (chips?); a Tri-Card Poker "
        "variant has riverboat, game, variant, based_on, ante, pair_plus, chips, "
        "dealer_qualifies, raise_table, ante_bonus_table, pair_plus_table",
    ]


def test_the_kinds_of_value_are_checked_strictly() -> None:
    crazy = variant_text("crazy4")
    assert (
        "ties_push: true or false, not 'yes'"
        in _problems(crazy.replace("ties_push = false", 'ties_push = "yes"'))[0]
    )
    baccarat = variant_text("baccarat")
    assert (
        "decks: a whole number, not " in _problems(baccarat.replace("decks = 8", "decks = 8.5"))[0]
    )
    assert (
        "tie_pays: a pay is a number"
        in _problems(baccarat.replace("tie_pays = 8", "tie_pays = true"))[0]
    )


def test_a_variant_file_is_analysed_exactly() -> None:
    """Pair Plus at 1-3-6-30-40, written as a file, gives the same exact figures as the
    named table (T8): its own edge is 1,608/22,100 = 7.276% (22,100 three-card hands:
    48 straight flushes, 52 trips, 720 straights, 1,096 flushes, 3,744 pairs; the
    Wizard of Odds' Three Card Poker page lists 7.28% for this table)."""
    text = variant_text("tri-card").replace('variant = "standard"', 'variant = "mine"')
    _, rules = read_variant(text.replace("Flush = 4", "Flush = 3"))
    named = find_game("tri-card").rules().with_tables(pair_plus="1-3-6-30-40")  # type: ignore[attr-defined]
    mine = analyze("tri-card", rules, {"pair_plus": 1}).figures
    theirs = analyze("tri-card", named, {"pair_plus": 1}).figures
    assert mine.house_edge == theirs.house_edge == Fraction(1608, 22100)


def test_the_schema_comes_from_the_checking_model() -> None:
    for game in ("tri-card", "crazy4", "rabbit-hunter", "baccarat"):
        schema = variant_schema(game)
        assert schema["additionalProperties"] is False
        assert set(schema["required"]) >= {"riverboat", "game", "variant"}
    pays = variant_schema("tri-card")["$defs"]["pair_plus_table_pays"]
    assert list(pays["properties"]) == [
        "Straight Flush",
        "Three Of A Kind",
        "Straight",
        "Flush",
        "Pair",
    ]
    qualifiers = variant_schema("tri-card")["properties"]["dealer_qualifies"]["enum"]
    assert "Queen-high" in qualifiers


def test_the_commands(tmp_path: Path) -> None:
    path = tmp_path / "pp.toml"
    written = runner.invoke(app, ["variant", "new", "tri-card", "-o", str(path)])
    assert written.exit_code == 0, written.output
    again = runner.invoke(app, ["variant", "new", "tri-card", "-o", str(path)])
    assert again.exit_code == 2
    assert "is there already (--force writes over it)" in again.output
    assert runner.invoke(app, ["variant", "new", "tri-card", "--from", "fancy"]).exit_code == 2
    path.write_text(path.read_text().replace('variant = "standard"', 'variant = "mine"'))
    fine = runner.invoke(app, ["variant", "check", str(path)])
    assert fine.exit_code == 0
    assert "a Tri-Card Poker variant, 'mine': it plays" in fine.output
    path.write_text(path.read_text().replace("Flush = 4", "Flush = -4"))
    wrong = runner.invoke(app, ["variant", "check", str(path)])
    assert wrong.exit_code == 1
    assert f"{path}:42: pair_plus_table.Flush: a pay cannot be negative" in wrong.output
    assert "1 problem: not a variant yet" in wrong.output
    schema = runner.invoke(app, ["variant", "schema", "baccarat"])
    assert json.loads(schema.output)["properties"]["decks"]["type"] == "integer"
    hands = runner.invoke(app, ["variant", "hands", "crazy4"])
    assert "dealer_qualifies:" in hands.output
    assert "King-high" in hands.output


def test_commands_take_a_variant_file_as_the_game_or_the_variant(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    text = variant_text("tri-card").replace('variant = "standard"', 'variant = "mine"')
    path.write_text(text)
    as_game = runner.invoke(app, ["analyze", str(path)])
    assert as_game.exit_code == 0, as_game.output
    assert as_game.output.startswith("Tri-Card Poker: mine")
    as_variant = runner.invoke(app, ["analyze", "tri-card", "--variant", str(path)])
    assert as_variant.output == as_game.output
    other = runner.invoke(app, ["analyze", "baccarat", "--variant", str(path)])
    assert other.exit_code == 2
    assert "is a Tri-Card Poker variant, not baccarat's" in other.output
    both = runner.invoke(app, ["analyze", str(path), "--variant", "standard"])
    assert both.exit_code == 2
    assert "leave out --variant" in both.output
    broken = tmp_path / "broken.toml"
    broken.write_text(text.replace("Pair = 1", "Pair = -1"))
    refused = runner.invoke(app, ["simulate", str(broken), "--rounds", "1000"])
    assert refused.exit_code == 2
    assert "a pay cannot be negative" in refused.output
