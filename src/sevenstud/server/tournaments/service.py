"""The card room's tournaments: the director (:class:`sevenstud.tournament.Director`) run over the
room's own tables, its state and every chip of it in the database.

A tournament is a row of ``tournaments`` (migration 0007) holding its template and its
director's whole state (:mod:`sevenstud.tournament.snapshot`), written in the same transaction as
every change the director makes: a registration, the end of a hand at one of its tables, a level,
a break. Its tables are card-room tables (``TableSettings(tournament=True)``), each served by a
:class:`~sevenstud.server.tables.room.Room` like a cash table and leased like one. One process
directs the tournament (its own lease, ``tournament_leases``: its clock, its registrations, the
tables it opens); its tables may be served by several processes on one PostgreSQL database,
each holding a copy of the director and writing it, under its version, in the transaction of
each hand it ends (:mod:`sevenstud.server.tournaments.sharing`: the version, the tables shared
out, a dead process's tables and direction taken over). One process alone never reads its own
writes back.

The chips (docs/tournaments.md, "Storage and recovery") are the cashier's
(:mod:`sevenstud.server.tournaments.cashier`: entries, rebuys, add-ons, prizes, the deal, all
through the ledger). A seat at a tournament table is funded from the tournament's box (``tbox``)
and stands up into it (a move between tables passes through it); a hand's chips move between
seats and pot as at a cash table. So at every moment ``-tchips == chips issued == tbox + the
seats + the pots of its tables``, and the pool plus the prizes paid is the buy-ins: ``sevenstud
audit`` checks both (:func:`~sevenstud.server.tournaments.views.audit_tournaments`).

This module is the direction: its clock (a tick, which elsewhere follows the stored version),
the tables following the director, and the recovery. One scheduler serves every tournament's
clock (:class:`Schedule`: a queue of due times, one task for the whole service): a tournament
ticks when something is due (its start, a level's end, a break's, the clock's periodic write,
or just after a change), so that one nothing happens to (a tournament registering until its
start) costs no task and no CPU; its tables are synced by a task made when it changes, which
ends once they follow. The director decides; this module makes
the tables served here agree with it (:meth:`TournamentService.sync`):
after every change, players the director no longer seats at a table stand up there, players it
seats at a table sit down there with the chips it holds for them, tables it broke close, and a
table deals only once it seats exactly whom the director seats there (``Room.gate``). That one
rule carries out every command (a move, a break of a table, the final table's redraw, a late
entry; a move to a table of another server through the box and the database) and is also the
recovery: after a restart the stored director is taken up with its clock
paused at the moment it was stored, the hands a crash cut off are cancelled and refunded (as at
a cash table) and told to the director (``hand_cancelled``), and the same sync seats everybody.
A sync looks at the tables the director's writes since the last one changed (``Running.to_sync``:
a hand's table, the tables of the players it moved), so that a hand costs the same whatever the
field; every table where what every deal waits on changed (a level, a break, hand-for-hand's
round, a pause), after a director taken up again or a sync that failed, and with the clock's
periodic write.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import heapq
import logging
import secrets
import time
from collections.abc import Callable, Sequence
from typing import Any

from sevenstud.hand import HandEnded
from sevenstud.refusals import Words
from sevenstud.server.connection import Encoded, encode
from sevenstud.server.limits import Buckets, Limits, RateLimited
from sevenstud.server.protocol import Outgoing
from sevenstud.server.store import (
    Connection,
    Session,
    Store,
    card_servers,
    leases,
    ledger,
    tournament_list,
    tournament_tables,
)
from sevenstud.server.store.models import TableRow, TournamentLease, TournamentRow
from sevenstud.server.tables.keeper import KEPT_ENTRIES, RoomError
from sevenstud.server.tables.room import Room, table_closed
from sevenstud.server.tournaments import sharing
from sevenstud.server.tournaments.cashier import Running, dealing_on, game_of, stored_record
from sevenstud.server.tournaments.sharing import Shared, SharedCashier, StaleDirector
from sevenstud.server.tournaments.views import messages_for
from sevenstud.table import Entry, HandStarted, Table, TableSettings
from sevenstud.tournament import (
    Command,
    Director,
    Seat,
    TournamentError,
    TournamentSettings,
)
from sevenstud.tournament.snapshot import director_from_record, director_to_record, settings_to_record
from sevenstud.wire import game_to_wire

log = logging.getLogger(__name__)

TOURNAMENT_LEASE_SECONDS = 10.0
"""How long a tournament's lease lasts unrenewed: a dead director is replaced within it."""
SAVE_EVERY = 5.0
"""Seconds of the wall between writes of the director's clock while nothing else changes: the
most play time a crash can take from the clock."""

OPEN_STATES = ("registering", "running", "break")
"""A tournament's states until it is over: one an account made counts against its limit."""


