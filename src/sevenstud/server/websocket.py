"""The websocket at ``/ws``: transport only.

It accepts, authenticates (the session cookie, read once: the
:class:`~sevenstud.server.connection.Connection` holds who is logged in on it), rate-limits,
reads and checks each message (:func:`parse_message`), and hands it to the table's actor
(:meth:`~sevenstud.server.tables.room.Room.handle`), the one door to a table. What a message
does and what is sent back is the actor's, through the connection's bounded outbox, which its
own writer task sends (a table never waits on a client). The Host and the Origin were checked
at the edge (:mod:`~sevenstud.server.edge`).
"""

from __future__ import annotations

import functools
import time

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.websockets import WebSocketState

from sevenstud.refusals import Refusal
from sevenstud.server import answers
from sevenstud.server.accounts import auth
from sevenstud.server.accounts.routes import address_of
from sevenstud.server.accounts.sessions import COOKIE
from sevenstud.server.cardroom import CardRoom, closed_table
from sevenstud.server.connection import CLOSED, CLOSED_REASON, Connection, encode, error_message
from sevenstud.server.i18n import say
from sevenstud.server.limits import Allowance, RateLimited
from sevenstud.server.protocol import (
    MAX_MESSAGE_BYTES,
    PROTOCOL_VERSION,
    Act,
    ClientMessage,
    Hello,
    MessageError,
    parse_client,
)
from sevenstud.server.tables.room import Room

TRY_LATER = 1013
"""The close code of a websocket refused by a limit on connections (RFC 6455: try again later)."""


def router(room: CardRoom) -> APIRouter:
    """The websocket route over the card room ``room``."""
    routes = APIRouter()

    @routes.websocket("/ws")
    async def socket(ws: WebSocket) -> None:
        # Transport only: accept, authenticate, rate-limit, read and route; what a message does
        # and what is sent back is the table's actor's (Room.handle), through the outbox. The
        # Host and the Origin were checked at the edge (edge.py).
        token = ws.cookies.get(COOKIE)
        # Where the tables' steps run (Store.run): on SQLite a key look-up in a local file on
        # the loop (a thread each, 2,000 clients connecting at once fought it for the GIL).
        player = await room.store.run(room.sessions.of_cookies, ws.cookies)
        await ws.accept()
        connection = Connection(
            next(room.connections),
            player.name if player is not None else None,
            player.id if player is not None else None,
            write=ws.send_text,
            close=functools.partial(_close, ws),
            abort=functools.partial(_abort, ws),
            limits=room.outbox,
        )
        # Until its hello names one, the handshake's language (?lang=, else Accept-Language).
        connection.lang = answers.language_of_request(ws.query_params, ws.headers)

        async def close(code: int, reason: Refusal) -> None:  # the session ended: log-out, log-in
            connection.finish(code, reason)

        try:
            session = auth.session_key(token) if player and token else None
            handle = room.sockets.open(address_of(ws), player.id if player else None, session, close)
        except RateLimited as error:
            room.metrics.refusals.labels(error.limit).inc()
            said = say(error, connection.lang)
            await ws.send_text(encode(error_message(None, said)))
            await ws.close(code=TRY_LATER, reason=error.limit)  # the limit's name: for programs
            return
        connection.start()
        room.joined(connection)
        table: Room | None = None
        allowance = Allowance(room.limits.messages_per_second, time.monotonic())
        try:
            while True:
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                read_at = time.perf_counter()
                text = frame.get("text")
                number = table.keeper.number if table is not None else None
                if not allowance.take(time.monotonic()):
                    room.metrics.refusals.labels("messages_per_second").inc()
                    connection.refuse(Refusal("too_many_messages"), number)
                    continue
                message = parse_message(text)
                if isinstance(message, Refusal):
                    connection.refuse(message, number)
                    continue
                if isinstance(message, Hello):
                    connection.lang = message.lang  # its refusal too (no such table) is in it
                    found = room.rooms.get(message.table)
                    # A private table without an invitation is no table (nor where, nor closed).
                    cash_here = found is not None and found.gate is None
                    if not await room.private.admits(message.table, connection.player_id, cash_here):
                        connection.refuse(Refusal("no_table", table=message.table), number)
                        continue
                    if found is None:
                        where = room.leases.server_of(message.table)
                        if where is not None and where != room.leases.url:
                            elsewhere = Refusal("table_elsewhere", table=message.table, where=where)
                            connection.refuse(elsewhere, number)
                            continue
                        # Not served anywhere (nor here, whatever a lease not yet given up
                        # says): a table closed for good is said so, and nothing reconnects.
                        closed = await room.store.run(closed_table, room.store, message.table)
                        if closed is not None:
                            connection.put(closed)
                            connection.finish(CLOSED, CLOSED_REASON)
                            continue
                        connection.refuse(Refusal("no_table", table=message.table), number)
                        continue
                    if table is not None and table is not found:
                        table.unwatch(connection.key)
                    table = found
                elif table is None:
                    connection.refuse(Refusal("hello_first"), None)
                    continue
                taken = await table.handle(message, connection)
                if isinstance(message, Act):
                    room.metrics.round_trip.observe(time.perf_counter() - read_at)
                    if taken:
                        allowance.give_back()  # the game paced it (see Limits.messages_per_second)
        except (WebSocketDisconnect, ConnectionError):
            pass  # the client went away (a send to a closed socket raises the latter)
        except RuntimeError:
            # Starlette's "not connected": the socket was closed (the client cut off, or gone),
            # so the next receive has nothing to read. Anything else is a real error.
            if WebSocketState.DISCONNECTED not in (ws.client_state, ws.application_state):
                raise
        finally:
            room.sockets.closed(handle)
            room.left(connection)
            if table is not None:
                table.unwatch(connection.key)
            await connection.stop()
            if connection.cut_off is not None:
                room.metrics.cut_offs.labels(str(connection.cut_off[0])).inc()

    return routes


def parse_message(text: str | None) -> ClientMessage | Refusal:
    """One client message read from its frame's text (None: a binary frame): the message, or
    why it is refused (a refusal naming the field and what was wrong). Every check of a
    message's form is here, before anything else reads it."""
    if text is None:
        return Refusal("binary_frame")
    if len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES:
        return Refusal("message_too_long", count=MAX_MESSAGE_BYTES)
    try:
        message = parse_client(text)
    except MessageError as error:
        return Refusal("malformed_message", why=error)
    if isinstance(message, Hello) and message.version != PROTOCOL_VERSION:
        return Refusal("protocol_version", version=message.version, ours=PROTOCOL_VERSION)
    return message


async def _close(ws: WebSocket, code: int, reason: str) -> None:
    """Close a socket with ``code`` (a client cut off)."""
    await ws.close(code=code, reason=reason)


def _abort(ws: WebSocket) -> None:
    """Drop a socket at once: a client that reads nothing cannot take even the close frame.
    ASGI has no abort; uvicorn's protocol object, whose ``receive`` the socket was given,
    holds the transport (another server: nothing to do, the close's wait has ended)."""
    transport = getattr(getattr(ws._receive, "__self__", None), "transport", None)
    if transport is not None:
        transport.abort()
