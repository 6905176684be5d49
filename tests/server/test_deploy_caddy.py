"""docs/deploy.md tried for real: the card room behind Debian's Caddy on loopback, with the
shipped deploy/Caddyfile (its name and upstream swapped for free ports of 127.0.0.1, ``tls
internal`` for a certificate from Caddy's own CA) and ``sevenstud serve --trusted-proxy
127.0.0.1`` as deploy/sevenstud.service starts it. Through the proxy: the health checks answer,
a guest's session cookie is Secure, a websocket over wss:// (verified against Caddy's root
certificate, read from its data folder) says hello, sits and acts in a hand, and Debian's
chromium opens the lobby over https, plays a hand by clicking and logs no error.

Where caddy is missing the test skips, saying so; under CI it fails (`make test` installs it:
tools/caddy.sh)."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import ssl
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from sevenstud.server.accounts.sessions import COOKIE
from sevenstud.server.protocol import PROTOCOL_VERSION
from tests.spawn import free_port, running

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "deploy" / "Caddyfile"
NAME, UPSTREAM = "cards.example.org", "127.0.0.1:8000"
"""What the shipped Caddyfile names, replaced here by loopback's."""
TIMEOUT = 60.0  # s: generous, on two busy cores
PREFERRED = ("check", "call", "bring-in", "complete", "bet", "raise", "fold")
"""The order actions are taken in: checking and calling see a hand through."""

pytestmark = pytest.mark.slow


@dataclass(slots=True)
class Edge:
    """Caddy in front of a card room: its https base URL and the root certificate it signs with."""

    base: str
    root: Path
    room: str

    def trusting(self) -> ssl.SSLContext:
        """A client's TLS context trusting Caddy's internal CA (and nothing else)."""
        return ssl.create_default_context(cafile=str(self.root))


def _caddy() -> str:
    found = shutil.which("caddy")
    if found is None:
        reason = "Debian's caddy is not installed (tools/caddy.sh installs it; make test runs it)"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    return found


def caddyfile(shipped: str, https_port: int, http_port: int, room_port: int) -> str:
    """The shipped Caddyfile on loopback: the name and upstream swapped for free ports, ``tls
    internal``, no admin endpoint, no redirect listener, and the system's trust store left alone."""
    assert NAME in shipped and UPSTREAM in shipped, "deploy/Caddyfile no longer names what this test swaps"
    site = shipped.replace(f"{NAME} {{", f"https://localhost:{https_port} {{\n\ttls internal", 1)
    site = site.replace(UPSTREAM, f"127.0.0.1:{room_port}")
    options = (
        "{\n\tadmin off\n\tskip_install_trust\n"
        f"\thttp_port {http_port}\n\thttps_port {https_port}\n\tauto_https disable_redirects\n}}\n"
    )
    return options + site


def _wait(what: str, test: Any, process: subprocess.Popen[bytes], log: Path) -> Any:
    deadline = time.monotonic() + TIMEOUT
    while True:
        with contextlib.suppress(OSError, httpx.HTTPError, ssl.SSLError):
            found = test()
            if found:
                return found
        if process.poll() is not None:
            raise AssertionError(f"caddy exited with {process.returncode}: {log.read_text()[-3000:]}")
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {TIMEOUT:.0f} s for {what}: {log.read_text()[-3000:]}")
        time.sleep(0.1)


