"""One-time password-reset links (docs/operators.md, "Accounts"): an operator makes one for an
account whose player lost the password, and gives it to them by hand (the room sends no mail).

A link holds a random secret (256 bits, ``secrets``); only its SHA-256 is stored, so the
database alone opens no account. It works once, within :data:`RESET_HOURS` of being made; a
newer link for the same account ends the older ones. Setting the password ends every session
of the account (whoever had it signed in is signed out). Both the making and the using are
lines of the event log.
"""

from __future__ import annotations

import hashlib
import secrets
import time

from sevenstud.refusals import Refusal
from sevenstud.server.operators import log
from sevenstud.server.operators.accounts import OperatorError, _account, _reason
from sevenstud.server.store import Session, Store, accounts
from sevenstud.server.store.models import PasswordReset, Player

RESET_HOURS = 24.0
"""How long a password-reset link works."""
PATH = "/reset/"
"""Where a link points: the page on which its player sets a new password."""


class ResetRefused(Refusal, ValueError):
    """A password-reset link that is not live (unknown, used or expired): nothing changed."""


def _hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def make(store: Store, operator: str, name: str, reason: str) -> tuple[str, float]:
    """A new link for account ``name`` (not a guest's): the secret token (shown once, never
    stored) and when it stops working."""
    reason = _reason(reason)
    token = secrets.token_urlsafe(32)
    now = time.time()
    expires = now + RESET_HOURS * 3600
    with store.transaction() as s:
        player = _account(s, name)
        if player.guest or player.password_hash is None:
            raise OperatorError("reset_for_guest", name=player.name)
        accounts.end_reset_links(s, player.id, now)  # the older ones end
        s.add(
            PasswordReset(
                token_hash=_hash(token),
                player_id=player.id,
                made_by=operator,
                created_at=now,
                expires_at=expires,
            )
        )
        log.write(s, operator, "reset_link", player.name, reason, expires_at=expires)
    return token, expires


def whose(store: Store, token: str) -> str:
    """The name of the account a live link ``token`` resets, or :class:`ResetRefused`."""
    with store.session() as s:
        row = _find(s, token)
        player = s.get(Player, row.player_id)
        assert player is not None  # a foreign key
        return player.name


def _find(s: Session, token: str) -> PasswordReset:
    if not isinstance(token, str) or not 20 <= len(token) <= 100:
        raise ResetRefused("reset_link_not_live")
    row = accounts.reset_link(s, _hash(token))
    if row is None or row.used_at is not None or row.expires_at <= time.time():
        raise ResetRefused("reset_link_not_live")
    return row


def use(store: Store, token: str, password_hash: str) -> tuple[str, list[str]]:
    """Set the password of the account a live link ``token`` resets to the one hashed as
    ``password_hash``, the link used up; every session of the account ended. Returns the
    account's name and the ended sessions' keys (the caller closes their sockets)."""
    with store.transaction() as s:
        row = _find(s, token)
        if not accounts.use_reset_link(s, row.id, time.time()):  # used twice at once: the other won
            raise ResetRefused("reset_link_not_live")
        player = s.get(Player, row.player_id)
        assert player is not None  # a foreign key
        player.password_hash = password_hash
        keys = accounts.end_sessions(s, player.id)
        log.write(
            s, player.name, "password_reset", player.name, "", link_by=row.made_by, sessions_ended=len(keys)
        )
        return player.name, keys
