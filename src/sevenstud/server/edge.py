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
  ``frame-ancestors 'none'``; everything else ``default-src 'none'``);
- ``X-Forwarded-Proto`` and ``X-Forwarded-For`` are read only from a proxy named with
  ``--trusted-proxy``: they set the scheme (so the cookie's ``Secure``) and the client's
  address (so the limits per address).

:func:`server_options` are uvicorn's settings that go with it: the largest websocket message,
pings, the keep-alive and the time a connection has to send its request.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from sevenstud.server.i18n import close_reason, negotiate, say
from sevenstud.server.limits import Limits

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
    detail: str,
    scope: Scope,
    headers: dict[str, str],
    extra: tuple[tuple[bytes, bytes], ...] = (),
) -> None:
    # The language is worked out only here, for a refusal: a request let through pays nothing.
    body = json.dumps({"detail": say(detail, _language(scope, headers))}).encode()
    answer = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
        (b"content-security-policy", API_CSP.encode()),
        *COMMON_HEADERS,
        *extra,
    ]
    await send({"type": "http.response.start", "status": status, "headers": answer})
    await send({"type": "http.response.body", "body": body})


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
                reason = close_reason("origin or host not allowed", _language(scope, headers))
                await send({"type": "websocket.close", "code": 1008, "reason": reason})
                return
            await self.app(scope, receive, send)
            return
        if not self.policy.host_allowed(host):
            await _answer(send, 400, f"this server does not answer to the host {host!r}", scope, headers)
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
                    f"a request body is JSON (Content-Type: application/json), not {media or 'untyped'}",
                    scope,
                    headers,
                )
                return
        limit = self.policy.body_bytes
        if length is not None:
            try:
                declared = int(length)
            except ValueError:
                await _answer(send, 400, f"Content-Length {length!r} is not a number", scope, headers)
                return
            if declared > limit:
                await _answer(
                    send,
                    413,
                    f"a request body is at most {limit} bytes (this one says {declared})",
                    scope,
                    headers,
                )
                return
        await self.app(scope, *self._guarded(receive, send, scope, headers, limit))

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

    def _cross_site(self, headers: dict[str, str], host: str, secure: bool) -> str | None:
        """Why a state-changing request is refused as another site's (None: it is not)."""
        site = headers.get("sec-fetch-site")
        if site is not None and site not in ("same-origin", "none"):
            return f"refused: a request from another site ({site}) may not change anything here"
        origin = headers.get("origin")
        if origin is not None and not self.policy.origin_allowed(origin, host, secure):
            return f"refused: a request from {origin} may not change anything here"
        return None

    def _guarded(
        self, receive: Receive, send: Send, scope: Scope, headers: dict[str, str], limit: int
    ) -> tuple[Receive, Send]:
        """``receive`` counting the body's bytes (refused 413 past ``limit``) and ``send``
        adding the common headers."""
        path = scope["path"]
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
                message["headers"] = [*message.get("headers", []), *added]
            await send(message)

        async def guarded_receive() -> Message:
            message = await receive()
            if message["type"] == "http.request":
                state["read"] += len(message.get("body", b""))
                if state["read"] > limit:
                    if not state["started"]:
                        await _answer(send, 413, f"a request body is at most {limit} bytes", scope, headers)
                    state["refused"] = True
                    return {"type": "http.disconnect"}
            return message

        return guarded_receive, guarded_send


def http_protocol(request_seconds: float) -> type[asyncio.Protocol] | str:
    """uvicorn's HTTP protocol (httptools) with a deadline: a connection that has not sent a
    whole request (headers and body) within ``request_seconds`` of opening, or of its last
    answer, is closed (uvicorn alone waits for ever on a half-sent request). Without httptools
    (not uvicorn[standard]): uvicorn's own choice, no deadline."""
    try:
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:  # pragma: no cover - the server extra installs uvicorn[standard]
        return "auto"

    class DeadlineProtocol(HttpToolsProtocol):
        """HttpToolsProtocol closing a connection slow to send its request."""

        _generation = 0

        def _schedule(self) -> None:
            self._generation += 1
            generation = self._generation
            self.loop.call_later(request_seconds, self._expire, generation)

        def _expire(self, generation: int) -> None:
            transport = self.transport
            if generation != self._generation or transport is None or transport.is_closing():
                return
            if transport.get_protocol() is not self:
                return  # upgraded to a websocket: its pings keep it honest
            transport.close()

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._schedule()

        def on_message_complete(self) -> None:
            self._generation += 1  # the whole request is in: no deadline while it is answered
            super().on_message_complete()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._schedule()

        def handle_websocket_upgrade(self) -> None:
            super().handle_websocket_upgrade()
            # The websocket protocol has the transport now and this one never hears of it
            # again (no connection_lost, which is where uvicorn lets its parser go): the parser
            # calls back into this protocol, which holds the parser, a cycle only a full
            # collection would free, one for every websocket ever opened.
            self.parser = None  # type: ignore[assignment]

    return DeadlineProtocol


def server_options(limits: Limits) -> dict[str, Any]:
    """uvicorn's settings for the card room (``uvicorn.run(app, **server_options(limits))``)."""
    # One write for what a connection is sent in one step of the loop (serving.py: the writes
    # were the largest cost under load).
    from sevenstud.server.serving import CoalescingWebSockets

    return {
        "http": http_protocol(limits.header_seconds),
        "ws": CoalescingWebSockets,
        "ws_max_size": limits.ws_frame_bytes,
        "ws_ping_interval": limits.ws_ping_seconds or None,
        "ws_ping_timeout": limits.ws_ping_seconds or None,
        "timeout_keep_alive": limits.keep_alive_seconds,
        "h11_max_incomplete_event_size": 16 * 1024,
        # The edge reads X-Forwarded-* itself, from the proxies named only: uvicorn's own
        # reading trusts any client on 127.0.0.1.
        "proxy_headers": False,
        "server_header": False,
        # No per-message compression: the messages are small and frequent, and under load zlib
        # took about half of the time spent sending (benchmarks/load.py's profile).
        "ws_per_message_deflate": False,
    }


__all__ = ["API_CSP", "DOCS_CSP", "Edge", "Policy", "http_protocol", "server_options"]