@pytest.fixture(scope="module")
def edge(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Edge]:
    """The card room behind Caddy, both on free ports of 127.0.0.1."""
    caddy = _caddy()
    folder = tmp_path_factory.mktemp("deploy")
    https_port, http_port = free_port(), free_port()
    public = f"https://localhost:{https_port}"
    args = ["--trusted-proxy", "127.0.0.1", "--public-url", public]
    with running(f"sqlite:///{folder / 'cardroom.sqlite3'}", pause=1.5, args=args) as room:
        config = folder / "Caddyfile"
        config.write_text(caddyfile(SHIPPED.read_text(), https_port, http_port, room.port))
        # Caddy keeps its CA and certificates under $XDG_DATA_HOME/caddy: this test's own folder.
        env = {
            **os.environ,
            "HOME": str(folder),
            "XDG_DATA_HOME": str(folder / "data"),
            "XDG_CONFIG_HOME": str(folder / "config"),
        }
        log = folder / "caddy.log"
        with log.open("wb") as out:
            command = [caddy, "run", "--config", str(config), "--adapter", "caddyfile"]
            process = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)
        try:
            root = folder / "data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
            _wait("Caddy's root certificate", root.exists, process, log)
            made = Edge(public, root, room.base)
            context = made.trusting()
            _wait(
                "the room through Caddy",
                lambda: httpx.get(f"{public}/healthz", verify=context, timeout=5).status_code == 200,
                process,
                log,
            )
            yield made
        finally:
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(10)


def test_the_health_checks_answer_through_the_proxy(edge: Edge) -> None:
    with httpx.Client(base_url=edge.base, verify=edge.trusting(), timeout=10) as client:
        alive = client.get("/healthz")
        assert alive.status_code == 200 and alive.json() == {"status": "ok"}
        ready = client.get("/readyz")
        assert ready.status_code == 200, ready.text
        assert ready.json()["status"] == "ready"
        assert client.get("/metrics").status_code == 403  # the player's address, not the proxy's


def _set_cookie(response: httpx.Response) -> str:
    found = [v for v in response.headers.get_list("set-cookie") if v.startswith(f"{COOKIE}=")]
    assert found, f"no session cookie in {response.headers.get_list('set-cookie')}"
    return found[0]


def test_a_guests_cookie_is_secure_behind_the_proxy_and_not_in_the_clear(edge: Edge) -> None:
    behind = httpx.post(f"{edge.base}/api/guest", verify=edge.trusting(), timeout=10)
    assert behind.status_code == 200, behind.text
    said = [part.strip().lower() for part in _set_cookie(behind).split(";")]
    assert "secure" in said and "httponly" in said
    # The same room reached in the clear (no proxy, so no X-Forwarded-Proto): no Secure.
    direct = httpx.post(f"{edge.room}/api/guest", timeout=10)
    assert direct.status_code == 200, direct.text
    assert "secure" not in [part.strip().lower() for part in _set_cookie(direct).split(";")]


def _choose(actions: list[dict[str, Any]]) -> str:
    by_kind = {a["kind"]: a["action"] for a in actions}
    return next(str(by_kind[kind]) for kind in PREFERRED if kind in by_kind)


def _ended(message: dict[str, Any], acted: set[int]) -> bool:
    """Whether an event message is the end of a hand the player acted in."""
    return bool(message["event"]["type"] == "hand_ended" and message.get("hand") in acted)


def test_a_websocket_over_wss_says_hello_sits_and_plays_a_hand(edge: Edge) -> None:
    from websockets.sync.client import connect
    from websockets.typing import Origin

    context = edge.trusting()
    with httpx.Client(base_url=edge.base, verify=context, timeout=10) as client:
        client.post("/api/guest").raise_for_status()
        me = client.get("/api/me").json()
        made = client.post("/api/tables", json={"game": "stud8", "seats": 3, "bots": 2})
        assert made.status_code == 200, made.text
        table = made.json()["id"]
        assert made.json().get("server", edge.base) == edge.base  # the lobby sends clients here
        line = next(t for t in client.get("/api/lobby").json() if t["id"] == table)
        token = client.cookies[COOKIE]
    url = edge.base.replace("https://", "wss://") + "/ws"
    headers = {"Cookie": f"{COOKIE}={token}"}
    with connect(url, ssl=context, origin=Origin(edge.base), additional_headers=headers) as ws:
        ws.send(json.dumps({"type": "hello", "version": PROTOCOL_VERSION, "table": table}))
        acted: set[int] = set()
        sat = False
        deadline = time.monotonic() + 3 * TIMEOUT
        while True:
            assert time.monotonic() < deadline, f"no hand played through the proxy (acted in {acted})"
            message = json.loads(ws.recv(timeout=TIMEOUT))
            kind = message.get("type")
            assert kind != "error", message
            if kind == "snapshot" and not sat:
                taken = {s["seat"] for s in message["view"]["seats"]}
                seat = min(set(range(1, 4)) - taken)
                ws.send(json.dumps({"type": "sit", "seat": seat, "buy_in": line["min_buy_in"]}))
                sat = True
            elif kind == "your_turn":
                choice = _choose(message["actions"])
                act = {"type": "act", "hand": message["hand"], "street": message["street"], "action": choice}
                ws.send(json.dumps(act))
                acted.add(int(message["hand"]))
            elif kind == "event" and _ended(message, acted):
                break
    after = httpx.get(f"{edge.base}/api/hands", verify=context, cookies={COOKIE: token}, timeout=10)
    assert after.status_code == 200, after.text
    assert me["name"] and after.json(), "the hand played is not among the player's hands"


