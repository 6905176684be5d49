"""Tournaments in the card room (issue 15, points 5 and 6): the director run over real rooms on
SQLite and PostgreSQL, every chip through the ledger, and recovery after a crash.

The service runs here on its own event loop with real :class:`Room`s and a real lease keeper
(no HTTP), on an accelerated clock; bots play every seat."""

from __future__ import annotations

import asyncio
import time

import pytest
from sqlalchemy import select

from sevenstud.server.accounts import auth
from sevenstud.server.audit import audit
from sevenstud.server.store import Store, ledger
from sevenstud.server.store.models import (
    HandRow,
    Player,
    TableLease,
    TableRow,
    TournamentEntry,
    TournamentTable,
)
from sevenstud.server.tables.keeper import RoomError
from sevenstud.server.tables.room import Room
from sevenstud.server.tournaments.sharing import Shared
from sevenstud.tournament import TURBO, TournamentError, TournamentSettings
from sevenstud.tournament.snapshot import director_from_record
from tests.server.tournament_room import CardRoom, run, tournament_row, until

SNG6 = TournamentSettings(kind="sit_and_go", seats=6, max_entries=6, structure=TURBO)


def _entries(store: Store, tid: int) -> list[TournamentEntry]:
    with store.session() as s:
        return list(s.scalars(select(TournamentEntry).where(TournamentEntry.tournament_id == tid)))


def _closed(store: Store, tid: int) -> bool:
    """Whether every table of tournament ``tid`` is closed."""
    with store.session() as s:
        tables = list(s.scalars(select(TournamentTable.table_id).where(TournamentTable.tournament_id == tid)))
        return bool(tables) and all(s.get(TableRow, t).closed for t in tables)  # type: ignore[union-attr]


def _bank(store: Store) -> int:
    with store.session() as s:
        return ledger.balance_of(s, ledger.account(s, ledger.BANK))


def test_a_sit_and_go_of_bots_plays_to_the_end_with_every_chip_in_the_ledger(store: Store) -> None:
    """Points 5 and 6: places 1-6 given once each, the prizes paid out of the pool exactly
    (65/35 of 600), the fees kept apart, every table closed, the audit clean."""

    async def main() -> None:
        room = CardRoom(store)
        await room.start()
        tid = room.service.create("sng", SNG6, speed=200.0, seed=5)
        bank = _bank(store)
        for n in range(6):
            room.service.register(tid, None, f"bot{tid}-{n}", "rule")
        await until(lambda: tournament_row(store, tid).state == "finished", 90, "the sit-and-go to finish")
        await until(lambda: not room.rooms and _closed(store, tid), 10, "its tables to close")
        entries = _entries(store, tid)
        assert sorted(e.place for e in entries if e.place is not None) == [1, 2, 3, 4, 5, 6]
        assert sorted(e.prize for e in entries) == [0, 0, 0, 0, 210, 390]
        # The bots paid from the bank: 6 x 110 out, 600 of prizes back; 60 of fees kept apart.
        assert _bank(store) == bank - 6 * 110 + 600
        with store.session() as s:
            tables = list(
                s.scalars(select(TournamentTable.table_id).where(TournamentTable.tournament_id == tid))
            )
            assert ledger.balance_of(s, ledger.account(s, ledger.TFEE, tid)) == 60
            assert ledger.balance_of(s, ledger.account(s, ledger.TPOOL, tid)) == 0
            assert ledger.balance_of(s, ledger.account(s, ledger.TBOX, tid)) == 6 * 1500
            hands = s.scalars(select(HandRow).where(HandRow.table_id.in_(tables))).all()
            assert hands and all(h.status == "finished" for h in hands)
        report = audit(store)
        assert report.ok, report

    run(main)


async def _sit_and_go_in_a_hand(room: CardRoom, seed: int) -> tuple[Shared, int, Room]:
    """A sit-and-go of six bots, its one table dealing: the tournament's copy here, the table's
    number and its room."""
    tid = room.service.create("sng", SNG6, speed=20.0, seed=seed)
    for n in range(6):
        room.service.register(tid, None, f"bot{tid}-{n}", "rule")
    await until(lambda: bool(room.rooms), 30, "its table to open")
    running = room.service.running[tid]
    number, serving = next(iter(running.rooms.items()))
    await until(lambda: serving.keeper.table.hand_in_progress, 30, "a hand to start")
    return running, number, serving


