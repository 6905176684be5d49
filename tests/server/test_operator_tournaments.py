"""The operators' tournaments (issue 33, point 2 "Tournaments"; docs/operators.md,
"Tournaments"): only the house makes public tournaments, the lobby's one click is the house's
sit-and-go always registering, templates and schedules kept in the database and in the event
log, and a running tournament paused (its clock held), resumed, cancelled with every entry
refunded, and told something at its tables."""

from __future__ import annotations

import asyncio
import datetime
import json
import threading
import time
import zoneinfo
from collections.abc import Callable
from typing import Any

import httpx
import pytest
import websockets
from sqlalchemy import func, select

from sevenstud.server.accounts.sessions import COOKIE
from sevenstud.server.app import create_app
from sevenstud.server.audit import audit
from sevenstud.server.operators.schedule import next_time
from sevenstud.server.protocol import PROTOCOL_VERSION, SERVER
from sevenstud.server.store import Store
from sevenstud.server.store.models import HandRow, OperatorEvent, TournamentEntry, TournamentTable
from tests.house import house_tournament, operator
from tests.spawn import in_thread


def _guest(address: str) -> httpx.Client:
    client = httpx.Client(base_url=f"http://{address}", timeout=30)
    client.post("/api/guest").raise_for_status()
    return client


def _until(what: str, check: Callable[[], Any], seconds: float = 20.0) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        found = check()
        if found:
            return found
        assert time.monotonic() < deadline, f"{what}: not within {seconds} s"
        time.sleep(0.05)


def _events(store: Store, action: str) -> list[OperatorEvent]:
    with store.session() as s:
        return list(s.scalars(select(OperatorEvent).where(OperatorEvent.action == action)))


def _fast_app(store: Store) -> Any:
    app = create_app(store, pause=0.01)
    app.state.tournaments.max_speed = 1000.0
    app.state.tournaments.bot_fields = True  # a field of bots alone: the house's tests
    return app


def test_a_player_is_refused_a_public_tournament_and_the_house_makes_it(store: Store) -> None:
    """Rule: public tournaments are the house's: a player's is refused with the reason (a
    private one is theirs to open), an operator's is made and logged."""
    with in_thread(_fast_app(store)) as address:
        guest = _guest(address)
        house = operator(store, f"http://{address}")
        refused = guest.post("/api/tournaments", json={"template": "sng-6", "bots": 5})
        assert refused.status_code == 403
        assert "only the house makes public tournaments" in refused.json()["detail"]
        # A player's own sit-and-go is a private one (private games), by invite link.
        private = guest.post("/api/tournaments", json={"template": "sng-6", "private": True})
        assert private.status_code == 200 and private.json()["invite"], private.text
        assert (
            house.post("/api/admin/tournaments", json={"template": "sng-6", "private": True}).status_code
            == 422
        )
        made = house_tournament(house, {"template": "sng-6", "name": "Friday", "bots": 2})
        assert guest.get(f"/api/tournaments/{made['id']}").json()["name"] == "Friday"
    (line,) = _events(store, "tournament_made")
    assert line.target == f"tournament {made['id']}" and line.operator.startswith("house")


def test_the_lobby_one_click_enters_the_house_sit_and_go_and_another_opens(store: Store) -> None:
    """Rule: the lobby's one click is the house's sit-and-go always registering (migration
    0018's "Quick sit-and-go": six seats, five bots): the player fills it, it starts, and the
    schedule opens the next one at once."""
    with in_thread(_fast_app(store)) as address:
        guest = _guest(address)

        def open_ones() -> list[dict[str, Any]]:
            found = guest.get("/api/tournaments", params={"state": "registering"}).json()
            return [t for t in found if t["registered"] == 5]  # its bots all in

        (first,) = _until("the house's sit-and-go is open", open_ones)
        assert first["registered"] == 5 and first["seats"] == 6
        balance = guest.get("/api/me").json()["balance"]
        entered = guest.post("/api/tournaments/quick")
        assert entered.status_code == 200, entered.text
        assert entered.json()["id"] == first["id"]
        page = guest.get(f"/api/tournaments/{first['id']}").json()
        assert page["state"] == "running" and page["you"] is not None
        assert guest.get("/api/me").json()["balance"] == balance - 110
        (second,) = _until("the next one opens", open_ones)
        assert second["id"] != first["id"] and second["registered"] == 5
        # A second player's click enters the new one.
        other = _guest(address)
        assert other.post("/api/tournaments/quick").json()["id"] == second["id"]
    made = _events(store, "tournament_scheduled")
    assert [e.target for e in made][:2] == [f"tournament {first['id']}", f"tournament {second['id']}"]
    assert all(e.operator == "schedule 1" for e in made)


