"""The FastAPI application: the card room's parts assembled.

:func:`create_app` makes one :class:`~sevenstud.server.cardroom.CardRoom` (the tables and
tournaments this process serves, and the limits' counters) and mounts the routes of each part
over it: the accounts, the lobby, the websocket, the tournaments, the history, the notes, the
downloads, the equity jobs and the pages. FastAPI runs the plain ``def`` handlers in its thread
pool. Sessions are HttpOnly, SameSite=Strict cookies holding a random token (Secure when served
over https); neither a password nor a token is ever logged.

Every request first passes the edge (:mod:`~sevenstud.server.edge`: hosts, origins, body
sizes, headers); the limits on what one client may make the server spend are
:mod:`~sevenstud.server.limits` (docs/security.md).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI

from sevenstud.refusals import Refusal
from sevenstud.server import answers, health, lobby, web, websocket
from sevenstud.server.accounts import downloads, history, notes
from sevenstud.server.accounts import routes as account_routes
from sevenstud.server.accounts.sessions import LOGGED_OUT
from sevenstud.server.cardroom import CardRoom
from sevenstud.server.collector import Collector
from sevenstud.server.connection import Limits as OutboxLimits
from sevenstud.server.edge import Edge, Policy, server_options
from sevenstud.server.limits import Limits
from sevenstud.server.logs import log_config
from sevenstud.server.operators import chat_routes, console_routes, house_tables, schedule
from sevenstud.server.operators import routes as operator_routes
from sevenstud.server.operators import tournaments as operator_tournaments
from sevenstud.server.protocol import GRACE_SECONDS, json_schema
from sevenstud.server.store import Store, StoreError, open_store
from sevenstud.server.study import jobs as study
from sevenstud.server.study import limits as equity_limits
from sevenstud.server.tables import private_routes
from sevenstud.server.tables.leases import LEASE_SECONDS, LeaseError
from sevenstud.server.tables.room import BOT_THINK, NO_THINK, think_range
from sevenstud.server.tournaments import routes as tournament_routes

__all__ = ["create_app", "serve_command"]


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
    metrics_from: tuple[str, ...] = (),
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
    gives one, a test's app leaves the process's own alone); ``metrics_from``: the addresses or
    networks that may read ``/metrics`` (server/health.py)."""
    limits = limits or Limits()
    room = CardRoom(
        store,
        public_url=public_url,
        limits=limits,
        pause=pause,
        bot_think=bot_think,
        grace=grace,
        lease_seconds=lease_seconds,
        equity=equity,
        outbox=outbox,
        collector=collector,
    )

    schedules = schedule.Keeper(room)  # the house's tournaments, by the operators' schedule

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await room.start()
        schedules.start()
        yield
        await schedules.stop()
        await room.stop()

    app = FastAPI(
        title="sevenstud card room",
        lifespan=lifespan,
        docs_url="/docs" if api_docs else None,
        redoc_url="/redoc" if api_docs else None,
        # (the schema they read too: docs/protocol.md is the reference, /protocol.json its messages)
        openapi_url="/openapi.json" if api_docs else None,
    )
    if not api_docs:  # the API's description (the operator API's included) to operators only
        operator_routes.operators_openapi(app, room)
    app.state.cardroom = room
    app.state.tournaments = room.tournaments

    async def close_sockets(key: str | None) -> None:
        if key is not None:
            await room.sockets.close_session(key, LOGGED_OUT, Refusal("logged_out"))

    app.include_router(
        account_routes.router(
            room.sessions,
            guests_made=room.guests_made,
            login_tries=room.login_tries,
            login_guard=room.login_guard,
            hashing=room.hashing,
            close_sockets=close_sockets,
        )
    )
    app.include_router(lobby.router(room))  # /api/games, /api/lobby, POST /api/tables
    app.include_router(websocket.router(room))  # /ws
    app.include_router(private_routes.router(room))  # home games: /api/invite, /api/private/...
    app.include_router(operator_routes.router(room))  # /api/admin/...: the room's operators only
    app.include_router(house_tables.router(room))  # /api/admin/tables, /api/admin/settings
    app.include_router(console_routes.router(room))  # rename, reset links, pruning; /reset/<token>
    app.include_router(chat_routes.router(room))  # POST /api/chat/reports, /api/admin/chat/...
    app.include_router(operator_tournaments.router(room, schedules))  # templates, schedules, ...
    app.include_router(health.router(room, health.networks(metrics_from)))  # /healthz, /readyz, /metrics
    # GET /api/hands...: own hands only (a session ending when unused, as everywhere)
    app.include_router(downloads.router(room.sessions, room.limits))
    # The history, statistics and private notes of the account logged in (its own only).
    app.include_router(history.router(room.sessions))
    app.include_router(notes.router(room.sessions))
    app.include_router(study.router(room.equity_jobs))  # POST /api/equity, GET /api/equity/{job}
    app.include_router(tournament_routes.router(room.tournaments, room.sessions))
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
    # The refusals in each request's language (answers.py), each limit's counted.
    answers.install(app, counted=lambda limit: room.metrics.refusals.labels(limit).inc())

    @app.get("/protocol.json")
    def protocol() -> dict[str, Any]:
        return json_schema()

    return app


def serve_command(args: argparse.Namespace) -> int:
    """``sevenstud serve [--host 127.0.0.1] [--port 8000] [--database URL] [--pause S]``."""
    import uvicorn

    try:
        store = open_store(getattr(args, "database", None))
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
            metrics_from=tuple(getattr(args, "metrics_from", None) or ()),
        )
    except LeaseError as error:
        print(f"sevenstud serve: {error}", file=sys.stderr)
        store.close()
        return 1
    print(f"sevenstud serve: database {store.shown_url}", flush=True)
    print(f"sevenstud serve: open http://{host}:{port}/", flush=True)
    # The frame and body sizes, pings, keep-alive, request deadline and websocket protocol
    # (edge.server_options, which the tests' servers run too).
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level="warning",
        access_log=False,
        log_config=log_config(getattr(args, "log_format", "text")),
        # a trusted proxy's connections are not counted per address (edge.http_protocol)
        **server_options(limits, tuple(getattr(args, "trusted_proxy", None) or ())),
    )
    store.close()
    return 0
