"""What a restart keeps of a table besides its chips (issue 10, point 3): who sits out and the
waiting list, in its order; and a hand that is over in the command that dealt it (everybody
all-in on the antes) is stored whole. On SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import select

from sevenstud.games import Stakes, StudHiLo
from sevenstud.server.accounts import auth
from sevenstud.server.audit import audit
from sevenstud.server.store import Store
from sevenstud.server.store.models import HandRow, Player
from sevenstud.server.tables.room import Room, RoomError, TableKeeper, create_table
from sevenstud.table import TableSettings


def _accounts(store: Store, count: int) -> dict[str, int]:
    """``count`` new guests: name -> account id, in the order made."""
    ids = [auth.guest(store) for _ in range(count)]
    with store.session() as s:
        rows = s.execute(select(Player.id, Player.name).where(Player.id.in_(ids)))
        names = {row.id: row.name for row in rows}
    return {names[i]: i for i in ids}


def _sitting_out(keeper: TableKeeper) -> dict[str, bool]:
    return {seat.player: seat.sitting_out for seat in keeper.table.view(None).seats}


def test_who_sits_out_still_sits_out_after_a_restart(store: Store) -> None:
    settings = TableSettings(StudHiLo(Stakes(1, 2, 5, 10)), seats=4)
    table = create_table(store, "restart", settings)
    keeper = TableKeeper(store, table, settings)
    people = _accounts(store, 3)
    for seat, (name, player) in enumerate(people.items(), start=1):
        keeper.sit_down(name, seat, 100, 1.0 + seat, player_id=player)
    out, back, stays = people
    keeper.sit_out(out, 5.0)
    keeper.sit_out(back, 6.0)
    keeper.sit_in(back, 7.0)
    assert _sitting_out(keeper) == {out: True, back: False, stays: False}
    again = TableKeeper(store, table, settings)  # a restart: the table from the database alone
    assert _sitting_out(again) == {out: True, back: False, stays: False}
    again.sit_in(out, 8.0)
    assert _sitting_out(TableKeeper(store, table, settings))[out] is False
    assert audit(store).ok


def test_the_waiting_list_and_its_order_survive_a_restart(store: Store) -> None:
    settings = TableSettings(StudHiLo(Stakes(1, 2, 5, 10)), seats=2)
    table = create_table(store, "full", settings)
    people = _accounts(store, 5)
    ann, bea, cat, dan, eve = people

    async def first_process() -> list[str]:
        keeper = TableKeeper(store, table, settings)
        room = Room(keeper, pause=60.0)
        room.start()
        await room.submit(lambda now: keeper.sit_down(ann, 1, 100, now, player_id=people[ann]))
        await room.submit(lambda now: keeper.sit_out(ann, now))  # no hand starts: the seats stay as set
        await room.submit(lambda now: keeper.sit_down(bea, 2, 100, now, player_id=people[bea]))
        for name in (cat, dan, eve):
            await room.submit(lambda now, name=name: room.waiting.join(name, now))
        await room.submit(lambda now: room.waiting.leave(dan, now))
        await room.stop()
        return list(room.waiting.players)

    async def second_process() -> list[str]:
        room = Room(TableKeeper(store, table, settings), pause=60.0)
        room.start()
        with pytest.raises(RoomError, match="already"):
            await room.submit(lambda now: room.waiting.join(eve, now))
        assert await room.submit(lambda now: room.waiting.join(dan, now)) == 3  # at the back now
        await room.stop()
        return list(room.waiting.players)

    assert asyncio.run(first_process()) == [cat, eve]
    assert asyncio.run(second_process()) == [cat, eve, dan]
    # Sitting down takes one off the list in the same write (a crash cannot come between).
    keeper = TableKeeper(store, table, settings)
    keeper.leave(ann, 100.0)
    keeper.sit_down(cat, 1, 100, 101.0, player_id=people[cat])
    assert Room(TableKeeper(store, table, settings)).waiting.players == [eve, dan]
    # A seat that came free while the server was down is offered to the first in line at start.
    TableKeeper(store, table, settings).leave(cat, 102.0)

    async def third_process() -> dict[int, str]:
        room = Room(TableKeeper(store, table, settings), pause=60.0)
        room.start()
        await room.stop()
        return {seat: whom for seat, (whom, _) in room.waiting.offers.items()}

    assert asyncio.run(third_process()) == {1: eve}


def test_a_hand_all_in_on_the_antes_is_over_at_once_and_stored(store: Store) -> None:
    settings = TableSettings(StudHiLo(Stakes(1, 2, 5, 10)), seats=3, min_buy_in=1)
    table = create_table(store, "short", settings)
    keeper = TableKeeper(store, table, settings)
    for seat, (name, player) in enumerate(_accounts(store, 3).items(), start=1):
        keeper.sit_down(name, seat, 1, float(seat), player_id=player)  # the ante is their stack
    keeper.start_hand(10.0)
    assert not keeper.table.hand_in_progress  # dealt, run out and shown in one command
    with store.session() as s:
        hand = s.scalars(select(HandRow).where(HandRow.table_id == table)).one()
    assert hand.status == "finished" and sum(hand.result["stacks"]) + hand.result["rake"] == 3
    report = audit(store)
    assert report.ok, report.problems
    assert report.hands == 1


def test_a_player_short_of_the_ante_is_dealt_in_again_by_a_top_up_after_a_restart(store: Store) -> None:
    """docs/table.md: a player the table sat out for want of the ante comes back with a top-up
    that covers it; a table restored after a restart behaves so too (issue 19, point 6)."""
    from types import SimpleNamespace

    from sevenstud.table import SatIn

    settings = TableSettings(StudHiLo(Stakes(1, 2, 5, 10)), seats=4)
    table = create_table(store, "short", settings)
    keeper = TableKeeper(store, table, settings)
    sittings = [
        SimpleNamespace(
            seat=1, name="ann", stack=0, sitting_out=True, bot=None, bot_kind=None, id=1, player_id=1
        ),
        SimpleNamespace(
            seat=2, name="bob", stack=80, sitting_out=True, bot=None, bot_kind=None, id=2, player_id=2
        ),
    ]
    restored = keeper._restored(settings, 3, 40, sittings)
    entries = [restored.top_up("ann", 50, 100.0)]
    entries += restored.events_since(entries[0].number, None)
    assert any(isinstance(e.event, SatIn) for e in entries), "the top-up dealt ann in again"
    restored.top_up("bob", 10, 101.0)  # sat out by choice: stays out until sit_in
    assert {s.player: s.sitting_out for s in restored.view(None).seats} == {"ann": False, "bob": True}
