"""The table keeper and actor, the audit and crash recovery, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

import pytest
from sqlalchemy import select, update

from sevenstud.deck import Deck
from sevenstud.games import Stakes, StudHiLo
from sevenstud.server.accounts import auth
from sevenstud.server.audit import audit
from sevenstud.server.connection import Connection
from sevenstud.server.protocol import SERVER
from sevenstud.server.store import Store, ledger
from sevenstud.server.store.models import Entry, HandRow, Player, Sitting
from sevenstud.server.tables.recovery import recover
from sevenstud.server.tables.room import COMMANDS_BEFORE_CLOCK, Room, RoomError, TableKeeper, create_table
from sevenstud.table import StoodUp, StreamGap, TableError, TableSettings
from tests.server.held_bots import HeldBots

SETTINGS = TableSettings(StudHiLo(Stakes(1, 2, 5, 10), rake_percent=5, rake_cap=3), seats=4)


def _listener(
    key: int, player: str | None = None, player_id: int | None = None
) -> tuple[Connection, list[Any]]:
    """A connection (logged in as ``player``) whose frames are collected, decoded, in a list."""
    got: list[Any] = []

    async def write(text: str) -> None:
        got.append(json.loads(text))

    return Connection(key, player, player_id, write), got


def _keeper(store: Store) -> TableKeeper:
    return TableKeeper(store, create_table(store, "Ann's table", SETTINGS), SETTINGS)


def _play_out(keeper: TableKeeper, now: float) -> float:
    """Play the hand in progress to its end with each seat's bot (people by a fresh RuleBot)."""
    from sevenstud.bots import RuleBot

    table, helper = keeper.table, RuleBot(seed=5)
    while table.hand_in_progress:
        seat = table.to_act
        assert seat is not None
        view = table.view(seat).hand
        assert view is not None
        now += 0.5
        keeper.act(seat, helper.act(view), now)
    return now


def test_hands_with_bots_and_a_person_leave_a_clean_audit(store: Store) -> None:
    ann = auth.sign_up(store, "ann", "correct horse")
    keeper = _keeper(store)
    keeper.sit_down("ann", 1, 150, 0.0, player_id=ann)
    keeper.sit_down("bot2", 2, 200, 0.1)
    keeper.sit_down("bot3", 3, 200, 0.2)
    now = 1.0
    # Seeded decks: with shuffled ones a player now and then went broke before the twelfth hand
    # and the table could not deal it (a test that failed at random).
    for number in range(12):
        keeper.start_hand(now, Deck.seeded(f"clean audit {number}"))
        now = _play_out(keeper, now) + 1
    keeper.leave("ann", now)
    report = audit(store)
    assert report.ok, str(report)
    assert report.hands == 12
    with store.session() as s:
        player = s.get(Player, ann)
        assert player is not None
        # What Ann has is her sign-up chips less the buy-in plus what she stood up with.
        stood = [e for e in keeper.table.events_since(0, None) if type(e.event).__name__ == "StoodUp"]
        assert player.balance == auth.SIGN_UP_CHIPS - 150 + stood[-1].event.stack  # type: ignore[union-attr]
        assert s.scalar(select(Sitting.open).where(Sitting.player_id == ann)) is False
        finished = s.scalars(select(HandRow)).all()
        assert [h.status for h in finished] == ["finished"] * 12


def test_a_buy_in_above_the_balance_is_refused_and_changes_nothing(store: Store) -> None:
    ann = auth.sign_up(store, "ann", "correct horse")
    keeper = _keeper(store)
    with store.session() as s, s.begin():
        s.execute(update(Player).where(Player.id == ann).values(balance=100))
    with pytest.raises(RoomError, match="more than your balance of 100"):
        keeper.sit_down("ann", 1, 150, 0.0, player_id=ann)
    with pytest.raises(TableError, match="buy-in must be between"):
        keeper.sit_down("ann", 1, 5, 0.0, player_id=ann)
    assert keeper.table.number == 0
    with store.session() as s:
        assert s.scalars(select(Sitting)).all() == []


