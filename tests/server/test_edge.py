"""The web's usual holes, closed at the edge and in the sessions (docs/security.md): requests
from other sites, framing, DNS rebinding, the API docs' CDN scripts, sockets outliving their
log-out, sessions outliving a log-in on top, bodies and frames read whole before a size check,
connections held half-sent, ids past the database's integers, names that differ only in case,
sessions with no idle end, and ``Secure`` set by any client's ``X-Forwarded-Proto``. Each over
a real uvicorn on 127.0.0.1 (the card room's server options), on both databases where it
touches storage."""

from __future__ import annotations

import contextlib
import json
import socket
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, text
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from sevenstud.server.accounts import auth
from sevenstud.server.accounts.sessions import COOKIE, LOGGED_OUT
from sevenstud.server.app import create_app
from sevenstud.server.edge import server_options
from sevenstud.server.limits import Limits
from sevenstud.server.protocol import PROTOCOL_VERSION
from sevenstud.server.store import MIGRATIONS, Store, open_store
from sevenstud.server.store.models import LoginSession
from tests.spawn import in_thread


@contextlib.contextmanager
def served(store: Store, limits: Limits | None = None, **options: Any) -> Iterator[str]:
    """A card room over ``store`` in this process: its ``host:port``."""
    limits = limits or Limits()
    with in_thread(create_app(store, pause=0.05, limits=limits, **options), limits) as address:
        yield address


def _guest(address: str) -> str:
    response = httpx.post(f"http://{address}/api/guest")
    response.raise_for_status()
    return response.cookies[COOKIE]


def _hello(table: int) -> str:
    return json.dumps({"type": "hello", "version": PROTOCOL_VERSION, "table": table})


# ---------------------------------------------------------------------- other sites


def test_a_state_changing_request_from_another_site_is_refused_and_changes_nothing(store: Store) -> None:
    """Rule: a POST a browser sends for another site (its Origin, or Sec-Fetch-Site
    cross-site/same-site) is refused 403, and a body that is not JSON 415; the page's own
    requests (its Origin, same-origin) go through."""
    with served(store) as address:
        base = f"http://{address}"
        token = _guest(address)
        cookie = {"Cookie": f"{COOKIE}={token}"}
        for headers in (
            {"Origin": "https://evil.example", "Content-Type": "text/plain"},
            {"Sec-Fetch-Site": "cross-site"},
            {"Sec-Fetch-Site": "same-site"},
            {"Origin": "null"},
        ):
            for path in ("/api/guest", "/api/logout", "/api/refill"):
                refused = httpx.post(base + path, headers={**cookie, **headers}, content=b"x=1")
                assert refused.status_code == 403, (path, headers, refused.text)
                assert (
                    "another site" in refused.json()["detail"] or "may not change" in refused.json()["detail"]
                )
        assert auth.player_of(store, token) is not None  # still logged in: the log-out was refused
        plain = httpx.post(
            base + "/api/logout", headers={**cookie, "Content-Type": "text/plain"}, content=b"hi"
        )
        assert plain.status_code == 415 and "application/json" in plain.json()["detail"]
        form = httpx.post(base + "/api/login", data={"name": "ann", "password": "correct horse"})
        assert form.status_code == 415
        own = httpx.post(
            base + "/api/logout", headers={**cookie, "Origin": base, "Sec-Fetch-Site": "same-origin"}
        )
        assert own.status_code == 200 and auth.player_of(store, token) is None


def test_over_a_secure_connection_a_page_sent_in_the_clear_on_our_name_is_another_site(store: Store) -> None:
    """Rule: behind a trusted proxy that says the connection is https, the ``Host``'s origin
    is ours only as https: a page of the same name sent in the clear (anyone on its path may
    have written it) may not post or open a websocket; the https page may. In the clear both
    are ours (there is nothing safer to keep apart)."""
    secure = {"X-Forwarded-Proto": "https"}
    with served(store, trusted_proxies=("127.0.0.1",)) as address:
        base = f"http://{address}"
        for scheme, status in (("http", 403), ("https", 200)):
            token = _guest(address)
            headers = {**secure, "Cookie": f"{COOKIE}={token}", "Origin": f"{scheme}://{address}"}
            answer = httpx.post(base + "/api/logout", headers=headers)
            assert answer.status_code == status, (scheme, answer.text)
            assert (auth.player_of(store, token) is None) == (status == 200)
        with pytest.raises(InvalidStatus) as refused:
            connect(f"ws://{address}/ws", additional_headers={**secure, "Origin": f"http://{address}"})
        assert refused.value.response.status_code == 403
        with connect(
            f"ws://{address}/ws", additional_headers={**secure, "Origin": f"https://{address}"}
        ) as ws:
            ws.send(_hello(1))
            assert "no table 1" in json.loads(ws.recv(timeout=5))["message"]
    with served(store) as address:  # no proxy trusted: a plain http server
        for scheme in ("http", "https"):
            token = _guest(address)
            headers = {**secure, "Cookie": f"{COOKIE}={token}", "Origin": f"{scheme}://{address}"}
            assert httpx.post(f"http://{address}/api/logout", headers=headers).status_code == 200


