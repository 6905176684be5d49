"""One client's connection: who is logged in on it, and its bounded outbox.

A table's actor never waits on a client. It hands each message to the connection's
:class:`Connection` (:meth:`Connection.put`, which never blocks): the message is encoded there,
by the one encoder every outgoing message goes through (:func:`encode`), and queued; the
connection's own writer task sends the queue in order. A client that falls too far behind (more
than :attr:`Limits.messages` messages or :attr:`Limits.bytes` bytes queued, or one send not taken
within :attr:`Limits.stall` seconds, found at the next message for it: no timer per message) is
cut off: its queue is dropped and its socket closed with
:data:`BEHIND` (4001); when it comes back (a new socket, ``hello`` with the last number it saw)
it gets what it missed, or a snapshot (docs/protocol.md, "Reconnecting"). A client that reads
nothing at all cannot even take the close frame: its socket is aborted after
:data:`CLOSE_SECONDS`.

What the connection may see is never stored here: the actor reads :attr:`Connection.player`
(the player logged in on it) at each send and sees for the seat that player holds at that
moment (:meth:`sevenstud.server.tables.room.Room.seat_of`).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

from pydantic import BaseModel

from sevenstud.refusals import Refusal
from sevenstud.server.i18n import close_reason, say
from sevenstud.server.protocol import ErrorMessage, Outgoing

__all__ = [
    "BEHIND",
    "BEHIND_REASON",
    "CLOSED",
    "CLOSED_REASON",
    "CLOSE_SECONDS",
    "GONE",
    "GONE_REASON",
    "OUTBOX_BYTES",
    "OUTBOX_MESSAGES",
    "STALL_SECONDS",
    "Connection",
    "Encoded",
    "Limits",
    "encode",
    "error_message",
]

OUTBOX_MESSAGES = 1000
"""The most messages one connection may have waiting to be sent (a browser's batch is a few)."""
OUTBOX_BYTES = 1 << 20
"""The most bytes (1 MiB, encoded) one connection may have waiting to be sent."""
STALL_SECONDS = 20.0
"""A send the client has not taken within this long cuts it off."""
CLOSE_SECONDS = 2.0
"""How long a cut-off client has to take the close frame before its socket is aborted."""
BEHIND = 4001
"""The websocket close code of a client cut off for falling too far behind."""
BEHIND_REASON = Refusal("too_far_behind")
GONE = 4002
"""The websocket close code of a connection whose table this process no longer serves."""
GONE_REASON = Refusal("table_moved")
CLOSED = 4004
"""The websocket close code of a connection whose table has closed for good (after its
``table_closed`` message): nothing to reconnect to."""
CLOSED_REASON = Refusal("table_closed")


def _fields(value: object) -> dict[str, Any]:
    """A model inside a message as JSON writes it: its fields, in their declared order."""
    if isinstance(value, BaseModel):
        return value.__dict__
    raise TypeError(f"a server message holds {type(value).__name__}, which JSON cannot write")


# The standard library's C encoder, made once (json.dumps with an argument makes one a call); a
# model's fields are its __dict__, already validated and in order: no model_dump copy of each
# message. Its output is json.dumps's, byte for byte: what clients, the tests and
# docs/protocol.md read, ASCII only (an outbox counts bytes as characters). No check for cycles
# (a message is a tree the server built): a view encoded a fifth faster without it.
_ENCODER = json.JSONEncoder(default=_fields, check_circular=False)


def encode(message: Outgoing) -> str:
    """A server message as sent: one JSON object (the one encoder of every outgoing message),
    its fields in the order its model declares them.

    >>> encode(ErrorMessage(number=3, message="not your turn"))
    '{"type": "error", "number": 3, "message": "not your turn"}'
    """
    return _ENCODER.encode(message.__dict__)


class Encoded(str):
    """A message already encoded by :func:`encode`, put as it is: a table's step encodes an
    entry that several connections see alike once, not once a connection (under
    benchmarks/load.py the encoding was a sixth of the time spent sending)."""

    __slots__ = ()


def error_message(number: int | None, why: str) -> ErrorMessage:
    """The ``error`` message: ``why`` the message was refused; ``number`` the table's (None
    before ``hello``)."""
    return ErrorMessage(number=number, message=why)


@dataclasses.dataclass(frozen=True, slots=True)
class Limits:
    """How far behind a connection may fall before it is cut off (see the module)."""

    messages: int = OUTBOX_MESSAGES
    bytes: int = OUTBOX_BYTES
    stall: float = STALL_SECONDS
    close: float = CLOSE_SECONDS


Write = Callable[[str], Awaitable[None]]
Close = Callable[[int, str], Awaitable[None]]


class Connection:
    """One client: ``key`` numbers it in this process; ``player`` (a name, None: not logged
    in) and ``player_id`` say who is logged in on it; ``write`` sends one text frame, ``close``
    closes the socket with a code and reason, ``abort`` drops it at once (a client reading
    nothing). Messages go out in the order :meth:`put` was called."""

    def __init__(
        self,
        key: int,
        player: str | None,
        player_id: int | None,
        write: Write,
        close: Close | None = None,
        abort: Callable[[], None] | None = None,
        limits: Limits = Limits(),
    ) -> None:
        self.key = key
        self.player = player
        """The player logged in on this connection now (None: nobody): read at every send."""
        self.player_id = player_id
        self.lang = "en"
        """The language its ``hello`` chose for the server's sentences (English until then)."""
        self.limits = limits
        self.closed = False
        """Cut off, or its socket gone: nothing more is queued."""
        self.cut_off: tuple[int, Refusal] | None = None
        """The close code and reason it was cut off with (None: it was not)."""
        self._write, self._close, self._abort = write, close, abort
        self._queue: deque[tuple[str, int]] = deque()  # (text, its size in bytes)
        self._queued_bytes = 0
        self._ready = asyncio.Event()
        self._writer: asyncio.Task[None] | None = None
        self._closer: asyncio.Task[None] | None = None
        self._finish: tuple[int, Refusal] | None = None  # close with this once the queue is sent
        self._writing_since: float | None = None  # when the write in progress began

    @property
    def queued(self) -> tuple[int, int]:
        """The messages and bytes waiting to be sent."""
        return len(self._queue), self._queued_bytes

    @property
    def room(self) -> int:
        """How many more messages the outbox takes now (0 when closed)."""
        return 0 if self.closed else max(0, self.limits.messages - len(self._queue))

    def start(self) -> None:
        """Start the writer task (on the running loop)."""
        if self._writer is None:
            self._writer = asyncio.get_running_loop().create_task(self._write_all())

    def put(self, message: Outgoing | Encoded) -> bool:
        """Queue ``message`` (or its :class:`Encoded` text) to be sent; never waits. False when
        the connection is closed (or closing), or was cut off now for falling too far behind."""
        if self.closed or self._finish is not None:
            return False
        text = message if isinstance(message, Encoded) else encode(message)
        size = len(text)  # json.dumps writes ASCII only: as many bytes as characters
        limits = self.limits
        since = self._writing_since
        stalled = since is not None and time.monotonic() - since > limits.stall
        if stalled or len(self._queue) + 1 > limits.messages or self._queued_bytes + size > limits.bytes:
            self.cut(BEHIND, BEHIND_REASON)
            return False
        self._queue.append((text, size))
        self._queued_bytes += size
        self._ready.set()
        return True

    def refuse(self, why: Refusal, number: int | None) -> None:
        """Tell the client its message was refused (an ``error``), in its language."""
        self.put(error_message(number, say(why, self.lang)))

    def finish(self, code: int, reason: Refusal) -> None:
        """Send what is queued, then close the socket with ``code``; nothing more is queued."""
        if self.closed or self._finish is not None:
            return
        self._finish = (code, reason)
        if self._writer is None:
            self.cut(code, reason)
        else:
            self._ready.set()

    def cut(self, code: int, reason: Refusal) -> None:
        """Drop what is queued and close the socket with ``code`` (in its own task: the caller
        never waits); a client that does not take the close frame is aborted."""
        if self.closed:
            return
        self.closed = True
        self.cut_off = (code, reason)
        self._queue.clear()
        self._queued_bytes = 0
        writer = self._writer
        if writer is not None and writer is not asyncio.current_task():
            writer.cancel()
        with contextlib.suppress(RuntimeError):  # no loop running: nothing to close
            self._closer = asyncio.get_running_loop().create_task(self._close_now(code, reason))

    async def _close_now(self, code: int, reason: Refusal) -> None:
        try:
            if self._close is not None:
                # The reason in the connection's language (cut_off keeps the English)
                said = close_reason(reason, self.lang)
                await asyncio.wait_for(self._close(code, said), self.limits.close)
                return
        except Exception:  # timed out, or the socket already gone: abort it
            pass
        if self._abort is not None:
            self._abort()

    async def flushed(self) -> None:
        """Wait until everything queued has been sent (or the connection closed)."""
        while self._queue and not self.closed:
            await asyncio.sleep(0.001)
        await asyncio.sleep(0)  # the last frame's write returns

    async def stop(self) -> None:
        """The socket ended: stop the writer (what is queued is dropped)."""
        self.closed = True
        self._queue.clear()
        self._queued_bytes = 0
        for task in (self._writer, self._closer):
            if task is not None and task is not asyncio.current_task() and not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        # A task keeps its coroutine, whose frame keeps this connection, which keeps the
        # task: let the ended tasks go, or each closed socket is a cycle for the full collection.
        self._writer = self._closer = None

    async def _write_all(self) -> None:
        """The writer: send the queue in order, one frame at a time."""
        while not self.closed:
            await self._ready.wait()
            while self._queue and not self.closed:
                text, size = self._queue.popleft()
                self._queued_bytes -= size
                # No timer per message (wait_for made a task of each send, a timeout scope a
                # timer): the next put finds a write older than ``stall`` and cuts it off.
                self._writing_since = time.monotonic()
                try:
                    await self._write(text)
                except Exception:  # the client went away: nothing more to send
                    self.closed = True
                    return
                finally:
                    self._writing_since = None
            if self._finish is not None and not self.closed:
                self.cut(*self._finish)
                return
            self._ready.clear()
