"""Who is logged in on a request or a socket: the one reading of the session cookie.

A session is an HttpOnly, SameSite=Strict cookie (:data:`COOKIE`) holding a random token
(:mod:`~sevenstud.server.accounts.auth` stores only its hash). Every route that acts for an
account asks :class:`Sessions` through FastAPI's dependencies: ``Depends(sessions.player)``
refuses a request that nobody is logged in on (401), ``Depends(sessions.maybe)`` answers None.
The websocket reads it once, when it opens (:meth:`Sessions.of_cookies`).
"""

from __future__ import annotations

from collections.abc import Mapping

from fastapi import HTTPException, Request, Response

from sevenstud.refusals import Refusal
from sevenstud.server.accounts import auth
from sevenstud.server.store import Store
from sevenstud.server.store.models import Player

COOKIE = "sevenstud_session"
"""The session cookie's name."""

LOGGED_OUT = 4003
"""The close code of a websocket whose login session ended (a log-out, or a log-in on top)."""

NOBODY = "not_logged_in"
"""The refusal of a request that needs an account and came with none (its code)."""


class Sessions:
    """The card room's login sessions over ``store``: a session unused for ``idle`` seconds
    ends, and none outlives ``lifetime`` (:class:`~sevenstud.server.limits.Limits`)."""

    def __init__(
        self, store: Store, idle: float = auth.SESSION_IDLE_SECONDS, lifetime: float = 30 * 24 * 3600.0
    ) -> None:
        self.store = store
        self.idle = idle
        self.lifetime = lifetime

    def of_cookies(self, cookies: Mapping[str, str]) -> Player | None:
        """The account whose live session the cookies carry, or None."""
        return auth.player_of(self.store, cookies.get(COOKIE), self.idle)

    def maybe(self, request: Request) -> Player | None:
        """A dependency: the account logged in on the request, or None (signed out is an
        answer, not an error, for the pages' "who is here?")."""
        return self.of_cookies(request.cookies)

    def player(self, request: Request) -> Player:
        """A dependency: the account logged in on the request; 401 when there is none."""
        found = self.of_cookies(request.cookies)
        if found is None:
            raise HTTPException(401, Refusal(NOBODY))
        return found

    def begin(self, request: Request, response: Response, player_id: int) -> None:
        """Log ``player_id`` in: a new session, its cookie set on ``response``. Secure when the
        client came over https: directly, or through a proxy named with --trusted-proxy (the
        edge set the scheme from its X-Forwarded-Proto; nobody else's)."""
        token = auth.new_session(self.store, player_id, self.lifetime)
        response.set_cookie(
            COOKIE,
            token,
            httponly=True,
            samesite="strict",
            secure=request.url.scheme == "https",
            max_age=int(self.lifetime),
        )

    def end(self, request: Request) -> str | None:
        """End the session the request came with (its row; its sockets are the caller's to
        close): its key, or None when it came with none."""
        token = request.cookies.get(COOKIE)
        if not token:
            return None
        auth.log_out(self.store, token)
        return auth.session_key(token)

    @staticmethod
    def forget(response: Response) -> None:
        """Clear the session cookie on ``response``."""
        response.delete_cookie(COOKIE, httponly=True, samesite="strict")