def _corrupt_balance(store: Store) -> None:
    with store.session() as s, s.begin():
        s.execute(update(Player).values(balance=Player.balance + 1))


def _corrupt_entry(store: Store) -> None:
    with store.session() as s, s.begin():
        first = s.scalars(select(Entry).order_by(Entry.id)).first()
        assert first is not None
        first.amount += 1


def _corrupt_stack(store: Store) -> None:
    with store.session() as s, s.begin():
        s.execute(update(Sitting).where(Sitting.open.is_(True)).values(stack=Sitting.stack + 3))


def _corrupt_result(store: Store) -> None:
    with store.session() as s, s.begin():
        hand = s.scalars(select(HandRow)).first()
        assert hand is not None and hand.result is not None
        stacks = list(hand.result["stacks"])
        stacks[0], stacks[1] = stacks[1] + 1, stacks[0] - 1
        hand.result = {**hand.result, "stacks": stacks}


@pytest.mark.parametrize(
    ("corrupt", "finding"),
    [
        (_corrupt_balance, "player ann: balance"),
        (_corrupt_entry, "entries summing to 1"),
        (_corrupt_stack, "the ledger says"),
        (_corrupt_result, "replays to stacks"),
    ],
)
def test_the_audit_finds_a_corrupted_row(store: Store, corrupt: Any, finding: str) -> None:
    ann = auth.sign_up(store, "ann", "correct horse")
    keeper = _keeper(store)
    keeper.sit_down("ann", 1, 150, 0.0, player_id=ann)
    keeper.sit_down("bot2", 2, 200, 0.1)
    keeper.start_hand(1.0, Deck.seeded(3))
    _play_out(keeper, 1.0)
    assert audit(store).ok
    corrupt(store)
    report = audit(store)
    assert not report.ok
    assert any(finding in problem for problem in report.problems), report.problems


def test_a_crash_mid_hand_cancels_the_hand_and_refunds_every_chip(store: Store) -> None:
    ann = auth.sign_up(store, "ann", "correct horse")
    keeper = _keeper(store)
    keeper.sit_down("ann", 1, 150, 0.0, player_id=ann)
    keeper.sit_down("bot2", 2, 200, 0.1)
    keeper.sit_down("bot3", 3, 200, 0.2)
    keeper.start_hand(1.0, Deck.seeded(11))
    for step in range(3):  # a few actions in: antes, the bring-in, a call or two
        seat = keeper.table.to_act
        assert seat is not None
        keeper.act(seat, keeper.table.legal_actions()[-1], 2.0 + step)
    with store.session() as s:
        pot = ledger.balance_of(s, ledger.account(s, ledger.POT, 1))
    assert pot > 0
    del keeper  # the process died here: nothing more is written
    assert recover(store, keep_seats=False) == 1
    report = audit(store)
    assert report.ok, str(report)
    with store.session() as s:
        assert s.scalar(select(HandRow.status)) == "cancelled"
        player = s.get(Player, ann)
        assert player is not None and player.balance == auth.SIGN_UP_CHIPS
        assert s.scalars(select(Sitting).where(Sitting.open.is_(True))).all() == []
    # A keeper started again goes on numbering hands after the cancelled one.
    again = TableKeeper(store, 1, SETTINGS)
    again.sit_down("ann", 1, 150, 10.0, player_id=ann)
    again.sit_down("bot2", 2, 200, 10.1)
    again.start_hand(11.0)
    with store.session() as s:
        assert sorted(s.scalars(select(HandRow.number)).all()) == [1, 2]


def _down_cards_seen(messages: list[dict[str, Any]], seat: int | None) -> list[dict[str, Any]]:
    """The down cards of other seats a watcher was sent before that seat's hand was turned up
    (all-in, the rule of hand_turned_up): none may be."""
    turned_up: set[tuple[int, int]] = set()
    seen = []
    for message in messages:
        event, hand = message["event"], message["hand"]
        if event["type"] == "hand_turned_up":
            turned_up.add((hand, event["seat"]))
        elif event["type"] == "card_dealt" and not event["face_up"] and event["card"] is not None:
            seen += [message] if event["seat"] != seat and (hand, event["seat"]) not in turned_up else []
    return seen


