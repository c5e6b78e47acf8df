"""The lobby: tables configured by count or TOML file (with clear refusals), the public
lobby view (no card, no seed), tables joined by id or by game, one table of a game
at a time per player, and riverboat serve's --tables, --tables-file and --workers."""

import json
import re
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from typer.testing import CliRunner

from riverboat.cli import app as cli
from riverboat.settings import amended
from riverboat.table import lobby as lobby_module
from riverboat.table.lobby import (
    TableConfig,
    TablesError,
    default_tables,
    parse_counts,
    read_tables_file,
)
from riverboat.web.app import create_app
from riverboat.web.errors import CLOSE_NO_TABLE
from test_web_tables import log_in

if TYPE_CHECKING:
    from playwright.sync_api import Browser

ORIGIN = "http://testserver"
PASSWORD = "a long password"


# ------------------------------------------------------------------ configuration
@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("poker=2", "'poker' has no shared tables; name crazy4 or baccarat"),
        ("crazy4", "'crazy4': a count from 1 to 50"),
        ("crazy4=51", "'crazy4=51': a count from 1 to 50"),
        ("crazy4=x", "'crazy4=x': a count from 1 to 50"),
        ("crazy4=1,crazy4=2", "crazy4 is named twice"),
        (" , ", "name at least one game"),
    ],
)
def test_bad_counts_are_refused_with_what_is_allowed(text: str, said: str) -> None:
    with pytest.raises(TablesError, match=said):
        parse_counts(text)


def test_counts_make_numbered_tables_of_the_first_variant() -> None:
    tables = default_tables(parse_counts("crazy4=3,baccarat=2"))
    ids = ["crazy4-1", "crazy4-2", "crazy4-3", "baccarat-1", "baccarat-2"]
    assert [t.id for t in tables] == ids
    assert {t.variant for t in tables} == {None}


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "tables.toml"
    path.write_text(text, encoding="utf-8")
    return path


TABLE = "[[table]]\nid = 'a'\n"  # the start of an entry
GOOD = """
[[table]]
id = "high-limit"
game = "crazy4"
name = "High limit"
variant = "standard"

[[table]]
id = "mini"
game = "baccarat"
name = "Mini baccarat"
"""


def test_a_tables_file_names_ids_games_and_variants(tmp_path: Path) -> None:
    tables = read_tables_file(write(tmp_path, GOOD))
    assert tables == [
        TableConfig(id="high-limit", game="crazy4", name="High limit", variant="standard"),
        TableConfig(id="mini", game="baccarat", name="Mini baccarat"),
    ]


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (TABLE + "game = 'tri-card'\nname = 'A'", "table 1, game: shared tables play"),
        (TABLE + "game = 'crazy4'\nname = 'A'\nvariant = 'vegas'", "no variant 'vegas'"),
        ("[[table]]\nid = 'A B'\ngame = 'crazy4'\nname = 'A'", "table 1, id: use 1 to 40 lower"),
        ("[[table]]\nid = 'crazy4'\ngame = 'crazy4'\nname = 'A'", "cannot be a game's name"),
        (TABLE + "game = 'crazy4'", "table 1, name: Field required"),
        # a deck deals six Crazy 4 hands: a table seats at most six (C8)
        (TABLE + "game = 'crazy4'\nname = 'A'\nseats = 9", "seats: .*seats 1 to 6, not 9"),
        (TABLE + "game = 'baccarat'\nname = 'A'\nseats = 0", "seats: .*greater than or equal to 1"),
        (TABLE + "game = 'crazy4'\nname = 'A'\nchairs = 4", "chairs: Extra inputs"),
        (GOOD + "[[table]]\nid = 'mini'\ngame = 'crazy4'\nname = 'B'", "two tables have the id"),
        ("[tables]\nid = 'a'", "lists tables as \\[\\[table\\]\\] entries"),
        ("id = ", "is not TOML"),
    ],
)
def test_a_bad_tables_file_says_which_table_and_field(tmp_path: Path, text: str, said: str) -> None:
    with pytest.raises(TablesError, match=said):
        read_tables_file(write(tmp_path, text))


def test_a_missing_tables_file_is_said_plainly(tmp_path: Path) -> None:
    with pytest.raises(TablesError, match=r"cannot read .*nowhere\.toml"):
        read_tables_file(tmp_path / "nowhere.toml")


