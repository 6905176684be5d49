"""The house's standing tables and the room's settings (issue 33, point 2: "The house's
tables"): defined, edited and closed by an operator under ``/api/admin/tables``, kept open by
the room (after a restart too), closed after the hand in progress with every chip back, and
the setting whether players open tables of their own."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import websockets
from sqlalchemy import select

from sevenstud.server.accounts import auth
from sevenstud.server.accounts.sessions import COOKIE
from sevenstud.server.app import create_app
from sevenstud.server.audit import audit
from sevenstud.server.connection import CLOSED
from sevenstud.server.operators import accounts, log, tokens
from sevenstud.server.protocol import PROTOCOL_VERSION
from sevenstud.server.store import Store, open_store
from sevenstud.server.store.models import HandRow, Player, Sitting, TableRow
from sevenstud.server.tables.recovery import recover
from tests.spawn import in_thread, running

PASSWORD = "correct horse battery"


def _client(address: str, name: str | None = None) -> httpx.Client:
    """A client logged in as ``name`` (None: a new guest)."""
    client = httpx.Client(base_url=f"http://{address}")
    if name is None:
        client.post("/api/guest").raise_for_status()
    else:
        client.post("/api/login", json={"name": name, "password": PASSWORD}).raise_for_status()
    return client


def _until(check: Callable[[], Any], seconds: float = 10.0) -> Any:
    """``check()``'s first true answer within ``seconds`` (fails otherwise)."""
    deadline = time.monotonic() + seconds
    while True:
        found = check()
        if found:
            return found
        assert time.monotonic() < deadline, "not within the time"
        time.sleep(0.05)


def _house_line(client: httpx.Client, name: str) -> dict[str, Any] | None:
    """The lobby's line of the house table named ``name`` (None: not listed)."""
    lines = [line for line in client.get("/api/lobby").json() if line.get("name") == name]
    return lines[0] if lines else None


def test_an_operator_defines_edits_and_closes_a_standing_table(store: Store) -> None:
    """A standing table is open in the lobby, marked as the house's, with its bots; a change of
    its bots takes effect at the next hand, a change of its stakes at the next table (at once
    when nobody but bots sits there); closed, it leaves the lobby and is not opened again; a
    definition that makes no table is refused with what was wrong; every action is in the log."""
    accounts.create(store, log.COMMAND_LINE, "boss", PASSWORD)
    auth.sign_up(store, "pat", PASSWORD)
    app = create_app(store, pause=0.05)
    with in_thread(app) as address:
        boss, pat = _client(address, "boss"), _client(address, "pat")
        body = {"name": "Main stud8", "game": "stud8", "stakes": [1, 2, 5, 10], "seats": 6, "bots": 2}
        made = boss.post("/api/admin/tables", json={**body, "rake_percent": 5, "rake_cap": 3})
        assert made.status_code == 200, made.text
        house = made.json()
        assert house["state"] == "open" and (house["min_buy_in"], house["max_buy_in"]) == (40, 200)
        line = _until(lambda: _house_line(pat, "Main stud8"))
        assert line["house"] is True and line["seats"] == 6
        first = line["id"]
        _until(lambda: (_house_line(pat, "Main stud8") or {}).get("bots") == 2)
        room = app.state.cardroom.rooms[first]
        assert room.keeper.table.settings.game.rake_cap == 3  # the rake is the table's game's

        listed = boss.get("/api/admin/tables").json()
        assert [(t["id"], t["table"], t["state"]) for t in listed] == [(house["id"], first, "open")]
        assert sum(p["bot"] for p in listed[0]["players"]) == 2

        more = boss.post(f"/api/admin/tables/{house['id']}", json={"bots": 3})
        assert more.status_code == 200 and more.json()["bots"] == 3
        _until(lambda: (_house_line(pat, "Main stud8") or {}).get("bots") == 3)
        assert _house_line(pat, "Main stud8")["id"] == first  # the same table: at the next hand

        bigger = boss.post(f"/api/admin/tables/{house['id']}", json={"stakes": [2, 5, 10, 20]})
        assert bigger.json()["max_buy_in"] == 400  # the limits follow the stakes
        line = _until(lambda: (found := _house_line(pat, "Main stud8")) and found["id"] != first and found)
        assert line["stakes"] == [2, 5, 10, 20]
        assert app.state.cardroom.rooms.get(first) is None  # the old table closed

        for wrong, said in (
            ({"bots": 6, "seats": 6}, "6 bots leave no seat free"),
            ({"max_buy_in": 5000}, "max_buy_in 5000 is above 1000"),
            ({"rake_percent": 2.555}, "at most 2 decimals"),
        ):
            refused = boss.post("/api/admin/tables", json={**body, "name": "x", **wrong})
            assert refused.status_code == 400 and said in refused.json()["detail"], refused.text
        assert boss.post("/api/admin/tables", json={**body, "rake_percent": 100}).status_code == 422
        assert boss.post("/api/admin/tables", json={**body, "rakes": 1}).status_code == 422
        assert boss.post("/api/admin/tables/99", json={"bots": 1}).status_code == 404

        closed = boss.post(f"/api/admin/tables/{house['id']}/close", json={"reason": "quiet nights"})
        assert closed.status_code == 200 and closed.json()["state"] in ("closing", "closed")
        _until(lambda: _house_line(pat, "Main stud8") is None)
        _until(lambda: boss.get("/api/admin/tables").json()[0]["state"] == "closed")
        again = boss.post(f"/api/admin/tables/{house['id']}/close", json={})
        assert again.status_code == 400 and "closed already" in again.json()["detail"]
        time.sleep(1.5)  # a round or so: not opened again
        assert _house_line(pat, "Main stud8") is None

        events = boss.get("/api/admin/events", params={"target": f"house table {house['id']}"}).json()
        assert [e["action"] for e in events] == [
            "house_table_close",
            "house_table_edit",
            "house_table_edit",
            "house_table_open",
        ]
        assert events[0]["reason"] == "quiet nights" and events[0]["operator"] == "boss"
        assert events[1]["detail"]["changed"]["stakes"] == [[1, 2, 5, 10], [2, 5, 10, 20]]
        assert events[3]["detail"]["rake_percent"] == 5.0
    assert audit(store).ok