def test_the_room_plays_hands_by_itself_and_spectators_see_no_down_card(store: Store) -> None:
    async def main() -> tuple[Room, list[dict[str, Any]], list[dict[str, Any]]]:
        keeper = _keeper(store)
        room = Room(keeper, pause=0.0)
        watching, spectator = _listener(1)
        playing, seat2 = _listener(2, "bot2")  # logged in as the bot that sits in seat 2
        for connection in (watching, playing):
            room.watch(connection)
            connection.start()
        room.start()
        for seat in (1, 2, 3):
            await room.submit(lambda now, seat=seat: keeper.sit_down(f"bot{seat}", seat, 200, now))
        for _ in range(200):
            await asyncio.sleep(0.02)
            if room.hands_played >= 3:
                break
        await room.submit(lambda now: None)
        await watching.flushed()
        await playing.flushed()
        await room.stop()
        return room, spectator, seat2

    room, spectator, seat2 = asyncio.run(main())
    assert room.hands_played >= 3
    spectator = [m for m in spectator if m["type"] == "event"]
    seat2 = [m for m in seat2 if m["type"] == "event"]
    numbers = [m["number"] for m in spectator]
    assert numbers == list(range(1, len(numbers) + 1))
    assert _down_cards_seen(spectator, None) == []
    assert _down_cards_seen(seat2, 2) == []
    mine = [m["event"] for m in seat2 if m["event"]["type"] == "card_dealt" and m["event"]["seat"] == 2]
    assert any(e["card"] is not None and not e["face_up"] for e in mine)
    recover(store)  # the hand the stop cut off, if any
    assert audit(store).ok


def test_seats_survive_a_restart_the_hand_cancelled_and_refunded(store: Store) -> None:
    ann = auth.sign_up(store, "ann", "correct horse")
    keeper = _keeper(store)
    keeper.sit_down("ann", 1, 150, 0.0, player_id=ann)
    keeper.sit_down("bot2", 2, 200, 0.1)
    keeper.start_hand(1.0, Deck.seeded(11))
    for step in range(3):
        seat = keeper.table.to_act
        assert seat is not None
        keeper.act(seat, keeper.table.legal_actions()[-1], 2.0 + step)
    number, hands = keeper.number, 1
    del keeper  # killed mid-hand
    assert recover(store) == 1
    assert audit(store).ok
    again = TableKeeper(store, 1, SETTINGS)
    seats = {s.seat: (s.player, s.stack, s.sitting_out) for s in again.table.view(None).seats}
    assert seats == {1: ("ann", 150, False), 2: ("bot2", 200, False)}  # every chip back on its seat
    assert again.number == number and again.bot_seats() == {2: "bot2"}
    with pytest.raises(StreamGap):  # what came before the restart is not kept: a snapshot
        again.table.events_since(number - 1, None)
    again.start_hand(10.0, Deck.seeded(3))
    assert again.table.view(None).hand_number == hands + 1
    _play_out(again, 10.0)
    again.leave("ann", 100.0)
    assert audit(store).ok
    with store.session() as s:
        player = s.get(Player, ann)
        left = [e.event for e in again.table.events_since(number, None) if isinstance(e.event, StoodUp)]
        assert player is not None and player.balance == auth.SIGN_UP_CHIPS - 150 + left[-1].stack


