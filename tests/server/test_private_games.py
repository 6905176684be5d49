"""Home games (docs/private_games.md): a private table nobody finds or watches without its
invite link, the link's renewal, asking to join, and the host's pause, removal and ledger.
Over real HTTP and websockets, both databases."""

from __future__ import annotations

import csv
import io
import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from sqlalchemy import and_, select
from websockets.sync.client import ClientConnection, connect

from sevenstud.server.accounts import auth
from sevenstud.server.accounts.sessions import COOKIE
from sevenstud.server.audit import audit
from sevenstud.server.protocol import PROTOCOL_VERSION, SERVER
from sevenstud.server.store import Store, ledger, private
from sevenstud.server.store.models import Entry, LedgerAccount, Player, PrivateGame, Sitting, Transfer
from sevenstud.server.tables.private import LEDGER_COLUMNS, ledger_csv

NOT_THERE = 99_999


def _guest(address: str) -> httpx.Client:
    client = httpx.Client(base_url=f"http://{address}")
    client.post("/api/guest").raise_for_status()
    return client


@pytest.fixture
def people(server: str) -> Iterator[tuple[httpx.Client, httpx.Client]]:
    """A host and a stranger, each a guest with a session."""
    host, stranger = _guest(server), _guest(server)
    try:
        yield host, stranger
    finally:
        host.close()
        stranger.close()


def _private_table(host: httpx.Client, **fields: Any) -> tuple[int, str]:
    body = {"game": "stud8", "seats": 4, "bots": 0, "private": True, **fields}
    made = host.post("/api/tables", json=body)
    made.raise_for_status()
    return made.json()["id"], made.json()["invite"]


def _socket(address: str, client: httpx.Client | None) -> ClientConnection:
    cookie = {"Cookie": f"{COOKIE}={client.cookies[COOKIE]}"} if client is not None else {}
    return connect(f"ws://{address}/ws", additional_headers=cookie)


def _say(ws: ClientConnection, message: dict[str, Any]) -> None:
    ws.send(json.dumps(message))


def _hello(ws: ClientConnection, table: int) -> None:
    _say(ws, {"type": "hello", "version": PROTOCOL_VERSION, "table": table})


def _until(ws: ClientConnection, wanted: str, seconds: float = 5.0) -> list[dict[str, Any]]:
    """Messages up to the first of type ``wanted`` (or an event of that type)."""
    got: list[dict[str, Any]] = []
    deadline = time.monotonic() + seconds
    while True:
        message = json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
        SERVER.validate_python(message)
        got.append(message)
        if message["type"] == wanted or (message["type"] == "event" and message["event"]["type"] == wanted):
            return got


def _answer_to_hello(address: str, client: httpx.Client | None, table: int) -> dict[str, Any]:
    with _socket(address, client) as ws:
        _hello(ws, table)
        return json.loads(ws.recv(timeout=5))


def test_a_stranger_finds_no_trace_of_a_private_table(
    server: str, people: tuple[httpx.Client, httpx.Client]
) -> None:
    host, stranger = people
    table, token = _private_table(host)
    public = host.post("/api/tables", json={"game": "razz", "seats": 2, "bots": 0}).json()["id"]
    # Not in the lobby, for anybody (the host too: the link is how one comes).
    listed = {line["id"] for line in stranger.get("/api/lobby").json()}
    assert public in listed and table not in listed
    # A hello: exactly what a table that does not exist is answered (signed in or out).
    for who in (stranger, None):
        refused = _answer_to_hello(server, who, table)
        missing = _answer_to_hello(server, who, NOT_THERE)
        assert refused["type"] == missing["type"] == "error"
        assert refused["message"] == f"no table {table}" and missing["message"] == f"no table {NOT_THERE}"
    # The host's panel, which the table page asks for at every table: {"host": false} to
    # anybody else, signed in or out, the same as for no table at all.
    for who in (stranger, httpx.Client(base_url=stranger.base_url)):
        here, nowhere = who.get(f"/api/private/tables/{table}"), who.get(f"/api/private/tables/{NOT_THERE}")
        assert here.status_code == nowhere.status_code == 200
        assert here.json() == nowhere.json() == {"host": False}
    # Every other route: the same 404 as for no table at all, a stranger's as anybody's.
    routes = [
        ("GET", "/api/private/tables/{}/pass"),
        ("GET", "/api/private/tables/{}/ledger.csv"),
        ("POST", "/api/private/tables/{}/link"),
    ]
    for method, path in routes:
        here = stranger.request(method, path.format(table))
        nowhere = stranger.request(method, path.format(NOT_THERE))
        assert here.status_code == nowhere.status_code == 404, path
        assert here.json() == nowhere.json() == {"detail": "no such table, or no invitation to it"}
    for path, body in [
        ("pause", {"paused": True}),
        ("ask", {"ask_to_join": False}),
        ("decide", {"player": "x", "approve": True}),
        ("remove", {"player": "x"}),
    ]:
        here = stranger.post(f"/api/private/tables/{table}/{path}", json=body)
        nowhere = stranger.post(f"/api/private/tables/{NOT_THERE}/{path}", json=body)
        assert here.status_code == nowhere.status_code == 404 and here.json() == nowhere.json(), path
    # A made-up token, or one a letter off the real one.
    for wrong in ("nope", token[:-1] + ("A" if token[-1] != "A" else "B")):
        assert stranger.post("/api/invite", json={"token": wrong}).status_code == 404
    # The table's page is the same page as any number's (what it shows comes from the hello).
    assert stranger.get(f"/table/{table}").content == stranger.get(f"/table/{NOT_THERE}").content
    # Nothing of the token itself is kept.
    assert len(token) >= 32