class Schedule:
    """When each tournament is next due to tick: a heap of (due, tournament) with the latest
    asked time of each (an entry whose time was changed since is skipped when it comes up),
    served by one task (:meth:`run`) that sleeps until the earliest and calls ``fire`` with
    each tournament due. Nothing is held for a tournament that is not due: a thousand
    tournaments waiting for their start are a thousand heap entries, no task, no wake-up
    before the first start. On the event loop only (no lock)."""

    def __init__(self, fire: Callable[[int], None]) -> None:
        self.fire = fire
        self._heap: list[tuple[float, int]] = []
        self._due: dict[int, float] = {}
        self._woken = asyncio.Event()

    def at(self, tid: int, due: float) -> None:
        """Tournament ``tid`` ticks at ``due`` (a wall time) or before: an earlier time asked
        already stands (the tick then asks again for what comes after it)."""
        known = self._due.get(tid)
        if known is not None and known <= due:
            return
        self._due[tid] = due
        heapq.heappush(self._heap, (due, tid))
        if self._heap[0] == (due, tid):
            self._woken.set()  # sooner than the one the task sleeps until

    def cancel(self, tid: int) -> None:
        """Tournament ``tid`` is due no more (its entry in the heap is skipped)."""
        self._due.pop(tid, None)

    def when(self, tid: int) -> float | None:
        """When ``tid`` is due (None: not)."""
        return self._due.get(tid)

    def __len__(self) -> int:
        return len(self._due)

    async def run(self) -> None:
        """Fire each tournament as it falls due, for ever."""
        heap, due = self._heap, self._due
        while True:
            now = time.time()
            while heap and heap[0][0] <= now:
                at, tid = heapq.heappop(heap)
                if due.get(tid) == at:
                    del due[tid]
                    with contextlib.suppress(Exception):
                        self.fire(tid)
            if len(heap) > 64 and len(heap) > 4 * len(due):
                # Skipped entries pile up when times are moved sooner: the heap made anew.
                heap[:] = [(at, tid) for tid, at in due.items()]
                heapq.heapify(heap)
            self._woken.clear()
            wait = heap[0][0] - time.time() if heap else None
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._woken.wait(), wait)


class _Hook:
    """The tournament as one of its tables' keepers sees it (``keeper.TableHook``)."""

    def __init__(self, service: TournamentService, running: Shared, number: int) -> None:
        self.service, self.running, self.number = service, running, number
        self.lock = running.lock
        self._decided: list[Command] = []
        self._started: list[int] = []

    def chip_account(self, connection: Connection) -> int:
        return ledger.account(connection, ledger.TBOX, self.running.id)

    def before_deal(self, table: Table, now: float) -> bool:
        running = self.running
        if not self.service.may_deal(running, self.number, table):
            return False
        d = running.director
        game = game_of(d.settings, d.level_index)
        if table.settings.game != game:
            table.set_game(game, now)
        return True

    def record(self, connection: Connection, table: Table, entries: list[Entry], now: float) -> None:
        running = self.running
        shared = self.service.shared
        # Another process may have written the director since this copy: the row locked for
        # this transaction, the stored one taken up first (tournament_sharing.py).
        if (
            shared
            and any(isinstance(e.event, (HandStarted, HandEnded)) for e in entries)
            and sharing.bring_up_to_date(connection, running)
        ):
            running.sync_all = True
        d = running.director
        tnow = running.now()
        decided: list[Command] = []
        ended = started = False
        for entry in entries:
            event = entry.event
            if isinstance(event, HandStarted):
                # A hand dealt from a copy a moment behind the stored director is played all
                # the same (Director.hand_started's from_behind).
                stacks = dict(zip(event.players, event.stacks, strict=True))
                decided += d.hand_started(self.number, stacks, tnow, from_behind=True)
                self._started.append(self.number)
                started = True
            elif isinstance(event, HandEnded):
                # Every player the director seats here: one not dealt in (seated while the hand
                # was played, or busted and rebuying) has the chips the director holds for them,
                # whether their sit-down or top-up has reached the table yet or not.
                at_table = {s.player: s.stack for s in table.view(None).seats}
                dealt = d.dealt_in(self.number)
                stacks = {
                    p: at_table[p] if p in dealt and p in at_table else d.entrants[p].chips
                    for p in d.tables[self.number].players.values()
                }
                decided += d.hand_finished(self.number, stacks, tnow)
                self._started.clear()
                ended = True
        # Shared: a hand's start is written too (the other processes must see the table in a
        # hand, so that nobody is moved from it).
        if ended or decided or (started and shared):
            self.service.persist(connection, running, decided, tnow)
        self._decided = decided

    def committed(self) -> None:
        decided, self._decided, self._started = self._decided, [], []
        self.service.changed(self.running, decided)

    def rolled_back(self) -> None:
        # The table stops (its room's rule for a failed write); the tournament is taken up again
        # from what the database holds, as after a crash.
        self._decided, self._started = [], []
        self.running.broken = True
        self.service.changed(self.running, [])

    def lost(self) -> None:
        # Another process serves the table now: its room here stops, and the next sync lets it
        # go. The tournament is not taken up again: nothing of it was written or decided (a
        # 10,000-entrant tournament on two processes recovered its whole copy, every room here
        # closed and reopened, for each table whose lease ran out under a busy loop).
        self._decided, self._started = [], []
        self.service.changed(self.running, [])