def test_a_watcher_too_far_behind_gets_a_snapshot_then_the_entries_after_it(store: Store) -> None:
    settings = TableSettings(StudHiLo(Stakes(1, 2, 5, 10)), seats=3, history=16)
    keeper = TableKeeper(store, create_table(store, "short memory", settings), settings)
    keeper.sit_down("bot1", 1, 100, 0.0)
    keeper.sit_down("bot2", 2, 100, 0.0)
    keeper.start_hand(1.0, Deck.seeded(4))
    now = 2.0
    while keeper.number <= 18:  # the first entries are forgotten, the hand goes on
        seat = keeper.table.to_act
        assert seat is not None
        now += 0.5
        keeper.act(seat, keeper.table.legal_actions()[-1], now)
    assert keeper.table.hand_in_progress

    async def main() -> list[dict[str, Any]]:
        room = HeldBots(keeper, clock=lambda: now + 1, pause=60.0)
        connection, got = _listener(1, "bot1")
        room.watch(connection, last=1)
        connection.start()
        room.start()
        await room.submit(lambda now: None)
        await room.submit(lambda now: keeper.sit_down("bot3", 3, 100, now))
        await room.stop()
        await connection.flushed()
        return got

    number = keeper.number
    got = asyncio.run(main())
    assert got[0]["type"] == "snapshot" and got[0]["view"]["viewer"] == 1
    assert got[0]["number"] == number
    # Its time the server's clock as it was sent (a second after the table's last action).
    assert got[0]["view"]["now"] == now + 1
    assert all(card is not None for card in got[0]["view"]["hand"]["cards"][0][:2])  # its own down cards
    assert all(card is None for card in got[0]["view"]["hand"]["cards"][1][:2])  # never another's
    events = [m for m in got if m["type"] == "event"]
    assert [m["number"] for m in events] == [number + 1]  # bot3 sat down, after the snapshot
    for message in got:
        SERVER.validate_python(message)


def test_the_waiting_list_offers_seats_in_order_and_a_lapsed_offer_goes_to_the_next(store: Store) -> None:
    settings = TableSettings(StudHiLo(Stakes(1, 2, 5, 10)), seats=2)
    keeper = TableKeeper(store, create_table(store, "full", settings), settings)
    ids = {name: auth.sign_up(store, name, "correct horse") for name in ("ann", "bea", "cat", "dan")}
    told: dict[str, list[dict[str, Any]]] = {name: [] for name in ids}

    async def main() -> Room:
        room = Room(keeper, pause=60.0, offer_seconds=0.2)
        connections = []
        for key, name in enumerate(ids):
            connection, told[name] = _listener(key, name, ids[name])
            room.watch(connection)
            connection.start()
            connections.append(connection)
        room.start()
        await room.submit(lambda now: keeper.sit_down("ann", 1, 100, now, player_id=ids["ann"]))
        await room.submit(lambda now: keeper.sit_out("ann", now))  # no hand starts: seats change at once
        with pytest.raises(RoomError, match="seat 2 is free"):
            await room.submit(lambda now: room.waiting.join("bea", now))
        await room.submit(lambda now: keeper.add_bot(2, now))
        assert await room.submit(lambda now: room.waiting.join("bea", now)) == 1
        assert await room.submit(lambda now: room.waiting.join("cat", now)) == 2
        assert await room.submit(lambda now: room.waiting.join("dan", now)) == 3
        with pytest.raises(RoomError, match="already"):
            await room.submit(lambda now: room.waiting.join("cat", now))
        with pytest.raises(RoomError, match="seated"):
            await room.submit(lambda now: room.waiting.join("ann", now))
        await room.submit(lambda now: room.waiting.leave("dan", now))
        await room.submit(lambda now: keeper.remove_bot(2, now))  # between hands: at once
        assert room.waiting.offers[2][0] == "bea"
        with pytest.raises(RoomError, match="offered"):
            await room.submit(lambda now: room.waiting.check_seat("cat", 2))
        for _ in range(100):  # bea lets the offer lapse: it goes to cat
            await asyncio.sleep(0.02)
            if room.waiting.offers.get(2, ("",))[0] == "cat":
                break
        assert room.waiting.offers[2][0] == "cat" and room.waiting.players == ["cat"]
        assert keeper.waiting_list() == ["cat"]  # the stored list too: bea missed the call
        room.waiting.check_seat("cat", 2)
        await room.submit(lambda now: keeper.sit_down("cat", 2, 100, now, player_id=ids["cat"]))
        room.waiting.seated("cat", 2)
        assert room.waiting.players == [] and room.waiting.offers == {}
        assert keeper.waiting_list() == []
        await room.stop()
        for connection in connections:
            await connection.flushed()
        return room

    asyncio.run(main())
    offered = {name: [m["seat"] for m in got if m["type"] == "seat_offered"] for name, got in told.items()}
    assert offered == {"ann": [], "bea": [2], "cat": [2], "dan": []}
    places = [m["position"] for m in told["cat"] if m["type"] == "waiting"]
    assert places[0] == 2 and 1 in places  # moved up when bea's offer lapsed
    assert [m["position"] for m in told["dan"] if m["type"] == "waiting"][-1] is None
    for got in told.values():
        seen = 0  # the last entry's number: no message may reflect a number not yet sent
        for message in got:
            SERVER.validate_python(message)
            if message["type"] == "event":
                seen = message["number"]
            elif message["type"] in ("seat_offered", "waiting", "chat"):
                assert message["number"] <= seen, (message, seen)  # an offer before its stand-up


