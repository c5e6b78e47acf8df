"""Shared tables served by several server processes over Redis (:class:`RedisHub`).

One process at a time runs a table's clock, holding its lease
(:mod:`~riverboat.table.live.across.lease`) and writing its state to the database
(:mod:`~riverboat.table.live.across.live_state`). A player's messages go into the
table's inbox, a Redis stream that every holder reads in one consumer group, in order:
a message stays pending until the holder that read it has carried it out (or refused
it) and acknowledged it, so one read by a holder that then froze or died is read again
by the next, and each carries an id the table carries out only once. What the holder
sends a player's connection is published on the channel of the process that
connection is open on, and only that connection gets it: no process passes one
player's cards to another (C8). A message is made into JSON once, by the holder, and
passed to the connection as that text; what the holder sends while its last
publishing is under way goes in one ``PUBLISH`` a process, all in one pipeline
(:mod:`~riverboat.table.live.across.connections`), so a coup's results for a thousand
players are a few Redis commands, not a thousand. When a process takes a table over
it says so on the table's channel, and every process seats its connections at that
table again.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import os
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from pydantic import TypeAdapter

from riverboat.errors import Refusal, Unavailable
from riverboat.rng import new_token
from riverboat.table.live.across import live_state
from riverboat.table.live.across.connections import (
    _TABLE_MESSAGES,
    _Connection,
    _Outbox,
    _Remote,
)
from riverboat.table.live.across.hub import Close, Handler, Hub, table_key
from riverboat.table.live.across.lease import LEASE_SECONDS, Lease
from riverboat.table.live.across.live_state import LeaseLostError
from riverboat.table.live.seats import Send, SendText, find_seat
from riverboat.table.live.table import SharedTable
from riverboat.table.live.views import ErrorMessage, PlayerMessage

if TYPE_CHECKING:
    from redis.asyncio import Redis
    from redis.asyncio.client import PubSub

__all__ = ["INBOX_GROUP", "INBOX_KEPT", "RedisHub"]

_log = logging.getLogger(__name__)

_PLAYER_MESSAGES: TypeAdapter[PlayerMessage] = TypeAdapter(PlayerMessage)
_UNREACHED = "the table's messages could not reach the server running it; try again shortly"
#: the consumer group every holder of a table reads its inbox (a Redis stream) in
INBOX_GROUP = "holders"
#: about how many messages an inbox keeps, acknowledged or not (``XADD MAXLEN ~``)
INBOX_KEPT = 10_000


def _read(fields: dict[str, str]) -> dict[str, Any] | None:
    """An inbox entry's message, or None if it is not one (nothing to carry out).

    >>> _read({"op": '{"op": "leave"}'}), _read({"op": "not JSON"}), _read({})
    ({'op': 'leave'}, None, None)
    """
    with contextlib.suppress(ValueError, KeyError):
        op = json.loads(fields["op"])
        return op if isinstance(op, dict) else None
    return None


def _bettors(ops: Iterable[dict[str, Any] | None]) -> list[int]:
    """The players whose bets are among a batch of the inbox's messages.

    >>> _bettors([{"op": "act", "player": 7, "message": {"type": "bet"}}, None])
    [7]
    """
    found = []
    for op in ops:
        with contextlib.suppress(KeyError, TypeError, ValueError, AttributeError):
            if op is not None and op["op"] == "act" and op["message"]["type"] == "bet":
                found.append(int(op["player"]))
    return found


def _refusal(error: Refusal) -> ErrorMessage:
    return ErrorMessage(message=str(error), error=str(error), code=error.code)


class RedisHub(Hub):
    """Tables served by every process that shares ``url``'s Redis (and one PostgreSQL
    database); keys and channels begin with ``prefix``. A table's lease lasts
    ``lease_seconds``: a process that stops renewing loses its tables that long after."""

    across_processes = True

    def __init__(
        self,
        url: str,
        handler: Handler,
        prefix: str = "riverboat:",
        lease_seconds: float = LEASE_SECONDS,
    ) -> None:
        super().__init__(handler)
        from redis import asyncio as aioredis

        self.redis: Redis = aioredis.from_url(url, decode_responses=True)
        self.prefix, self.lease_seconds = prefix, lease_seconds
        self.process = f"{os.getpid()}-{new_token(4)}"
        self.tables: dict[str, SharedTable] = {}
        self.local: dict[str, _Connection] = {}  # this process's connections, by id
        self.conns: dict[Send, str] = {}
        self.remotes: dict[str, dict[str, _Remote]] = {}  # a held table's connections
        self.held: dict[str, int] = {}  # the tables this process runs: their tokens
        self._numbers = itertools.count(1)
        self._tasks: list[asyncio.Task[None]] = []
        self._pubsub: PubSub | None = None
        self._outbox = _Outbox(self.redis)

    # ----------------------------------------------------------- names
    def _name(self, key: str, what: str) -> str:
        return f"{self.prefix}table:{key}:{what}"

    def _process_channel(self, process: str) -> str:
        return f"{self.prefix}process:{process}"

    # ------------------------------------------------------- lifecycle
    async def start(self, tables: Iterable[SharedTable]) -> None:
        self.tables = {table_key(t): t for t in tables}
        self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        channels = [self._name(key, "holder") for key in self.tables]
        await self._pubsub.subscribe(self._process_channel(self.process), *channels)
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listen())]
        self._tasks += [loop.create_task(self._candidate(t)) for t in self.tables.values()]

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self._outbox.close()
        for key in list(self.held):  # hand the tables over now, not when the leases run out
            with contextlib.suppress(Exception):
                await self._lease(key).release()
        with contextlib.suppress(Exception):
            if self._pubsub is not None:
                await self._pubsub.aclose()  # type: ignore[no-untyped-call]  # redis-py
        await self.redis.aclose()

    def _lease(self, key: str) -> Lease:
        return Lease(self.redis, self._name(key, "lease"), self.process, self.lease_seconds)

    # ------------------------------------------------- a player's side
    async def sit(
        self,
        table: SharedTable,
        player: int,
        send: Send,
        close: Close,
        send_text: SendText | None = None,
    ) -> None:
        conn = f"{self.process}/{next(self._numbers)}"
        key = table_key(table)
        connection = _Connection(key, player, send, close, send_text)
        connection.pump = asyncio.get_running_loop().create_task(connection.hand_over())
        self.local[conn], self.conns[send] = connection, conn
        await self._push(key, {"op": "sit", "conn": conn, "player": player})

    async def act(
        self, table: SharedTable, player: int, send: Send, message: PlayerMessage
    ) -> ErrorMessage | None:
        conn = self.conns.get(send)
        if conn is None:
            return None
        body = _PLAYER_MESSAGES.dump_python(message, mode="json")
        try:
            await self._push(
                table_key(table), {"op": "act", "conn": conn, "player": player, "message": body}
            )
        except Refusal as error:
            return _refusal(error)
        return None

    async def leave(self, table: SharedTable, player: int, send: Send) -> None:
        conn = self.conns.pop(send, None)
        if conn is None:
            return
        connection = self.local.pop(conn, None)
        if connection is not None and connection.pump is not None:
            connection.pump.cancel()
        with contextlib.suppress(Refusal):  # the holder drops it when sending fails
            await self._push(table_key(table), {"op": "leave", "conn": conn, "player": player})

    async def _push(self, key: str, op: dict[str, Any]) -> None:
        """Add ``op`` to the table's inbox, with an id of its own (the table carries out
        no id twice, :meth:`SharedTable.first_time`)."""
        body = json.dumps({**op, "id": new_token(8)})
        try:
            await self.redis.xadd(
                self._name(key, "inbox"), {"op": body}, maxlen=INBOX_KEPT, approximate=True
            )
        except Exception as error:
            _log.warning("the %s table's inbox did not answer: %s", key, error)
            raise Unavailable(_UNREACHED) from error

    async def publish_to(self, conn: str, body: dict[str, Any]) -> bool:
        """Publish ``body`` for a connection; whether its process is listening."""
        process = conn.partition("/")[0]
        return bool(await self._outbox.publish(self._process_channel(process), json.dumps(body)))

    async def _listen(self) -> None:
        """Deliver what holders publish for this process's connections; seat them
        again at a table that another process has taken over."""
        pubsub = self._pubsub
        assert pubsub is not None, "listening starts with the hub"
        while True:
            try:
                async for message in pubsub.listen():
                    heard = json.loads(message["data"])
                    for body in heard if isinstance(heard, list) else [heard]:
                        await self._heard(message["channel"], body)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # Redis went away: listen again once it is back
                _log.warning("listening for the tables' messages failed: %s", error)
                await asyncio.sleep(0.5)

    async def _heard(self, channel: str, body: dict[str, Any]) -> None:
        if channel != self._process_channel(self.process):  # a table has a new holder
            key = channel.removeprefix(f"{self.prefix}table:").removesuffix(":holder")
            for conn, connection in list(self.local.items()):
                if connection.key == key:
                    with contextlib.suppress(Refusal):
                        await self._push(
                            key, {"op": "sit", "conn": conn, "player": connection.player}
                        )
            return
        listener = self.local.get(body["conn"])
        if listener is not None:
            listener.queue.put_nowait(body)

    # ------------------------------------------------ the holder's side
    async def _candidate(self, table: SharedTable) -> None:
        """Ask for the table's lease, run the table while it is held, ask again."""
        key, lease = table_key(table), self._lease(table_key(table))
        while True:
            try:
                if await lease.take():
                    await self._hold(table, lease)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                _log.warning("running the %s table failed: %s", key, error)
            await asyncio.sleep(self.lease_seconds / 8)

    async def _hold(self, table: SharedTable, lease: Lease) -> None:
        """Claim the table (its next fencing token, from the database) and run it until
        the lease is lost."""
        key = table_key(table)
        loop = asyncio.get_running_loop()
        inbox: asyncio.Task[None] | None = None
        try:
            fence, stored = await asyncio.to_thread(live_state.claim, table.service.engine, key)
            token = fence.token
            self.held[key], self.remotes[key] = token, {}
            await table.take_over(fence, stored)
            await self.redis.publish(
                self._name(key, "holder"), json.dumps({"holder": self.process})
            )
            _log.info("this process runs the %s table (lease %s)", key, token)
            inbox = loop.create_task(self._serve_inbox(table, lease))
            while not inbox.done():
                await asyncio.sleep(self.lease_seconds / 3)
                if not await lease.renew():
                    break
        except LeaseLostError:
            pass
        finally:
            if inbox is not None:
                inbox.cancel()
                await asyncio.gather(inbox, return_exceptions=True)
            await table.step_down()
            self.held.pop(key, None)
            self.remotes.pop(key, None)
            with contextlib.suppress(Exception):
                await lease.release()

    async def _serve_inbox(self, table: SharedTable, lease: Lease) -> None:
        """Carry out the players' messages at the table, in the order they came: first
        those an earlier holder read and never acknowledged (it froze or died holding
        them), then each new one. One is acknowledged once carried out or refused; none
        is acted on unless the lease is still this process's."""
        from redis.exceptions import ResponseError  # the redis extra, as RedisHub's own

        inbox = self._name(table_key(table), "inbox")
        await self._inbox_group(inbox)
        start = "0-0"
        while True:  # the earlier holders' unacknowledged messages, oldest first
            start, entries, *_ = await self.redis.xautoclaim(
                inbox, INBOX_GROUP, self.process, min_idle_time=0, start_id=start, count=64
            )
            if not await self._take(table, lease, inbox, entries):
                return
            if start == "0-0":
                break
        await self._forget_consumers(inbox)
        while True:
            try:
                read = await self.redis.xreadgroup(
                    INBOX_GROUP, self.process, {inbox: ">"}, count=64, block=1000
                )
            except ResponseError as error:  # Redis restarted empty: the group is gone
                if "NOGROUP" not in str(error):
                    raise
                await self._inbox_group(inbox)
                continue
            for _, entries in read or []:
                if not await self._take(table, lease, inbox, entries):
                    return

    async def _forget_consumers(self, inbox: str) -> None:
        """The earlier holders left in the group with nothing pending (claimed above)
        are dropped, so that a long-lived inbox's group does not grow with each process
        that ever held the table (one that wakes and reads again is made anew)."""
        for consumer in await self.redis.xinfo_consumers(inbox, INBOX_GROUP):
            if consumer["name"] != self.process and not consumer["pending"]:
                await self.redis.xgroup_delconsumer(inbox, INBOX_GROUP, consumer["name"])

    async def _inbox_group(self, inbox: str) -> None:
        """The inbox's consumer group of holders, made (with the inbox) unless it is."""
        from redis.exceptions import ResponseError

        try:
            await self.redis.xgroup_create(inbox, INBOX_GROUP, id="0", mkstream=True)
        except ResponseError as error:
            if "BUSYGROUP" not in str(error):
                raise

    async def _take(
        self,
        table: SharedTable,
        lease: Lease,
        inbox: str,
        entries: list[tuple[str, dict[str, str]]],
    ) -> bool:
        """Carry out a batch of the inbox's messages, in order, with one write of the
        table's state for all (:meth:`SharedTable.together`), then acknowledge them;
        False, leaving them unacknowledged for the next holder, once the lease is not
        this process's (frozen past it, or a newer holder's claim)."""
        done: list[str] = []
        ops = [(entry, _read(fields)) for entry, fields in entries]
        try:
            async with table.together(_bettors(op for _, op in ops)):
                for entry, op in ops:
                    if not await lease.still_held():  # frozen past the lease: act on nothing
                        raise LeaseLostError("the lease ran out")
                    try:
                        if op is None:
                            raise ValueError(f"inbox entry {entry} is not a message")
                        if table.first_time(str(op.get("id") or entry)):
                            await self._carry_out(table, op)
                    except LeaseLostError:
                        raise
                    except Exception:
                        _log.exception(
                            "the %s table could not carry out a message", table_key(table)
                        )
                    done.append(entry)
        except LeaseLostError:  # a newer holder runs the table: the messages are its
            return False
        if done:
            await self.redis.xack(inbox, INBOX_GROUP, *done)
        return True

    async def _carry_out(self, table: SharedTable, op: dict[str, Any]) -> None:
        key, conn, player = table_key(table), str(op["conn"]), int(op["player"])
        remotes = self.remotes.setdefault(key, {})
        if op["op"] == "leave":
            gone = remotes.pop(conn, None)
            if gone is not None:
                await table.leave(player, gone)
            return
        remote = remotes.get(conn)
        seat = find_seat(table.seats, player)
        if remote is not None and (seat is None or remote not in seat.listeners):
            del remotes[conn]  # the table dropped it (a send failed): seat it again
            remote = None
        if remote is None:  # seat the connection first, whatever it sent
            remote = _Remote(self, key, conn)
            try:
                await table.sit(player, remote)
            except Refusal as error:
                body = _TABLE_MESSAGES.dump_python(_refusal(error), mode="json")
                await self.publish_to(conn, {"conn": conn, "message": body, "close": True})
                return
            remotes[conn] = remote
        if op["op"] == "act":
            refusal = await self.handler(
                table, player, _PLAYER_MESSAGES.validate_python(op["message"])
            )
            if refusal is not None:
                with contextlib.suppress(ConnectionError):
                    await remote(refusal)
