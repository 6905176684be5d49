"""What every page asks the server first: who is logged in (``GET /api/session``, a 200 either
way, so that a signed-out page logs no error) and the icon (``GET /favicon.ico``, no 404)."""

from __future__ import annotations

import httpx

from sevenstud.server.web import WEB


def test_the_session_says_no_account_when_signed_out_and_the_account_when_signed_in(server: str) -> None:
    """Rule: signed out is an answer (``{"account": null}``, 200), not a 401."""
    with httpx.Client(base_url=f"http://{server}") as client:
        answer = client.get("/api/session")
        assert answer.status_code == 200 and answer.json() == {"account": None}
        client.post("/api/guest").raise_for_status()
        account = client.get("/api/session").json()["account"]
        assert account == client.get("/api/me").json()
        client.post("/api/logout").raise_for_status()
        assert client.get("/api/session").json() == {"account": None}


def test_the_icon_is_served_where_browsers_ask_and_where_the_pages_name_it(server: str) -> None:
    """Rule: /favicon.ico and /web/favicon.svg are the package's icon, never a 404."""
    for path in ("/favicon.ico", "/web/favicon.svg"):
        answer = httpx.get(f"http://{server}{path}")
        assert answer.status_code == 200, path
        assert answer.headers["content-type"].startswith("image/svg+xml"), path
        assert answer.content == (WEB / "favicon.svg").read_bytes()
    for page in ("index.html", "table.html", "equity.html", "replay.html"):
        assert 'rel="icon" href="/web/favicon.svg"' in (WEB / page).read_text(), page
