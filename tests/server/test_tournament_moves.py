"""No player lost between tables (issue 35, point 2): a move reaches every connection of the
player wherever it watches, and a hello at a tournament table where the player no longer sits
is answered with where they sit now."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from sevenstud.games import Stakes, StudHiLo
from sevenstud.server.app import create_app
from sevenstud.server.connection import Connection
from sevenstud.server.protocol import CLIENT, ClientMessage, Outgoing, TournamentMoved
from sevenstud.server.store import Store
from sevenstud.server.tables.room import TableKeeper, create_table
from sevenstud.table import TableSettings
from tests.server.held_bots import HeldBots

SETTINGS = TableSettings(StudHiLo(Stakes(1, 2, 5, 10)), seats=4)
MOVED = TournamentMoved(tournament=3, player="ann", table=12, seat=4, chips=1500)


def _listener(key: int, player: str | None, player_id: int | None = None) -> tuple[Connection, list[Any]]:
    got: list[Any] = []

    async def write(text: str) -> None:
        got.append(json.loads(text))

    return Connection(key, player, player_id, write), got


def _hello(table: int) -> ClientMessage:
    return CLIENT.validate_python({"type": "hello", "version": 1, "table": table, "last": 0})


def test_a_players_notice_reaches_each_of_their_connections_wherever_they_are(store: Store) -> None:
    """The card room tells a player (a tournament's move) on every open connection of theirs,
    whatever table it watches or none, and on no one else's; a closed one is forgotten."""
    room = create_app(store).state.cardroom

    async def main() -> tuple[list[Any], list[Any], list[Any]]:
        first, first_got = _listener(1, "ann", 1)
        second, second_got = _listener(2, "ann", 1)
        other, other_got = _listener(3, "bob", 2)
        for connection in (first, second, other):
            connection.start()
            room.joined(connection)
        assert room.tell("ann", MOVED) == 2
        room.left(second)
        assert room.tell("ann", MOVED.model_copy(update={"table": 13})) == 1
        for connection in (first, second, other):
            await connection.flushed()
            await connection.stop()
        return first_got, second_got, other_got

    first_got, second_got, other_got = asyncio.run(main())
    assert [m["table"] for m in first_got] == [12, 13]
    assert [m["table"] for m in second_got] == [12]
    assert other_got == []
    assert set(room.players) == {"ann", "bob"} and len(room.players["ann"]) == 1


def test_a_hello_where_the_player_no_longer_sits_is_answered_with_where_they_sit(store: Store) -> None:
    """A client that followed a late notice says hello at a tournament table where its player
    does not sit: it is told where they sit now (a spectator's hello is not)."""
    keeper = TableKeeper(store, create_table(store, "t", SETTINGS), SETTINGS)
    asked: list[tuple[str, int]] = []

    def whereabouts(name: str, here: int) -> Outgoing | None:
        asked.append((name, here))
        return MOVED if name == "ann" else None

    async def main() -> tuple[list[Any], list[Any]]:
        room = HeldBots(keeper, pause=60.0)
        room.whereabouts = whereabouts
        ann, ann_got = _listener(1, "ann", 1)
        watcher, watcher_got = _listener(2, None)
        for connection in (ann, watcher):
            connection.start()
        room.start()
        await room.handle(_hello(keeper.table_id), ann)
        await room.handle(_hello(keeper.table_id), watcher)
        await room.submit(lambda now: None)
        for connection in (ann, watcher):
            await connection.flushed()
        await room.stop()
        return ann_got, watcher_got

    ann_got, watcher_got = asyncio.run(main())
    assert [m for m in ann_got if m["type"] == "tournament_moved"] == [MOVED.model_dump()]
    assert not [m for m in watcher_got if m["type"] == "tournament_moved"]
    assert asked == [("ann", keeper.table_id)]
