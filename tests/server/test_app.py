"""The app over real HTTP and websockets: a real uvicorn on 127.0.0.1 (a free port), both databases."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import uvicorn
import websockets

from sevenstud.server.app import COOKIE, create_app
from sevenstud.server.audit import audit
from sevenstud.server.protocol import MAX_MESSAGE_BYTES, PROTOCOL_VERSION
from sevenstud.server.store import Store


@pytest.fixture
def server(store: Store) -> Iterator[str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = uvicorn.Config(create_app(store, pause=0.05), host="127.0.0.1", port=port, log_level="warning")
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    for _ in range(200):
        if running.started:
            break
        time.sleep(0.02)
    yield f"127.0.0.1:{port}"
    running.should_exit = True
    thread.join(10)


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
    _guest_with_table(server)
    assert httpx.get(f"http://{server}/api/lobby").json()[0]["taken"] == 2


def test_the_session_cookie_is_httponly(server: str) -> None:
    response = httpx.post(f"http://{server}/api/guest")
    assert "httponly" in response.headers["set-cookie"].lower()


def test_a_spectator_gets_numbered_events_and_resumes_from_the_last_number(server: str, store: Store) -> None:
    token, table = _guest_with_table(server)
    first = asyncio.run(_exchange(server, token, [_hello(table)], 30))
    assert first[0]["type"] == "welcome" and first[0]["seat"] is None
    numbers = [m["number"] for m in first[1:]]
    assert numbers == list(range(1, len(numbers) + 1))
    assert all(m["event"].get("card") is None for m in first[1:] if m["event"].get("face_up") is False)
    again = asyncio.run(_exchange(server, token, [_hello(table, last=numbers[-1])], 3))
    assert again[1]["number"] == numbers[-1] + 1


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
    token, _ = _guest_with_table(server)
    got = asyncio.run(_exchange(server, token, [message], 1))
    assert got[0]["type"] == "error" and why in got[0]["message"]
    assert audit(store).ok


def test_a_stale_action_is_refused(server: str) -> None:
    token, table = _guest_with_table(server, bots=0)
    sit = json.dumps({"type": "sit", "seat": 1, "buy_in": 100})
    act = json.dumps({"type": "act", "hand": 7, "street": 3, "action": "call"})
    got = asyncio.run(_exchange(server, token, [_hello(table), sit, act], 3))
    errors = [m for m in got if m["type"] == "error"]
    assert errors and "it is hand None" in errors[0]["message"]


def test_a_foreign_origin_is_refused(server: str) -> None:
    token, _ = _guest_with_table(server)
    with pytest.raises(websockets.exceptions.InvalidStatus):
        asyncio.run(_exchange(server, token, [_hello(1)], 1, Origin="http://evil.example"))
