"""The operator API, ``/api/admin/`` (docs/operators.md, "The operator API"): accounts, chip
moves, suspensions, the event log and the API's own tokens, for the room's operators only.

Who may call a route is :mod:`.access`'s to say (an operator's fresh session, or a token with
the route's scope). Each action is written in the event log by the operator's name or the
token's. Tokens themselves are made and revoked by an operator's session only.
"""

# No `from __future__ import annotations`: FastAPI reads the routes' annotations as objects.

import time
from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, HTTPException, Query, Request
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, ConfigDict, Field

from sevenstud.refusals import Refusal
from sevenstud.server.accounts import auth
from sevenstud.server.accounts.sessions import LOGGED_OUT
from sevenstud.server.cardroom import CardRoom
from sevenstud.server.operators import accounts, log, tokens
from sevenstud.server.operators.access import Access, Acting
from sevenstud.server.store.models import Player
from sevenstud.server.web import RowId


class ChipMove(BaseModel):
    """Chips given from the bank (negative: taken back to it), and why."""

    model_config = ConfigDict(strict=True, extra="forbid")
    amount: int = Field(ge=-1_000_000_000, le=1_000_000_000)
    reason: str = Field(max_length=500)


class Suspension(BaseModel):
    """A suspension for ``days`` (None: a ban, for good), and why."""

    model_config = ConfigDict(strict=True, extra="forbid")
    days: float | None = Field(default=None, gt=0, le=3650)
    reason: str = Field(max_length=500)


class Reason(BaseModel):
    """Why (lifting a suspension)."""

    model_config = ConfigDict(strict=True, extra="forbid")
    reason: str = Field(max_length=500)


class Role(BaseModel):
    """``operator`` or ``player``."""

    model_config = ConfigDict(strict=True, extra="forbid")
    role: str = Field(pattern="^(operator|player)$")


class NewToken(BaseModel):
    """A token to make: its label and scopes (:data:`sevenstud.server.operators.SCOPES`)."""

    model_config = ConfigDict(strict=True, extra="forbid")
    label: str = Field(max_length=60)
    scopes: list[str] = Field(max_length=10)


def router(room: CardRoom) -> APIRouter:
    """The operator API over the card room ``room``."""
    routes = APIRouter(prefix="/api/admin")
    store = room.store

    access = Access(room)

    reading = Annotated[Acting, Depends(access.needs("accounts:read"))]
    writing = Annotated[Acting, Depends(access.needs("accounts:write"))]
    logged = Annotated[Acting, Depends(access.needs("events:read"))]
    operator_only = Annotated[Player, Depends(access.session_operator)]

    def refused(error: accounts.OperatorError) -> HTTPException:
        return HTTPException(400, error)

    @routes.get("/accounts")
    def find(who: reading, q: Annotated[str, Query(max_length=40)] = "") -> list[dict[str, Any]]:
        return accounts.find(store, q)

    @routes.get("/accounts/{name}")
    def look(who: reading, name: str) -> dict[str, Any]:
        try:
            return accounts.look(store, name)
        except accounts.OperatorError as error:
            raise HTTPException(404, str(error)) from None

    @routes.post("/accounts/{name}/chips")
    def chips(who: writing, name: str, body: ChipMove) -> dict[str, Any]:
        try:
            return {"balance": accounts.move_chips(store, who.name, name, body.amount, body.reason)}
        except accounts.OperatorError as error:
            raise refused(error) from None

    @routes.post("/accounts/{name}/suspend")
    async def suspend(who: writing, name: str, body: Suspension) -> dict[str, Any]:
        until = None if body.days is None else time.time() + body.days * 86400
        try:
            ended = await run_in_threadpool(accounts.suspend, store, who.name, name, until, body.reason)
        except accounts.OperatorError as error:
            raise refused(error) from None
        reason = Refusal("banned") if until is None else Refusal("suspended")
        for key in ended:  # its pages are closed at once, saying why
            await room.sockets.close_session(key, LOGGED_OUT, reason)
        stood = await room.stand_up_everywhere(name)
        return {"suspended": True, "until": until, "sessions_ended": len(ended), "tables_left": stood}

    @routes.post("/accounts/{name}/lift")
    def lift(who: writing, name: str, body: Reason) -> dict[str, Any]:
        try:
            accounts.lift(store, who.name, name, body.reason)
        except accounts.OperatorError as error:
            raise refused(error) from None
        return {"suspended": False}

    @routes.post("/accounts/{name}/role")
    def role(who: writing, name: str, body: Role) -> dict[str, Any]:
        if body.role != accounts.OPERATOR and auth.name_key(name) == auth.name_key(who.name):
            raise HTTPException(400, Refusal("operator_own_role"))
        try:
            accounts.set_role(store, who.name, name, body.role)
        except accounts.OperatorError as error:
            raise refused(error) from None
        return {"role": body.role}

    @routes.get("/events")
    def events(
        who: logged,
        action: Annotated[str | None, Query(max_length=40)] = None,
        target: Annotated[str | None, Query(max_length=60)] = None,
        operator_name: Annotated[str | None, Query(alias="operator", max_length=60)] = None,
        limit: Annotated[int, Query(ge=1, le=1000)] = 100,
        before: Annotated[int | None, Query(ge=1)] = None,
    ) -> list[dict[str, Any]]:
        wanted = log.Filter(action=action, target=target, operator=operator_name, limit=limit, before=before)
        return log.lines(store, wanted)

    @routes.get("/tokens")
    def token_list(who: operator_only) -> list[dict[str, Any]]:
        return tokens.listed(store)

    @routes.post("/tokens")
    def token_made(who: operator_only, body: NewToken) -> dict[str, Any]:
        try:
            token_id, token = tokens.make(store, who.name, body.label, body.scopes)
        except accounts.OperatorError as error:
            raise refused(error) from None
        return {"id": token_id, "token": token}

    @routes.post("/tokens/{token_id}/revoke")
    def token_revoked(who: operator_only, token_id: RowId) -> dict[str, Any]:
        try:
            tokens.revoke(store, who.name, token_id)
        except accounts.OperatorError as error:
            raise refused(error) from None
        return {"revoked": token_id}

    return routes


def operators_openapi(app: FastAPI, room: CardRoom) -> None:
    """``GET /openapi.json``, the app's own OpenAPI description, to an operator's fresh session
    only (``--api-docs`` serves it to everyone, with ``/docs``)."""

    @app.get("/openapi.json", include_in_schema=False)
    def described(request: Request) -> dict[str, Any]:
        player = room.sessions.player(request)
        if player.role != accounts.OPERATOR:
            raise HTTPException(403, Refusal("operators_only"))
        return app.openapi()
