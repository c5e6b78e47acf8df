"""The web table's HTTP API: every game by HTTP, refusals, sessions, CSRF, and a check
that no response reveals a hidden card or an unrevealed seed."""

import json
import re
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.exc import IntegrityError, OperationalError

from riverboat.admission.gates import RateLimiter
from riverboat.errors import (
    REFUSALS,
    BadCredentials,
    Conflict,
    Forbidden,
    IllegalAction,
    NotFound,
    Refusal,
    TooLarge,
    Unavailable,
)
from riverboat.settings import amended
from riverboat.store.state import MemoryStore
from riverboat.web.app import create_app
from riverboat.web.deps import SESSION_SECONDS


def post(client: TestClient, path: str, body: dict[str, object]) -> object:
    return client.post(path, json=body, headers={"X-CSRF-Token": client.cookies["riverboat_csrf"]})


@pytest.mark.parametrize(
    ("game", "wagers", "action", "amount"),
    [
        ("rabbit-hunter", {"ante": 1000, "bonus": 1000, "bad_beat": 500}, "buy", None),
        ("tri-card", {"ante": 1000, "pair_plus": 500}, "raise", None),
        ("crazy4", {"ante": 1000, "super_bonus": 1000}, "play", 1000),
        ("baccarat", {"banker": 1000}, None, None),
    ],
)
def test_a_full_round_of_each_game_over_http(
    client: TestClient, game: str, wagers: dict[str, int], action: str | None, amount: int | None
) -> None:
    view = post(client, "/api/rounds", {"game": game, "wagers": wagers}).json()  # type: ignore[attr-defined]
    if action:
        assert view["status"] == "open"
        assert action in [c["action"] for c in view["choices"]]
        hint = client.get(f"/api/rounds/{view['id']}/hint").json()["options"]
        assert {h["action"] for h in hint} == {c["action"] for c in view["choices"]} | (
            {"play3x"} if game == "crazy4" and len(hint) == 3 else set()
        )
        view = post(
            client, f"/api/rounds/{view['id']}/actions", {"action": action, "amount": amount}
        ).json()  # type: ignore[attr-defined]
    assert view["status"] == "settled"
    assert view["description"]
    assert client.get("/api/me").json()["balance"] == view["balance"]
    replayed = post(client, f"/api/games/{game}/replay", {}).json()  # type: ignore[attr-defined]
    assert replayed["wagers"] == view["wagers"]


def test_refusals_are_clear_json(client: TestClient) -> None:
    response = post(client, "/api/rounds", {"game": "tri-card", "wagers": {"ante": 100}})
    # 422, not 400: an illegal action has its own status now (web/errors.py maps each kind)
    assert response.status_code == 422  # type: ignore[attr-defined]
    assert "outside the table limits: $5 to $500" in response.json()["error"]  # type: ignore[attr-defined]
    assert response.json()["code"] == "illegal_action"  # type: ignore[attr-defined]
    assert (
        "no game 'poker'"
        in post(client, "/api/rounds", {"game": "poker", "wagers": {}}).json()["error"]
    )  # type: ignore[attr-defined]
    assert client.get("/api/rounds/999").json()["error"] == "there is no round 999 of yours"
    response = client.post("/api/rounds", json={"game": "tri-card", "wagers": {"ante": 500}})
    assert response.status_code == 403  # no CSRF token
    # the message is under "error" now, as in every error body (it was FastAPI's "detail")
    assert response.json()["error"].startswith("missing or wrong CSRF token")
    assert response.json()["code"] == "forbidden"


def test_chip_taps_follow_the_rules_r2(client: TestClient) -> None:
    tap = {"game": "rabbit-hunter", "wagers": {"ante": 50_000}, "spot": "ante", "chip": 500}
    assert client.post("/api/chips", json=tap).json()["ante"] == 0  # at the maximum: reset
    held = client.post(
        "/api/chips", json={**tap, "wagers": {"ante": 1000, "bonus": 1000}, "hold": True}
    ).json()
    assert held == {"ante": 0, "bonus": 0, "bad_beat": 0}