def test_the_browser_plays_a_hand_over_https_with_a_secure_cookie(edge: Edge) -> None:
    from tests.web.conftest import chromium_path

    path = chromium_path()
    if path is None:
        reason = "Debian's chromium is not installed (tools/chromium.sh installs it; make test runs it)"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    playwright_api = pytest.importorskip("playwright.sync_api")
    expect = playwright_api.expect
    timeout = TIMEOUT * 1000
    with playwright_api.sync_playwright() as playwright:
        # Caddy's internal CA is in no browser's trust store: its certificate errors are ignored.
        browser = playwright.chromium.launch(
            executable_path=path,
            headless=True,
            args=["--disable-dev-shm-usage", "--ignore-certificate-errors"],
        )
        try:
            context = browser.new_context(ignore_https_errors=True, viewport={"width": 1280, "height": 860})
            page = context.new_page()
            said: list[str] = []
            sockets: list[str] = []
            page.on("console", lambda m: said.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: said.append(str(e)))
            page.on("websocket", lambda socket: sockets.append(socket.url))
            page.goto(f"{edge.base}/")
            expect(page.locator("body[data-ready]")).to_have_count(1, timeout=timeout)
            page.get_by_test_id("guest").click()
            expect(page.get_by_test_id("signed-in")).to_be_visible(timeout=timeout)
            session = next(c for c in context.cookies() if c["name"] == COOKIE)
            assert session["secure"] and session["httpOnly"], session
            page.get_by_test_id("create-seats").select_option("3")
            page.get_by_test_id("create-bots").select_option("2")
            page.get_by_test_id("create-game").select_option("stud8")
            page.get_by_test_id("create").click()
            page.wait_for_url(re.compile(r"^https://localhost:\d+/table/\d+$"), timeout=timeout)
            expect(page.locator(".seat.empty button").first).to_be_visible(timeout=timeout)
            page.locator(".seat.empty button").first.click()
            page.get_by_test_id("sit-down").click()
            expect(page.locator(".seat.you")).to_have_count(1, timeout=timeout)
            felt = page.get_by_test_id("felt")
            seen = felt.get_attribute("data-last-hand") or ""
            clicked: list[str] = []
            deadline = time.monotonic() + 3 * TIMEOUT
            # Until a hand the player acted in has ended: each wait is for the page itself
            # (an action button, or the last hand's number changing), never a fixed sleep.
            while True:
                assert time.monotonic() < deadline, f"no hand finished by clicking; clicked {clicked}"
                page.wait_for_function(
                    """seen => document.querySelector('[data-testid=actions] button:not([disabled])')
                        || (document.getElementById('felt').dataset.lastHand || '') !== seen""",
                    arg=seen,
                    timeout=timeout,
                )
                last = felt.get_attribute("data-last-hand") or ""
                if last != seen:
                    seen = last
                    if clicked:
                        break
                    continue
                bar = page.get_by_test_id("actions")
                for kind in PREFERRED:
                    button = bar.locator(f"[data-testid=act-{kind}]:not([disabled])")
                    if button.count():
                        button.first.click()
                        clicked.append(kind)
                        break
            assert sockets and all(url.startswith("wss://localhost:") for url in sockets), sockets
            assert not said, said
            context.close()
        finally:
            browser.close()