def test_every_answer_forbids_framing_and_sniffing(store: Store) -> None:
    """Rule: every page, file and API answer (a 404 too) says X-Frame-Options DENY, a
    Content-Security-Policy with frame-ancestors 'none', nosniff and same-origin referrers."""
    with served(store) as address:
        for path in (
            "/",
            "/table/1",
            "/api/lobby",
            "/protocol.json",
            "/api/me",
            "/nowhere",
            "/web/common.js",
        ):
            headers = httpx.get(f"http://{address}{path}").headers
            assert headers["x-frame-options"] == "DENY", path
            assert "frame-ancestors 'none'" in headers["content-security-policy"], path
            assert headers["x-content-type-options"] == "nosniff", path
            assert headers["referrer-policy"] == "same-origin", path


def test_the_api_docs_and_their_cdn_scripts_are_off_unless_asked_for(store: Store) -> None:
    """Rule: /docs and /redoc (which load scripts from a CDN) are served only with
    ``--api-docs``, and then under a policy naming that CDN alone; without it /openapi.json is
    the room's operators' alone (tests/server/test_operators.py: 401 without a session)."""
    with served(store) as address:
        assert httpx.get(f"http://{address}/docs").status_code == 404
        assert httpx.get(f"http://{address}/redoc").status_code == 404
        assert httpx.get(f"http://{address}/openapi.json").status_code == 401
    with served(store, api_docs=True) as address:
        docs = httpx.get(f"http://{address}/docs")
        assert docs.status_code == 200 and "cdn.jsdelivr.net" in docs.headers["content-security-policy"]
        assert "frame-ancestors 'none'" in docs.headers["content-security-policy"]
        assert "/api/lobby" in httpx.get(f"http://{address}/openapi.json").json()["paths"]


def test_a_page_of_another_name_on_this_address_is_refused_dns_rebinding(store: Store) -> None:
    """Rule: a Host header must name this server (its public URL, a host allowed, or a
    loopback name when it is served on loopback): a page of another name resolving here
    (DNS rebinding) is refused over HTTP (400) and websocket (403), whatever Origin it sends."""
    with served(store) as address:
        port = address.rsplit(":", 1)[1]
        rebound = {"Host": f"evil.example:{port}", "Origin": f"http://evil.example:{port}"}
        assert httpx.get(f"http://{address}/api/lobby", headers={"Host": rebound["Host"]}).status_code == 400
        with pytest.raises(InvalidStatus) as refused:
            connect(f"ws://{address}/ws", additional_headers=rebound)
        assert refused.value.response.status_code == 403
        with pytest.raises(InvalidStatus):
            connect(f"ws://{address}/ws", additional_headers={"Origin": "https://evil.example"})
        with connect(f"ws://{address}/ws", additional_headers={"Origin": f"http://{address}"}) as ws:
            ws.send(_hello(1))
            assert "no table 1" in json.loads(ws.recv(timeout=5))["message"]
    with served(store, public_url="https://cards.example", allowed_hosts=("cards.internal:8000",)) as address:
        for host, status in (("cards.example", 200), ("cards.internal:8000", 200), ("127.0.0.1", 400)):
            assert httpx.get(f"http://{address}/api/lobby", headers={"Host": host}).status_code == status


# ---------------------------------------------------------------------- sessions


def test_log_out_closes_the_sockets_of_its_session(store: Store) -> None:
    """Rule: a socket opened before a log-out acts for nobody after it: it is closed (4003)."""
    with served(store) as address, httpx.Client(base_url=f"http://{address}") as client:
        client.post("/api/guest").raise_for_status()
        table = client.post("/api/tables", json={"game": "stud", "seats": 4}).json()["id"]
        cookie = {"Cookie": f"{COOKIE}={client.cookies[COOKIE]}"}
        with connect(f"ws://{address}/ws", additional_headers=cookie) as ws:
            ws.send(_hello(table))
            assert json.loads(ws.recv(timeout=5))["type"] == "welcome"
            client.post("/api/logout").raise_for_status()
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    ws.send(json.dumps({"type": "sit", "seat": 1, "buy_in": 100}))
                    ws.recv(timeout=5)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == LOGGED_OUT
    with store.session() as s:
        assert s.query(LoginSession).count() == 0