# ------------------------------------------------------------------ the served lobby
@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    tables = [*default_tables({"crazy4": 2}), *read_tables_file(write(tmp_path, GOOD))[1:]]
    app = create_app(
        amended(
            database_url=f"sqlite:///{tmp_path / 'lobby.db'}",
            local_player=False,
            rate_limit=1000,
            house_edges=False,
            betting_seconds=60,
            decision_seconds=60,
        ),
        tables=tables,
    )
    for name in ("ann", "bob"):
        app.state.service.register(name, PASSWORD)
    with TestClient(app) as test_client, ExitStack() as connections:
        test_client.connections = connections  # type: ignore[attr-defined]
        yield test_client


def sit(client: TestClient, cookie: str, name: str) -> Any:
    socket = client.connections.enter_context(  # type: ignore[attr-defined]
        client.websocket_connect(f"/ws/tables/{name}", headers={"origin": ORIGIN, "cookie": cookie})
    )
    return socket


def lobby(client: TestClient, cookie: str = "") -> dict[str, Any]:
    answer = client.get("/api/lobby", headers={"cookie": cookie} if cookie else {})
    assert answer.status_code == 200
    found: dict[str, Any] = answer.json()
    return found


def test_the_lobby_lists_every_table_without_cards_or_seeds(client: TestClient) -> None:
    tables = lobby(client)["tables"]  # no log-in needed to look
    assert [(t["id"], t["name"], t["game"], t["variant"]) for t in tables] == [
        ("crazy4-1", "Crazy 4 Poker 1", "crazy4", "rule-card"),
        ("crazy4-2", "Crazy 4 Poker 2", "crazy4", "rule-card"),
        ("mini", "Mini baccarat", "baccarat", "8 decks"),
    ]
    crazy = tables[0]
    assert (crazy["seats"], crazy["seats_taken"], crazy["seats_free"]) == (6, 0, 6)
    assert crazy["limits"].startswith("Ante $")
    assert "shoe" not in crazy or crazy["shoe"] is None
    assert tables[2]["shoe"] == {
        "cards_left": None,
        "coups": 0,
        "banker": 0,
        "player": 0,
        "tie": 0,
        "last": None,
    }
    assert (tables[2]["big_road"], crazy["big_road"]) == ([], None)  # a shoe's; none at Crazy 4
    assert [t["players"] for t in tables] == [[], [], []]
    text = json.dumps(tables)
    for secret in ("seed", "commitment", 'cards"', "server"):
        assert secret not in text


def test_a_table_is_joined_by_id_and_the_game_path_is_its_first_table(
    client: TestClient,
) -> None:
    ann, bob = log_in(client, "ann"), log_in(client, "bob")
    first = sit(client, ann, "crazy4-2")
    assert json.loads(first.receive_text())["type"] == "table"
    sit(client, bob, "crazy4").receive_text()  # the old path: the first Crazy 4 table
    seen = {t["id"]: t for t in lobby(client, ann)["tables"]}
    assert (seen["crazy4-1"]["seats_taken"], seen["crazy4-2"]["seats_taken"]) == (1, 1)
    assert (seen["crazy4-1"]["you"], seen["crazy4-2"]["you"]) == (False, True)
    with (
        pytest.raises(WebSocketDisconnect) as closed,
        client.websocket_connect(
            "/ws/tables/nowhere", headers={"origin": ORIGIN, "cookie": ann}
        ) as socket,
    ):
        socket.receive_text()
    assert closed.value.code == CLOSE_NO_TABLE
    assert "no table 'nowhere'; the tables are crazy4-1, crazy4-2, mini" in closed.value.reason


def test_one_table_of_a_game_at_a_time_and_moving_after_leaving(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lobby_module, "MOVE_SECONDS", 0.3)
    ann = log_in(client, "ann")
    with client.websocket_connect(
        "/ws/tables/crazy4-1", headers={"origin": ORIGIN, "cookie": ann}
    ) as at_first:
        at_first.receive_text()
        other = sit(client, ann, "crazy4-2")
        refusal = json.loads(other.receive_text())
        assert refusal["type"] == "error"
        assert "you are seated at Crazy 4 Poker 1 already" in refusal["message"]
        sit(client, ann, "mini").receive_text()  # another game's table: allowed
    # left the first table: now the move is taken
    moved = sit(client, ann, "crazy4-2")
    assert json.loads(moved.receive_text())["type"] == "table"
    seen = {t["id"]: t["you"] for t in lobby(client, ann)["tables"]}
    assert seen == {"crazy4-1": False, "crazy4-2": True, "mini": True}


