"""Bots that act at once play their turns in a run (issue 35, point 1): the bots' turns up to a
person's, or the hand's end, in one command and one transaction, written as those turns played
one by one would be: the same events, each turn's chips its own transfers tied to its own
event, the hand's record as it stands, the stacks; on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import event, select

from sevenstud.deck import Deck
from sevenstud.games import Stakes, StudHiLo
from sevenstud.server.accounts import auth
from sevenstud.server.audit import audit
from sevenstud.server.store import Store
from sevenstud.server.store.models import Entry as LedgerEntry
from sevenstud.server.store.models import EventRow, HandRow, LedgerAccount, Sitting, Transfer
from sevenstud.server.tables.room import ClockShare, Room, TableKeeper, create_table
from sevenstud.table import TableError, TableSettings
from sevenstud.wire import hand_from_record

SETTINGS = TableSettings(StudHiLo(Stakes(1, 2, 5, 10)), seats=4)


@contextmanager
def _transactions(store: Store) -> Iterator[list[str]]:
    """Every COMMIT the engine makes meanwhile."""
    seen: list[str] = []

    def commit(_conn: Any) -> None:
        seen.append("COMMIT")

    event.listen(store.engine, "commit", commit)
    try:
        yield seen
    finally:
        event.remove(store.engine, "commit", commit)


def _table(store: Store, name: str) -> TableKeeper:
    keeper = TableKeeper(store, create_table(store, name, SETTINGS), SETTINGS)
    for seat in (1, 2, 3):
        keeper.add_bot(seat, 0.1 * seat)
    return keeper


def _ledger(store: Store, table_id: int) -> list[tuple[object, ...]]:
    """The table's transfers in order: each one's event (number and type), reason and its
    entries (account kind and amount)."""
    with store.session() as s:
        found = s.execute(
            select(Transfer.id, Transfer.reason, EventRow.number, EventRow.type)
            .join(EventRow, EventRow.id == Transfer.event_id)
            .where(EventRow.table_id == table_id)
            .order_by(Transfer.id)
        ).all()
        out: list[tuple[object, ...]] = []
        for transfer_id, reason, number, kind in found:
            sides = s.execute(
                select(LedgerAccount.kind, LedgerEntry.amount)
                .join(LedgerAccount, LedgerAccount.id == LedgerEntry.account_id)
                .where(LedgerEntry.transfer_id == transfer_id)
                .order_by(LedgerEntry.amount)
            ).all()
            out.append((number, kind, reason, tuple((k, a) for k, a in sides)))
        return out


def _events(store: Store, table_id: int) -> list[tuple[int, str, dict[str, Any]]]:
    with store.session() as s:
        rows = s.execute(
            select(EventRow.number, EventRow.type, EventRow.payload)
            .where(EventRow.table_id == table_id)
            .order_by(EventRow.number)
        ).all()
    return [(n, t, {k: v for k, v in p.items() if k != "at"}) for n, t, p in rows]


def test_a_run_of_bots_writes_what_their_turns_one_by_one_write(store: Store) -> None:
    run, alone = _table(store, "run"), _table(store, "alone")
    now = 1.0
    for deck in (3, 8, 11):
        run.start_hand(now, Deck.seeded(deck))
        alone.start_hand(now, Deck.seeded(deck))
        with _transactions(store) as commits:
            run.act_bots(now)
        assert not run.table.hand_in_progress  # three bots: the whole hand's betting at once
        assert len(commits) == 1
        # The same turns, one command each, at the other table.
        with store.session() as s:
            row = s.execute(
                select(HandRow.record)
                .where(HandRow.table_id == run.table_id)
                .order_by(HandRow.id.desc())
                .limit(1)
            ).scalar_one_or_none()
        assert row is not None
        for _seat, action in hand_from_record(row).actions:
            seat = alone.table.to_act
            assert seat is not None
            alone.act(seat, action, now)
        assert not alone.table.hand_in_progress
        now += 10.0
    assert _events(store, run.table_id) == _events(store, alone.table_id)
    assert _ledger(store, run.table_id) == _ledger(store, alone.table_id)
    # Every turn's chips tied to that turn's own event: a bet's transfer to its action.
    assert sum(1 for t in _ledger(store, run.table_id) if t[2] == "into pot") > 3 * 3
    with store.session() as s:
        stacks = dict(
            s.execute(select(Sitting.name, Sitting.stack).where(Sitting.table_id == run.table_id)).all()
        )
    assert stacks == {name: stack for name, stack in run.table.stacks().values()}
    assert audit(store).ok


def test_a_run_stops_at_a_persons_turn(store: Store) -> None:
    keeper = TableKeeper(store, create_table(store, "mixed", SETTINGS), SETTINGS)
    ann = auth.sign_up(store, "ann", "correct horse")
    keeper.sit_down("ann", 4, 150, 0.05, player_id=ann)
    for seat in (1, 2, 3):
        keeper.add_bot(seat, 0.1 * seat)
    now = 1.0
    for deck in range(1, 6):
        keeper.start_hand(now, Deck.seeded(deck))
        while keeper.table.hand_in_progress:
            if keeper.bot_to_act() is not None:
                keeper.act_bots(now)
                # Stopped at ann's turn or the hand's end, never past it.
                assert not keeper.table.hand_in_progress or keeper.table.to_act == 4
            else:
                assert keeper.table.to_act == 4
                legal = keeper.table.legal_actions()
                keeper.act(4, legal[0], now)
        now += 10.0
    assert audit(store).ok


def test_a_table_of_bots_plays_a_hand_in_two_steps(store: Store) -> None:
    """The deal, then every bot's turn in one step: two transactions a hand."""

    async def play() -> tuple[int, int]:
        keeper = _table(store, "room")
        room = Room(keeper, pause=0.0)
        with _transactions(store) as commits:
            room.start()
            try:
                for _ in range(200):
                    await asyncio.sleep(0.01)
                    if room.hands_played >= 5:
                        break
            finally:
                await room.stop()
        return room.hands_played, len(commits)

    hands, commits = asyncio.run(play())
    assert hands >= 5
    assert commits <= 2 * hands + 2, (hands, commits)