def test_a_socket_keeps_its_session_in_use_and_ends_with_it(store: Store) -> None:
    """Rule: a session with a websocket open is in use (never idle, however long ago the
    socket opened); once past its lifetime it ends, and its sockets are closed (4003)."""
    with served(store, Limits(sweep_seconds=0.2, session_idle=60)) as address:
        token = _guest(address)
        key = auth.session_key(token)
        with connect(f"ws://{address}/ws", additional_headers={"Cookie": f"{COOKIE}={token}"}) as ws:
            ws.send(json.dumps({"type": "ping"}))
            with store.transaction() as s:  # "last used" long ago: only the open socket uses it
                s.get(LoginSession, key).last_seen_at = time.time() - 3600
            time.sleep(1.0)  # several sweeps
            with store.session() as s:
                row = s.get(LoginSession, key)
                assert row is not None and row.last_seen_at > time.time() - 5
            with store.transaction() as s:  # now past its lifetime
                s.get(LoginSession, key).expires_at = time.time() - 1
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    ws.recv(timeout=5)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == LOGGED_OUT
            assert closed.value.rcvd.reason == "session ended"
        with store.session() as s:
            assert s.get(LoginSession, key) is None


def test_a_log_in_or_sign_up_ends_the_session_it_came_with(store: Store) -> None:
    """Rule: a new login is a new token; the one the request came with (a guest's) ends, and
    its sockets close."""
    with served(store) as address, httpx.Client(base_url=f"http://{address}") as client:
        client.post("/api/guest").raise_for_status()
        as_guest = client.cookies[COOKIE]
        client.post("/api/signup", json={"name": "ann", "password": "correct horse"}).raise_for_status()
        signed_up = client.cookies[COOKIE]
        assert signed_up != as_guest and auth.player_of(store, as_guest) is None
        client.post("/api/login", json={"name": "ann", "password": "correct horse"}).raise_for_status()
        assert client.cookies[COOKIE] != signed_up and auth.player_of(store, signed_up) is None
        assert client.get("/api/me").json()["name"] == "ann"


def test_a_session_ends_when_unused_and_expired_rows_are_deleted(store: Store) -> None:
    """Rule: a session ends ``session_idle`` after its last use, or ``session_lifetime``
    after the log-in; the sweep deletes the rows of ended sessions."""
    token = auth.new_session(store, auth.guest(store))
    assert auth.player_of(store, token, idle=60) is not None
    with store.transaction() as s:  # last used two minutes ago
        s.get(LoginSession, auth.session_key(token)).last_seen_at = time.time() - 120
    assert auth.player_of(store, token, idle=60) is None
    assert auth.player_of(store, token, idle=3600) is not None  # which counts as a use now
    old = auth.new_session(store, auth.guest(store), lifetime=-1)  # already past its lifetime
    assert auth.player_of(store, old) is None
    with served(store, Limits(sweep_seconds=0.2, session_idle=3600)):
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with store.session() as s:
                left = {row.token_hash for row in s.query(LoginSession).all()}
            if auth.session_key(old) not in left:
                break
            time.sleep(0.1)
    assert left == {auth.session_key(token)}


def test_secure_follows_x_forwarded_proto_only_from_a_trusted_proxy(store: Store) -> None:
    """Rule: ``X-Forwarded-Proto: https`` makes the cookie Secure only when it comes from a
    proxy named with ``--trusted-proxy`` (X-Forwarded-For then names the client too)."""
    forwarded = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.9"}
    with served(store) as address:
        cookie = httpx.post(f"http://{address}/api/guest", headers=forwarded).headers["set-cookie"].lower()
        assert "secure" not in cookie.replace("samesite", "")
    limits = Limits(guests_per_address=1)
    with served(store, limits, trusted_proxies=("127.0.0.1",)) as address:
        cookie = httpx.post(f"http://{address}/api/guest", headers=forwarded).headers["set-cookie"].lower()
        assert "; secure" in cookie
        # The limits count the client the proxy names, not the proxy.
        other = {**forwarded, "X-Forwarded-For": "203.0.113.10"}
        assert httpx.post(f"http://{address}/api/guest", headers=other).status_code == 200
        assert httpx.post(f"http://{address}/api/guest", headers=forwarded).status_code == 429


