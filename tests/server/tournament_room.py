"""The card room the tournament tests run tournaments in (tests/server/test_tournaments.py,
test_tournament_buys.py): real rooms over a real store, a real lease keeper and the tournament
service, on the test's own event loop, without a socket; the lobby's tournament routes over
httpx's ASGI transport when a test asks for a client; guests with their balances; and
:func:`run`, which runs a test's coroutine with a bound in time and never hangs after it."""

from __future__ import annotations

import asyncio
import dataclasses
import inspect
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any

import httpx

from sevenstud.server.accounts import auth
from sevenstud.server.limits import Limits
from sevenstud.server.protocol import TableClosed
from sevenstud.server.store import Store, ledger
from sevenstud.server.store.models import Player, TournamentRow
from sevenstud.server.tables.keeper import TableKeeper
from sevenstud.server.tables.leases import LeaseKeeper
from sevenstud.server.tables.room import Room
from sevenstud.server.tournaments.service import TournamentService
from sevenstud.table import TableSettings


class CardRoom:
    """The rooms, the lease keeper and the tournament service. Each table pauses ``pause``
    between hands and gives a player ``grace`` past their clock; with ``quick_turns`` a person's
    turn times out in 0.3 s with no time bank (they are not at the table)."""

    def __init__(
        self,
        store: Store,
        url: str = "http://127.0.0.1:9",
        *,
        pause: float = 0.0,
        grace: float = 0.2,
        quick_turns: bool = False,
        limits: Limits | None = None,
    ) -> None:
        self.store = store
        self.rooms: dict[int, Room] = {}
        self._app: Any = None

        def open_room(table_id: int, settings: TableSettings, prepare: Callable[[Room], None]) -> Room:
            if quick_turns:
                settings = dataclasses.replace(
                    settings, action_time=0.3, time_bank_start=0.0, time_bank_max=0.0
                )
            keeper = TableKeeper(store, table_id, settings, lease=self.leases.instance)
            room = Room(keeper, pause=pause, grace=grace)
            prepare(room)
            self.rooms[table_id] = room
            room.start()
            return room

        async def close_room(table_id: int, closed: TableClosed | None = None) -> None:
            # As the card room's: a table closed for good (``closed``) tells its watchers why.
            room = self.rooms.pop(table_id, None)
            if room is not None:
                await room.stop(closed)

        self.leases = LeaseKeeper(store, url, open_room=lambda row: None, close_room=close_room)
        self.service = TournamentService(
            store,
            url=url,
            open_room=open_room,
            close_room=close_room,
            take_table=self.leases.take,
            release_table=self.leases.release,
            instance=self.leases.instance,
            serves=lambda table_id: table_id in self.rooms and not self.rooms[table_id].stopped,
            tick=0.05,
            limits=limits,
        )

    async def start(self) -> None:
        await self.service.start()

    async def stop(self) -> None:
        await self.service.stop()
        for table_id in list(self.rooms):
            room = self.rooms.pop(table_id)
            await room.stop()

    async def crash(self) -> None:
        """What kill -9 leaves: every task gone, nothing written on the way out."""
        for running in list(self.service.running.values()):
            for task in running.tasks:
                task.cancel()
        for task in [self.service._task, self.service._clock, *self.service._ticking.values()]:
            if task is not None:
                task.cancel()
        for room in list(self.rooms.values()):
            if room._task is not None:
                room._task.cancel()
        await asyncio.sleep(0.05)

    def client(self, player_id: int) -> httpx.AsyncClient:
        """The lobby's tournament routes (and nothing else), as player ``player_id``."""
        from fastapi import FastAPI

        from sevenstud.server import answers
        from sevenstud.server.accounts.sessions import COOKIE, Sessions
        from sevenstud.server.tournaments import routes as tournament_routes

        if self._app is None:
            self._app = FastAPI()
            self._app.include_router(tournament_routes.router(self.service, Sessions(self.store)))
            answers.install(self._app)  # the refusals said, as the card room's app says them
        token = auth.new_session(self.store, player_id)
        return httpx.AsyncClient(
            transport=httpx.ASGITransport(app=self._app), base_url="http://room", cookies={COOKIE: token}
        )


def person(store: Store) -> tuple[int, str, int]:
    """A new guest: their account, name and balance."""
    pid = auth.guest(store)
    with store.session() as s:
        player = s.get(Player, pid)
        assert player is not None
        return pid, player.name, player.balance


def balance(store: Store, pid: int) -> int:
    with store.session() as s:
        player = s.get(Player, pid)
        assert player is not None
        return player.balance


def set_balance(store: Store, pid: int, wanted: int) -> None:
    """Move chips between the player and the bank, through the ledger (the audit stays clean)."""
    with store.transaction() as s:
        player = s.get(Player, pid)
        assert player is not None
        change = wanted - player.balance
        player.balance = wanted
        mine, bank = ledger.account(s, ledger.BALANCE, pid), ledger.account(s, ledger.BANK)
        if change > 0:
            ledger.transfer(s, bank, mine, change, "test")
        elif change < 0:
            ledger.transfer(s, mine, bank, -change, "test")


def tournament_row(store: Store, tid: int) -> TournamentRow:
    with store.session() as s:
        found = s.get(TournamentRow, tid)
        assert found is not None
        return found


async def until(check: Callable[[], bool | Awaitable[bool]], seconds: float, what: str) -> None:
    """Wait until ``check()`` (a plain or an async function) says yes, at most ``seconds``."""
    end = time.monotonic() + seconds
    while True:
        answer = check()
        if inspect.isawaitable(answer):
            answer = await answer
        if answer:
            return
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.05)


def run(main: Callable[[], Awaitable[None]], seconds: float = 300.0) -> None:
    """Run ``main`` to its end, or fail after ``seconds`` showing where it waited; then end
    every task it left (a test that failed did not stop its card room) in a bounded time.

    Not :func:`asyncio.run`: that waits without end for every task left over to finish once
    cancelled, and a task that drops its cancellation never does (a room's actor did, on Python
    3.11, until ``Room.stop`` cancelled it again: tests/server/test_room_stop.py; and
    ``TournamentService.stop`` still awaits its lease task under ``suppress(CancelledError)``,
    which swallows its caller's cancellation too). Cancelled again, such a task ends; one still
    running is named on stderr."""
    loop = asyncio.new_event_loop()
    try:
        loop.run_until_complete(asyncio.wait_for(main(), seconds))
    finally:
        try:
            for round_ in range(10):
                left = [task for task in asyncio.all_tasks(loop) if not task.done()]
                if not left:
                    break
                if round_:  # said, so that a task that swallows its cancellation is named
                    for task in left:
                        print(f"still running once cancelled: {task!r}", file=sys.stderr)
                for task in left:
                    task.cancel()
                loop.run_until_complete(asyncio.wait(left, timeout=1.0))
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.run_until_complete(loop.shutdown_default_executor())
        finally:
            loop.close()
