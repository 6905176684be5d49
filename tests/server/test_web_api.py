"""The server's half of the browser table (issue 11): pages and static files, the ``view``
message, bot kinds, equity jobs and the replayer, over a real uvicorn on both databases."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from fastapi import FastAPI
from sqlalchemy import select

from sevenstud.actions import Action, ActionKind
from sevenstud.bots import RandomBot, RuleBot
from sevenstud.cards import parse_cards
from sevenstud.events import ActionTaken, AntePosted, HandShown, HandTurnedUp, PotAwarded
from sevenstud.events import pots_of_events as pots_of
from sevenstud.games import Razz, StudHiLo
from sevenstud.games import Stakes as GameStakes
from sevenstud.history.phh import loads, loads_all
from sevenstud.server import web
from sevenstud.server.accounts.sessions import COOKIE
from sevenstud.server.protocol import PROTOCOL_VERSION, SERVER
from sevenstud.server.store import Store
from sevenstud.server.store.models import HandRow, Sitting
from sevenstud.server.tables.presenter import action_label, summary
from sevenstud.server.tables.room import Room, RoomError, TableKeeper, create_table
from sevenstud.showdown_hands import best_high, best_low
from sevenstud.table import TableSettings
from sevenstud.wire import hand_from_record


def _guest(address: str) -> httpx.Client:
    client = httpx.Client(base_url=f"http://{address}")
    client.post("/api/guest").raise_for_status()
    return client


def _hello(table: int, views: bool = True) -> str:
    return json.dumps({"type": "hello", "version": PROTOCOL_VERSION, "table": table, "views": views})


# ---------------------------------------------------------------------- 1. pages and static files


def test_pages_and_static_files_are_served_with_no_cache_and_security_headers(server: str) -> None:
    for path, page in [("/", "index.html"), ("/table/3", "table.html"), ("/equity", "equity.html"),
                       ("/hands/7", "replay.html")]:
        response = httpx.get(f"http://{server}{path}")
        if not (web.WEB / page).is_file():
            assert response.status_code == 404
            continue
        assert response.status_code == 200 and response.text == (web.WEB / page).read_text()
        assert response.headers["cache-control"] == "no-cache"
        assert response.headers["content-security-policy"].startswith("default-src 'self'")
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["referrer-policy"] == "same-origin"
    shipped = sorted(p for p in web.WEB.glob("*") if p.is_file())
    if shipped:
        response = httpx.get(f"http://{server}/web/{shipped[0].name}")
        assert response.status_code == 200 and response.headers["x-content-type-options"] == "nosniff"
    assert httpx.get(f"http://{server}/web/no-such-file.js").status_code == 404
    assert httpx.get(f"http://{server}/web/../server/app.py").status_code == 404


def test_a_page_not_written_yet_is_a_clean_404(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<!doctype html><title>lobby</title>")
    app = FastAPI()
    web.install(app, tmp_path)

    async def ask() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            return [await client.get(path) for path in ("/", "/table/1", "/web/table.js")]

    lobby, missing, script = asyncio.run(ask())
    assert lobby.status_code == 200 and lobby.headers["cache-control"] == "no-cache"
    assert missing.status_code == 404 and "table.html" in missing.text
    assert script.status_code == 404


def test_no_page_loads_anything_from_another_origin() -> None:
    pages = list(web.WEB.glob("*.html")) + list(web.WEB.glob("*.js")) + list(web.WEB.glob("*.css"))
    if not pages:
        pytest.skip("no web/ files in this checkout yet")
    for page in pages:
        text = page.read_text()
        for marker in ('src="http', "src='http", 'href="http', "href='http", "url(http", "import('http"):
            assert marker not in text, f"{page.name} loads from another origin ({marker})"


# ---------------------------------------------------------------------- 2. the view message


def _hands_by_number(store: Store, table: int) -> dict[int, tuple[Any, list[int]]]:
    """Each stored hand of the table: the engine's hand (every card) and its table seats."""
    out = {}
    with store.session() as s:
        for row in s.scalars(select(HandRow).where(HandRow.table_id == table)).all():
            seats = [s.get(Sitting, i).seat for i in row.sittings]  # type: ignore[union-attr]
            out[row.number] = (hand_from_record(row.record), seats)
    return out