def test_templates_and_schedules_are_kept_logged_and_checked(store: Store) -> None:
    """Rule: templates and schedules are the database's (a restart keeps them), every change in
    the event log, and a schedule that does not say when is refused naming what is wrong."""
    app = _fast_app(store)
    with in_thread(app) as address:
        house = operator(store, f"http://{address}")
        body = {
            "name": "Nightly Razz",
            "settings": {"template": "mtt-turbo", "game": "razz", "start_in": 3600.0},
        }
        made = house.post("/api/admin/templates", json=body)
        assert made.status_code == 200, made.text
        template = made.json()["id"]
        assert house.post("/api/admin/templates", json=body).status_code == 409  # the name taken
        bad = house.post("/api/admin/templates", json={"name": "x", "settings": {"template": "sng-5"}})
        assert bad.status_code == 422
        refusals = {
            "schedule_needs_time": {"kind": "daily"},
            "unknown_zone": {"kind": "daily", "at_time": "20:00", "zone": "Mars/Olympus"},
            "bad_time_of_day": {"kind": "daily", "at_time": "25:00", "zone": "Europe/Tallinn"},
            "schedule_needs_hours": {"kind": "every", "every_hours": 0.0},
            "always_needs_sit_and_go": {"kind": "always"},
        }
        for code, fields in refusals.items():
            answer = house.post("/api/admin/schedules", json={"template": template, **fields})
            assert answer.status_code == 422, (code, answer.text)
        daily = house.post(
            "/api/admin/schedules",
            json={"template": template, "kind": "daily", "at_time": "20:00", "zone": "Europe/Tallinn"},
        )
        assert daily.status_code == 200, daily.text
        when = datetime.datetime.fromtimestamp(daily.json()["next_at"], zoneinfo.ZoneInfo("Europe/Tallinn"))
        assert (when.hour, when.minute) == (20, 0) and daily.json()["next_at"] > time.time()
        in_use = house.delete(f"/api/admin/templates/{template}")
        assert in_use.status_code == 409 and "schedule" in in_use.json()["detail"]
        changed = house.put(
            f"/api/admin/templates/{template}", json={**body, "name": "Nightly Razz turbo"}
        ).json()
        assert changed["name"] == "Nightly Razz turbo"
    again = _fast_app(store)  # a restart: the same database
    with in_thread(again) as address:
        house = operator(store, f"http://{address}")
        names = [t["name"] for t in house.get("/api/admin/templates").json()]
        assert names == ["Quick sit-and-go", "Nightly Razz turbo"]
        kinds = [(s["kind"], s["at_time"], s["zone"]) for s in house.get("/api/admin/schedules").json()]
        assert kinds == [("always", None, None), ("daily", "20:00", "Europe/Tallinn")]
    actions = [e.action for e in _events(store, "template_made") + _events(store, "template_changed")]
    assert actions == ["template_made", "template_changed"]
    assert len(_events(store, "schedule_made")) == 1


