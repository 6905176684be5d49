"""The card room's limits on what one client may make it spend (docs/security.md).

:class:`Limits` holds every limit with its default; ``sevenstud serve --limit NAME=VALUE``
changes one, and the tests build their own. The counters here are in memory, per server
process: a second process sharing the database keeps its own (so a client spreading its
requests over N servers gets N times each allowance: docs/security.md says why that is
acceptable for a play-chip room).

- :class:`Buckets`: "so many per window", per key (an address, an account), as token buckets.
- :class:`LoginGuard`: back-off after repeated failed log-ins, per account name and per address.
- :class:`HashPool`: argon2 in a few threads of its own with a bounded queue, so a flood of
  log-ins waits there and never in the threads every other request needs.
- :class:`Sockets`: the open websockets, counted per address and per account, and closed by
  login session (a log-out closes that session's sockets).

A limit refused is :class:`RateLimited`; the app answers it ``429`` (``503`` for a full hashing
queue) with ``Retry-After`` and a JSON body naming the limit.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import math
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from sevenstud.refusals import Refusal, Words

T = TypeVar("T")

MINUTE = 60.0
HOUR = 3600.0
DAY = 86400.0


PAGE_CONNECTIONS = 16
"""Connections an address may hold besides its most websockets: a browser's few for pages (six
per host in each), a tab or two."""


@dataclasses.dataclass(slots=True, frozen=True)
class Limits:
    """Every limit of the card room, with its default (docs/security.md gives the reasons)."""

    guests_per_address: int = 20
    """Guest accounts one address may make per ``guest_window`` (a burst of as many)."""
    guest_window: float = HOUR
    api_calls_per_token: int = 600
    """Calls one operator API token may make per ``api_window`` (a burst of as many): a script
    gone wrong cannot hold the room up."""
    api_window: float = MINUTE
    tables_per_account: int = 4
    """Open tables one account may own at once (closed ones do not count)."""
    tables_per_address: int = 20
    """Tables one address may open per ``table_window``."""
    table_window: float = HOUR
    tournaments_per_account: int = 2
    """Tournaments one account may have made and not yet over (registering or playing) at once:
    a player's own sit-and-go or two; the house's schedule is the operators' and not counted."""
    tournaments_per_address: int = 10
    """Tournaments one address may make per ``tournament_window`` (a burst of as many)."""
    tournament_window: float = HOUR
    entries_per_account: int = 20
    """Registrations and unregistrations (re-entries too) one account may make per
    ``entry_window`` (a burst of as many, then one each 3 s): a player enters a few
    tournaments, a loop of register-unregister is held to a trickle."""
    entry_window: float = MINUTE
    sockets_per_address: int = 64
    """Websockets open at once from one address."""
    sockets_per_account: int = 8
    """Websockets open at once logged in as one account (a few tabs and tables)."""
    login_attempts_per_address: int = 30
    """Log-in and sign-up attempts one address may make per ``login_window``."""
    login_window: float = 10 * MINUTE
    login_failures_per_account: int = 5
    """Failed log-ins in a row for one name before it is locked for ``lockout_seconds``."""
    login_failures_per_address: int = 20
    """Failed log-ins in a row from one address before it is locked."""
    lockout_seconds: float = 30.0
    """The first lock-out; each further failure while locked-out-prone doubles it."""
    lockout_max_seconds: float = 15 * MINUTE
    hash_threads: int = 2
    """Threads hashing passwords (argon2 takes a core each for a fraction of a second)."""
    hash_queue: int = 16
    """Passwords waiting to be hashed (running ones included) before a log-in is refused 503."""
    http_body_bytes: int = 64 * 1024
    """The largest HTTP request body (every JSON body of the API is far smaller)."""
    ws_frame_bytes: int = 64 * 1024
    """The largest websocket message the server reads at all (larger: closed with 1009);
    messages over :data:`~sevenstud.server.protocol.MAX_MESSAGE_BYTES` up to this get an error."""
    header_bytes: int = 16 * 1024
    """The largest head of an HTTP request (its request line and headers), refused 431 past it:
    the card room's own requests send a few hundred bytes, a browser's with its cookies a few
    KiB; httptools alone reads a head of any size (a 60 MiB one was answered 200)."""
    connections_per_address: int = 128
    """TCP connections open at once from one address (HTTP and websockets together; a trusted
    proxy's are not counted): twice ``sockets_per_address`` and a browser's few for pages.
    Never fewer than ``sockets_per_address`` and :data:`PAGE_CONNECTIONS` more
    (:meth:`most_connections_per_address`): a websocket is a connection too, so lifting the
    websockets' limit lifts this one."""
    header_seconds: float = 10.0
    """Time a connection has to send a whole request (headers and body) before it is closed."""
    keep_alive_seconds: int = 5
    """An idle kept-alive HTTP connection is closed after this."""
    ws_ping_seconds: float = 20.0
    """Websocket ping interval; a client that does not answer within as long is dropped."""
    session_idle: float = 7 * DAY
    """A login session not used for this long has ended."""
    session_lifetime: float = 30 * DAY
    """A login session ends this long after the log-in, used or not."""
    sweep_seconds: float = 10 * MINUTE
    """How often expired sessions are deleted and idle tables looked for."""
    idle_table_seconds: float = 10 * MINUTE
    """A table nobody but bots sits at, with nobody watching, is closed after this."""
    messages_per_second: float = 20.0
    """Websocket messages one connection may send a second (a burst of as many). An action its
    table takes, at its turn, gives its share back: the game paces those (a bot at a heads-up
    table with no think time acts dozens of times a second), and a flood is of refused ones."""
    chat_messages: int = 5
    """Chat lines one player may send per ``chat_window`` (a burst of as many), all tables."""
    chat_window: float = 10.0
    chat_reports: int = 5
    """Chat lines one account may report per ``chat_report_window`` (a burst of as many): a
    report is read by a person, so a flood of them is refused (docs/security.md)."""
    chat_report_window: float = 10 * MINUTE
    chat_log_days: float = 30.0
    """How long the chat log keeps a line for the operators (a reported line is kept in its
    report)."""
    downloads_per_account: int = 20
    """Downloads of all one's hands (``GET /api/hands/download``) one account may start per
    ``download_window`` (a burst of as many)."""
    download_window: float = HOUR
    downloads_at_once: int = 1
    """Downloads of all one's hands one account may have running at once."""
    pause_unwatched_bots: bool = True
    """A table nobody but bots sits at, with nobody watching, deals no hand."""
    sit_out_seconds: float = 10 * MINUTE
    """A person sitting out at a cash table this long is stood up, their chips back to their
    balance (0: never): an abandoned seat frees itself, and its table can close."""

    def most_connections_per_address(self) -> int:
        """The connections one address may hold open at once: ``connections_per_address``, but
        never fewer than its websockets may be and a browser's connections for pages besides.

        >>> Limits().most_connections_per_address()
        128
        >>> Limits(sockets_per_address=1000).most_connections_per_address()
        1016
        """
        return max(self.connections_per_address, self.sockets_per_address + PAGE_CONNECTIONS)

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """Every limit's name (what ``--limit NAME=VALUE`` takes)."""
        return tuple(f.name for f in dataclasses.fields(cls))

    def changed(self, assignment: str) -> Limits:
        """These limits with one changed by ``NAME=VALUE``; ValueError naming what was wrong.

        >>> Limits().changed("guests_per_address=500").guests_per_address
        500
        """
        name, sep, text = assignment.partition("=")
        name = name.strip().replace("-", "_")
        fields = {f.name: f for f in dataclasses.fields(self)}
        if not sep or name not in fields:
            raise ValueError(f"a limit is NAME=VALUE, NAME one of {', '.join(fields)}; not {assignment!r}")
        kind = type(getattr(self, name))
        value: Any
        try:
            if kind is bool:
                if text.strip().lower() not in ("true", "false", "on", "off", "1", "0"):
                    raise ValueError
                value = text.strip().lower() in ("true", "on", "1")
            else:
                value = kind(text)
        except ValueError:
            raise ValueError(f"limit {name}: {text!r} is not a {kind.__name__}") from None
        if kind is not bool and value < 0:
            raise ValueError(f"limit {name}: {text!r} is below 0")
        return dataclasses.replace(self, **{name: value})