def test_the_link_lets_a_player_in_and_a_new_link_replaces_it(
    server: str, people: tuple[httpx.Client, httpx.Client], store: Store
) -> None:
    host, friend = people
    table, token = _private_table(host)
    with store.session() as s:
        kept = s.scalar(select(PrivateGame.token_hash).where(PrivateGame.table_id == table))
    assert kept == private.digest(token) and token not in str(kept)
    assert _answer_to_hello(server, host, table)["type"] == "welcome"  # the host, always
    joined = friend.post("/api/invite", json={"token": token})
    assert joined.status_code == 200 and joined.json()["state"] == "in" and joined.json()["table"] == table
    assert friend.get(f"/api/private/tables/{table}/pass").json()["state"] == "in"
    assert _answer_to_hello(server, friend, table)["type"] == "welcome"
    # The host renews the link: the old one lets nobody else in; the new one does.
    renewed = host.post(f"/api/private/tables/{table}/link").json()
    assert renewed["path"] == f"/invite/{renewed['token']}" and renewed["token"] != token
    late = _guest(server)
    try:
        assert late.post("/api/invite", json={"token": token}).status_code == 404
        assert _answer_to_hello(server, late, table)["type"] == "error"
        assert late.post("/api/invite", json={"token": renewed["token"]}).json()["state"] == "in"
        assert _answer_to_hello(server, late, table)["type"] == "welcome"
    finally:
        late.close()
    # One already let in stays in (the host removes a player to turn them out).
    assert _answer_to_hello(server, friend, table)["type"] == "welcome"
    # The host's own routes stay the host's: a friend with a pass gets the stranger's 404.
    assert friend.get(f"/api/private/tables/{table}").json() == {"host": False}
    assert friend.get(f"/api/private/tables/{table}/ledger.csv").status_code == 404


def test_asking_to_join_waits_for_the_host(server: str, people: tuple[httpx.Client, httpx.Client]) -> None:
    host, asker = people
    table, token = _private_table(host, ask_to_join=True)
    assert asker.post("/api/invite", json={"token": token}).json()["state"] == "asking"
    assert _answer_to_hello(server, asker, table)["type"] == "error"  # not yet
    other = _guest(server)
    try:
        assert other.post("/api/invite", json={"token": token}).json()["state"] == "asking"
        names = [
            asker.get("/api/me").json()["name"],
            other.get("/api/me").json()["name"],
        ]
        panel = host.get(f"/api/private/tables/{table}").json()
        assert [a["player"] for a in panel["asking"]] == names and panel["ask_to_join"] is True
        denied = host.post(f"/api/private/tables/{table}/decide", json={"player": names[1], "approve": False})
        assert denied.json()["state"] == "denied"
        approved = host.post(
            f"/api/private/tables/{table}/decide", json={"player": names[0], "approve": True}
        )
        assert approved.json()["state"] == "in"
        assert asker.get(f"/api/private/tables/{table}/pass").json()["state"] == "in"
        assert _answer_to_hello(server, asker, table)["type"] == "welcome"
        assert other.get(f"/api/private/tables/{table}/pass").json()["state"] == "denied"
        assert other.post("/api/invite", json={"token": token}).json()["state"] == "denied"  # stays so
        assert _answer_to_hello(server, other, table)["type"] == "error"
        panel = host.get(f"/api/private/tables/{table}").json()
        assert panel["asking"] == [] and panel["players"] == names[:1] and panel["denied"] == names[1:]
        # Nobody asked: nothing to decide.
        nobody = host.post(f"/api/private/tables/{table}/decide", json={"player": "ghost", "approve": True})
        assert nobody.status_code == 400 and "ghost" in nobody.json()["detail"]
        # Asking turned off: the next newcomer is in at once.
        host.post(f"/api/private/tables/{table}/ask", json={"ask_to_join": False}).raise_for_status()
    finally:
        other.close()
    third = _guest(server)
    try:
        assert third.post("/api/invite", json={"token": token}).json()["state"] == "in"
    finally:
        third.close()