def _hidden_from(hand: Any, seats: list[int], viewer: int | None) -> set[str]:
    """Every down card of a seat other than ``viewer`` whose hand was never turned face up."""
    turned = {seats[e.seat] for e in hand.events if isinstance(e, HandTurnedUp)}
    return {
        f'"{c}"'
        for i, (cards, ups) in enumerate(zip(hand.cards, hand.face_up, strict=True))
        if seats[i] != viewer and seats[i] not in turned
        for c, up in zip(cards, ups, strict=True)
        if not up
    }


async def _play(address: str, token: str, table: int, hands: int = 2) -> tuple[list[Any], list[Any]]:
    """Sit in seat 1 with views, play by the view's own buttons (the first that is not a fold)
    until ``hands`` hands it was dealt into have ended; a spectator with views watches all along."""
    mine: list[dict[str, Any]] = []
    watched: list[dict[str, Any]] = []
    done = asyncio.Event()

    async def spectator() -> None:
        async with websockets.connect(f"ws://{address}/ws") as ws:
            await ws.send(_hello(table))
            while not done.is_set():
                try:
                    watched.append(json.loads(await asyncio.wait_for(ws.recv(), 0.5)))
                except TimeoutError:
                    continue

    watcher = asyncio.create_task(spectator())
    async with websockets.connect(
        f"ws://{address}/ws", additional_headers={"Cookie": f"{COOKIE}={token}"}
    ) as ws:
        await ws.send(_hello(table))
        await ws.send(json.dumps({"type": "sit", "seat": 1, "buy_in": 100}))
        ended: set[int] = set()
        dealt: set[int] = set()  # the hands seat 1 was dealt into
        deadline = time.monotonic() + 30
        while len(ended) < hands and time.monotonic() < deadline:
            message = json.loads(await asyncio.wait_for(ws.recv(), 10))
            mine.append(message)
            if message["type"] != "view":
                continue
            if 1 in message["view"]["hand_seats"]:
                dealt.add(message["view"]["hand_number"])
            if message["last_hand"] is not None and message["last_hand"]["hand"] in dealt:
                ended.add(message["last_hand"]["hand"])
            if message["actions"]:
                choice = next((a for a in message["actions"] if a["kind"] != "fold"), message["actions"][0])
                hand = message["view"]["hand"]
                await ws.send(json.dumps({"type": "act", "hand": message["view"]["hand_number"],
                                          "street": hand["street"], "action": choice["action"]}))
    done.set()
    await watcher
    return mine, watched