# ---------------------------------------------------------------------- sizes and time


def test_an_oversized_body_is_refused_before_it_is_read(store: Store) -> None:
    """Rule: a body over ``http_body_bytes`` is refused 413, whether its Content-Length says
    so or (chunked) its bytes do."""
    with served(store, Limits(http_body_bytes=1024)) as address:
        big = httpx.post(
            f"http://{address}/api/login",
            content=b"{" + b" " * 5000 + b"}",
            headers={"Content-Type": "application/json"},
        )
        assert big.status_code == 413 and "at most 1024 bytes" in big.json()["detail"]

        def chunks() -> Iterator[bytes]:
            for _ in range(10):
                yield b" " * 512

        streamed = httpx.post(
            f"http://{address}/api/login", content=chunks(), headers={"Content-Type": "application/json"}
        )
        assert streamed.status_code == 413


def test_a_websocket_message_over_the_frame_limit_closes_the_socket_1009(store: Store) -> None:
    """Rule: a websocket message over ``ws_frame_bytes`` is never read whole: the socket is
    closed with 1009 (message too big); one over the protocol's 4096 bytes but under the
    limit gets an error and the socket stays."""
    with (
        served(store, Limits(ws_frame_bytes=16 * 1024)) as address,
        connect(f"ws://{address}/ws", max_size=None) as ws,
    ):
        ws.send("x" * 8000)
        assert "at most 4096 bytes" in json.loads(ws.recv(timeout=5))["message"]
        ws.send("x" * (1024 * 1024))
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


def test_a_connection_slow_to_send_its_request_is_closed(store: Store) -> None:
    """Rule: a connection has ``header_seconds`` to send a whole request (a half-sent one,
    headers or body, is closed), and ``keep_alive_seconds`` idle between requests."""
    with served(store, Limits(header_seconds=0.5, keep_alive_seconds=1)) as address:
        host, port = address.split(":")
        for partial in (b"GET /api/lobby HTTP/1.1\r\nHost: " + address.encode(), b""):
            with socket.create_connection((host, int(port)), timeout=5) as raw:
                raw.sendall(partial)
                started = time.monotonic()
                assert raw.recv(1024) == b""  # closed by the server, nothing answered
                assert time.monotonic() - started < 3
        body = (
            b"POST /api/login HTTP/1.1\r\nHost: %b\r\nContent-Type: application/json\r\n" % address.encode()
        )
        with socket.create_connection((host, int(port)), timeout=5) as raw:
            raw.sendall(body + b"Content-Length: 100\r\n\r\n{")
            started = time.monotonic()
            while raw.recv(1024):  # uvicorn may answer something before closing
                pass
            assert time.monotonic() - started < 3


# ---------------------------------------------------------------------- ids and names


def test_an_id_past_the_databases_integers_is_a_clear_422_not_a_500(store: Store) -> None:
    """Rule: every id a client names is 1 to 2^31-1: past that a 422 (HTTP) or an error naming
    the field (websocket), never an overflow inside the server."""
    with served(store) as address:
        cookie = {"Cookie": f"{COOKIE}={_guest(address)}"}
        for path in (
            "/api/hands/9223372036854775808",
            "/api/hands/9223372036854775808/replay",
            "/table/2147483648",
        ):
            answer = httpx.get(f"http://{address}{path}", headers=cookie)
            assert answer.status_code == 422, (path, answer.text)
            assert "less than or equal to 2147483647" in answer.text
        with connect(f"ws://{address}/ws", additional_headers=cookie) as ws:
            ws.send(_hello(2**63))
            said = json.loads(ws.recv(timeout=5))["message"]
            assert said == "malformed message: table: at most 2147483647, got 9223372036854775808"


def _id_paths(app: Any) -> list[tuple[str, str, str]]:
    """Every route of ``app`` with a whole-number path parameter: (method, path with each such
    parameter as ``{id}``, the parameter's name), the others filled with a plausible word. From
    the OpenAPI schema (the API's routes, included routers too) and the app's own routes (the
    pages, left out of the schema)."""
    found: set[tuple[str, str, str]] = set()

    def add(method: str, path: str, params: dict[str, bool]) -> None:
        for name, whole in params.items():
            path = path.replace("{" + name + "}", "{id}" if whole else "accept")
        found.update((method, path, name) for name, whole in params.items() if whole)

    for path, methods in app.openapi()["paths"].items():
        for method, operation in methods.items():
            params = {
                p["name"]: p["schema"].get("type") == "integer"
                for p in operation.get("parameters", ())
                if p["in"] == "path"
            }
            add(method.upper(), path, params)
    for route in app.routes:
        dependant = getattr(route, "dependant", None)
        if dependant is not None and dependant.path_params:
            params = {p.name: p.field_info.annotation is int for p in dependant.path_params}
            for method in route.methods - {"HEAD"}:
                add(method, route.path, params)
    return sorted(found)


