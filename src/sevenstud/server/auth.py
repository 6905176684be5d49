"""Accounts: sign up and log in (argon2id), guests, login sessions, play chips and refills.

A session token is random (``secrets``, 256 bits) and only its SHA-256 is stored, so the
database alone never lets anyone log in. No function here logs a password or a token.
"""

from __future__ import annotations

import datetime
import hashlib
import re
import secrets
import time

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import select

from sevenstud.server.store import Store, ledger
from sevenstud.server.store.models import LoginSession, Player

SIGN_UP_CHIPS = 1000
"""Play chips every new account (a guest too) starts with."""
REFILL_CHIPS = 1000
"""What a refill brings the balance up to."""
REFILL_BELOW = REFILL_CHIPS
"""A refill is for a balance under this (a balance at or above it is refused one). Never above
:data:`REFILL_CHIPS`: a refill only ever adds chips."""
REFILLS_PER_DAY = 2
"""Refills an account may have in one (UTC) day."""
SESSION_SECONDS = 30 * 24 * 3600.0
"""How long a login lasts."""
MIN_PASSWORD = 8

_NAME = re.compile(r"[A-Za-z0-9_-]{3,20}")
# argon2-cffi's PasswordHasher is argon2id with the RFC 9106 low-memory profile.
_HASHER = PasswordHasher()


class AuthError(ValueError):
    """A sign-up, log-in or refill refused: the message says why (never the password)."""


def _hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _new_player(store: Store, name: str, password_hash: str | None, guest: bool) -> int:
    with store.transaction() as s:
        if s.scalar(select(Player.id).where(Player.name == name)) is not None:
            raise AuthError(f"the name {name!r} is taken")
        player = Player(
            name=name, password_hash=password_hash, guest=guest, balance=0, created_at=time.time()
        )
        s.add(player)
        s.flush()
        # Play chips come from the bank: the ledger still sums to zero.
        ledger.transfer(
            s,
            ledger.account(s, ledger.BANK),
            ledger.account(s, ledger.BALANCE, player.id),
            SIGN_UP_CHIPS,
            "sign-up",
        )
        player.balance = SIGN_UP_CHIPS
        return player.id


def sign_up(store: Store, name: str, password: str) -> int:
    """Make an account with a password; it starts with :data:`SIGN_UP_CHIPS`. Returns its id."""
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise AuthError("a name is 3 to 20 letters, digits, '_' or '-'")
    if name.lower().startswith(("guest", "bot")):
        raise AuthError("names starting with 'guest' or 'bot' are kept for guests and bots")
    if not isinstance(password, str) or len(password) < MIN_PASSWORD:
        raise AuthError(f"a password has at least {MIN_PASSWORD} characters")
    if len(password) > 200:
        raise AuthError("a password has at most 200 characters")
    return _new_player(store, name, _HASHER.hash(password), guest=False)


def guest(store: Store) -> int:
    """Make a guest account (no password, a generated name) with play chips; returns its id."""
    return _new_player(store, f"guest-{secrets.token_hex(4)}", None, guest=True)


def log_in(store: Store, name: str, password: str) -> str:
    """A new session token for a name and password; the same error for an unknown name and a
    wrong password, so nobody learns which names exist."""
    with store.session() as s:
        player = s.scalar(select(Player).where(Player.name == name)) if isinstance(name, str) else None
    wrong = AuthError("no account with that name and password")
    if player is None or player.password_hash is None or not isinstance(password, str):
        raise wrong
    try:
        _HASHER.verify(player.password_hash, password)
    except (VerificationError, InvalidHashError):
        raise wrong from None
    return new_session(store, player.id)


def new_session(store: Store, player_id: int) -> str:
    """A fresh random session token for the account (stored hashed)."""
    token = secrets.token_urlsafe(32)
    now = time.time()
    with store.transaction() as s:
        s.add(
            LoginSession(
                token_hash=_hash_token(token),
                player_id=player_id,
                created_at=now,
                expires_at=now + SESSION_SECONDS,
            )
        )
    return token


def player_of(store: Store, token: str | None) -> Player | None:
    """The account a live session token belongs to, or None."""
    if not isinstance(token, str) or not token or len(token) > 200:
        return None
    with store.session() as s:
        login = s.get(LoginSession, _hash_token(token))
        if login is None or login.expires_at < time.time():
            return None
        return s.get(Player, login.player_id)


def log_out(store: Store, token: str) -> None:
    """End a session (nothing happens for an unknown token)."""
    with store.transaction() as s:
        login = s.get(LoginSession, _hash_token(token))
        if login is not None:
            s.delete(login)


def refill(store: Store, player_id: int, today: datetime.date | None = None) -> int:
    """Bring a broke account (under :data:`REFILL_BELOW`) back to :data:`REFILL_CHIPS`, at
    most :data:`REFILLS_PER_DAY` times a day; returns the new balance."""
    day = (today or datetime.datetime.now(datetime.UTC).date()).isoformat()
    with store.transaction() as s:
        player = s.get(Player, player_id, with_for_update=True)
        if player is None:
            raise AuthError(f"no account {player_id}")
        if player.balance >= REFILL_BELOW:
            raise AuthError(
                f"a refill is for a balance under {REFILL_BELOW} chips (you have {player.balance})"
            )
        used = player.refills_that_day if player.refill_day == day else 0
        if used >= REFILLS_PER_DAY:
            raise AuthError(f"{REFILLS_PER_DAY} refills a day, and you have had them today")
        amount = REFILL_CHIPS - player.balance
        ledger.transfer(
            s, ledger.account(s, ledger.BANK), ledger.account(s, ledger.BALANCE, player.id), amount, "refill"
        )
        player.balance += amount
        player.refill_day, player.refills_that_day = day, used + 1
        return player.balance


__all__ = [
    "REFILLS_PER_DAY",
    "REFILL_BELOW",
    "REFILL_CHIPS",
    "SIGN_UP_CHIPS",
    "AuthError",
    "guest",
    "log_in",
    "log_out",
    "new_session",
    "player_of",
    "refill",
    "sign_up",
]
