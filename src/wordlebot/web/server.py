"""Running the app under uvicorn with limits a public-facing server needs.

uvicorn times out idle keep-alive connections, but not a client that sends its request headers
a byte at a time, nor a connection that never sends anything: each would hold a connection for
ever (slowloris), and uvicorn's cap on connections counts idle ones, so a few hundred silent
sockets would turn everyone away.  ``GuardedH11`` closes a new connection that sends nothing
within ``FIRST_BYTE_SECONDS`` and one whose request headers are not complete within
``HEADER_SECONDS`` of their first byte (the body has its own deadline: ``app.Limits``), and
refuses a client's connections beyond ``PER_PEER``, so one client cannot fill ``MAX_CONNECTIONS``
(a client as the request queue counts it: an address, an IPv6 /64; web/clients.py).  And many
clients together cannot either: when the connections come within ``RESERVED`` of the cap, the
oldest one still waiting for its request is closed to make room, so a health check or the page
always finds a slot (uvicorn answers 503 to every request at the cap, silent sockets included).
"""

from __future__ import annotations

import asyncio
import socket
import sys

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from .clients import client_key

HEADER_SECONDS = 10.0
FIRST_BYTE_SECONDS = 5.0
PER_PEER = 32  # connections of one client (a browser opens six; a household a few browsers)
MAX_CONNECTIONS = 1024
RESERVED = 16  # connections kept free of silent ones, for the health check and the page
KEEP_ALIVE_SECONDS = 5
SWITCH_SECONDS = 0.001


class GuardedH11(H11Protocol):
    """uvicorn's h11 protocol with a deadline on the request headers."""

    header_seconds = HEADER_SECONDS
    first_byte_seconds = FIRST_BYTE_SECONDS
    per_peer = PER_PEER
    reserved = RESERVED

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._header_timer: asyncio.TimerHandle | None = None
        self._first = True
        self._since = self.loop.time()
        self._key = client_key(self.client[0] if self.client else None)
        if sum(1 for c in self.connections if getattr(c, "_key", None) == self._key) > self.per_peer:
            transport.close()  # this client holds enough connections already
            return
        limit = self.limit_concurrency
        if limit is not None and len(self.connections) > limit - self.reserved:
            self._make_room(len(self.connections) - (limit - self.reserved))
        self._arm(self.first_byte_seconds)

    def _make_room(self, over: int) -> None:
        """Close the ``over`` oldest other connections waiting for a request (silent, or idle
        between requests): at the cap uvicorn would answer every request 503.  (Connections
        closed already stay in the set until the loop tells them: they count as made room.)"""
        closing = sum(1 for c in self.connections if c.transport is not None and c.transport.is_closing())
        waiting = [
            c
            for c in self.connections
            if c is not self
            and isinstance(c, GuardedH11)
            and c.conn.their_state is h11.IDLE
            and c.cycle is None
            and not c.transport.is_closing()
        ]
        waiting.sort(key=lambda c: c._since)
        for c in waiting[: max(0, over - closing)]:
            c.transport.close()

    def _arm(self, seconds: float) -> None:
        if self._header_timer is None:
            self._header_timer = self.loop.call_later(seconds, self._too_slow)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def data_received(self, data: bytes) -> None:
        if self.conn.their_state is h11.IDLE:  # a request's headers are (still) on their way
            if self._first:  # the first byte came: the headers get their own deadline
                self._first = False
                self._disarm()
            self._arm(self.header_seconds)
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:
            self._disarm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._disarm()  # the keep-alive timer takes over until the next request's first byte

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def _too_slow(self) -> None:
        self._header_timer = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.close()


def make_server(app, *, log_level: str = "warning"):
    """A uvicorn Server for ``app`` with the guarded protocol and the limits above."""
    import uvicorn

    config = uvicorn.Config(
        app,
        http=GuardedH11,
        log_level=log_level,
        access_log=False,
        lifespan="off",
        timeout_keep_alive=KEEP_ALIVE_SECONDS,
        limit_concurrency=MAX_CONNECTIONS,
    )
    return uvicorn.Server(config)


def serve(app, sock: socket.socket) -> None:
    """Serve ``app`` on a listening socket until interrupted.

    The search threads run Python between their kernels; with the default 5 ms switch interval
    the event loop could wait several of those for the GIL before it answers even a health
    check.  A shorter interval hands the GIL back sooner (a little throughput for latency)."""
    sys.setswitchinterval(SWITCH_SECONDS)
    make_server(app).run(sockets=[sock])
