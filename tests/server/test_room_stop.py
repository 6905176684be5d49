"""Stopping a table's room ends its actor, and the task that stops it stays the task it was: a
cancelled caller is not made to go on (``Room.stop`` once awaited the actor under
``suppress(CancelledError)``, which swallowed the caller's own cancellation too), and an actor
that drops one cancellation (Python 3.11's ``asyncio.wait_for`` does when a command arrives at
the same moment) is cancelled again until it ends. Both made test_tournament_buys.py wait for
ever: its event loop, cancelling the tasks a test left, waited on a task that went on."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from sevenstud.games import Stakes, StudHiLo
from sevenstud.server.store import open_store
from sevenstud.server.tables.room import Room, RoomError, TableKeeper, create_table
from sevenstud.table import TableSettings

SETTINGS = TableSettings(StudHiLo(Stakes(1, 2, 5, 10)), seats=2)


def _room(tmp_path: Path) -> Room:
    store = open_store(f"sqlite:///{tmp_path / 'cardroom.sqlite3'}")
    return Room(TableKeeper(store, create_table(store, "stop", SETTINGS), SETTINGS), pause=0.0, grace=0.1)


def test_a_task_cancelled_while_it_stops_a_room_stays_cancelled(tmp_path: Path) -> None:
    room = _room(tmp_path)
    went_on: list[bool] = []

    async def closer() -> None:  # as a tournament's syncer closing a broken table
        await room.stop()
        went_on.append(True)
        await asyncio.Event().wait()  # its next change, which would never come

    async def main() -> None:
        room.start()
        await asyncio.sleep(0.05)
        task = asyncio.create_task(closer())
        await asyncio.sleep(0)  # the closer waits in Room.stop for the actor to end
        task.cancel()  # as an event loop cancels every task left over
        done, _ = await asyncio.wait([task], timeout=2.0)
        assert task in done and task.cancelled(), "the cancelled closer went on"
        assert not went_on

    asyncio.run(main())


def test_stop_ends_an_actor_that_drops_a_cancellation(tmp_path: Path) -> None:
    room = _room(tmp_path)
    dropped: list[bool] = []

    async def actor() -> None:  # an actor whose wait for a command swallowed the first cancel
        try:
            await asyncio.sleep(100)
        except asyncio.CancelledError:
            dropped.append(True)
        await asyncio.sleep(100)

    async def main() -> None:
        room._task = asyncio.create_task(actor())
        await asyncio.sleep(0)
        stopping = asyncio.create_task(room.stop())
        # (Not wait_for: on Python 3.11 it too returns a result that meets its cancellation.)
        done, _ = await asyncio.wait([stopping], timeout=3.0)
        assert stopping in done, "Room.stop waited on an actor that went on"  # before: for ever
        assert dropped and room._task is None

    asyncio.run(main())


def test_a_command_for_a_stopped_room_is_refused_not_left_waiting(tmp_path: Path) -> None:
    """Rule: once a room has stopped (its lease lost, its table closed), a command sent to it
    (a client's message that was on its way) is refused "this table has stopped" at once; it
    was queued for an actor that no longer ran, and its sender waited for ever."""
    room = _room(tmp_path)

    async def main() -> None:
        room.start()
        await asyncio.sleep(0.05)
        await room.stop()
        with pytest.raises(RoomError, match="this table has stopped"):
            await asyncio.wait_for(room.submit(lambda _now: None), 2.0)

    asyncio.run(main())
