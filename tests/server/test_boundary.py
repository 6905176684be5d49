"""Each table behind one boundary (issue 18): what a connection sees follows the player logged in
on it at each send; no client can hold a table up; a restart tells its clients what it did; the
seat to act is told its actions. On both databases, through the path production runs."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
import websockets

from sevenstud.deck import Deck
from sevenstud.games import Stakes, StudHiLo
from sevenstud.server.accounts import auth
from sevenstud.server.accounts.sessions import COOKIE
from sevenstud.server.app import create_app
from sevenstud.server.connection import BEHIND, GONE, Connection, Limits
from sevenstud.server.protocol import CLIENT, SERVER, ClientMessage, ErrorMessage
from sevenstud.server.store import Store
from sevenstud.server.tables.recovery import recover
from sevenstud.server.tables.room import Room, TableKeeper, create_table
from sevenstud.table import TableSettings
from tests.server.held_bots import HeldBots

SETTINGS = TableSettings(StudHiLo(Stakes(1, 2, 5, 10)), seats=4)


def _listener(
    key: int, player: str | None = None, player_id: int | None = None
) -> tuple[Connection, list[Any]]:
    """A connection logged in as ``player`` whose frames are collected, decoded."""
    got: list[Any] = []

    async def write(text: str) -> None:
        got.append(json.loads(text))

    return Connection(key, player, player_id, write), got


def _down_cards(messages: list[dict[str, Any]], seat: int) -> list[str | None]:
    """The down cards of table seat ``seat`` dealt in ``messages``' events."""
    found = []
    for m in messages:
        event = m.get("event") or {}
        # The stream says a hand's seats as table seats.
        if (
            m["type"] == "event"
            and event["type"] == "card_dealt"
            and not event["face_up"]
            and event["seat"] == seat
        ):
            found.append(event["card"])
    return found


def _said(**fields: Any) -> ClientMessage:
    """A client message as the server reads it off the wire."""
    return CLIENT.validate_python(fields)


def hello(table: int, last: int, views: bool = False) -> ClientMessage:
    """A ``hello``."""
    return _said(type="hello", version=1, table=table, last=last, views=views)


async def _until(ready: Any, seconds: float = 5.0) -> None:
    """Wait for the room's clock to bring ``ready()`` about (a hand dealt at its tick)."""
    end = time.monotonic() + seconds
    while not ready() and time.monotonic() < end:
        await asyncio.sleep(0.01)
    assert ready()


async def _settle(room: Room, *connections: Connection) -> None:
    await room.submit(lambda now: None)  # every step before this one has been sent
    for connection in connections:
        await connection.flushed()


# ---------------------------------------------------------------------- 1. what a connection sees


