"""The card room's edge: what every request and websocket passes before the app sees it.

:class:`Edge` is one ASGI middleware, the outermost (docs/security.md):

- the ``Host`` header must name this server (its public URL, a host given with
  ``--allowed-host``, or, when the public URL is a loopback address, any loopback name): a page
  of another name that resolves to this address (DNS rebinding) is refused;
- a websocket's ``Origin``, when sent, must be this server's own (or one given with
  ``--allowed-origin``);
- a state-changing request (POST, PUT, PATCH, DELETE) sent by a browser from another site is
  refused (``Sec-Fetch-Site`` cross-site or same-site, or an ``Origin`` not ours), and a body
  that is not JSON is refused (415): another site can no longer post a form or ``text/plain``;
- a body over the limit is refused 413, whether its ``Content-Length`` says so or its bytes do;
- every response gets ``X-Frame-Options: DENY``, ``X-Content-Type-Options: nosniff``,
  ``Referrer-Policy: same-origin`` and a Content-Security-Policy (the pages set their own, with
  ``frame-ancestors 'none'``; everything else ``default-src 'none'``), and every ``/api/``
  answer ``Cache-Control: no-store`` (an account's own answers are kept by no cache);
- a JSON body is read whole (it is small) and one holding a lone surrogate refused 422,
  naming the field, before any route sees it (its 422 could not have been encoded);
- ``X-Forwarded-Proto`` and ``X-Forwarded-For`` are read only from a proxy named with
  ``--trusted-proxy``: they set the scheme (so the cookie's ``Secure``) and the client's
  address (so the limits per address).

:func:`server_options` are uvicorn's settings that go with it (and :func:`http_protocol`, the HTTP
protocol bounding a request's head, the connections per address and the time to send a request):
the largest websocket message,
pings, the keep-alive and the time a connection has to send its request.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import re
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from sevenstud.refusals import Refusal, Words
from sevenstud.server.answers import VALIDATION_WORDS, validation_errors
from sevenstud.server.i18n import close_reason, negotiate, say
from sevenstud.server.limits import Connections, Limits

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
API_CSP = "default-src 'none'; frame-ancestors 'none'"
"""The Content-Security-Policy of every answer that is not a page: nothing loads, nothing frames it."""
DOCS_CSP = (
    "default-src 'none'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "img-src 'self' data: https://fastapi.tiangolo.com; "
    "connect-src 'self'; worker-src blob:; frame-ancestors 'none'"
)
"""``/docs`` and ``/redoc`` (only served with ``--api-docs``) load FastAPI's scripts from a CDN."""
COMMON_HEADERS = (
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
)
NO_STORE = (b"cache-control", b"no-store")
"""Every ``/api/`` answer's (unless the route set its own), the edge's refusals' too."""
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "[::1]", "::1"})


def _origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def _host_name(host: str) -> str:
    """``host[:port]`` without its port (an IPv6 literal keeps its brackets)."""
    if host.startswith("["):
        return host.split("]", 1)[0] + "]"
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def _is_loopback(name: str) -> bool:
    if name in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(name.strip("[]")).is_loopback
    except ValueError:
        return False


@dataclass(slots=True)
class Policy:
    """Who the edge lets in: the public URL, more origins and hosts, the proxies trusted."""

    public_url: str
    allowed_origins: tuple[str, ...] = ()
    allowed_hosts: tuple[str, ...] = ()
    trusted_proxies: tuple[str, ...] = ()
    body_bytes: int = Limits().http_body_bytes
    docs: bool = False
    _hosts: frozenset[str] = field(init=False, default=frozenset())
    _origins: frozenset[str] = field(init=False, default=frozenset())
    _loopback: bool = field(init=False, default=False)

    def __post_init__(self) -> None:
        public = urlsplit(self.public_url)
        hosts = {public.netloc.lower(), *(h.lower() for h in self.allowed_hosts)}
        default_port = {"http": 80, "https": 443}.get(public.scheme)
        if public.port is None or public.port == default_port:
            hosts.add((public.hostname or "").lower())
        self._hosts = frozenset(hosts)
        self._origins = frozenset(
            {_origin_of(self.public_url), *(o.lower().rstrip("/") for o in self.allowed_origins)}
        )
        self._loopback = _is_loopback((public.hostname or "").lower())

    def host_allowed(self, host: str) -> bool:
        """Whether a ``Host`` header names this server."""
        host = host.lower()
        if host in self._hosts:
            return True
        return self._loopback and _is_loopback(_host_name(host))

    def origin_allowed(self, origin: str, host: str, secure: bool = False) -> bool:
        """Whether a browser's ``Origin`` is this server's own (or one allowed): the public
        URL's, one given, or that of the ``Host`` it was sent to (itself checked). Over a
        ``secure`` connection that last is an https page's only: a page served in the clear
        on the same name (anyone on its path may have written it) talks to no secure session."""
        origin = origin.lower().rstrip("/")
        if origin in self._origins:
            return True
        parts = urlsplit(origin)
        schemes = ("https",) if secure else ("http", "https")
        return parts.scheme in schemes and parts.netloc == host.lower() and self.host_allowed(host)


