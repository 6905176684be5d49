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

Every request first passes the edge (:mod:`~sevenstud.server.edge`: hosts, origins, body
sizes, headers); the limits on what one client may make the server spend are
:mod:`~sevenstud.server.limits` (docs/security.md).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import itertools
import json
import sys
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Annotated, Any

from fastapi import FastAPI, HTTPException, Request, Response, WebSocket, WebSocketDisconnect
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import func, select
from starlette.websockets import WebSocketState

from sevenstud.bots.registry import BotKindName
from sevenstud.games import GAMES, GameCode, Stakes, StudHiLo, game_class, game_facts
from sevenstud.server import answers, web
from sevenstud.server.accounts import auth, downloads, history, notes
from sevenstud.server.collector import Collector
from sevenstud.server.connection import Connection
from sevenstud.server.connection import Limits as OutboxLimits
from sevenstud.server.edge import Edge, Policy, server_options
from sevenstud.server.i18n import say
from sevenstud.server.limits import Allowance, Buckets, HashPool, Limits, LoginGuard, RateLimited, Sockets
from sevenstud.server.protocol import (
    GRACE_SECONDS,
    MAX_ID,
    MAX_MESSAGE_BYTES,
    PROTOCOL_VERSION,
    Act,
    ClientMessage,
    Hello,
    MessageError,
    json_schema,
    parse_client,
)
from sevenstud.server.store import Store, StoreError, open_store
from sevenstud.server.store.models import Player, TableRow
from sevenstud.server.study import jobs as study
from sevenstud.server.study import limits as equity_limits
from sevenstud.server.tables.chat import ChatDesk
from sevenstud.server.tables.keeper import KEPT_ENTRIES
from sevenstud.server.tables.leases import LEASE_SECONDS, LeaseError, LeaseKeeper
from sevenstud.server.tables.recovery import recover
from sevenstud.server.tables.room import BOT_THINK, NO_THINK, Room, TableKeeper, create_table, think_range
from sevenstud.server.tournaments import routes as tournament_routes
from sevenstud.server.tournaments.service import TournamentService
from sevenstud.table import TableSettings

COOKIE = "sevenstud_session"
Chips = Annotated[int, Field(strict=True, ge=0, le=MAX_ID)]
"""A number of chips in a request body (the database's integers bound it)."""
LOGGED_OUT = 4003
"""The close code of a websocket whose login session ended (a log-out, or a log-in on top)."""
TRY_LATER = 1013
"""The close code of a websocket refused by a limit on connections (RFC 6455: try again later)."""


class Credentials(BaseModel):
    """A sign-up or a log-in (strict: strings are strings, as for every body and message)."""

    model_config = ConfigDict(strict=True)

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
        why = f"the ante of {floor}" if floor == stakes.ante else f"{BUY_IN_BOUNDS[0]} big bets of {big}"
        raise ValueError(f"min_buy_in {low} is below {floor} ({why})")
    if low > ceiling:  # named before max_buy_in, whose default follows it
        raise ValueError(f"min_buy_in {low} is above {ceiling} ({BUY_IN_BOUNDS[1]} big bets of {big})")
    if high > ceiling:
        raise ValueError(f"max_buy_in {high} is above {ceiling} ({BUY_IN_BOUNDS[1]} big bets of {big})")
    if low > high:
        raise ValueError(f"min_buy_in {low} is above max_buy_in {high}")
    return low, high


class NewTable(BaseModel):
    """A table to open: game, stakes (ante, bring-in, small bet, big bet), seats, bots, and
    the buy-in limits in chips (None: :func:`buy_in_limits`'s defaults)."""

    model_config = ConfigDict(strict=True, extra="forbid")  # a misspelt field is named, not ignored

    name: str = Field(default="Stud table", min_length=1, max_length=80)
    game: GameCode = StudHiLo.code
    # Not strict as a whole: a JSON body's array reaches the model as a list, not a tuple (each
    # number is strict all the same).
    stakes: tuple[Chips, Chips, Chips, Chips] = Field(default=(1, 2, 5, 10), strict=False)
    seats: int = Field(default=6, ge=2, le=8)
    bots: int = Field(default=0, ge=0, le=7)
    bot: BotKindName = "rule"
    """Which kind of bot fills the ``bots`` seats (:data:`sevenstud.bots.BOT_KINDS`)."""
    min_buy_in: int | None = Field(default=None, ge=1, le=MAX_ID)
    max_buy_in: int | None = Field(default=None, ge=1, le=MAX_ID)