def test_the_lobby_shows_a_shared_shoe_after_its_coups_b1(client: TestClient) -> None:
    ann = log_in(client, "ann")
    socket = sit(client, ann, "mini")
    for coup in (1, 2):
        socket.send_text(json.dumps({"type": "bet", "wagers": {"banker": 1000}}))
        while json.loads(socket.receive_text())["type"] != "coup":  # the only bettor: dealt
            pass
        shoe = lobby(client)["tables"][2]["shoe"]
        assert shoe["coups"] == coup
        # 8 decks, less the first card shown and its burn, then at least 4 cards a coup
        assert 416 - 11 - 6 * coup <= shoe["cards_left"] <= 416 - 2 - 4 * coup


def test_the_lobby_shows_a_tables_clock_and_its_seats_decisions(client: TestClient) -> None:
    """bob, alone at a Crazy 4 table, bets and is dealt: the lobby shows the table at its
    decisions with their clock running, and bob's seat in the hand, undecided."""
    bob = log_in(client, "bob")
    socket = sit(client, bob, "crazy4-1")
    socket.send_text(json.dumps({"type": "bet", "wagers": {"ante": 500, "super_bonus": 500}}))
    while json.loads(socket.receive_text())["type"] != "dealt":  # the only bettor: dealt
        pass
    table = next(t for t in lobby(client)["tables"] if t["id"] == "crazy4-1")
    assert table["phase"] == "deciding"
    assert 0 < table["seconds_left"] <= client.app.state.lobby.tables["crazy4-1"].decision_seconds
    [seat] = table["seated"]
    assert (seat["name"], seat["in_round"], seat["decided"]) == ("bob", True, False)
    assert seat["state"] == "deciding"


def _coup(socket: Any, spot: str) -> dict[str, Any]:
    """One coup bet on ``spot`` by the table's only bettor (dealt at once); the table's
    snapshot that follows it."""
    socket.send_text(json.dumps({"type": "bet", "wagers": {spot: 1000}}))
    while json.loads(socket.receive_text())["type"] != "coup":
        pass
    while (message := json.loads(socket.receive_text()))["type"] != "table":
        pass
    return dict(message)


def test_the_lobby_shows_a_shoes_big_road_counts_and_who_sits(client: TestClient) -> None:
    """A shared Baccarat table after a few coups: the lobby's big road is the table's own
    (entry for entry, at the same cells), its Banker, Player and Tie counts add up to the
    coups, and both players seated are named; nothing from a hand or a deal shows."""
    ann, bob = log_in(client, "ann"), log_in(client, "bob")
    at_mini = sit(client, ann, "mini")
    sit(client, bob, "crazy4-1").receive_text()
    for _ in range(6):
        snapshot = _coup(at_mini, "banker")
    sit(client, bob, "mini").receive_text()  # bob at both games' tables
    seen = {t["id"]: t for t in lobby(client)["tables"]}
    mini, crazy = seen["mini"], seen["crazy4-1"]
    assert mini["big_road"] == snapshot["shoe"]["roads"]["big_road"]
    assert mini["big_road"], "six coups make at least one Banker or Player entry"
    winners = snapshot["shoe"]["road"]
    shoe = mini["shoe"]
    assert (shoe["banker"], shoe["player"], shoe["tie"]) == tuple(
        winners.count(side) for side in ("Banker", "Player", "Tie")
    )
    assert shoe["banker"] + shoe["player"] + shoe["tie"] == shoe["coups"] == 6
    assert shoe["last"] == winners[-1]
    assert mini["players"] == ["ann", "bob"]
    assert crazy["players"] == ["bob"]
    assert seen["crazy4-2"]["players"] == []
    # the live miniature's seats are the table's own, as everyone seated sees them
    assert [(s["seat"], s["name"]) for s in crazy["seated"]] == [(1, "bob")]
    assert [s["name"] for s in mini["seated"]] == ["ann", "bob"]
    assert seen["crazy4-2"]["seated"] == []
    assert (mini["phase"], mini["seconds_left"]) == ("betting", None)  # no bet: no clock
    assert crazy["big_road"] is None
    text = json.dumps(lobby(client, ann))
    for secret in ("seed", "commitment", '"cards"', "server", "totals", "hand"):
        assert secret not in text
    # no card code (a rank and a suit, "Th") anywhere in the lobby's strings
    assert not re.search(r'"[2-9TJQKA][cdhs]"', text)