def test_views_follow_every_batch_and_never_hold_a_card_the_connection_may_not_see(
    server: str, store: Store
) -> None:
    client = _guest(server)
    table = client.post("/api/tables", json={"game": "stud8", "seats": 3, "bots": 2}).json()["id"]
    mine, watched = asyncio.run(_play(server, client.cookies[COOKIE], table))
    # The first batch (welcome, snapshot, the waiting list, the clock) is followed by a view
    # before anything else.
    first = [m["type"] for m in mine].index("view")
    assert [m["type"] for m in mine[:2]] == ["welcome", "snapshot"]
    assert {m["type"] for m in mine[2:first]} <= {"waiting", "clock", "your_turn"}
    views = [m for m in mine if m["type"] == "view"]
    assert views and all(SERVER.validate_python(m) for m in mine + watched)
    errors = [m for m in mine if m["type"] == "error"]
    assert not errors, errors  # every button's action was accepted as it was sent
    stored = _hands_by_number(store, table)
    seated = brought_in = 0
    # Where each stored hand's bring-in fell (table seat, the index of its event): the first
    # action, bringing in or completing at once (a completed bring-in is marked too).
    opening = (ActionKind.BRING_IN, ActionKind.COMPLETE)
    bring_ins = {
        number: next(
            ((seats[e.seat], i) for i, e in enumerate(hand.events)
             if isinstance(e, ActionTaken) and e.action.kind in opening),
            None,
        )
        for number, (hand, seats) in stored.items()
    }
    for message, viewer in [(m, 1) for m in views] + [(m, None) for m in watched if m["type"] == "view"]:
        number = message["view"]["hand_number"]
        you = message["you"]
        assert you in (None, 1) and (viewer is not None or you is None)
        if number is not None and message["view"]["hand"]["phase"] == "betting":
            hand, seats = stored[number]
            public = json.dumps({k: v for k, v in message.items() if k != "last_hand"})
            leaked = [card for card in _hidden_from(hand, seats, you) if card in public]
            assert not leaked, (viewer, number, leaked)
            assert set(message["hands"]) <= ({str(you)} if you is not None else set())
            if you is not None and you in seats:
                own = [c for c in message["view"]["hand"]["cards"][seats.index(you)] if c]
                named = message["hands"][str(you)]
                assert named["high"] == best_high(parse_cards(own))[0]
                assert named["low"] == best_low(parse_cards(own), "stud8")[0]
            if you is not None:
                seated += 1
                assert message["pots"] and message["pots"][0]["amount"] > 0
                brought = bring_ins[number]
                street = message["view"]["hand"]["street"]
                if brought is None or message["view"]["hand"]["version"] <= brought[1] or street > 3:
                    assert message["bring_in"] is None  # not brought in (yet), or past third street
                else:
                    assert message["bring_in"] == brought[0]
                    brought_in += 1
        last = message["last_hand"]
        if last is not None:
            hand, seats = stored[last["hand"]]
            shown = {str(seats[e.seat]): e for e in hand.events if isinstance(e, HandShown)}
            assert set(last["shown"]) == set(shown)
            for seat, names in last["shown"].items():
                assert names["high"] == shown[seat].high and names["low"] == shown[seat].low
                assert set(names["high_cards"]) <= {str(c) for c in shown[seat].cards}
            assert last["summary"]
    assert seated, "never saw a view of a hand being bet"
    if any(b is not None for n, b in bring_ins.items() if n in {m["view"]["hand_number"] for m in views}):
        assert brought_in, "never saw a view of a hand being bet after its bring-in"
    final = views[-1]
    assert final["players"]["1"]["bot"] is False and final["players"]["2"] == {"name": "bot2", "bot": True}
    assert final["game"] == "stud8" and final["game_name"] == "Seven Card Stud Hi/Lo"
    assert final["has_high"] is True and final["has_low"] is True
    assert final["stakes"] == [1, 2, 5, 10] and final["seats"] == 3


def test_a_connection_without_views_gets_none(server: str) -> None:
    client = _guest(server)
    table = client.post("/api/tables", json={"seats": 3, "bots": 2}).json()["id"]

    async def watch() -> list[dict[str, Any]]:
        got = []
        async with websockets.connect(f"ws://{server}/ws") as ws:
            await ws.send(_hello(table, views=False))
            for _ in range(20):
                got.append(json.loads(await asyncio.wait_for(ws.recv(), 5)))
        return got

    assert all(m["type"] != "view" for m in asyncio.run(watch()))


def test_action_labels_say_the_chips_to_put_in() -> None:
    assert action_label(Action.parse("bring-in 1")) == "Bring in 1"
    assert action_label(Action.parse("complete to 2")) == "Complete to 2"
    assert action_label(Action.parse("call 2"), already=1) == "Call 1"
    assert action_label(Action.parse("raise to 4")) == "Raise to 4"
    assert action_label(Action.parse("bet 4")) == "Bet 4"
    assert action_label(Action.parse("check")) == "Check" and action_label(Action.parse("fold")) == "Fold"


NAMES = {1: "ann", 2: "bob", 3: "cid"}
ANTES = [AntePosted(s, 10, False) for s in NAMES]


def _shown(seat: int, cards: str, high: str | None, low: str | None) -> HandShown:
    return HandShown(seat, tuple(parse_cards(cards)), high, low)


def test_summary_a_hand_won_when_everyone_else_folded() -> None:
    assert summary(StudHiLo, NAMES, [*ANTES, PotAwarded(2, 30, 0, "whole")]) == [
        "bob wins 30: everyone else folded"
    ]


def test_summary_scoop_and_quartered_low() -> None:
    shows = [_shown(s, "As 2s 3s 4s 5s 9d 9h", "a straight flush, Ace to Five", "5,4,3,2,A") for s in NAMES]
    halves = [PotAwarded(1, 30, 0, "high"), PotAwarded(1, 15, 0, "low")]
    scoop = summary(StudHiLo, NAMES, [*ANTES, *shows, *halves])
    assert scoop == ["ann scoops the main pot (45) with a straight flush, Ace to Five and 5,4,3,2,A"]
    quarters = [PotAwarded(1, 16, 0, "high"), PotAwarded(2, 7, 0, "low"), PotAwarded(3, 7, 0, "low")]
    quartered = summary(StudHiLo, NAMES, [*ANTES, *shows, *quarters])
    assert quartered == [
        "ann wins the high half of the main pot (16) with a straight flush, Ace to Five",
        "bob and cid split the low half of the main pot (7 each)",
    ]


