"""The operator's side (issue 33, points 1, 2 and 4): ``sevenstud admin``, the operator API
under ``/api/admin/``, suspensions, chip moves with a reason, and the event log."""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from sqlalchemy import update

from sevenstud.server.accounts import auth
from sevenstud.server.accounts.sessions import COOKIE, LOGGED_OUT
from sevenstud.server.app import create_app
from sevenstud.server.audit import audit
from sevenstud.server.limits import Limits
from sevenstud.server.operators import accounts, log
from sevenstud.server.operators.command import admin_command
from sevenstud.server.protocol import PROTOCOL_VERSION
from sevenstud.server.store import Store
from sevenstud.server.store.models import LoginSession, OperatorEvent, Player
from tests.spawn import in_thread

PASSWORD = "correct horse battery"


def _client(address: str, name: str | None = None) -> httpx.Client:
    """A client logged in as ``name`` (None: a new guest)."""
    client = httpx.Client(base_url=f"http://{address}")
    if name is None:
        client.post("/api/guest").raise_for_status()
    else:
        client.post("/api/login", json={"name": name, "password": PASSWORD}).raise_for_status()
    return client


def _admin_routes(app: Any) -> list[tuple[str, str]]:
    """Every (method, path) of the operator API, with a name filled in (from the app's own
    OpenAPI description, which lists every route it includes)."""
    found = []
    for path, methods in app.openapi()["paths"].items():
        if path.startswith("/api/admin"):
            found += [(method.upper(), path.replace("{name}", "somebody")) for method in sorted(methods)]
    return found


def test_every_operator_route_refuses_a_player_a_guest_and_nobody(store: Store) -> None:
    """Rule: the operator API is the operators' alone: 403 to a player's and a guest's
    session, 401 without one; nothing changes."""
    auth.sign_up(store, "pat", PASSWORD)
    auth.sign_up(store, "somebody", PASSWORD)
    app = create_app(store, pause=0.05)
    routes = _admin_routes(app)
    assert len(routes) >= 7, routes
    with in_thread(app) as address:
        for client, status in ((_client(address, "pat"), 403), (_client(address), 403)):
            for method, path in routes:
                body = {"amount": 5, "reason": "x"} if method == "POST" else None
                answer = client.request(method, path, json=body)
                assert answer.status_code == status, (method, path, answer.text)
        nobody = httpx.Client(base_url=f"http://{address}")
        for method, path in routes:
            assert nobody.request(method, path).status_code == 401, (method, path)
    with store.session() as s:
        # (the house's sit-and-go the schedule opened at the start is its own line)
        assert s.query(OperatorEvent).filter(OperatorEvent.action != "tournament_scheduled").count() == 0


async def _seated_socket(address: str, token: str, table: int) -> Any:
    headers = {"Cookie": f"{COOKIE}={token}"}
    ws = await websockets.connect(f"ws://{address}/ws", additional_headers=headers)
    await ws.send(json.dumps({"type": "hello", "version": PROTOCOL_VERSION, "table": table, "last": 0}))
    await ws.send(json.dumps({"type": "sit", "seat": 1, "buy_in": 100}))
    return ws


