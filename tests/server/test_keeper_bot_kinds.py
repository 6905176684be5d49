"""A bot's kind is part of its seat (issue 10): stored with the sitting, the same kind seated
again after a restart (clean, or a crash recovered), on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import select

from sevenstud.bots import RandomBot, RuleBot
from sevenstud.deck import Deck
from sevenstud.games import Stakes, StudHiLo
from sevenstud.server.accounts import auth
from sevenstud.server.audit import audit
from sevenstud.server.store import Store
from sevenstud.server.store.models import Sitting
from sevenstud.server.tables.recovery import recover
from sevenstud.server.tables.room import BOT_KINDS, Room, RoomError, TableKeeper, create_table
from sevenstud.table import TableSettings

SETTINGS = TableSettings(StudHiLo(Stakes(1, 2, 5, 10)), seats=4)


def _kinds(keeper: TableKeeper) -> dict[str, type]:
    return {name: type(o.bot) for name, o in keeper.occupants.items() if o.bot is not None}


def _stored_kinds(store: Store) -> dict[str, str | None]:
    with store.session() as s:
        return {row.name: row.bot_kind for row in s.scalars(select(Sitting).where(Sitting.open.is_(True)))}


def test_the_bot_kinds_are_the_registry_s_with_rule_first() -> None:
    # Rule first: a stored kind this version does not know plays as BOT_KINDS[0].
    assert BOT_KINDS == ("rule", "random", "station", "tight", "equity", "learned")


def test_a_random_bot_is_still_a_random_bot_after_a_restart(store: Store) -> None:
    ann = auth.sign_up(store, "ann", "correct horse")
    table = create_table(store, "kinds", SETTINGS)
    keeper = TableKeeper(store, table, SETTINGS)
    keeper.sit_down("ann", 1, 150, 0.0, player_id=ann)
    keeper.add_bot(2, 0.1, "random")
    keeper.add_bot(3, 0.2, "rule")
    keeper.add_bot(4, 0.3)  # no kind asked for: the default
    assert _kinds(keeper) == {"bot2": RandomBot, "bot3": RuleBot, "bot4": RuleBot}
    assert _stored_kinds(store) == {"ann": None, "bot2": "random", "bot3": "rule", "bot4": "rule"}
    del keeper  # a clean stop between hands
    again = TableKeeper(store, table, SETTINGS)
    assert _kinds(again) == {"bot2": RandomBot, "bot3": RuleBot, "bot4": RuleBot}
    assert again.bot_seats() == {2: "bot2", 3: "bot3", 4: "bot4"}


def test_a_random_bot_is_still_a_random_bot_after_a_crash_mid_hand(store: Store) -> None:
    table = create_table(store, "kinds", SETTINGS)
    keeper = TableKeeper(store, table, SETTINGS)
    keeper.add_bot(2, 0.0, "random")
    keeper.add_bot(3, 0.1, "rule")
    keeper.start_hand(1.0, Deck.seeded(11))
    for step in range(2):
        seat = keeper.table.to_act
        assert seat is not None
        keeper.act(seat, keeper.table.legal_actions()[-1], 2.0 + step)
    assert keeper.table.hand_in_progress
    del keeper  # killed mid-hand
    assert recover(store) == 1
    again = TableKeeper(store, table, SETTINGS)
    assert _kinds(again) == {"bot2": RandomBot, "bot3": RuleBot}
    # The rebuilt bots play: a hand to its end on the actor, every turn the bots' own.
    now = 10.0
    again.start_hand(now, Deck.seeded(3))
    while again.table.hand_in_progress:
        seat = again.table.to_act
        assert seat is not None
        bot = again.occupants[f"bot{seat}"].bot
        view = again.table.view(seat).hand
        assert bot is not None and view is not None
        now += 0.5
        again.act(seat, bot.act(view), now)
    assert audit(store).ok


def test_a_random_bot_added_through_the_room_comes_back_random(store: Store) -> None:
    table = create_table(store, "kinds", SETTINGS)

    async def main() -> None:
        room = Room(TableKeeper(store, table, SETTINGS), pause=60.0)
        room.start()
        await room.submit(lambda now: room.add_bot(2, "random", now))
        await room.stop()

    asyncio.run(main())
    assert _kinds(TableKeeper(store, table, SETTINGS)) == {"bot2": RandomBot}


@pytest.mark.parametrize("kind", ["clever", "", "RANDOM", None, 3])
def test_an_unknown_bot_kind_is_refused_and_seats_nobody(store: Store, kind: object) -> None:
    keeper = TableKeeper(store, create_table(store, "kinds", SETTINGS), SETTINGS)
    number = keeper.number
    with pytest.raises(RoomError, match="unknown bot"):
        keeper.add_bot(2, 0.0, kind)  # type: ignore[arg-type]
    with pytest.raises(RoomError, match="unknown bot"):
        keeper.sit_down("bot3", 3, 100, 0.0, bot_kind=kind)  # type: ignore[arg-type]
    assert keeper.occupants == {} and keeper.number == number
    assert _stored_kinds(store) == {}


def test_a_bot_whose_stored_kind_is_unknown_plays_as_a_rule_bot(store: Store) -> None:
    # A row written by a newer version (a kind this one lacks): the table still opens.
    table = create_table(store, "kinds", SETTINGS)
    TableKeeper(store, table, SETTINGS).add_bot(2, 0.0, "random")
    with store.session() as s, s.begin():
        row = s.scalars(select(Sitting).where(Sitting.name == "bot2")).one()
        row.bot_kind = "clever"
    assert _kinds(TableKeeper(store, table, SETTINGS)) == {"bot2": RuleBot}


def test_every_registry_kind_sits_plays_and_comes_back_the_same_kind(store: Store) -> None:
    # Issue 17: the new kinds (station, tight, equity) are seated, stored and rebuilt like the
    # old ones, and they play a hand at a server table through the keeper.
    from sevenstud.bots import BOT_KINDS as REGISTRY

    settings = TableSettings(StudHiLo(Stakes(1, 2, 5, 10)), seats=6)
    table = create_table(store, "every kind", settings)
    keeper = TableKeeper(store, table, settings)
    kinds = list(REGISTRY)
    for seat, kind in enumerate(kinds, start=1):
        keeper.add_bot(seat, 0.1 * seat, kind)
    expected = {f"bot{seat}": type(REGISTRY[kind].make(1, "x")) for seat, kind in enumerate(kinds, start=1)}
    assert _kinds(keeper) == expected
    assert _stored_kinds(store) == {f"bot{seat}": kind for seat, kind in enumerate(kinds, start=1)}
    del keeper
    again = TableKeeper(store, table, settings)
    assert _kinds(again) == expected
    now = 10.0
    again.start_hand(now, Deck.seeded(5))
    while again.table.hand_in_progress:
        seat = again.table.to_act
        assert seat is not None
        bot = again.occupants[f"bot{seat}"].bot
        view = again.table.view(seat).hand
        assert bot is not None and view is not None
        now += 0.5
        again.act(seat, bot.act(view), now)
    assert audit(store).ok
