"""Shared tables over WebSockets: the handshake's Origin and log-in checks, and every
frame and HTTP response over full rounds, checked for cards and seeds they must not
show (C8: no player sees another's cards)."""

import json
import re
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from riverboat.settings import amended
from riverboat.web.app import create_app
from riverboat.web.errors import CLOSE_LOG_IN

ORIGIN = "http://testserver"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """A shared server with two accounts; the connections opened close before it stops."""
    app = create_app(
        amended(
            database_url=f"sqlite:///{tmp_path / 'tables.db'}",
            local_player=False,
            rate_limit=1000,
            house_edges=False,
            betting_seconds=60,
            decision_seconds=60,
        )
    )
    for name in ("ann", "bob"):
        app.state.service.register(name, "a long password")
    with TestClient(app) as test_client, ExitStack() as connections:
        test_client.connections = connections  # type: ignore[attr-defined]
        yield test_client


def log_in(client: TestClient, name: str) -> str:
    """A session cookie for ``name`` (kept out of the client's jar, to hold two)."""
    client.cookies.clear()
    client.get("/")
    response = client.post(
        "/api/login",
        json={"name": name, "password": "a long password"},
        headers={"X-CSRF-Token": client.cookies["riverboat_csrf"]},
    )
    assert response.status_code == 200
    token = response.cookies["riverboat_session"]
    client.cookies.clear()
    return f"riverboat_session={token}"


class Player:
    """One player's connection, keeping every frame it received."""

    def __init__(self, client: TestClient, cookie: str, game: str) -> None:
        self.client, self.cookie = client, cookie
        self.socket: WebSocketTestSession = client.connections.enter_context(  # type: ignore[attr-defined]
            client.websocket_connect(
                f"/ws/tables/{game}", headers={"origin": ORIGIN, "cookie": cookie}
            )
        )
        self.frames: list[str] = []
        self.http: list[str] = []

    def send(self, message: dict[str, Any]) -> None:
        self.socket.send_text(json.dumps(message))

    def until(self, kind: str) -> dict[str, Any]:
        while True:
            text = self.socket.receive_text()
            self.frames.append(text)
            message: dict[str, Any] = json.loads(text)
            if message["type"] == kind:
                return message

    def get(self, path: str) -> Any:
        response = self.client.get(path, headers={"cookie": self.cookie})
        self.http.append(response.text)
        return response.json()


def shows(texts: list[str], cards: list[str]) -> list[str]:
    return [card for card in cards if any(re.search(rf'"{card}"', text) for text in texts)]


@pytest.mark.parametrize(
    ("headers", "code", "reason"),
    [
        ({}, 1008, "own page"),  # no Origin: refused before the accept
        ({"origin": "http://evil.example"}, 1008, "own page"),  # another site's page
        ({"origin": ORIGIN}, CLOSE_LOG_IN, "log in first"),  # no session: the page asks
    ],
)
def test_the_handshake_checks_origin_and_log_in(
    client: TestClient, headers: dict[str, str], code: int, reason: str
) -> None:
    with (
        pytest.raises(WebSocketDisconnect) as refused,
        client.websocket_connect("/ws/tables/crazy4", headers=headers) as socket,
    ):
        socket.receive_text()
    assert refused.value.code == code
    assert reason in refused.value.reason