def test_a_daily_time_is_the_time_zone_own_across_a_clock_change() -> None:
    """Rule: "daily at 20:00 in Europe/Tallinn" is 20:00 on the local clock, summer time or not."""
    zone = zoneinfo.ZoneInfo("Europe/Tallinn")
    before = datetime.datetime(2026, 3, 27, 21, 0, tzinfo=zone).timestamp()  # the day before the change
    first = next_time("daily", "20:00", "Europe/Tallinn", None, before)
    second = next_time("daily", "20:00", "Europe/Tallinn", None, first or 0)
    assert first is not None and second is not None
    assert datetime.datetime.fromtimestamp(first, zone).hour == 20
    assert datetime.datetime.fromtimestamp(second, zone).hour == 20
    assert second - first == 23 * 3600  # the night the clocks went forward
    assert next_time("every", None, None, 2.0, 100.0) == 100.0 + 7200.0


def test_an_every_n_hours_schedule_makes_its_tournament_and_counts_on(store: Store) -> None:
    """Rule: a schedule every N hours makes its first tournament at once, the next N hours on."""
    with in_thread(_fast_app(store)) as address:
        house = operator(store, f"http://{address}")
        template = house.post(
            "/api/admin/templates", json={"name": "Hourly", "settings": {"template": "sng-heads-up"}}
        ).json()["id"]
        made = house.post(
            "/api/admin/schedules", json={"template": template, "kind": "every", "every_hours": 2.0}
        )
        assert made.status_code == 200, made.text

        def its_tournament() -> Any:
            (line,) = [s for s in house.get("/api/admin/schedules").json() if s["id"] == made.json()["id"]]
            return line if line["tournament"] else None

        line = _until("the schedule makes its tournament", its_tournament)
        assert line["next_at"] == pytest.approx(time.time() + 7200, abs=30)
        listed = house.get("/api/admin/tournaments").json()
        assert any(t["id"] == line["tournament"] and t["schedule"] == line["id"] for t in listed)


async def _watch(address: str, token: str, table: int, wanted: str, seconds: float = 20) -> dict[str, Any]:
    """Watch ``table`` until a message of type ``wanted`` comes; that message."""
    headers = {"Cookie": f"{COOKIE}={token}"}
    async with websockets.connect(f"ws://{address}/ws", additional_headers=headers) as ws:
        await ws.send(json.dumps({"type": "hello", "version": PROTOCOL_VERSION, "table": table, "last": 0}))
        end = time.monotonic() + seconds
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), max(0.1, end - time.monotonic())))
            SERVER.validate_python(message)
            if message["type"] == wanted:
                return dict(message)


async def _play_along(address: str, token: str, table: int, seconds: float = 60) -> list[str]:
    """Sit in at ``table`` as the player of ``token``: the first legal action at every turn,
    until the table closes; the types of the messages seen."""
    headers = {"Cookie": f"{COOKIE}={token}"}
    seen: list[str] = []
    async with websockets.connect(f"ws://{address}/ws", additional_headers=headers) as ws:
        await ws.send(json.dumps({"type": "hello", "version": PROTOCOL_VERSION, "table": table, "last": 0}))
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), max(0.1, end - time.monotonic())))
            except websockets.ConnectionClosed:
                break
            seen.append(message["type"])
            if message["type"] == "your_turn":
                action = message["actions"][0]["action"]
                act = {"type": "act", "hand": message["hand"], "street": message["street"], "action": action}
                await ws.send(json.dumps(act))
            elif message["type"] == "table_closed":
                break
    return seen


def _hands(store: Store, tid: int) -> int:
    with store.session() as s:
        tables = select(TournamentTable.table_id).where(TournamentTable.tournament_id == tid)
        return int(s.scalar(select(func.count(HandRow.id)).where(HandRow.table_id.in_(tables))) or 0)