def test_double_doubles_every_wager_or_names_the_spot_past_its_maximum_r1(
    client: TestClient,
) -> None:
    double = {"game": "rabbit-hunter", "wagers": {"ante": 1000, "bonus": 1000}}
    assert client.post("/api/chips/double", json=double).json() == {
        "ante": 2000,
        "bonus": 2000,  # the Bonus follows the Ante (R1)
        "bad_beat": 0,
    }
    past = client.post(
        "/api/chips/double", json={"game": "tri-card", "wagers": {"ante": 500, "pair_plus": 6000}}
    )
    assert past.status_code == 422
    assert past.json()["error"] == "Double would put the Pair Plus at $120: its maximum is $100"
    nothing = client.post("/api/chips/double", json={"game": "tri-card", "wagers": {}})
    assert nothing.json()["error"] == "there is nothing to double: place a chip first"
    negative = {"game": "tri-card", "wagers": {"ante": -500}}
    assert client.post("/api/chips/double", json=negative).json()["error"] == (
        "the Ante holds -$5: a wager is 0 or more"
    )
    unknown = {"game": "tri-card", "wagers": {"raise": 500}}
    assert (
        client.post("/api/chips/double", json=unknown)
        .json()["error"]
        .startswith("there is no raise spot")
    )
    cents = client.post("/api/chips/double", json={"game": "tri-card", "wagers": {"ante": "500"}})
    assert cents.status_code == 422  # money is whole cents, never a string


def test_me_says_the_top_ups_rule(client: TestClient) -> None:
    me = client.get("/api/me").json()
    assert (me["top_up_below"], me["top_up_to"]) == (10_000, 100_000)  # $100 and $1,000


def test_pay_tables_and_rules_without_betting_r11(client: TestClient) -> None:
    games = {g["game"]: g for g in client.get("/api/games").json()}
    assert set(games) == {"rabbit-hunter", "tri-card", "crazy4", "baccarat"}
    assert games["rabbit-hunter"]["pay_tables"]["bonus_table"][0] == ["Royal Flush", "500 to 1"]
    assert client.get("/openapi.json").json()["info"]["title"] == "riverboat"


def test_no_response_reveals_a_hidden_card_or_seed(client: TestClient) -> None:
    for game, wagers, action, second in [
        ("rabbit-hunter", {"ante": 1000}, "play", None),
        ("rabbit-hunter", {"ante": 1000}, "buy", None),  # the rabbit, unseen until bought
        ("tri-card", {"ante": 1000}, "raise", None),
        ("crazy4", {"ante": 1000, "super_bonus": 1000}, "play", None),
        ("crazy4", {"ante": 1000, "super_bonus": 1000}, "fold", {"ante": 500, "super_bonus": 500}),
    ]:
        body = {"game": game, "wagers": wagers, "second": second}
        view = post(client, "/api/rounds", body).json()  # type: ignore[attr-defined]
        seen_open = [
            json.dumps(view),
            client.get(f"/api/rounds/{view['id']}").text,
            client.get(f"/api/games/{game}/open").text,
            client.get(f"/api/rounds/{view['id']}/hint").text,
        ]
        history = client.get("/api/history")
        mine = next(r for r in history.json() if r["id"] == view["id"])
        assert (mine["record"], mine["places"], mine["server_seed"]) == (None, None, None)
        seen_open.append(history.text)  # earlier rounds' records hold cards as numbers
        done = post(client, f"/api/rounds/{view['id']}/actions", {"action": action}).json()  # type: ignore[attr-defined]
        hidden = [
            card for hand, cards in done["cards"].items() if hand != "player" for card in cards
        ]
        assert hidden  # the dealer's, the rabbit, a blind hand: all shown once it is over
        for text in seen_open:
            assert done["server_seed"] not in text
            assert text is seen_open[-1] or "cards_drawn" not in text  # no deck order
            for card in hidden:  # none of them while the round was open
                assert not re.search(rf'"{card}"', text), (game, card)
        assert view["face_down"] == len(hidden) - len(done["cards"].get("rabbit", []))