def test_a_paused_table_finishes_its_hand_and_deals_no_other_until_resumed(
    server: str, people: tuple[httpx.Client, httpx.Client]
) -> None:
    host, _ = people
    table, _ = _private_table(host, bots=2)
    with _socket(server, host) as ws:
        _hello(ws, table)
        _until(ws, "hand_started")
        host.post(f"/api/private/tables/{table}/pause", json={"paused": True}).raise_for_status()
        got = _until(ws, "table_paused")
        assert got[-1]["paused"] is True and got[-1]["table"] == table
        # The hand in progress (if any) finishes; then nothing is dealt.
        started_after = []
        deadline = time.monotonic() + 1.5
        while time.monotonic() < deadline:
            try:
                message = json.loads(ws.recv(timeout=0.2))
            except TimeoutError:
                continue
            if message["type"] == "event" and message["event"]["type"] == "hand_started":
                started_after.append(message)
        assert started_after == []
        assert host.get(f"/api/private/tables/{table}").json()["paused"] is True
    # One who comes while it is paused is told so after the welcome.
    with _socket(server, host) as ws:
        _hello(ws, table)
        assert _until(ws, "table_paused")[-1]["paused"] is True
        host.post(f"/api/private/tables/{table}/pause", json={"paused": False}).raise_for_status()
        assert _until(ws, "table_paused")[-1]["paused"] is False
        _until(ws, "hand_started")


def _join(server: str, host: httpx.Client, friend: httpx.Client, **fields: Any) -> int:
    table, token = _private_table(host, **fields)
    assert friend.post("/api/invite", json={"token": token}).json()["state"] == "in"
    return table


def test_the_host_removes_a_player_between_hands_their_chips_returned(
    server: str, people: tuple[httpx.Client, httpx.Client], store: Store
) -> None:
    host, friend = people
    name = friend.get("/api/me").json()["name"]
    table = _join(server, host, friend)
    with _socket(server, friend) as ws:
        _hello(ws, table)
        _until(ws, "snapshot")
        _say(ws, {"type": "sit", "seat": 2, "buy_in": 100})
        _until(ws, "sat_down")
        assert friend.get("/api/me").json()["balance"] == auth.SIGN_UP_CHIPS - 100
        removed = host.post(
            f"/api/private/tables/{table}/remove", json={"player": name, "reason": "Last orbit, friends"}
        )
        assert removed.status_code == 200 and removed.json()["state"] == "removed"
        got = _until(ws, "removed")
        assert got[-1]["reason"] == "Last orbit, friends" and got[-1]["table"] == table
        assert any(m["type"] == "event" and m["event"]["type"] == "stood_up" for m in got)
        # No longer watching: a command is refused, as is a new hello.
        _say(ws, {"type": "sit", "seat": 2, "buy_in": 100})
        assert _until(ws, "error")[-1]["message"]
        _hello(ws, table)
        assert _until(ws, "error")[-1]["message"] == f"no table {table}"
    assert friend.get("/api/me").json()["balance"] == auth.SIGN_UP_CHIPS  # every chip back
    assert friend.get(f"/api/private/tables/{table}/pass").json() == {
        "table": table,
        "tournament": None,
        "state": "removed",
        "reason": "Last orbit, friends",
        "host": False,
    }
    assert host.get(f"/api/private/tables/{table}").json()["removed"] == [name]
    # The host cannot remove themselves; nobody with no pass is removed.
    me = host.get("/api/me").json()["name"]
    assert host.post(f"/api/private/tables/{table}/remove", json={"player": me}).status_code == 400
    assert host.post(f"/api/private/tables/{table}/remove", json={"player": "ghost"}).status_code == 400
    # The link again: they ask, and the host decides.
    report = audit(store)
    assert report.ok, report


