"""The card room in one process: its open tables, its tournaments, and the counters that hold
its clients to their limits.

:class:`CardRoom` is the registry the routes and the websocket share: it opens a table's
actor (:class:`~sevenstud.server.tables.room.Room`) for every table whose lease this process
takes (:class:`~sevenstud.server.tables.leases.LeaseKeeper`) and for every new one, closes a
table nobody plays at, runs the tournament service over the same tables, and sweeps expired
sessions and the counters every so often. Nothing here builds a message or writes SQL of its
own: the actors, the keeper and the store do.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import time
from collections.abc import Callable
from typing import Any, Protocol

from sevenstud.refusals import Refusal
from sevenstud.server.accounts import auth
from sevenstud.server.accounts.sessions import LOGGED_OUT, Sessions
from sevenstud.server.collector import Collector
from sevenstud.server.connection import Connection, Encoded
from sevenstud.server.connection import Limits as OutboxLimits
from sevenstud.server.limits import Buckets, HashPool, Limits, LoginGuard, Sockets
from sevenstud.server.metrics import Readings, RoomMetrics
from sevenstud.server.operators.chat import Moderation
from sevenstud.server.protocol import ClosedWhy, Outgoing, TableClosed
from sevenstud.server.store import Store, tournament_list
from sevenstud.server.store import tables as table_rows
from sevenstud.server.store.models import TableRow
from sevenstud.server.store.private import is_paused
from sevenstud.server.study import jobs as study
from sevenstud.server.tables.chat import ChatDesk
from sevenstud.server.tables.leases import LEASE_SECONDS, LeaseKeeper
from sevenstud.server.tables.private import Door
from sevenstud.server.tables.recovery import recover
from sevenstud.server.tables.room import NO_THINK, ClockShare, Room, TableKeeper, table_closed
from sevenstud.server.tournaments.service import TournamentService
from sevenstud.table import TableSettings
from sevenstud.wire import game_from_wire


class Service(Protocol):
    """A part of the card room with a life of its own (:attr:`CardRoom.services`)."""

    async def start(self) -> None:
        """Start it (the tables' leases are taken by then)."""

    async def stop(self) -> None:
        """Stop it (before the tables are)."""


class CardRoom:
    """Every table and tournament this process serves on ``store``, and the limits' counters.

    ``public_url`` is this process's address, as the lobby of every process sharing the
    database tells it; ``pause``, ``bot_think`` and ``grace`` are each table actor's (the pause
    after a hand, how long a bot thinks, the clock's grace); ``lease_seconds`` how long a lease
    lasts unrenewed; ``equity`` the equity jobs' limits; ``outbox`` how far behind a client may
    fall; ``collector`` the garbage collector run on the server's loop (None: the process's own
    is left alone)."""

    def __init__(
        self,
        store: Store,
        *,
        public_url: str,
        limits: Limits,
        pause: float = 3.0,
        bot_think: tuple[float, float] = NO_THINK,
        grace: float,
        lease_seconds: float = LEASE_SECONDS,
        equity: study.EquityLimits | None = None,
        outbox: OutboxLimits | None = None,
        collector: Collector | None = None,
    ) -> None:
        self.store = store
        self.limits = limits
        self.pause = pause
        self.bot_think = bot_think
        self.grace = grace
        self.collector = collector
        self.outbox = outbox if outbox is not None else OutboxLimits()
        self.rooms: dict[int, Room] = {}
        self.clock_share = ClockShare()
        """The event loop's share for every table's clock steps here (room.py), where the
        tables' steps run on the loop itself (SQLite); on PostgreSQL they run in the store's
        threads and the loop is not theirs to share (their time there is the database's)."""
        self.owners: dict[int, int | None] = {}
        """Who opened each table here (None: nobody recorded, a table from before owners)."""
        self.connections = itertools.count(1)
        self.players: dict[str, set[Connection]] = {}
        """Every open connection of each logged-in player (by name): a tournament's move is
        told to all of them, wherever they watch (:meth:`tell`)."""
        self.sessions = Sessions(store, limits.session_idle, limits.session_lifetime)
        self.guests_made = Buckets(
            "guests_per_address", limits.guests_per_address, limits.guest_window, "guests from your address"
        )
        self.tables_made = Buckets(
            "tables_per_address",
            limits.tables_per_address,
            limits.table_window,
            "new tables from your address",
        )
        self.login_tries = Buckets(
            "login_attempts_per_address",
            limits.login_attempts_per_address,
            limits.login_window,
            "log-in attempts from your address",
        )
        self.login_guard = LoginGuard(limits)
        self.hashing = HashPool(limits.hash_threads, limits.hash_queue)
        self.sockets = Sockets(limits)
        self.private = Door(store)  # who may say hello to a private table (tables/private.py)
        # Every table's chat: each player's allowance, the operators' mutes, words and log.
        self.chat_desk = ChatDesk(limits, Moderation(store, limits.chat_log_days))
        self.new_tables = asyncio.Lock()  # an account's count of open tables is read and raised in turn
        self.leases = LeaseKeeper(
            store,
            public_url,
            open_room=lambda row: self.open_room(row.id, _settings_of(row), row.owner_id),
            close_room=self.close_room,
            summary=self.lobby_line,
            serving=self.serves,
            ttl=lease_seconds,
        )
        self.tournaments = TournamentService(
            store,
            url=self.leases.url,
            open_room=lambda table_id, settings, prepare: self.open_room(table_id, settings, None, prepare),
            close_room=self.close_room,
            take_table=self.leases.take,
            release_table=self.leases.release,
            instance=self.leases.instance,
            serves=self.serves,
            ttl=lease_seconds,
            limits=limits,
        )
        self.tournaments.tell_player = self.tell
        self.equity_jobs = study.Study(equity)
        self.hands_before = 0
        """Hands played at the tables this process has stopped serving (the metrics' count)."""
        self.metrics = RoomMetrics(self.readings)
        store.commit_timer = self.metrics.commits.observe
        self._tasks: list[asyncio.Task[None]] = []
        self.services: list[Service] = []
        """Parts of the room started after the tables and stopped before them (the house's
        standing tables: server/operators/house_tables.py)."""

    # -- the tables ---------------------------------------------------------------------

    def serves(self, table_id: int) -> bool:
        """Whether a live room serves ``table_id`` here: for a tournament's table, one its
        tournament's copy here follows (a room left behind by a copy taken up again plays for
        nobody: its table is given up, and taken over and recovered like a dead process's)."""
        room = self.rooms.get(table_id)
        return room is not None and not room.stopped and self.tournaments.follows(room)

    def open_room(
        self,
        table_id: int,
        settings: TableSettings,
        owner: int | None = None,
        prepare: Callable[[Room], None] | None = None,
    ) -> Room:
        """Start the actor of table ``table_id`` here (its lease is this process's). A table a
        live room serves here already is refused: two actors would deal it twice."""
        serving = self.rooms.get(table_id)
        if serving is not None and not serving.stopped:
            raise RuntimeError(f"table {table_id} has a live room here already")
        room = Room(
            TableKeeper(self.store, table_id, settings, lease=self.leases.instance),
            pause=self.pause,
            bot_think=self.bot_think,
            grace=self.grace,
            pause_unwatched=self.limits.pause_unwatched_bots,
            owner=owner,
            chat=self.chat_desk,
            sit_out_seconds=self.limits.sit_out_seconds,
            share=self.clock_share if self.store.inline else None,
        )
        room.held = is_paused(self.store, table_id)  # a private table's host paused it
        if prepare is not None:  # a tournament's table: its hooks set before it starts
            prepare(room)
        self.rooms[table_id] = room
        self.owners[table_id] = owner
        room.start()
        return room

    async def close_room(self, table_id: int, closed: TableClosed | None = None) -> None:
        """Stop serving a table here (its lease went elsewhere, or its tournament closed it);
        ``closed``: it closed for good, and its watchers are sent this ``table_closed``."""
        room = self.rooms.pop(table_id, None)
        if room is not None:
            self.hands_before += room.hands_played
            await room.stop(closed)

    async def close_table(self, table_id: int, reason: ClosedWhy = "closed") -> None:
        """Close a table for good (nobody but bots, nobody watching, for a while; or, with
        ``house_closed``, an operator closed it between hands): its room stops, its watchers
        are told ``reason``, every seat stands up (the chips back to their balances, the bots'
        to the bank), its lease goes."""
        self.owners.pop(table_id, None)
        await self.close_room(table_id, table_closed(table_id, reason))

        def close() -> None:
            with self.store.transaction() as s:
                row = s.get(TableRow, table_id)
                if row is not None:
                    row.closed = True
            recover(self.store, [table_id], keep_seats=False)
            self.leases.release(table_id)

        await self.store.run(close)

    def joined(self, connection: Connection) -> None:
        """A logged-in player's connection opened."""
        if connection.player is not None:
            self.players.setdefault(connection.player, set()).add(connection)

    def left(self, connection: Connection) -> None:
        """A connection closed."""
        if connection.player is not None:
            mine = self.players.get(connection.player)
            if mine is not None:
                mine.discard(connection)
                if not mine:
                    del self.players[connection.player]

    def tell(self, name: str, message: Outgoing | Encoded) -> int:
        """Put ``message`` in the outbox of every open connection of player ``name`` here,
        whatever table it watches (or none); how many."""
        told = 0
        for connection in list(self.players.get(name, ())):
            told += bool(connection.put(message))
        return told

    async def stand_up_everywhere(self, name: str) -> int:
        """Stand ``name`` up at every table served here (at the end of the hand when dealt in:
        the stack goes back to the balance then); how many tables."""
        stood = 0
        for room in list(self.rooms.values()):
            if name in room.keeper.occupants and room.gate is None:  # a tournament seat stays
                await room.submit(functools.partial(room.keeper.leave, name))
                stood += 1
        return stood

    def lobby_line(self, table_id: int) -> dict[str, Any]:
        """What the lobby says of a table served here (empty when it is not)."""
        room = self.rooms.get(table_id)
        if room is None:
            return {}
        settings = room.keeper.table.settings
        stakes = settings.game.stakes
        return {
            "name": room.keeper.name,
            "game": settings.game.code,
            "game_name": settings.game.name,
            "stakes": [stakes.ante, stakes.bring_in, stakes.small_bet, stakes.big_bet],
            "seats": settings.seats,
            "min_buy_in": settings.min_buy_in,
            "max_buy_in": settings.max_buy_in,
            "hands": room.hands_played,
            "house": room.house is not None,  # one of the house's standing tables
            **room.lobby_line(time.time()),
        }

    def lobby(self) -> list[dict[str, Any]]:
        """The cash tables of every process sharing the database, by number: those served here
        as their actors last copied them out, the others as their processes last wrote them."""
        here = [
            {"id": table_id, **self.lobby_line(table_id), "server": self.leases.url}
            for table_id in sorted(self.rooms)
            if self.rooms[table_id].gate is None  # a tournament's tables are in its own lobby
        ]
        there = [t for t in self.leases.lobby() if t["id"] not in self.rooms]
        return sorted(here + there, key=lambda t: t["id"])

    def readings(self) -> Readings:
        """What the room holds now, for the metrics."""
        rooms = list(self.rooms.values())
        tournaments: dict[str, int] = {}
        for running in list(self.tournaments.running.values()):
            state = running.director.state
            tournaments[state] = tournaments.get(state, 0) + 1
        return Readings(
            connections=len(self.sockets),
            tables=len(rooms),
            seats_taken=sum(room.taken for room in rooms),
            bots_seated=sum(room.bots for room in rooms),
            hands_played=self.hands_before + sum(room.hands_played for room in rooms),
            equity_jobs=len(self.equity_jobs.running()),
            tournaments=tournaments,
        )

    # -- the process's life -------------------------------------------------------------

    async def start(self) -> None:
        """Take the leases of the free tables (recovering each), start the tournaments, the
        sweep and the collector."""
        await self.leases.start()
        await self.tournaments.start()
        for service in self.services:
            await service.start()
        loop = asyncio.get_running_loop()
        self._tasks.append(loop.create_task(self._sweep()))
        if self.collector is not None:
            self._tasks.append(loop.create_task(self.collector.run()))

    async def stop(self) -> None:
        """Stop everything :meth:`start` started, every table's actor and the worker pools."""
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks.clear()
        for service in reversed(self.services):
            await service.stop()
        await self.tournaments.stop()
        await self.leases.stop()
        for room in self.rooms.values():
            await room.stop()
        self.equity_jobs.close()
        self.hashing.close()

    async def _sweep(self) -> None:
        """Expired sessions deleted, idle tables closed, the counters pruned: every so often."""
        limits = self.limits
        unattended: dict[int, float] = {}
        every = max(0.05, min(limits.sweep_seconds, limits.idle_table_seconds / 4))
        swept = time.monotonic()
        while True:
            await asyncio.sleep(every)
            now = time.monotonic()
            try:
                for table_id, room in list(self.rooms.items()):
                    # (the house's standing tables stay open: server/operators/house_tables.py)
                    if room.gate is None and room.house is None and room.unattended() and not room.playing:
                        since = unattended.setdefault(table_id, now)
                        if now - since >= limits.idle_table_seconds:
                            unattended.pop(table_id, None)
                            await self.close_table(table_id)
                    else:
                        unattended.pop(table_id, None)
                if now - swept >= limits.sweep_seconds:
                    swept = now
                    # A session with a socket open is in use; one past its lifetime ends, and
                    # so do its sockets (a socket never outlives the session it acts for).
                    in_use = self.sockets.sessions()
                    ended = await self.store.run(
                        auth.delete_expired_sessions, self.store, limits.session_idle, None, in_use
                    )
                    for key in ended & in_use:
                        await self.sockets.close_session(key, LOGGED_OUT, Refusal("session_ended"))
                    counters = (
                        self.guests_made,
                        self.tables_made,
                        self.login_tries,
                        self.chat_desk.buckets,
                        self.chat_desk.reports,
                        self.tournaments.made,
                        self.tournaments.entries,
                    )
                    for buckets in counters:
                        buckets.prune()
                    self.login_guard.prune()
            except Exception:  # a database that did not answer: the next round tries again
                continue


def closed_table(store: Store, table_id: int) -> TableClosed | None:
    """The ``table_closed`` message of a table that has closed for good (None: it is open,
    or there is no such table): what a hello for it is answered."""
    with store.session() as s:
        row = s.get(TableRow, table_id)
        if row is None or not row.closed:
            return None
        tid = table_rows.tournament_of(s, table_id)
        state = tournament_list.tournament_state(s, tid) if tid is not None else None
        number = table_rows.last_stream_number(s, table_id)
        house = table_rows.house_state_of(s, table_id)
    if tid is None:
        why: ClosedWhy = "house_closed" if house in ("closing", "closed") else "closed"
        return table_closed(table_id, why, number=number or 0)
    reason: ClosedWhy = "tournament_over" if state in ("finished", "cancelled") else "broken"
    return table_closed(table_id, reason, tid, number or 0)


def _settings_of(row: TableRow) -> TableSettings:
    """A stored table's settings."""
    return TableSettings(game_from_wire(row.game), **row.settings)