def _tables_on_one_share(tables: int, watched: set[int], rounds: int) -> tuple[list[int], list[list[int]]]:
    """``tables`` tables with a step always due (each 1 ms of the loop, taken where it is
    called, as SQLite's are), those in ``watched`` watched, beside another task that notes,
    for each of ``rounds`` rounds of the loop, which tables stepped since its last turn: the
    steps each took, and the tables stepped between two of the other task's turns."""
    share = ClockShare()
    steps = [0] * tables
    stepped: list[int] = []
    between: list[list[int]] = []

    async def table(index: int, stop: asyncio.Event) -> None:
        while not stop.is_set():
            await share.turn(index in watched)
            try:
                time.sleep(0.001)
                steps[index] += 1
                stepped.append(index)
            finally:
                share.done()
            await asyncio.sleep(0)

    async def main() -> None:
        stop = asyncio.Event()
        tasks = [asyncio.create_task(table(i, stop)) for i in range(tables)]
        for _ in range(rounds):
            await asyncio.sleep(0)
            between.append(stepped[:])
            stepped.clear()
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(main())
    return steps, between


def test_a_persons_command_is_carried_out_in_the_loops_next_round(store: Store) -> None:
    """A person's message, put to a table whose clock runs, is carried out in the loop's next
    round: every round on its way is one more table's step that it waits behind (issue 35;
    the actor's wait through asyncio.wait_for took three). Where the steps run where they are
    called (SQLite); on PostgreSQL a worker thread runs them."""
    if not store.inline:
        pytest.skip("steps run in worker threads on this database")

    async def rounds_taken() -> list[int]:
        keeper = TableKeeper(store, create_table(store, "quick", SETTINGS), SETTINGS)
        for seat, name in ((1, "ann"), (2, "bob")):
            keeper.sit_down(name, seat, 150, 0.05, player_id=auth.sign_up(store, name, "correct horse"))
        room = Room(keeper, pause=0.0)  # deals at once: a person's turn, their clock running
        rounds = 0
        stop = asyncio.Event()

        async def count() -> None:
            nonlocal rounds
            while not stop.is_set():
                rounds += 1
                await asyncio.sleep(0)

        counter = asyncio.create_task(count())
        room.start()
        taken: list[int] = []  # the rounds from each command's sending to its start
        try:
            for _ in range(5):
                await asyncio.sleep(0.01)  # its actor waiting for a command or the clock
                assert keeper.table.deadline is not None
                before = rounds
                began = await room.submit(lambda _now: rounds, person=True)
                taken.append(began - before)
        finally:
            stop.set()
            await counter
            await room.stop()
        return taken

    assert max(asyncio.run(rounds_taken())) <= 1