def test_a_player_dealt_in_is_removed_only_once_the_hand_is_over(
    server: str, people: tuple[httpx.Client, httpx.Client], store: Store
) -> None:
    host, friend = people
    name = friend.get("/api/me").json()["name"]
    table = _join(server, host, friend, bots=1)
    with _socket(server, friend) as ws:
        _hello(ws, table)
        _until(ws, "snapshot")
        _say(ws, {"type": "sit", "seat": 3, "buy_in": 100})
        _until(ws, "hand_started")
        refused = host.post(f"/api/private/tables/{table}/remove", json={"player": name})
        assert refused.status_code == 400 and "when it ends" in refused.json()["detail"]
        host.post(f"/api/private/tables/{table}/pause", json={"paused": True}).raise_for_status()
        _say(ws, {"type": "leave"})  # folds and stands up at the hand's end
        _until(ws, "hand_ended", seconds=10)
    assert host.post(f"/api/private/tables/{table}/remove", json={"player": name}).status_code == 200
    assert audit(store).ok


def _figures_from_the_ledger(store: Store, table: int) -> dict[str, dict[str, int]]:
    """Each seat-holder's chips between their balance (or the bank) and their seats at the
    table, read from the entries directly."""
    out: dict[str, dict[str, int]] = {}
    with store.session() as s:
        for sitting in s.scalars(select(Sitting).where(Sitting.table_id == table)).all():
            seat = s.scalar(
                select(LedgerAccount.id).where(
                    and_(LedgerAccount.kind == ledger.SEAT, LedgerAccount.ref == sitting.id)
                )
            )
            mine = out.setdefault(sitting.name, {"in": 0, "out": 0, "now": 0})
            rows = s.execute(
                select(Transfer.reason, Entry.amount).join(Entry).where(Entry.account_id == seat)
            ).all()
            for reason, amount in rows:
                if reason in ("buy-in", "top-up"):
                    mine["in"] += amount
                elif reason == "leaving":
                    mine["out"] -= amount
            if sitting.open:
                mine["now"] += sum(amount for _, amount in rows)
    return out


def test_the_nights_ledger_csv_adds_up_to_the_ledger(
    server: str, people: tuple[httpx.Client, httpx.Client], store: Store
) -> None:
    host, friend = people
    name = friend.get("/api/me").json()["name"]
    table = _join(server, host, friend, bots=1)
    with _socket(server, friend) as ws:
        _hello(ws, table)
        _until(ws, "snapshot")
        _say(ws, {"type": "sit", "seat": 3, "buy_in": 100})
        _until(ws, "hand_started")
        host.post(f"/api/private/tables/{table}/pause", json={"paused": True}).raise_for_status()
        _say(ws, {"type": "leave"})  # folded; stands up (cashes out) as the hand ends
        _until(ws, "stood_up", seconds=10)
        _say(ws, {"type": "sit", "seat": 3, "buy_in": 60})  # paused: no hand is dealt now
        _until(ws, "sat_down")
        _say(ws, {"type": "top_up", "amount": 40})
        _until(ws, "topped_up")
    answer = host.get(f"/api/private/tables/{table}/ledger.csv")
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/csv")
    assert "attachment" in answer.headers["content-disposition"]
    rows = list(csv.DictReader(io.StringIO(answer.text)))
    assert list(rows[0]) == list(LEDGER_COLUMNS)
    mine = next(r for r in rows if r["player"] == name)
    assert int(mine["buy_ins"]) == 160 and int(mine["top_ups"]) == 40 and int(mine["at_table"]) == 100
    figures = _figures_from_the_ledger(store, table)
    for row in rows:
        truth = figures[row["player"]]
        assert int(row["buy_ins"]) + int(row["top_ups"]) == truth["in"]
        assert int(row["cash_outs"]) == truth["out"] and int(row["at_table"]) == truth["now"]
        assert int(row["net"]) == truth["out"] + truth["now"] - truth["in"]
    with store.session() as s:
        player = s.scalar(select(Player).where(Player.name == name))
        assert player is not None
        # What the friend's balance says they won or lost is the CSV's net.
        assert player.balance + int(mine["at_table"]) - auth.SIGN_UP_CHIPS == int(mine["net"])
    assert {r["player"] for r in rows} == {name, "bot2"}
    # The hand played there is the friend's to download, and nobody else's (the host's neither:
    # not dealt in), with the answer a hand that does not exist gets.
    hands = friend.get("/api/hands").json()
    assert [h["table"] for h in hands] == [table]
    hand = hands[0]["id"]
    assert friend.get(f"/api/hands/{hand}").status_code == 200
    for other in (host, _guest(server)):
        mine, none = other.get(f"/api/hands/{hand}"), other.get(f"/api/hands/{NOT_THERE}")
        assert mine.status_code == none.status_code == 404
        assert mine.json()["detail"].replace(str(hand), "N") == none.json()["detail"].replace(
            str(NOT_THERE), "N"
        )
    assert audit(store).ok