def test_an_operator_moves_chips_suspends_a_seated_player_and_lifts_it(store: Store, tmp_path: Path) -> None:
    """An operator (made by ``sevenstud admin``) gives chips with a reason, suspends a player
    who is seated and watching (their page is closed with the reason at once, their chips go
    back when they are stood up, their log-in is refused with the reason), and lifts it; every
    action is in the event log and the audit stays clean."""
    password_file = tmp_path / "password"
    password_file.write_text(PASSWORD + "\n")
    made = argparse.Namespace(admin="create", name="boss", password_file=password_file, database=store.url)
    made.database = store.engine.url.render_as_string(hide_password=False)
    assert admin_command(made) == 0
    auth.sign_up(store, "pat", PASSWORD)
    app = create_app(store, pause=0.05)
    with in_thread(app) as address:
        boss, pat = _client(address, "boss"), _client(address, "pat")
        table = pat.post("/api/tables", json={"game": "stud8", "seats": 3, "bots": 1}).json()["id"]
        found = boss.get("/api/admin/accounts", params={"q": "PA"}).json()
        assert [line["name"] for line in found] == ["pat"]
        refused = boss.post("/api/admin/accounts/pat/chips", json={"amount": 250, "reason": "  "})
        assert refused.status_code == 400 and "say why" in refused.json()["detail"]
        given = boss.post("/api/admin/accounts/pat/chips", json={"amount": 250, "reason": "league prize"})
        assert given.json() == {"balance": 1250}

        async def suspended_while_seated() -> tuple[int, str]:
            ws = await _seated_socket(address, pat.cookies[COOKIE], table)
            for _ in range(200):  # seated: the bot and pat are dealt in
                message = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if message.get("type") == "event" and "pat" in json.dumps(message):
                    break
            answer = await asyncio.to_thread(
                boss.post, "/api/admin/accounts/pat/suspend", json={"days": 2, "reason": "abuse in chat"}
            )
            assert answer.status_code == 200, answer.text
            with pytest.raises(websockets.ConnectionClosed) as closed:
                for _ in range(500):
                    await asyncio.wait_for(ws.recv(), 10)
            assert closed.value.rcvd is not None
            return closed.value.rcvd.code, closed.value.rcvd.reason

        code, reason = asyncio.run(suspended_while_seated())
        assert code == LOGGED_OUT and "suspended" in reason
        assert pat.get("/api/me").status_code == 401  # the session ended
        again = httpx.post(f"http://{address}/api/login", json={"name": "pat", "password": PASSWORD})
        assert again.status_code == 403
        assert "suspended until" in again.json()["detail"] and "abuse in chat" in again.json()["detail"]
        occupants = app.state.cardroom.rooms[table].keeper.occupants
        for _ in range(200):  # stood up at the end of the hand: the stack back to the balance
            if "pat" not in occupants:
                break
            asyncio.run(asyncio.sleep(0.05))
        assert "pat" not in occupants
        lifted = boss.post("/api/admin/accounts/pat/lift", json={"reason": "appeal heard"})
        assert lifted.status_code == 200
        back = httpx.post(f"http://{address}/api/login", json={"name": "pat", "password": PASSWORD})
        assert back.status_code == 200
        events = boss.get("/api/admin/events", params={"target": "pat"}).json()
        assert [e["action"] for e in events] == ["lift", "suspend", "chips"]
        assert events[2]["operator"] == "boss" and events[2]["reason"] == "league prize"
        granted = boss.get("/api/admin/events", params={"action": "grant"}).json()
        assert granted[0]["operator"] == log.COMMAND_LINE
    report = audit(store)
    assert report.ok, str(report)


def test_an_operators_session_acts_only_within_minutes_of_signing_in(store: Store) -> None:
    accounts.create(store, log.COMMAND_LINE, "boss", PASSWORD)
    app = create_app(store, pause=0.05)
    with in_thread(app) as address:
        boss = _client(address, "boss")
        assert boss.get("/api/admin/accounts").status_code == 200
        with store.transaction() as s:
            s.execute(update(LoginSession).values(created_at=LoginSession.created_at - 3600))
        stale = boss.get("/api/admin/accounts")
        assert stale.status_code == 401 and "sign in again" in stale.json()["detail"]
        assert boss.get("/api/me").status_code == 200  # still a player's session


def test_admin_commands_refuse_what_makes_no_sense_and_change_nothing(store: Store, capsys: Any) -> None:
    url = store.engine.url.render_as_string(hide_password=False)
    auth.guest(store)
    with store.session() as s:
        guest_name = s.query(Player).one().name
    for verb, name in (("grant", "nobody"), ("grant", guest_name), ("revoke", guest_name)):
        assert admin_command(argparse.Namespace(admin=verb, name=name, database=url)) == 1
        assert capsys.readouterr().err.startswith("sevenstud admin: ")
    with store.session() as s:
        assert s.query(OperatorEvent).count() == 0
        assert s.query(Player).one().role == "player"
    with pytest.raises(accounts.OperatorError, match="whole number"):
        accounts.move_chips(store, "boss", guest_name, 0, "because")


