"""The pages' Content-Security-Policy in Debian's chromium (issue 36, point 7): ``connect-src
'self'`` lets a page open a websocket to its own server (CSP level 3's 'self' covers ws: and
wss: of the page's own host and port) and to no other host, where ``ws: wss:`` let it reach any."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import pytest

pytest.importorskip("playwright")

OPEN_BOTH = """async ([own, other]) => {
  const violations = [];
  document.addEventListener("securitypolicyviolation",
    (e) => violations.push(`${e.effectiveDirective} ${e.blockedURI}`));
  const attempt = (url) => new Promise((resolve) => {
    let ws;
    try { ws = new WebSocket(url); } catch (error) { resolve("thrown " + error.name); return; }
    ws.onopen = () => { ws.close(); resolve("open"); };
    ws.onerror = () => resolve("error");
    setTimeout(() => resolve("timeout"), 5000);
  });
  const results = [await attempt(own), await attempt(other)];
  await new Promise((resolve) => setTimeout(resolve, 200));
  return { results, violations };
}"""


def test_a_page_opens_its_own_websocket_and_no_other_hosts(page: Any, server: str) -> None:
    """Rule: on the lobby page, a websocket to the page's own server opens; one to another host
    (``localhost`` for a page of 127.0.0.1, a server that would answer) is blocked by the
    policy, which reports connect-src."""
    page.goto(f"{server}/")
    csp = page.request.get(f"{server}/").headers["content-security-policy"]
    assert "connect-src 'self';" in csp and "ws:" not in csp, csp
    port = urlsplit(server).port
    seen = page.evaluate(OPEN_BOTH, [f"ws://127.0.0.1:{port}/ws", f"ws://localhost:{port}/ws"])
    assert seen["results"][0] == "open", seen
    assert seen["results"][1] != "open", seen
    assert any(v.startswith("connect-src ws://localhost") for v in seen["violations"]), seen
