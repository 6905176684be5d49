"""Issue 16, points 10 and 11 on the server: table chat (who may write, plain text, the length and
rate limits, the lines kept for a hello), private notes (their author's alone) and the history
and statistics API (filters, pages, opponents counted from what the asker saw). On SQLite and
PostgreSQL, over a real uvicorn on 127.0.0.1."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
import websockets

from sevenstud.bots import RuleBot
from sevenstud.deck import Deck
from sevenstud.events import redact_all
from sevenstud.games import Stakes, StudHiLo
from sevenstud.server.accounts import auth
from sevenstud.server.accounts.downloads import own_hands
from sevenstud.server.accounts.sessions import COOKIE
from sevenstud.server.app import create_app
from sevenstud.server.limits import Limits
from sevenstud.server.protocol import PROTOCOL_VERSION, SERVER
from sevenstud.server.store import Store
from sevenstud.server.tables.room import TableKeeper, create_table
from sevenstud.stats import PlayerStats, hand_facts
from sevenstud.table import TableSettings
from tests.spawn import in_thread

SETTINGS = TableSettings(StudHiLo(Stakes(1, 2, 5, 10)), seats=4)
PASSWORD = "correct horse"

# ---------------------------------------------------------------------- chat


def _guest(base: str) -> tuple[str, httpx.Client]:
    client = httpx.Client(base_url=base, timeout=30)
    account = client.post("/api/guest").raise_for_status().json()
    return account["name"], client


async def _until(ws: Any, wanted: Callable[[dict[str, Any]], bool], seconds: float = 5) -> dict[str, Any]:
    """Read until a message ``wanted`` takes (each checked against the protocol's models)."""
    async def read() -> dict[str, Any]:
        while True:
            message = json.loads(await ws.recv())
            SERVER.validate_python(message)
            if wanted(message):
                return message

    return await asyncio.wait_for(read(), seconds)


def _is(kind: str, **fields: Any) -> Callable[[dict[str, Any]], bool]:
    return lambda m: m["type"] == kind and all(m.get(k) == v for k, v in fields.items())


def _error_about(part: str) -> Callable[[dict[str, Any]], bool]:
    return lambda m: m["type"] == "error" and part in m["message"]


def test_chat_seated_players_write_spectators_read_and_every_refusal_says_why(store: Store) -> None:
    limits = Limits(chat_messages=3, chat_window=60.0)
    with in_thread(create_app(store, pause=0.05, limits=limits)) as address:
        base = f"http://{address}"
        ann, ann_http = _guest(base)
        table = ann_http.post("/api/tables", json={"seats": 4, "bots": 1}).json()["id"]
        _rail, rail_http = _guest(base)

        async def scene() -> None:
            hello = json.dumps({"type": "hello", "version": PROTOCOL_VERSION, "table": table, "last": 0})
            ann_ws = await websockets.connect(
                f"ws://{address}/ws", additional_headers={"Cookie": f"{COOKIE}={ann_http.cookies[COOKIE]}"}
            )
            rail_ws = await websockets.connect(
                f"ws://{address}/ws", additional_headers={"Cookie": f"{COOKIE}={rail_http.cookies[COOKIE]}"}
            )
            async with ann_ws, rail_ws:
                for ws in (ann_ws, rail_ws):
                    await ws.send(hello)
                    await _until(ws, _is("welcome"))
                # Not seated yet: nobody at the table hears a watcher.
                await ann_ws.send(json.dumps({"type": "chat", "text": "hello?"}))
                await _until(ann_ws, _error_about("only players seated at this table chat here"))
                await ann_ws.send(json.dumps({"type": "sit", "seat": 1, "buy_in": 100}))
                await ann_ws.send(json.dumps({"type": "chat", "text": "  <b>nice</b> hand  "}))
                said = await _until(rail_ws, _is("chat"))
                # Plain text, as sent (trimmed): the server neither renders nor escapes it.
                assert (said["player"], said["seat"], said["text"]) == (ann, 1, "<b>nice</b> hand")
                assert said["table"] == table
                mine = await _until(ann_ws, _is("chat"))
                assert mine["id"] == said["id"]
                await rail_ws.send(json.dumps({"type": "chat", "text": "let me talk"}))
                await _until(rail_ws, _error_about("spectators read the chat"))
                await ann_ws.send(json.dumps({"type": "chat", "text": "x" * 201}))
                await _until(ann_ws, _error_about("malformed message: text: at most 200 characters"))
                await ann_ws.send(json.dumps({"type": "chat", "text": "two\nlines"}))
                await _until(ann_ws, _error_about("no control characters (U+000A)"))
                await ann_ws.send(json.dumps({"type": "chat", "text": "abc\u202edef"}))
                await _until(ann_ws, _error_about("no direction controls (U+202E)"))
                await ann_ws.send(json.dumps({"type": "chat", "text": "   "}))
                await _until(ann_ws, _error_about("a chat message needs some text"))
                await ann_ws.send(json.dumps({"type": "chat", "text": 5}))
                await _until(ann_ws, _error_about("text: expected a string, got an integer"))
                # The refusals used none of the allowance: two more lines go, the next is refused.
                for text in ("two", "three"):
                    await ann_ws.send(json.dumps({"type": "chat", "text": text}))
                    await _until(rail_ws, _is("chat", text=text))
                await ann_ws.send(json.dumps({"type": "chat", "text": "four"}))
                await _until(ann_ws, _error_about("too many chat messages: 3 per minute (try again in"))
            # A new hello hears the lines kept, in order.
            late = await websockets.connect(
                f"ws://{address}/ws", additional_headers={"Cookie": f"{COOKIE}={rail_http.cookies[COOKIE]}"}
            )
            async with late:
                await late.send(hello)
                kept = [(await _until(late, _is("chat")))["text"] for _ in range(3)]
                assert kept == ["<b>nice</b> hand", "two", "three"]

        asyncio.run(scene())
        ann_http.close()
        rail_http.close()


def test_chat_both_ways_is_in_the_published_schema_and_strict() -> None:
    from sevenstud.server.protocol import CLIENT, json_schema

    schema = json_schema()
    client = schema["client"]["$defs"]["Chat"]
    assert client["properties"]["text"]["maxLength"] == 200 and client["additionalProperties"] is False
    server = schema["server"]["$defs"]["ChatLine"]
    assert set(server["required"]) >= {"id", "number", "table", "player", "seat", "at", "text"}
    assert server["properties"]["type"]["const"] == "chat"
    with pytest.raises(ValueError, match="extra"):
        CLIENT.validate_python({"type": "chat", "text": "hi", "seat": 1})


def test_the_chat_allowance_is_the_players_over_all_their_tables() -> None:
    from sevenstud.server.tables.chat import ChatDesk, TableChat
    from sevenstud.server.tables.keeper import RoomError

    desk = ChatDesk(Limits(chat_messages=2, chat_window=30.0))
    one, two = TableChat(desk, 1), TableChat(desk, 2)
    one.say("a", "ann", 7, 1, 1, 0.0)
    two.say("b", "ann", 7, 3, 1, 0.0)
    with pytest.raises(RoomError, match="too many chat messages: 2 per 30 s"):
        one.say("c", "ann", 7, 1, 1, 0.0)
    two.say("d", "bob", 8, 2, 1, 0.0)  # another player's allowance is their own
    assert [line.text for line in one.since(0)] == ["a"]


# ---------------------------------------------------------------------- history, stats, notes


@pytest.fixture
def played(store: Store) -> Iterator[tuple[str, Store, dict[str, int]]]:
    """Ann and Bob with two bots, 25 hands played to the end; Cat has an account and no hand.
    A real uvicorn serves the store: its base URL, the store and the people's ids."""
    people = {name: auth.sign_up(store, name, PASSWORD) for name in ("ann", "bob", "cat")}
    table_id = create_table(store, "Social", SETTINGS)
    keeper = TableKeeper(store, table_id, SETTINGS)
    keeper.sit_down("ann", 1, 200, 0.0, player_id=people["ann"])
    keeper.sit_down("bot2", 2, 200, 0.0)
    keeper.sit_down("bob", 3, 200, 0.0, player_id=people["bob"])
    keeper.sit_down("bot4", 4, 200, 0.0)
    bot, now = RuleBot(seed=5), 1_764_547_200.0  # 2025-12-01 00:00 UTC
    for _ in range(25):
        if not keeper.table.can_start_hand():
            break
        keeper.start_hand(now, Deck.seeded(f"history {now}"))  # the same hands every run
        while keeper.table.hand_in_progress:
            seat = keeper.table.to_act
            assert seat is not None
            view = keeper.table.view(seat).hand
            assert view is not None
            now += 1
            keeper.act(seat, bot.act(view), now)
        now += 3600  # an hour between hands: the dates filter by day
    with in_thread(create_app(store, pause=60, lease_seconds=600)) as address:
        yield f"http://{address}", store, people


@contextlib.contextmanager
def _login(base: str, name: str) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=base, timeout=30) as client:
        client.post("/api/login", json={"name": name, "password": PASSWORD}).raise_for_status()
        yield client