def test_players_may_be_kept_from_opening_tables_of_their_own(store: Store) -> None:
    """With the room's setting off, a player's new table is refused with a sentence saying where
    to play, an operator's is not; a token with ``tables:read`` reads but does not change."""
    accounts.create(store, log.COMMAND_LINE, "boss", PASSWORD)
    auth.sign_up(store, "pat", PASSWORD)
    _, token = tokens.make(store, "boss", "site", ["tables:read"])
    app = create_app(store, pause=0.05)
    with in_thread(app) as address:
        boss, pat = _client(address, "boss"), _client(address, "pat")
        assert boss.get("/api/admin/settings").json() == {"players_open_tables": True}
        assert pat.post("/api/tables", json={"seats": 2}).status_code == 200
        assert pat.get("/api/room").json() == {"players_open_tables": True}
        changed = boss.post("/api/admin/settings", json={"players_open_tables": False})
        assert changed.json() == {"players_open_tables": False}
        assert pat.get("/api/room").json() == {"players_open_tables": False}  # what the lobby shows
        refused = pat.post("/api/tables", json={"seats": 2})
        assert refused.status_code == 403
        assert refused.json()["detail"].startswith("players do not open tables in this room")
        ru = pat.post("/api/tables", json={"seats": 2}, headers={"Accept-Language": "ru"})
        assert ru.json()["detail"] != refused.json()["detail"]  # said in Russian
        assert boss.post("/api/tables", json={"seats": 2}).status_code == 200
        assert pat.get("/api/admin/settings").status_code == 403
        assert pat.post("/api/admin/settings", json={"players_open_tables": True}).status_code == 403
        assert pat.post("/api/admin/tables", json={"name": "mine"}).status_code == 403
        bearer = httpx.Client(base_url=f"http://{address}", headers={"Authorization": f"Bearer {token}"})
        assert bearer.get("/api/admin/tables").status_code == 200
        assert bearer.post("/api/admin/tables", json={"name": "x"}).status_code == 403
        assert bearer.post("/api/admin/settings", json={"players_open_tables": True}).status_code == 403
        events = boss.get("/api/admin/events", params={"action": "room_setting"}).json()
        assert [(e["target"], e["detail"]) for e in events] == [
            ("players_open_tables", {"value": False, "was": True})
        ]


async def _play_until_closed(
    address: str, token: str, table: int, on_seated: Callable[[], Any]
) -> tuple[Any, int]:
    """Sit at ``table`` and play (check, call or the first action) until the table closes; call
    ``on_seated`` (in a thread) once a hand is being dealt to us. The ``table_closed`` message
    and the socket's close code."""
    headers = {"Cookie": f"{COOKIE}={token}"}
    closed_message = None
    asked = False
    async with websockets.connect(f"ws://{address}/ws", additional_headers=headers) as ws:
        await ws.send(json.dumps({"type": "hello", "version": PROTOCOL_VERSION, "table": table, "last": 0}))
        await ws.send(json.dumps({"type": "sit", "seat": 1, "buy_in": 100}))
        try:
            while True:
                message = json.loads(await asyncio.wait_for(ws.recv(), 30))
                if message["type"] == "your_turn":
                    names = [a["action"] for a in message["actions"]]
                    action = next((a for a in ("check", "call") if a in names), names[0])
                    if not asked:  # a hand in progress, our turn in it: the operator closes now
                        asked = True
                        await asyncio.to_thread(on_seated)
                    act = {
                        "type": "act",
                        "hand": message["hand"],
                        "street": message["street"],
                        "action": action,
                    }
                    await ws.send(json.dumps(act))
                elif message["type"] == "table_closed":
                    closed_message = message
        except websockets.ConnectionClosed as gone:
            assert gone.rcvd is not None
            return closed_message, gone.rcvd.code
    raise AssertionError("the socket stayed open")


