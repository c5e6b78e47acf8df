"""What a table's holder publishes for connections
(riverboat.table.live.across.connections._Outbox): in the order asked, each process's
share of a burst in one PUBLISH, and a Redis that does not answer failing every body of
its sending, not hanging it. Needs Redis at 127.0.0.1:6379 (as
tests/test_multi_process.py)."""

from __future__ import annotations

import asyncio
import json
import os
import uuid
from typing import Any

import pytest

from riverboat.table.live.across.connections import _Outbox

REDIS = os.environ.get("RIVERBOAT_TEST_REDIS", "redis://127.0.0.1:6379/0")


class _Counted:
    """A Redis client whose pipelines count the PUBLISH commands they carry."""

    def __init__(self, redis: Any) -> None:
        self.redis, self.publishes = redis, 0

    def pipeline(self, transaction: bool) -> Any:
        pipe = self.redis.pipeline(transaction=transaction)
        publish = pipe.publish

        def counted(channel: str, body: str) -> Any:
            self.publishes += 1
            return publish(channel, body)

        pipe.publish = counted
        return pipe


def test_a_burst_goes_in_order_one_publish_a_channel_at_a_time() -> None:
    from redis import asyncio as aioredis

    async def burst() -> tuple[dict[str, list[int]], list[int], int]:
        redis = aioredis.from_url(REDIS, decode_responses=True)
        channels = [f"test-outbox:{uuid.uuid4().hex}:{n}" for n in range(2)]
        listening = redis.pubsub()
        await listening.subscribe(*channels)
        for _ in channels:  # subscribed before anything is published
            confirmed = await listening.get_message(timeout=5)
            assert confirmed is not None
            assert confirmed["type"] == "subscribe"
        counted = _Counted(redis)
        outbox = _Outbox(counted)
        heard = await asyncio.gather(
            *(
                outbox.publish(channels[n % 2], json.dumps({"n": n}))
                for n in range(200)  # asked at once, as a coup's results are
            ),
            outbox.publish(f"test-outbox:{uuid.uuid4().hex}:nobody", "{}"),
        )
        got: dict[str, list[int]] = {channel: [] for channel in channels}
        while sum(len(ns) for ns in got.values()) < 200:
            message = await listening.get_message(timeout=5)
            assert message is not None, got
            got[message["channel"]] += [body["n"] for body in json.loads(message["data"])]
        await outbox.close()
        await listening.aclose()
        await redis.aclose()
        return got, heard, counted.publishes

    got, heard, publishes = asyncio.run(burst())
    assert list(got.values()) == [list(range(0, 200, 2)), list(range(1, 200, 2))]
    assert heard == [1] * 200 + [0]  # each body: how many listened on its channel
    assert publishes <= 6  # a few pipelines of one PUBLISH a channel, not 201 PUBLISHes


def test_a_redis_that_does_not_answer_fails_the_sending() -> None:
    from redis import asyncio as aioredis

    async def unanswered() -> None:
        redis = aioredis.from_url("redis://127.0.0.1:9/0", socket_connect_timeout=1)
        outbox = _Outbox(redis)
        with pytest.raises(ConnectionError, match="publishing failed"):
            await asyncio.wait_for(outbox.publish("nowhere", "{}"), 10)
        # and the next body is sent (or fails) on its own: the outbox is not stuck
        with pytest.raises(ConnectionError):
            await asyncio.wait_for(outbox.publish("nowhere", "{}"), 10)
        await outbox.close()
        await redis.aclose()

    asyncio.run(unanswered())
