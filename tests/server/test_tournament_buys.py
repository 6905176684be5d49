"""Re-entry, rebuys, the add-on and the ICM deal through the card room (issue 15, points 1 and
5; docs/protocol.md, "Tournaments"; docs/tournaments.md, "In the card room"): the lobby's real
routes over HTTP (httpx on the ASGI app) and the tournament service over real rooms on SQLite
and PostgreSQL, on the test's own event loop, with bots in the other seats. Every price is
paid through the ledger, the chips are conserved (sum of stacks = entries x starting chips +
rebuys and add-ons) and ``sevenstud audit`` is clean; every refusal names what was wrong and
changes nothing."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
from sqlalchemy import select

from sevenstud.server.audit import audit
from sevenstud.server.store import Store, ledger
from sevenstud.server.store.models import TournamentEntry
from sevenstud.tournament import HEADS_UP, TURBO, Director, TournamentSettings
from tests.server.tournament_room import CardRoom, balance, person, run, set_balance, tournament_row, until


async def _between_hands(post: Callable[[], Awaitable[httpx.Response]], seconds: float) -> httpx.Response:
    """``post`` until it is not refused for a hand in progress (granted only between hands)."""
    end = time.monotonic() + seconds
    while True:
        answer = await post()
        if answer.status_code != 409 or ("in a hand" not in answer.text and "ends first" not in answer.text):
            return answer
        assert time.monotonic() < end, f"never between hands: {answer.text}"
        await asyncio.sleep(0.02)


def _seated_chips(room: CardRoom, tid: int) -> dict[str, int]:
    """What each player holds at the tournament's tables now (the seats, not the director)."""
    running = room.service.running[tid]
    return {s.player: s.stack for r in running.rooms.values() for s in r.keeper.table.view(None).seats}


def test_rebuys_and_the_add_on_are_paid_through_the_ledger_and_reach_the_seat(store: Store) -> None:
    """A person rebuys at no more than the starting chips and takes the add-on in the level
    after the rebuys: each price from the balance into the prize pool, the chips issued and
    added to the seat; refused (nothing changed) when the balance is short, when the template's
    rules say no (over the starting chips, rebuys over, the add-on twice), or for a player not in
    the tournament. The chips at the tables are always entries x starting chips + rebuys and
    add-ons, and the audit is clean."""

    async def main() -> None:
        room = CardRoom(store, pause=0.3, grace=0.1, quick_turns=True)
        await room.service.start()
        # Six seats (two paid): heads-up, the field would close on the bubble at once.
        settings = TournamentSettings(
            kind="sit_and_go",
            seats=6,
            max_entries=6,
            structure=HEADS_UP,
            rebuy_levels=1,
            rebuy_limit=2,
            add_on_chips=2000,
            add_on_price=50,
        )
        tid = room.service.create("rebuys", settings, speed=60.0, seed=3)  # 5 s of the wall a level
        pid, name, start = person(store)
        other_pid, _, _ = person(store)
        async with room.client(pid) as me, room.client(other_pid) as other:
            page = (await me.get(f"/api/tournaments/{tid}")).json()
            assert page["rebuys"] == {"levels": 1, "limit": 2, "chips": 1500, "price": 100}
            assert page["add_on"] == {"chips": 2000, "price": 50, "level": 1}
            refused = await me.post(f"/api/tournaments/{tid}/rebuy")
            assert refused.status_code == 409 and "not playing in this tournament" in refused.text
            for n in range(5):
                room.service.register(tid, None, f"bot{tid}-{n}", "rule")
            assert (await me.post(f"/api/tournaments/{tid}/register")).status_code == 200
            assert balance(store, pid) == start - 110
            you = (await me.get(f"/api/tournaments/{tid}")).json()["you"]
            assert you["may_rebuy"] and not you["may_add_on"] and not you["may_reenter"]
            # A balance short of the price: refused, nothing changed.
            set_balance(store, pid, 60)
            short = await _between_hands(lambda: me.post(f"/api/tournaments/{tid}/rebuy"), 20)
            assert short.status_code == 409, short.text
            assert short.json()["detail"] == "a rebuy costs 100, more than your balance of 60"

            def d() -> Director:  # (a refused request takes the stored director up again)
                return room.service.running[tid].director

            assert d().entrants[name].rebuys == 0 and d().pool == 600 and balance(store, pid) == 60
            set_balance(store, pid, start - 110)
            # Granted between hands: 100 into the pool, 1500 chips more at the seat.
            bought = await _between_hands(lambda: me.post(f"/api/tournaments/{tid}/rebuy"), 20)
            assert bought.status_code == 200, bought.text
            answer = bought.json()
            assert answer["rebuy"] == name and answer["price"] == 100 and answer["prize_pool"] == 700
            assert balance(store, pid) == start - 210
            assert answer["chips"] > 1500  # the rebuy's chips on what was left
            # The seat gets them from the box (it held no more than the starting chips before).
            await until(lambda: _seated_chips(room, tid).get(name, 0) > 1500, 10, "the chips at the seat")
            # Over the starting chips now: no second rebuy, nothing changed.
            again = await _between_hands(lambda: me.post(f"/api/tournaments/{tid}/rebuy"), 20)
            assert again.status_code == 409 and "more than the starting chips" in again.text
            assert d().entrants[name].rebuys == 1 and d().pool == 700
            early = await _between_hands(lambda: me.post(f"/api/tournaments/{tid}/addon"), 20)
            assert early.status_code == 409
            assert "the add-on is on only in the level after the rebuys" in early.text
            # The next level: rebuys over, the add-on on.
            await until(lambda: d().level_index >= 1, 20, "the second level")
            you = (await me.get(f"/api/tournaments/{tid}")).json()["you"]
            assert you["may_add_on"] and not you["may_rebuy"], you
            over = await _between_hands(lambda: me.post(f"/api/tournaments/{tid}/rebuy"), 20)
            assert over.status_code == 409 and "rebuys are over" in over.text
            added = await _between_hands(lambda: me.post(f"/api/tournaments/{tid}/addon"), 20)
            assert added.status_code == 200, added.text
            assert added.json()["add_on"] == name and added.json()["prize_pool"] == 750
            assert balance(store, pid) == start - 260
            twice = await _between_hands(lambda: me.post(f"/api/tournaments/{tid}/addon"), 20)
            assert twice.status_code == 409 and "taken the add-on already" in twice.text
            stranger = await other.post(f"/api/tournaments/{tid}/addon")
            assert stranger.status_code == 409 and "not playing" in stranger.text
            # Chips conserved: 6 entries x 1500 + one rebuy of 1500 + one add-on of 2000.
            with room.service.running[tid].lock:
                assert d().chips_issued == 6 * 1500 + 1500 + 2000 == d().chips_in_play()
            page = (await me.get(f"/api/tournaments/{tid}")).json()
            mine = next(e for e in page["entrants"] if e["name"] == name)
            assert mine["rebuys"] == 1 and mine["add_on"] is True and page["prize_pool"] == 750
            with store.session() as s:
                entry = s.scalars(
                    select(TournamentEntry).where(
                        TournamentEntry.tournament_id == tid, TournamentEntry.name == name
                    )
                ).one()
                assert entry.paid == 110 + 100 + 50
                assert ledger.balance_of(s, ledger.account(s, ledger.TPOOL, tid)) == 750
                assert -ledger.balance_of(s, ledger.account(s, ledger.TCHIPS, tid)) == 12500
        report = audit(store)
        assert report.ok, report
        await room.stop()
        report = audit(store)
        assert report.ok, report

    run(main, 150.0)