def test_a_closed_standing_table_closes_after_its_hand_with_every_chip_back(store: Store) -> None:
    """Closed in the middle of a hand, the table deals that hand to its end, then closes: the
    player's page is told ``house_closed`` and closed 4004, the player's stack is back in the
    balance, no hand is cancelled, and the audit is clean."""
    accounts.create(store, log.COMMAND_LINE, "boss", PASSWORD)
    auth.sign_up(store, "pat", PASSWORD)
    app = create_app(store, pause=0.05)
    with in_thread(app) as address:
        boss, pat = _client(address, "boss"), _client(address, "pat")
        house = boss.post("/api/admin/tables", json={"name": "Razz", "game": "razz", "bots": 2}).json()
        table = _until(lambda: _house_line(pat, "Razz"))["id"]
        _until(lambda: (_house_line(pat, "Razz") or {}).get("bots") == 2)
        playing: list[bool] = []

        def close() -> None:
            playing.append(app.state.cardroom.rooms[table].playing)
            answer = boss.post(f"/api/admin/tables/{house['id']}/close", json={"reason": "end of the league"})
            assert answer.status_code == 200 and answer.json()["state"] == "closing", answer.text

        told, code = asyncio.run(_play_until_closed(address, pat.cookies[COOKIE], table, close))
        assert playing == [True]
        assert code == CLOSED
        assert told is not None and told["reason"] == "house_closed" and told["table"] == table
        # A page opened later is answered the same (once the close is written: the pages at the
        # table are told first, then the table's row is closed).
        hello = _until(
            lambda: (h := asyncio.run(_hello_answer(address, table)))["type"] == "table_closed" and h
        )
        assert hello["reason"] == "house_closed"
    with store.session() as s:
        statuses = set(s.scalars(select(HandRow.status).where(HandRow.table_id == table)))
        assert statuses == {"finished"}  # the hand in progress was dealt to its end
        assert not s.scalars(select(Sitting).where(Sitting.table_id == table, Sitting.open.is_(True))).all()
        balance = s.scalar(select(Player.balance).where(Player.name == "pat"))
    assert balance == pat_balance_from_ledger(store)
    report = audit(store)
    assert report.ok, str(report)


def pat_balance_from_ledger(store: Store) -> int:
    """pat's balance as the ledger's entries sum it (the audit checks the cached one agrees)."""
    from sevenstud.server.store import ledger
    from sevenstud.server.store.models import Entry

    with store.session() as s:
        player_id = s.scalar(select(Player.id).where(Player.name == "pat"))
        account = ledger.account(s, ledger.BALANCE, player_id)
        return int(sum(s.scalars(select(Entry.amount).where(Entry.account_id == account))))


async def _hello_answer(address: str, table: int) -> dict[str, Any]:
    async with websockets.connect(f"ws://{address}/ws") as ws:
        await ws.send(json.dumps({"type": "hello", "version": PROTOCOL_VERSION, "table": table, "last": 0}))
        answer: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 10))
        return answer


def test_a_standing_table_is_open_again_after_the_server_restarts(tmp_path: Path) -> None:
    """``sevenstud serve`` stopped and started again: the standing table is dealing again, the
    same table with its bots; and once it has closed, a new one is opened in its place."""
    database = f"sqlite:///{tmp_path / 'room.db'}"
    store = open_store(database)
    accounts.create(store, log.COMMAND_LINE, "boss", PASSWORD)
    store.close()
    with running(database, pause=1.0) as first:
        boss = _client(first.address, "boss")
        made = boss.post("/api/admin/tables", json={"name": "Standing", "bots": 3})
        assert made.status_code == 200, made.text
        line = _until(lambda: (found := _house_line(boss, "Standing")) and found["bots"] == 3 and found)
        table = line["id"]
    with running(database, pause=1.0) as second:
        boss = _client(second.address, "boss")
        line = _until(lambda: (found := _house_line(boss, "Standing")) and found["bots"] == 3 and found)
        assert line["id"] == table and line["house"] is True
        listed = boss.get("/api/admin/tables").json()
        assert listed[0]["table"] == table and listed[0]["state"] == "open"
    # The table closed while no server ran (its row closed, its seats stood up): the next start
    # opens a new one in its place (served in this process: a third `sevenstud serve` costs
    # half a minute to start on a busy machine, and the leases and rounds are the same).
    store = open_store(database)
    try:
        with store.transaction() as s:
            row = s.get(TableRow, table)
            assert row is not None
            row.closed = True
        recover(store, [table], keep_seats=False)
        with in_thread(create_app(store, pause=1.0)) as third:
            boss = _client(third, "boss")
            line = _until(lambda: (found := _house_line(boss, "Standing")) and found["bots"] == 3 and found)
            assert line["id"] != table  # a new table in its place
    finally:
        store.close()
    store = open_store(database)
    try:
        assert audit(store).ok
    finally:
        store.close()