def test_pause_holds_the_clock_and_the_deal_and_resume_goes_on(store: Store) -> None:
    """Rule: a paused tournament's level clock stands still and no table deals a new hand (the
    hand in progress is played out); its tables are told; resumed, both go on; in the log."""
    app = _fast_app(store)
    service = app.state.tournaments
    with in_thread(app) as address:
        house = operator(store, f"http://{address}")
        tid = house_tournament(house, {"template": "sng-6", "bots": 6, "speed": 50.0, "name": "Held"})["id"]
        _until("its first hands", lambda: _hands(store, tid) >= 2)
        page = house.get(f"/api/tournaments/{tid}").json()
        table = next(t["table_id"] for t in page["tables"] if t["table_id"])
        token = house.cookies[COOKIE]

        async def pause_while_watching() -> dict[str, Any]:
            watching = asyncio.ensure_future(_watch(address, token, table, "tournament_paused"))
            await asyncio.sleep(0.5)
            answer = await asyncio.to_thread(
                house.post, f"/api/admin/tournaments/{tid}/pause", json={"reason": "a break"}
            )
            assert answer.status_code == 200, answer.text
            return await watching

        told = asyncio.run(pause_while_watching())
        assert told == {"type": "tournament_paused", "tournament": tid, "paused": True}
        running = service.running[tid]
        d = running.director
        now = running.now()
        # The service's clock held: an hour of the tournament's time later, no play time passed.
        assert d.paused and d.play_time(now + 3600.0) == d.play_time(now)
        assert d.may_deal(1, now) is None
        assert house.post(f"/api/admin/tournaments/{tid}/pause", json={}).status_code == 409  # twice
        busy = [room for room in running.rooms.values() if room.keeper.table.hand_in_progress]
        _until(
            "the hand in progress is played out",
            lambda: not any(r.keeper.table.hand_in_progress for r in busy),
        )
        dealt = _hands(store, tid)
        time.sleep(0.5)  # at speed 50 and 0.01 s between hands: many hands, were it dealing
        assert _hands(store, tid) == dealt
        listed = next(t for t in house.get("/api/admin/tournaments").json() if t["id"] == tid)
        assert listed["paused"] is True
        resumed = house.post(f"/api/admin/tournaments/{tid}/resume", json={"reason": "back"})
        assert resumed.status_code == 200, resumed.text
        later = running.now()
        assert not d.paused and d.play_time(later + 60.0) > d.play_time(later)
        _until("dealing again", lambda: _hands(store, tid) > dealt)
    assert [e.reason for e in _events(store, "tournament_paused")] == ["a break"]
    assert [e.reason for e in _events(store, "tournament_resumed")] == ["back"]


def test_cancel_refunds_every_entry_and_leaves_the_audit_clean(store: Store) -> None:
    """Rule (docs/tournaments.md, "Rulings"): a cancelled tournament refunds every entry, buy-in
    and fee, to whoever paid it; its chips go back; its tables close; the audit is clean."""
    app = _fast_app(store)
    with in_thread(app) as address:
        house = operator(store, f"http://{address}")
        guest = _guest(address)
        start = guest.get("/api/me").json()["balance"]
        tid = house_tournament(house, {"template": "sng-6", "bots": 5, "speed": 20.0, "name": "Doomed"})["id"]
        assert guest.post(f"/api/tournaments/{tid}/register").status_code == 200
        assert guest.get("/api/me").json()["balance"] == start - 110
        _until("its first hand", lambda: _hands(store, tid) >= 1)
        page = guest.get(f"/api/tournaments/{tid}").json()
        table = next(t["table_id"] for t in page["tables"] if t["number"] == page["you"]["table"])
        seen: list[str] = []
        playing = threading.Thread(
            target=lambda: seen.extend(asyncio.run(_play_along(address, guest.cookies[COOKIE], table)))
        )
        playing.start()
        time.sleep(0.3)
        cancelled = house.post(f"/api/admin/tournaments/{tid}/cancel", json={"reason": "the server moves"})
        assert cancelled.status_code == 200, cancelled.text
        # Paused at once; cancelled once the hand in progress is played out.
        assert cancelled.json()["state"] in ("cancelled", "cancelling")
        page = _until(
            "cancelled, its tables closed",
            lambda: (
                (p := guest.get(f"/api/tournaments/{tid}").json())["state"] == "cancelled"
                and not p["tables"]
                and p
            ),
            60,
        )
        playing.join(30)
        assert "tournament_paused" in seen and "table_closed" in seen, seen
        assert guest.get("/api/me").json()["balance"] == start
        # Nobody holds a place, a bot busted before the cancel included (and as stored).
        assert all(e["place"] is None and e["prize"] == 0 for e in page["entrants"])
        with store.session() as s:
            places = s.scalars(select(TournamentEntry.place).where(TournamentEntry.tournament_id == tid))
            assert set(places) == {None}
        again = house.post(f"/api/admin/tournaments/{tid}/cancel", json={})
        assert again.status_code == 409
        # One registering (bots alone) is cancelled too, its bots' entries back to the bank.
        waiting = house_tournament(house, {"template": "sng-6", "bots": 3, "name": "Empty"})["id"]
        assert house.post(f"/api/admin/tournaments/{waiting}/cancel", json={}).status_code == 200
        report = audit(store)
        assert report.ok, report.problems
    assert [e.reason for e in _events(store, "tournament_cancelled")] == ["the server moves", ""]