def test_the_icm_deal_is_paid_when_everyone_agrees_and_the_tournament_ends(store: Store) -> None:
    """At the final table with everyone in the money, a person sees each player's ICM share,
    proposes the deal (the bots agree at once), may decline it (play goes on), and once they
    accept it between hands the prizes left are paid by ICM through the ledger and the
    tournament ends with places by chips; the audit is clean."""

    async def main() -> None:
        room = CardRoom(store, pause=0.2, grace=0.1, quick_turns=True)
        await room.service.start()
        # Three seats, three prizes: everyone is in the money from the start.
        settings = TournamentSettings(
            kind="sit_and_go", seats=3, max_entries=3, structure=TURBO, paid_places_override=(50, 30, 20)
        )
        tid = room.service.create("deal", settings, speed=5.0, seed=11)
        pid, name, start = person(store)
        other_pid, _, _ = person(store)
        for n in range(2):
            room.service.register(tid, None, f"bot{tid}-{n}", "rule")
        async with room.client(pid) as me, room.client(other_pid) as other:
            early = await me.post(f"/api/tournaments/{tid}/deal/propose")
            assert early.status_code == 409 and "not playing" not in early.text  # not started yet
            assert (await me.post(f"/api/tournaments/{tid}/register")).status_code == 200
            page = (await me.get(f"/api/tournaments/{tid}")).json()
            assert page["state"] == "running" and page["deal"] is None
            assert set(page["icm"]) == {name, f"bot{tid}-0", f"bot{tid}-1"}
            assert sum(page["icm"].values()) == 300
            assert page["you"]["may_propose_deal"] and not page["you"]["may_accept_deal"]
            nothing = await me.post(f"/api/tournaments/{tid}/deal/accept")
            assert nothing.status_code == 409 and nothing.json()["detail"] == "no deal has been proposed"
            assert (await me.post(f"/api/tournaments/{tid}/deal/maybe")).status_code == 404
            # Proposed: the bots say yes; the person declines: play goes on.
            proposed = await me.post(f"/api/tournaments/{tid}/deal/propose")
            assert proposed.status_code == 200, proposed.text
            assert proposed.json() == {"deal": "open", "waiting_for": [name]}
            twice = await me.post(f"/api/tournaments/{tid}/deal/propose")
            assert twice.status_code == 409 and "already" in twice.text
            stranger = await other.post(f"/api/tournaments/{tid}/deal/accept")
            assert stranger.status_code == 409 and "is not in the tournament" in stranger.text
            declined = await me.post(f"/api/tournaments/{tid}/deal/decline")
            assert declined.json() == {"deal": "off", "waiting_for": []}
            assert room.service.running[tid].director.deal is None
            # Again, and this time accepted once the hand in progress is over.
            assert (await me.post(f"/api/tournaments/{tid}/deal/propose")).status_code == 200
            page: dict[str, Any] = {}

            async def settled() -> bool:
                nonlocal page
                page = (await me.get(f"/api/tournaments/{tid}")).json()
                return not page["deal"]["hand_in_progress"]

            await until(settled, 30, "the hand in progress to end")
            assert page["you"]["may_accept_deal"] and page["deal"]["waiting_for"] == [name]
            offer = page["icm"]
            accepted = await _between_hands(lambda: me.post(f"/api/tournaments/{tid}/deal/accept"), 30)
            assert accepted.status_code == 200, accepted.text
            assert accepted.json() == {"deal": "done", "waiting_for": []}
            await until(lambda: tournament_row(store, tid).state == "finished", 10, "the tournament's end")
            with store.session() as s:
                entries = list(s.scalars(select(TournamentEntry).where(TournamentEntry.tournament_id == tid)))
            prizes = {e.name: e.prize for e in entries}
            assert prizes == offer and sum(prizes.values()) == 300
            by_chips = sorted(entries, key=lambda e: e.place or 0)
            assert [e.place for e in by_chips] == [1, 2, 3]
            assert [offer[e.name] for e in by_chips] == sorted(offer.values(), reverse=True)
            assert balance(store, pid) == start - 110 + offer[name]
            await until(lambda: not room.service.running.get(tid), 10, "its tables to close")
        with store.session() as s:
            assert ledger.balance_of(s, ledger.account(s, ledger.TPOOL, tid)) == 0
        report = audit(store)
        assert report.ok, report
        await room.stop()

    run(main, 150.0)