def _all(client: httpx.Client, **query: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    page = 1
    while True:
        got = client.get("/api/history", params={**query, "page": page, "per_page": 7}).json()
        found += got["hands"]
        if page * 7 >= got["total"]:
            assert len(found) == got["total"]
            return found
        page += 1


def test_history_pages_newest_first_and_every_filter_picks_exactly_its_hands(
    played: tuple[str, Store, dict[str, int]],
) -> None:
    base, store, people = played
    truth = {own.row_id: own for own in own_hands(store, people["ann"])}
    with _login(base, "ann") as ann:
        everything = _all(ann)
        assert sorted(h["id"] for h in everything) == sorted(truth)
        assert [h["at"] for h in everything] == sorted((h["at"] for h in everything), reverse=True)
        for h in everything:
            own = truth[h["id"]]
            assert h["cards"] == [str(c) for c in own.hand.cards[own.hero]]
            assert h["net"] == own.hand.stacks[own.hero] - own.hand.starting_stacks[own.hero]
        # Each filter splits the hands: the parts are disjoint and together are all of them.
        for field, values in (
            ("result", ("won", "lost", "even")),
            ("street", (3, 4, 5, 6, 7)),
            ("showdown", ("true", "false")),
        ):
            parts = [{h["id"] for h in _all(ann, **{field: v})} for v in values]
            assert sum(map(len, parts)) == len(truth) and set().union(*parts) == set(truth), field
            for value, part in zip(values, parts, strict=True):
                key = "showdown" if field == "showdown" else field
                wanted = value == "true" if field == "showdown" else value
                assert all(h[key] == wanted for h in everything if h["id"] in part)
        assert len(_all(ann, game="stud8", stakes="5/10")) == len(truth)
        assert _all(ann, game="razz") == [] and _all(ann, stakes="10/20") == []
        # Cards held: a card exactly, a rank in any suit (as many as named).
        held = everything[0]["cards"][0]
        by_card = {h["id"] for h in _all(ann, cards=held)}
        assert by_card == {h["id"] for h in everything if held in h["cards"]}
        rank = held[0]
        pairs = {h["id"] for h in _all(ann, cards=f"{rank} {rank}")}
        assert pairs == {h["id"] for h in everything if sum(c[0] == rank for c in h["cards"]) >= 2}
        # Dates are UTC days; until takes in the whole day.
        first_day = _all(ann, since="2025-12-01", until="2025-12-01")
        assert {h["id"] for h in first_day} == {h["id"] for h in everything if h["at"] < 1_764_633_600}
        assert _all(ann, until="2025-11-30") == []
        for query, field in (
            ({"game": "holdem"}, "game: one of stud8, stud, razz"),
            ({"stakes": "5-10"}, "stakes: the small and the big bet as 5/10"),
            ({"cards": "Zz"}, "cards: 'Zz' is neither a card (As) nor a rank (A)"),
            ({"since": "yesterday"}, "since: a date as 2026-12-01 (UTC)"),
        ):
            answer = ann.get("/api/history", params=query)
            assert answer.status_code == 400 and answer.json()["detail"].startswith(field), query
        assert ann.get("/api/history", params={"street": 8}).status_code == 422
        assert ann.get("/api/history", params={"per_page": 101}).status_code == 422
    with _login(base, "cat") as cat:
        assert cat.get("/api/history").json() == {"total": 0, "page": 1, "per_page": 25, "hands": []}
    assert httpx.get(f"{base}/api/history").status_code == 401


def test_stats_are_yours_from_your_hands_and_an_opponents_only_from_hands_you_shared(
    played: tuple[str, Store, dict[str, int]],
) -> None:
    base, store, people = played
    hands = own_hands(store, people["ann"])
    mine, bob = PlayerStats(), PlayerStats()
    for own in hands:
        mine.add(hand_facts(own.hand.events, own.hero, split=True))
        if "bob" in own.names:
            seen = redact_all(own.hand.events, own.hero)
            bob.add(hand_facts(seen, own.names.index("bob"), split=True))
    with _login(base, "ann") as ann:
        assert ann.get("/api/stats").json() == mine.to_json()
        assert mine.hands == len(hands) > 0
        won = ann.get("/api/stats", params={"result": "won"}).json()
        assert won["hands"] == len(_all(ann, result="won"))
        theirs = ann.get("/api/stats/players", params=[("name", "bob"), ("name", "nobody")]).json()
        assert theirs["players"]["bob"] == bob.to_json() and bob.hands > 0
        assert theirs["players"]["nobody"]["hands"] == 0
        too_many = [("name", f"p{i}") for i in range(11)]
        assert ann.get("/api/stats/players", params=too_many).status_code == 422
    with _login(base, "cat") as cat:  # never played with Bob: nothing of his
        assert cat.get("/api/stats/players", params={"name": "bob"}).json()["players"]["bob"]["hands"] == 0


def test_each_finished_hand_is_replayed_once_for_the_history_and_then_read_from_memory(
    played: tuple[str, Store, dict[str, int]], monkeypatch: pytest.MonkeyPatch
) -> None:
    from sevenstud.server.accounts import summaries as hand_summaries

    _base, store, people = played
    replays: list[int] = []
    real = hand_summaries.hand_from_record

    def counting(record: Any) -> Any:
        replays.append(1)
        return real(record)

    monkeypatch.setattr(hand_summaries, "hand_from_record", counting)
    summaries = hand_summaries.Summaries(store)
    first = summaries.of(people["ann"])
    assert len(replays) == len(first) == len(own_hands(store, people["ann"]))
    again = summaries.of(people["ann"])
    assert again == first and len(replays) == len(first)  # nothing replayed the second time
    bobs = summaries.of(people["bob"])  # the hands they shared are not replayed again
    shared = {m.hand.row_id for m in first} & {m.hand.row_id for m in bobs}
    assert len(replays) == len(first) + len(bobs) - len(shared)
    assert summaries.of(people["cat"]) == []


def test_a_note_is_its_authors_alone_found_by_the_name_in_any_case_and_emptied_away(
    played: tuple[str, Store, dict[str, int]],
) -> None:
    base, _store, _people = played
    with _login(base, "ann") as ann, _login(base, "bob") as bob:
        assert ann.get("/api/notes/bob").status_code == 404
        written = ann.put("/api/notes/bob", json={"text": "  calls down light <script>  "}).json()
        assert (written["player"], written["text"]) == ("bob", "calls down light <script>")
        assert ann.get("/api/notes/BOB").json()["text"] == "calls down light <script>"
        ann.put("/api/notes/Bob", json={"text": "steals a lot\nfrom late"})
        listed = [(n["player"], n["text"]) for n in ann.get("/api/notes").json()]
        assert listed == [("Bob", "steals a lot\nfrom late")]
        # Nobody else reads it, nor learns it is there.
        assert bob.get("/api/notes").json() == []
        assert bob.get("/api/notes/bob").status_code == 404
        assert ann.put("/api/notes/bob", json={"text": "x" * 2001}).status_code == 422
        assert ann.put("/api/notes/bob", json={"text": 5}).status_code == 422
        bell = ann.put("/api/notes/bob", json={"text": "ding\x07"})
        assert bell.status_code == 400 and "plain text" in bell.json()["detail"]
        assert ann.get("/api/notes/bob").json()["text"] == "steals a lot\nfrom late"  # unchanged
        # A name whose compared form outgrows the column (NFKC expands U+FDFA to 18 letters).
        long_name = ann.put("/api/notes/" + "\ufdfa" * 5, json={"text": "x"})
        assert long_name.status_code == 400 and long_name.json()["detail"].startswith("name:")
        assert ann.get("/api/notes/" + "x" * 41).status_code == 422
        ann.put("/api/notes/bob", json={"text": ""})
        assert ann.get("/api/notes").json() == []
        ann.put("/api/notes/cat", json={"text": "new here"})
        assert ann.delete("/api/notes/cat").json()["deleted"] is True
        assert ann.get("/api/notes/cat").status_code == 404
    assert httpx.put(f"{base}/api/notes/bob", json={"text": "x"}).status_code == 401