def _headers(scope: Scope) -> dict[str, str]:
    # Several of one name: the last wins, and none of the ones read here is meant to repeat.
    return {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}


def _language(scope: Scope, headers: dict[str, str]) -> str:
    """The language a request chose (``?lang=``, else ``Accept-Language``), as the app's own
    refusals follow it (answers.py)."""
    query = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1")))
    return negotiate(headers.get("accept-language"), query.get("lang"))


async def _answer(
    send: Send,
    status: int,
    detail: Refusal | list[dict[str, Any]],
    scope: Scope,
    headers: dict[str, str],
    extra: tuple[tuple[bytes, bytes], ...] = (),
) -> None:
    # The language is worked out only here, for a refusal: a request let through pays nothing.
    said = say(detail, _language(scope, headers)) if isinstance(detail, Refusal) else detail
    body = json.dumps({"detail": said}).encode()
    answer = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
        (b"content-security-policy", API_CSP.encode()),
        NO_STORE,
        *COMMON_HEADERS,
        *extra,
    ]
    await send({"type": "http.response.start", "status": status, "headers": answer})
    await send({"type": "http.response.body", "body": body})


UNPAIRED = VALIDATION_WORDS["string_unpaired_surrogate"]
"""A lone surrogate's refusal (FastAPI's 422 form, :mod:`.answers` says it in the language)."""
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")


def _surrogate_loc(value: object) -> list[str | int] | None:
    """Where in a parsed JSON value the first string (a key or a value) with a lone surrogate
    is, as FastAPI's ``loc`` (a key's own place ends with the key), or None."""
    if isinstance(value, str):
        return [] if any(0xD800 <= ord(c) <= 0xDFFF for c in value) else None
    if isinstance(value, list):
        for i, item in enumerate(value):
            found = _surrogate_loc(item)
            if found is not None:
                return [i, *found]
    if isinstance(value, dict):
        for key, item in value.items():
            if _surrogate_loc(key) is not None:
                return [key.encode("utf-8", "backslashreplace").decode()]
            found = _surrogate_loc(item)
            if found is not None:
                return [key, *found]
    return None


def lone_surrogate_at(body: bytes) -> list[str | int] | None:
    """Where a JSON body holds a lone UTF-16 surrogate (``"\\ud800"``: JSON may escape one,
    and it is no Unicode text: nothing can encode it, the 422 that would echo it included),
    as a ``loc`` under ``body``; None when it holds none (or is not JSON: the route says so).
    A body without the escape is passed at the cost of one search."""
    if _SURROGATE_ESCAPE.search(body) is None:
        return None
    try:
        parsed = json.loads(body)
    except (ValueError, RecursionError):
        return None
    return _surrogate_loc(parsed)


async def _whole_body(receive: Receive) -> bytes | None:
    """A request's whole body (None: the client went away, or the limit refused it)."""
    chunks = []
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return None
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    """``receive`` giving ``body`` (read already) first, then what the client sends next."""
    sent = False

    async def replayed() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed


