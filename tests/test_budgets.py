"""The budgets of slow work over the whole process: password checks, history pages and
table handshakes. At most so many at once, a short queue in order of arrival, the
rest refused at once (429, ``Retry-After``, the one error body), so that a logged-in
player's wager never waits behind an attacker's work. Checked by counting who was
answered and who still waits, never by timing."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from riverboat.admission.budgets import Budget, Busy, Rate, Tarpit
from riverboat.admission.gates import LoginWaits
from riverboat.admission.logins import FREE, MemoryThrottle
from riverboat.settings import amended
from riverboat.table.accounts import players as players_module
from riverboat.table.accounts.players import Throttled
from riverboat.web.app import create_app
from riverboat.web.errors import CLOSE_TRY_LATER

PASSWORD = "a long password"


def wait_for(condition: Callable[[], bool], seconds: float = 30.0) -> bool:
    """Whether ``condition`` came true within ``seconds`` (a bound for a busy machine,
    not a measurement)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def post(client: TestClient, path: str, body: dict[str, Any]) -> Any:
    return client.post(
        path, json=body, headers={"X-CSRF-Token": client.cookies.get("riverboat_csrf", "")}
    )


def client_at(app: FastAPI, address: str) -> TestClient:
    client = TestClient(app, client=(address, 5000))
    client.get("/")  # the page's CSRF cookie
    return client


@pytest.fixture
def app(tmp_path: Path) -> Iterator[FastAPI]:
    database = f"sqlite:///{tmp_path / 'budget.db'}"
    app = create_app(
        amended(database_url=database, local_player=False, rate_limit=1000, house_edges=False)
    )
    yield app
    app.state.service.engine.dispose()


class Gate:
    """Holds every call that passes it until :meth:`open`; counts those held."""

    def __init__(self) -> None:
        self.held = threading.Semaphore(0)
        self.opened = threading.Event()

    def __call__(self) -> None:
        self.held.release()
        self.opened.wait(60)

    def open(self) -> None:
        self.opened.set()


@contextmanager
def spent(budget: Budget) -> Iterator[Budget]:
    """``budget``'s one slot taken by someone else's call for as long as the block runs."""
    gate = Gate()

    def hold() -> None:
        with budget.spend("someone else"):
            gate()

    holder = threading.Thread(target=hold)
    holder.start()
    assert gate.held.acquire(timeout=30)
    try:
        yield budget
    finally:
        gate.open()
        holder.join()


# ------------------------------------------------------------------- the budget itself
def test_a_budget_runs_its_slots_queues_in_order_and_refuses_the_rest() -> None:
    budget = Budget("checks", slots=1, queue=2, each=1, seconds=0.5)
    gate, order, refused = Gate(), [], []

    def call(name: str) -> None:
        try:
            with budget.spend(name):
                order.append(name)
                if name == "first":
                    gate()
        except Busy as busy:
            refused.append((name, str(busy), busy.retry_after))

    threads = [threading.Thread(target=call, args=("first",))]
    threads[0].start()
    assert gate.held.acquire(timeout=30)
    for name in ("second", "third"):  # each in line before the next starts
        threads.append(threading.Thread(target=call, args=(name,)))
        threads[-1].start()
        queued = len(threads) - 1
        assert wait_for(lambda: budget.waiting == queued)  # noqa: B023 - read at once
    call("fourth")  # the queue is full: refused at once, in this thread
    with pytest.raises(Busy), budget.spend("first"):  # one per key: "first" is running
        pass
    assert refused == [("fourth", "too many checks under way; try again in 2 s", 2)]
    assert order == ["first"]
    gate.open()
    for thread in threads:
        thread.join()
    assert order == ["first", "second", "third"]  # in order of arrival
    assert (budget.running, budget.waiting) == (0, 0)


def test_a_budget_refuses_a_shape_that_could_not_run() -> None:
    with pytest.raises(ValueError, match="1 or more at once"):
        Budget("checks", slots=0, queue=1)