def test_the_table_sweep_never_takes_over_a_table_this_process_leases(store: Store) -> None:
    """A table this process leases is its own, even while its room is not (yet) among the
    tournament's: between a new table's lease taken and its room opened, or while the
    tournament is taken up again. The tournaments' table sweep once named the process by
    another instance than its table leases did, so it took such a table "over" from itself:
    its hand in progress cancelled and refunded under the live room, which played on, and a
    second room opened for it (two actors dealing one table; at 10,000 entrants on two
    processes, tables left with nobody serving them)."""

    async def main() -> None:
        room = CardRoom(store)
        await room.start()
        running, number, serving = await _sit_and_go_in_a_hand(room, seed=3)
        table_id = running.tables[number]
        assert room.service.follows(serving)
        del running.rooms[number]  # as between its lease taken and its room opened
        # (or as a room left behind by a copy taken up again: followed by nobody, so the card
        # room's lease keeper counts it as no room, gives the table up to be taken over)
        assert not room.service.follows(serving)
        await room.service.holding._take_tables()
        assert room.rooms[table_id] is serving and not serving.stopped
        # A table being made by the sync (its row written and leased, its room not open yet):
        # the sweep, which sees it given to this process, leaves it to the sync.
        del room.rooms[table_id]
        running.opening.add(number)
        await room.service.holding._take_tables()
        assert table_id not in room.rooms
        running.opening.clear()
        room.rooms[table_id] = running.rooms[number] = serving
        with store.session() as s:
            statuses = s.scalars(select(HandRow.status).where(HandRow.table_id == table_id)).all()
        assert "cancelled" not in statuses
        await room.stop()

    run(main)


def test_a_table_lost_to_another_process_stops_alone_and_the_tournament_goes_on(store: Store) -> None:
    """A table whose lease another process took (its own ran out under a busy loop) stops its
    room here at its next write, and nothing more: that write checked the lease first, so
    nothing of the tournament was written or decided. It once counted as any failed write,
    and the whole tournament's copy here was taken up again from the database, every one of
    its rooms here closed and reopened, for each such table."""

    async def main() -> None:
        room = CardRoom(store)
        await room.start()
        running, number, serving = await _sit_and_go_in_a_hand(room, seed=4)
        with store.transaction() as s:
            lease = s.get(TableLease, running.tables[number])
            assert lease is not None
            lease.owner, lease.instance = "http://b:2", "another process"
        await until(lambda: serving.stopped, 30, "its room to stop at its next write")
        await until(lambda: number not in running.rooms, 10, "the tournament to let the room go")
        await asyncio.sleep(0.3)  # (a recovery, had one been asked for, would have run by now)
        assert room.service.running[running.id] is running and not running.broken
        await room.stop()

    run(main)


def test_one_table_failing_its_sync_holds_up_no_other_table(store: Store) -> None:
    """The sync seats and stands players up at every table side by side. One table's step that
    failed (its room stopped under it, a player no longer seated there) once failed the whole
    sync, every other table's too, again at each retry: at 10,000 entrants on two processes,
    no table was seated any more and play stopped. Now the others go on, and the sync is asked
    to run again for the one that failed."""

    async def main() -> None:
        room = CardRoom(store)
        await room.start()
        tid = room.service.create("sng", SNG6, speed=20.0, seed=6)
        running = room.service.running[tid]
        done: list[str] = []

        async def fails() -> None:
            raise RoomError("table_stopped")

        async def breaks() -> None:
            raise ValueError("a write that failed")

        async def plays() -> None:
            await asyncio.sleep(0.01)
            done.append("seated")

        assert not running.pending
        await room.service._each_table(running, [fails(), breaks(), plays()])
        assert done == ["seated"] and running.pending
        await room.stop()

    run(main)