class TournamentService:
    """Every tournament this process directs (see the module). ``open_room(table_id, settings,
    prepare)`` opens a card-room table's room, calling ``prepare(room)`` before it starts;
    ``close_room(table_id, closed)`` stops one (``closed``: its ``table_closed``, when for
    good); ``take_table(table_id)`` and ``release_table(table_id)`` take and give up a table's
    lease through the process's table lease keeper, whose ``instance`` names this process in
    every lease it holds: the tournaments' and the tables' alike, so that the table sweep knows
    the tables this process leases as its own (:func:`sharing.tables_to_take`); ``serves(table_id)``
    says whether a live room serves a table here."""

    def __init__(
        self,
        store: Store,
        *,
        url: str,
        open_room: Callable[[int, TableSettings, Callable[[Room], None]], Room],
        close_room: Callable[..., Any],
        take_table: Callable[[int], bool],
        release_table: Callable[[int], None],
        instance: str | None = None,
        serves: Callable[[int], bool] | None = None,
        ttl: float = TOURNAMENT_LEASE_SECONDS,
        tick: float = 0.25,
        limits: Limits | None = None,
    ) -> None:
        self.store = store
        self.url = url
        self.instance = instance if instance is not None else secrets.token_hex(8)
        self.open_room = open_room
        self.close_room = close_room
        self.take_table = take_table
        self.release_table = release_table
        self.serves: Callable[[int], bool] = serves if serves is not None else (lambda table_id: False)
        """Whether a live room serves a table here."""
        self.ttl = ttl
        self.tick = tick
        self.running: dict[int, Shared] = {}
        """Every tournament directed here, or some of whose tables are served here."""
        self.shared = store.engine.dialect.name == "postgresql"
        """Several processes may share a tournament (PostgreSQL): every process reads the
        stored director's version on its tick, and a hand's start is written too."""
        self.holding = sharing.Holding(self)
        """Which tournaments this process directs and whose tables it serves."""
        self.cashier = SharedCashier(store, self.changed)
        """Every chip into and out of the tournaments (entries, prizes): the ledger's side."""
        self.max_speed = 1.0
        """The fastest clock a tournament made over HTTP may have (a room that plays its
        tournaments faster than the wall, as the benchmarks' do, raises it)."""
        self.bot_fields = False
        """Whether a tournament made over HTTP may be filled with bots to its last seat (a room
        of bots alone, as the benchmarks' is); otherwise bots fill a sit-and-go, leaving a
        seat for a person."""
        self.tell_player: Callable[[str, Outgoing | Encoded], int] | None = None
        """Put a message in every connection of a player in this process, wherever it watches
        (the card room's): a move reaches the player whichever table their socket is at."""
        self.listeners: list[Callable[[Running, list[Command]], None]] = []
        """Called on the event loop with each batch of committed commands (the websocket's
        tournament messages)."""
        self._task: asyncio.Task[None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.limits = limits if limits is not None else Limits()
        self.made = Buckets(
            "tournaments_per_address",
            self.limits.tournaments_per_address,
            self.limits.tournament_window,
            "new tournaments from your address",
        )
        """New tournaments per address (:meth:`may_make`)."""
        self.entries = Buckets(
            "entries_per_account",
            self.limits.entries_per_account,
            self.limits.entry_window,
            "tournament registrations",
        )
        """Registrations and unregistrations per account (:meth:`may_enter`)."""
        self.due_times = Schedule(self._due)
        """Every tournament's next tick (:meth:`schedule`, :meth:`unschedule`)."""
        self._clock: asyncio.Task[None] | None = None
        self._ticking: dict[int, asyncio.Task[None]] = {}
        """The ticks running now, by tournament (one at a time for each)."""

    # ------------------------------------------------------------------ lifetime

    async def start(self) -> None:
        """Take up every tournament free to direct (recovering it), then keep the leases."""
        self._loop = asyncio.get_running_loop()
        self._clock = self._loop.create_task(self.due_times.run())
        await self.holding.sweep()
        self._task = self._loop.create_task(self.holding.keep_leases())

    async def stop(self) -> None:
        """Stop directing (the leases are given up: another process may take over at once)."""
        for task in [self._task, self._clock, *self._ticking.values()]:
            if task is None:
                continue
            # Cancelled until it has ended, and waited for with asyncio.wait: `await task` under
            # suppress(CancelledError) swallowed the cancellation of the task calling stop()
            # too (as Room.stop did: tests/server/test_room_stop.py).
            while not task.done():
                task.cancel()
                await asyncio.wait([task], timeout=0.5)
        self._task = self._clock = None
        self._ticking.clear()
        for running in list(self.running.values()):
            await self.drop(running)
        with contextlib.suppress(Exception):
            leases.give_up_tournament_leases(self.store, self.instance)
        with contextlib.suppress(Exception):
            card_servers.leave(self.store, self.instance)

    async def drop(self, running: Shared) -> None:
        """Stop holding ``running``: its clock and its rooms here stop. (A copy no longer held,
        another taken up in its place, leaves that one alone.)"""
        if self.running.get(running.id) is running:
            self.running.pop(running.id, None)
            self.due_times.cancel(running.id)
        for task in running.tasks:
            if task is not asyncio.current_task():  # (its own sync recovering it goes on)
                task.cancel()
        for number in list(running.rooms):
            await self.close_room(running.tables[number])
        running.rooms.clear()

    # ------------------------------------------------------------------ making, taking up

    def create(
        self,
        name: str,
        settings: TournamentSettings,
        *,
        speed: float = 1.0,
        seed: int | None = None,
        owner: int | None = None,
        also: Callable[[Session, int], None] | None = None,
    ) -> int:
        """Store a new tournament of ``settings`` (registering); returns its id. The process
        creating it directs it (its lease); ``start()`` must have run. ``owner``: the account
        that made it (counted by :meth:`may_make`; None: the house's). ``also(session, id)`` is
        written in the same transaction (a private sit-and-go's game: server/store/private.py)."""
        if not speed > 0:
            raise TournamentError(f"a clock's speed is positive, not {speed!r}")
        now = time.time()
        wall_start = settings.start_at  # what the row and every page say: a wall time, always
        if settings.kind == "scheduled" and speed != 1.0 and wall_start is not None:
            # The director's times are the tournament's clock's: its start too.
            settings = _replace_start(settings, now + (wall_start - now) * speed)
        director = Director(settings, seed=secrets.randbits(63) if seed is None else seed)
        with self.store.transaction() as s:
            row = TournamentRow(
                name=name,
                kind=settings.kind,
                settings=settings_to_record(settings),
                state="registering",
                director=None,
                speed=speed,
                created_at=now,
                start_at=wall_start,
                owner_id=owner,
            )
            s.add(row)
            s.flush()
            if also is not None:
                also(s, row.id)
            row.director = stored_record(director, now)
            s.add(
                TournamentLease(
                    tournament_id=row.id, owner=self.url, instance=self.instance, expires_at=now + self.ttl
                )
            )
            tid = row.id
        running = Shared(tid, name, director, speed, now, saved_at=now)
        self.adopt(running)
        return tid

    def adopt(self, running: Shared) -> None:
        """Hold ``running`` here: its clock on the service's schedule, its tables synced
        whenever it changes."""
        self.running[running.id] = running
        assert self._loop is not None, "start() the service first"
        running.changed.wake = functools.partial(self._wake, running)
        running.changed.set()

    # ------------------------------------------------------------------ the clock's schedule

    def schedule(self, tid: int, due: float) -> None:
        """Tournament ``tid`` (held here) ticks at ``due`` (a wall time), or sooner where it is
        due sooner already; after each tick it is scheduled again for what comes next
        (:meth:`next_due`). An operator's resume asks for ``time.time()``: the clock looked at
        at once. On the event loop."""
        self.due_times.at(tid, due)

    def unschedule(self, tid: int) -> None:
        """Tournament ``tid`` is due no more until something changes it (a change asks for a
        tick soon, as always): an operator's pause. On the event loop."""
        self.due_times.cancel(tid)

    # ------------------------------------------------------------------ the limits

    def may_make(self, player_id: int, address: str) -> None:
        """Raise :class:`RateLimited` when account ``player_id`` has
        :attr:`Limits.tournaments_per_account` tournaments not over yet, or ``address`` has
        made :attr:`Limits.tournaments_per_address` this ``tournament_window``; else count one
        made from ``address``. Runs in the store's place (a read)."""
        limits = self.limits
        with self.store.session() as s:
            open_now = tournament_list.made_by(s, player_id, OPEN_STATES)
        if open_now >= limits.tournaments_per_account:
            raise RateLimited(
                "tournaments_per_account",
                "tournaments_open",
                retry_after=limits.tournament_window / max(1, limits.tournaments_per_address),
                count=limits.tournaments_per_account,
            )
        self.made.take(address)

    def may_enter(self, player_id: int) -> None:
        """Count one registration or unregistration of account ``player_id``, or raise
        :class:`RateLimited` past :attr:`Limits.entries_per_account` this ``entry_window``."""
        self.entries.take(str(player_id))

    # ------------------------------------------------------------------ registering

    def register(
        self, tid: int, player_id: int | None, name: str, bot_kind: str | None = None
    ) -> dict[str, Any]:
        """Enter ``name`` in tournament ``tid`` (:meth:`Cashier.register`). Runs in the
        store's place (``store.run``)."""
        return self._at_cashier(tid, lambda r: self.cashier.register(r, player_id, name, bot_kind))

    def unregister(self, tid: int, name: str) -> dict[str, Any]:
        """Take back ``name``'s registration before the start (:meth:`Cashier.unregister`)."""
        return self._at_cashier(tid, lambda r: self.cashier.unregister(r, name))

    def reenter(self, tid: int, player_id: int | None, name: str) -> dict[str, Any]:
        """``name`` enters ``tid`` again after busting (:meth:`Cashier.reenter`)."""
        return self._at_cashier(tid, lambda r: self.cashier.reenter(r, player_id, name))

    def rebuy(self, tid: int, player_id: int | None, name: str) -> dict[str, Any]:
        """A rebuy for ``name`` (:meth:`Cashier.buy_chips`)."""
        return self._at_cashier(tid, lambda r: self.cashier.buy_chips(r, player_id, name, "rebuy"))

    def add_on(self, tid: int, player_id: int | None, name: str) -> dict[str, Any]:
        """The add-on for ``name`` (:meth:`Cashier.buy_chips`)."""
        return self._at_cashier(tid, lambda r: self.cashier.buy_chips(r, player_id, name, "add_on"))

    def deal(self, tid: int, name: str, answer: str) -> dict[str, Any]:
        """``name`` proposes, accepts or declines the ICM deal (:meth:`Cashier.deal`)."""
        return self._at_cashier(tid, lambda r: self.cashier.deal(r, name, answer))

    def _at_cashier(self, tid: int, call: Callable[[Shared], dict[str, Any]]) -> dict[str, Any]:
        """``call`` the cashier for the tournament directed here, over the stored director: a
        copy another process overtook in between is taken up and the request tried again."""
        running = self._running(tid)
        for _attempt in range(5):
            if self.shared:
                with running.lock, self.store.engine.connect() as c:
                    if sharing.bring_up_to_date(c, running, lock=False):
                        running.sync_all = True
            try:
                return call(running)
            except StaleDirector:
                continue
        raise TournamentError("tournament_busy", tournament=tid)

    def _running(self, tid: int) -> Shared:
        running = self.running.get(tid)
        if running is None or not running.directing:
            with self.store.session() as s:
                row = s.get(TournamentRow, tid)
                lease = s.get(TournamentLease, tid)
            if row is None:
                raise TournamentError("no_tournament", tournament=tid)
            if row.state in ("finished", "cancelled"):
                raise TournamentError("tournament_state", tournament=tid, state=Words(row.state))
            where = lease.owner if lease is not None else "no server yet"
            raise TournamentError("tournament_elsewhere", tournament=tid, where=where)
        if running.broken:
            raise TournamentError("tournament_recovering", tournament=tid)
        return running

    # ------------------------------------------------------------------ the operators' hooks

    def hold(self, tid: int, paused: bool) -> dict[str, Any]:
        """Pause (``paused``) or resume ``tid``'s clock (an operator's: server/operators/
        tournaments.py): while paused no level rises and no table deals (a hand in progress
        is played out); written at once, a restart keeps it."""

        def call(running: Shared) -> dict[str, Any]:
            with running.lock:
                d = running.director
                if d.state not in ("running", "break"):
                    raise TournamentError("tournament_not_running", tournament=tid, state=Words(d.state))
                if d.paused == paused:
                    raise TournamentError(
                        "tournament_paused_already" if paused else "tournament_not_paused", tournament=tid
                    )
                tnow = running.now()
                flip, back = (d.pause, d.resume) if paused else (d.resume, d.pause)
                flip(tnow)
                try:
                    with self.store.begin() as c:
                        self.persist(c, running, [], tnow)
                except BaseException:
                    back(tnow)  # not written: as it was
                    raise
            self.changed(running, [])  # resumed: the tables are woken
            return {"tournament": tid, "paused": paused}

        return self._at_cashier(tid, call)

    def cancel(self, tid: int, refund: Callable[[Connection, Shared], None]) -> dict[str, Any]:
        """Cancel ``tid`` now (an operator's; no hand in progress at its tables: the caller has
        paused it and waited): ``refund(connection, running)`` writes the money back in the
        same transaction; its tables stand everybody up into the box and close."""

        def call(running: Shared) -> dict[str, Any]:
            with running.lock:
                d = running.director
                if d.state in ("finished", "cancelled"):
                    raise TournamentError("tournament_over", tournament=tid, state=Words(d.state))
                tnow = running.now()
                before = director_to_record(d, tnow)
                commands = d.call_off()  # every table stands its players up
                try:
                    with self.store.begin() as c:
                        refund(c, running)
                        self.persist(c, running, commands, tnow)
                except BaseException:
                    running.director = director_from_record(before, tnow)
                    raise
            self.changed(running, commands)
            return {"tournament": tid, "state": "cancelled"}

        return self._at_cashier(tid, call)

    # ------------------------------------------------------------------ the director's writes

    def persist(self, c: Connection, running: Shared, commands: list[Command], tnow: float) -> None:
        """Write ``commands``' money and places and the director's state in ``c``'s
        transaction (:meth:`Cashier.persist`)."""
        self.cashier.persist(c, running, commands, tnow)

    def changed(self, running: Any, commands: list[Command]) -> None:
        """Committed: the tables are to be synced and the commands told (from any thread)."""
        loop = self._loop
        if loop is None:
            return

        def note() -> None:
            running.told += commands
            running.changed.set()

        try:
            here = asyncio.get_running_loop()
        except RuntimeError:
            here = None
        if here is loop:
            note()
        else:
            with contextlib.suppress(RuntimeError):  # the loop has closed (the server stopping)
                loop.call_soon_threadsafe(note)

    # ------------------------------------------------------------------ the clock

    def _due(self, tid: int) -> None:
        """The schedule says ``tid`` is due: its tick runs (one at a time: a tick still running
        asks for the next at its end)."""
        running = self.running.get(tid)
        if running is None or self._loop is None:
            return
        if tid in self._ticking:
            self.due_times.at(tid, time.time() + self.tick)
            return
        task = self._loop.create_task(self._tick(running))
        self._ticking[tid] = task
        task.add_done_callback(lambda _t: self._ticking.pop(tid, None))

    def next_due(self, running: Shared) -> float | None:
        """When ``running`` next needs its clock looked at (a wall time; None: not until
        something happens to it): its start, a level's end, a break or a deal to end, a busted
        player's time to rebuy, the clock's periodic write; where the tournament is shared
        (PostgreSQL) and playing, every tick, to see another process's writes."""
        if running.broken:
            return None  # (its sync takes it up again from the database, then it is due again)
        wall = time.time()
        soon = wall + self.tick
        if running.version < 0 or running.pending or running.moves_waiting or running.heard:
            return soon
        with running.lock:
            d = running.director
            playing = d.state in ("running", "break")
            if self.shared and (playing or not running.directing):
                return soon
            if not running.directing:
                return None
            tnow = running.now(wall)
            times: list[float] = []
            if d.state == "registering":
                start = d.settings.start_at
                if d.settings.kind == "scheduled" and start is not None:
                    times.append(start)
            elif playing:
                if d.break_due:
                    return soon  # (the break is taken once the hands in progress end)
                for left in (d.time_to_next_level(tnow), d.time_to_break(tnow)):
                    if left is not None and not d.paused:
                        times.append(tnow + left)
                if d.break_ends is not None:
                    times.append(d.break_ends)
                if d.deal is not None:
                    times.append(d.deal.ends)
                if d.settings.rebuy_levels:
                    times += [e.rebuy_until for e in d.entrants.values() if e.rebuy_until is not None]
            due = [running.origin + (t - running.origin) / running.speed for t in times]
            if playing:
                due.append(running.saved_at + SAVE_EVERY)
        if not due:
            return None
        return max(min(due), soon)  # (never sooner than a tick: a moment the clock stood still)

    async def _tick(self, running: Shared) -> None:
        """The clock, where the tournament is directed here; and where it is shared, the
        stored director's version compared with this copy's (another process wrote it: its
        director taken up, the tables here synced to it). Then its next tick is scheduled."""
        try:
            if not running.broken:
                await self._tick_once(running)
        finally:
            if self.running.get(running.id) is running:
                due = self.next_due(running)
                if due is not None:
                    self.due_times.at(running.id, due)

    async def _tick_once(self, running: Shared) -> None:
        def work() -> tuple[list[Command], bool]:
            with running.lock:
                moved = False
                if self.shared or running.version < 0:
                    with self.store.engine.connect() as c:
                        moved = sharing.bring_up_to_date(c, running, lock=False)
                    if moved:
                        running.sync_all = True
                heard, running.heard = running.heard, []
                if not running.directing:
                    return heard, moved
                d = running.director
                tnow = running.now()
                commands = d.tick(tnow)
                due = time.time() - running.saved_at >= SAVE_EVERY and d.state in ("running", "break")
                if due:
                    # Every table looked at with the clock's periodic write, whatever the writes
                    # between said changed.
                    running.sync_all = True
                if commands or due:
                    try:
                        with self.store.begin() as c:
                            self.persist(c, running, commands, tnow)
                    except StaleDirector:
                        # Another process wrote it since the read above: taken up at the
                        # next tick, which decides again.
                        running.version = -1
                        return heard, True
                    except BaseException:
                        # Not written: the tournament is taken up again from the database
                        # (a copy before every tick was a large field's cost, 4 times a second).
                        running.broken = True
                        self.changed(running, [])
                        raise
                return heard + commands, moved

        try:
            commands, moved = await self.store.run(work)
        except Exception:  # a database that did not answer: the next tick tries again
            log.exception("tournament %s: a tick failed", running.id)
            return
        if commands or moved or running.pending or running.moves_waiting or running.sync_all:
            running.pending = False
            self.changed(running, commands)

    # ------------------------------------------------------------------ the tables follow

    def may_deal(self, running: Shared, number: int, table: Table) -> bool:
        """Whether tournament table ``number`` (the card-room ``table``) may deal now: the
        director says so, and the table seats exactly whom the director seats there, with the
        chips it holds for them."""
        with running.lock:
            d = running.director
            if running.broken or d.may_deal(number, running.now()) is None:
                return False
            wanted = d.tables[number].players
            seats = table.view(None).seats
            if len(seats) != len(wanted):
                return False
            return all(
                wanted.get(s.seat) == s.player and d.entrants[s.player].chips == s.stack for s in seats
            )

    def _wake(self, running: Shared) -> None:
        """``running`` changed (its :class:`~sevenstud.server.tournaments.cashier.Nudge` set):
        a sync task made for it unless one runs (which syncs again before it ends), and its
        clock asked to tick soon (what it decides may follow from the change)."""
        loop = self._loop
        if loop is None or self.running.get(running.id) is not running:
            return  # (dropped, or not held yet)
        try:
            here = asyncio.get_running_loop()
        except RuntimeError:
            here = None
        if here is not loop:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._wake, running)
            return
        if not any(not t.done() for t in running.tasks):
            running.tasks = [loop.create_task(self._syncer(running))]
        self.due_times.at(running.id, time.time() + self.tick)

    async def _syncer(self, running: Shared) -> None:
        """Make the tables follow ``running`` until no change waits: then the task ends (a
        tournament nothing happens to holds none)."""
        while running.changed.is_set():
            running.changed.clear()
            told: list[Command] = []
            try:
                if running.broken:
                    await self.holding.recover(running)
                    return
                told, running.told = running.told, []
                await self.sync(running)
                if told or running.moves_waiting:  # once the tables follow: a new table exists
                    # (made here; one another process makes is looked for, its moves wait)
                    told = await asyncio.to_thread(
                        sharing.moves_to_tell, self.store, running, told, time.time()
                    )
                    await self._tell(running, told)
                    for listener in self.listeners:
                        with contextlib.suppress(Exception):
                            listener(running, told)
                # Last, the tables the director broke close (their players told first).
                await self._close_broken(running)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("tournament %s: a sync failed", running.id)
                running.told = told + running.told  # told at the next try, not lost
                await asyncio.sleep(0.5)
                running.changed.clear()
                running.changed.set()

    async def _tell(self, running: Shared, commands: list[Command]) -> None:
        """Every connection at the tournament's tables is told what changed (a move: the moved
        player's connections alone, wherever they watch)."""
        # Built and encoded once, for every connection at every table it goes to.
        built = messages_for(running.id, commands, running.speed, dict(running.tables))
        messages = [(whom, Encoded(encode(message))) for whom, message in built]
        if not messages:
            return
        told = self.tell_player
        if told is not None:
            # A player's own notice (a move) goes to each of their connections, wherever it is:
            # the table they were moved from may be closed already (moved twice at once).
            for whom, message in messages:
                if whom is not None:
                    told(whom, message)

        def put(room: Room, _now: float) -> None:
            for watcher in room.watchers.values():
                for whom, message in messages:
                    if whom is None or (told is None and watcher.player == whom):
                        watcher.pending.append(message)

        for room in list(running.rooms.values()):
            with contextlib.suppress(RoomError):
                await room.submit(functools.partial(put, room))

    async def sync(self, running: Shared) -> None:
        """Make every table of the tournament served here seat whom the director seats there
        (see the module): stand-ups first (a moved player's chips go back to the box), then
        sit-downs, then the tables the director broke close. The directing process makes the
        tables the director opens (each served by the process it is given to)."""
        for number, room in list(running.rooms.items()):
            if room.stopped:
                # Stopped under it: its lease was lost (a round that could not renew in time),
                # so the table is served by whichever process takes it now (this one's own
                # table sweep, once the lease ran out).
                running.rooms.pop(number, None)
        with running.lock:
            d = running.director
            # The tables the writes since the last sync changed (a hand's table, the tables of
            # the players it moved): not every table of the field, each sync (issue 35: at
            # 10,000 entrants the whole field's chips and tables were read at every sync).
            looked_at = (set(d.tables) | set(running.rooms)) if running.sync_all else running.to_sync
            running.to_sync, running.sync_all = set(), False
            running.dealing_on = dealing_on(d)
            wanted = {n: dict(d.tables[n].players) for n in looked_at if n in d.tables}
            entrants = d.entrants
            chips = {name: entrants[name].chips for w in wanted.values() for name in w.values()}
        try:
            await self._follow(running, looked_at, wanted, chips)
        except BaseException:
            running.sync_all = True  # (the next sync looks at every table again)
            raise

    async def _follow(
        self, running: Shared, looked_at: set[int], wanted: dict[int, dict[int, str]], chips: dict[str, int]
    ) -> None:
        """The sync's work on the tables ``looked_at``: ``wanted``, whom the director seats at
        each, and ``chips``, what it holds for each of them."""
        for number in sorted(wanted):
            if number not in running.tables and running.directing:
                await self._new_table(running, number)
        wanted = {n: w for n, w in wanted.items() if n in running.rooms}
        rooms = {n: room for n, room in running.rooms.items() if n in looked_at}
        # Every table's stand-ups side by side (each table's own in turn, on its actor), then
        # every table's sit-downs: a moved player's chips are back in the box before they sit.
        leaving: list[Any] = []
        for number, room in rooms.items():
            want = wanted.get(number, {})
            keeper = room.keeper
            if keeper.table.hand_in_progress or room.stopped:
                continue  # the director moves nobody from a table in a hand: it syncs at its end
            seated = {s.player: s.seat for s in keeper.table.view(None).seats}
            names = [n for n in keeper.occupants if want.get(seated.get(n, -1)) != n]
            if names:  # (in one command: one transaction)
                leaving.append(_in_turn(room, [functools.partial(_leave, keeper, names)]))
        await self._each_table(running, leaving)
        sitting: list[Any] = []
        caught_up = False
        for number, want in sorted(wanted.items()):
            room = running.rooms[number]
            keeper = room.keeper
            away: set[str] = set()
            if self.shared:
                # A player moved here from another server's table sits once that table has
                # stood them up (their chips back in the box): never at two tables at once.
                coming = [n for n in want.values() if n not in keeper.occupants]
                away = await asyncio.to_thread(
                    sharing.seated_elsewhere, self.store, dict(running.tables), room.keeper.table_id, coming
                )
                running.pending = running.pending or bool(away)
                if away:
                    running.to_sync.add(number)  # (looked at again: they sit once stood up there)
                if not caught_up and set(coming) - away:
                    # Their last hand was played and written at the other process: this copy
                    # takes it up before they sit with its chips. Seated with a copy a hand
                    # behind, a player who had lost chips there sat with them still, and the
                    # table's next hand was refused at its end ("table 7's stacks add up to
                    # 361645, not 346645": one ante of the last level).
                    await asyncio.to_thread(self._catch_up, running)
                    caught_up = True
            people, kinds = running.people, running.bot_kinds
            seats = [
                (name, seat, people.get(name), kinds.get(name, "rule"))
                for seat, name in sorted(want.items())
                if name not in keeper.occupants and keeper.table.player_at(seat) is None and name not in away
            ]
            if seats:  # (in one command: one transaction)
                sitting.append(_in_turn(room, [functools.partial(_sit, keeper, running, number, seats)]))
        await self._each_table(running, sitting)
        # A rebuy or an add-on: the director holds more chips for a seated player than their
        # seat (never one in the hand: the director grants them between hands, or to a busted
        # player, who is dealt no hand); the difference comes from the box.
        topping: list[Any] = []
        for number, want in sorted(wanted.items()):
            room = running.rooms[number]
            short = [
                s.player
                for s in room.keeper.table.view(None).seats
                if want.get(s.seat) == s.player and not s.in_hand and s.stack < chips.get(s.player, 0)
            ]
            if short:
                topping.append(
                    _in_turn(room, [functools.partial(_top_up, room.keeper, running, n) for n in short])
                )
        await self._each_table(running, topping)
        woken = [
            _in_turn(room, [_nothing], quiet=True)
            for room in list(rooms.values())
            # A table that may deal now is woken (its actor asks its gate again): one whose
            # gate said no last time waits on nothing else.
            if not room.playing and _worth_waking(running, room)
        ]
        await asyncio.gather(*woken)

    def _catch_up(self, running: Shared) -> None:
        """Take up what another process wrote of ``running`` since this copy (a thread's work)."""
        with running.lock, self.store.engine.connect() as c:
            if sharing.bring_up_to_date(c, running, lock=False):
                running.sync_all = True  # (what it changed, followed at the next sync)

    async def _each_table(self, running: Shared, steps: list[Any]) -> None:
        """Run each table's ``steps`` side by side. One table's failure (its room stopped: its
        lease lost, a write failed) holds up none of the others; the sync runs again soon
        (``pending``) for what it could not do there."""
        for outcome in await asyncio.gather(*steps, return_exceptions=True):
            if isinstance(outcome, BaseException):
                if isinstance(outcome, asyncio.CancelledError):
                    raise outcome
                running.pending = True
                running.sync_all = True  # (what it could not do, looked for at every table)
                if not isinstance(outcome, RoomError):
                    log.error("tournament %s: a table's sync failed", running.id, exc_info=outcome)

    async def _close_broken(self, running: Shared) -> None:
        """Close the tables the director broke, once empty; once it is over and every table
        here is closed, give its lease up (or, only serving its tables, let it go)."""
        with running.lock:
            d = running.director
            wanted = set(d.tables)
            over = d.state in ("finished", "cancelled")
        for number in [n for n in running.rooms if n not in wanted or over]:
            room = running.rooms[number]
            if not room.keeper.occupants and not room.keeper.table.hand_in_progress:
                await self._close_table(running, number)
        if over and not running.rooms:
            await self._finished(running)
        elif not running.directing and running.served and not running.rooms and not running.pending:
            # Served here no more (its tables here broken): followed no more.
            self.running.pop(running.id, None)
            self.due_times.cancel(running.id)
            for task in running.tasks:
                if task is not asyncio.current_task():
                    task.cancel()

    async def _finished(self, running: Shared) -> None:
        self.running.pop(running.id, None)
        self.due_times.cancel(running.id)
        for task in running.tasks:
            if task is not asyncio.current_task():
                task.cancel()

        def release() -> None:
            with self.store.transaction() as s:
                lease = s.get(TournamentLease, running.id)
                if lease is not None:
                    s.delete(lease)

        if running.directing:
            await asyncio.to_thread(release)

    async def _new_table(self, running: Shared, number: int) -> None:
        d = running.director
        settings = TableSettings(
            game_of(d.settings, d.level_index), seats=d.settings.seats, tournament=True, history=KEPT_ENTRIES
        )

        def make() -> tuple[int, bool]:
            fields = {
                f.name: getattr(settings, f.name) for f in dataclasses.fields(settings) if f.name != "game"
            }
            found = tournament_tables.make_table(
                self.store,
                running.id,
                number,
                name=f"{running.name} #{number}",  # no one language's words in a name
                game=game_to_wire(settings.game),
                settings=fields,
                now=time.time(),
            )
            # Given to the live processes in turn: this one serves it now, another takes it at
            # its next table sweep (tournament_sharing.py).
            mine = sharing.assignee(self.holding.live, number) == self.instance
            return int(found), mine and self.take_table(found)

        # Its number is being made here: the lease round's table sweep leaves it alone
        # (it sees the new row unleased and given to this process, and would open it too).
        running.opening.add(number)
        try:
            table_id, here = await asyncio.to_thread(make)
        finally:
            running.opening.discard(number)
        running.tables[number] = table_id
        if here and number not in running.rooms:
            self.open_table(running, number, table_id)

    def open_table(self, running: Shared, number: int, table_id: int) -> None:
        """Open the room of ``running``'s table ``number`` (``table_id``) here."""
        d = running.director
        settings = TableSettings(
            game_of(d.settings, d.level_index), seats=d.settings.seats, tournament=True, history=KEPT_ENTRIES
        )
        service = self

        def prepare(room: Room) -> None:
            room.keeper.hook = _Hook(service, running, number)
            room.whereabouts = functools.partial(self.where_now, running)
            room.pause_unwatched = False  # a table of bots in a tournament plays on
            room.gate = lambda: self.may_deal(running, number, room.keeper.table)

        running.rooms[number] = self.open_room(table_id, settings, prepare)
        with running.lock:  # (a write in the store's threads notes its changes under it)
            running.to_sync.add(number)
        running.served = True

    def follows(self, room: Room) -> bool:
        """Whether ``room`` is followed here: not a tournament's, or one of the tables of the
        copy of its tournament held here now (not one left behind by a copy taken up again)."""
        hook = room.keeper.hook
        if not isinstance(hook, _Hook):
            return True
        running = hook.running
        return self.running.get(running.id) is running and running.rooms.get(hook.number) is room

    def where_now(self, running: Shared, player: str, here: int) -> Outgoing | None:
        """Where ``player`` sits now in ``running``, as the ``tournament_moved`` notice says it,
        when that is another table than ``here`` (a table id) and one the room knows; else None.
        A client that followed an old notice says hello at a table where it does not sit: this
        is its answer (docs/protocol.md, "Tournaments")."""
        d = running.director
        number = d.table_of(player)
        table_id = running.tables.get(number) if number is not None else None
        if number is None or table_id is None or table_id == here:
            return None
        seat = d.tables[number].seat_of(player)
        chips = d.entrants[player].chips
        moved = Seat(player, number, seat, chips, from_table=number)
        return messages_for(running.id, [moved], running.speed, dict(running.tables))[0][1]

    async def _close_table(self, running: Shared, number: int) -> None:
        table_id = running.tables.pop(number)
        running.rooms.pop(number, None)
        with running.lock:
            over = running.director.state in ("finished", "cancelled")
        # Its watchers are told why, and stop: the tournament's end, or a move (table_closed).
        await self.close_room(
            table_id, table_closed(table_id, "tournament_over" if over else "broken", running.id)
        )

        def close() -> None:
            with self.store.transaction() as s:
                row = s.get(TableRow, table_id)
                if row is not None:
                    row.closed = True
            self.release_table(table_id)

        await asyncio.to_thread(close)