def test_a_slow_table_does_not_stall_the_event_loop(store: Store) -> None:
    # A table whose steps run in worker threads, as on PostgreSQL; on SQLite they run on the
    # event loop, one writer at a time (Store.inline), as production runs them.
    if store.inline:
        pytest.skip("SQLite's steps run on the event loop (Store.inline): no worker thread to test")
    keeper = _keeper(store)

    async def main() -> float:
        room = Room(keeper, pause=60.0)
        room.start()
        slow = asyncio.ensure_future(room.submit(lambda now: time.sleep(0.4)))  # a write that blocks
        worst, last = 0.0, time.monotonic()
        while not slow.done():
            await asyncio.sleep(0.01)
            worst, last = max(worst, time.monotonic() - last), time.monotonic()
        await room.stop()
        return worst

    assert asyncio.run(main()) < 0.2


def test_commands_always_waiting_hold_up_neither_the_deal_nor_the_clock(store: Store) -> None:
    """Rule: a clock that is due waits behind at most COMMANDS_BEFORE_CLOCK commands. A client
    that kept the table's queue from emptying (a spectator's allowed hellos at a busy server)
    once held the deal up for as long as it did: the hand was dealt only after every command
    waiting, 8-10 s in benchmarks/hostile_soak.py."""
    people = {1: ("ann", auth.sign_up(store, "ann", "correct horse"))}
    people[2] = ("bob", auth.sign_up(store, "bob", "correct horse"))
    keeper = _keeper(store)

    async def main() -> list[int | None]:
        room = Room(keeper, pause=0.0, grace=0.0)
        loop = asyncio.get_running_loop()
        seen: list[int | None] = []
        # Two people sit down and 40 more commands wait behind them before the actor starts:
        # after the second sits down the deal is due, with the 40 still waiting.
        def sit(seat: int) -> Any:
            name, player = people[seat]
            return lambda now: keeper.sit_down(name, seat, 200, now, player_id=player)

        for seat in (1, 2):
            room.queue.put_nowait((sit(seat), loop.create_future(), True))
        for _ in range(40):
            note = lambda now: seen.append(keeper.table.hand_number)  # noqa: E731
            room.queue.put_nowait((note, loop.create_future(), True))
        room.start()
        await room.submit(lambda now: None)
        await room.stop()
        return seen

    seen = asyncio.run(main())
    assert len(seen) == 40
    # Due once the second sat down, the deal waits behind COMMANDS_BEFORE_CLOCK of the 40.
    waited = seen.count(None)
    assert waited == COMMANDS_BEFORE_CLOCK and seen[waited:] == [1] * (40 - waited), seen
    recover(store)


def test_a_command_whose_sender_gave_up_does_not_stop_the_table(store: Store) -> None:
    """A sender cancelled while its command waited (a request whose client went away, a task
    stopped) leaves a cancelled future: the actor runs the command and carries on; once it
    set a result on that future and died of InvalidStateError, stopping the table."""

    async def main() -> None:
        room = Room(_keeper(store), pause=0.0)
        room.start()
        ran: list[float] = []
        gone: asyncio.Future[object] = asyncio.get_running_loop().create_future()
        gone.cancel()
        await room.queue.put((ran.append, gone, True))
        assert await room.submit(lambda now: "still here") == "still here"
        assert len(ran) == 1 and room._task is not None and not room._task.done()
        await room.stop()

    asyncio.run(main())
