"""A network link that can be made slow: a TCP relay on a loopback port to another,
each chunk passed on in order, and while the link is slow each held for a delay in
each direction (a round trip of twice it), as a congested or distant network would.
The chaos suite puts its servers' PostgreSQL and Redis behind one each, where a
machine's kernel offers no ``tc netem`` to a test.

    python tests/slow_link.py LISTEN_PORT TARGET_PORT DELAY_SECONDS

SIGUSR1 makes the link slow, SIGUSR2 fast again; SIGTERM stops it.

>>> held = Held(0.25)
>>> held.due(10.0, slow=False), held.due(10.0, slow=True)
(10.0, 10.25)
"""

from __future__ import annotations

import asyncio
import signal
import sys
import time
from dataclasses import dataclass

CHUNK = 65536


@dataclass
class Held:
    """How long a chunk is held: ``delay`` seconds while the link is slow."""

    delay: float

    def due(self, now: float, slow: bool) -> float:
        """When a chunk read at ``now`` is passed on."""
        return now + self.delay if slow else now


class Link:
    """The relay: every connection to it is joined to one of its own to the target."""

    def __init__(self, target: int, delay: float) -> None:
        self.target, self.held, self.slow = target, Held(delay), False

    async def join(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target)
        except OSError:  # the target is down (Redis killed): the client sees it closed
            writer.close()
            return
        await asyncio.gather(
            self._pass(reader, up_writer), self._pass(up_reader, writer), return_exceptions=True
        )
        for end in (writer, up_writer):
            end.close()

    async def _pass(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """One direction: chunks read, held while slow, written in the order read."""
        queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

        async def send() -> None:
            while True:
                due, chunk = await queue.get()
                if not chunk:
                    break
                await asyncio.sleep(max(0.0, due - time.monotonic()))
                writer.write(chunk)
                await writer.drain()
            writer.close()

        sender = asyncio.create_task(send())
        try:
            while chunk := await reader.read(CHUNK):
                queue.put_nowait((self.held.due(time.monotonic(), self.slow), chunk))
        except OSError:
            pass
        finally:
            queue.put_nowait((0.0, b""))
            await asyncio.gather(sender, return_exceptions=True)


async def serve(listen: int, target: int, delay: float) -> None:
    link = Link(target, delay)
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGUSR1, lambda: setattr(link, "slow", True))
    loop.add_signal_handler(signal.SIGUSR2, lambda: setattr(link, "slow", False))
    stopped = asyncio.Event()
    loop.add_signal_handler(signal.SIGTERM, stopped.set)
    server = await asyncio.start_server(link.join, "127.0.0.1", listen)
    async with server:
        print("listening", flush=True)
        await stopped.wait()


if __name__ == "__main__":
    try:
        listen_port, target_port = int(sys.argv[1]), int(sys.argv[2])
        delay_seconds = float(sys.argv[3])
    except (IndexError, ValueError):
        sys.exit("usage: python tests/slow_link.py LISTEN_PORT TARGET_PORT DELAY_SECONDS")
    asyncio.run(serve(listen_port, target_port, delay_seconds))
