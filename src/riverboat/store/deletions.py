"""Keys deleted from the kept state in any process, heard in every other (PostgreSQL's
``LISTEN``/``NOTIFY``): what lets a process keep the sessions it has read in memory
while other processes may close them.

:class:`~riverboat.store.state.DatabaseStore` deletes keys on PostgreSQL and notifies
:data:`CHANNEL` of them in one statement, so the notice is sent when, and only if,
the deletion commits. A :class:`Listener` holds a connection of its own that listens
on the channel, in a thread of its own, and hands each notice's keys to ``heard``.
Every :data:`HEARTBEAT` seconds it sends a statement and waits for the answer: a
notice committed before that statement was sent arrives ahead of its answer (the
server sends a listening session's notices before it reports the session ready), so
when the answer is back every deletion committed before the statement was sent has
been heard. A listener cut off (the database
restarted, the connection dropped, this process frozen) stops confirming: its
:meth:`~Listener.current` turns false within :data:`STALE` seconds, and whatever
was cached is forgotten (``heard(None)``) when it listens again, since notices sent
meanwhile were lost.

>>> notice = payload(["session:ab", "sessions-of:7:ab"])
>>> notice, keys_of(notice)
('["session:ab", "sessions-of:7:ab"]', ['session:ab', 'sessions-of:7:ab'])
>>> payload(["k" * 9000]), keys_of("")  # too long for a notice: every key forgotten
('', None)
"""

from __future__ import annotations

import json
import logging
import select
import socket
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["CHANNEL", "HEARTBEAT", "STALE", "Heard", "Listener", "keys_of", "payload"]

_log = logging.getLogger(__name__)
#: the channel deletions of kept state are told on
CHANNEL = "riverboat_kept_deleted"
#: the listener's connection's ``application_name``, as the database's sessions list it
NAME = "riverboat-kept-deletions"
#: seconds between two of a listener's confirmations that it still hears every notice
HEARTBEAT = 1.0
#: seconds after its last confirmation that a listener no longer counts as current:
#: the longest a close in another process may go unheard in this one
STALE = 2.5
#: seconds a listener cut off waits before it tries again
RETRY = 1.0
#: the listener's connection: a network gone silent breaks it within seconds (TCP
#: keepalives, and a send unanswered for 10 s), so that it listens again instead of
#: waiting on a dead socket (it is not current meanwhile either way)
CONNECTION: dict[str, Any] = {
    "autocommit": True,
    "connect_timeout": 5,
    "application_name": NAME,
    "keepalives": 1,
    "keepalives_idle": 5,
    "keepalives_interval": 2,
    "keepalives_count": 2,
    "tcp_user_timeout": 10_000,
}
#: PostgreSQL's longest notice payload is 8000 bytes: a longer list of keys is told as
#: "every key" (the empty payload)
LONGEST = 7900
#: what a listener hands on: the keys deleted, or None for "any key may have been"
Heard = Callable[[Sequence[str] | None], None]


def payload(keys: Sequence[str]) -> str:
    """The notice for the deletion of ``keys``: their JSON list, or, if that is too long
    for a notice, the empty string, which every listener reads as "forget every key"."""
    told = json.dumps(list(keys))
    return told if len(told.encode()) <= LONGEST else ""


def keys_of(notice: str) -> list[str] | None:
    """The keys a notice names; None for "every key" (an empty or unreadable notice)."""
    try:
        keys = json.loads(notice) if notice else None
    except ValueError:
        return None
    if not isinstance(keys, list) or not all(isinstance(key, str) for key in keys):
        return None
    return keys


class Listener:
    """A thread listening on :data:`CHANNEL` on a connection of its own to the database
    at ``url`` (a libpq address: ``postgresql://...``), handing each notice's keys to
    ``heard``, and ``heard(None)`` each time it starts listening (again)."""

    def __init__(
        self,
        url: str,
        heard: Heard,
        heartbeat: float = HEARTBEAT,
        stale: float = STALE,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.url, self.heard = url, heard
        self.heartbeat, self.stale, self._clock = heartbeat, stale, clock
        self._confirmed = float("-inf")  # when the last confirmed heartbeat was sent
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._waking: tuple[socket.socket, socket.socket] | None = None  # stop's wake-up

    def start(self) -> None:
        """Listen, in a thread of this listener's, until :meth:`stop`."""
        if self._thread is None:
            self._stop.clear()
            self._waking = socket.socketpair()
            self._thread = threading.Thread(target=self._run, name="kept-deletions", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Stop listening, and wait for the thread to end (at most a few seconds)."""
        self._stop.set()
        thread, self._thread = self._thread, None
        waking, self._waking = self._waking, None
        if waking is not None:
            waking[1].send(b"!")
        if thread is not None:
            thread.join(timeout=5.0)
        if waking is not None:
            for end in waking:
                end.close()
        self._confirmed = float("-inf")

    def current(self) -> bool:
        """Whether a close made in another process is heard here within :data:`STALE`
        seconds: the listener confirmed it was hearing every notice that recently."""
        return self._clock() - self._confirmed < self.stale

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self._listen()
            except Exception as error:  # a connection lost or refused: listen again
                _log.warning("not hearing the kept state's deletions (%s); trying again", error)
            self._confirmed = float("-inf")
            self.heard(None)  # what was cached may since have been deleted unheard
            self._stop.wait(RETRY)
        self._confirmed = float("-inf")

    def _listen(self) -> None:
        import psycopg

        wake = [] if self._waking is None else [self._waking[0].fileno()]
        with psycopg.connect(self.url, **CONNECTION) as connection:
            connection.add_notify_handler(lambda notice: self.heard(keys_of(notice.payload)))
            connection.execute(f"LISTEN {CHANNEL}")
            self.heard(None)  # every key: deletions before this LISTEN went unheard
            while not self._stop.is_set():
                sent = self._clock()
                connection.execute("SELECT 1")  # notices committed before it arrive first
                self._confirmed = sent
                select.select([connection.fileno(), *wake], [], [], self.heartbeat)
