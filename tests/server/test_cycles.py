"""A closed connection leaves nothing behind for the cyclic collector (server/collector.py).

The serving process collects its oldest generation once an hour, so whatever a connection
leaves in a reference cycle after it has lived longer than the middle generation's period
piles up until then. Hostile clients open and close sockets by the thousand, and every
websocket left its upgraded HTTP protocol and that protocol's parser in a cycle, an oversized
frame left its error and the parser's frames, a closed connection its writer task, a refused
command its future and the frames of its traceback. Over a real uvicorn in this process with
the automatic collector off: after the sockets are gone, none of these objects is left.
"""

from __future__ import annotations

import gc
import json
import time
from collections import Counter
from collections.abc import Iterator

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from sevenstud.server.accounts.sessions import COOKIE
from sevenstud.server.app import create_app
from sevenstud.server.limits import Limits
from sevenstud.server.protocol import PROTOCOL_VERSION
from sevenstud.server.store import Store
from tests.spawn import in_thread

WATCHED = {
    "sevenstud.server.edge.DeadlineProtocol",  # the HTTP protocol a websocket was upgraded from
    "httptools.parser.parser.HttpRequestParser",
    "sevenstud.server.serving.CoalescingWebSockets",
    "websockets.server.ServerProtocol",
    "websockets.exceptions.PayloadTooBig",
    "sevenstud.server.tables.keeper.RoomError",
    "sevenstud.server.connection.Connection",  # the card room's outbox of a socket
}


def _name(kind: type) -> str:
    return f"{kind.__module__}.{kind.__name__}"


def _left() -> Counter[str]:
    return Counter(name for o in gc.get_objects() if (name := _name(type(o))) in WATCHED)


@pytest.fixture
def no_automatic_collector() -> Iterator[None]:
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def test_closed_sockets_leave_no_cycles(store: Store, no_automatic_collector: None) -> None:
    limits = Limits(ws_frame_bytes=16 * 1024)
    with in_thread(create_app(store, pause=0.05, limits=limits), limits) as address:
        with httpx.Client(base_url=f"http://{address}") as client:
            client.post("/api/guest").raise_for_status()
            table = client.post("/api/tables", json={"game": "stud", "seats": 4}).json()["id"]
            cookie = {"Cookie": f"{COOKIE}={client.cookies[COOKIE]}"}
        before = _left()
        for _ in range(3):
            with connect(f"ws://{address}/ws", additional_headers=cookie, max_size=None) as ws:
                ws.send(json.dumps({"type": "hello", "version": PROTOCOL_VERSION, "table": table}))
                assert json.loads(ws.recv(timeout=5))["type"] == "welcome"
                ws.send(json.dumps({"type": "leave"}))  # refused on the table's actor: not seated
                while (answer := json.loads(ws.recv(timeout=5)))["type"] != "error":
                    pass
                assert "not seated" in answer["message"]
                ws.send("x" * (64 * 1024))  # past the frame limit: closed 1009
                with pytest.raises(ConnectionClosed):
                    while True:
                        ws.recv(timeout=5)
        left = _left() - before
        for _ in range(100):  # the server's side of the last socket ends a moment later
            if not left:
                break
            time.sleep(0.05)
            left = _left() - before
        assert not left, f"left in cycles by 3 closed sockets: {dict(left)}"