def test_no_frame_shows_another_players_cards_the_dealers_or_the_seed_c8(
    client: TestClient,
) -> None:
    ann = Player(client, log_in(client, "ann"), "crazy4")
    bob = Player(client, log_in(client, "bob"), "crazy4")
    ann.until("table")
    bob.until("table")
    ante = {"ante": 1000, "super_bonus": 1000}
    ann.send({"type": "bet", "wagers": ante, "second": ante})  # with a blind hand (C8)
    bob.send({"type": "bet", "wagers": ante})
    dealt = {p: p.until("dealt")["round"] for p in (ann, bob)}
    for player in (ann, bob):  # mid-round, over HTTP too
        player.get(f"/api/rounds/{dealt[player]['id']}")
        player.get("/api/history")
    assert bob.get(f"/api/rounds/{dealt[ann]['id']}") == {
        "error": f"there is no round {dealt[ann]['id']} of yours",
        "code": "not_found",  # another player's round is "not found": never say whose
    }
    ann.send({"type": "decide", "action": "play", "amount": 1000})
    ann.until("decided")
    bob.send({"type": "decide", "action": "fold"})
    results = {p: p.until("result")["round"] for p in (ann, bob)}
    ann_before = ann.frames[:-1] + ann.http
    bob_before = bob.frames[:-1] + bob.http
    dealer = results[ann]["cards"]["dealer"]
    assert dealer == results[bob]["cards"]["dealer"]
    blind = results[ann]["cards"]["player:blind"]
    assert shows(ann_before, dealer + blind) == []
    assert shows(bob_before, dealer) == []
    assert shows(ann.frames + ann.http, results[bob]["cards"]["player"]) == []  # ever
    assert shows(bob.frames + bob.http, results[ann]["cards"]["player"] + blind) == []
    seed = results[ann]["server_seed"]
    assert seed
    assert seed == results[bob]["server_seed"]  # one deck, revealed after
    assert not any(seed in text for text in ann_before + bob_before)
    assert bob.get("/api/history")[0]["places"] == [*range(10, 15), *range(15, 20)]


def test_a_baccarat_shoe_keeps_its_seed_until_it_ends_b1(client: TestClient) -> None:
    ann = Player(client, log_in(client, "ann"), "baccarat")
    bob = Player(client, log_in(client, "bob"), "baccarat")
    bob.until("table")  # seated: the coups wait for both bets
    for coup in range(3):
        ann.send({"type": "bet", "wagers": {"banker": 1000}})
        bob.send({"type": "bet", "wagers": {"player": 1000}})
        coups = [ann.until("coup"), bob.until("coup")]
        assert coups[0] == coups[1]  # everyone sees the same coup
        table = ann.until("table")
        assert len(table["shoe"]["road"]) == coup + 1
        ann.get("/api/history")
    rounds = ann.get("/api/history")
    assert [r["server_seed"] for r in rounds] == [None] * 3
    assert all(r["record"] for r in rounds)  # each coup's cards, once dealt
    frames = ann.frames + bob.frames + ann.http
    assert not any('"server_seed": "' in text or '"server_seed":"' in text for text in frames)
    bad = ann.socket
    bad.send_text('{"type": "bet", "wagers": {"banker": "lots"}}')
    malformed = ann.until("error")
    assert "wagers.banker" in malformed["message"]
    assert malformed["error"] == malformed["message"]  # the fields of every HTTP refusal
    assert malformed["code"] == "invalid_request"  # as a malformed HTTP request
    bad.send_text('{"type": "decide", "action": "play"}')
    refused = ann.until("error")
    assert "no hand of yours" in refused["message"]
    assert (refused["error"], refused["code"]) == (refused["message"], "illegal_action")


def test_a_table_connection_ends_with_its_session(client: TestClient) -> None:
    cookie = log_in(client, "ann")
    ann = Player(client, cookie, "crazy4")
    ann.until("table")
    client.get("/", headers={"cookie": cookie})
    csrf = client.cookies["riverboat_csrf"]
    client.post(
        "/api/logout", headers={"cookie": f"{cookie}; riverboat_csrf={csrf}", "X-CSRF-Token": csrf}
    )
    ann.send({"type": "bet", "wagers": {"ante": 1000, "super_bonus": 1000}})
    with pytest.raises(WebSocketDisconnect) as closed:
        ann.until("table")
    assert closed.value.code == CLOSE_LOG_IN
    assert "log in again" in closed.value.reason


def test_the_page_reads_the_log_in_close_code_the_server_sends() -> None:
    """The page's own copy of CLOSE_LOG_IN (js/shared.js: close codes are not in the
    API's schema, whose types the page takes) is the server's."""
    page = Path(__file__).resolve().parents[1] / "src/riverboat/web/static/js/shared.js"
    assert f"export const CLOSE_LOG_IN = {CLOSE_LOG_IN};" in page.read_text()