def test_a_formula_in_a_name_is_not_a_formula_in_the_csv() -> None:
    text = ledger_csv(
        [{"player": "=SUM(A1)", "buy_ins": 1, "top_ups": 0, "cash_outs": 0, "at_table": 0, "net": -1}]
    )
    assert text.splitlines()[1].startswith("'=SUM")


def test_a_private_sit_and_go_is_no_tournament_to_a_stranger(
    server: str, people: tuple[httpx.Client, httpx.Client], store: Store
) -> None:
    host, stranger = people
    # Only a sit-and-go is private; a scheduled one is refused.
    scheduled = host.post("/api/tournaments", json={"template": "mtt-turbo", "private": True})
    assert scheduled.status_code == 422 and "sit-and-go" in scheduled.json()["detail"]
    made = host.post(
        "/api/tournaments", json={"template": "sng-heads-up", "buy_in": 10, "fee": 0, "private": True}
    ).json()
    tid, token = made["id"], made["invite"]
    with store.session() as s:
        assert s.scalar(select(PrivateGame.token_hash).where(PrivateGame.tournament_id == tid)) == (
            private.digest(token)
        )
    # Not listed, not shown, not entered: each answer that of a tournament that does not exist.
    assert tid not in {t["id"] for t in stranger.get("/api/tournaments").json()}
    assert tid in {t["id"] for t in host.get("/api/tournaments").json()}  # the host's own list
    for method, path, status in [
        ("GET", "/api/tournaments/{}", 404),
        ("GET", "/api/tournaments/{}/summary", 404),
        ("POST", "/api/tournaments/{}/register", 409),
        ("POST", "/api/tournaments/{}/unregister", 409),
        ("POST", "/api/tournaments/{}/deal/propose", 409),
        ("GET", "/api/private/tournaments/{}/pass", 404),
    ]:
        here = stranger.request(method, path.format(tid))
        nowhere = stranger.request(method, path.format(NOT_THERE))
        assert here.status_code == nowhere.status_code == status, path
        said = here.json()["detail"].replace(str(tid), "N")
        assert said == nowhere.json()["detail"].replace(str(NOT_THERE), "N"), path
    # The host's panel: {"host": false}, as for no tournament at all.
    views = [stranger.get(f"/api/private/tournaments/{t}").json() for t in (tid, NOT_THERE)]
    assert views == [{"host": False}, {"host": False}]
    signed_out = httpx.get(f"http://{server}/api/tournaments/{tid}")
    assert signed_out.status_code == 404
    # With the link: listed, shown and entered; the heads-up starts with the host.
    assert stranger.post("/api/invite", json={"token": token}).json() == {
        "table": None,
        "tournament": tid,
        "state": "in",
        "reason": "",
        "host": False,
    }
    assert tid in {t["id"] for t in stranger.get("/api/tournaments").json()}
    assert stranger.post(f"/api/tournaments/{tid}/register").status_code == 200
    assert host.post(f"/api/tournaments/{tid}/register").status_code == 200
    deadline = time.monotonic() + 10
    tables: list[dict[str, Any]] = []
    while not tables or tables[0]["table_id"] is None:
        assert time.monotonic() < deadline, "the sit-and-go's table was never opened"
        tables = stranger.get(f"/api/tournaments/{tid}").json()["tables"]
        time.sleep(0.05)
    table = tables[0]["table_id"]
    # Its table: a third player finds nothing there either.
    third = _guest(server)
    try:
        assert third.get(f"/api/tournaments/table/{table}").json() == {"tournament": None, "number": None}
        refused = _answer_to_hello(server, third, table)
        assert refused["type"] == "error" and refused["message"] == f"no table {table}"
        assert third.get(f"/api/tournaments/{tid}").status_code == 404
    finally:
        third.close()
    assert stranger.get(f"/api/tournaments/table/{table}").json()["tournament"] == tid
    assert _answer_to_hello(server, stranger, table)["type"] == "welcome"
    # The host's page of answers: the entrant let in.
    panel = host.get(f"/api/private/tournaments/{tid}").json()
    assert panel["tournament"] == tid and panel["players"] == [stranger.get("/api/me").json()["name"]]