def _replace_start(settings: TournamentSettings, start: float) -> TournamentSettings:
    return dataclasses.replace(settings, start_at=start)


async def _in_turn(room: Room, steps: Sequence[Callable[[float], object]], quiet: bool = False) -> None:
    """Run ``steps`` on ``room``'s actor one after another (``quiet``: a stopped room is no error)."""
    for step in steps:
        try:
            await room.submit(step)
        except RoomError:
            if not quiet:
                raise
            return


def _leave(keeper: Any, names: list[str], now: float) -> object:
    # Asked again on the table's actor: a player may have stood up since the sync looked.
    seated = {s.player for s in keeper.table.view(None).seats}
    still = [name for name in names if name in keeper.occupants and name in seated]
    return keeper.stand_up(still, now) if still else None


def _sit(
    keeper: Any, running: Shared, number: int, seats: list[tuple[str, int, int | None, str]], now: float
) -> object:
    # Asked on the table's actor: each seated with the chips the director holds for them now,
    # if it still seats them there; all of them in one command.
    with running.lock:
        table = running.director.tables.get(number)
        entrants = running.director.entrants
        chosen = [
            (name, seat, entrants[name].chips, pid, kind)
            for name, seat, pid, kind in seats
            if table is not None and name in entrants and table.players.get(seat) == name
        ]
    return keeper.seat_players(chosen, now) if chosen else None


def _top_up(keeper: Any, running: Shared, name: str, now: float) -> object:
    # Asked again on the table's actor: the hand or the director may have moved on since.
    with running.lock:
        entrant = running.director.entrants.get(name)
        seat = next((s for s in keeper.table.view(None).seats if s.player == name), None)
        if entrant is None or seat is None or seat.in_hand or seat.stack >= entrant.chips:
            return None
        return keeper.top_up(name, entrant.chips - seat.stack, now)


def _worth_waking(running: Shared, room: Room) -> bool:
    """Whether ``room`` may deal now, asked on the event loop without waiting for the
    tournament's lock: while another table's write holds it (in the store's threads, on
    PostgreSQL), the room is woken all the same and its actor asks its gate under the lock.
    Waiting for it here held the whole event loop up: in a 10,000-entrant tournament on two
    processes, 105 s of 22,246 such questions (issue 35)."""
    if not running.lock.acquire(blocking=False):
        return True
    try:
        return room.may_deal()
    finally:
        running.lock.release()


def _nothing(_now: float) -> None:
    return None