def test_summary_no_low_and_a_side_pot() -> None:
    shows = [_shown(1, "Ks Kd 9s 9h Qc Jd Td", "two pair, Kings and Nines", None),
             _shown(2, "As Ad 3s 3h Qh Jc Th", "two pair, Aces and Threes", None)]
    events = [*ANTES, *shows, PotAwarded(2, 30, 0, "whole"), PotAwarded(1, 10, 1, "whole")]
    assert summary(StudHiLo, NAMES, events) == [
        "bob wins the main pot (30) with two pair, Aces and Threes"
        " (no low: the high hand takes the whole pot)",
        "ann wins side pot 1 (10) with two pair, Kings and Nines",
    ]


def test_pots_main_first_then_side_pots_with_the_seats_that_may_win_them() -> None:
    events = [
        *(AntePosted(seat, 1, False) for seat in (1, 2, 4)),
        ActionTaken(1, 3, Action.parse("bring-in 2"), True, 2),  # all-in for the bring-in
        ActionTaken(2, 3, Action.parse("complete to 5"), False, 5),
        ActionTaken(4, 3, Action.parse("call 5"), False, 5),
    ]
    pots = pots_of(events, [1, 2, 4])
    assert [(p.amount, p.eligible) for p in pots] == [(9, (1, 2, 4)), (6, (2, 4))]
    folded = [*events, ActionTaken(2, 4, Action.parse("fold"), False, 0)]
    assert [(p.amount, p.eligible) for p in pots_of(folded, [1, 2, 4])] == [(9, (1, 4)), (6, (4,))]


def test_pots_in_play_a_bet_not_yet_called_is_no_side_pot() -> None:
    """Mid-hand, a side pot starts only where a live player is all-in: an uncalled bring-in
    stays in the one pot (it showed as "side pot 1: 2" before)."""
    antes = [AntePosted(seat, 1, False) for seat in (1, 2, 4)]
    bring_in = [*antes, ActionTaken(1, 3, Action.parse("bring-in 2"), False, 2)]
    pots = pots_of(bring_in, [1, 2, 4], stacks=[97, 99, 99])
    assert [(p.amount, p.eligible) for p in pots] == [(5, (1, 2, 4))]
    # the bring-in all-in for 3 in all: a main pot of 3 from each (seat 4 has put in 1 so far
    # and may call), and the completion's 3 over it a side pot the others may still contest
    all_in = [
        *antes,
        ActionTaken(1, 3, Action.parse("bring-in 2"), True, 2),
        ActionTaken(2, 3, Action.parse("complete to 5"), False, 5),
    ]
    pots = pots_of(all_in, [1, 2, 4], stacks=[0, 94, 99])
    assert [(p.amount, p.eligible) for p in pots] == [(7, (1, 2, 4)), (3, (2, 4))]


def test_summary_a_split_pot_and_a_razz_low() -> None:
    shows = [_shown(1, "As 2s 3s 4d 5d Kc Kd", None, "5,4,3,2,A"),
             _shown(2, "Ah 2h 3h 4c 5c Qc Qd", None, "5,4,3,2,A")]
    split = [*ANTES, *shows, PotAwarded(1, 15, 0, "whole"), PotAwarded(2, 15, 0, "whole")]
    assert summary(Razz, NAMES, split) == ["ann and bob split the main pot (15 each)"]
    alone = [*ANTES, *shows, PotAwarded(1, 30, 0, "whole")]
    assert summary(Razz, NAMES, alone) == ["ann wins the main pot (30) with 5,4,3,2,A"]


# ---------------------------------------------------------------------- 3. bots


def test_new_table_takes_a_bot_kind_and_the_lobby_names_who_sits(server: str) -> None:
    client = _guest(server)
    table = client.post("/api/tables", json={"seats": 4, "bots": 2, "bot": "random"}).json()["id"]
    line = next(t for t in httpx.get(f"http://{server}/api/lobby").json() if t["id"] == table)
    assert line["bots"] == 2 and sorted(line["players"]) == ["bot2", "bot3"]
    assert client.post("/api/tables", json={"bots": 1, "bot": "clever"}).status_code == 422


