"""What one guest can make the room spend through its tournaments (issue 36, points 3 and 6;
docs/security.md, "Limits"), and the notice that a registered player's tournament has started
(issue 35, point 2).

- An idle tournament costs nothing: one scheduler serves every tournament's clock from a queue
  of due times, so a hundred tournaments waiting for their start hold no task of their own (a
  task per tournament, ticking four times a second, cost 44-47% of a core at 10,100 of them).
- Tournaments per account and per address are limited (429 with ``Retry-After``).
- A registration writes its entry's row, not the whole director (which made a loop of them
  cost the room as much as the field was large), off the event loop, within an allowance per
  account.
- When the tournament starts, each registered player's connections are told where they sit.
"""

from __future__ import annotations

import asyncio
import threading
import time

from sqlalchemy import select

from sevenstud.server.audit import audit
from sevenstud.server.limits import Limits
from sevenstud.server.protocol import SERVER, TournamentSeated
from sevenstud.server.store import Store
from sevenstud.server.store.models import TournamentEntry
from sevenstud.tournament import TURBO, TournamentSettings
from tests.server.tournament_room import CardRoom, person, run, tournament_row, until

IN_AN_HOUR = 3600.0


def _scheduled(start_in: float, max_entries: int = 1000) -> TournamentSettings:
    return TournamentSettings(
        kind="scheduled",
        seats=8,
        max_entries=max_entries,
        structure=TURBO,
        start_at=time.time() + start_in,
        min_field=2,
    )


def _tasks() -> int:
    return sum(1 for t in asyncio.all_tasks() if not t.done())


def test_idle_tournaments_hold_no_task_of_their_own(store: Store) -> None:
    """Point 3: a hundred tournaments registering until their start add no task to the loop
    (two each before: a ticker four times a second and a syncer), and one still starts on its
    own clock (here: cancelled at its start, short of its minimum field)."""

    async def main() -> None:
        room = CardRoom(store)
        await room.start()
        room.service.create("first", _scheduled(IN_AN_HOUR))
        await asyncio.sleep(0.3)  # (its first sync and tick come and go)
        before = _tasks()
        for n in range(100):
            room.service.create(f"idle {n}", _scheduled(IN_AN_HOUR))
        # (each one's first sync and tick come and go: a task each while they run)
        await until(lambda: _tasks() <= before + 1, 10, f"no more than {before + 1} tasks")
        await asyncio.sleep(0.5)
        assert _tasks() <= before + 1, (before, _tasks())
        assert len(room.service.due_times) == 101  # each due once: at its start
        soon = room.service.create("soon", _scheduled(0.5))
        await until(lambda: tournament_row(store, soon).state == "cancelled", 5, "its start")
        await room.stop()

    run(main)


def test_tournaments_per_account_and_per_address_are_limited(store: Store) -> None:
    """Point 3: past the account's open tournaments, and past the address's new ones this
    hour, a 429 naming the limit with Retry-After; a finished or cancelled one does not count."""

    async def main() -> None:
        limits = Limits(tournaments_per_account=2, tournaments_per_address=3)
        room = CardRoom(store, limits=limits)
        await room.start()
        ann, _, _ = person(store)
        bob, _, _ = person(store)
        # A player's own tournament is a private sit-and-go (public ones are the house's).
        body = {"template": "sng-6", "private": True}
        async with room.client(ann) as client:
            made = [(await client.post("/api/tournaments", json=body)).status_code for _ in range(2)]
            assert made == [200, 200]
            third = await client.post("/api/tournaments", json=body)
            assert third.status_code == 429, third.text
            assert third.json()["limit"] == "tournaments_per_account"
            assert int(third.headers["Retry-After"]) >= 1
            assert "2 tournaments not over yet" in third.json()["detail"]
        async with room.client(bob) as client:
            assert (await client.post("/api/tournaments", json=body)).status_code == 200
            # The address's fourth this hour (two of ann's and one of bob's before it).
            fourth = await client.post("/api/tournaments", json=body)
            assert fourth.status_code == 429, fourth.text
            assert fourth.json()["limit"] == "tournaments_per_address"
            assert "new tournaments from your address" in fourth.json()["detail"]
        await room.stop()

    run(main)


