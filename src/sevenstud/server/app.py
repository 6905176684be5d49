"""The FastAPI application: HTTP for accounts, the lobby and new tables; a websocket per client.

Handlers only check messages and hand them to the table's actor (:class:`~.rooms.Room`); the
actor alone changes the table (and reads it: the lobby shows what the actor copied out after its
last step). FastAPI runs the plain ``def`` handlers in its thread pool. The websocket's look-up
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
import json
import os
import sys
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, HTTPException, Request, Response, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, Field, ValidationError
from starlette.websockets import WebSocketState

from sevenstud.bots.registry import BotKindName
from sevenstud.games import Razz, Stakes, Stud, StudHiLo
from sevenstud.server import auth, downloads, equity_limits, study, web
from sevenstud.server.leases import LEASE_SECONDS, LeaseError, LeaseKeeper
from sevenstud.server.protocol import (
    CLIENT,
    GRACE_SECONDS,
    MAX_MESSAGE_BYTES,
    PROTOCOL_VERSION,
    RATE_PER_SECOND,
    Act,
    AddBot,
    ClientMessage,
    Hello,
    Leave,
    RemoveBot,
    Sit,
    SitIn,
    SitOut,
    TopUp,
    Unwait,
    Wait,
    json_schema,
)
from sevenstud.server.rooms import Room, RoomError, TableKeeper, create_table
from sevenstud.server.store import Store, StoreError, open_store
from sevenstud.server.store.models import Player, TableRow
from sevenstud.table import TableError, TableSettings

COOKIE = "sevenstud_session"
GAMES = {"stud8": StudHiLo, "stud": Stud, "razz": Razz}


class Credentials(BaseModel):
    """A sign-up or a log-in."""

    name: str = Field(max_length=40)
    password: str = Field(max_length=200)


class NewTable(BaseModel):
    """A table to open: game, stakes (ante, bring-in, small bet, big bet), seats, bots."""

    name: str = Field(default="Stud table", min_length=1, max_length=80)
    game: str = Field(default="stud8", pattern="^(stud8|stud|razz)$")
    stakes: tuple[int, int, int, int] = (1, 2, 5, 10)
    seats: int = Field(default=6, ge=2, le=8)
    bots: int = Field(default=0, ge=0, le=7)
    bot: BotKindName = "rule"
    """Which kind of bot fills the ``bots`` seats (:data:`sevenstud.bots.BOT_KINDS`)."""


def create_app(
    store: Store,
    *,
    pause: float = 3.0,
    allowed_origins: tuple[str, ...] = (),
    public_url: str = "http://127.0.0.1:8000",
    lease_seconds: float = LEASE_SECONDS,
    grace: float = GRACE_SECONDS,
    equity: study.EquityLimits | None = None,
) -> FastAPI:
    """The card room's application on an open store: on start it takes the lease of every free
    table (recovering each) and opens its room; ``public_url`` is this process's address, as
    the lobby of every process sharing the database tells it (see leases.py); ``equity``: the
    limits on equity jobs (docs/security-equity.md; the defaults when None)."""
    rooms: dict[int, Room] = {}
    connections = itertools.count(1)

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
        room = Room(TableKeeper(store, table_id, settings), pause=pause, grace=grace, inline=store.inline)
        rooms[table_id] = room
        room.start()
        return room

    equity_jobs = study.Study(equity)
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
            settings = TableSettings(game, seats=body.seats)
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
        origin = ws.headers.get("origin")
        host = ws.headers.get("host", "")
        if origin is not None and origin not in allowed_origins and origin.split("://", 1)[-1] != host:
            await ws.close(code=1008, reason="origin not allowed")
            return
        token = ws.cookies.get(COOKIE)
        # On SQLite a key look-up in a local file, done here as the tables' steps are: a thread
        # each, 2,000 clients connecting at once fought the event loop for the GIL.
        player = (
            auth.player_of(store, token)
            if store.inline
            else await asyncio.to_thread(auth.player_of, store, token)
        )
        await ws.accept()
        key = next(connections)
        room: Room | None = None
        allowance, checked = RATE_PER_SECOND, time.monotonic()

        async def send(message: dict[str, Any]) -> None:
            await ws.send_text(json.dumps(message))

        async def refuse(why: str) -> None:
            number = room.keeper.number if room is not None else None
            await ws.send_text(json.dumps({"type": "error", "number": number, "message": why}))

        try:
            while True:
                text = await ws.receive_text()
                now = time.monotonic()
                allowance = min(RATE_PER_SECOND, allowance + (now - checked) * RATE_PER_SECOND)
                checked = now
                if allowance < 1:
                    await refuse("too many messages: slow down")
                    continue
                allowance -= 1
                if len(text.encode()) > MAX_MESSAGE_BYTES:
                    await refuse(f"a message is at most {MAX_MESSAGE_BYTES} bytes")
                    continue
                try:
                    message = CLIENT.validate_json(text)
                except ValidationError as error:
                    await refuse(f"malformed message: {error.errors()[0]['msg']}")
                    continue
                if isinstance(message, Hello):
                    if message.version != PROTOCOL_VERSION:
                        await refuse(
                            f"protocol version {message.version}: this server speaks {PROTOCOL_VERSION}"
                        )
                        continue
                    found = rooms.get(message.table)
                    if found is None:
                        where = leases.server_of(message.table)
                        await refuse(
                            f"no table {message.table}"
                            if where is None
                            else f"table {message.table} is served at {where}"
                        )
                        continue
                    if room is not None:
                        room.unwatch(key)
                    room = found
                    welcome = {"type": "welcome", "version": PROTOCOL_VERSION, "table": message.table}
                    join = functools.partial(
                        room.join,
                        key,
                        player.name if player else None,
                        send,
                        message.last,
                        welcome,
                        views=message.views,
                    )
                    # On the actor: the seat is read and the welcome, then what was missed (or a
                    # snapshot), sent in that order before anything newer.
                    try:
                        await room.submit(functools.partial(_run_join, join))
                    except (TableError, RoomError) as error:  # a table stopped (its lease lost)
                        room = None
                        await refuse(str(error))
                    continue
                if room is None:
                    await refuse("say hello first (the protocol version and the table)")
                    continue
                if player is None:
                    await refuse("log in or play as a guest first")
                    continue
                try:
                    await room.submit(_command(room, player.id, player.name, message, key))
                except (TableError, RoomError) as error:
                    await refuse(str(error))
        except (WebSocketDisconnect, ConnectionError):
            pass  # the client went away (a send to a closed socket raises the latter)
        except RuntimeError:
            # Starlette's "not connected": a send found the client gone and marked the socket
            # closed, so the next receive has nothing to read. Anything else is a real error.
            if WebSocketState.DISCONNECTED not in (ws.client_state, ws.application_state):
                raise
        finally:
            if room is not None:
                room.unwatch(key)

    def _command(room: Room, player_id: int, name: str, message: ClientMessage, key: int) -> Any:
        """The message as a command for the table's actor (run in its worker thread)."""
        keeper = room.keeper

        def seated() -> int:
            if name not in keeper.occupants:
                raise RoomError("you are not seated at this table")
            return keeper.table.seat_of(name)

        def run(now: float) -> object:
            table = keeper.table
            if isinstance(message, Sit):
                room.check_seat(name, message.seat)
                result = keeper.sit_down(name, message.seat, message.buy_in, now, player_id=player_id)
                room.seated(name, message.seat)
                watcher = room.watchers.get(key)
                if watcher is not None:
                    watcher.seat = message.seat
                return result
            if isinstance(message, AddBot):
                if message.seat in room.offers:
                    raise RoomError(f"seat {message.seat} is offered from the waiting list")
                return room.add_bot(message.seat, message.bot, now)
            if isinstance(message, RemoveBot):
                return keeper.remove_bot(message.seat, now)
            if isinstance(message, Wait):
                return room.join_waiting(name, now)
            if isinstance(message, Unwait):
                room.leave_waiting(name, now)
                return None
            seated()
            if isinstance(message, Leave):
                return keeper.leave(name, now)
            if isinstance(message, SitOut):
                return keeper.sit_out(name, now)
            if isinstance(message, SitIn):
                return keeper.sit_in(name, now)
            if isinstance(message, TopUp):
                return keeper.top_up(name, message.amount, now)
            assert isinstance(message, Act)
            seat = seated()
            view = table.view(seat)
            hand_number = view.hand_number
            if view.hand is None or hand_number != message.hand or view.hand.street != message.street:
                street = None if view.hand is None else view.hand.street
                raise RoomError(
                    f"that action is for hand {message.hand}, street {message.street}: "
                    f"it is hand {hand_number}, street {street} now"
                )
            return keeper.act(seat, message.action, now)

        return run

    return app