def test_add_bot_seats_the_kind_asked_for(store: Store) -> None:
    settings = TableSettings(StudHiLo(GameStakes(1, 2, 5, 10)), seats=4)
    room = Room(TableKeeper(store, create_table(store, "t", settings), settings))
    room.add_bot(2, "random", 0.0)
    room.add_bot(3, "rule", 0.0)
    bots = {name: o.bot for name, o in room.keeper.occupants.items()}
    assert isinstance(bots["bot2"], RandomBot) and isinstance(bots["bot3"], RuleBot)
    with pytest.raises(RoomError, match="unknown bot"):
        room.add_bot(4, "clever", 0.0)
    assert "bot4" not in room.keeper.occupants


def test_the_add_bot_message_takes_a_kind(server: str) -> None:
    client = _guest(server)
    table = client.post("/api/tables", json={"seats": 4, "bots": 0}).json()["id"]

    async def add() -> list[dict[str, Any]]:
        async with websockets.connect(
            f"ws://{server}/ws", additional_headers={"Cookie": f"{COOKIE}={client.cookies[COOKIE]}"}
        ) as ws:
            await ws.send(_hello(table, views=False))
            await ws.send(json.dumps({"type": "add_bot", "seat": 2, "bot": "random"}))
            await ws.send(json.dumps({"type": "add_bot", "seat": 3, "bot": "clever"}))
            # welcome, snapshot, waiting (after every hello), sat_down, then the refusal
            return [json.loads(await asyncio.wait_for(ws.recv(), 5)) for _ in range(5)]

    got = asyncio.run(add())
    assert any(m["type"] == "error" and "malformed" in m["message"] for m in got)
    line = next(t for t in httpx.get(f"http://{server}/api/lobby").json() if t["id"] == table)
    assert line["players"] == ["bot2"]


# ---------------------------------------------------------------------- 4. equity jobs


def test_an_equity_job_runs_to_its_result(server: str) -> None:
    body = {"game": "stud8", "hands": ["As 2s 3s 4d 5d 6c", "Kd Kh Kc 7h 8h 9h"], "method": "exact"}
    job = httpx.post(f"http://{server}/api/equity", json=body).json()["job"]
    for _ in range(300):
        answer = httpx.get(f"http://{server}/api/equity/{job}").json()
        if answer["done"]:
            break
        assert 0.0 <= answer["progress"] < 1.0
        time.sleep(0.1)
    assert answer["done"] and answer["progress"] == 1.0, answer
    result = answer["result"]
    assert result["exact"] is True and result["outcomes"] > 0 and "trials" not in result
    players = result["players"]
    assert len(players) == 2 and abs(sum(p["equity"] for p in players) - 1.0) < 1e-9
    assert all(p["low"] is not None for p in players)


def test_bad_cards_are_a_400_with_the_calculators_message(server: str) -> None:
    response = httpx.post(f"http://{server}/api/equity", json={"hands": ["As As Kd", "?? ?? 7h"]})
    assert response.status_code == 400 and "As" in response.json()["detail"]
    response = httpx.post(f"http://{server}/api/equity", json={"hands": ["Xx 2s 3s"]})
    assert response.status_code == 400 and "not a card" in response.json()["detail"]
    assert httpx.get(f"http://{server}/api/equity/nope").status_code == 404


# The limits on equity jobs (the size cap, the deadline, the counts per client and in all, the
# rates, the forgetting) are tested in test_equity_jobs.py.


# ---------------------------------------------------------------------- 5. the replayer


