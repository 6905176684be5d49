"""The operator API, ``/api/admin/`` (docs/operators.md, "The operator API"): accounts, chip
moves, suspensions and the event log, for the room's operators only.

Every route needs an operator's session no older than :data:`FRESH_SECONDS`: an operator who
signed in longer ago signs in again (the password again), so that a session left open on a
shared computer cannot move chips an hour later. A player's or a guest's session is refused
403, no session 401. Each action is written in the event log with the operator's name.
"""

# No `from __future__ import annotations`: FastAPI reads the routes' annotations as objects.

import time
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Query, Request
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, ConfigDict, Field

from sevenstud.server.accounts import auth
from sevenstud.server.accounts.sessions import COOKIE, LOGGED_OUT
from sevenstud.server.cardroom import CardRoom
from sevenstud.server.operators import accounts, log
from sevenstud.server.store.models import LoginSession, Player

FRESH_SECONDS = 5 * 60.0
"""How long after signing in an operator may act without giving the password again."""


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


def router(room: CardRoom) -> APIRouter:
    """The operator API over the card room ``room``."""
    routes = APIRouter(prefix="/api/admin")
    store = room.store

    def operator(request: Request) -> Player:
        player = room.sessions.player(request)  # 401 when nobody is logged in
        if player.role != accounts.OPERATOR:
            raise HTTPException(403, "this is for the room's operators")
        token = request.cookies.get(COOKIE, "")
        with store.session() as s:
            login = s.get(LoginSession, auth.session_key(token))
        if login is None or time.time() - login.created_at > FRESH_SECONDS:
            raise HTTPException(401, "sign in again: an operator acts within 5 minutes of signing in")
        return player

    acting = Annotated[Player, Depends(operator)]

    def refused(error: accounts.OperatorError) -> HTTPException:
        return HTTPException(400, str(error))

    @routes.get("/accounts")
    def find(who: acting, q: Annotated[str, Query(max_length=40)] = "") -> list[dict[str, Any]]:
        return accounts.find(store, q)

    @routes.get("/accounts/{name}")
    def look(who: acting, name: str) -> dict[str, Any]:
        try:
            return accounts.look(store, name)
        except accounts.OperatorError as error:
            raise HTTPException(404, str(error)) from None

    @routes.post("/accounts/{name}/chips")
    def chips(who: acting, name: str, body: ChipMove) -> dict[str, Any]:
        try:
            return {"balance": accounts.move_chips(store, who.name, name, body.amount, body.reason)}
        except accounts.OperatorError as error:
            raise refused(error) from None

    @routes.post("/accounts/{name}/suspend")
    async def suspend(who: acting, name: str, body: Suspension) -> dict[str, Any]:
        until = None if body.days is None else time.time() + body.days * 86400
        try:
            ended = await run_in_threadpool(accounts.suspend, store, who.name, name, until, body.reason)
        except accounts.OperatorError as error:
            raise refused(error) from None
        reason = "this account is banned" if until is None else "this account is suspended"
        for key in ended:  # its pages are closed at once, saying why
            await room.sockets.close_session(key, LOGGED_OUT, reason)
        stood = await room.stand_up_everywhere(name)
        return {"suspended": True, "until": until, "sessions_ended": len(ended), "tables_left": stood}

    @routes.post("/accounts/{name}/lift")
    def lift(who: acting, name: str, body: Reason) -> dict[str, Any]:
        try:
            accounts.lift(store, who.name, name, body.reason)
        except accounts.OperatorError as error:
            raise refused(error) from None
        return {"suspended": False}

    @routes.post("/accounts/{name}/role")
    def role(who: acting, name: str, body: Role) -> dict[str, Any]:
        if body.role != accounts.OPERATOR and auth.name_key(name) == auth.name_key(who.name):
            raise HTTPException(400, "an operator does not revoke their own role: another operator does")
        try:
            accounts.set_role(store, who.name, name, body.role)
        except accounts.OperatorError as error:
            raise refused(error) from None
        return {"role": body.role}

    @routes.get("/events")
    def events(
        who: acting,
        action: Annotated[str | None, Query(max_length=40)] = None,
        target: Annotated[str | None, Query(max_length=60)] = None,
        operator_name: Annotated[str | None, Query(alias="operator", max_length=60)] = None,
        limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    ) -> list[dict[str, Any]]:
        wanted = log.Filter(action=action, target=target, operator=operator_name, limit=limit)
        return log.lines(store, wanted)

    return routes