def test_the_tables_steps_take_turns_with_the_rest_of_the_loop() -> None:
    """Fifty tables of bots with a step always due: between two turns of another task on the
    loop (a person's message) runs one table's step at most, not all fifty, nor a round's
    worth of them (ClockShare, issue 35); each table still gets its steps, in turn."""
    steps, between = _tables_on_one_share(50, set(), 300)
    assert max(len(b) for b in between[2:]) <= 1, [b for b in between if len(b) > 1][:3]
    assert min(steps) >= 300 // 50 // 2, steps  # everybody's turn comes


def test_a_watched_tables_steps_go_before_the_bots_tables() -> None:
    """A table someone watches takes its turn ahead of the tables of bots alone: its steps
    wait for one step, not for a turn of every table (a person's table waited behind 125)."""
    steps, between = _tables_on_one_share(50, {7}, 200)
    order = [index for b in between for index in b]
    assert steps[7] >= len(order) // 3, (steps[7], len(order))  # every other step or so
    positions = [i for i, t in enumerate(order) if t == 7]
    assert max(b - a for a, b in itertools.pairwise(positions)) <= 3, positions[:20]
    assert min(steps) >= 1, steps  # the bots' tables are not starved


def test_watched_tables_always_due_do_not_starve_the_bots_tables() -> None:
    """Ten watched tables with a step always due (bots acting at once, a spectator at each)
    take every other turn at most: the forty tables of bots alone still get theirs."""
    watched = set(range(10))
    steps, between = _tables_on_one_share(50, watched, 400)
    order = [index for b in between for index in b]
    bots = [n for i, n in enumerate(steps) if i not in watched]
    assert sum(bots) >= len(order) // 2 - 1, (sum(bots), len(order))
    assert min(bots) >= 2, bots
    assert min(steps[i] for i in watched) >= 10, steps  # and the watched go often still


def test_a_tables_sit_downs_and_stand_ups_are_one_transaction_each(store: Store) -> None:
    """A tournament's moves to and from a table (server/tournaments/service.py's sync): its
    players seated in one command, those leaving stood up in one; one refused (its seat taken
    meanwhile) is raised once the others are written."""
    keeper = TableKeeper(store, create_table(store, "moves", SETTINGS), SETTINGS)
    bots = [(f"bot{seat}", seat, 100, None, "rule") for seat in (1, 2, 3)]
    with _transactions(store) as commits:
        keeper.seat_players(bots, 1.0)
    assert len(commits) == 1 and sorted(keeper.occupants) == ["bot1", "bot2", "bot3"]
    with pytest.raises(TableError):
        keeper.seat_players([("bot4", 4, 100, None, "rule"), ("bot5", 1, 100, None, "rule")], 2.0)
    assert "bot4" in keeper.occupants and "bot5" not in keeper.occupants
    with _transactions(store) as commits:
        keeper.stand_up(["bot1", "bot2"], 3.0)
    assert len(commits) == 1 and sorted(keeper.occupants) == ["bot3", "bot4"]
    with store.session() as s:
        open_seats = s.execute(
            select(Sitting.name).where(Sitting.table_id == keeper.table_id, Sitting.open.is_(True))
        ).scalars()
        assert sorted(open_seats) == ["bot3", "bot4"]
    assert audit(store).ok