def test_logins_on_a_shared_server(tmp_path: Path) -> None:
    app = create_app(
        amended(
            database_url=f"sqlite:///{tmp_path / 'shared.db'}", local_player=False, rate_limit=1000
        )
    )
    app.state.service.register("ann", "a long password")
    with TestClient(app) as client:
        client.get("/")
        assert client.get("/api/me").status_code == 401
        refused = post(client, "/api/login", {"name": "ann", "password": "wrong one"})
        # 401, not 400: a wrong password is refused as BadCredentials, its own kind
        assert refused.status_code == 401  # type: ignore[attr-defined]
        assert refused.json()["code"] == "bad_credentials"  # type: ignore[attr-defined]
        done = post(client, "/api/login", {"name": "ann", "password": "a long password"})
        assert done.status_code == 200  # type: ignore[attr-defined]
        cookie = done.headers["set-cookie"]  # type: ignore[attr-defined]
        assert "HttpOnly" in cookie
        assert "SameSite=strict" in cookie
        assert client.get("/api/me").json()["balance"] == 100_000


def test_rate_limiting(tmp_path: Path) -> None:
    app = create_app(amended(database_url=f"sqlite:///{tmp_path / 'rate.db'}", rate_limit=5))
    app.state.limiter.window = 600.0  # no request leaves the window, however slow the machine
    with TestClient(app) as client:
        codes = [client.get("/api/games").status_code for _ in range(8)]
    assert 429 in codes
    assert codes[:5] == [200] * 5


def test_every_request_counts_against_the_rate_limit(tmp_path: Path) -> None:
    """Not only the API: other files, unknown paths and refused methods count too, the
    page's own files against an allowance of their own, and the request over a limit is
    refused in the one body shape."""
    app = create_app(
        amended(database_url=f"sqlite:///{tmp_path / 'every.db'}", rate_limit=4, house_edges=False)
    )
    app.state.limiter = RateLimiter(4, window=60.0)  # no request leaves the window
    app.state.page_limiter = RateLimiter(2, window=60.0, name="files")
    with TestClient(app) as client:
        answers = [
            client.get("/static/docs-here.txt").status_code,
            client.get("/static/nothing-here.js").status_code,
            client.get("/api/nothing-here").status_code,
            client.delete("/api/games").status_code,
        ]
        assert answers == [404, 404, 404, 405]
        # the page's files: their own two, whatever the API has spent
        assert [client.get("/static/style.css").status_code for _ in range(2)] == [200, 200]
        assert client.post("/static/style.css").status_code == 429  # not a GET: the limit's
        for path in ("/api/games", "/static/style.css", "/api/nothing-here", "/"):
            limited = client.get(path)
            assert limited.status_code == 429, path
            assert limited.json() == {
                "error": "too many requests; slow down",
                "code": "rate_limited",
            }


def test_bad_ids_and_control_characters_are_refused_not_crashes(client: TestClient) -> None:
    assert client.get("/api/rounds/99999999999999999999999").status_code == 422
    assert client.get("/api/rounds/0").status_code == 422
    nul = post(
        client,
        "/api/rounds",
        {"game": "tri-card", "wagers": {"ante": 500}, "client_seed": "a\x00b"},
    )
    assert nul.status_code == 422  # type: ignore[attr-defined]
    assert nul.json()["code"] == "invalid_request"  # type: ignore[attr-defined]
    odd_chip = client.post(
        "/api/chips", json={"game": "tri-card", "wagers": {}, "spot": "ante", "chip": 7}
    )
    assert odd_chip.status_code == 422  # an illegal action's status (it was 400)
    assert "the chips here are $1, $5, $25, $100, $500" in odd_chip.json()["error"]


def test_a_loopback_server_refuses_other_host_names(tmp_path: Path) -> None:
    app = create_app(
        amended(
            database_url=f"sqlite:///{tmp_path / 'hosts.db'}",
            allowed_hosts=["127.0.0.1", "localhost"],
            house_edges=False,
        )
    )
    with TestClient(app, base_url="http://127.0.0.1") as local:
        assert local.get("/api/games").status_code == 200
    with TestClient(app, base_url="http://evil.example") as rebound:
        refused = rebound.get("/api/games")
        # 403, not 400: a page on another name is refused as Forbidden, in the one shape
        assert refused.status_code == 403
        assert refused.json() == {
            "error": "this server does not answer to that host name",
            "code": "forbidden",
        }


