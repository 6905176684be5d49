"""The websocket protocol ``sevenstud serve`` runs: what a connection is sent in one step of the
event loop goes out as one write.

A table's step sends each watcher several messages at once (an action's ``action_taken``, the
next turn's ``clock_started`` entry and its ``clock`` message; more at the end of a street or a
hand). uvicorn writes every websocket message to the socket at once, one ``send`` system call
each, and on loopback each wakes the client too: under benchmarks/load.py (400 clients) those
writes were 31% of the event loop's time, the largest single cost in the profile.
:class:`CoalescingWebSockets` keeps uvicorn's websocket protocol (websockets' sans-I/O one) and
gives it a transport that gathers the frames written during one step of the loop and writes them
with one call at the end of it (``loop.call_soon``): the same bytes in the same order, a few
hundred microseconds later at most, with a fraction of the system calls.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, cast

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

__all__ = ["CoalescingTransport", "CoalescingWebSockets"]


class CoalescingTransport:
    """A transport whose writes wait for the end of the loop's current step and then go out
    as one write; everything else is the wrapped transport's. A close (or a write past
    :attr:`LIMIT` bytes) writes what waits first, so nothing is lost or reordered."""

    LIMIT = 256 * 1024
    """Bytes gathered at most before they are written at once (a large snapshot)."""

    __slots__ = ("_chunks", "_loop", "_scheduled", "_size", "_transport")

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self._transport = transport
        self._loop = loop
        self._chunks: list[bytes] = []
        self._size = 0
        self._scheduled = False

    def write(self, data: bytes | bytearray | memoryview) -> None:
        """Gather ``data``: written with the rest at the end of this step of the loop."""
        if not data:
            return
        self._chunks.append(bytes(data))
        self._size += len(data)
        if self._size >= self.LIMIT:
            self.flush()
        elif not self._scheduled:
            self._scheduled = True
            self._loop.call_soon(self._flush_soon)

    def _flush_soon(self) -> None:
        self._scheduled = False
        self.flush()

    def flush(self) -> None:
        """Write what was gathered, now."""
        if not self._chunks:
            return
        data = self._chunks[0] if len(self._chunks) == 1 else b"".join(self._chunks)
        self._chunks.clear()
        self._size = 0
        if not self._transport.is_closing():
            self._transport.write(data)

    def writelines(self, lines: Any) -> None:
        """Gather each of ``lines``."""
        for line in lines:
            self.write(line)

    def close(self) -> None:
        """Write what waits, then close."""
        self.flush()
        self._transport.close()

    def abort(self) -> None:
        """Drop what waits and close at once."""
        self._chunks.clear()
        self._size = 0
        self._transport.abort()

    def get_write_buffer_size(self) -> int:
        """What waits here and in the wrapped transport's buffer."""
        return self._size + self._transport.get_write_buffer_size()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


class CoalescingWebSockets(WebSocketsSansIOProtocol):
    """uvicorn's websocket protocol over a :class:`CoalescingTransport` (``uvicorn.run(...,
    ws=CoalescingWebSockets)``)."""

    on_lost: Callable[[], None] | None = None
    """Called once when the connection is gone: the HTTP protocol it was upgraded from counts
    its connections per address (edge.http_protocol) and lets this one go then."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        """Wrap the connection's transport, then what uvicorn does."""
        wrapped: Any = CoalescingTransport(cast(asyncio.Transport, transport), self.loop)
        super().connection_made(wrapped)

    def connection_lost(self, exc: Exception | None) -> None:
        """What uvicorn does, then end websockets' frame parser, which nothing feeds any
        more: it is a generator whose frame holds the websockets protocol that holds it, and
        its error (an oversized frame, a bad one) has a traceback through the same frames.
        Cycles only a full collection would free, one for every socket that did not close
        cleanly (a clean close ends the parser itself)."""
        super().connection_lost(exc)
        on_lost, self.on_lost = self.on_lost, None
        if on_lost is not None:
            on_lost()
        conn = self.conn
        error, conn.parser_exc = conn.parser_exc, None
        if error is not None:
            error.__traceback__ = None
        conn.parser.close()
