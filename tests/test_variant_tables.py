"""A shared table that deals a variant written as a file: ``serve --tables-file`` names
it (``variant_file``), the table plays by its rules, its deals record them, and the
page asks the table for its own circles, pays and edges."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import Browser, expect

from riverboat.games import definition, find_game
from riverboat.games.codec import rules_json
from riverboat.games.variant_files import read_variant, variant_text
from riverboat.settings import amended
from riverboat.table.lobby import TablesError, read_tables_file
from riverboat.web.app import create_app

from browser_support import choose, new_tab, serving, shoot, tap


@pytest.fixture(autouse=True)
def _no_variant_outlives_its_test(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(definition, "_LOADED", {})


def _mini(tmp_path: Path, name: str = "mini-4") -> Path:
    """Baccarat with a 4% commission and a Tie at 9 to 1, as a variant file."""
    text = variant_text("baccarat").replace('variant = "8 decks"', f'variant = "{name}"')
    text = text.replace("commission = 0.05", 'commission = "1/25"').replace(
        "tie_pays = 8", "tie_pays = 9"
    )
    path = tmp_path / "mini.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _tables(tmp_path: Path, entry: str) -> Path:
    path = tmp_path / "tables.toml"
    path.write_text(f'[[table]]\nid = "mini"\ngame = "baccarat"\nname = "Mini"\n{entry}\n')
    return path


def test_a_tables_file_serves_a_variant_file_beside_it(tmp_path: Path) -> None:
    _mini(tmp_path)
    (config,) = read_tables_file(_tables(tmp_path, 'variant_file = "mini.toml"'))
    assert config.variant == "mini-4"
    assert config.variant_file == str((tmp_path / "mini.toml").resolve())  # for every process
    _, rules = read_variant(tmp_path / "mini.toml")
    assert find_game("baccarat").rules("mini-4") == rules  # loaded as the game's variant
    again = type(config).model_validate(json.loads(config.model_dump_json()))  # a worker's copy
    assert again == config


@pytest.mark.parametrize(
    ("entry", "said"),
    [
        (
            'variant_file = "mini.toml"\nvariant = "6 decks"',
            "give variant or variant_file, not both",
        ),
        ('variant_file = "none.toml"', "cannot read the variant file"),
        ('variant_file = "crazy.toml"', "is a Crazy 4 Poker variant, not 'baccarat'"),
        ('variant_file = "broken.toml"', "is not a variant: line "),
    ],
)
def test_a_table_whose_variant_file_cannot_be_served_is_refused(
    tmp_path: Path, entry: str, said: str
) -> None:
    mini = _mini(tmp_path)
    (tmp_path / "crazy.toml").write_text(variant_text("crazy4"))
    (tmp_path / "broken.toml").write_text(mini.read_text().replace("tie_pays = 9", "tie_pays = -9"))
    with pytest.raises(TablesError, match=said):
        read_tables_file(_tables(tmp_path, entry))


def test_a_file_cannot_take_the_name_of_other_rules(tmp_path: Path) -> None:
    _mini(tmp_path, name="6 decks")  # Baccarat's own "6 decks" is other rules
    with pytest.raises(TablesError, match="already has a variant '6 decks' with other rules"):
        read_tables_file(_tables(tmp_path, 'variant_file = "mini.toml"'))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    _mini(tmp_path)
    tables = read_tables_file(_tables(tmp_path, 'variant_file = "mini.toml"'))
    settings = amended(database_url=f"sqlite:///{tmp_path / 'v.db'}", house_edges=False)
    with TestClient(create_app(settings, tables=tables)) as test_client:
        yield test_client


def test_the_table_says_its_own_rules_to_the_page(client: TestClient) -> None:
    own = client.get("/api/tables/mini/game").json()
    assert own["variant"] == "mini-4"
    pays = {line["name"]: line["pays"] for line in own["lines"]}
    assert pays["tie"] == "9 to 1"
    assert pays["banker"] == "96 to 100 (4% commission)"  # B7 at 4%
    assert any("less 4% commission, Tie 9 to 1" in line for line in own["how_to_play"])
    assert own["edges_state"] == "unavailable"  # this server works no edges out
    assert own["edges"] is None
    default = next(g for g in client.get("/api/games").json() if g["game"] == "baccarat")
    assert default["variant"] == "8 decks"  # the game's own list is unchanged
    missing = client.get("/api/tables/nowhere/game")
    assert missing.status_code == 404
    assert "no table 'nowhere'" in missing.json()["error"]


def test_a_deal_at_the_table_records_the_variants_rules(client: TestClient) -> None:
    service = client.app.state.service  # type: ignore[attr-defined]
    deal = service.new_deal("baccarat", "mini-4")
    from sqlalchemy.orm import Session

    from riverboat.store.models import Deal

    with Session(service.engine) as session:
        stored = session.get(Deal, deal.id)
        assert stored is not None
        assert json.loads(stored.rules) == rules_json(find_game("baccarat").rules("mini-4"))


def test_the_page_shows_a_variant_tables_own_pays(tmp_path: Path, browser: Browser) -> None:
    """At the table its circles and pay table are the variant's (a Tie at 9 to 1, a 4%
    commission), not the game's own; its own Baccarat table still shows 8 to 1."""
    _mini(tmp_path)
    tables = read_tables_file(_tables(tmp_path, 'variant_file = "mini.toml"'))
    with serving(tmp_path / "page.db", local_player=True, tables=tables) as server:
        page = new_tab(browser, viewport={"width": 390, "height": 844})
        page.goto(server)
        page.wait_for_selector(".spot")
        choose(page, "Mini · shared")
        expect(page.locator("[data-spot=tie]")).to_contain_text(re.compile("9 to 1", re.I))
        page.click("#rules")
        dialog = page.locator("#paytable")
        expect(dialog).to_contain_text("less 4% commission, Tie 9 to 1")
        expect(page.locator("#paytable-title")).to_have_text(
            "Baccarat (mini-4): pay table and rules"
        )
        shoot(page, "variant-table-390")
        page.keyboard.press("Escape")
        tap(page, "tie")  # a coup at the table, dealt by the variant's rules
        page.click("#deal")
        expect(page.locator("#message")).to_contain_text("Net")
        page.wait_for_timeout(400)
        shoot(page, "variant-table-played-390")
        [played] = page.request.get(server + "api/history?limit=1").json()
        assert played["variant"] == "mini-4"
        assert played["record"]["rules"]["tie_pays"] == "9"
        choose(page, "Baccarat")
        expect(page.locator("[data-spot=tie]")).to_contain_text(re.compile("8 to 1", re.I))
        page.close()
