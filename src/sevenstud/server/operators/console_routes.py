"""The console's account tools on the operator API (docs/operators.md, "Accounts"): rename an
account, make a one-time password-reset link, prune unused guests; and the player's side of a
link: the page ``/reset/<token>`` and ``POST /api/reset``, where its player sets a new password.

Who may call an ``/api/admin/`` route is :mod:`.access`'s to say (``accounts:write``); each
action is written in the event log. The reset routes need no session: the link's secret is the
key, used once.
"""

# No `from __future__ import annotations`: FastAPI reads the routes' annotations as objects.

import functools
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import FileResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from sevenstud.refusals import Refusal
from sevenstud.server.accounts import auth
from sevenstud.server.accounts.routes import address_of
from sevenstud.server.accounts.sessions import LOGGED_OUT
from sevenstud.server.cardroom import CardRoom
from sevenstud.server.operators import SCOPES, accounts, guests, resets
from sevenstud.server.operators.access import Access, Acting
from sevenstud.server.store.models import Player
from sevenstud.server.web import WEB


class Rename(BaseModel):
    """The account's new name (a sign-up's rules), and why."""

    model_config = ConfigDict(strict=True, extra="forbid")
    new_name: str = Field(max_length=40)
    reason: str = Field(max_length=500)


class ResetLink(BaseModel):
    """Why a password-reset link is made (the player asked, the operator checked who)."""

    model_config = ConfigDict(strict=True, extra="forbid")
    reason: str = Field(max_length=500)


class Prune(BaseModel):
    """Prune the guests unused for this many days."""

    model_config = ConfigDict(strict=True, extra="forbid")
    unused_days: int = Field(ge=1, le=guests.MAX_DAYS)


class NewPassword(BaseModel):
    """A password-reset link's secret and the password it sets."""

    model_config = ConfigDict(strict=True, extra="forbid")
    token: str = Field(max_length=100)
    password: str = Field(max_length=200)


def router(room: CardRoom) -> APIRouter:
    """The console's account tools over the card room ``room``, and the reset page."""
    routes = APIRouter()
    store = room.store
    access = Access(room)
    writing = Annotated[Acting, Depends(access.needs("accounts:write"))]
    operator_only = Annotated[Player, Depends(access.session_operator)]

    @routes.get("/api/admin/scopes")
    def scopes(who: operator_only) -> dict[str, str]:
        # What a token may be made for (the console's checkboxes), each scope's English.
        return dict(SCOPES)

    async def close(keys: list[str], reason: Refusal) -> None:
        for key in keys:  # its pages are closed at once, saying why
            await room.sockets.close_session(key, LOGGED_OUT, reason)

    @routes.post("/api/admin/accounts/{name}/rename")
    async def rename(who: writing, name: str, body: Rename) -> dict[str, Any]:
        try:
            kept, ended = await run_in_threadpool(
                accounts.rename, store, who.name, name, body.new_name, body.reason
            )
        except accounts.OperatorError as error:
            raise HTTPException(400, error) from None
        await close(ended, Refusal("renamed", name=kept))
        return {"name": kept, "sessions_ended": len(ended)}

    @routes.post("/api/admin/accounts/{name}/reset-link")
    def reset_link(who: writing, name: str, body: ResetLink) -> dict[str, Any]:
        try:
            token, expires = resets.make(store, who.name, name, body.reason)
        except accounts.OperatorError as error:
            raise HTTPException(400, error) from None
        return {"link": resets.PATH + token, "expires_at": expires}

    @routes.post("/api/admin/guests/prune")
    def prune(who: writing, body: Prune) -> dict[str, Any]:
        try:
            return guests.prune(store, who.name, body.unused_days)
        except accounts.OperatorError as error:
            raise HTTPException(400, error) from None

    @routes.get("/api/chips")
    def own_chips(request: Request) -> list[dict[str, Any]]:
        # The account's own chip moves (the history page): an operator's with its reason.
        player = room.sessions.player(request)
        return accounts.own_chip_moves(store, player.id)

    @routes.get("/reset/{token}", include_in_schema=False)
    def reset_page(token: str) -> Response:
        # The page is the same for every link; it asks /api/reset/<token> whose it is.
        return FileResponse(WEB / "reset.html", media_type="text/html")

    @routes.get("/api/reset/{token}")
    def reset_whose(token: str) -> dict[str, Any]:
        try:
            return {"name": resets.whose(store, token)}
        except resets.ResetRefused as error:
            raise HTTPException(404, error) from None

    @routes.post("/api/reset")
    async def reset_password(body: NewPassword, request: Request) -> dict[str, Any]:
        room.login_tries.take(address_of(request))
        try:
            auth.check_password(body.password)
            await run_in_threadpool(resets.whose, store, body.token)  # before the slow hash
            hashed = await room.hashing.run(functools.partial(auth.hash_password, body.password))
            name, ended = await run_in_threadpool(resets.use, store, body.token, hashed)
        except auth.AuthError as error:
            raise HTTPException(400, error) from None
        except resets.ResetRefused as error:
            raise HTTPException(404, error) from None
        await close(ended, Refusal("session_ended"))
        return {"name": name}

    return routes
