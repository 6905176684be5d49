"""The account's HTTP routes: play as a guest, sign up, log in and out, who is logged in, and
the refill of play chips (docs/protocol.md, "Accounts").

A log-in, a sign-up or a new guest replaces the session the request came with (its token is
dead at once, and so are the sockets opened under it); a password is checked in the hashing
pool's threads (:class:`~sevenstud.server.limits.HashPool`), never on the event loop, and a
name nobody has is checked against a dummy hash, as slow as a real one.
"""

# No `from __future__ import annotations`: FastAPI reads the routes' dependencies (the local
# `current` alias) from the annotations as objects, at definition.

import functools
from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Request, Response
from fastapi.concurrency import run_in_threadpool
from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import HTTPConnection

from sevenstud.refusals import Refusal
from sevenstud.server.accounts import auth
from sevenstud.server.accounts.sessions import Sessions
from sevenstud.server.limits import Buckets, HashPool, LoginGuard
from sevenstud.server.store.models import Player


class Credentials(BaseModel):
    """A sign-up or a log-in (strict: strings are strings, as for every body and message)."""

    model_config = ConfigDict(strict=True)

    name: str = Field(max_length=40)
    password: str = Field(max_length=200)


def address_of(request: HTTPConnection) -> str:
    """The client's address. The edge has put a trusted proxy's X-Forwarded-For here already
    (and only then)."""
    return request.client.host if request.client is not None else "unknown"


def router(
    sessions: Sessions,
    *,
    guests_made: Buckets,
    login_tries: Buckets,
    login_guard: LoginGuard,
    hashing: HashPool,
    close_sockets: Callable[[str | None], Awaitable[None]],
) -> APIRouter:
    """The account routes over ``sessions``; ``close_sockets`` closes the sockets of a session
    that ended (by its key)."""
    routes = APIRouter()
    store = sessions.store
    current = Annotated[Player, Depends(sessions.player)]

    def account(player_id: int) -> dict[str, Any]:
        with store.session() as s:
            player = s.get(Player, player_id)
            assert player is not None
            return {
                "id": player.id,
                "name": player.name,
                "balance": player.balance,
                "guest": player.guest,
                # The console's link and page are drawn for operators only (the API checks
                # the role again on every call: this only says what to show).
                "operator": player.role == "operator",
                # The refill's terms, so that a page never writes its own figures.
                "refill_to": auth.REFILL_CHIPS,
                "refill_below": auth.REFILL_BELOW,
            }

    def log_in_as(request: Request, response: Response, player_id: int) -> tuple[dict[str, Any], str | None]:
        old = sessions.end(request)  # rotated: the session the request came with is dead
        sessions.begin(request, response, player_id)
        return account(player_id), old

    @routes.post("/api/guest")
    async def guest(request: Request, response: Response) -> dict[str, Any]:
        guests_made.take(address_of(request))
        made, old = await run_in_threadpool(lambda: log_in_as(request, response, auth.guest(store)))
        await close_sockets(old)
        return made

    @routes.post("/api/signup")
    async def sign_up(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
        login_tries.take(address_of(request))
        try:
            name = auth.check_sign_up(body.name, body.password)
            hashed = await hashing.run(functools.partial(auth.hash_password, body.password))

            def make() -> tuple[dict[str, Any], str | None]:
                # The session the sign-up came with (a guest's) ends: a new login, a new token.
                return log_in_as(request, response, auth.sign_up(store, name, body.password, hashed))

            made, old = await run_in_threadpool(make)
        except auth.AuthError as error:
            raise HTTPException(400, error) from None
        await close_sockets(old)
        return made

    @routes.post("/api/login")
    async def log_in(body: Credentials, request: Request, response: Response) -> dict[str, Any]:
        address = address_of(request)
        login_tries.take(address)
        key = auth.name_key(body.name)
        login_guard.check(key, address)
        player_id, password_hash = await run_in_threadpool(auth.find_login, store, body.name)
        # A name nobody has is checked against a dummy hash: as slow as a real one.
        matches = await hashing.run(functools.partial(auth.password_matches, password_hash, body.password))
        if player_id is None or not matches:
            login_guard.failed(key, address)
            raise HTTPException(401, Refusal(auth.WRONG_LOGIN))
        login_guard.succeeded(key, address)
        refusal = await run_in_threadpool(auth.login_refusal, store, player_id)
        if refusal is not None:  # the password was right: an operator suspended the account
            raise HTTPException(403, refusal)
        made, old = await run_in_threadpool(log_in_as, request, response, player_id)
        await close_sockets(old)
        return made

    @routes.post("/api/logout")
    async def log_out(request: Request, response: Response) -> dict[str, Any]:
        old = await run_in_threadpool(sessions.end, request)
        await close_sockets(old)  # a socket opened before the log-out acts for nobody after it
        sessions.forget(response)
        return {"logged_out": True}

    @routes.get("/api/me")
    def me(player: current) -> dict[str, Any]:
        return account(player.id)

    @routes.get("/api/session")
    def session(player: Annotated[Player | None, Depends(sessions.maybe)]) -> dict[str, Any]:
        # The pages' question "who is logged in here?": signed out is an answer, not an error
        # (a 401 would be logged in every signed-out page's console).
        return {"account": None if player is None else account(player.id)}

    @routes.post("/api/refill")
    def refill(player: current) -> dict[str, Any]:
        try:
            auth.refill(store, player.id)
        except auth.AuthError as error:
            raise HTTPException(400, error) from None
        return account(player.id)

    return routes
