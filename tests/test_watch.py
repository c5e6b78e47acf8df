"""The service watched (riverboat.web.watch, riverboat.metrics): the probes, the
metrics a scrape reads, each request's id and the JSON log lines."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from riverboat.settings import amended
from riverboat.web.app import create_app
from riverboat.web.watch import JsonLines


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = amended(
        database_url=f"sqlite:///{tmp_path / 'watch.db'}",
        local_player=True,
        house_edges=False,
        rate_limit=1000,
    )
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def _sample(text: str, name: str, **labels: str) -> float:
    """One sample's value from Prometheus's text format (0 if it is not there)."""
    wanted = ",".join(f'{key}="{value}"' for key, value in sorted(labels.items()))
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        metric, _, value = line.rpartition(" ")
        found = re.fullmatch(r"([a-z_]+)(?:\{(.*)\})?", metric)
        if found and found[1] == name:
            have = ",".join(sorted((found[2] or "").split(","))) if found[2] else ""
            if have == wanted:
                return float(value)
    return 0.0


def test_healthz_and_readyz_answer_and_are_never_rate_limited(tmp_path: Path) -> None:
    settings = amended(
        database_url=f"sqlite:///{tmp_path / 'probe.db'}", house_edges=False, rate_limit=2
    )
    app = create_app(settings)
    app.state.limiter.window = 600.0  # no request leaves the window, however slow the machine
    with TestClient(app) as client:
        for _ in range(12):  # far beyond the rate limit: probes are not counted
            assert client.get("/healthz").json() == {"status": "alive"}
            ready = client.get("/readyz")
            assert ready.status_code == 200
            assert ready.json() == {"status": "ready", "database": "ok", "redis": "not used"}
            assert client.get("/metrics").status_code == 200
        limited = [client.get("/api/games").status_code for _ in range(4)]
        assert 429 in limited  # the rest of the service is


def test_readyz_says_which_part_does_not_answer(tmp_path: Path) -> None:
    settings = amended(database_url=f"sqlite:///{tmp_path / 'gone.db'}", house_edges=False)
    app = create_app(settings)
    with TestClient(app) as test_client:
        app.state.service.engine.dispose()
        (tmp_path / "gone.db").unlink()
        (tmp_path / "gone.db").mkdir()  # a folder where the database was: it cannot open
        app.state.readiness.at = 0.0
        answer = test_client.get("/readyz")
    assert answer.status_code == 503
    body = answer.json()
    assert body["status"] == "not ready"
    assert body["database"].startswith("failed: ")
    assert body["redis"] == "not used"


def test_metrics_count_requests_by_route_rounds_by_game_and_refusals_by_code(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from riverboat.web import watch

    monkeypatch.setattr(watch, "READY_FOR", -1.0)  # every scrape made anew
    client.get("/")  # the page sets the CSRF cookie the API asks back
    csrf = {"X-CSRF-Token": client.cookies["riverboat_csrf"]}
    before = client.get("/metrics").text
    dealt = client.post(
        "/api/rounds", json={"game": "tri-card", "wagers": {"ante": 500}}, headers=csrf
    )
    assert dealt.status_code == 200, dealt.text
    round_id = dealt.json()["id"]
    acted = client.post(f"/api/rounds/{round_id}/actions", json={"action": "fold"}, headers=csrf)
    assert acted.status_code == 200, acted.text
    refused = client.post(
        "/api/rounds", json={"game": "tri-card", "wagers": {"ante": 1}}, headers=csrf
    )
    assert refused.status_code in (400, 422)
    client.get("/no/such/page")
    after = client.get("/metrics")
    assert after.headers["content-type"].startswith("text/plain")
    text = after.text

    def grew(name: str, **labels: str) -> float:
        return _sample(text, name, **labels) - _sample(before, name, **labels)

    assert grew("riverboat_rounds_dealt_total", game="tri-card") == 1
    assert grew("riverboat_rounds_settled_total", game="tri-card") == 1
    route = "/api/rounds/{round_id}/actions"
    assert grew("riverboat_http_requests_total", route=route, method="POST", status="200") == 1
    assert grew("riverboat_http_requests_total", route="unmatched", method="GET", status="404")
    code = refused.json()["code"]
    assert grew("riverboat_refusals_total", code=code) == 1
    assert grew("riverboat_http_request_seconds_count", route="/api/rounds") == 2
    assert "riverboat_websocket_seats" in text
    for budget in ("history", "handshakes", "password_checks"):  # read at each scrape
        assert f'riverboat_budget_waiting{{budget="{budget}"}} 0.0' in text
        assert f'riverboat_budget_running{{budget="{budget}"}}' in text
    # the paths asked never become series of their own: only routes' templates
    assert f'route="/api/rounds/{round_id}/actions"' not in text


def test_every_answer_carries_a_request_id_kept_or_made(client: TestClient) -> None:
    made = client.get("/healthz").headers["x-request-id"]
    assert re.fullmatch(r"[A-Za-z0-9_-]{22}", made)
    assert client.get("/healthz").headers["x-request-id"] != made
    kept = client.get("/healthz", headers={"X-Request-ID": "proxy-7f3a.1"})
    assert kept.headers["x-request-id"] == "proxy-7f3a.1"
    hostile = client.get("/healthz", headers={"X-Request-ID": "a b\r" + "x" * 80})
    assert re.fullmatch(r"[A-Za-z0-9_-]{22}", hostile.headers["x-request-id"])  # replaced


def test_json_log_lines_carry_the_request_id(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    lines: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(JsonLines().format(record))

    logger = logging.getLogger("riverboat.web.errors")
    keep = Keep()
    logger.addHandler(keep)
    try:
        from unittest.mock import patch

        from sqlalchemy.exc import OperationalError

        broken = OperationalError("SELECT", {}, Exception("database is locked"))
        with patch("riverboat.table.service.TableService.balance", side_effect=broken):
            answer = client.get("/api/me", headers={"X-Request-ID": "req-42"})
    finally:
        logger.removeHandler(keep)
    assert answer.status_code == 503
    entry = json.loads(lines[-1])
    assert entry["request_id"] == "req-42"
    assert entry["level"] == "warning"
    assert "did not answer" in entry["message"]


def test_open_seats_are_a_gauge_that_falls_when_a_seat_goes(client: TestClient) -> None:
    def seats() -> float:
        client.app.state.readiness.scraped = None  # type: ignore[attr-defined]
        return _sample(client.get("/metrics").text, "riverboat_websocket_seats")

    before = seats()
    with client.websocket_connect(
        "/ws/tables/baccarat", headers={"origin": "http://testserver"}
    ) as seat:
        seat.receive_json()  # the table's first message: the seat is taken
        assert seats() == before + 1
    for _ in range(50):  # the server's side of the close runs on its own
        if seats() == before:
            break
    assert seats() == before


# ------------------------------------------------------------- the front door
def test_a_trailing_slash_is_a_404_never_a_redirect_built_from_the_host(
    client: TestClient,
) -> None:
    answer = client.get("/api/lobby/", headers={"host": "evil.example"}, follow_redirects=False)
    assert answer.status_code == 404
    assert "location" not in answer.headers
    assert client.get("/api/lobby").status_code == 200


def test_two_host_headers_are_refused(client: TestClient) -> None:
    import http.client

    assert client.get("/healthz").status_code == 200
    # the test client sends one Host; the ASGI scope can carry two, as a proxy may
    from riverboat.web.guards import OneHost

    sent: list[dict[str, object]] = []

    async def app(scope: object, receive: object, send: object) -> None:
        raise AssertionError("a request with two Host headers reached the app")

    async def send(message: dict[str, object]) -> None:
        sent.append(message)

    async def receive() -> dict[str, object]:
        return {"type": "http.request", "body": b""}

    scope = {
        "type": "http",
        "method": "GET",
        "path": "/api/lobby",
        "headers": [(b"host", b"tables.example.org"), (b"host", b"evil.example")],
    }
    import asyncio

    asyncio.run(OneHost(app)(scope, receive, send))  # type: ignore[arg-type]
    assert sent[0]["status"] == http.client.BAD_REQUEST
    assert b"one Host header" in sent[1]["body"]  # type: ignore[operator]


@pytest.mark.parametrize("amount", ["500", 500.0, True, "5_00"])
def test_a_seat_sending_money_that_is_not_a_whole_number_is_refused(
    client: TestClient, amount: object
) -> None:
    with client.websocket_connect(
        "/ws/tables/baccarat", headers={"origin": "http://testserver"}
    ) as seat:
        seat.receive_json()
        seat.send_text(json.dumps({"type": "bet", "wagers": {"banker": amount}}))
        for _ in range(5):
            message = seat.receive_json()
            if message["type"] == "error":
                break
        assert message["code"] == "invalid_request"
        assert "wagers" in message["message"]


def test_a_seat_that_keeps_sending_refused_messages_is_closed_1008(client: TestClient) -> None:
    from riverboat.web.routes.tables import REFUSED_IN_A_ROW

    with client.websocket_connect(
        "/ws/tables/baccarat", headers={"origin": "http://testserver"}
    ) as seat:
        seat.receive_json()
        for _ in range(REFUSED_IN_A_ROW + 5):
            seat.send_text("not json")
        errors, closed = _errors_until_closed(seat)
    assert closed.code == 1008
    assert closed.reason == "too many refused messages"
    assert errors == REFUSED_IN_A_ROW - 1  # each said, until the seat goes


def _errors_until_closed(seat: Any) -> tuple[int, Any]:
    """How many error messages a seat received before the server closed it, and the close."""
    from starlette.websockets import WebSocketDisconnect

    errors = 0
    while True:
        try:
            message = seat.receive_json()
        except WebSocketDisconnect as closed:
            return errors, closed
        errors += message["type"] == "error"


def test_a_flood_of_scrapes_is_answered_from_one_a_second(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from riverboat.web import watch

    # a window of ten minutes, not one second: on a loaded machine the 21 scrapes
    # below took longer than a second, and the window turned over among them
    monkeypatch.setattr(watch, "READY_FOR", 600.0)
    first = client.get("/metrics").text
    client.get("/api/games")  # counted, but not shown until the window's next scrape
    assert all(client.get("/metrics").text == first for _ in range(20))
    monkeypatch.setattr(watch, "READY_FOR", -1.0)  # the window over: made anew
    assert client.get("/metrics").text != first


def test_a_body_sent_a_byte_at_a_time_is_cut_off_with_408(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import asyncio

    from riverboat.web import guards

    monkeypatch.setattr(guards, "BODY_SECONDS", 0.2)
    sent: list[dict[str, Any]] = []
    reached: list[bool] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        reached.append(True)

    async def receive() -> dict[str, Any]:
        await asyncio.sleep(0.05)  # a byte, now and then: never the whole body in time
        return {"type": "http.request", "body": b"{", "more_body": True}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/api/nowhere", "headers": [
        (b"content-length", b"8000")]}  # fmt: skip
    started = asyncio.run(_timed(guards.BodyGuard(app)(scope, receive, send)))
    assert started < 2
    assert sent[0]["status"] == 408
    assert (b"connection", b"close") in sent[0]["headers"]
    assert b"did not arrive within 0.2 s" in sent[1]["body"]
    assert not reached


async def _timed(work: Any) -> float:
    import time

    begun = time.perf_counter()
    await work
    return time.perf_counter() - begun


def test_headers_sent_a_byte_at_a_time_are_cut_off_with_408(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A real server (uvicorn with riverboat's protocol): a request whose headers dribble
    in is answered 408 and its connection closed once HEADER_SECONDS have passed since
    its first byte; a kept-alive connection idle between two requests is not."""
    import socket
    import time

    from riverboat.web import header_timeout

    from browser_support import serving

    monkeypatch.setattr(header_timeout, "HEADER_SECONDS", 0.5)
    with serving(tmp_path / "slow.db", house_edges=False) as address:
        port = int(address.rstrip("/").rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), timeout=5) as slow:
            began = time.perf_counter()
            answer = b""
            for byte in b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n":
                try:
                    slow.sendall(bytes([byte]))
                except OSError:
                    break
                time.sleep(0.1)
                if time.perf_counter() - began > 3:
                    break
            answer = slow.recv(4096)
            assert answer.startswith(b"HTTP/1.1 408")
            assert b"did not arrive within 0.5 s" in answer
            assert time.perf_counter() - began < 2
            assert slow.recv(4096) == b""  # closed
        with socket.create_connection(("127.0.0.1", port), timeout=5) as kept:
            request = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
            kept.sendall(request)
            assert kept.recv(4096).startswith(b"HTTP/1.1 200")
            time.sleep(1)  # idle between requests: the keep-alive timeout's, not ours
            kept.sendall(request)
            assert kept.recv(4096).startswith(b"HTTP/1.1 200")
