"""The browser table's static files (the package's ``web/`` folder) and the pages' routes.

``GET /`` is the lobby (``web/index.html``), ``GET /table/{id}`` the table, ``GET /equity`` the
study page, ``GET /hands/{id}`` the replayer, ``GET /rules`` and ``GET /rules/{game}`` the "How to
play" pages (``web/rules.html``; a game is one of :data:`sevenstud.games.GAME_CODES`), ``GET
/favicon.ico`` the icon (``web/favicon.svg``); every other file is under ``GET /web/...`` (the
pages' catalogs at ``/web/i18n/<lang>.json``). Every
asset ships in the package (no CDN), so the pages' Content-Security-Policy allows this origin
alone (and its websocket). A page or file not there (yet) is a plain 404. Pages and files are
sent ``Cache-Control: no-cache``: a browser revalidates them, so a new release shows at once.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from fastapi import FastAPI, Response
from fastapi import Path as PathParam
from fastapi.responses import FileResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles
from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from sevenstud.games import GAME_CODES
from sevenstud.server.protocol import MAX_ID

RowId = Annotated[int, PathParam(ge=1, le=MAX_ID)]
"""A table's or a hand's id in a path: 1 to :data:`~.protocol.MAX_ID` (else a 422 naming it)."""

WEB = Path(__file__).resolve().parent.parent / "web"
"""The package's folder of static files."""

SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; connect-src 'self'; img-src 'self' data:; "
        "style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
}
"""Sent with every page and static file (no other site may frame a page: clickjacking). Every
other answer gets the edge's (edge.py). ``connect-src 'self'`` covers the page's own websocket
(CSP level 3: 'self' matches ws: and wss: of the page's host and port; chromium does) and no
other host's, so a script injected into a page cannot talk to a server of its own choosing
(tests/web/test_page_csp.py)."""

PAGES = {
    "/": "index.html",
    "/admin": "admin.html",
    "/equity": "equity.html",
    "/history": "history.html",
    "/rules": "rules.html",
    "/tournaments": "tournaments.html",
}
"""Fixed routes and their pages (``/table/{id}`` and ``/hands/{id}`` are below)."""


def _page(name: str, folder: Path) -> Response:
    path = folder / name
    if not path.is_file():
        return PlainTextResponse(f"page {name} not found", status_code=404)
    return FileResponse(path, media_type="text/html")


def _is_page_or_file(path: str) -> bool:
    rooted = ("/web/", "/table/", "/hands/", "/rules/", "/tournament/", "/reset/", "/invite/")
    return path in PAGES or path == "/favicon.ico" or path.startswith(rooted)


class PageHeaders:
    """The pages' and files' headers (:data:`SECURITY_HEADERS`, ``Cache-Control: no-cache``) on
    their answers. A plain ASGI middleware: FastAPI's ``@app.middleware("http")`` ran every
    request, API calls and websockets' handshakes included, through a task and a stream of its
    own, a few milliseconds a file on a loaded machine (the table page loads ten)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not _is_page_or_file(scope["path"]):
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    headers[name] = value
                headers["Cache-Control"] = "no-cache"
            await send(message)

        await self.app(scope, receive, with_headers)


def install(app: FastAPI, folder: Path = WEB) -> None:
    """Add the pages, ``/web/...`` and their headers to ``app`` (``folder``: the static files)."""

    app.add_middleware(PageHeaders)

    @app.get("/", include_in_schema=False)
    def lobby() -> Response:
        return _page("index.html", folder)

    @app.get("/admin", include_in_schema=False)
    def console_page() -> Response:
        # The page is the same for everyone; what it shows comes from /api/admin/, which
        # answers operators only.
        return _page("admin.html", folder)

    @app.get("/equity", include_in_schema=False)
    def study_page() -> Response:
        return _page("equity.html", folder)

    @app.get("/history", include_in_schema=False)
    def history_page() -> Response:
        return _page("history.html", folder)

    @app.get("/table/{table_id}", include_in_schema=False)
    def table_page(table_id: RowId) -> Response:
        return _page("table.html", folder)

    @app.get("/invite/{token}", include_in_schema=False)
    def invite_page(token: str) -> Response:
        # The same page for every token: what it shows comes from POST /api/invite.
        return _page("invite.html", folder)

    @app.get("/rules", include_in_schema=False)
    def rules_index() -> Response:
        return _page("rules.html", folder)

    @app.get("/rules/{game}", include_in_schema=False)
    def rules_page(game: str) -> Response:
        if game not in GAME_CODES:
            return PlainTextResponse(f"no game {game!r}: one of {', '.join(GAME_CODES)}", status_code=404)
        return _page("rules.html", folder)

    @app.get("/tournaments", include_in_schema=False)
    def tournaments_page() -> Response:
        return _page("tournaments.html", folder)

    @app.get("/tournament/{tournament_id}", include_in_schema=False)
    def tournament_page(tournament_id: RowId) -> Response:
        return _page("tournament.html", folder)

    @app.get("/hands/{hand_id}", include_in_schema=False)
    def replay_page(hand_id: RowId) -> Response:
        return _page("replay.html", folder)

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> Response:
        # The pages name /web/favicon.svg; a browser or tool that asks here gets it too, not a 404.
        path = folder / "favicon.svg"
        if not path.is_file():
            return PlainTextResponse("favicon not found", status_code=404)
        return FileResponse(path, media_type="image/svg+xml")

    # check_dir=False: the folder may be missing in a checkout under way; its files are then 404s.
    app.mount("/web", StaticFiles(directory=folder, check_dir=False), name="web")


__all__ = ["PAGES", "SECURITY_HEADERS", "WEB", "RowId", "install"]
