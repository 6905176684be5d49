"""The FastAPI application: HTTP for accounts, the lobby and new tables; a websocket per client.

The websocket handler is transport only: it accepts, authenticates (the session cookie, read
once: the :class:`~.connection.Connection` holds who is logged in on it), rate-limits, reads and
checks each message (:func:`parse_message`), and hands it to the table's actor
(:meth:`~.rooms.Room.handle`), the one door to a table; the actor alone changes the table and
decides what each connection is sent, through that connection's bounded outbox, which its own
writer task sends (a table never waits on a client). The lobby shows what the actor copied out
after its last step. FastAPI runs the plain ``def`` handlers in its thread pool. The websocket's look-up
of its session and the actors' steps run in worker threads on PostgreSQL and on the event loop
on SQLite (:attr:`~sevenstud.server.store.Store.inline`). Sessions are
HttpOnly, SameSite=Strict cookies holding a random token (Secure when served over https);
neither a password nor a token is ever logged.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import gc
import itertools
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, Literal

from fastapi import FastAPI, HTTPException, Request, Response, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, Field, ValidationError
from starlette.websockets import WebSocketState

from sevenstud.games import Razz, Stakes, Stud, StudHiLo
from sevenstud.server import auth, downloads, study, web
from sevenstud.server.connection import Connection, Limits
from sevenstud.server.leases import LEASE_SECONDS, LeaseError, LeaseKeeper
from sevenstud.server.protocol import (
    CLIENT,
    GRACE_SECONDS,
    MAX_MESSAGE_BYTES,
    PROTOCOL_VERSION,
    RATE_PER_SECOND,
    ClientMessage,
    Hello,
    json_schema,
)
from sevenstud.server.rooms import Room, TableKeeper, create_table
from sevenstud.server.store import Store, StoreError, open_store
from sevenstud.server.store.models import Player, TableRow
from sevenstud.table import TableSettings

COOKIE = "sevenstud_session"
GAMES = {"stud8": StudHiLo, "stud": Stud, "razz": Razz}


class Credentials(BaseModel):
    """A sign-up or a log-in."""

    name: str = Field(max_length=40)
    password: str = Field(max_length=200)


BUY_IN_BIG_BETS = (4, 20)
"""A new table's buy-in limits when its opener names none: 4 to 20 big bets (40-200 at 5/10)."""
BUY_IN_BOUNDS = (2, 100)
"""The limits an opener may choose, in big bets: a minimum of at least 2, a maximum of at most 100."""


def buy_in_limits(stakes: Stakes, low: int | None, high: int | None) -> tuple[int, int]:
    """A table's (min_buy_in, max_buy_in) in chips: those asked for, else the defaults
    (:data:`BUY_IN_BIG_BETS`), within the room's bounds (:data:`BUY_IN_BOUNDS`); a
    :class:`ValueError` naming the bound otherwise."""
    big = stakes.big_bet
    low = BUY_IN_BIG_BETS[0] * big if low is None else low
    high = max(BUY_IN_BIG_BETS[1] * big, low) if high is None else high
    floor, ceiling = max(BUY_IN_BOUNDS[0] * big, stakes.ante, 1), BUY_IN_BOUNDS[1] * big
    if low < floor:
        raise ValueError(f"min_buy_in {low} is below {floor} ({BUY_IN_BOUNDS[0]} big bets of {big})")
    if high > ceiling:
        raise ValueError(f"max_buy_in {high} is above {ceiling} ({BUY_IN_BOUNDS[1]} big bets of {big})")
    if low > high:
        raise ValueError(f"min_buy_in {low} is above max_buy_in {high}")
    return low, high


class NewTable(BaseModel):
    """A table to open: game, stakes (ante, bring-in, small bet, big bet), seats, bots, and
    the buy-in limits in chips (None: :func:`buy_in_limits`'s defaults)."""

    name: str = Field(default="Stud table", min_length=1, max_length=80)
    game: str = Field(default="stud8", pattern="^(stud8|stud|razz)$")
    stakes: tuple[int, int, int, int] = (1, 2, 5, 10)
    seats: int = Field(default=6, ge=2, le=8)
    bots: int = Field(default=0, ge=0, le=7)
    bot: Literal["rule", "random"] = "rule"
    """Which bot fills the ``bots`` seats: RuleBot or RandomBot."""
    min_buy_in: int | None = Field(default=None, ge=1)
    max_buy_in: int | None = Field(default=None, ge=1)


