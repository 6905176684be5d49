"""The app over real HTTP and websockets: a real uvicorn on 127.0.0.1 (a free port), both databases."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

import httpx
import pytest
import websockets

from sevenstud.server.accounts import auth
from sevenstud.server.accounts.sessions import COOKIE
from sevenstud.server.app import create_app
from sevenstud.server.audit import audit
from sevenstud.server.protocol import MAX_MESSAGE_BYTES, PROTOCOL_VERSION, SERVER
from sevenstud.server.store import Store, ledger
from sevenstud.server.store.models import Player


def _guest_with_table(address: str, bots: int = 2) -> tuple[str, int]:
    with httpx.Client(base_url=f"http://{address}") as client:
        client.post("/api/guest").raise_for_status()
        token = client.cookies[COOKIE]
        table = client.post("/api/tables", json={"game": "stud8", "seats": 4, "bots": bots}).json()["id"]
    return token, table


async def _exchange(
    address: str, token: str, sent: list[str], wanted: int, **headers: str
) -> list[dict[str, Any]]:
    got: list[dict[str, Any]] = []
    async with websockets.connect(
        f"ws://{address}/ws", additional_headers={"Cookie": f"{COOKIE}={token}", **headers}
    ) as ws:
        for text in sent:
            await ws.send(text)
        while len(got) < wanted:
            got.append(json.loads(await asyncio.wait_for(ws.recv(), 5)))
    return got


def _hello(table: int, last: int = 0, version: int = PROTOCOL_VERSION) -> str:
    return json.dumps({"type": "hello", "version": version, "table": table, "last": last})


def test_protocol_schema_and_lobby_are_served(server: str) -> None:
    schema = httpx.get(f"http://{server}/protocol.json").json()
    assert schema["version"] == PROTOCOL_VERSION
    assert "hello" in json.dumps(schema["client"])
    # Every message's type is required, either way (the models default it on the server's
    # side), and the wire format that events and views follow is there too.
    for side in ("client", "server"):
        for name, model in schema[side]["$defs"].items():
            if "type" in model.get("properties", {}):
                assert "type" in model["required"], (side, name)
    assert {"card_dealt", "table_view", "view"} <= set(schema["wire"]["$defs"])
    _guest_with_table(server)
    assert httpx.get(f"http://{server}/api/lobby").json()[0]["taken"] == 2


def test_the_session_cookie_is_httponly(server: str) -> None:
    response = httpx.post(f"http://{server}/api/guest")
    assert "httponly" in response.headers["set-cookie"].lower()
    assert "samesite=strict" in response.headers["set-cookie"].lower()


def _numbered_in_order(messages: list[dict[str, Any]]) -> None:
    """Every message is one of the protocol's; the stream's entries follow the snapshot's or
    the resumed number one by one, and every other message carries the number it reflects."""
    for message in messages:
        SERVER.validate_python(message)
    expected = None
    for message in messages:
        if message["type"] in ("snapshot", "welcome") and expected is None:
            expected = message["number"] + 1 if message["type"] == "snapshot" else None
        elif message["type"] == "event":
            assert expected is None or message["number"] == expected, messages
            expected = message["number"] + 1


def test_a_spectator_gets_a_snapshot_then_numbered_events_and_resumes_from_the_last_number(
    server: str, store: Store
) -> None:
    token, table = _guest_with_table(server)
    before = time.time()
    first = asyncio.run(_exchange(server, token, [_hello(table)], 40))
    after = time.time()  # forty messages take the bots' play: the welcome came in between
    assert first[0]["type"] == "welcome" and first[0]["seat"] is None
    assert first[0]["grace"] > 0 and before - 1 < first[0]["server_time"] < after + 1
    # A client that saw nothing gets the table as it is now, at once, then what follows.
    assert first[1]["type"] == "snapshot" and first[1]["view"]["viewer"] is None
    _numbered_in_order(first)
    events = [m for m in first if m["type"] == "event"]
    assert all(m["event"].get("card") is None for m in events if m["event"].get("face_up") is False)
    # The clock: the action time's end and the deadline with the time bank, for the turn now.
    clocks = [m for m in first if m["type"] == "clock"]
    assert clocks and all(c["act_by"] <= c["deadline"] and c["grace"] > 0 for c in clocks)
    started = {m["number"]: m["event"] for m in events if m["event"]["type"] == "clock_started"}
    assert all(started[c["number"]]["deadline"] == c["deadline"] for c in clocks if c["number"] in started)
    last = events[-1]["number"]
    again = asyncio.run(_exchange(server, token, [_hello(table, last=last)], 4))
    assert again[0]["type"] == "welcome"
    assert next(m for m in again if m["type"] in ("event", "snapshot"))["number"] == last + 1
    _numbered_in_order(again)
    # A number the table never reached (another server's, a database reset): a snapshot.
    ahead = asyncio.run(_exchange(server, token, [_hello(table, last=10**9)], 2))
    assert ahead[1]["type"] == "snapshot"


async def _lobby_line_while_watching(address: str, token: str, table: int, hands: int) -> dict[str, Any]:
    """The table's lobby line once it has played ``hands`` hands, with a spectator watching
    it meanwhile (a table of bots alone deals only while somebody watches)."""
    async with (
        websockets.connect(f"ws://{address}/ws", additional_headers={"Cookie": f"{COOKIE}={token}"}) as ws,
        httpx.AsyncClient(base_url=f"http://{address}") as http,
    ):
        await ws.send(_hello(table))
        deadline = time.monotonic() + 20
        while True:
            line: dict[str, Any] = next(t for t in (await http.get("/api/lobby")).json() if t["id"] == table)
            if line["hands"] >= hands or time.monotonic() > deadline:
                return line
            with contextlib.suppress(TimeoutError):
                while True:  # read what the table sends, for a tenth of a second
                    await asyncio.wait_for(ws.recv(), 0.1)


def test_the_lobby_shows_average_pot_and_hands_per_hour(server: str) -> None:
    token, table = _guest_with_table(server, bots=3)
    line = asyncio.run(_lobby_line_while_watching(server, token, table, 2))
    assert line["hands"] >= 2 and line["taken"] == 3
    assert line["average_pot"] > 0 and line["hands_per_hour"] > 0
    assert line["waiting"] == 0 and line["stakes"] == [1, 2, 5, 10]


def test_log_in_sets_an_httponly_samesite_session_cookie(server: str) -> None:
    with httpx.Client(base_url=f"http://{server}") as client:
        client.post("/api/signup", json={"name": "ann", "password": "correct horse"}).raise_for_status()
    with httpx.Client(base_url=f"http://{server}") as client:
        assert client.get("/api/me").status_code == 401
        response = client.post("/api/login", json={"name": "ann", "password": "correct horse"})
        cookie = response.headers["set-cookie"].lower()
        assert response.status_code == 200 and COOKIE in cookie
        assert "httponly" in cookie and "samesite=strict" in cookie
        assert "secure" not in cookie.replace(
            "httponly", ""
        )  # plain http: a Secure cookie would not come back
        me = client.get("/api/me").json()
        assert me["name"] == "ann" and me["balance"] == auth.SIGN_UP_CHIPS
        client.post("/api/logout").raise_for_status()
        assert client.get("/api/me").status_code == 401
        wrong = client.post("/api/login", json={"name": "ann", "password": "wrong horse"})
        assert wrong.status_code == 401 and "set-cookie" not in wrong.headers


def test_the_session_cookie_is_secure_over_https(store: Store) -> None:
    async def main() -> str:
        transport = httpx.ASGITransport(app=create_app(store, public_url="https://cardroom.example"))
        async with httpx.AsyncClient(transport=transport, base_url="https://cardroom.example") as client:
            response = await client.post("/api/guest")
            return response.headers["set-cookie"].lower()

    cookie = asyncio.run(main())
    assert "; secure" in cookie and "httponly" in cookie and "samesite=strict" in cookie


def test_a_refill_over_http_only_when_broke_and_limited_per_day(server: str, store: Store) -> None:
    with httpx.Client(base_url=f"http://{server}") as client:
        me = client.post("/api/guest").json()
        refused = client.post("/api/refill")
        assert refused.status_code == 400 and "under" in refused.json()["detail"]
        for _ in range(auth.REFILLS_PER_DAY):
            _lose_everything(store, me["id"])
            assert client.post("/api/refill").json()["balance"] == auth.REFILL_CHIPS
        _lose_everything(store, me["id"])
        limited = client.post("/api/refill")
        assert limited.status_code == 400 and "a day" in limited.json()["detail"]
        assert httpx.post(f"http://{server}/api/refill").status_code == 401
    assert audit(store).ok


def _lose_everything(store: Store, player_id: int) -> None:
    with store.session() as s, s.begin():
        account = ledger.account(s, ledger.BALANCE, player_id)
        held = ledger.balance_of(s, account)
        if held:
            ledger.transfer(s, account, ledger.account(s, ledger.BANK), held, "test loss")
        player = s.get(Player, player_id)
        assert player is not None
        player.balance = 0


@pytest.mark.parametrize(
    ("message", "why"),
    [
        (_hello(1, version=99), "protocol version 99"),
        ("{not json", "malformed message"),
        (json.dumps({"type": "act", "hand": 1, "street": 3, "action": "call"}), "say hello first"),
        ("x" * (MAX_MESSAGE_BYTES + 1), "at most"),
    ],
)
def test_bad_messages_get_an_error_and_change_nothing(
    server: str, store: Store, message: str, why: str
) -> None:
    token, _ = _guest_with_table(server, bots=0)  # a quiet table: the audit reads while nothing moves
    got = asyncio.run(_exchange(server, token, [message], 1))
    assert got[0]["type"] == "error" and why in got[0]["message"]
    assert audit(store).ok


def test_a_stale_action_is_refused(server: str) -> None:
    token, table = _guest_with_table(server, bots=0)
    sit = json.dumps({"type": "sit", "seat": 1, "buy_in": 100})
    act = json.dumps({"type": "act", "hand": 7, "street": 3, "action": "call"})
    # welcome, snapshot, waiting (after every hello), sat_down, then the refusal
    got = asyncio.run(_exchange(server, token, [_hello(table), sit, act], 5))
    errors = [m for m in got if m["type"] == "error"]
    assert errors and "it is hand None" in errors[0]["message"]


def test_a_foreign_origin_is_refused(server: str) -> None:
    token, _ = _guest_with_table(server)
    with pytest.raises(websockets.exceptions.InvalidStatus):
        asyncio.run(_exchange(server, token, [_hello(1)], 1, Origin="http://evil.example"))


async def _conversation(
    address: str, token: str, steps: list[tuple[dict[str, Any], str]]
) -> list[dict[str, Any]]:
    """Send each message and read until a message of the awaited kind (an event's type, or
    ``error``/``waiting``...) comes; returns everything received."""
    got: list[dict[str, Any]] = []
    async with websockets.connect(
        f"ws://{address}/ws", additional_headers={"Cookie": f"{COOKIE}={token}"}
    ) as ws:
        for message, awaited in steps:
            await ws.send(json.dumps(message))
            while True:
                got.append(json.loads(await asyncio.wait_for(ws.recv(), 5)))
                last = got[-1]
                if last["type"] == awaited or (last["type"] == "event" and last["event"]["type"] == awaited):
                    break
    return got


def test_a_seat_over_the_protocol_buy_in_sit_out_top_up_bots_sit_in_and_leave(
    server: str, store: Store
) -> None:
    with httpx.Client(base_url=f"http://{server}") as client:
        me = client.post("/api/guest").json()
        token = client.cookies[COOKIE]
        table = client.post("/api/tables", json={"game": "razz", "seats": 2, "bots": 0}).json()["id"]
    hello = {"type": "hello", "version": PROTOCOL_VERSION, "table": table, "last": 0}
    got = asyncio.run(
        _conversation(
            server,
            token,
            [
                (hello, "snapshot"),
                ({"type": "sit", "seat": 1, "buy_in": 500}, "error"),  # above the table's maximum
                ({"type": "top_up", "amount": 10}, "error"),  # not seated yet
                ({"type": "sit", "seat": 1, "buy_in": 100}, "sat_down"),
                ({"type": "sit_out"}, "sat_out"),
                ({"type": "top_up", "amount": 50}, "topped_up"),
                ({"type": "add_bot", "seat": 2}, "sat_down"),
                ({"type": "add_bot", "seat": 2}, "error"),  # taken
                ({"type": "remove_bot", "seat": 2}, "stood_up"),
                ({"type": "remove_bot", "seat": 2}, "error"),  # no bot there
                ({"type": "sit_in"}, "sat_in"),
                ({"type": "leave"}, "stood_up"),
            ],
        )
    )
    for message in got:
        SERVER.validate_python(message)
    errors = [m["message"] for m in got if m["type"] == "error"]
    assert "between" in errors[0] and "not seated" in errors[1]
    assert "no bot" in errors[3], errors
    events = [m["event"] for m in got if m["type"] == "event"]
    assert [e["type"] for e in events] == [
        "sat_down",
        "sat_out",
        "topped_up",
        "sat_down",
        "stood_up",
        "sat_in",
        "stood_up",
    ]
    assert events[2]["stack"] == 150 and events[3]["player"] == "bot2" and events[-1]["stack"] == 150
    with store.session() as s:
        player = s.get(Player, me["id"])
        assert player is not None and player.balance == auth.SIGN_UP_CHIPS  # no hand: all back
    assert audit(store).ok