def create_app(
    store: Store,
    *,
    pause: float = 3.0,
    bot_think: tuple[float, float] = NO_THINK,
    allowed_origins: tuple[str, ...] = (),
    public_url: str = "http://127.0.0.1:8000",
    lease_seconds: float = LEASE_SECONDS,
    grace: float = GRACE_SECONDS,
    limits: Limits | None = None,
    allowed_hosts: tuple[str, ...] = (),
    trusted_proxies: tuple[str, ...] = (),
    api_docs: bool = False,
    equity: study.EquityLimits | None = None,
    outbox: OutboxLimits | None = None,
    collector: Collector | None = None,
) -> FastAPI:
    """The card room's application on an open store: on start it takes the lease of every free
    table (recovering each) and opens its room; ``public_url`` is this process's address, as
    the lobby of every process sharing the database tells it (see leases.py). ``limits``:
    what one client may make it spend (:class:`~.limits.Limits`' defaults when None);
    ``allowed_hosts``/``allowed_origins``: names and origins it answers to besides its public
    URL's; ``trusted_proxies``: the addresses whose ``X-Forwarded-*`` headers it believes;
    ``api_docs``: serve ``/docs`` and ``/redoc`` (they load scripts from a CDN); ``equity``: the
    limits on equity jobs (docs/security.md; the defaults when None); ``outbox``: how far behind
    a client may fall before it is cut off (sevenstud.server.connection); ``collector``: the
    garbage collector to run on the server's loop (server/collector.py; ``sevenstud serve``
    gives one, a test's app leaves the process's own alone)."""
    limits = limits or Limits()
    rooms: dict[int, Room] = {}
    owners: dict[int, int | None] = {}
    """Who opened each table here (None: nobody recorded, a table from before owners)."""
    connections = itertools.count(1)
    guests_made = Buckets(
        "guests_per_address", limits.guests_per_address, limits.guest_window, "guests from your address"
    )
    tables_made = Buckets(
        "tables_per_address", limits.tables_per_address, limits.table_window, "new tables from your address"
    )
    login_tries = Buckets(
        "login_attempts_per_address",
        limits.login_attempts_per_address,
        limits.login_window,
        "log-in attempts from your address",
    )
    login_guard = LoginGuard(limits)
    hashing = HashPool(limits.hash_threads, limits.hash_queue)
    sockets = Sockets(limits)
    chat_desk = ChatDesk(limits)  # every table's chat: the allowance of each player
    new_tables = asyncio.Lock()  # an account's count of open tables is read and raised in turn
    outbox = outbox if outbox is not None else OutboxLimits()

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
            "game": settings.game.code,
            "game_name": settings.game.name,
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
        open_room=lambda row: _open_room(row.id, _settings_of(row), row.owner_id),
        close_room=_close_room,
        summary=_line,
        ttl=lease_seconds,
    )

    async def _close_table(table_id: int) -> None:
        """Close a table for good (nobody but bots, nobody watching, for a while): its room
        stops, every seat stands up (the bots' chips back to the bank), its lease goes."""
        room = rooms.pop(table_id, None)
        owners.pop(table_id, None)
        if room is not None:
            await room.stop()

        def close() -> None:
            with store.transaction() as s:
                row = s.get(TableRow, table_id)
                if row is not None:
                    row.closed = True
            recover(store, [table_id], keep_seats=False)
            leases.release(table_id)

        await store.run(close)

    async def _sweep() -> None:
        """Expired sessions deleted, idle tables closed, the counters pruned: every so often."""
        unattended: dict[int, float] = {}
        every = max(0.05, min(limits.sweep_seconds, limits.idle_table_seconds / 4))
        swept = time.monotonic()
        while True:
            await asyncio.sleep(every)
            now = time.monotonic()
            try:
                for table_id, room in list(rooms.items()):
                    if room.gate is None and room.unattended() and not room.playing:
                        since = unattended.setdefault(table_id, now)
                        if now - since >= limits.idle_table_seconds:
                            unattended.pop(table_id, None)
                            await _close_table(table_id)
                    else:
                        unattended.pop(table_id, None)
                if now - swept >= limits.sweep_seconds:
                    swept = now
                    # A session with a socket open is in use; one past its lifetime ends, and
                    # so do its sockets (a socket never outlives the session it acts for).
                    in_use = sockets.sessions()
                    ended = await store.run(
                        auth.delete_expired_sessions, store, limits.session_idle, None, in_use
                    )
                    for key in ended & in_use:
                        await sockets.close_session(key, LOGGED_OUT, "session ended")
                    for buckets in (guests_made, tables_made, login_tries, chat_desk.buckets):
                        buckets.prune()
                    login_guard.prune()
            except Exception:  # a database that did not answer: the next round tries again
                continue

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await leases.start()
        await tournaments.start()
        loop = asyncio.get_running_loop()
        sweeper = loop.create_task(_sweep())
        collecting = loop.create_task(collector.run()) if collector is not None else None
        yield
        sweeper.cancel()
        if collecting is not None:
            collecting.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await collecting
        await tournaments.stop()
        await leases.stop()
        for room in rooms.values():
            await room.stop()
        equity_jobs.close()
        hashing.close()

    def _settings_of(row: TableRow) -> TableSettings:
        from sevenstud.wire import game_from_wire

        return TableSettings(game_from_wire(row.game), **row.settings)

    def _open_room(
        table_id: int,
        settings: TableSettings,
        owner: int | None = None,
        prepare: Callable[[Room], None] | None = None,
    ) -> Room:
        room = Room(
            TableKeeper(store, table_id, settings),
            pause=pause,
            bot_think=bot_think,
            grace=grace,
            pause_unwatched=limits.pause_unwatched_bots,
            owner=owner,
            chat=chat_desk,
        )
        if prepare is not None:  # a tournament's table: its hooks set before it starts
            prepare(room)
        rooms[table_id] = room
        owners[table_id] = owner
        room.start()
        return room

    tournaments = TournamentService(
        store,
        url=leases.url,
        open_room=lambda table_id, settings, prepare: _open_room(table_id, settings, None, prepare),
        close_room=_close_room,
        take_table=leases.take,
        release_table=leases.release,
        ttl=lease_seconds,
    )
    equity_jobs = study.Study(equity)
    app = FastAPI(
        title="sevenstud card room",
        lifespan=lifespan,
        docs_url="/docs" if api_docs else None,
        redoc_url="/redoc" if api_docs else None,
        # (the schema they read too: docs/protocol.md is the reference, /protocol.json its messages)
        openapi_url="/openapi.json" if api_docs else None,
    )
    # GET /api/hands...: own hands only (a session ending when unused, as everywhere)
    app.include_router(downloads.router(store, COOKIE, limits.session_idle))
    # The history, statistics and private notes of the account logged in (its own only).
    app.include_router(history.router(store, COOKIE, limits.session_idle))
    app.include_router(notes.router(store, COOKIE, limits.session_idle))
    app.include_router(study.router(equity_jobs))  # POST /api/equity, GET /api/equity/{job}
    app.include_router(tournament_routes.router(tournaments, store, COOKIE, limits.session_idle))
    app.state.tournaments = tournaments
    web.install(app)  # the browser table: /, /table/{id}, /equity, /hands/{id}, /web/...
    # Outermost, so that it sees every request first (added last: Starlette wraps in reverse).
    app.add_middleware(
        Edge,
        policy=Policy(
            public_url,
            allowed_origins=tuple(allowed_origins),
            allowed_hosts=tuple(allowed_hosts),
            trusted_proxies=tuple(trusted_proxies),
            body_bytes=limits.http_body_bytes,
            docs=api_docs,
        ),
    )

    answers.install(app)  # the refusals in each request's language (answers.py)

    def _address(request: Request | WebSocket) -> str:
        # The edge has put a trusted proxy's X-Forwarded-For here already (and only then).
        return request.client.host if request.client is not None else "unknown"

    def _set_cookie(request: Request, response: Response, token: str) -> None:
        # Secure when the client came over https: directly, or through a proxy named with
        # --trusted-proxy (the edge set the scheme from its X-Forwarded-Proto; nobody else's).
        response.set_cookie(
            COOKIE,
            token,
            httponly=True,
            samesite="strict",
            secure=request.url.scheme == "https",
            max_age=int(limits.session_lifetime),
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

    def _end_session(token: str | None) -> str | None:
        """End a login session (its row; its sockets are the caller's to close): its key."""
        if not token:
            return None
        auth.log_out(store, token)
        return auth.session_key(token)

    async def _close_sockets(key: str | None) -> None:
        if key is not None:
            await sockets.close_session(key, LOGGED_OUT, "logged out")

    def _login(request: Request, response: Response, player_id: int) -> dict[str, Any]:
        _set_cookie(request, response, auth.new_session(store, player_id, limits.session_lifetime))
        return _account(player_id)

    def _logged_in(request: Request) -> Player:
        player = auth.player_of(store, request.cookies.get(COOKIE), limits.session_idle)
        if player is None:
            raise HTTPException(401, "log in or play as a guest first")
        return player

    @app.get("/protocol.json")
    def protocol() -> dict[str, Any]:
        return json_schema()

    @app.post("/api/guest")
    async def guest(request: Request, response: Response) -> dict[str, Any]:
        guests_made.take(_address(request))

        def make() -> tuple[dict[str, Any], str | None]:
            old = _end_session(request.cookies.get(COOKIE))  # a new guest replaces the old login
            return _login(request, response, auth.guest(store)), old

        account, old = await run_in_threadpool(make)
        await _close_sockets(old)
        return account

    @app.post("/api/signup")
    async def sign_up(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
        login_tries.take(_address(request))
        try:
            name = auth.check_sign_up(body.name, body.password)
            hashed = await hashing.run(functools.partial(auth.hash_password, body.password))

            def make() -> tuple[dict[str, Any], str | None]:
                player_id = auth.sign_up(store, name, body.password, hashed)
                # The session the sign-up came with (a guest's) ends: a new login, a new token.
                old = _end_session(request.cookies.get(COOKIE))
                return _login(request, response, player_id), old

            account, old = await run_in_threadpool(make)
        except auth.AuthError as error:
            raise HTTPException(400, str(error)) from None
        await _close_sockets(old)
        return account

    @app.post("/api/login")
    async def log_in(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
        address = _address(request)
        login_tries.take(address)
        key = auth.name_key(body.name)
        login_guard.check(key, address)
        player_id, password_hash = await run_in_threadpool(auth.find_login, store, body.name)
        # A name nobody has is checked against a dummy hash: as slow as a real one.
        matches = await hashing.run(functools.partial(auth.password_matches, password_hash, body.password))
        if player_id is None or not matches:
            login_guard.failed(key, address)
            raise HTTPException(401, auth.WRONG_LOGIN)
        login_guard.succeeded(key, address)

        def make() -> tuple[dict[str, Any], str | None]:
            old = _end_session(request.cookies.get(COOKIE))  # rotated: the old token is dead
            return _login(request, response, player_id), old

        account, old = await run_in_threadpool(make)
        await _close_sockets(old)
        return account

    @app.post("/api/logout")
    async def log_out(request: Request, response: Response) -> dict[str, Any]:
        old = await run_in_threadpool(_end_session, request.cookies.get(COOKIE))
        await _close_sockets(old)  # a socket opened before the log-out acts for nobody after it
        response.delete_cookie(COOKIE, httponly=True, samesite="strict")
        return {"logged_out": True}

    @app.get("/api/me")
    def me(request: Request) -> dict[str, Any]:
        return _account(_logged_in(request).id)

    @app.get("/api/session")
    def session(request: Request) -> dict[str, Any]:
        # The pages' question "who is logged in here?": signed out is an answer, not an error
        # (a 401 would be logged in every signed-out page's console).
        player = auth.player_of(store, request.cookies.get(COOKIE), limits.session_idle)
        return {"account": None if player is None else _account(player.id)}

    @app.post("/api/refill")
    def refill(request: Request) -> dict[str, Any]:
        player = _logged_in(request)
        try:
            auth.refill(store, player.id)
        except auth.AuthError as error:
            raise HTTPException(400, str(error)) from None
        return _account(player.id)

    @app.get("/api/games")
    async def games() -> dict[str, Any]:
        """The games the room deals and what each has (``sevenstud.games.game_facts``)."""
        return {"games": [game_facts(cls) for cls in GAMES.values()]}

    @app.get("/api/lobby")
    def lobby() -> list[dict[str, Any]]:
        here = [
            {"id": table_id, **_line(table_id), "server": leases.url}
            for table_id in sorted(rooms)
            if rooms[table_id].gate is None  # a tournament's tables are in its own lobby
        ]
        return sorted(here + [t for t in leases.lobby() if t["id"] not in rooms], key=lambda t: t["id"])

    def _open_tables_of(player_id: int) -> int:
        with store.session() as s:
            mine = (TableRow.owner_id == player_id) & TableRow.closed.is_(False)
            found = s.scalar(select(func.count()).select_from(TableRow).where(mine))
        return int(found or 0)

    @app.post("/api/tables")
    async def new_table(body: NewTable, request: Request) -> dict[str, Any]:
        player = await store.run(_logged_in, request)
        try:
            game = game_class(body.game)(Stakes(*body.stakes))
            low, high = buy_in_limits(game.stakes, body.min_buy_in, body.max_buy_in)
            settings = TableSettings(
                game, seats=body.seats, min_buy_in=low, max_buy_in=high, history=KEPT_ENTRIES
            )
        except ValueError as error:
            raise HTTPException(400, str(error)) from None
        if body.bots >= body.seats:
            raise HTTPException(400, f"{body.bots} bots leave no seat free at a table of {body.seats}")
        async with new_tables:
            if await store.run(_open_tables_of, player.id) >= limits.tables_per_account:
                raise RateLimited(
                    "tables_per_account",
                    f"you have {limits.tables_per_account} tables open: a table of nobody but bots, "
                    "unwatched, closes by itself after a while",
                    limits.idle_table_seconds,
                )
            tables_made.take(_address(request))
            table_id = await store.run(create_table, store, body.name, settings, player.id)
        if not leases.claim_new(table_id):  # another process's round took it first: it serves it
            return {"id": table_id, "server": leases.server_of(table_id)}
        room = _open_room(table_id, settings, player.id)
        for seat in range(2, 2 + body.bots):
            await room.submit(functools.partial(room.add_bot, seat, body.bot))
        return {"id": table_id}

    @app.websocket("/ws")
    async def socket(ws: WebSocket) -> None:
        # Transport only: accept, authenticate, rate-limit, read and route; what a message does
        # and what is sent back is the table's actor's (Room.handle), through the outbox. The
        # Host and the Origin were checked at the edge (edge.py).
        token = ws.cookies.get(COOKIE)
        # Where the tables' steps run (Store.run): on SQLite a key look-up in a local file on
        # the loop (a thread each, 2,000 clients connecting at once fought it for the GIL).
        player = await store.run(auth.player_of, store, token, limits.session_idle)
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
        # Until its hello names one, the handshake's language (?lang=, else Accept-Language).
        connection.lang = answers.language_of_request(ws.query_params, ws.headers)

        async def close(code: int, reason: str) -> None:  # the session ended: log-out, log-in
            connection.finish(code, reason)

        try:
            session = auth.session_key(token) if player and token else None
            handle = sockets.open(_address(ws), player.id if player else None, session, close)
        except RateLimited as error:
            said = say(error.message, connection.lang)
            await ws.send_text(json.dumps({"type": "error", "number": None, "message": said}))
            await ws.close(code=TRY_LATER, reason=error.limit)  # the limit's name: for programs
            return
        connection.start()
        room: Room | None = None
        allowance = Allowance(limits.messages_per_second, time.monotonic())
        try:
            while True:
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                text = frame.get("text")
                number = room.keeper.number if room is not None else None
                if not allowance.take(time.monotonic()):
                    connection.refuse("too many messages: slow down", number)
                    continue
                message = parse_message(text)
                if isinstance(message, str):
                    connection.refuse(message, number)
                    continue
                if isinstance(message, Hello):
                    connection.lang = message.lang  # its refusal too (no such table) is in it
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
                if await room.handle(message, connection) and isinstance(message, Act):
                    allowance.give_back()  # the game paced it (see Limits.messages_per_second)
        except (WebSocketDisconnect, ConnectionError):
            pass  # the client went away (a send to a closed socket raises the latter)
        except RuntimeError:
            # Starlette's "not connected": the socket was closed (the client cut off, or gone),
            # so the next receive has nothing to read. Anything else is a real error.
            if WebSocketState.DISCONNECTED not in (ws.client_state, ws.application_state):
                raise
        finally:
            sockets.closed(handle)
            if room is not None:
                room.unwatch(connection.key)
            await connection.stop()

    return app


def parse_message(text: str | None) -> ClientMessage | str:
    """One client message read from its frame's text (None: a binary frame): the message, or
    why it is refused (a string naming the field and what was wrong). Every check of a
    message's form is here, before anything else reads it."""
    if text is None:
        return "a binary frame: every message is JSON text, sent as a text frame"
    if len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES:
        return f"a message is at most {MAX_MESSAGE_BYTES} bytes"
    try:
        message = parse_client(text)
    except MessageError as error:
        return f"malformed message: {error}"
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
    limits = Limits()
    try:
        given = getattr(args, "bot_think", None)
        bot_think = BOT_THINK if given is None else think_range(given)
    except ValueError as error:
        print(f"sevenstud serve: --bot-think: {error}", file=sys.stderr)
        store.close()
        return 2
    try:
        for assignment in getattr(args, "limit", None) or ():
            limits = limits.changed(assignment)
    except ValueError as error:
        print(f"sevenstud serve: --limit: {error}", file=sys.stderr)
        store.close()
        return 2
    hosts = list(getattr(args, "allowed_host", None) or ())
    if host not in ("0.0.0.0", "::", ""):
        hosts.append(f"{host}:{port}" if ":" not in host else f"[{host}]:{port}")  # the bound address
    try:
        app = create_app(
            store,
            public_url=public,
            lease_seconds=getattr(args, "lease_seconds", LEASE_SECONDS),
            equity=equity_limits.from_args(args),
            pause=getattr(args, "pause", 3.0),
            bot_think=bot_think,
            limits=limits,
            allowed_origins=tuple(getattr(args, "allowed_origin", None) or ()),
            allowed_hosts=tuple(hosts),
            trusted_proxies=tuple(getattr(args, "trusted_proxy", None) or ()),
            api_docs=bool(getattr(args, "api_docs", False)),
            collector=Collector(),
        )
        app.state.tournaments.max_speed = float(getattr(args, "test_tournament_speed", 1.0))
    except LeaseError as error:
        print(f"sevenstud serve: {error}", file=sys.stderr)
        store.close()
        return 1
    print(f"sevenstud serve: database {store.shown_url}", flush=True)
    print(f"sevenstud serve: open http://{host}:{port}/", flush=True)
    # The frame and body sizes, pings, keep-alive, request deadline and websocket protocol
    # (edge.server_options, which the tests' servers run too).
    uvicorn.run(app, host=host, port=port, log_level="warning", access_log=False, **server_options(limits))
    store.close()
    return 0