class Edge:
    """The ASGI middleware of the module: see there."""

    def __init__(self, app: ASGIApp, policy: Policy) -> None:
        self.app = app
        self.policy = policy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = _headers(scope)
        self._through_proxy(scope, headers)
        host = headers.get("host", "")
        secure = scope.get("scheme") in ("https", "wss")  # (a trusted proxy's word taken above)
        if kind == "websocket":
            origin = headers.get("origin")
            if not self.policy.host_allowed(host) or (
                origin is not None and not self.policy.origin_allowed(origin, host, secure)
            ):
                # Closed before the accept: the client's handshake is answered 403.
                reason = close_reason(Refusal("origin_not_allowed"), _language(scope, headers))
                await send({"type": "websocket.close", "code": 1008, "reason": reason})
                return
            await self.app(scope, receive, send)
            return
        if not self.policy.host_allowed(host):
            await _answer(send, 400, Refusal("host_not_served", host=repr(host)), scope, headers)
            return
        method = scope.get("method", "GET").upper()
        if method in STATE_CHANGING:
            refused = self._cross_site(headers, host, secure)
            if refused is not None:
                await _answer(send, 403, refused, scope, headers)
                return
        length = headers.get("content-length")
        has_body = (length is not None and length.strip() != "0") or "transfer-encoding" in headers
        if has_body and method in STATE_CHANGING:
            media = headers.get("content-type", "").split(";", 1)[0].strip().lower()
            if media != "application/json":
                await _answer(
                    send,
                    415,
                    Refusal("body_not_json", media=media or Words("untyped")),
                    scope,
                    headers,
                )
                return
        limit = self.policy.body_bytes
        if length is not None:
            try:
                declared = int(length)
            except ValueError:
                refusal = Refusal("content_length_not_number", length=repr(length))
                await _answer(send, 400, refusal, scope, headers)
                return
            if declared > limit:
                await _answer(
                    send,
                    413,
                    Refusal("body_too_large_declared", limit=limit, declared=declared),
                    scope,
                    headers,
                )
                return
        guarded_receive, guarded_send = self._guarded(receive, send, scope, headers, limit)
        if has_body and method in STATE_CHANGING:
            # A JSON body is read whole here (it is at most `limit` bytes) and looked at once for
            # what no route could answer: a lone surrogate, whose 422 could not be encoded.
            body = await _whole_body(guarded_receive)
            if body is None:
                return  # refused 413, or the client went away
            where = lone_surrogate_at(body)
            if where is not None:
                lang = _language(scope, headers)
                error = {"type": "string_unpaired_surrogate", "loc": ["body", *where], "msg": UNPAIRED}
                detail = validation_errors([error], lang)
                await _answer(send, 422, detail, scope, headers)
                return
            guarded_receive = _replay(body, guarded_receive)
        await self.app(scope, guarded_receive, guarded_send)

    def _through_proxy(self, scope: Scope, headers: dict[str, str]) -> None:
        """Take the scheme and the client's address from a trusted proxy's headers (only)."""
        client = scope.get("client")
        if not client or client[0] not in self.policy.trusted_proxies:
            return
        proto = headers.get("x-forwarded-proto", "").split(",")[-1].strip().lower()
        if proto in ("http", "https"):
            secure = proto == "https"
            scope["scheme"] = (
                ("https" if secure else "http") if scope["type"] == "http" else ("wss" if secure else "ws")
            )
        forwarded = headers.get("x-forwarded-for", "").split(",")[-1].strip()
        if forwarded:
            scope["client"] = (forwarded, 0)

    def _cross_site(self, headers: dict[str, str], host: str, secure: bool) -> Refusal | None:
        """Why a state-changing request is refused as another site's (None: it is not)."""
        site = headers.get("sec-fetch-site")
        if site is not None and site not in ("same-origin", "none"):
            return Refusal("cross_site", site=site)
        origin = headers.get("origin")
        if origin is not None and not self.policy.origin_allowed(origin, host, secure):
            return Refusal("cross_origin", origin=origin)
        return None

    def _guarded(
        self, receive: Receive, send: Send, scope: Scope, headers: dict[str, str], limit: int
    ) -> tuple[Receive, Send]:
        """``receive`` counting the body's bytes (refused 413 past ``limit``) and ``send``
        adding the common headers."""
        path = scope["path"]
        # The API's answers are an account's own (its balance, hands, notes...) or the room's
        # now: none is for a browser's or a proxy's cache to keep, let alone show another user.
        api = path.startswith("/api/")
        state = {"read": 0, "started": False, "refused": False}
        csp = (
            DOCS_CSP if self.policy.docs and path in ("/docs", "/redoc", "/docs/oauth2-redirect") else API_CSP
        )

        async def guarded_send(message: Message) -> None:
            if state["refused"]:
                return  # the 413 went out: what the app answers after it is dropped
            if message["type"] == "http.response.start":
                state["started"] = True
                present = {k.lower() for k, _ in message.get("headers", [])}
                added = [(k, v) for k, v in COMMON_HEADERS if k not in present]
                if b"content-security-policy" not in present:
                    added.append((b"content-security-policy", csp.encode()))
                if api and b"cache-control" not in present:
                    added.append(NO_STORE)
                message["headers"] = [*message.get("headers", []), *added]
            await send(message)

        async def guarded_receive() -> Message:
            message = await receive()
            if message["type"] == "http.request":
                state["read"] += len(message.get("body", b""))
                if state["read"] > limit:
                    if not state["started"]:
                        await _answer(send, 413, Refusal("body_too_large", limit=limit), scope, headers)
                    state["refused"] = True
                    return {"type": "http.disconnect"}
            return message

        return guarded_receive, guarded_send