# ------------------------------------------------------------------- password checks
def test_a_logged_in_player_is_served_while_failed_log_ins_queue(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Twenty failed log-ins at once from twenty addresses: one hashes, four wait, the
    other fifteen are refused 429 at once; a logged-in player's wager is answered
    while the one still hashes and the four still wait."""
    service = app.state.service
    service.register("ann", PASSWORD)
    ann = client_at(app, "10.0.0.1")
    assert post(ann, "/api/login", {"name": "ann", "password": PASSWORD}).status_code == 200
    budget = service.players.hashes = players_module.hashes(slots=1, queue=4)
    gate = Gate()
    real = players_module._hasher

    class Held:
        def verify(self, stored: str, password: str) -> bool:
            gate()
            return real.verify(stored, password)

    monkeypatch.setattr(players_module, "_hasher", Held())
    answers: list[tuple[int, str | None, dict[str, str]]] = []
    lock = threading.Lock()
    for index in range(20):  # guessing already: none is let into the reserve
        app.state.budgets.log_ins.tried(f"10.3.0.{index}")

    def guess(index: int) -> None:
        attacker = client_at(app, f"10.3.0.{index}")
        answer = post(attacker, "/api/login", {"name": "ann", "password": "a wrong guess"})
        with lock:
            answers.append((answer.status_code, answer.headers.get("retry-after"), answer.json()))

    threads = [threading.Thread(target=guess, args=(index,)) for index in range(20)]
    for thread in threads:
        thread.start()
    try:
        assert gate.held.acquire(timeout=60), "no log-in reached its hash"
        assert wait_for(lambda: (budget.running, budget.waiting, len(answers)) == (1, 4, 15))
        dealt = post(ann, "/api/rounds", {"game": "baccarat", "wagers": {"banker": 1000}})
        assert dealt.status_code == 200
        assert dealt.json()["status"] == "settled"
        assert ann.get("/api/me").json()["signed_in"] is True
        # served while the attackers' queue had not moved: one hashing, four waiting
        assert (budget.running, budget.waiting, len(answers)) == (1, 4, 15)
    finally:
        gate.open()
        for thread in threads:
            thread.join()
    refused = [a for a in answers if a[0] == 429]
    assert len(refused) == 15
    assert all(retry and int(retry) >= 1 for _, retry, _ in refused)
    assert {body["code"] for _, _, body in refused} == {"rate_limited"}
    assert refused[0][2]["error"].startswith("too many password checks under way; try again")
    assert [a[0] for a in answers[15:]] == [401] * 5
    assert (budget.running, budget.waiting) == (0, 0)


def test_the_calls_vouched_for_run_in_the_reserve_and_wait_ahead_of_the_rest() -> None:
    budget = Budget("checks", slots=1, queue=1, each=1, reserve=1)
    gate, order = Gate(), []

    def call(name: str, vouched: bool = False) -> None:
        with budget.vouch(name) if vouched else nullcontext(), budget.spend(name):
            order.append(name)
            if name in ("guess", "owner"):
                gate()

    threads = [threading.Thread(target=call, args=("guess",))]
    threads[0].start()
    assert gate.held.acquire(timeout=30)
    threads.append(threading.Thread(target=call, args=("late",)))  # waits: one slot in all
    threads[-1].start()
    assert wait_for(lambda: budget.waiting == 1)
    assert budget.refusal("third") is not None  # its line (queue 1) is full
    assert budget.refusal("third", vouched=True) is None  # the reserve is free
    threads.append(threading.Thread(target=call, args=("owner", True)))  # the reserve
    threads[-1].start()
    assert gate.held.acquire(timeout=30)
    assert (budget.running, budget.waiting, order) == (2, 1, ["guess", "owner"])
    threads.append(threading.Thread(target=call, args=("second", True)))  # ahead of "late"
    threads[-1].start()
    assert wait_for(lambda: budget.waiting == 2)
    assert budget.refusal("third", vouched=True) is not None  # its line is full too
    gate.open()
    for thread in threads:
        thread.join()
    assert order == ["guess", "owner", "second", "late"]
    assert (budget.running, budget.waiting) == (0, 0)


def test_the_owner_from_a_clean_address_logs_in_while_guesses_fill_the_budget(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Guesses from addresses that have failed fill the password checks (one hashing,
    four waiting, the rest refused); the attacked account's owner, from an address with
    no failures, logs in at once in the reserve, while they all still wait."""
    service = app.state.service
    ann_id = service.register("ann", PASSWORD)
    budget = service.players.hashes = players_module.hashes(slots=1, queue=4)
    gate, real = Gate(), players_module._hasher

    class Held:  # the guesses hash until the gate opens; the owner's right password not
        def verify(self, stored: str, password: str) -> bool:
            if password != PASSWORD:
                gate()
            return real.verify(stored, password)

        def check_needs_rehash(self, stored: str) -> bool:
            return False

    monkeypatch.setattr(players_module, "_hasher", Held())
    app.state.budgets.tarpit = Tarpit(longest=0)  # refusals answered at once here
    statuses: list[int] = []
    guessers = [f"10.11.0.{index}" for index in range(8)]
    for address in guessers:
        app.state.budgets.log_ins.tried(address)  # failed before: no reserve for them

    def guess(address: str) -> None:
        wrong = {"name": "ann", "password": "a wrong guess"}
        statuses.append(post(client_at(app, address), "/api/login", wrong).status_code)

    threads = [threading.Thread(target=guess, args=(address,)) for address in guessers]
    for thread in threads:
        thread.start()
    try:
        assert gate.held.acquire(timeout=60), "no guess reached its hash"
        assert wait_for(lambda: (budget.running, budget.waiting, len(statuses)) == (1, 4, 3))
        owner = client_at(app, "10.11.1.1")
        answer = post(owner, "/api/login", {"name": "ann", "password": PASSWORD})
        assert (answer.status_code, answer.json()["player"]) == (200, ann_id)
        assert (budget.running, budget.waiting, len(statuses)) == (1, 4, 3)  # none moved
        guesser = client_at(app, guessers[0])  # a guesser is not let in beside the owner
        assert post(guesser, "/api/login", {"name": "ann", "password": PASSWORD}).status_code == 429
    finally:
        gate.open()
        for thread in threads:
            thread.join()
    assert sorted(statuses) == [401] * 5 + [429] * 3


def test_a_new_address_gets_one_try_in_the_reserve_and_new_ones_share_a_few(
    app: FastAPI,
) -> None:
    """The checks spent by a guess: a new address's first guess runs in the reserve, its
    next is refused; new addresses get so many turns in all (``STRANGERS``), and an
    address the owner logged in from before is let in beyond them."""
    service = app.state.service
    service.register("ann", PASSWORD)
    app.state.budgets.log_ins = LoginWaits(clock=lambda: 0.0)  # no turn given back
    app.state.budgets.tarpit = Tarpit(longest=0)
    owner = client_at(app, "10.12.1.1")
    right, wrong = (
        {"name": "ann", "password": PASSWORD},
        {"name": "ann", "password": "a wrong guess"},
    )
    assert post(owner, "/api/login", right).status_code == 200  # a new address: one turn
    budget = service.players.hashes = players_module.hashes(slots=1, queue=0)
    with spent(budget):
        first, second = client_at(app, "10.12.0.1"), client_at(app, "10.12.0.2")
        assert post(first, "/api/login", wrong).status_code == 401  # the second turn
        assert post(first, "/api/login", wrong).status_code == 429  # failed: no more
        assert post(second, "/api/login", wrong).status_code == 429  # the turns are spent
        assert post(owner, "/api/login", right).status_code == 200  # known here
        assert post(owner, "/api/login", right).status_code == 200  # and again


def test_a_log_in_refused_as_busy_is_not_counted_as_a_failure(app: FastAPI) -> None:
    service = app.state.service
    ann_id = service.register("ann", PASSWORD)
    budget = service.players.hashes = players_module.hashes(slots=1, queue=0)
    with spent(budget):
        for _ in range(20):  # many more than the free failures
            with pytest.raises(Busy):
                service.login("ann", PASSWORD, "10.0.0.9")
    assert service.login("ann", PASSWORD, "10.0.0.9") == ann_id  # not throttled


def test_an_owner_told_to_wait_keeps_their_turn_in_the_reserve(app: FastAPI) -> None:
    """A new address that finds the checks spent and the strangers' turns taken is told
    to wait, and that is no failure: once a turn is back it runs in the reserve, while
    the check it waited on still runs."""
    service = app.state.service
    service.register("ann", PASSWORD)
    clock = [0.0]
    waits = app.state.budgets.log_ins = LoginWaits(clock=lambda: clock[0])
    app.state.budgets.tarpit = Tarpit(longest=0)
    assert [waits.vouch(f"10.13.0.{n}") for n in range(2)] == [True, True]  # turns taken
    budget = service.players.hashes = players_module.hashes(slots=1, queue=0)
    with spent(budget):
        owner, right = client_at(app, "10.13.1.1"), {"name": "ann", "password": PASSWORD}
        told = post(owner, "/api/login", right)
        assert told.status_code == 429
        assert waits.clean("10.13.1.1")  # told to wait: not a failure
        clock[0] = 60.0  # the wait is over and a stranger's turn is back
        assert post(owner, "/api/login", right).status_code == 200
        assert budget.running == 1  # the held check still runs


# ------------------------------------------------------------------- history pages
def readers(app: FastAPI, count: int, network: str) -> list[TestClient]:
    """``count`` players registered and logged in, each from an address in ``network``."""
    clients = []
    for number in range(count):
        name = f"reader{network.replace('.', '-')}-{number}"
        app.state.service.register(name, PASSWORD)
        client = client_at(app, f"{network}.{number}")
        assert post(client, "/api/login", {"name": name, "password": PASSWORD}).status_code == 200
        clients.append(client)
    return clients


def test_history_pages_are_two_per_player_and_a_few_in_all(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A page under way: the same player's next waits its turn (a page reloading its
    history while its fairness drawer reads it), their third is refused at once;
    another player's waits too, until the queue is full; a wager is answered meanwhile."""
    service = app.state.service
    clients = readers(app, 3, "10.4.0")
    gate, real = Gate(), service.history
    budget = app.state.budgets.history

    def held(*args: Any) -> Any:
        gate()
        return real(*args)

    monkeypatch.setattr(service, "history", held)
    statuses: dict[str, int] = {}

    def read(number: int, name: str) -> None:
        statuses[name] = clients[number].get("/api/history").status_code

    first = threading.Thread(target=read, args=(0, "first"))
    first.start()
    assert gate.held.acquire(timeout=30)
    again = threading.Thread(target=read, args=(0, "again"))  # reader0's second page
    again.start()
    assert wait_for(lambda: budget.waiting == 1)
    third = clients[0].get("/api/history")  # reader0's third, while two are theirs
    assert third.status_code == 429
    assert third.json()["code"] == "rate_limited"
    assert int(third.headers["retry-after"]) >= 1
    other = threading.Thread(target=read, args=(1, "other"))
    other.start()
    assert wait_for(lambda: budget.waiting == 2)
    assert clients[2].get("/api/history").status_code == 429  # the queue is full
    dealt = post(clients[2], "/api/rounds", {"game": "baccarat", "wagers": {"banker": 1000}})
    assert dealt.status_code == 200  # a wager is not a history page
    assert (budget.running, budget.waiting, statuses) == (1, 2, {})
    gate.open()
    for thread in (first, again, other):
        thread.join()
    assert statuses == {"first": 200, "again": 200, "other": 200}


# ------------------------------------------------------------------- handshakes
def test_a_handshake_beyond_the_budget_is_closed_try_again_later(app: FastAPI) -> None:
    service = app.state.service
    service.register("ann", PASSWORD)
    ann = client_at(app, "10.5.0.1")
    assert post(ann, "/api/login", {"name": "ann", "password": PASSWORD}).status_code == 200
    app.state.budgets.handshakes = budget = Budget("table connections", slots=1, queue=0)
    origin = {"origin": "http://testserver"}
    with spent(budget):
        with (
            pytest.raises(WebSocketDisconnect) as closed,
            ann.websocket_connect("/ws/tables/crazy4", headers=origin) as socket,
        ):
            socket.receive_json()
        assert closed.value.code == CLOSE_TRY_LATER  # accepted, then closed with a reason
        assert closed.value.reason.startswith("too many table connections under way")
    with ann.websocket_connect("/ws/tables/crazy4", headers=origin) as socket:
        assert socket.receive_json()["type"] == "table"  # admitted once there is room


# ------------------------------------------------------------------- a throttled address
def test_a_throttled_address_is_refused_at_the_edge_until_its_wait_is_over(
    app: FastAPI,
) -> None:
    """Once told to wait, an address's log-ins are refused before their body is read
    (a body that is not even JSON gets the same 429) and never reach the throttle;
    another address logs in meanwhile, and the first may try again after the wait."""
    service = app.state.service
    service.register("ann", PASSWORD)
    clock = [0.0]
    throttle = service.players.throttle = MemoryThrottle(clock=lambda: clock[0])
    app.state.budgets.log_ins = LoginWaits(clock=lambda: clock[0])
    tries = []
    real = throttle.attempt

    def counted(account: str, address: str) -> float:
        tries.append(address)
        return real(account, address)

    throttle.attempt = counted  # type: ignore[method-assign]
    stranger = client_at(app, "10.6.0.66")
    wrong = {"name": "ann", "password": "a wrong guess"}
    statuses = [post(stranger, "/api/login", wrong).status_code for _ in range(FREE + 1)]
    assert statuses == [401] * FREE + [429]
    assert len(tries) == FREE + 1
    told = stranger.post(
        "/api/login",
        content=b"not json",
        headers={"X-CSRF-Token": stranger.cookies["riverboat_csrf"]},
    )
    assert told.status_code == 429  # not 422: the body was never read
    assert told.headers["retry-after"] == "1"
    assert told.json() == {
        "error": "too many failed log-ins from this address; try again in 1 s",
        "code": "rate_limited",
    }
    assert post(stranger, "/api/login", wrong).status_code == 429
    assert len(tries) == FREE + 1  # neither reached the throttle
    owner = client_at(app, "10.6.0.1")
    assert post(owner, "/api/login", {"name": "ann", "password": PASSWORD}).status_code == 200
    clock[0] = 1.5  # the wait is over: the stranger may guess again (and is told to wait)
    assert post(stranger, "/api/login", wrong).status_code == 401
    assert len(tries) == FREE + 3


def test_an_address_told_busy_is_told_so_again_at_the_edge_until_its_wait_is_over() -> None:
    clock = [0.0]
    waits = LoginWaits(clock=lambda: clock[0])
    waits.hold("10.7.0.1", Busy("password checks", 2.0))
    waits.hold("10.7.0.2", Throttled(4.0))
    clock[0] = 0.5
    told = waits.refusal("10.7.0.1")
    assert isinstance(told, Busy)
    assert (str(told), told.retry_after) == (
        "too many password checks under way; try again in 2 s", 2)  # fmt: skip
    assert isinstance(waits.refusal("10.7.0.2"), Throttled)
    assert waits.refusal("10.7.0.3") is None  # never told: goes ahead
    clock[0] = 2.0
    assert waits.refusal("10.7.0.1") is None  # its wait is over
    assert waits.refusal("10.7.0.2") is not None


@pytest.mark.parametrize(("given", "said"), [("3", "3"), ("0", "a whole number from 1")])
def test_the_hash_slots_are_set_by_the_environment(given: str, said: str) -> None:
    shown = subprocess.run(
        [
            sys.executable,
            "-c",
            "from riverboat.table.accounts import players; print(players.HASH_SLOTS)",
        ],
        env={**os.environ, "RIVERBOAT_HASH_SLOTS": given},
        capture_output=True,
        text=True,
        check=False,
    )
    assert said in shown.stdout + shown.stderr


# ------------------------------------------------------------------- answered late
def test_a_refused_log_in_is_answered_once_its_wait_is_over_and_never_hashes(
    app: FastAPI, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An address told to wait asks again at once: its request sleeps in the tarpit (no
    thread, no hash) and is then refused in the one shape, with what is left to wait."""
    hashed: list[str] = []
    real = players_module._hasher

    class Counted:
        def verify(self, stored: str, password: str) -> bool:
            hashed.append(password)
            return real.verify(stored, password)

    monkeypatch.setattr(players_module, "_hasher", Counted())
    budgets = app.state.budgets
    budgets.log_ins.hold("10.8.0.66", Throttled(1.0))
    stranger = client_at(app, "10.8.0.66")
    answers: list[Any] = []
    asking = threading.Thread(
        target=lambda: answers.append(
            post(stranger, "/api/login", {"name": "ann", "password": "x" * 12})
        )
    )
    asking.start()
    assert wait_for(lambda: budgets.tarpit.sleeping == 1)
    assert answers == []  # held back, not answered
    asking.join()
    (told,) = answers
    assert told.status_code == 429
    assert told.headers["retry-after"] == "1"
    assert told.json() == {
        "error": "too many failed log-ins from this address; try again in 1 s",
        "code": "rate_limited",
    }
    assert (budgets.tarpit.sleeping, hashed) == (0, [])


def test_the_tarpit_holds_a_few_per_address_and_in_all_and_answers_the_rest_at_once() -> None:
    async def run() -> list[object]:
        tarpit = Tarpit(longest=60, each=1, total=2)
        first = asyncio.ensure_future(tarpit.delay("10.9.0.1", 5))
        await asyncio.sleep(0)
        again = await tarpit.delay("10.9.0.1", 5)  # that address has one sleeping
        second = asyncio.ensure_future(tarpit.delay("10.9.0.2", 5))
        await asyncio.sleep(0)
        full = await tarpit.delay("10.9.0.3", 5)  # two sleep in all
        seen = [again, full, tarpit.sleeping, first.done(), second.done()]
        for task in (first, second):
            task.cancel()
        await asyncio.gather(first, second, return_exceptions=True)
        return [*seen, tarpit.sleeping, await tarpit.delay("10.9.0.3", 0)]

    assert asyncio.run(run()) == [0.0, 0.0, 2, False, False, 0, 0.0]


def test_history_pages_beyond_a_players_rate_are_refused_with_retry_after(
    app: FastAPI,
) -> None:
    first, second = readers(app, 2, "10.10.0")
    clock = [0.0]
    budgets = app.state.budgets
    budgets.pages = Rate("history pages", capacity=100, per_second=10, clock=lambda: clock[0])
    budgets.tarpit = Tarpit(longest=0)  # answered at once here
    assert first.get("/api/history?limit=100").status_code == 200  # the whole bucket
    refused = first.get("/api/history?limit=20")
    assert refused.status_code == 429
    assert refused.headers["retry-after"] == "2"
    assert refused.json() == {
        "error": "too many history pages asked for; try again in 2 s",
        "code": "rate_limited",
    }
    assert second.get("/api/history?limit=20").status_code == 200  # another player's own
    clock[0] = 2.0
    assert first.get("/api/history?limit=20").status_code == 200  # refilled