def test_the_lobby_keeps_a_long_big_roads_newest_20_columns(client: TestClient) -> None:
    """A shoe of Banker and Player in turn, a tie after each, has 30 big road columns:
    the lobby keeps the last 20, at the table's own columns, and counts every coup."""
    table = client.app.state.lobby.tables["mini"]
    table.road = ["Banker", "Tie", "Player", "Tie"] * 15  # 30 streaks, a tie after each
    mini = lobby(client)["tables"][2]
    own = table.snapshot(0).shoe.roads.big_road
    assert [e["column"] for e in mini["big_road"]] == list(range(10, 30))
    assert mini["big_road"] == [e.model_dump() for e in own[10:]]
    assert all(e["ties"] == 1 for e in mini["big_road"])
    assert (mini["shoe"]["banker"], mini["shoe"]["player"], mini["shoe"]["tie"]) == (15, 15, 30)


def test_the_lobbys_new_fields_are_in_the_openapi_schema(client: TestClient) -> None:
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    table = schemas["LobbyTable"]["properties"]
    assert table["players"]["items"] == {"type": "string"}
    assert "$ref" in str(table["big_road"])
    assert "BigRoadEntryView" in str(table["big_road"])
    assert {"banker", "player", "tie"} <= set(schemas["LobbyShoe"]["required"])


# ------------------------------------------------------------------ riverboat serve
def serve(*args: str) -> Any:
    return CliRunner().invoke(cli, ["serve", *args], env={"COLUMNS": "200"})


def test_serve_refuses_several_workers_on_sqlite(tmp_path: Path) -> None:
    said = serve("--workers", "2", "--database", f"sqlite:///{tmp_path / 'one.db'}")
    assert said.exit_code == 2
    text = " ".join(said.output.split())
    assert "2 processes cannot share an SQLite database" in text
    assert "PostgreSQL" in text
    assert "RIVERBOAT_REDIS_URL" in text


def test_serve_with_a_redis_url_needs_the_redis_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    from riverboat.cli import _extras

    real = _extras.find_spec
    monkeypatch.setattr(
        _extras, "find_spec", lambda name, *a: None if name == "redis" else real(name, *a)
    )
    answer = CliRunner().invoke(cli, ["serve"], env={"RIVERBOAT_REDIS_URL": "redis://h:6379/0"})
    assert answer.exit_code == 2
    assert "pip install 'riverboat[redis]'" in answer.output


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--tables", "poker=1"], "'poker' has no shared tables"),
        (["--tables", "crazy4=1", "--tables-file", "x.toml"], "not both"),
        (["--tables-file", "nowhere.toml"], "cannot read nowhere.toml"),
    ],
)
def test_serve_refuses_bad_tables_before_serving(args: list[str], said: str) -> None:
    answer = serve(*args)
    assert answer.exit_code == 2
    assert said in " ".join(answer.output.split())
    assert "Traceback" not in answer.output


# ------------------------------------------------------------------ the page
def test_the_table_menu_opens_the_lobby_and_a_key_sits_and_moves(
    tmp_path: Path, browser: "Browser"
) -> None:
    """The lobby in the table menu, photographed at 390 and 1440 px, played by keyboard:
    a table's number sits there, another's moves there."""
    from playwright.sync_api import expect

    from browser_support import new_tab, serving, shoot

    tables = default_tables(parse_counts("crazy4=2,baccarat=2"))
    with serving(tmp_path / "lobby.db", local_player=True, tables=tables) as server:
        page = new_tab(browser, viewport={"width": 1440, "height": 900})
        page.goto(server)
        page.wait_for_selector(".spot")
        menu = page.locator("#games")
        for width, height in ((390, 844), (1440, 900)):
            page.set_viewport_size({"width": width, "height": height})
            page.keyboard.press("l")  # the table menu, by its key
            expect(menu.locator("button")).to_have_count(8)  # 4 own tables, 4 shared
            expect(menu).to_contain_text("0 of 6 seats taken · 6 free")
            expect(menu).to_contain_text("Shoe: 0 coups dealt · a new shoe")
            page.wait_for_timeout(300)
            shoot(page, f"lobby-{width}")
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            page.keyboard.press("Escape")
        page.keyboard.press("l")
        page.keyboard.press("6")  # the second Crazy 4 table
        expect(page.locator("#logo")).to_have_text("Crazy 4 Poker 2 · shared")
        expect(page.locator("#seats")).to_contain_text("(you)")
        page.keyboard.press("l")
        second = menu.locator("[data-table='crazy4:crazy4-2']")
        expect(second).to_contain_text("1 of 6 seats taken · 5 free · you sit here")
        page.keyboard.press("5")  # move to the first: the seat at the second is left
        expect(page.locator("#logo")).to_have_text("Crazy 4 Poker 1 · shared")
        expect(page.locator("#seats")).to_contain_text("(you)")
        page.keyboard.press("l")
        expect(second).to_contain_text("0 of 6 seats taken")
        expect(menu.locator("[data-table='crazy4:crazy4-1']")).to_contain_text("you sit here")
        page.wait_for_timeout(300)
        shoot(page, "lobby-seated-1440")
        page.keyboard.press("Escape")
        page.set_viewport_size({"width": 390, "height": 844})
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        page.wait_for_timeout(300)
        shoot(page, "lobby-table-390")
        page.locator("#leave").focus()
        page.keyboard.press("Enter")  # leave, by keyboard: back at the game's own table
        expect(page.locator("#logo")).to_have_text("Crazy 4 Poker")
        page.keyboard.press("l")
        expect(menu.locator("[data-table='crazy4:crazy4-1']")).to_contain_text("0 of 6 seats")
        page.close()