def test_the_replay_is_the_owners_and_holds_no_unshown_down_card_of_another(
    server: str, store: Store
) -> None:
    client = _guest(server)
    table = client.post("/api/tables", json={"game": "stud8", "seats": 3, "bots": 2}).json()["id"]
    asyncio.run(_play(server, client.cookies[COOKIE], table, hands=1))
    own = client.get("/api/hands").json()
    assert own, "no finished hand to replay"
    replay = client.get(f"/api/hands/{own[0]['id']}/replay").json()
    assert replay["you"] == 1 and replay["game"] == "stud8" and replay["stakes"] == [1, 2, 5, 10]
    assert replay["players"]["1"].startswith("guest") and replay["streets"][0]["street"] == 3
    assert replay["streets"][0]["text"] and replay["result"]["summary"]
    hand, seats = _hands_by_number(store, table)[replay["number"]]
    assert replay["seats"] == seats and replay["start_stacks"] == list(hand.starting_stacks)
    assert replay["result"]["stacks"] == list(hand.stacks)
    shown = {seats[e.seat] for e in hand.events if isinstance(e, HandShown)}
    text = json.dumps(replay)
    hidden = {c for c in _hidden_from(hand, seats, 1) if not any(
        c == f'"{card}"' for i, cs in enumerate(hand.cards) if seats[i] in shown for card in cs)}
    assert not [c for c in hidden if c in text]
    mine = {f'"{c}"' for c in hand.cards[seats.index(1)]}
    assert all(c in text for c in mine)
    # "All my hands" is a .phhs however many there are (here often just one), one hand a .phh.
    everything = client.get("/api/hands/download", params={"format": "phh"})
    assert 'filename="' in everything.headers["content-disposition"] and ".phhs" in everything.headers[
        "content-disposition"]
    assert len(loads_all(everything.text)) == len(own)
    assert loads(client.get(f"/api/hands/{own[0]['id']}", params={"format": "phh"}).text).hand is not None
    other = _guest(server)
    assert other.get(f"/api/hands/{own[0]['id']}/replay").status_code == 404
    assert httpx.get(f"http://{server}/api/hands/{own[0]['id']}/replay").status_code == 401


# ---------------------------------------------------------------------- 6. the protocol's schema


def test_the_protocol_schema_has_the_view_message_and_the_new_fields(server: str) -> None:
    schema = json.dumps(httpx.get(f"http://{server}/protocol.json").json())
    assert '"ViewMessage"' in schema and '"views"' in schema and '"last_hand"' in schema
    assert '"random"' in schema
    # The bot kinds a client may ask for are the registry's (issue 17): the schema lists them.
    from sevenstud.bots import BOT_KINDS

    for kind in BOT_KINDS:
        assert f'"{kind}"' in schema, kind


# ---------------------------------------------------------------------- 7. kinds stored, names, refills


def test_a_new_tables_random_bots_are_stored_random_and_its_line_has_its_name(
    server: str, store: Store
) -> None:
    client = _guest(server)
    table = client.post(
        "/api/tables", json={"name": "Ann's razz", "game": "razz", "seats": 4, "bots": 2, "bot": "random"}
    ).json()["id"]
    plain = client.post("/api/tables", json={"seats": 3, "bots": 1}).json()["id"]
    lobby = {t["id"]: t for t in httpx.get(f"http://{server}/api/lobby").json()}
    assert lobby[table]["name"] == "Ann's razz"
    assert lobby[plain]["name"] == ""  # none given: the pages call it by its number, in their language
    with store.session() as s:
        kinds = {(r.table_id, r.name): r.bot_kind for r in s.scalars(select(Sitting)).all()}
    assert kinds == {(table, "bot2"): "random", (table, "bot3"): "random", (plain, "bot2"): "rule"}


def test_every_account_answer_says_the_refills_terms(server: str, store: Store) -> None:
    from sevenstud.server.accounts import auth
    from sevenstud.server.store.models import Player

    terms = {"refill_to": auth.REFILL_CHIPS, "refill_below": auth.REFILL_BELOW}
    assert terms == {"refill_to": 1000, "refill_below": 1000}
    with httpx.Client(base_url=f"http://{server}") as client:
        answers = [client.post("/api/signup", json={"name": "ann", "password": "correct horse"}).json()]
        answers.append(client.get("/api/me").json())
        answers.append(client.post("/api/login", json={"name": "ann", "password": "correct horse"}).json())
        refused = client.post("/api/refill")  # 1000 chips: not under refill_below
        assert refused.status_code == 400 and "under 1000" in refused.json()["detail"]
        with store.session() as s, s.begin():  # broke (a cached balance only: no audit here)
            s.scalars(select(Player).where(Player.name == "ann")).one().balance = 10
        refilled = client.post("/api/refill")
        assert refilled.status_code == 200 and refilled.json()["balance"] == auth.REFILL_CHIPS
        answers.append(refilled.json())
    answers.append(_guest(server).get("/api/me").json())
    for answer in answers:
        assert {key: answer[key] for key in terms} == terms, answer
