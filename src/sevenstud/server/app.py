"""The FastAPI application: HTTP for accounts, the lobby and new tables; a websocket per client.

Handlers only check messages and hand them to the table's actor (:class:`~.rooms.Room`); the
actor alone changes the table. Sessions are HttpOnly cookies holding a random token; neither a
password nor a token is ever logged.
"""

from __future__ import annotations

import argparse
import functools
import itertools
import json
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, HTTPException, Request, Response, WebSocket, WebSocketDisconnect
from pydantic import BaseModel, Field, ValidationError
from sqlalchemy import select

from sevenstud.games import Razz, Stakes, Stud, StudHiLo
from sevenstud.server import auth
from sevenstud.server.protocol import (
    CLIENT,
    MAX_MESSAGE_BYTES,
    PROTOCOL_VERSION,
    RATE_PER_SECOND,
    Act,
    ErrorMessage,
    Hello,
    Leave,
    Sit,
    Welcome,
    json_schema,
)
from sevenstud.server.rooms import Room, RoomError, TableKeeper, create_table, recover
from sevenstud.server.store import Store, StoreError, open_store
from sevenstud.server.store.models import TableRow
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


def create_app(store: Store, *, pause: float = 3.0, allowed_origins: tuple[str, ...] = ()) -> FastAPI:
    """The card room's application on an open store (recovered and its rooms started on start)."""
    rooms: dict[int, Room] = {}
    connections = itertools.count(1)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        recover(store)
        with store.session() as s:
            rows = s.scalars(select(TableRow).where(TableRow.closed.is_(False))).all()
        for row in rows:
            _open_room(row.id, _settings_of(row))
        yield
        for room in rooms.values():
            await room.stop()

    def _settings_of(row: TableRow) -> TableSettings:
        from sevenstud.wire import game_from_wire

        return TableSettings(game_from_wire(row.game), **row.settings)

    def _open_room(table_id: int, settings: TableSettings) -> Room:
        room = Room(TableKeeper(store, table_id, settings), pause=pause)
        rooms[table_id] = room
        room.start()
        return room

    app = FastAPI(title="sevenstud card room", lifespan=lifespan)

    def _login(response: Response, player_id: int) -> dict[str, Any]:
        token = auth.new_session(store, player_id)
        response.set_cookie(
            COOKIE, token, httponly=True, samesite="strict", max_age=int(auth.SESSION_SECONDS)
        )
        with store.session() as s:
            from sevenstud.server.store.models import Player

            player = s.get(Player, player_id)
            assert player is not None
            return {"id": player.id, "name": player.name, "balance": player.balance}

    @app.get("/protocol.json")
    def protocol() -> dict[str, Any]:
        return json_schema()

    @app.post("/api/guest")
    def guest(response: Response) -> dict[str, Any]:
        return _login(response, auth.guest(store))

    @app.post("/api/signup")
    def sign_up(body: Credentials, response: Response) -> dict[str, Any]:
        try:
            return _login(response, auth.sign_up(store, body.name, body.password))
        except auth.AuthError as error:
            raise HTTPException(400, str(error)) from None

    @app.post("/api/login")
    def log_in(body: Credentials, response: Response) -> dict[str, Any]:
        try:
            token = auth.log_in(store, body.name, body.password)
        except auth.AuthError as error:
            raise HTTPException(401, str(error)) from None
        response.set_cookie(
            COOKIE, token, httponly=True, samesite="strict", max_age=int(auth.SESSION_SECONDS)
        )
        return {"name": body.name}

    @app.get("/api/lobby")
    def lobby() -> list[dict[str, Any]]:
        return [
            {
                "id": table_id,
                "game": room.keeper.table.settings.game.__class__.__name__,
                "seats": room.keeper.table.settings.seats,
                "taken": len(room.keeper.table.view(None).seats),
                "hands": room.hands_played,
            }
            for table_id, room in sorted(rooms.items())
        ]

    @app.post("/api/tables")
    async def new_table(body: NewTable, request: Request) -> dict[str, Any]:
        if auth.player_of(store, request.cookies.get(COOKIE)) is None:
            raise HTTPException(401, "log in or play as a guest first")
        try:
            game = GAMES[body.game](Stakes(*body.stakes))
            settings = TableSettings(game, seats=body.seats)
        except ValueError as error:
            raise HTTPException(400, str(error)) from None
        if body.bots >= body.seats:
            raise HTTPException(400, f"{body.bots} bots leave no seat free at a table of {body.seats}")
        table_id = create_table(store, body.name, settings)
        room = _open_room(table_id, settings)
        for seat in range(2, 2 + body.bots):
            await room.submit(functools.partial(_seat_bot, room, seat, settings.max_buy_in))
        return {"id": table_id}

    @app.websocket("/ws")
    async def socket(ws: WebSocket) -> None:
        origin = ws.headers.get("origin")
        host = ws.headers.get("host", "")
        if origin is not None and origin not in allowed_origins and origin.split("://", 1)[-1] != host:
            await ws.close(code=1008, reason="origin not allowed")
            return
        player = auth.player_of(store, ws.cookies.get(COOKIE))
        await ws.accept()
        key = next(connections)
        room: Room | None = None
        allowance, checked = RATE_PER_SECOND, time.monotonic()

        async def send(message: dict[str, Any]) -> None:
            await ws.send_text(json.dumps({"type": "event", **message}))

        async def refuse(why: str) -> None:
            await ws.send_text(ErrorMessage(message=why).model_dump_json())

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
                        await refuse(f"no table {message.table}")
                        continue
                    if room is not None:
                        room.unwatch(key)
                    room = found
                    keeper = room.keeper
                    seat = None
                    if player is not None and player.name in keeper.occupants:
                        seat = keeper.table.seat_of(player.name)
                    last = max(0, min(message.last - keeper.number_offset, keeper.table.number))
                    welcome = Welcome(table=message.table, seat=seat, number=keeper.number)
                    await ws.send_text(welcome.model_dump_json())
                    room.watch(key, seat, send, last)
                    await room.submit(_nothing)  # the actor sends what was missed
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
        except WebSocketDisconnect:
            pass
        finally:
            if room is not None:
                room.unwatch(key)

    def _command(room: Room, player_id: int, name: str, message: Act | Sit | Leave | Hello, key: int) -> Any:
        keeper = room.keeper

        def run(now: float) -> object:
            table = keeper.table
            if isinstance(message, Sit):
                result = keeper.sit_down(name, message.seat, message.buy_in, now, player_id=player_id)
                watcher = room.watchers.get(key)
                if watcher is not None:
                    watcher.seat = message.seat
                return result
            if isinstance(message, Leave):
                return keeper.leave(name, now)
            assert isinstance(message, Act)
            seat = table.seat_of(name) if name in keeper.occupants else None
            if seat is None:
                raise RoomError("you are not seated at this table")
            view = table.view(seat)
            hand_number = None if view.hand_number is None else keeper.hand_offset + view.hand_number
            if view.hand is None or hand_number != message.hand or view.hand.street != message.street:
                street = None if view.hand is None else view.hand.street
                raise RoomError(
                    f"that action is for hand {message.hand}, street {message.street}: "
                    f"it is hand {hand_number}, street {street} now"
                )
            return keeper.act(seat, message.action, now)

        return run

    return app


def _seat_bot(room: Room, seat: int, buy_in: int, now: float) -> object:
    """Seat the project's RuleBot in an empty seat (its chips come from the bank)."""
    return room.keeper.sit_down(f"bot{seat}", seat, buy_in, now)


def _nothing(now: float) -> None:
    """A command that changes nothing: the actor's next send follows it."""


def serve_command(args: argparse.Namespace) -> int:
    """``sevenstud serve [--host 127.0.0.1] [--port 8000] [--database URL]``."""
    import uvicorn

    try:
        store = open_store(getattr(args, "database", None))
    except StoreError as error:
        print(f"sevenstud serve: {error}", file=sys.stderr)
        return 1
    host, port = getattr(args, "host", "127.0.0.1"), getattr(args, "port", 8000)
    print(f"sevenstud serve: database {store.shown_url}", flush=True)
    print(f"sevenstud serve: open http://{host}:{port}/", flush=True)
    uvicorn.run(create_app(store), host=host, port=port, log_level="warning", access_log=False)
    store.close()
    return 0