def test_a_connection_sees_for_the_seat_its_player_holds_at_each_send_never_a_seat_it_held(
    store: Store,
) -> None:
    """Rule: what a connection may see follows from where the player logged in on it sits at
    the moment of each send: standing up, changing seats, another taking the old seat."""
    ids = {name: auth.sign_up(store, name, "correct horse") for name in ("ann", "bob")}
    keeper = TableKeeper(store, create_table(store, "seats", SETTINGS), SETTINGS)

    async def main() -> tuple[list[Any], list[Any], list[Any]]:
        room = HeldBots(keeper, pause=60.0)
        ann, ann_got = _listener(1, "ann", ids["ann"])
        bob, bob_got = _listener(2, "bob", ids["bob"])
        for connection in (ann, bob):
            connection.start()
        room.start()
        await room.handle(hello(table=keeper.table_id, last=0, views=True), ann)
        await room.handle(hello(table=keeper.table_id, last=0), bob)
        await room.handle(
            _said(type="sit", seat=1, buy_in=100), ann
        )  # alone: no hand, so she stands up at once
        await room.handle(_said(type="leave"), ann)
        await room.handle(_said(type="sit", seat=1, buy_in=100), bob)  # bob takes ann's old seat
        await room.handle(_said(type="sit", seat=3, buy_in=100), ann)  # and ann another: the hand is dealt
        await _until(lambda: keeper.table.to_act is not None)
        await _settle(room, ann, bob)
        assert keeper.table.hand_in_progress
        # A reconnect's snapshot (a hello on the same connection) is ann's seat now, too.
        await room.handle(hello(table=keeper.table_id, last=0, views=True), ann)
        await _settle(room, ann, bob)
        await room.stop()
        errors = [m for m in ann_got + bob_got if m["type"] == "error"]
        assert not errors, errors
        snapshots = [m for m in ann_got if m["type"] == "snapshot"]
        return ann_got, bob_got, snapshots

    ann_got, bob_got, snapshots = asyncio.run(main())
    for message in ann_got + bob_got:
        SERVER.validate_python(message)
    assert _down_cards(bob_got, 1) and None not in _down_cards(bob_got, 1)  # bob's own cards
    assert _down_cards(ann_got, 1) and set(_down_cards(ann_got, 1)) == {None}  # never bob's
    assert None not in _down_cards(ann_got, 3)  # ann sees for seat 3, where she sits now
    last = snapshots[-1]["view"]
    assert last["viewer"] == 3
    hand_seat_of_bob = last["hand_seats"].index(1)
    assert set(last["hand"]["cards"][hand_seat_of_bob][:2]) == {None}
    stood = next(m["number"] for m in ann_got if m["type"] == "event" and m["event"]["type"] == "stood_up")
    views = [m for m in ann_got if m["type"] == "view" and m["number"] >= stood]
    assert views and all(v["you"] in (None, 3) and "1" not in v["hands"] for v in views)
    assert any(v["you"] == 3 and "3" in v["hands"] for v in views)
    assert all(m["seat"] == 3 for m in ann_got if m["type"] == "your_turn")
    recover(store)


def _guest(address: str) -> httpx.Client:
    client = httpx.Client(base_url=f"http://{address}")
    client.post("/api/guest").raise_for_status()
    return client


def _hello(table: int, last: int = 0, views: bool = False) -> str:
    return json.dumps({"type": "hello", "version": 1, "table": table, "last": last, "views": views})


async def _read(ws: Any, seconds: float, into: list[dict[str, Any]]) -> None:
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        try:
            into.append(json.loads(await asyncio.wait_for(ws.recv(), left)))
        except TimeoutError:
            return


def test_a_socket_that_stood_up_is_never_sent_the_next_occupants_down_cards(server: str) -> None:
    """Rule (the hostile case of issue 18): a connection sits in seat 1, stands up and keeps
    its socket open without a new hello; whoever sits in seat 1 next is dealt cards it never
    sees, nor their actions (``your_turn``), nor their hand in a ``view``."""
    ann, bob = _guest(server), _guest(server)
    table = ann.post("/api/tables", json={"game": "stud8", "seats": 3, "bots": 0}).json()["id"]

    async def main() -> tuple[list[Any], list[Any]]:
        ann_got: list[dict[str, Any]] = []
        bob_got: list[dict[str, Any]] = []
        jar = {"Cookie": f"{COOKIE}={ann.cookies[COOKIE]}"}
        async with websockets.connect(f"ws://{server}/ws", additional_headers=jar) as ws:
            await ws.send(_hello(table, views=True))
            await ws.send(json.dumps({"type": "sit", "seat": 1, "buy_in": 100}))
            await ws.send(json.dumps({"type": "leave"}))
            await _read(ws, 0.5, ann_got)
            bob_jar = {"Cookie": f"{COOKIE}={bob.cookies[COOKIE]}"}
            async with websockets.connect(f"ws://{server}/ws", additional_headers=bob_jar) as bws:
                await bws.send(_hello(table))
                await bws.send(json.dumps({"type": "sit", "seat": 1, "buy_in": 100}))
                await _read(bws, 0.3, bob_got)
                # ann opened the table: only she adds its bots (docs/protocol.md); a hand is dealt
                await ws.send(json.dumps({"type": "add_bot", "seat": 2}))
                await asyncio.gather(_read(ws, 1.5, ann_got), _read(bws, 1.5, bob_got))
        return ann_got, bob_got

    ann_got, bob_got = asyncio.run(main())
    assert any(m["type"] == "event" and m["event"]["type"] == "stood_up" for m in ann_got)
    dealt = _down_cards(bob_got, 1)
    assert dealt and None not in dealt  # bob was dealt his down cards in seat 1
    assert _down_cards(ann_got, 1) and set(_down_cards(ann_got, 1)) == {None}
    assert not [m for m in ann_got if m["type"] == "your_turn"]
    views = [m for m in ann_got if m["type"] == "view" and m["view"]["hand_number"] is not None]
    assert views and all(v["you"] is None and not v["hands"] and not v["actions"] for v in views)