def create_app(
    store: Store,
    *,
    pause: float = 3.0,
    allowed_origins: tuple[str, ...] = (),
    public_url: str = "http://127.0.0.1:8000",
    lease_seconds: float = LEASE_SECONDS,
    grace: float = GRACE_SECONDS,
    outbox: Limits | None = None,
) -> FastAPI:
    """The card room's application on an open store: on start it takes the lease of every free
    table (recovering each) and opens its room; ``public_url`` is this process's address, as
    the lobby of every process sharing the database tells it (see leases.py); ``outbox``: how
    far behind a client may fall before it is cut off (sevenstud.server.connection)."""
    rooms: dict[int, Room] = {}
    connections = itertools.count(1)
    outbox = outbox if outbox is not None else Limits()

    async def _close_room(table_id: int) -> None:
        room = rooms.pop(table_id, None)
        if room is not None:
            await room.stop()

    def _line(table_id: int) -> dict[str, Any]:
        room = rooms.get(table_id)
        if room is None:
            return {}
        settings = room.keeper.table.settings
        stakes = settings.game.stakes
        return {
            "name": room.keeper.name,
            "game": settings.game.__class__.__name__,
            "stakes": [stakes.ante, stakes.bring_in, stakes.small_bet, stakes.big_bet],
            "seats": settings.seats,
            "min_buy_in": settings.min_buy_in,
            "max_buy_in": settings.max_buy_in,
            "hands": room.hands_played,
            **room.lobby_line(time.time()),
        }

    leases = LeaseKeeper(
        store,
        public_url,
        open_room=lambda row: _open_room(row.id, _settings_of(row)),
        close_room=_close_room,
        summary=_line,
        ttl=lease_seconds,
    )

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await leases.start()
        yield
        await leases.stop()
        for room in rooms.values():
            await room.stop()
        equity_jobs.close()

    def _settings_of(row: TableRow) -> TableSettings:
        from sevenstud.wire import game_from_wire

        return TableSettings(game_from_wire(row.game), **row.settings)

    def _open_room(table_id: int, settings: TableSettings) -> Room:
        room = Room(TableKeeper(store, table_id, settings), pause=pause, grace=grace)
        rooms[table_id] = room
        room.start()
        return room

    equity_jobs = study.Study()
    app = FastAPI(title="sevenstud card room", lifespan=lifespan)
    app.include_router(downloads.router(store, COOKIE))  # GET /api/hands...: own hands only
    app.include_router(study.router(equity_jobs))  # POST /api/equity, GET /api/equity/{job}
    web.install(app)  # the browser table: /, /table/{id}, /equity, /hands/{id}, /web/...

    def _set_cookie(request: Request, response: Response, token: str) -> None:
        # Secure when the client came over https (directly, or as the proxy in front says).
        https = request.url.scheme == "https" or request.headers.get("x-forwarded-proto") == "https"
        response.set_cookie(
            COOKIE,
            token,
            httponly=True,
            samesite="strict",
            secure=https,
            max_age=int(auth.SESSION_SECONDS),
        )

    def _account(player_id: int) -> dict[str, Any]:
        with store.session() as s:
            player = s.get(Player, player_id)
            assert player is not None
            return {
                "id": player.id,
                "name": player.name,
                "balance": player.balance,
                "guest": player.guest,
                # The refill's terms, so that a page never writes its own figures.
                "refill_to": auth.REFILL_CHIPS,
                "refill_below": auth.REFILL_BELOW,
            }

    def _login(request: Request, response: Response, player_id: int) -> dict[str, Any]:
        _set_cookie(request, response, auth.new_session(store, player_id))
        return _account(player_id)

    def _logged_in(request: Request) -> Player:
        player = auth.player_of(store, request.cookies.get(COOKIE))
        if player is None:
            raise HTTPException(401, "log in or play as a guest first")
        return player

    @app.get("/protocol.json")
    def protocol() -> dict[str, Any]:
        return json_schema()

    @app.post("/api/guest")
    def guest(request: Request, response: Response) -> dict[str, Any]:
        return _login(request, response, auth.guest(store))

    @app.post("/api/signup")
    def sign_up(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
        try:
            return _login(request, response, auth.sign_up(store, body.name, body.password))
        except auth.AuthError as error:
            raise HTTPException(400, str(error)) from None

    @app.post("/api/login")
    def log_in(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
        try:
            token = auth.log_in(store, body.name, body.password)
        except auth.AuthError as error:
            raise HTTPException(401, str(error)) from None
        _set_cookie(request, response, token)
        player = auth.player_of(store, token)
        assert player is not None
        return _account(player.id)

    @app.post("/api/logout")
    def log_out(request: Request, response: Response) -> dict[str, Any]:
        token = request.cookies.get(COOKIE)
        if token:
            auth.log_out(store, token)
        response.delete_cookie(COOKIE, httponly=True, samesite="strict")
        return {"logged_out": True}

    @app.get("/api/me")
    def me(request: Request) -> dict[str, Any]:
        return _account(_logged_in(request).id)

    @app.post("/api/refill")
    def refill(request: Request) -> dict[str, Any]:
        player = _logged_in(request)
        try:
            auth.refill(store, player.id)
        except auth.AuthError as error:
            raise HTTPException(400, str(error)) from None
        return _account(player.id)

    @app.get("/api/lobby")
    def lobby() -> list[dict[str, Any]]:
        here = [{"id": table_id, **_line(table_id), "server": leases.url} for table_id in sorted(rooms)]
        return sorted(here + [t for t in leases.lobby() if t["id"] not in rooms], key=lambda t: t["id"])

    @app.post("/api/tables")
    async def new_table(body: NewTable, request: Request) -> dict[str, Any]:
        await asyncio.to_thread(_logged_in, request)
        try:
            game = GAMES[body.game](Stakes(*body.stakes))
            low, high = buy_in_limits(game.stakes, body.min_buy_in, body.max_buy_in)
            settings = TableSettings(game, seats=body.seats, min_buy_in=low, max_buy_in=high)
        except ValueError as error:
            raise HTTPException(400, str(error)) from None
        if body.bots >= body.seats:
            raise HTTPException(400, f"{body.bots} bots leave no seat free at a table of {body.seats}")
        table_id = await asyncio.to_thread(create_table, store, body.name, settings)
        if not leases.claim_new(table_id):  # another process's round took it first: it serves it
            return {"id": table_id, "server": leases.server_of(table_id)}
        room = _open_room(table_id, settings)
        for seat in range(2, 2 + body.bots):
            await room.submit(functools.partial(room.add_bot, seat, body.bot))
        return {"id": table_id}

    @app.websocket("/ws")
    async def socket(ws: WebSocket) -> None:
        # Transport only: accept, authenticate, rate-limit, read and route; what a message does
        # and what is sent back is the table's actor's (Room.handle), through the outbox.
        origin = ws.headers.get("origin")
        host = ws.headers.get("host", "")
        if origin is not None and origin not in allowed_origins and origin.split("://", 1)[-1] != host:
            await ws.close(code=1008, reason="origin not allowed")
            return
        token = ws.cookies.get(COOKIE)
        # Where the tables' steps run (Store.run): on SQLite a key look-up in a local file on
        # the loop (a thread each, 2,000 clients connecting at once fought it for the GIL).
        player = await store.run(auth.player_of, store, token)
        await ws.accept()
        connection = Connection(
            next(connections),
            player.name if player is not None else None,
            player.id if player is not None else None,
            write=ws.send_text,
            close=functools.partial(_close, ws),
            abort=functools.partial(_abort, ws),
            limits=outbox,
        )
        connection.start()
        room: Room | None = None
        allowance, checked = RATE_PER_SECOND, time.monotonic()
        try:
            while True:
                text = await ws.receive_text()
                now = time.monotonic()
                allowance = min(RATE_PER_SECOND, allowance + (now - checked) * RATE_PER_SECOND)
                checked = now
                number = room.keeper.number if room is not None else None
                if allowance < 1:
                    connection.refuse("too many messages: slow down", number)
                    continue
                allowance -= 1
                message = parse_message(text)
                if isinstance(message, str):
                    connection.refuse(message, number)
                    continue
                if isinstance(message, Hello):
                    found = rooms.get(message.table)
                    if found is None:
                        where = leases.server_of(message.table)
                        connection.refuse(
                            f"no table {message.table}"
                            if where is None
                            else f"table {message.table} is served at {where}",
                            number,
                        )
                        continue
                    if room is not None and room is not found:
                        room.unwatch(connection.key)
                    room = found
                elif room is None:
                    connection.refuse("say hello first (the protocol version and the table)", None)
                    continue
                await room.handle(message, connection)
        except (WebSocketDisconnect, ConnectionError):
            pass  # the client went away (a send to a closed socket raises the latter)
        except RuntimeError:
            # Starlette's "not connected": the socket was closed (the client cut off, or gone),
            # so the next receive has nothing to read. Anything else is a real error.
            if WebSocketState.DISCONNECTED not in (ws.client_state, ws.application_state):
                raise
        finally:
            if room is not None:
                room.unwatch(connection.key)
            await connection.stop()

    return app


def parse_message(text: str) -> ClientMessage | str:
    """One client message read from its text: the message, or why it is refused (a string).
    Every check of a message's form is here, before anything else reads it."""
    if len(text.encode()) > MAX_MESSAGE_BYTES:
        return f"a message is at most {MAX_MESSAGE_BYTES} bytes"
    try:
        message = CLIENT.validate_json(text)
    except ValidationError as error:
        return f"malformed message: {error.errors()[0]['msg']}"
    if isinstance(message, Hello) and message.version != PROTOCOL_VERSION:
        return f"protocol version {message.version}: this server speaks {PROTOCOL_VERSION}"
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


GC_THRESHOLDS = (20_000, 20, 100)
"""The serving process's collector thresholds (Python's defaults: 700, 10, 10)."""


def _tune_garbage_collector() -> None:
    """Fewer, shorter collections for a long-lived server. Each table keeps its last hands and
    their entries (thousands of objects), so at 400 tables a full collection walked millions of
    objects, 50 to 350 ms with everything waiting, a dozen times a minute, and found nearly
    nothing: chips and cards are freed by reference counting. What exists once the server is
    built (modules, the evaluator's tables, the app) is frozen out of every collection, and the
    young generations are collected after more allocations (benchmarks/load.py at 2,000
    clients: p99 from 188 ms to 45 ms after the warm-up)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def serve_command(args: argparse.Namespace) -> int:
    """``sevenstud serve [--host 127.0.0.1] [--port 8000] [--database URL] [--pause S]``."""
    import uvicorn

    try:
        store = open_store(
            getattr(args, "database", None),
            commit_delay=getattr(args, "test_commit_delay", 0.0),
            commit_mark=getattr(args, "test_commit_mark", None),
        )
    except StoreError as error:
        print(f"sevenstud serve: {error}", file=sys.stderr)
        return 1
    host, port = getattr(args, "host", "127.0.0.1"), getattr(args, "port", 8000)
    public = getattr(args, "public_url", None) or f"http://{host}:{port}"
    try:
        app = create_app(
            store,
            public_url=public,
            lease_seconds=getattr(args, "lease_seconds", LEASE_SECONDS),
            pause=getattr(args, "pause", 3.0),
        )
    except LeaseError as error:
        print(f"sevenstud serve: {error}", file=sys.stderr)
        store.close()
        return 1
    print(f"sevenstud serve: database {store.shown_url}", flush=True)
    print(f"sevenstud serve: open http://{host}:{port}/", flush=True)
    _tune_garbage_collector()
    # No per-message compression: the messages are small and frequent, and under load zlib took
    # about half of the time spent sending (benchmarks/load.py's profile).
    uvicorn.run(
        app, host=host, port=port, log_level="warning", access_log=False, ws_per_message_deflate=False
    )
    store.close()
    return 0