@pytest.mark.parametrize("host", ["[::1", "[x]", "127.0.0.1:port", "127.0.0.1:99999"])
def test_a_malformed_host_name_is_refused_not_a_crash(tmp_path: Path, host: str) -> None:
    app = create_app(
        amended(
            database_url=f"sqlite:///{tmp_path / 'hosts.db'}",
            allowed_hosts=["127.0.0.1", "localhost", "::1"],
            house_edges=False,
        )
    )
    with TestClient(app, base_url="http://127.0.0.1", raise_server_exceptions=False) as client:
        refused = client.get("/api/games", headers={"Host": host})
    assert refused.status_code == 403
    assert refused.json() == {
        "error": "this server does not answer to that host name",
        "code": "forbidden",
    }


def test_sessions_expire_and_log_in_renews_the_csrf_token(tmp_path: Path) -> None:
    clock = [time.time()]
    kept = MemoryStore(clock=lambda: clock[0])
    database = f"sqlite:///{tmp_path / 'expiry.db'}"
    app = create_app(
        amended(database_url=database, local_player=False, house_edges=False), state=kept
    )
    app.state.service.register("ann", "a long password")
    with TestClient(app) as client:
        client.get("/")
        before = client.cookies["riverboat_csrf"]
        assert (
            post(client, "/api/login", {"name": "ann", "password": "a long password"}).status_code
            == 200
        )  # type: ignore[attr-defined]
        assert client.cookies["riverboat_csrf"] != before
        assert client.get("/api/me").status_code == 200
        clock[0] += SESSION_SECONDS  # the session's time is up
        assert client.get("/api/me").status_code == 401


def test_serving_again_voids_rounds_left_before_their_first_decision_g7(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'restart.db'}"
    first = create_app(amended(database_url=database, house_edges=False))
    player = first.state.service.local_player()
    view = first.state.service.start_round(player, "tri-card", {"ante": 1000})
    again = create_app(amended(database_url=database, house_edges=False), recover=True)
    assert again.state.service.history(player, 1)[0].status == "void"
    assert again.state.service.balance(player) == 100_000
    assert view.status == "open"


def test_the_commitment_comes_before_the_deal_and_a_shoe_deals_on(client: TestClient) -> None:
    shown = client.get("/api/games/tri-card/commitment").json()
    assert shown["shoe_in_play"] is False
    body = {"game": "tri-card", "wagers": {"ante": 500}, "client_seed": "me"}
    view = post(client, "/api/rounds", body).json()  # type: ignore[attr-defined]
    assert view["commitment"] == shown["commitment"]
    assert view["client_seed"] == "me"
    coup = post(client, "/api/rounds", {"game": "baccarat", "wagers": {"banker": 500}}).json()  # type: ignore[attr-defined]
    after = client.get("/api/games/baccarat/commitment").json()
    assert after == {"commitment": coup["commitment"], "shoe_in_play": True}  # B1


def test_a_player_may_end_their_shoe_to_check_it_now_b1(client: TestClient) -> None:
    coup = post(client, "/api/rounds", {"game": "baccarat", "wagers": {"banker": 500}}).json()  # type: ignore[attr-defined]
    assert coup["server_seed"] is None  # the shoe deals on
    assert post(client, "/api/games/baccarat/shoe/end", {}).json() == {"ended": True}  # type: ignore[attr-defined]
    exported = client.get("/api/history?limit=1").json()[0]
    assert exported["server_seed"] is not None  # shown now, and it checks
    assert client.get("/api/games/baccarat/commitment").json()["shoe_in_play"] is False
    assert post(client, "/api/games/baccarat/shoe/end", {}).json() == {"ended": False}  # type: ignore[attr-defined]