class Allowance:
    """One connection's message allowance: a token bucket of ``per_second`` a second, a burst of
    as many (:attr:`Limits.messages_per_second`)."""

    __slots__ = ("_checked", "_left", "_per_second")

    def __init__(self, per_second: float, now: float) -> None:
        self._per_second = per_second
        self._left = per_second
        self._checked = now

    def take(self, now: float) -> bool:
        """Whether one more message is allowed ``now`` (and, if so, its share taken)."""
        self._left = min(self._per_second, self._left + (now - self._checked) * self._per_second)
        self._checked = now
        if self._left < 1:
            return False
        self._left -= 1
        return True

    def give_back(self) -> None:
        """The last message's share returned (an action the table took)."""
        self._left = min(self._per_second, self._left + 1)


class RateLimited(Refusal):
    """A limit refused a request: ``limit`` names it, ``code`` and ``params`` say why (a
    :class:`~sevenstud.refusals.Refusal`), ``retry_after`` says when to try again (seconds),
    ``status`` the HTTP status to answer with (429, or 503 when the server is busy)."""

    def __init__(
        self, limit: str, code: str, /, retry_after: float, status: int = 429, **params: Any
    ) -> None:
        super().__init__(code, **params)
        self.limit = limit
        self.message = str(self)
        self.retry_after = max(1, math.ceil(retry_after))
        self.status = status

    def body(self) -> dict[str, Any]:
        """The JSON body of the answer (``detail`` as every other refusal of the API has it)."""
        return {"detail": self.message, "limit": self.limit, "retry_after": self.retry_after}