def test_the_table_menu_keeps_its_buttons_while_the_lobby_is_fetched_again(
    tmp_path: Path, browser: "Browser"
) -> None:
    """The menu's buttons and miniatures stay the same nodes while the lobby is fetched
    again, so a tap in progress keeps its target; a table gone takes only its own button,
    and the rest are numbered again."""
    from playwright.sync_api import Route, expect

    from browser_support import new_tab, serving

    tables = default_tables(parse_counts("crazy4=2,baccarat=2"))
    with serving(tmp_path / "lobby.db", local_player=True, tables=tables) as server:
        page = new_tab(browser, viewport={"width": 1440, "height": 900})
        page.goto(server)
        page.wait_for_selector(".spot")
        page.keyboard.press("l")
        menu = page.locator("#games")
        expect(menu.locator("button")).to_have_count(8)  # 4 own tables, 4 shared
        expect(menu.locator(".mini-road")).to_have_count(2)  # one a baccarat shoe
        nodes = "document.querySelectorAll('#games button, #games .mini-road')"
        page.evaluate(f"for (const e of {nodes}) e.kept = 1")
        kept = f"[...{nodes}].map((e) => e.kept)"
        # every button and miniature taken out of the menu, even for a moment (a move
        # takes it out and puts it back); a line's words may be written afresh
        page.evaluate(
            """window.takenOut = [];
            new MutationObserver((changes) => { for (const c of changes) for (const n of
              c.removedNodes) if (n.matches?.('button, .mini-road, .mini-seats'))
                window.takenOut.push(n.dataset.table || n.className);
            }).observe(document.getElementById('games'), {childList: true, subtree: true})"""
        )
        menu.locator("[data-table='crazy4:crazy4-2']").focus()
        for _ in range(2):  # the second fetch comes 3 s after the first, long after its redraw
            with page.expect_response(lambda r: r.url.endswith("/api/lobby")):
                pass  # the menu's own fetch, every few seconds while it is open
        assert page.evaluate(kept) == [1] * 10
        assert page.evaluate("window.takenOut") == []

        def without_crazy4_1(route: Route) -> None:
            answer = route.fetch()
            body = answer.json()
            body["tables"] = [t for t in body["tables"] if t["id"] != "crazy4-1"]
            route.fulfill(response=answer, json=body)

        page.route("**/api/lobby", without_crazy4_1)
        expect(menu.locator("button")).to_have_count(7)
        assert page.evaluate(kept) == [1] * 9  # only the table gone lost its button
        assert page.evaluate("window.takenOut") == ["crazy4:crazy4-1"]  # none moved
        second = menu.locator("[data-table='crazy4:crazy4-2']")
        expect(second).to_be_focused()
        expect(second).to_have_attribute("aria-keyshortcuts", "5")  # fifth now, not sixth
        expect(second.locator(".table-title")).to_have_id("table-5")
        page.unroute("**/api/lobby")
        expect(menu.locator("button")).to_have_count(8)  # back, with a new button
        assert page.evaluate(kept) == [1, 1, 1, 1, None, 1, 1, 1, 1, 1]
        assert page.evaluate("window.takenOut") == ["crazy4:crazy4-1"]
        expect(second).to_have_attribute("aria-keyshortcuts", "6")
        page.keyboard.press("5")  # its number sits there
        expect(page.locator("#logo")).to_have_text("Crazy 4 Poker 1 · shared")
        page.close()