def test_malformed_requests_say_where_and_what(client: TestClient) -> None:
    bad = post(
        client, "/api/rounds", {"game": "crazy4", "wagers": {"ante": 500}, "second": {"ante": "x"}}
    )
    assert bad.status_code == 422  # type: ignore[attr-defined]
    assert bad.json()["error"].startswith("second.ante: Input should be a valid integer")  # type: ignore[attr-defined]
    blind = post(
        client,
        "/api/rounds",
        {"game": "baccarat", "wagers": {"banker": 500}, "second": {"banker": 500}},
    )
    assert blind.json() == {  # type: ignore[attr-defined]
        "error": "this game has no second, blind position (C8 is Crazy 4's)",
        "code": "illegal_action",
    }
    unknown = post(client, "/api/games/nope/replay", {})
    assert unknown.json()["error"].startswith("no game 'nope'")  # type: ignore[attr-defined]
    assert unknown.status_code == 404  # type: ignore[attr-defined]  # a game in the path
    assert unknown.json()["code"] == "not_found"  # type: ignore[attr-defined]


def test_the_openapi_schema_publishes_the_typed_views(client: TestClient) -> None:
    """Every response the page reads is a model of riverboat.table.views, in the schema."""
    schema = client.get("/openapi.json").json()
    models = schema["components"]["schemas"]
    assert {"RoundView", "ChoiceView", "ExportedRound", "RoundRecord", "GameInfo"} <= set(models)
    assert {"HintView", "HintOption", "MeView", "NextCommitment", "BalanceView"} <= set(models)
    assert set(models["RoundView"]["properties"]) >= {"id", "cards", "face_down", "choices"}

    def returns(path: str, method: str = "get") -> str:
        body = schema["paths"][path][method]["responses"]["200"]["content"]["application/json"]
        return str(body["schema"])

    assert "RoundView" in returns("/api/rounds", "post")
    assert "RoundView" in returns("/api/rounds/{round_id}")
    assert "ExportedRound" in returns("/api/history")
    assert "GameInfo" in returns("/api/games")
    assert "HintView" in returns("/api/rounds/{round_id}/hint")
    # refusals: the one body shape, not FastAPI's default {"detail"} validation error
    assert "HTTPValidationError" not in models
    refused = schema["paths"]["/api/rounds"]["post"]["responses"]["4XX"]
    assert "ErrorBody" in str(refused["content"]["application/json"]["schema"])
    assert set(models["ErrorBody"]["properties"]) == {"error", "code"}
    # the shared tables' WebSocket messages, both ways
    assert {"TableMessage", "PlayerMessage", "TableSnapshot", "Bet", "Decide"} <= set(models)
    received = {ref["$ref"].rsplit("/", 1)[1] for ref in models["TableMessage"]["oneOf"]}
    assert {"TableSnapshot", "DealtMessage", "ErrorMessage"} <= received


# Each kind of refusal's status, as docs/web.md states it: the one mapping (web/errors.py).
STATUSES = {
    NotFound: 404,
    Forbidden: 403,
    BadCredentials: 401,
    IllegalAction: 422,
    Conflict: 409,
    TooLarge: 413,
    Unavailable: 503,
}