# ---------------------------------------------------------------------- 2. nobody holds a table up


@contextmanager
def _room_server(store: Store, limits: Limits) -> Iterator[str]:
    """A card room in this process (uvicorn in a thread) with the outbox ``limits``, on a
    listening socket whose send buffer is as small as it goes (its connections inherit it), so
    that a client that stops reading backs up within a second rather than after megabytes."""
    import uvicorn

    listening = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    listening.bind(("127.0.0.1", 0))
    port = listening.getsockname()[1]
    app = create_app(store, pause=0.05, outbox=limits)
    running = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=running.run, kwargs={"sockets": [listening]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not running.started and time.monotonic() < deadline:
        time.sleep(0.02)
    try:
        yield f"127.0.0.1:{port}"
    finally:
        running.should_exit = True
        thread.join(10)
        listening.close()


def _never_reading(address: str, table: int) -> socket.socket:
    """A websocket client that says hello (asking for views, the biggest stream) and then
    never reads again, with kernel buffers as small as they go."""
    host, port = address.split(":")
    raw = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    raw.connect((host, int(port)))
    key = base64.b64encode(os.urandom(16)).decode()
    raw.sendall(
        (
            f"GET /ws HTTP/1.1\r\nHost: {address}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += raw.recv(1)  # the handshake's answer only, a byte at a time: nothing after it
    assert b" 101 " in answer.split(b"\r\n", 1)[0], answer
    payload = _hello(table, views=True).encode()
    mask = os.urandom(4)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    raw.sendall(bytes([0x81, 0x80 | len(payload)]) + mask + masked)
    return raw


def _dropped(raw: socket.socket, seconds: float) -> tuple[bool, int | None]:
    """Read what the server left in the socket until it ends: whether it ended within
    ``seconds``, and the close code of the close frame, when one was in it."""
    raw.settimeout(seconds)
    data = b""
    try:
        while chunk := raw.recv(65536):
            data += chunk
    except TimeoutError:
        return False, None
    except ConnectionResetError:
        pass  # aborted: it could not take even the close frame
    at = data.rfind(b"\x88\x02")  # a close frame: FIN + close, 2 bytes (a code, no reason)
    reason = data.rfind(b"\x88")
    code = None
    for start in (at, reason):
        if start >= 0 and start + 4 <= len(data):
            code = int.from_bytes(data[start + 2 : start + 4], "big")
            if code == BEHIND:
                break
    return True, code


def test_a_spectator_that_never_reads_holds_up_no_table_and_is_cut_off(store: Store) -> None:
    """Rule: the table never waits on a client. A spectator that says hello and never reads
    again costs its table and every other nothing: hands are dealt and the clock runs on at
    both, for the honest watchers; the one that fell behind is cut off."""
    limits = Limits(messages=200, bytes=64_000, stall=2.0, close=0.5)
    with _room_server(store, limits) as address:
        host = _guest(address)
        tables = [
            host.post("/api/tables", json={"game": "stud8", "seats": 4, "bots": 3}).json()["id"]
            for _ in range(2)
        ]
        hog = _never_reading(address, tables[0])

        async def honest(table: int) -> list[tuple[float, dict[str, Any]]]:
            got: list[tuple[float, dict[str, Any]]] = []
            async with websockets.connect(f"ws://{address}/ws") as ws:
                await ws.send(_hello(table))
                end = time.monotonic() + 6.0
                while (left := end - time.monotonic()) > 0:
                    try:
                        message = json.loads(await asyncio.wait_for(ws.recv(), left))
                    except TimeoutError:
                        break
                    got.append((time.monotonic(), message))
            return got

        async def both() -> list[list[tuple[float, dict[str, Any]]]]:
            return list(await asyncio.gather(*(honest(t) for t in tables)))

        try:
            streams = asyncio.run(both())
            lobby = {t["id"]: t for t in httpx.get(f"http://{address}/api/lobby").json()}
            ended, code = _dropped(hog, 5.0)
        finally:
            hog.close()
    for got in streams:
        times = [at for at, m in got if m["type"] == "event"]
        assert times, "no events at all"
        start = times[0]
        # Play went on to the end: events in each second of the watch, none missed.
        for second in range(1, 5):
            assert any(start + second <= at < start + second + 1 for at in times), (second, len(times))
        clocks = {m["number"] for _, m in got if m["type"] == "clock"}
        assert len(clocks) > 10, "the clock stopped"
        numbers = [m["number"] for _, m in got if m["type"] == "event"]
        assert numbers == list(range(numbers[0], numbers[0] + len(numbers)))
    assert lobby[tables[0]]["watchers"] == 0  # the honest watcher had gone; the hog was cut off
    assert ended, "the server never let go of the client that stopped reading"
    assert code in (BEHIND, None)


def test_a_connection_too_far_behind_is_cut_off_with_its_close_code_and_resumes_on_hello() -> None:
    """Rule: an outbox holds at most ``Limits.messages`` messages and ``Limits.bytes`` bytes;
    past either the connection is closed with 4001 (its queue dropped), never waited on."""
    closed: list[tuple[int, str]] = []

    async def main() -> None:
        release = asyncio.Event()
        sent: list[str] = []

        async def write(text: str) -> None:
            await release.wait()  # a client that stopped reading
            sent.append(text)

        async def close(code: int, reason: str) -> None:
            closed.append((code, reason))

        connection = Connection(1, None, None, write, close, limits=Limits(messages=5, bytes=10_000))
        connection.start()
        assert connection.put(ErrorMessage(number=0, message="x"))
        await asyncio.sleep(0.01)  # the writer took it and waits on the client
        results = [connection.put(ErrorMessage(number=n, message="x")) for n in range(1, 7)]
        assert results == [True] * 5 + [False]  # five wait, the sixth is one too many
        await asyncio.sleep(0.01)
        assert connection.closed and connection.queued == (0, 0)
        assert not connection.put(ErrorMessage(number=9, message="late"))
        big = Connection(2, None, None, write, close, limits=Limits(messages=100, bytes=100))
        assert not big.put(ErrorMessage(number=1, message="y" * 200))
        await asyncio.sleep(0.01)
        await connection.stop()
        await big.stop()

    asyncio.run(main())
    assert [code for code, _ in closed] == [BEHIND, BEHIND]


# ---------------------------------------------------------------------- 8. after a restart


def test_after_a_crash_every_client_gets_a_snapshot_and_those_in_the_hand_are_told_it_was_cancelled(
    store: Store,
) -> None:
    """Rule (docs/protocol.md, "Reconnecting"): after a restart every client from before gets a
    snapshot, a player who sat out too; a client that saw the hand the crash cut off gets
    ``hand_cancelled`` with every seat's refund."""
    ids = {name: auth.sign_up(store, name, "correct horse") for name in ("ann", "bob", "cat")}
    settings = SETTINGS
    table = create_table(store, "crash", settings)
    keeper = TableKeeper(store, table, settings)
    keeper.sit_down("ann", 1, 100, 0.0, player_id=ids["ann"])
    keeper.sit_down("bob", 2, 100, 0.0, player_id=ids["bob"])
    keeper.sit_down("cat", 3, 100, 0.0, player_id=ids["cat"])
    keeper.sit_out("cat", 0.5)  # sat out: nothing of hers moves
    keeper.start_hand(1.0, Deck.seeded(5))
    seat = keeper.table.to_act
    assert seat is not None
    keeper.act(seat, keeper.table.legal_actions()[-1], 2.0)  # chips in the pot
    in_hand = keeper.number
    del keeper  # kill -9: the hand stays "playing"
    assert recover(store) == 1

    async def main() -> dict[str, list[Any]]:
        again = TableKeeper(store, table, settings)
        room = Room(again, pause=60.0)
        room.start()
        told = {}
        for key, name in enumerate(("ann", "cat"), start=1):
            connection, told[name] = _listener(key, name, ids[name])
            connection.start()
            await room.handle(hello(table=table, last=in_hand), connection)
            await _settle(room, connection)
        await room.stop()
        return told

    told = asyncio.run(main())
    for name, got in told.items():
        kinds = [m["type"] for m in got]
        assert kinds[:3] == ["welcome", "hand_cancelled", "snapshot"], (name, kinds)
        for message in got:
            SERVER.validate_python(message)
        cancelled = got[1]
        assert cancelled["hand"] == 1
        refunds = {r["seat"]: r["amount"] for r in cancelled["refunds"]}
        assert set(refunds) == {1, 2} and all(amount > 0 for amount in refunds.values())
        stacks = {s["seat"]: s["stack"] for s in got[2]["view"]["seats"]}
        assert stacks == {1: 100, 2: 100, 3: 100}  # every chip back on its seat
        assert got[2]["view"]["hand"] is None


# ---------------------------------------------------------------------- 9. the turn in the stream


def test_the_seat_to_act_is_told_its_legal_actions_in_the_stream_and_only_it(store: Store) -> None:
    """Rule: at each new turn the connections of the player to act (and only theirs) get
    ``your_turn`` with every legal action and its amounts, without asking."""
    ids = {name: auth.sign_up(store, name, "correct horse") for name in ("ann", "bob")}
    keeper = TableKeeper(store, create_table(store, "turns", SETTINGS), SETTINGS)

    async def main() -> tuple[list[Any], list[Any], list[Any]]:
        room = Room(keeper, pause=60.0)
        ann, ann_got = _listener(1, "ann", ids["ann"])
        bob, bob_got = _listener(2, "bob", ids["bob"])
        watcher, watched = _listener(3)
        for connection in (ann, bob, watcher):
            connection.start()
        room.start()
        for connection in (ann, bob, watcher):
            await room.handle(hello(table=keeper.table_id, last=0), connection)
        await room.handle(_said(type="sit", seat=1, buy_in=100), ann)
        await room.handle(_said(type="sit", seat=2, buy_in=100), bob)
        await _until(lambda: keeper.table.to_act is not None)
        await _settle(room, ann, bob, watcher)
        await room.stop()
        return ann_got, bob_got, watched

    ann_got, bob_got, watched = asyncio.run(main())
    to_act = keeper.table.to_act
    assert to_act is not None
    mine, other = (ann_got, bob_got) if to_act == 1 else (bob_got, ann_got)
    turns = [m for m in mine if m["type"] == "your_turn"]
    assert len(turns) == 1 and turns[0]["seat"] == to_act
    SERVER.validate_python(turns[0])
    legal = [str(a) for a in keeper.table.legal_actions()]
    assert [a["action"] for a in turns[0]["actions"]] == legal
    assert all(a["amount"] is not None and a["chips"] > 0 for a in turns[0]["actions"] if a["kind"] != "fold")
    assert not [m for m in other + watched if m["type"] == "your_turn"]
    recover(store)


def test_every_hello_is_followed_by_the_waiting_list(store: Store) -> None:
    """Rule (docs/protocol.md, ``waiting``): sent after every hello, with position null for a
    connection not on the list (a spectator too), and how many wait."""
    keeper = TableKeeper(store, create_table(store, "quiet", SETTINGS), SETTINGS)

    async def main() -> list[Any]:
        room = Room(keeper, pause=60.0)
        connection, got = _listener(1)
        connection.start()
        room.start()
        await room.handle(hello(table=keeper.table_id, last=0), connection)
        await _settle(room, connection)
        await room.stop()
        return got

    got = asyncio.run(main())
    assert [m["type"] for m in got] == ["welcome", "snapshot", "waiting"]
    assert got[2]["position"] is None and got[2]["waiting"] == 0


@pytest.mark.parametrize("grace", [0.25, 3.0])
def test_welcome_and_clock_say_the_grace_the_room_gives(store: Store, grace: float) -> None:
    """Rule: the grace a client is told, in ``welcome`` and in every ``clock``, is the one the
    room times out with (it was the protocol's default in the clock, whatever was configured)."""
    keeper = TableKeeper(store, create_table(store, "grace", SETTINGS), SETTINGS)

    async def main() -> list[Any]:
        room = Room(keeper, pause=60.0, grace=grace)
        connection, got = _listener(1)
        connection.start()
        room.start()
        await room.handle(hello(table=keeper.table_id, last=0), connection)
        await room.submit(lambda now: keeper.sit_down("bot1", 1, 100, now))
        await room.submit(lambda now: keeper.sit_down("bot2", 2, 100, now))
        await _until(lambda: room.hands_played >= 1)
        await _settle(room, connection)
        await room.stop()
        return got

    got = asyncio.run(main())
    graces = [m["grace"] for m in got if m["type"] in ("welcome", "clock")]
    assert len(graces) >= 2 and set(graces) == {grace}
    recover(store)


def test_a_table_no_longer_served_here_closes_its_connections_with_4002(store: Store) -> None:
    """Rule: when this process stops serving a table (its lease lost, another server took it
    over, or shutting down), each connection there is sent what was queued for it, then closed
    with 4002, so the client asks the lobby where the table is rather than wait on nothing."""
    keeper = TableKeeper(store, create_table(store, "moving", SETTINGS), SETTINGS)
    closed: list[int] = []

    async def main() -> list[Any]:
        room = Room(keeper, pause=60.0)
        got: list[Any] = []

        async def write(text: str) -> None:
            got.append(json.loads(text))

        async def close(code: int, _reason: str) -> None:
            closed.append(code)

        connection = Connection(1, None, None, write, close)
        connection.start()
        room.start()
        await room.handle(hello(table=keeper.table_id, last=0), connection)
        await room.stop()
        for _ in range(100):
            if closed:
                break
            await asyncio.sleep(0.01)
        assert not connection.put(ErrorMessage(number=None, message="after"))
        return got

    got = asyncio.run(main())
    assert [m["type"] for m in got] == ["welcome", "snapshot", "waiting"]
    assert closed == [GONE]


def test_buy_in_limits_follow_the_stakes_and_the_opener_may_choose_them_within_bounds(server: str) -> None:
    """Rule (docs/protocol.md, "Buy-in limits"): 4 to 20 big bets by default; an opener may set
    either within 2 to 100 big bets (min no more than max); anything else is a 400 naming it."""
    client = _guest(server)

    def line(body: dict[str, Any]) -> tuple[int, int]:
        table = client.post("/api/tables", json=body)
        assert table.status_code == 200, table.text
        found = next(
            t for t in httpx.get(f"http://{server}/api/lobby").json() if t["id"] == table.json()["id"]
        )
        return found["min_buy_in"], found["max_buy_in"]

    assert line({"stakes": [1, 2, 5, 10]}) == (40, 200)
    assert line({"stakes": [5, 10, 25, 50]}) == (200, 1000)
    assert line({"stakes": [5, 10, 25, 50], "min_buy_in": 100, "max_buy_in": 5000}) == (100, 5000)
    assert line({"stakes": [1, 2, 5, 10], "min_buy_in": 300}) == (300, 300)
    for body, why in (
        ({"stakes": [1, 2, 5, 10], "min_buy_in": 19}, "below 20 (2 big bets of 10)"),
        ({"stakes": [1, 2, 5, 10], "max_buy_in": 1001}, "above 1000 (100 big bets of 10)"),
        (
            {"stakes": [1, 2, 5, 10], "min_buy_in": 100, "max_buy_in": 50},
            "min_buy_in 100 is above max_buy_in 50",
        ),
    ):
        refused = client.post("/api/tables", json=body)
        assert refused.status_code == 400 and why in refused.json()["detail"], refused.text


def test_a_client_back_from_further_behind_than_its_outbox_holds_gets_a_snapshot(store: Store) -> None:
    """Rule: a catch-up longer than the connection's outbox takes is a snapshot (the client
    resumes from it), never a cut-off for the entries it asked for."""
    settings = TableSettings(StudHiLo(Stakes(1, 2, 5, 10)), seats=3)
    keeper = TableKeeper(store, create_table(store, "busy", settings), settings)
    keeper.sit_down("bot1", 1, 100, 0.0)
    keeper.sit_down("bot2", 2, 100, 0.0)
    keeper.start_hand(1.0, Deck.seeded(4))
    assert keeper.number > 12

    async def main() -> tuple[list[Any], Connection]:
        room = HeldBots(keeper, pause=60.0)
        got: list[Any] = []

        async def write(text: str) -> None:
            got.append(json.loads(text))

        connection = Connection(1, None, None, write, limits=Limits(messages=12))
        connection.start()
        room.start()
        await room.handle(hello(table=keeper.table_id, last=1), connection)  # 12+ entries behind
        await _settle(room, connection)
        await room.stop()
        return got, connection

    got, connection = asyncio.run(main())
    assert connection.cut_off is not None and connection.cut_off[0] == GONE  # at the stop, not behind
    assert [m["type"] for m in got[:3]] == ["welcome", "snapshot", "waiting"]
    recover(store)


def test_a_hands_download_and_replay_show_the_seat_held_in_that_hand_only(store: Store) -> None:
    """Rule: a hand's download and replay show its player what the seat they held in that hand
    could see, whatever they hold now: ann in seat 1 for hand 1, then in seat 3 for hand 2
    while cat takes seat 1; hand 2 never shows cat's unshown down cards, hand 1 ann's own."""
    from sevenstud.bots import RuleBot
    from sevenstud.server.accounts.downloads import own_hands, phh_for, replay_for

    ids = {name: auth.sign_up(store, name, "correct horse") for name in ("ann", "cat")}
    keeper = TableKeeper(store, create_table(store, "moves", SETTINGS), SETTINGS)
    keeper.sit_down("ann", 1, 100, 0.0, player_id=ids["ann"])
    keeper.sit_down("bot2", 2, 100, 0.0)
    bot, now = RuleBot(seed=3), 1.0

    def play(deck: Deck) -> None:
        nonlocal now
        keeper.start_hand(now, deck)
        while keeper.table.hand_in_progress:
            seat = keeper.table.to_act
            assert seat is not None
            view = keeper.table.view(seat).hand
            assert view is not None
            now += 0.1
            # cat and bot2 fold at once, so nothing of theirs is ever shown
            action = "fold" if seat != 3 and any(a.kind.value == "fold" for a in view.legal_actions) else None
            keeper.act(seat, action or bot.act(view), now)
        now += 1

    play(Deck.seeded(1))
    keeper.leave("ann", now)
    keeper.sit_down("ann", 3, 100, now, player_id=ids["ann"])
    keeper.sit_down("cat", 1, 100, now, player_id=ids["cat"])
    play(Deck.seeded(2))
    first, second = own_hands(store, ids["ann"])
    assert (first.seats[first.hero], second.seats[second.hero]) == (1, 3)
    for own in (first, second):
        replay = replay_for(own)
        assert replay["you"] == own.seats[own.hero]
        dealt = [e for street in replay["streets"] for e in street["events"] if e["type"] == "card_dealt"]
        mine = [e["card"] for e in dealt if e["seat"] == replay["you"]]
        others = [e["card"] for e in dealt if e["seat"] != replay["you"] and not e["face_up"]]
        assert None not in mine and set(others) == {None}
        hidden = [str(c) for i, cards in enumerate(own.hand.cards) if i != own.hero for c in cards[:2]]
        text = "\n".join(phh_for(own).actions)
        assert not [card for card in hidden if card in text]


def test_a_send_not_taken_within_the_stall_time_cuts_the_connection_off_at_the_next_message() -> None:
    """Rule: a client that has not taken one message ``Limits.stall`` seconds after it was
    begun is cut off (4001) when the next message for it comes, however short its queue."""
    closed: list[int] = []

    async def main() -> None:
        async def write(_text: str) -> None:
            await asyncio.Event().wait()  # never taken

        async def close(code: int, _reason: str) -> None:
            closed.append(code)

        connection = Connection(1, None, None, write, close, limits=Limits(stall=0.05))
        connection.start()
        assert connection.put(ErrorMessage(number=1, message="x"))
        await asyncio.sleep(0.01)
        assert connection.put(ErrorMessage(number=2, message="x"))  # not stalled yet
        await asyncio.sleep(0.1)
        assert not connection.put(ErrorMessage(number=3, message="x"))
        await asyncio.sleep(0.01)
        await connection.stop()

    asyncio.run(main())
    assert closed == [BEHIND]
