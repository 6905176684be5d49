"""The tournament lobby over HTTP and a tournament table over the websocket (issue 15, points 5,
7 and 9; docs/protocol.md, "Tournaments"): a person and five bots play a sit-and-go through the
real app to the end on an accelerated clock; the balance pays the entry and takes the prize."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import httpx
import pytest
import websockets

from sevenstud.server.accounts.sessions import COOKIE
from sevenstud.server.app import create_app
from sevenstud.server.audit import audit
from sevenstud.server.protocol import SERVER
from sevenstud.server.store import Store
from tests.house import house_tournament, operator
from tests.spawn import in_thread


def _guest(base: str) -> tuple[httpx.Client, dict[str, Any]]:
    client = httpx.Client(base_url=base, timeout=10)
    me = client.post("/api/guest").json()
    return client, me


async def _play(
    address: str, token: str, me_name: str, first_table: int, seconds: float
) -> list[dict[str, Any]]:
    """Play the first legal action (check or call before folding) at every turn, following a
    move; return every message of the tournament's kinds, until this player's finish."""
    seen: list[dict[str, Any]] = []
    table = first_table
    end = time.monotonic() + seconds
    headers = {"Cookie": f"{COOKIE}={token}"}
    while time.monotonic() < end:
        async with websockets.connect(f"ws://{address}/ws", additional_headers=headers) as ws:
            await ws.send(json.dumps({"type": "hello", "version": 1, "table": table, "last": 0}))
            if not any(m["type"] == "chat" for m in seen):  # table chat, as at a cash table
                await ws.send(json.dumps({"type": "chat", "text": "good luck all"}))
            moved = False
            while not moved:
                raw = await asyncio.wait_for(ws.recv(), max(0.1, end - time.monotonic()))
                message = json.loads(raw)
                SERVER.validate_python(message)  # every message is one the schema names
                kind = message["type"]
                if kind.startswith("tournament") or kind in ("hand_for_hand", "chat", "error"):
                    seen.append(message)
                if kind == "your_turn":
                    actions = [a["action"] for a in message["actions"]]
                    pick = next(
                        (a for a in actions if a.startswith(("check", "call", "bring-in"))), actions[0]
                    )
                    act = {
                        "type": "act",
                        "hand": message["hand"],
                        "street": message["street"],
                        "action": pick,
                    }
                    await ws.send(json.dumps(act))
                elif kind == "tournament_moved":
                    table, moved = message["table"], True
                elif (kind == "tournament_finish" and message["player"] == me_name) or (
                    kind == "tournament_state" and message["state"] == "finished"
                ):
                    return seen
    raise AssertionError("the sit-and-go did not end in time")


@pytest.mark.alone
def test_a_person_and_five_bots_play_a_sit_and_go_through_the_lobby(store: Store) -> None:
    app = create_app(store, pause=0.01)
    app.state.tournaments.max_speed = 1000.0
    with in_thread(app) as address:
        base = f"http://{address}"
        client, me = _guest(base)
        house = operator(store, base)  # public tournaments are the house's (issue 33)
        start = me["balance"]
        # A speed past the server's is refused; so is an unknown template, naming the field.
        too_fast = house.post("/api/admin/tournaments", json={"template": "sng-6", "speed": 5000.0})
        assert too_fast.status_code == 422
        assert house.post("/api/admin/tournaments", json={"template": "sng-5"}).status_code == 422
        made = house_tournament(house, {"template": "sng-6", "bots": 5, "speed": 300.0})
        tid = made["id"]
        lobby = client.get("/api/tournaments", params={"state": "registering"}).json()
        line = next(t for t in lobby if t["id"] == tid)
        assert line["registered"] == 5 and line["seats"] == 6 and line["buy_in"] == 100
        assert client.get("/api/tournaments", params={"state": "nonsense"}).status_code == 422
        # Unregistering before the start refunds; registering fills it and starts it.
        assert client.post(f"/api/tournaments/{tid}/register").status_code == 200
        assert client.post(f"/api/tournaments/{tid}/register").status_code == 409  # twice: refused
        page = client.get(f"/api/tournaments/{tid}").json()
        assert page["state"] == "running" and page["prize_pool"] == 600 and page["payouts"] == [390, 210]
        assert page["you"]["name"] == me["name"] and page["you"]["chips"] == 1500
        assert client.post(f"/api/tournaments/{tid}/unregister").status_code == 409  # started
        assert client.get("/api/me").json()["balance"] == start - 110
        table_id = None
        deadline = time.monotonic() + 10
        while table_id is None:  # null for a moment: until the table is opened
            assert time.monotonic() < deadline, "the table was never opened"
            page = client.get(f"/api/tournaments/{tid}").json()
            table_id = next(t["table_id"] for t in page["tables"] if t["number"] == page["you"]["table"])
        token = client.cookies[COOKIE]
        seen = asyncio.run(_play(address, token, me["name"], table_id, 90))
        kinds = {m["type"] for m in seen}
        assert "tournament_finish" in kinds
        said = [m for m in seen if m["type"] == "chat"]
        assert said and said[0]["player"] == me["name"] and said[0]["text"] == "good luck all", seen
        assert not [m for m in seen if m["type"] == "error"], seen
        deadline = time.monotonic() + 30
        while client.get(f"/api/tournaments/{tid}").json()["state"] != "finished":
            assert time.monotonic() < deadline
            time.sleep(0.1)
        page = client.get(f"/api/tournaments/{tid}").json()
        places = sorted(e["place"] for e in page["entrants"])
        assert places == [1, 2, 3, 4, 5, 6]
        assert page["tables"] == [], "a finished tournament lists no table in play"
        mine = next(e for e in page["entrants"] if e["name"] == me["name"])
        assert client.get("/api/me").json()["balance"] == start - 110 + mine["prize"]
        finished = client.get("/api/tournaments", params={"state": "finished"}).json()
        assert [t["id"] for t in finished] == [tid]
        # Point 8: the hands carry the tournament header; the summary is PokerStars'.
        hands = client.get("/api/hands").json()
        assert hands, "the person was dealt no hand"
        text = client.get(f"/api/hands/{hands[0]['id']}", params={"format": "pokerstars"}).text
        assert (
            f"PokerStars Hand #{hands[0]['id']}: Tournament #{tid}, 100+10 7 Card Stud Hi/Lo Limit - Level I"
            in text
        )
        phh = client.get(f"/api/hands/{hands[-1]['id']}", params={"format": "phh"}).text
        assert f'event = "Tournament #{tid}"' in phh and "level = " in phh and f"_tournament = {tid}" in phh
        summary = client.get(f"/api/tournaments/{tid}/summary").text
        assert summary.startswith(
            f"PokerStars Tournament #{tid}, 7 Card Stud Hi/Lo Limit\nBuy-In: 100/10\n6 players"
        )
        place = mine["place"]
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(place, "th")
        received = f" and received {mine['prize']}" if mine.get("prize") else ""
        assert summary.endswith(f"You finished in {place}{suffix} place{received}.")
    report = audit(store)
    assert report.ok, report


def test_registering_needs_a_login_and_unknown_tournaments_are_named(store: Store) -> None:
    app = create_app(store, pause=0.01)
    with in_thread(app) as address:
        anonymous = httpx.Client(base_url=f"http://{address}", timeout=10)
        assert anonymous.post("/api/tournaments/1/register").status_code == 401
        client, _ = _guest(f"http://{address}")
        answer = client.post("/api/tournaments/999/register")
        assert answer.status_code == 409 and "no tournament 999" in answer.json()["detail"]
        assert client.get("/api/tournaments/999").status_code == 404


@pytest.fixture(params=["sqlite"])
def db_url(request: pytest.FixtureRequest, tmp_path: Any) -> str:  # SQLite only: a slow test
    return f"sqlite:///{tmp_path / 'cardroom.sqlite3'}"


def test_a_fast_scheduled_tournaments_start_is_a_wall_time_and_it_starts_then(store: Store) -> None:
    """Rule (issue 35, point 3): `start_at` means one thing, a wall time, whatever the clock's
    speed: with `"speed": 60, "start_in": 10` the page said now + 600 s while the tournament
    started (or, short of its field, was cancelled) after 10 s."""
    app = create_app(store, pause=0.01)
    app.state.tournaments.max_speed = 1000.0
    with in_thread(app) as address:
        base = f"http://{address}"
        client, _me = _guest(base)
        house = operator(store, base)
        asked = time.time()
        body = {"template": "mtt-turbo", "speed": 60.0, "start_in": 10.0, "min_field": 2}
        made = house.post("/api/admin/tournaments", json=body)
        assert made.status_code == 200, made.text
        tid = made.json()["id"]
        page = client.get(f"/api/tournaments/{tid}").json()
        line = next(t for t in client.get("/api/tournaments").json() if t["id"] == tid)
        for shown in (page["start_at"], line["start_at"]):
            assert asked + 9 <= shown <= time.time() + 11, shown - asked
        assert house.post("/api/admin/tournaments", json={**body, "start_in": 9.0}).status_code == 422
        deadline = time.monotonic() + 30
        while client.get(f"/api/tournaments/{tid}").json()["state"] == "registering":
            assert time.monotonic() < deadline, "never started nor cancelled"
            time.sleep(0.2)
        ended = time.time()
        assert ended - asked < 20, "it waited for the tournament clock's 600 s, not the wall's 10"
        assert ended >= page["start_at"] - 1
