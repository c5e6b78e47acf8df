"""A request's headers must arrive in time: uvicorn's HTTP protocol with a clock.

Uvicorn waits for a request's headers as long as the client likes: a connection that
sends a header byte a second holds a socket and a parser forever, and four hundred of
them hold the server's connections. :class:`HeadersInTime` gives each request
:data:`HEADER_SECONDS` from its first byte (or from the connection's opening) to the
end of its headers; one that is later is answered ``408 Request Timeout`` and its
connection closed. The body has its own clock (:data:`riverboat.web.guards.BODY_SECONDS`),
and a connection idle between requests uvicorn's keep-alive timeout. A proxy in front
should keep the same limits (docs/deploy.md: nginx's ``client_header_timeout``).
"""

from __future__ import annotations

import asyncio

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

__all__ = ["HEADER_SECONDS", "HeadersInTime"]

#: seconds from a request's first byte (or the connection's opening) to its headers' end
HEADER_SECONDS = 10.0
_LATE = (
    b"HTTP/1.1 408 Request Timeout\r\n"
    b"content-type: application/json\r\n"
    b"connection: close\r\n"
    b"content-length: %d\r\n\r\n%s"
)
_BODY = b'{"error": "the headers did not arrive within %g s", "code": "timed_out"}'


class HeadersInTime(HttpToolsProtocol):
    """:class:`~uvicorn.protocols.http.httptools_impl.HttpToolsProtocol` whose requests'
    headers arrive within :data:`HEADER_SECONDS`, or the connection ends with a 408."""

    _headers_due: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._start_clock()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._start_clock()  # the next request on a kept-alive connection

    def on_headers_complete(self) -> None:
        self._stop_clock()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_clock()
        super().connection_lost(exc)

    def _start_clock(self) -> None:
        if self._headers_due is None:
            self._headers_due = self.loop.call_later(HEADER_SECONDS, self._too_late)

    def _stop_clock(self) -> None:
        if self._headers_due is not None:
            self._headers_due.cancel()
            self._headers_due = None

    def _too_late(self) -> None:
        self._headers_due = None
        if self.transport.is_closing():
            return
        body = _BODY % HEADER_SECONDS
        self.transport.write(_LATE % (len(body), body))
        self.transport.close()
