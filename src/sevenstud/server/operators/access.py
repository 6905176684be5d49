"""Who may call the operator API, as FastAPI dependencies that every operator router shares.

A route is called with an operator's session no older than :data:`FRESH_SECONDS` (an operator
who signed in longer ago signs in again, the password again, so that a session left open on a
shared computer cannot move chips an hour later), or with a token of the API
(``Authorization: Bearer ssk_...``, :mod:`.tokens`) whose scopes allow it. A player's or a
guest's session is refused 403, nothing at all 401. Every call with a token is written in the
event log, the refused ones too, and each token's calls are limited
(``api_calls_per_token``).
"""

# No `from __future__ import annotations`: FastAPI reads the dependency's annotations.

import time
from collections.abc import Callable
from dataclasses import dataclass

from fastapi import HTTPException, Request

from sevenstud.refusals import Refusal
from sevenstud.server.accounts import auth
from sevenstud.server.accounts.sessions import COOKIE
from sevenstud.server.cardroom import CardRoom
from sevenstud.server.limits import Buckets
from sevenstud.server.operators import SCOPES, log, tokens
from sevenstud.server.operators.accounts import OPERATOR
from sevenstud.server.store.models import LoginSession, Player

FRESH_SECONDS = 5 * 60.0
"""How long after signing in an operator may act without giving the password again."""


@dataclass(frozen=True, slots=True)
class Acting:
    """Who acts on the operator API: an operator's session (every scope), or a token (its own)."""

    name: str
    scopes: frozenset[str]
    token: bool


class Access:
    """The operator API's dependencies over the card room ``room``: :meth:`needs` a scope,
    :meth:`session_operator` an operator's own fresh session (tokens are made and revoked by
    one)."""

    def __init__(self, room: CardRoom) -> None:
        self.room = room
        limits = room.limits
        per_token = limits.api_calls_per_token
        self.calls = Buckets("api_calls_per_token", per_token, limits.api_window, "operator API calls")

    def session_operator(self, request: Request) -> Player:
        """The operator whose session signed in within :data:`FRESH_SECONDS` made ``request``."""
        player = self.room.sessions.player(request)  # 401 when nobody is logged in
        if player.role != OPERATOR:
            raise HTTPException(403, Refusal("operators_only"))
        token = request.cookies.get(COOKIE, "")
        with self.room.store.session() as s:
            login = s.get(LoginSession, auth.session_key(token))
        if login is None or time.time() - login.created_at > FRESH_SECONDS:
            raise HTTPException(401, Refusal("operator_sign_in_again"))
        return player

    def needs(self, scope: str) -> Callable[[Request], Acting]:
        """The dependency of a route that needs ``scope`` (one of
        :data:`sevenstud.server.operators.SCOPES`): an operator's fresh session, or a live token
        with that scope (each of its calls counted and written in the log)."""
        if scope not in SCOPES:
            raise ValueError(f"no scope {scope!r}: one of {', '.join(SCOPES)}")
        store = self.room.store

        def who(request: Request) -> Acting:
            given = request.headers.get("authorization", "")
            if not given.lower().startswith("bearer "):
                player = self.session_operator(request)
                return Acting(player.name, frozenset(SCOPES), token=False)
            caller = tokens.caller(store, given[7:].strip())
            if caller is None:
                raise HTTPException(401, Refusal("token_not_live"))
            self.calls.take(str(caller.token_id))
            allowed = scope in caller.scopes
            with store.transaction() as s:  # every call, the refused ones too
                where = {"method": request.method, "path": request.url.path, "allowed": allowed}
                log.write(s, caller.name, "api_call", None, "", **where)
            if not allowed:
                raise HTTPException(403, Refusal("token_lacks_scope", scope=scope))
            return Acting(caller.name, caller.scopes, token=True)

        return who


__all__ = ["FRESH_SECONDS", "Access", "Acting"]