@dataclasses.dataclass(slots=True)
class _Bucket:
    tokens: float
    at: float


class Buckets:
    """``count`` per ``window`` seconds for each key, as a token bucket (a burst of ``count``,
    then one each ``window / count`` seconds). Full buckets are forgotten (:meth:`prune`), so
    the memory held is that of the keys seen lately."""

    def __init__(self, limit: str, count: int, window: float, what: str) -> None:
        self.limit = limit
        self.count = count
        self.window = window
        self.what = Words(what)  # one of sevenstud.refusals.WORDS: said in a client's language
        self._buckets: dict[str, _Bucket] = {}
        self._lock = threading.Lock()  # taken from handler threads and the event loop alike

    def _level(self, key: str, now: float) -> _Bucket:
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = _Bucket(float(self.count), now)
        elif self.window > 0:
            bucket.tokens = min(self.count, bucket.tokens + (now - bucket.at) * self.count / self.window)
            bucket.at = now
        return bucket

    def take(self, key: str, now: float | None = None) -> None:
        """Use one of ``key``'s allowance, or raise :class:`RateLimited`."""
        now = time.monotonic() if now is None else now
        with self._lock:
            bucket = self._level(key, now)
            if bucket.tokens < 1:
                wait = (1 - bucket.tokens) * self.window / max(1, self.count)
                raise RateLimited(
                    self.limit,
                    "too_many",
                    retry_after=wait,
                    what=self.what,
                    count=self.count,
                    span=_span(self.window),
                    seconds=math.ceil(wait),
                )
            bucket.tokens -= 1

    def prune(self, now: float | None = None) -> None:
        """Forget the keys whose allowance is whole again."""
        now = time.monotonic() if now is None else now
        with self._lock:
            for key in list(self._buckets):
                if self._level(key, now).tokens >= self.count:
                    del self._buckets[key]