_LANGUAGE_HEADER = re.compile(rb"^accept-language:[ \t]*([^\r\n]*)", re.IGNORECASE | re.MULTILINE)
_LANGUAGE_ASKED = re.compile(rb"^[A-Z]+ [^ \r\n]*[?&]lang=([A-Za-z_-]{1,16})")


def _language_of_head(head: bytes) -> str:
    """The language a request's first bytes chose (``?lang=`` on its request line, else its
    ``Accept-Language``), read with two regular expressions: for a refusal written before
    the request is parsed (English when they say nothing)."""
    asked = _LANGUAGE_ASKED.match(head)
    accept = _LANGUAGE_HEADER.search(head)
    return negotiate(
        accept.group(1).decode("latin-1") if accept else None,
        asked.group(1).decode("latin-1") if asked else None,
    )


def raw_answer(
    status: int, detail: Refusal, lang: str, extra: tuple[tuple[bytes, bytes], ...] = ()
) -> bytes:
    """A whole HTTP/1.1 answer (JSON ``{"detail": ...}`` in ``lang``, the common headers,
    ``Connection: close``) for a refusal the protocol writes itself, before any app sees the
    request."""
    body = json.dumps({"detail": say(detail, lang)}).encode()
    reason = {429: b"Too Many Requests", 431: b"Request Header Fields Too Large"}.get(status, b"Refused")
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
        (b"content-security-policy", API_CSP.encode()),
        NO_STORE,
        *COMMON_HEADERS,
        *extra,
    ]
    lines = [b"HTTP/1.1 %d %s" % (status, reason), *(name + b": " + value for name, value in headers)]
    return b"\r\n".join(lines) + b"\r\n\r\n" + body