def test_api_tokens_have_scopes_are_limited_logged_and_revocable(store: Store, capsys: Any) -> None:
    """An operator API token (``sevenstud admin token``): stored hashed, it may do what its
    scopes say and nothing else, each of its calls is in the event log, past its limit it is
    refused 429, and once revoked it is refused 401. /openapi.json is the operators' alone."""
    url = store.engine.url.render_as_string(hide_password=False)
    scopes = ["accounts:read"]
    made = argparse.Namespace(admin="token", label="league site", scope=scopes, revoke=None, database=url)
    assert admin_command(made) == 0
    token = capsys.readouterr().out.strip().splitlines()[-1]
    assert token.startswith("ssk_")
    with store.session() as s:
        assert token not in json.dumps([list(r) for r in s.execute(select_tokens())])
    auth.sign_up(store, "pat", PASSWORD)
    accounts.create(store, log.COMMAND_LINE, "boss", PASSWORD)
    limits = Limits().changed("api_calls_per_token=5")
    app = create_app(store, pause=0.05, limits=limits)
    with in_thread(app, limits) as address:
        bearer = httpx.Client(base_url=f"http://{address}", headers={"Authorization": f"Bearer {token}"})
        assert [a["name"] for a in bearer.get("/api/admin/accounts", params={"q": "pat"}).json()] == ["pat"]
        moved = bearer.post("/api/admin/accounts/pat/chips", json={"amount": 5, "reason": "x"})
        assert moved.status_code == 403 and "accounts:write" in moved.json()["detail"]
        assert bearer.get("/api/admin/tokens").status_code == 401  # tokens are made by sessions only
        for _ in range(5):
            last = bearer.get("/api/admin/accounts/pat")
        assert last.status_code == 429 and last.json()["limit"] == "api_calls_per_token"
        boss = _client(address, "boss")
        calls = boss.get("/api/admin/events", params={"action": "api_call"}).json()
        assert calls and all(c["operator"].startswith("token 1 (league site)") for c in calls)
        paths = {c["detail"]["path"] for c in calls}
        assert paths >= {"/api/admin/accounts", "/api/admin/accounts/pat/chips"}
        assert boss.post("/api/admin/tokens/1/revoke").json() == {"revoked": 1}
        assert bearer.get("/api/admin/accounts").status_code == 401
        fresh = boss.post("/api/admin/tokens", json={"label": "script", "scopes": ["events:read"]}).json()
        assert fresh["token"].startswith("ssk_") and fresh["id"] == 2
        assert boss.get("/openapi.json").json()["paths"]["/api/admin/accounts"]
        assert _client(address, "pat").get("/openapi.json").status_code == 403
        assert httpx.get(f"http://{address}/openapi.json").status_code == 401
    assert audit(store).ok


def select_tokens() -> Any:
    from sqlalchemy import select

    from sevenstud.server.store.models import ApiToken

    return select(ApiToken.token_hash, ApiToken.label, ApiToken.scopes)


def test_the_audit_allows_actions_in_flight_together_but_not_a_line_slipped_in(store: Store) -> None:
    """Two actions in flight at once take their times, then their ids: the later time may get
    the earlier id (found on PostgreSQL under load). A moment apart is allowed; a line whose
    time is well before the line it follows is not."""
    from sevenstud.server.store import events

    with store.transaction() as s:
        events.add_event(s, 1000.0, "op", "first", None, "", {})
        events.add_event(s, 999.6, "op", "raced", None, "", {})  # in flight with the first
    with store.session() as s:
        assert log.check(s) == []
    with store.transaction() as s:
        late = events.add_event(s, 900.0, "op", "slipped in", None, "", {})
    with store.session() as s:
        assert log.check(s) == [f"operator event {late.id}: its time is before the event it follows"]