def _span(seconds: float) -> Words:
    if seconds >= HOUR and seconds % HOUR == 0:
        hours = int(seconds // HOUR)
        return Words("hour") if hours == 1 else Words("{count} hours", count=hours)
    if seconds >= MINUTE and seconds % MINUTE == 0:
        minutes = int(seconds // MINUTE)
        return Words("minute") if minutes == 1 else Words("{count} minutes", count=minutes)
    return Words("{count} s", count=f"{seconds:g}")


@dataclasses.dataclass(slots=True)
class _Failures:
    count: int = 0
    locked_until: float = 0.0
    at: float = 0.0


class LoginGuard:
    """Failed log-ins in a row, per account name (its normalised key, known or not: a lock-out
    says nothing about whether the account exists) and per address. Past the limit, each
    further failure locks the key for ``lockout_seconds``, doubling up to the maximum; a
    successful log-in clears the name's count (the address's too)."""

    def __init__(self, limits: Limits, clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.clock = clock
        self._keys: dict[tuple[str, str], _Failures] = {}
        self._lock = threading.Lock()

    def _thresholds(self) -> dict[str, int]:
        return {
            "account": self.limits.login_failures_per_account,
            "address": self.limits.login_failures_per_address,
        }

    def check(self, name_key: str, address: str) -> None:
        """Raise :class:`RateLimited` when the name or the address is locked out now."""
        now = self.clock()
        with self._lock:
            for kind, key in (("account", name_key), ("address", address)):
                failures = self._keys.get((kind, key))
                if failures is not None and failures.locked_until > now:
                    whom = Words("this account") if kind == "account" else Words("your address")
                    raise RateLimited(
                        f"login_failures_per_{kind}",
                        "too_many_failed_logins",
                        retry_after=failures.locked_until - now,
                        whom=whom,
                        seconds=math.ceil(failures.locked_until - now),
                    )

    def failed(self, name_key: str, address: str) -> None:
        """Count a failed log-in (a lock-out starts once past the limit)."""
        now = self.clock()
        with self._lock:
            for kind, key in (("account", name_key), ("address", address)):
                failures = self._keys.setdefault((kind, key), _Failures())
                failures.count += 1
                failures.at = now
                over = failures.count - self._thresholds()[kind]
                if over >= 0:
                    lock = min(self.limits.lockout_max_seconds, self.limits.lockout_seconds * 2**over)
                    failures.locked_until = now + lock

    def succeeded(self, name_key: str, address: str) -> None:
        """A log-in that worked: the name's and the address's counts start again."""
        with self._lock:
            self._keys.pop(("account", name_key), None)
            self._keys.pop(("address", address), None)

    def prune(self) -> None:
        """Forget counts whose lock ran out a while ago (a lock-out's maximum) and are quiet."""
        now = self.clock()
        with self._lock:
            quiet = self.limits.lockout_max_seconds
            for key, failures in list(self._keys.items()):
                if failures.locked_until < now and now - failures.at > quiet:
                    del self._keys[key]


class HashPool:
    """argon2 work (hashing a new password, checking one) in ``threads`` threads of its own,
    at most ``queue`` jobs waiting or running: a further one is refused at once with
    :class:`RateLimited` (status 503), so a flood of log-ins neither stalls the threads the
    other requests run in nor grows a queue without end."""

    def __init__(self, threads: int, queue: int) -> None:
        self._pool = ThreadPoolExecutor(max(1, threads), thread_name_prefix="argon2")
        self._slots = threading.BoundedSemaphore(max(1, queue))

    async def run(self, work: Callable[[], T]) -> T:
        """Run ``work`` in the pool and return its result (or raise its error)."""
        if not self._slots.acquire(blocking=False):
            raise RateLimited("hash_queue", "passwords_busy", retry_after=1, status=503)
        try:
            future = self._pool.submit(work)
        except BaseException:
            self._slots.release()
            raise
        future.add_done_callback(lambda _f: self._slots.release())
        return await asyncio.wrap_future(future)

    def close(self) -> None:
        """Stop the threads (jobs running finish)."""
        self._pool.shutdown(wait=False, cancel_futures=True)


@dataclasses.dataclass(slots=True)
class _Socket:
    address: str
    account: int | None
    session: str | None
    close: Callable[[int, Refusal], Awaitable[None]]


class Sockets:
    """The open websockets: counted per address and per account (:meth:`open` refuses past
    the limits) and closed by login session (:meth:`close_session`, at a log-out)."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self._open: dict[int, _Socket] = {}
        self._by_address: dict[str, int] = {}
        self._by_account: dict[int, int] = {}
        self._next = 0

    def open(
        self,
        address: str,
        account: int | None,
        session: str | None,
        close: Callable[[int, Refusal], Awaitable[None]],
    ) -> int:
        """Count a new socket (its handle is returned) or raise :class:`RateLimited`."""
        if self._by_address.get(address, 0) >= self.limits.sockets_per_address:
            raise RateLimited(
                "sockets_per_address",
                "connections_per_address",
                retry_after=5,
                count=self.limits.sockets_per_address,
            )
        if account is not None and self._by_account.get(account, 0) >= self.limits.sockets_per_account:
            raise RateLimited(
                "sockets_per_account",
                "connections_per_account",
                retry_after=5,
                count=self.limits.sockets_per_account,
            )
        self._next += 1
        self._open[self._next] = _Socket(address, account, session, close)
        self._by_address[address] = self._by_address.get(address, 0) + 1
        if account is not None:
            self._by_account[account] = self._by_account.get(account, 0) + 1
        return self._next

    def closed(self, handle: int) -> None:
        """A socket went away (a handle already closed is nothing)."""
        socket = self._open.pop(handle, None)
        if socket is None:
            return
        _drop_one(self._by_address, socket.address)
        if socket.account is not None:
            _drop_one(self._by_account, socket.account)

    async def close_session(self, session: str, code: int, reason: Refusal) -> int:
        """Close every socket opened on login session ``session``; returns how many."""
        found = [(h, s) for h, s in self._open.items() if s.session == session]
        for handle, socket in found:
            self.closed(handle)
            with contextlib.suppress(Exception):  # a socket already gone is closed enough
                await socket.close(code, reason)
        return len(found)

    def sessions(self) -> set[str]:
        """The login sessions that have a socket open (in use, however long ago it opened)."""
        return {s.session for s in self._open.values() if s.session is not None}

    def __len__(self) -> int:
        return len(self._open)


class Connections:
    """The TCP connections open at once, per address (:attr:`Limits.connections_per_address`):
    :meth:`open` says whether one more is allowed (and counts it), :meth:`closed` lets it go.
    The addresses in ``exempt`` (trusted proxies: every client behind one shares its address)
    are not counted. Used on the server's event loop only, so without a lock."""

    __slots__ = ("_by_address", "exempt", "most")

    def __init__(self, most: int, exempt: frozenset[str] = frozenset()) -> None:
        self.most = most
        self.exempt = exempt
        self._by_address: dict[str, int] = {}

    def open(self, address: str) -> bool:
        """Count a new connection from ``address``; False (not counted) when it has the most."""
        if address in self.exempt:
            return True
        count = self._by_address.get(address, 0)
        if count >= self.most:
            return False
        self._by_address[address] = count + 1
        return True

    def closed(self, address: str) -> None:
        """A connection :meth:`open` counted went away."""
        if address not in self.exempt:
            _drop_one(self._by_address, address)

    def __len__(self) -> int:
        return sum(self._by_address.values())


def _drop_one(counts: dict[Any, int], key: Any) -> None:
    left = counts.get(key, 0) - 1
    if left > 0:
        counts[key] = left
    else:
        counts.pop(key, None)


__all__ = ["Buckets", "Connections", "HashPool", "Limits", "LoginGuard", "RateLimited", "Sockets"]
