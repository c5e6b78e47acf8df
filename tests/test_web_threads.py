"""The threads that carry requests' database work (riverboat.web.threads): how many,
by database and setting, and a player's round requests taking turns before they take
one, while other players' go alongside."""

import asyncio
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest

from riverboat.settings import amended
from riverboat.web.app import create_app
from riverboat.web.threads import SQLITE_THREADS, PlayerTurns, in_thread, pool, thread_count

PASSWORD = "a long password"


def test_postgresql_gets_a_few_threads_and_sqlite_forty(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("os.cpu_count", lambda: 2)
    assert thread_count("postgresql", None) == 6  # twice the cores, and two more
    assert thread_count("sqlite", None) == SQLITE_THREADS == 40
    assert thread_count("postgresql", 3) == thread_count("sqlite", 3) == 3


def test_the_app_s_pool_has_the_threads_its_settings_give(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'threads.db'}"
    app = create_app(amended(database_url=url, house_edges=False, database_threads=3))
    assert app.state.workers is pool(3)
    assert app.state.workers._max_workers == 3
    default = create_app(amended(database_url=url, house_edges=False))
    assert default.state.workers._max_workers == SQLITE_THREADS


def test_a_bad_thread_count_is_refused_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    from riverboat.settings import SettingsError, reload

    monkeypatch.setenv("RIVERBOAT_DATABASE_THREADS", "0")
    with pytest.raises(SettingsError, match="RIVERBOAT_DATABASE_THREADS is '0': threads"):
        reload()
    monkeypatch.delenv("RIVERBOAT_DATABASE_THREADS")
    reload()


async def _log_in(client: httpx.AsyncClient, name: str) -> dict[str, str]:
    await client.get("/")
    csrf = {"X-CSRF-Token": client.cookies["riverboat_csrf"]}
    body = {"name": name, "password": PASSWORD}
    logged_in = await client.post("/api/login", json=body, headers=csrf)
    assert logged_in.status_code == 200, logged_in.text
    return {"X-CSRF-Token": client.cookies["riverboat_csrf"]}


def test_a_player_s_deals_take_turns_and_another_player_s_go_alongside(tmp_path: Path) -> None:
    app = create_app(
        amended(
            database_url=f"sqlite:///{tmp_path / 'turns.db'}",
            local_player=False,
            house_edges=False,
            database_threads=8,
        )
    )
    service = app.state.service
    ann, bob = service.register("ann", PASSWORD), service.register("bob", PASSWORD)
    dealing: Counter[int] = Counter()
    most: Counter[int] = Counter()
    together: list[bool] = []
    lock = threading.Lock()
    deal = service.start_round

    def slow(player_id: int, *args: Any, **kwargs: Any) -> Any:
        with lock:
            dealing[player_id] += 1
            most[player_id] = max(most[player_id], dealing[player_id])
            together.append(dealing[ann] > 0 and dealing[bob] > 0)
        time.sleep(0.15)  # in the database thread: long enough for the others to arrive
        with lock:
            dealing[player_id] -= 1
        return deal(player_id, *args, **kwargs)

    service.start_round = slow
    wagers = {"game": "tri-card", "wagers": {"ante": 500}}

    async def play() -> list[int]:
        transport = httpx.ASGITransport(app=app)
        async with (
            httpx.AsyncClient(transport=transport, base_url="http://testserver") as ann_client,
            httpx.AsyncClient(transport=transport, base_url="http://testserver") as bob_client,
        ):
            ann_csrf, bob_csrf = await _log_in(ann_client, "ann"), await _log_in(bob_client, "bob")
            sent = [ann_client.post("/api/rounds", json=wagers, headers=ann_csrf) for _ in range(3)]
            sent.append(bob_client.post("/api/rounds", json=wagers, headers=bob_csrf))
            return [answer.status_code for answer in await asyncio.gather(*sent)]

    codes = asyncio.run(play())
    assert sorted(codes) == [200, 200, 409, 409]  # ann's second and third: finish the first (G7)
    assert most[ann] == 1  # ann's three never in two threads at once
    assert any(together)  # bob's went while one of ann's was under way
    assert app.state.turns.waiting == {}  # nobody's turn is left behind


def test_a_cancelled_request_keeps_its_turn_until_its_work_is_done() -> None:
    done: list[str] = []

    def work() -> None:
        time.sleep(0.3)
        done.append("work")

    async def both() -> list[str]:
        turns = PlayerTurns()

        async def first() -> None:
            async with turns.turn(7):
                await in_thread(pool(2, "test"), work)

        started = asyncio.create_task(first())
        await asyncio.sleep(0.05)  # the work under way in its thread
        started.cancel()  # the server stopping, say
        async with turns.turn(7):
            done.append("next")
        with pytest.raises(asyncio.CancelledError):
            await started
        return done

    assert asyncio.run(both()) == ["work", "next"]