def _run_join(join: Callable[[], object], _now: float) -> object:
    """A hello's join, as a command for the actor (the time is not needed)."""
    return join()


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
    """``sevenstud serve [--host 127.0.0.1] [--port 8000] [--database URL]``."""
    import uvicorn

    try:
        store = open_store(getattr(args, "database", None))
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
            equity=equity_limits.from_args(args),
            # SEVENSTUD_PAUSE (seconds after each hand): the tests run hands back to back.
            pause=float(os.environ.get("SEVENSTUD_PAUSE", "3")),
        )
    except LeaseError as error:
        print(f"sevenstud serve: {error}", file=sys.stderr)
        store.close()
        return 1
    print(f"sevenstud serve: database {store.shown_url}", flush=True)
    print(f"sevenstud serve: open http://{host}:{port}/", flush=True)
    _tune_garbage_collector()
    # No per-message compression: the messages are small and frequent, and under load zlib took
    # about half of the time spent sending (benchmarks/load.py's profile). One write for what a
    # connection is sent in one step of the loop (serving.py: the writes were the largest cost).
    from sevenstud.server.serving import CoalescingWebSockets

    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level="warning",
        access_log=False,
        ws=CoalescingWebSockets,
        ws_per_message_deflate=False,
    )
    store.close()
    return 0