def test_an_announcement_reaches_the_tournament_tables(store: Store) -> None:
    """Rule: an operator's announcement is a protocol message at every table of the tournament,
    in the log; an empty one is refused; a token without the write scope is refused."""
    app = _fast_app(store)
    with in_thread(app) as address:
        house = operator(store, f"http://{address}")
        tid = house_tournament(house, {"template": "sng-6", "bots": 6, "speed": 5.0, "name": "Told"})["id"]
        _until("its table", lambda: _hands(store, tid) >= 1)
        page = house.get(f"/api/tournaments/{tid}").json()
        table = next(t["table_id"] for t in page["tables"] if t["table_id"])
        token = house.cookies[COOKIE]

        async def announce_while_watching() -> dict[str, Any]:
            watching = asyncio.ensure_future(_watch(address, token, table, "tournament_announcement"))
            await asyncio.sleep(0.5)
            said = {"text": "Final table at 21:00, good luck"}
            answer = await asyncio.to_thread(house.post, f"/api/admin/tournaments/{tid}/announce", json=said)
            assert answer.status_code == 200, answer.text
            return await watching

        told = asyncio.run(announce_while_watching())
        assert told["text"] == "Final table at 21:00, good luck" and told["tournament"] == tid
        assert house.post(f"/api/admin/tournaments/{tid}/announce", json={"text": ""}).status_code == 422
        made = house.post("/api/admin/tokens", json={"label": "site", "scopes": ["tournaments:read"]}).json()
        bearer = {"Authorization": f"Bearer {made['token']}"}
        reader = httpx.Client(base_url=f"http://{address}", headers=bearer)
        assert reader.get("/api/admin/tournaments").status_code == 200
        assert reader.post(f"/api/admin/tournaments/{tid}/pause", json={}).status_code == 403
    (line,) = _events(store, "tournament_announced")
    assert line.detail == {"text": "Final table at 21:00, good luck"}


def test_a_paused_tournament_stays_paused_after_a_restart(store: Store) -> None:
    """Rule: a pause is stored with the director: a restart takes the tournament up paused,
    its clock held, until an operator resumes it."""
    with in_thread(_fast_app(store)) as address:
        house = operator(store, f"http://{address}")
        tid = house_tournament(house, {"template": "sng-6", "bots": 6, "speed": 20.0})["id"]
        _until("its first hand", lambda: _hands(store, tid) >= 1)
        assert house.post(f"/api/admin/tournaments/{tid}/pause", json={}).status_code == 200
    again = _fast_app(store)
    with in_thread(again) as address:
        running = _until("taken up again", lambda: again.state.tournaments.running.get(tid))
        now = running.now()
        assert running.director.paused and running.director.play_time(
            now + 600.0
        ) == running.director.play_time(now)
        house = operator(store, f"http://{address}")
        assert house.post(f"/api/admin/tournaments/{tid}/resume", json={}).status_code == 200
        assert not running.director.paused
