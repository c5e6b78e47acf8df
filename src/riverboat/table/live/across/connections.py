"""A player's connection at a table over Redis, as each side sees it: on the process
it is open on, what the holder sent it, handed over in order (:class:`_Connection`); on
the holder's, a connection to publish to (:class:`_Remote`), through one outbox that
sends whatever is waiting in one pipeline (:class:`_Outbox`).
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic import TypeAdapter

from riverboat.table.live.across.hub import Close
from riverboat.table.live.seats import SEND_SECONDS, Send, SendText
from riverboat.table.live.views import ErrorMessage, TableMessage

if TYPE_CHECKING:
    from redis.asyncio import Redis

    from riverboat.table.live.across.redis_hub import RedisHub

_TABLE_MESSAGES: TypeAdapter[TableMessage] = TypeAdapter(TableMessage)


@dataclass
class _Connection:
    """A player's connection open on this process, and what the holder sent it, handed
    over in order by a task of its own, so that one slow connection delays no other.
    One that does not take a message within :data:`SEND_SECONDS` is closed, as the
    table would drop it in one process (its page connects again)."""

    key: str
    player: int
    send: Send
    close: Close
    send_text: SendText | None = None
    queue: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)
    pump: asyncio.Task[None] | None = None

    async def hand_over(self) -> None:
        while True:
            body = await self.queue.get()
            try:
                if "text" in body:  # as the holder made it: passed on as it is
                    text = body["text"]
                    if self.send_text is not None:
                        await asyncio.wait_for(self.send_text(text), SEND_SECONDS)
                    else:
                        message = _TABLE_MESSAGES.validate_json(text)
                        await asyncio.wait_for(self.send(message), SEND_SECONDS)
                elif "message" in body:
                    message = _TABLE_MESSAGES.validate_python(body["message"])
                    await asyncio.wait_for(self.send(message), SEND_SECONDS)
                if body.get("close"):
                    await self.close()
            except Exception:  # it has gone, or hangs: closed, its handler leaves
                with contextlib.suppress(Exception):
                    await self.close()
                return


class _Remote:
    """A connection as the table's holder sees it: sending to it publishes on the
    channel of the process it is open on; a process that no longer listens (it has
    stopped) drops it. A message goes as its JSON text, passed on as it is; a refusal
    goes as its fields (the connection's process words a table's own note)."""

    def __init__(self, hub: RedisHub, key: str, conn: str) -> None:
        self.hub, self.key, self.conn = hub, key, conn

    async def __call__(self, message: TableMessage) -> None:
        body: dict[str, Any] = {"conn": self.conn}
        if isinstance(message, ErrorMessage):
            body["message"] = _TABLE_MESSAGES.dump_python(message, mode="json")
        else:
            body["text"] = _TABLE_MESSAGES.dump_json(message).decode()
        if not await self.hub.publish_to(self.conn, body):
            self.hub.remotes.get(self.key, {}).pop(self.conn, None)
            raise ConnectionError(f"connection {self.conn} has gone")


class _Outbox:
    """What a holder publishes for connections, sent in order by one task: whatever
    was asked while the last sending was under way goes next, one ``PUBLISH`` to each
    process's channel (a JSON list of the bodies for it), all in one pipeline.
    :meth:`publish` answers how many processes heard it, as ``PUBLISH`` does.

    One task sends, so bodies leave in the order they were asked for; a Redis that
    does not answer fails every body of that sending (each connection is dropped, as
    a failed publish of its own would be)."""

    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self.waiting: list[tuple[str, str, asyncio.Future[int]]] = []
        self.ready = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    async def publish(self, channel: str, body: str) -> int:
        """Publish ``body`` (JSON text) on ``channel``, with whatever else is waiting."""
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._send())
        heard: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self.waiting.append((channel, body, heard))
        self.ready.set()
        return await heard

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            await asyncio.gather(self.task, return_exceptions=True)
        for _, _, heard in self.waiting:
            heard.cancel()

    async def _send(self) -> None:
        while True:
            await self.ready.wait()
            self.ready.clear()
            batch, self.waiting = self.waiting, []
            by_channel: dict[str, list[tuple[str, asyncio.Future[int]]]] = {}
            for channel, body, heard in batch:
                by_channel.setdefault(channel, []).append((body, heard))
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for channel, bodies in by_channel.items():
                        pipe.publish(channel, "[" + ",".join(body for body, _ in bodies) + "]")
                    answers = await pipe.execute()
            except Exception as error:
                for _, _, heard in batch:
                    if not heard.done():
                        heard.set_exception(ConnectionError(f"publishing failed: {error}"))
                continue
            for bodies, count in zip(by_channel.values(), answers, strict=True):
                for _, heard in bodies:
                    if not heard.done():
                        heard.set_result(int(count))