@pytest.mark.parametrize("kind", REFUSALS, ids=lambda kind: kind.code)
def test_every_kind_of_refusal_has_its_status_and_the_one_body_shape(
    client: TestClient, kind: type[Refusal], monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(*_: object) -> int:
        raise kind("refused, and here is why")

    service = client.app.state.service  # type: ignore[attr-defined]
    monkeypatch.setattr(service, "balance", refuse)
    response = client.get("/api/me")
    assert response.status_code == STATUSES[kind]
    assert response.json() == {"error": "refused, and here is why", "code": kind.code}


@pytest.mark.parametrize("path", ["/api/me", "/api/history", "/api/rounds/1"])
def test_a_read_from_a_database_that_does_not_answer_is_unavailable(
    client: TestClient, path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """503, not 500, and the driver's message (it can carry SQL) stays on the server."""

    def locked(*_: object) -> object:
        raise OperationalError("SELECT secret FROM players", {}, Exception("database is locked"))

    service = client.app.state.service  # type: ignore[attr-defined]
    for read in ("balance", "history", "round"):
        monkeypatch.setattr(service, read, locked)
    response = client.get(path)
    assert response.status_code == 503
    assert response.json() == {
        "error": "the database did not answer; try again shortly",
        "code": "unavailable",
    }


def test_a_database_error_that_is_not_an_outage_is_still_a_server_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A statement the database refuses (a bug, not an outage) is not hidden as a 503."""
    app = create_app(
        amended(database_url=f"sqlite:///{tmp_path / 'bug.db'}", rate_limit=1000, house_edges=False)
    )

    def refused(*_: object) -> object:
        raise IntegrityError("INSERT INTO players", {}, Exception("UNIQUE constraint failed"))

    monkeypatch.setattr(app.state.service, "balance", refused)
    with TestClient(app, raise_server_exceptions=False) as client:
        assert client.get("/api/me").status_code == 500


def test_every_error_has_the_one_body_shape(tmp_path: Path) -> None:
    # every request counts against the limit: the page and the six below, then 429
    app = create_app(
        amended(database_url=f"sqlite:///{tmp_path / 'shape.db'}", local_player=False, rate_limit=7)
    )
    # a window no request leaves: a one-second one that turns over mid-test starts the
    # count again, and a loaded machine took longer than a second for these fifteen
    app.state.limiter.window = 600.0
    with TestClient(app) as client:
        client.get("/")
        answers = {
            "unknown path": (client.get("/api/nothing-here"), 404, "not_found"),
            "unknown method": (client.delete("/api/games"), 405, "method_not_allowed"),
            "no CSRF token": (client.post("/api/top-up"), 403, "forbidden"),
            "no session": (client.get("/api/me"), 401, "bad_credentials"),
            "malformed": (post(client, "/api/login", {"name": 7}), 422, "invalid_request"),
            "unknown game in the path": (
                client.get("/api/games/poker/commitment"),
                404,
                "not_found",
            ),
        }
        limited = next(r for r in (client.get("/api/games") for _ in range(8)) if r.is_error)
        answers["rate limited"] = (limited, 429, "rate_limited")
    for what, (response, status, code) in answers.items():
        assert response.status_code == status, what  # type: ignore[attr-defined]
        body = response.json()  # type: ignore[attr-defined]
        assert set(body) == {"error", "code"}, what
        assert body["code"] == code, what
        assert body["error"], what
    assert answers["malformed"][0].json()["error"].startswith("name: Input should be")  # type: ignore[attr-defined]
    assert answers["no session"][0].json()["error"] == "log in first"  # type: ignore[attr-defined]


def test_an_unknown_game_in_a_body_is_an_illegal_request(client: TestClient) -> None:
    response = post(client, "/api/rounds", {"game": "poker", "wagers": {}})
    assert response.status_code == 422  # type: ignore[attr-defined]
    assert response.json()["code"] == "illegal_action"  # type: ignore[attr-defined]


def test_the_games_publish_their_shape_for_the_page(client: TestClient) -> None:
    """The page lays out hands, decisions, the blind position and shoes from these."""
    games = {g["game"]: g for g in client.get("/api/games").json()}
    crazy4, baccarat = games["crazy4"], games["baccarat"]
    assert [(h["name"], h["title"], h["cards"], h["house"]) for h in crazy4["hands"]] == [
        ("player", "You", 5, False),
        ("dealer", "Dealer", 5, True),
    ]
    assert [o["action"] for o in crazy4["options"]] == ["fold", "play"]
    # the lines each decision stakes, which the page's records read (R4: a wager and a fee)
    buy = next(o for o in games["rabbit-hunter"]["options"] if o["action"] == "buy")
    assert (buy["line"], buy["fee_line"]) == ("play", "fee")
    assert [(o["line"], o["fee_line"]) for o in crazy4["options"]] == [(None, None), ("play", None)]
    assert (crazy4["blind_play"], crazy4["shoe"], crazy4["shared"]) == (1.0, None, True)
    assert [h["title"] for h in baccarat["hands"]] == ["Player", "Banker"]
    assert (baccarat["options"], baccarat["blind_play"]) == ([], None)
    # no "burns" key: every new shoe burns (B1), so it said nothing
    assert baccarat["shoe"] == {"decks": 8, "cut_card_from_end": 14}
    rabbit = games["rabbit-hunter"]["hands"][-1]
    assert (rabbit["name"], rabbit["dealt_on"]) == ("rabbit", "buy")
    assert [g for g in games.values() if g["shared"]] == [crazy4, baccarat]
    deck = post(client, "/api/games/tri-card/shoe/end", {})
    assert deck.status_code == 422  # type: ignore[attr-defined]
    assert deck.json() == {  # type: ignore[attr-defined]
        "error": "Tri-Card Poker deals from a fresh deck each round: it has no shoe",
        "code": "illegal_action",
    }
    assert post(client, "/api/games/nope/shoe/end", {}).status_code == 404  # type: ignore[attr-defined]


def test_the_roads_follow_the_players_own_shoe_and_clear_when_it_ends(
    client: TestClient,
) -> None:
    empty = client.get("/api/games/baccarat/roads").json()
    assert (empty["rows"], empty["bead_plate"], empty["big_road"]) == (6, [], [])
    for _ in range(3):
        post(client, "/api/rounds", {"game": "baccarat", "wagers": {"banker": 500}})
    winners = [r["winner"] for r in reversed(client.get("/api/history?limit=3").json())]
    roads = client.get("/api/games/baccarat/roads").json()
    assert [b["winner"] for b in roads["bead_plate"]] == winners  # in order
    assert [(b["column"], b["row"]) for b in roads["bead_plate"]] == [(0, 0), (0, 1), (0, 2)]
    sides = [w for w in winners if w != "Tie"]
    assert [e["winner"] for e in roads["big_road"]] == sides
    assert set(roads["next_banker"]) == {"big_eye_boy", "small_road", "cockroach_pig"}
    post(client, "/api/games/baccarat/shoe/end", {})  # the shoe ends: its roads clear
    assert client.get("/api/games/baccarat/roads").json() == empty
    post(client, "/api/rounds", {"game": "baccarat", "wagers": {"banker": 500}})
    assert len(client.get("/api/games/baccarat/roads").json()["bead_plate"]) == 1  # a new shoe
    deck = client.get("/api/games/tri-card/roads")
    assert deck.status_code == 422
    assert deck.json()["code"] == "illegal_action"
    assert client.get("/api/games/nope/roads").status_code == 404


def test_a_players_roads_never_show_another_players_coups() -> None:
    from riverboat.table.service import TableService

    service = TableService("sqlite://")
    me, other = service.local_player(), service.register("ann", "a long password")
    for _ in range(4):
        service.start_round(other, "baccarat", {"player": 500})
    service.start_round(me, "baccarat", {"banker": 500})
    assert len(service.roads(me, "baccarat").bead_plate) == 1
    assert len(service.roads(other, "baccarat").bead_plate) == 4


#: money as an attacker sends it: strings, a float, a float in exponent form, a boolean
#: (pydantic's lax mode would read each as 500, or true as 1 cent); each one raw JSON
NOT_CENTS = ['"500"', '" 500 "', '"5_00"', '"+500"', "500.0", "5e2", "true"]


@pytest.mark.parametrize("money", NOT_CENTS)
@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/api/rounds", '{"game": "tri-card", "wagers": {"ante": %s}}', "wagers.ante"),
        (
            "/api/rounds",
            '{"game": "crazy4", "wagers": {"ante": 500, "super_bonus": 500},'
            ' "second": {"ante": %s, "super_bonus": 500}}',
            "second.ante",
        ),
        ("/api/rounds/1/actions", '{"action": "play", "amount": %s}', "amount"),
        ("/api/chips", '{"game": "tri-card", "wagers": {}, "spot": "ante", "chip": %s}', "chip"),
        ("/api/chips/double", '{"game": "tri-card", "wagers": {"ante": %s}}', "wagers.ante"),
    ],
)
def test_money_anywhere_in_the_api_is_whole_cents_strictly(
    client: TestClient, path: str, body: str, field: str, money: str
) -> None:
    """Every field of the HTTP API that carries money refuses anything but a JSON integer,
    422 naming the field, and nothing is dealt or debited (docs/web.md)."""
    before = client.get("/api/me").json()["balance"]
    response = client.post(
        path,
        content=(body % money).encode(),
        headers={
            "X-CSRF-Token": client.cookies["riverboat_csrf"],
            "Content-Type": "application/json",
        },
    )
    assert response.status_code == 422
    assert response.json()["code"] == "invalid_request"
    assert response.json()["error"].startswith(field)
    assert client.get("/api/me").json()["balance"] == before
    assert client.get("/api/history").json() == []
