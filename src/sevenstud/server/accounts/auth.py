"""Accounts: sign up and log in (argon2id), guests, login sessions, play chips and refills.

A session token is random (``secrets``, 256 bits) and only its SHA-256 is stored, so the
database alone never lets anyone log in. No function here logs a password or a token.

Names are one account whatever their case or Unicode form: each player row keeps
:func:`name_key` (NFKC, then case-folded) under a unique index, so ``alice`` and ``ALICE``
are one name. A session ends :data:`SESSION_IDLE_SECONDS` after it was last used or
:data:`SESSION_SECONDS` after the log-in, whichever comes first (:func:`delete_expired_sessions`
removes the rows). Checking a password takes as long for a name nobody has (a dummy hash is
checked), so the time of an answer does not tell which names exist.
"""

from __future__ import annotations

import datetime
import functools
import hashlib
import json
import re
import secrets
import threading
import time
import unicodedata
from collections.abc import Callable, Collection
from pathlib import Path

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from sevenstud.refusals import Refusal
from sevenstud.server.store import Store, accounts, ledger
from sevenstud.server.store.models import BANNED, LoginSession, Player

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
"""How long a login lasts at most (used or not)."""
SESSION_IDLE_SECONDS = 7 * 24 * 3600.0
"""A login not used for this long has ended."""
TOUCH_SECONDS = 3600.0
"""A session's last use is written at most this often (not at every request)."""
MIN_PASSWORD = 8

_NAME = re.compile(r"[A-Za-z0-9_-]{3,20}")
# argon2-cffi's PasswordHasher is argon2id with the RFC 9106 low-memory profile.
_HASHER = PasswordHasher()


class AuthError(Refusal, ValueError):
    """A sign-up, log-in or refill refused: the message says why (never the password)."""


def _hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def session_key(token: str) -> str:
    """What a session token is known by on the server (its SHA-256: the row's key)."""
    return _hash_token(token)


def name_key(name: str) -> str:
    """The form two names are compared in: NFKC, then case-folded (``ALICE``, ``alice`` and
    the full-width ``ａｌｉｃｅ`` are one name).

    >>> name_key("ＡＬＩＣＥ")
    'alice'
    """
    return unicodedata.normalize("NFKC", name).casefold()