def test_registering_writes_the_entry_not_the_whole_field(store: Store) -> None:
    """Point 6: a registration or an unregistration writes its entry's row (and its chips'
    moves), never the director's whole state, whose stored record holds no field while it
    registers; the field read back after a restart is the same, in the same order; the audit
    is clean."""

    async def main() -> None:
        first = CardRoom(store)
        await first.start()
        tid = first.service.create("big field", _scheduled(IN_AN_HOUR))
        stored = tournament_row(store, tid).director
        for n in range(40):
            first.service.register(tid, None, f"bot{tid}-{n}", "rule")
        for n in (3, 17, 30):
            first.service.unregister(tid, f"bot{tid}-{n}")
        first.service.register(tid, None, f"bot{tid}-3", "rule")  # again: now the last
        row = tournament_row(store, tid)
        assert row.director == stored  # not written once
        assert row.director is not None and row.director["entrants"] == []
        field = list(first.service.running[tid].director.entrants)
        assert len(field) == 38 and field[-1] == f"bot{tid}-3"
        report = audit(store)
        assert report.ok, report
        await first.stop()
        second = CardRoom(store)
        await second.start()
        again = second.service.running[tid].director
        assert list(again.entrants) == field
        assert [e.order for e in again.entrants.values()] == list(range(38))
        assert again.entries == 38 and again.pool == 38 * again.settings.buy_in
        await second.stop()

    run(main)


def test_a_registration_is_written_off_the_event_loop_within_an_allowance(store: Store) -> None:
    """Point 6: a register or unregister over HTTP runs its write in a worker thread (the
    tables' actors on the loop do not wait for it), and an account's loop of them is held to
    its allowance: a 429 naming ``entries_per_account`` with Retry-After."""

    async def main() -> None:
        room = CardRoom(store, limits=Limits(entries_per_account=6))
        await room.start()
        tid = room.service.create("churn", _scheduled(IN_AN_HOUR))
        loop_thread = threading.get_ident()
        threads: list[int] = []
        register, unregister = room.service.register, room.service.unregister

        def watched_register(*args: object) -> object:
            threads.append(threading.get_ident())
            return register(*args)  # type: ignore[arg-type]

        def watched_unregister(*args: object) -> object:
            threads.append(threading.get_ident())
            return unregister(*args)  # type: ignore[arg-type]

        room.service.register = watched_register  # type: ignore[method-assign]
        room.service.unregister = watched_unregister  # type: ignore[method-assign]
        ann, _, _ = person(store)
        answers = []
        async with room.client(ann) as client:
            for n in range(8):
                step = "register" if n % 2 == 0 else "unregister"
                answers.append(await client.post(f"/api/tournaments/{tid}/{step}"))
        assert [a.status_code for a in answers] == [200] * 6 + [429] * 2, [a.text for a in answers]
        assert answers[-1].json()["limit"] == "entries_per_account"
        assert int(answers[-1].headers["Retry-After"]) >= 1
        assert threads and loop_thread not in threads
        with store.session() as s:
            entry = s.scalars(select(TournamentEntry).where(TournamentEntry.tournament_id == tid)).one()
            assert not entry.registered and entry.paid == 0
        report = audit(store)
        assert report.ok, report
        await room.stop()

    run(main)


def test_a_registered_player_is_told_the_tournament_started_and_where_they_sit(store: Store) -> None:
    """Issue 35, point 2: at the start every registered player's connections get a
    ``tournament_seated`` (theirs alone) with the card-room table and the seat the director
    drew for them."""

    async def main() -> None:
        room = CardRoom(store)
        await room.start()
        told: list[tuple[str, object]] = []
        room.service.tell_player = lambda name, message: told.append((name, message)) or 1
        ann, name, _ = person(store)
        settings = TournamentSettings(kind="sit_and_go", seats=2, max_entries=2, structure=TURBO)
        tid = room.service.create("heads-up", settings, speed=1.0)
        room.service.register(tid, ann, name)
        room.service.register(tid, None, f"bot{tid}-1", "rule")

        def seated() -> list[TournamentSeated]:
            messages = [(who, SERVER.validate_json(str(m))) for who, m in told]  # (as encoded)
            return [m for who, m in messages if who == name and isinstance(m, TournamentSeated)]

        await until(lambda: bool(seated()), 5, "ann to be told her seat")
        notice = seated()[0]
        running = room.service.running[tid]
        number = running.director.table_of(name)
        assert number is not None
        assert notice.tournament == tid and notice.started
        assert notice.table == running.tables[number]
        assert notice.seat == running.director.tables[number].seat_of(name)
        assert notice.chips == settings.starting_chips
        assert '"tournament_seated"' in str(next(m for who, m in told if who == name))
        await room.stop()

    run(main)