def test_every_id_in_every_path_is_bounded_never_a_500(store: Store) -> None:
    """Rule: the bound holds on every route, not only those a test names: each route with a
    whole-number path parameter answers 2^63 and 2^31 with a 422 naming the bound (the
    tournament routes were a 500, an OverflowError inside SQLite)."""
    paths = _id_paths(create_app(store))
    assert len(paths) >= 10 and any("/api/tournaments/" in path for _, path, _ in paths)
    from sevenstud.server.operators import accounts, log

    accounts.create(store, log.COMMAND_LINE, "boss", "correct horse")
    with served(store) as address:
        headers = {"Cookie": f"{COOKIE}={_guest(address)}", "Origin": f"http://{address}"}
        boss = {"name": "boss", "password": "correct horse"}
        signed_in = httpx.post(f"http://{address}/api/login", json=boss)
        operator = {**headers, "Cookie": f"{COOKIE}={signed_in.cookies[COOKIE]}"}
        for method, path, _name in paths:
            for too_big in (2**63, 2**31):
                answer = httpx.request(
                    method,
                    f"http://{address}{path.replace('{id}', str(too_big))}",
                    headers=operator if path.startswith("/api/admin/") else headers,
                    json={},
                )
                assert answer.status_code == 422, (method, path, too_big, answer.status_code, answer.text)
                assert "less than or equal to 2147483647" in answer.text, (path, answer.text)


def test_names_are_one_account_whatever_their_case_or_unicode_form(store: Store) -> None:
    """Rule: names are compared NFKC and case-folded: ``ALICE`` and the full-width ``ａｌｉｃｅ``
    are ``alice``, taken once, and any of them logs in to it."""
    alice = auth.sign_up(store, "alice", "correct horse")
    for other in ("ALICE", "Alice", "ａｌｉｃｅ"):
        with pytest.raises(auth.AuthError, match="taken"):
            auth.sign_up(store, other, "correct horse")
        assert auth.player_of(store, auth.log_in(store, other, "correct horse")).id == alice
    with pytest.raises(auth.AuthError, match="kept for guests"):
        auth.sign_up(store, "ＧＵＥＳＴ-1", "correct horse")


def test_migration_0005_keeps_names_that_clashed_before_it_apart(db_url: str) -> None:
    """Rule: two accounts whose names clash once case-folded (made before names were) both
    keep their names and log in by them; the older one has the plain key, and no new name
    can take either."""
    engine = create_engine(db_url)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0004")
        for name in ("alice", "ALICE"):
            connection.execute(
                text(
                    "INSERT INTO players (name, password_hash, guest, balance, created_at, refill_day,"
                    " refills_that_day) VALUES (:n, :h, false, 0, 0, '', 0)"
                ),
                {"n": name, "h": auth.hash_password(f"pw of {name}")},
            )
    engine.dispose()
    store = open_store(db_url)
    try:
        with store.session() as s:
            keys = dict(s.execute(text("SELECT name, name_key FROM players ORDER BY id")).all())
        assert keys == {"alice": "alice", "ALICE": "alice#2"}
        for name in ("alice", "ALICE"):
            player = auth.player_of(store, auth.log_in(store, name, f"pw of {name}"))
            assert player is not None and player.name == name
        with pytest.raises(auth.AuthError, match="taken"):
            auth.sign_up(store, "Alice", "correct horse")
    finally:
        store.close()


def test_the_server_options_carry_the_limits_and_ignore_forwarded_headers() -> None:
    """Rule: uvicorn runs with the frame limit, the pings and the keep-alive of the limits, the
    request deadline's protocol, and without its own X-Forwarded-* reading (the edge's only)."""
    limits = Limits(ws_frame_bytes=1234, ws_ping_seconds=7, keep_alive_seconds=3, header_seconds=2)
    options = server_options(limits)
    assert options["ws_max_size"] == 1234 and options["ws_ping_interval"] == options["ws_ping_timeout"] == 7
    assert options["timeout_keep_alive"] == 3 and options["proxy_headers"] is False
    assert isinstance(options["http"], type) and options["http"].__name__ == "DeadlineProtocol"