def _new_player(store: Store, name: str, password_hash: str | None, guest: bool) -> int:
    key = name_key(name)
    with store.transaction() as s:
        if accounts.name_taken(s, name, key):
            raise AuthError("name_taken", name=repr(name))
        player = Player(
            name=name,
            name_key=key,
            password_hash=password_hash,
            guest=guest,
            balance=0,
            created_at=time.time(),
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
        ledger.move_balance(s, player.id, SIGN_UP_CHIPS)
        return player.id


WEB_CATALOGS = Path(__file__).resolve().parents[2] / "web" / "i18n"
"""The pages' catalogs (``<lang>.json``), where each language's word for the dealer is."""


@functools.cache
def dealer_words() -> tuple[str, ...]:
    """The dealer's name in every language the pages speak (``chat.dealer``: ``Dealer``,
    ``Diiler``, ...), as names are compared: the chat shows the dealer's lines under it, so no
    player's name may start with one of them."""
    words = set()
    for catalog in sorted(WEB_CATALOGS.glob("*.json")):
        word = json.loads(catalog.read_text(encoding="utf-8")).get("chat.dealer")
        if isinstance(word, str) and word.strip():
            words.add(name_key(word.strip()))
    return tuple(sorted(words))


def check_sign_up(name: str, password: str) -> str:
    """The name as it is kept (NFKC), or :class:`AuthError` saying what is wrong with either."""
    name = check_name(name)
    check_password(password)
    return name


def check_name(name: str) -> str:
    """A new name as it is kept (NFKC), or :class:`AuthError` saying what is wrong with it (a
    sign-up's rules, an operator's rename's too)."""
    if isinstance(name, str):
        name = unicodedata.normalize("NFKC", name)
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise AuthError("name_form")
    if name_key(name).startswith(("guest", "bot")):
        raise AuthError("name_reserved")
    plain = name_key(name).replace("_", "").replace("-", "")  # De_aler reads as Dealer
    for word in dealer_words():
        if plain.startswith(word):
            raise AuthError("name_kept_for_dealer", word=repr(word))
    return name


def check_password(password: str) -> None:
    """:class:`AuthError` when ``password`` is too short or too long for an account."""
    if not isinstance(password, str) or len(password) < MIN_PASSWORD:
        raise AuthError("password_short", count=MIN_PASSWORD)
    if len(password) > 200:
        raise AuthError("password_long")


def hash_password(password: str) -> str:
    """The password's argon2id hash (slow on purpose: run it in the hashing pool)."""
    return _HASHER.hash(password)


def sign_up(store: Store, name: str, password: str, hashed: str | None = None) -> int:
    """Make an account with a password; it starts with :data:`SIGN_UP_CHIPS`. Returns its id.
    ``hashed``: the password's hash made already (in the hashing pool)."""
    name = check_sign_up(name, password)
    return _new_player(store, name, hashed or hash_password(password), guest=False)


def guest(store: Store) -> int:
    """Make a guest account (no password, a generated name) with play chips; returns its id."""
    return _new_player(store, f"guest-{secrets.token_hex(4)}", None, guest=True)


_DUMMY_LOCK = threading.Lock()


@functools.cache
def _dummy_for(hasher: PasswordHasher) -> str:
    # Made once per hasher (its cost is in the hash), the first time a name nobody has is
    # checked: checked in place of a real hash, so it costs what a real one does.
    return hasher.hash(secrets.token_urlsafe(16))


def _dummy_hash() -> str:
    with _DUMMY_LOCK:  # made once, not by every thread that asks at the same moment
        return _dummy_for(_HASHER)


def login_refusal(store: Store, player_id: int) -> Refusal | None:
    """Why the account may not log in now (:func:`locked_out`), or None."""
    with store.session() as s:
        player = s.get(Player, player_id)
        return None if player is None else locked_out(player)


def find_login(store: Store, name: str) -> tuple[int | None, str | None]:
    """The account a log-in names (None: no such account, or one without a password) and the
    hash to check the password against (None for no account: :func:`password_matches` then
    checks a dummy one, so that checking takes as long). An account is found by its exact name
    first (two accounts whose names clashed before names were compared case-folded keep their
    own), then by :func:`name_key`."""
    player: Player | None = None
    if isinstance(name, str) and len(name) <= 40:
        with store.session() as s:
            player = accounts.player_exactly(s, name)
            if player is None:
                player = accounts.player_keyed(s, name_key(name))
    if player is None or player.password_hash is None:
        return None, None
    return player.id, player.password_hash


def password_matches(password_hash: str | None, password: str) -> bool:
    """Whether ``password`` is the one ``password_hash`` was made from (slow: argon2). None
    (no such account) checks a dummy hash, as slowly, and is False."""
    checked = _dummy_hash() if password_hash is None else password_hash
    try:
        matches = bool(_HASHER.verify(checked, password if isinstance(password, str) else ""))
    except (VerificationError, InvalidHashError):
        matches = False
    return matches and password_hash is not None


WRONG_LOGIN = "wrong_login"
"""The one answer for an unknown name and a wrong password (a refusal's code)."""


def log_in(
    store: Store, name: str, password: str, check: Callable[[str | None, str], bool] = password_matches
) -> str:
    """A new session token for a name and password; the same error, after as long, for an
    unknown name and a wrong password, so nobody learns which names exist."""
    player_id, password_hash = find_login(store, name)
    matches = check(password_hash, password)
    if player_id is None or not matches:
        raise AuthError(WRONG_LOGIN)
    return new_session(store, player_id)


def new_session(store: Store, player_id: int, lifetime: float = SESSION_SECONDS) -> str:
    """A fresh random session token for the account (stored hashed), lasting ``lifetime``
    at most."""
    token = secrets.token_urlsafe(32)
    now = time.time()
    with store.transaction() as s:
        s.add(
            LoginSession(
                token_hash=_hash_token(token),
                player_id=player_id,
                created_at=now,
                expires_at=now + lifetime,
                last_seen_at=now,
            )
        )
    return token


def locked_out(player: Player, now: float | None = None) -> Refusal | None:
    """Why ``player`` may not log in now (an operator suspended or banned the account, saying
    why: docs/operators.md), or None."""
    until = player.suspended_until
    if until is None or until <= (time.time() if now is None else now):
        return None
    why = player.suspended_reason or ""
    if until >= BANNED:
        return Refusal("banned_why", why=why)
    ends = datetime.datetime.fromtimestamp(until, datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    return Refusal("suspended_until", ends=ends, why=why)


def player_of(store: Store, token: str | None, idle: float = SESSION_IDLE_SECONDS) -> Player | None:
    """The account a live session token belongs to, or None (no such session, past its
    lifetime, or not used for ``idle`` seconds). A use is written at most every
    :data:`TOUCH_SECONDS` (or a tenth of ``idle``, when shorter)."""
    if not isinstance(token, str) or not token or len(token) > 200:
        return None
    now = time.time()
    key = _hash_token(token)
    with store.session() as s:
        login = s.get(LoginSession, key)
        if login is None or login.expires_at < now:
            return None
        seen = login.last_seen_at if login.last_seen_at is not None else login.created_at
        if seen + idle < now:
            return None
        player = s.get(Player, login.player_id)
        if player is None or locked_out(player, now) is not None:
            return None
    if now - seen > min(TOUCH_SECONDS, idle / 10):
        with store.transaction() as s:
            accounts.touch_sessions(s, [key], now)
    return player


def delete_expired_sessions(
    store: Store,
    idle: float = SESSION_IDLE_SECONDS,
    now: float | None = None,
    in_use: Collection[str] = (),
) -> set[str]:
    """Delete every session past its lifetime or idle too long; returns their keys (so that
    their sockets are closed). ``in_use``: the keys of sessions with a websocket open, which
    a player is using however long ago it was opened: they are idle for nobody, and only their
    lifetime ends them."""
    now = time.time() if now is None else now
    with store.transaction() as s:
        if in_use:
            accounts.touch_sessions(s, in_use, now)
        return accounts.end_idle_sessions(s, now, idle)


def log_out(store: Store, token: str) -> None:
    """End a session (nothing happens for an unknown token). A log-in or sign-up on a
    connection that had a session (a guest's) ends that one too: see app.py."""
    with store.transaction() as s:
        login = s.get(LoginSession, _hash_token(token))
        if login is not None:
            s.delete(login)


def refill(store: Store, player_id: int, today: datetime.date | None = None) -> int:
    """Bring a broke account (under :data:`REFILL_BELOW`) back to :data:`REFILL_CHIPS`, at
    most :data:`REFILLS_PER_DAY` times a day; returns the new balance."""
    day = (today or datetime.datetime.now(datetime.UTC).date()).isoformat()
    with store.transaction() as s:
        player = accounts.player_locked(s, player_id)
        if player is None:
            raise AuthError(f"no account {player_id}")
        if player.balance >= REFILL_BELOW:
            raise AuthError("refill_balance_high", limit=REFILL_BELOW, balance=player.balance)
        used = player.refills_that_day if player.refill_day == day else 0
        if used >= REFILLS_PER_DAY:
            raise AuthError("refills_used", count=REFILLS_PER_DAY)
        amount = REFILL_CHIPS - player.balance
        ledger.transfer(
            s, ledger.account(s, ledger.BANK), ledger.account(s, ledger.BALANCE, player.id), amount, "refill"
        )
        balance = ledger.move_balance(s, player.id, amount)
        player.refill_day, player.refills_that_day = day, used + 1
        return balance


__all__ = [
    "REFILLS_PER_DAY",
    "REFILL_BELOW",
    "REFILL_CHIPS",
    "SESSION_IDLE_SECONDS",
    "SESSION_SECONDS",
    "SIGN_UP_CHIPS",
    "WRONG_LOGIN",
    "AuthError",
    "check_name",
    "check_password",
    "check_sign_up",
    "delete_expired_sessions",
    "find_login",
    "guest",
    "hash_password",
    "log_in",
    "log_out",
    "name_key",
    "new_session",
    "password_matches",
    "player_of",
    "refill",
    "session_key",
    "sign_up",
]
