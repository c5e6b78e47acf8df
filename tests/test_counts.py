"""The rate limit's counts kept in each process and shared in batches
(riverboat.admission.counts): what each process knows of the others' counts, when,
and what a store that does not answer costs."""

import time
from collections.abc import Sequence

import pytest

from riverboat.admission import counts
from riverboat.admission.counts import SharedCounts
from riverboat.admission.gates import RateLimiter
from riverboat.errors import Unavailable
from riverboat.store import connect
from riverboat.store.state import DatabaseStore, MemoryStore


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


class Failing(MemoryStore):
    """A memory store whose next ``failures`` batches of counts do not answer."""

    def __init__(self, clock: Clock) -> None:
        super().__init__(clock)
        self.failures = 0

    def increment_many(self, counts: Sequence[tuple[str, float, int]]) -> list[int]:
        if self.failures:
            self.failures -= 1
            raise Unavailable("no answer")
        return super().increment_many(counts)


def test_each_process_learns_the_others_counts_when_it_shares() -> None:
    clock = Clock()
    store = MemoryStore(clock)
    here, there = SharedCounts(store, every=600), SharedCounts(store, every=600)
    assert [here.increment("k", 10) for _ in range(3)] == [1, 2, 3]
    assert there.increment("k", 10) == 1  # nothing shared yet
    here.share()
    there.share()  # there now knows here's 3; here learns there's 1 at its next sharing
    assert there.increment("k", 10) == 5
    assert here.increment("k", 10) == 4
    here.share()
    assert here.increment("k", 10) == 6  # 3 + 1 + 1 + 1: every count, once
    assert store.increment("k", 10, by=0) == 5  # the last is not shared yet


def test_a_window_that_ends_starts_again_here_and_in_the_store() -> None:
    clock = Clock()
    store = MemoryStore(clock)
    here = SharedCounts(store, every=600)
    assert [here.increment("k", 1.0) for _ in range(2)] == [1, 2]
    here.share()
    clock.now += 1.5  # the window is over: the count starts again, its old counts gone
    assert here.increment("k", 1.0) == 1
    here.share()
    assert store.increment("k", 1.0, by=0) == 1
    clock.now += 1.5
    here.share()  # no window open: nothing is sent
    assert store.keys("") == []


def test_counts_a_store_did_not_take_are_shared_at_the_next_try() -> None:
    clock = Clock()
    store = Failing(clock)
    here = SharedCounts(store, every=600)
    here.increment("k", 10)
    store.failures = 1
    here.share()  # refused: kept, and counting goes on
    assert here.increment("k", 10) == 2
    here.share()
    assert store.increment("k", 10, by=0) == 2  # both, once


def test_the_sharing_thread_shares_soon_after_a_count_and_ends_when_idle(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(counts, "IDLE", 0.3)
    store = MemoryStore()
    here = SharedCounts(store, every=0.05)
    here.increment("k", 60)
    deadline = time.monotonic() + 10
    while store.increment("k", 60, by=0) == 0:  # shared by the thread, unasked
        assert time.monotonic() < deadline, "the counts were never shared"
        time.sleep(0.01)
    while here._sharing is not None:  # idle: the thread has ended
        assert time.monotonic() < deadline, "the sharing thread never ended"
        time.sleep(0.05)
    here.increment("k", 60)  # the next count starts another
    assert here._sharing is not None
    while store.increment("k", 60, by=0) != 2:
        assert time.monotonic() < deadline, "the second count was never shared"
        time.sleep(0.01)


def test_rate_limiters_on_one_database_refuse_together_once_shared(database_url: str) -> None:
    store = DatabaseStore(connect(database_url))
    one, two = RateLimiter(3, 600, store), RateLimiter(3, 600, store)
    assert isinstance(one.counts, SharedCounts)
    one.counts.every = two.counts.every = 600  # shared here, when the test says
    assert [one.allow("10.0.0.1"), two.allow("10.0.0.1"), one.allow("10.0.0.1")] == [True] * 3
    one.counts.share()
    two.counts.share()
    assert two.allow("10.0.0.1") is False  # the fourth in all
    assert two.allow("10.0.0.2") is True  # another client counts apart


def test_a_request_is_counted_without_reaching_the_store() -> None:
    clock = Clock()
    store = Failing(clock)
    store.failures = 10**6  # the store never answers
    limiter = RateLimiter(2, 600, store)
    assert [limiter.allow("a") for _ in range(3)] == [True, True, False]
    assert isinstance(RateLimiter(2).counts, MemoryStore)  # one process: memory alone


def test_a_sharing_writes_only_what_was_counted_since_and_reads_the_rest() -> None:
    clock = Clock()
    store = MemoryStore(clock)
    here, there = SharedCounts(store, every=600), SharedCounts(store, every=600)
    here.increment("k", 10)
    here.share()
    writes = store._writes
    there.increment("k", 10)
    there.share()
    here.share()  # nothing counted here since: k is read, not written
    assert store._writes == writes + 1  # there's one count, once
    assert here.increment("k", 10) == 3  # 1 here, 1 there, and this one