def test_registering_checks_the_balance_and_unregistering_refunds_it(store: Store) -> None:
    """Point 4/5: an entry costs buy-in + fee from the balance, refused (changing nothing) when
    the balance is short; unregistering before the start gives both back."""

    async def main() -> None:
        room = CardRoom(store)
        await room.start()
        tid = room.service.create("sng", SNG6, speed=1.0, seed=1)
        ann = auth.guest(store)
        with store.session() as s:
            player = s.get(Player, ann)
            assert player is not None
            name, start = player.name, player.balance
        room.service.register(tid, ann, name)
        with store.session() as s:
            assert s.get(Player, ann).balance == start - 110  # type: ignore[union-attr]
        with pytest.raises(TournamentError, match="already registered"):
            room.service.register(tid, ann, name)
        room.service.unregister(tid, name)
        with store.session() as s:
            assert s.get(Player, ann).balance == start  # type: ignore[union-attr]
        with store.transaction() as s:
            s.get(Player, ann).balance = 50  # type: ignore[union-attr]
            ledger.transfer(
                s, ledger.account(s, ledger.BALANCE, ann), ledger.account(s, ledger.BANK), start - 50, "test"
            )
        with pytest.raises(RoomError, match="more than your balance of 50"):
            room.service.register(tid, ann, name)
        d = room.service.running[tid].director
        assert d.entries == 0 and name not in d.entrants  # the refusal changed nothing
        stored = director_from_record(tournament_row(store, tid).director or {}, time.time())
        assert stored.entries == 0
        report = audit(store)
        assert report.ok, report
        await room.service.stop()

    run(main)


def test_a_crash_mid_tournament_cancels_the_hands_and_resumes_with_the_clock_where_it_was(
    store: Store,
) -> None:
    """Point 6: the process dies mid-tournament (nothing written on the way out); a new one
    takes the tournament up: the hands cut off are cancelled and refunded, the play clock
    stands where it was stored (no play time while it was down), and it plays on to the end
    with the prize pool paid exactly and the audit clean."""

    async def main() -> None:
        first = CardRoom(store)
        await first.start()
        tid = first.service.create("sng", SNG6, speed=100.0, seed=9)
        for n in range(6):
            first.service.register(tid, None, f"bot{tid}-{n}", "rule")

        def hands() -> int:
            with store.session() as s:
                return len(s.scalars(select(HandRow.id)).all())

        await until(lambda: hands() >= 4, 60, "a few hands")
        await first.crash()
        with store.session() as s:
            cut_off = set(s.scalars(select(HandRow.id).where(HandRow.status == "playing")))
        stored = tournament_row(store, tid).director or {}
        assert stored["state"] == "running"
        played = float(stored["clock"]["played"])
        await asyncio.sleep(0.5)  # down for a while: 50 s of the tournament's time at speed 100
        second = CardRoom(store)
        taken_up = time.time()
        await second.start()
        running = second.service.running[tid]
        with running.lock:
            again = running.director.play_time(running.now())
        # The clock ran only since the take-up (100 x the wall's), not while it was down.
        assert played <= again <= played + (time.time() - taken_up) * 100.0 + 0.5, (played, again)
        with store.session() as s:
            for hand in cut_off:  # cancelled, every chip back in its seat
                row = s.get(HandRow, hand)
                assert row is not None and row.status == "cancelled"
                assert ledger.balance_of(s, ledger.account(s, ledger.POT, hand)) == 0
        await until(lambda: tournament_row(store, tid).state == "finished", 120, "the tournament to finish")
        with store.session() as s:
            statuses = {h.status for h in s.scalars(select(HandRow)).all()}
        assert statuses <= {"finished", "cancelled"}
        entries = _entries(store, tid)
        assert sorted(e.place for e in entries if e.place is not None) == [1, 2, 3, 4, 5, 6]
        assert sum(e.prize for e in entries) == 600
        await until(lambda: not second.rooms and _closed(store, tid), 10, "its tables to close")
        report = audit(store)
        assert report.ok, report

    run(main)