def http_protocol(limits: Limits, trusted_proxies: tuple[str, ...] = ()) -> type[asyncio.Protocol] | str:
    """uvicorn's HTTP protocol (httptools) with the card room's bounds on a connection, which
    uvicorn's httptools protocol has none of (its ``h11_max_incomplete_event_size`` is h11's):

    - a deadline: a connection that has not sent a whole request (headers and body) within
      :attr:`Limits.header_seconds` of opening, or of its last answer, is closed (uvicorn alone
      waits for ever on a half-sent request);
    - a head (request line and headers) past :attr:`Limits.header_bytes` is answered 431 and the
      connection closed, before the parser has held more of it (httptools gathers a header
      whole before it hands it on: a 60 MiB one was read into memory and answered 200);
    - at most :meth:`Limits.most_connections_per_address` connections open at once from one address
      (a websocket upgraded from one still counts until it closes; ``trusted_proxies``' are not
      counted): one more is answered 429 once its first bytes say its language, and closed.

    Without httptools (not uvicorn[standard]): uvicorn's own choice, none of these."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:  # pragma: no cover - the server extra installs uvicorn[standard]
        return "auto"
    request_seconds = limits.header_seconds
    head_most = max(1, limits.header_bytes)
    most = limits.most_connections_per_address()
    connections = Connections(most, frozenset(trusted_proxies))
    too_many = Refusal("connections_per_address", count=most)
    too_long = Refusal("head_too_large", count=head_most)

    class DeadlineProtocol(HttpToolsProtocol):
        """HttpToolsProtocol closing a connection slow to send its request, refusing a head
        too large and a connection too many (see :func:`http_protocol`)."""

        connections_open = connections
        """The count of connections per address this server's protocol keeps (for tests)."""
        _deadline: asyncio.TimerHandle | None = None
        """The timer closing the connection if its request is not in by then (None: none runs)."""
        _head = 0
        """Bytes of the current request's head fed to the parser so far."""
        _in_head = True
        """Whether the parser is reading a head (from a request's start to its headers' end)."""
        _counted: str | None = None
        """The address this connection is counted under (None: not counted, or let go)."""
        _refused = False

        def _schedule(self) -> None:
            self._unschedule()
            self._deadline = self.loop.call_later(request_seconds, self._expire)

        def _unschedule(self) -> None:
            # A cancelled timer lets go of this protocol at once: one left to run would hold it
            # (its transport, its scope) for the whole deadline after the connection has gone,
            # thousands of them under a flood of connections.
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _expire(self) -> None:
            self._deadline = None
            transport = self.transport
            if transport is None or transport.is_closing():
                return
            if transport.get_protocol() is not self:
                return  # upgraded to a websocket: its pings keep it honest
            transport.close()

        def _release(self) -> None:
            if self._counted is not None:
                connections.closed(self._counted)
                self._counted = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            address = self.client[0] if self.client else None
            if address is not None:
                if connections.open(address):
                    self._counted = address
                else:
                    self._refused = True  # answered when its first bytes come (their language)
            self._schedule()

        def connection_lost(self, exc: Exception | None) -> None:
            self._unschedule()
            self._release()
            super().connection_lost(exc)

        def _refuse(self, status: int, detail: Refusal, lang: str) -> None:
            extra = ((b"retry-after", b"5"),) if status == 429 else ()
            self._unschedule()
            self.transport.write(raw_answer(status, detail, lang, extra))
            self.transport.close()

        def data_received(self, data: bytes) -> None:
            if self._refused:
                if not self.transport.is_closing():
                    self._refuse(429, too_many, _language_of_head(data[:head_most]))
                return
            # The parser is fed a head at most `head_most` bytes at a time: the bytes of a head
            # are counted from its first piece (exactly on a fresh connection and after an
            # answer; a head pipelined behind a body is counted from the next piece, so it is
            # held to twice the limit at most).
            # Pieces are views of the read, not copies: a flood of large reads is not copied
            # again (the copies of 256 KiB reads were most of the memory a header flood took).
            left = memoryview(data)
            while left:
                if self._in_head:
                    room = head_most - self._head
                    if room <= 0:
                        self._refuse(431, too_long, self._head_language())
                        return
                    piece, left = left[:room], left[room:]
                    self._head += len(piece)
                else:
                    piece, left = left[:head_most], left[head_most:]
                super().data_received(piece)  # type: ignore[arg-type]  # httptools reads any buffer
                transport = self.transport
                if transport is None or transport.is_closing() or transport.get_protocol() is not self:
                    return  # answered and closing, or upgraded to a websocket

        def _head_language(self) -> str:
            headers = dict(self.headers or ())
            accept = headers.get(b"accept-language")
            query = dict(parse_qsl(self.url.partition(b"?")[2].decode("latin-1"))) if self.url else {}
            return negotiate(accept.decode("latin-1") if accept else None, query.get("lang"))

        def on_message_begin(self) -> None:
            self._in_head = True
            super().on_message_begin()

        def on_headers_complete(self) -> None:
            self._in_head = False
            super().on_headers_complete()

        def on_message_complete(self) -> None:
            self._unschedule()  # the whole request is in: no deadline while it is answered
            self._head = 0  # what comes next is the next request's head
            self._in_head = True
            super().on_message_complete()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._schedule()

        def handle_websocket_upgrade(self) -> None:
            self._unschedule()  # the websocket's pings keep it honest from now on
            super().handle_websocket_upgrade()
            # The websocket protocol has the transport now and this one never hears of it
            # again (no connection_lost, which is where uvicorn lets its parser go): the parser
            # calls back into this protocol, which holds the parser, a cycle only a full
            # collection would free, one for every websocket ever opened.
            self.parser = None  # type: ignore[assignment]
            # The connection stays counted until the websocket closes: its protocol lets it go.
            protocol = self.transport.get_protocol()
            if self._counted is not None and protocol is not self and hasattr(protocol, "on_lost"):
                address, self._counted = self._counted, None
                protocol.on_lost = lambda: connections.closed(address)
            else:
                self._release()  # a websocket protocol that cannot tell: counted no more

    return DeadlineProtocol


def server_options(limits: Limits, trusted_proxies: tuple[str, ...] = ()) -> dict[str, Any]:
    """uvicorn's settings for the card room (``uvicorn.run(app, **server_options(limits))``);
    ``trusted_proxies``: the addresses whose connections are not counted per address (every
    client behind a proxy shares its address: the proxy limits them)."""
    # One write for what a connection is sent in one step of the loop (serving.py: the writes
    # were the largest cost under load).
    from sevenstud.server.serving import CoalescingWebSockets

    return {
        "http": http_protocol(limits, trusted_proxies),
        "ws": CoalescingWebSockets,
        "ws_max_size": limits.ws_frame_bytes,
        "ws_ping_interval": limits.ws_ping_seconds or None,
        "ws_ping_timeout": limits.ws_ping_seconds or None,
        "timeout_keep_alive": limits.keep_alive_seconds,
        "h11_max_incomplete_event_size": limits.header_bytes,
        # The edge reads X-Forwarded-* itself, from the proxies named only: uvicorn's own
        # reading trusts any client on 127.0.0.1.
        "proxy_headers": False,
        "server_header": False,
        # No per-message compression: the messages are small and frequent, and under load zlib
        # took about half of the time spent sending (benchmarks/load.py's profile).
        "ws_per_message_deflate": False,
    }


__all__ = ["API_CSP", "DOCS_CSP", "Edge", "Policy", "http_protocol", "raw_answer", "server_options"]