def test_a_busted_player_reenters_during_late_registration(store: Store) -> None:
    """Re-entry over HTTP: refused while the player is still in (naming it) and for a player
    who never entered; after busting, the buy-in and fee from the balance and the starting chips
    at a new seat; refused once the re-entries allowed are made."""

    async def main() -> None:
        room = CardRoom(store, pause=0.05, grace=0.1, quick_turns=True)
        await room.service.start()
        settings = TournamentSettings(
            kind="scheduled",
            start_at=time.time() + 0.5,
            min_field=2,
            seats=2,
            max_entries=20,
            structure=TURBO,
            starting_chips=300,
            late_registration_levels=5,
            re_entries=1,
            paid_places_override=(100,),  # one prize: the bubble (2 left) stays far off
        )
        tid = room.service.create("re-entry", settings, speed=1.0, seed=2)
        pid, name, start = person(store)
        other_pid, _, _ = person(store)
        # Calling stations: two of them check every hand down (their stacks move by the antes
        # and bring-ins alone), while the person, not at the table, loses those every hand.
        for n in range(9):
            room.service.register(tid, None, f"bot{tid}-{n}", "station")
        async with room.client(pid) as me, room.client(other_pid) as other:
            assert (await me.post(f"/api/tournaments/{tid}/register")).status_code == 200
            await until(lambda: room.service.running[tid].director.state == "running", 10, "the start")
            still = await me.post(f"/api/tournaments/{tid}/reenter")
            assert still.status_code == 409 and still.json()["detail"] == f"{name} is still in the tournament"
            never = await other.post(f"/api/tournaments/{tid}/reenter")
            assert never.status_code == 409 and "no entry to make again: register instead" in never.text

            # The person is not at the table: anted and folded every hand, to nothing.
            def d() -> Director:  # (a refused request takes the stored director up again)
                return room.service.running[tid].director

            await until(lambda: d().entrants[name].out, 120, "the person to bust")
            shown = (await me.get(f"/api/tournaments/{tid}")).json()
            assert shown["you"]["may_reenter"], (shown["you"], shown["players_left"], shown["state"])
            again = await me.post(f"/api/tournaments/{tid}/reenter")
            assert again.status_code == 200, again.text
            assert again.json()["reentered"] == name and again.json()["entries"] == 11
            assert balance(store, pid) == start - 220
            assert d().entrants[name].chips == 300 and d().pool == 1100
            with room.service.running[tid].lock:
                assert d().chips_issued == 11 * 300 == d().chips_in_play()
            await until(lambda: d().entrants[name].out, 120, "the person to bust again")
            last = await me.post(f"/api/tournaments/{tid}/reenter")
            assert last.status_code == 409 and "every re-entry allowed (1)" in last.text
            assert balance(store, pid) == start - 220
        report = audit(store)
        assert report.ok, report
        await room.stop()

    run(main, 150.0)
