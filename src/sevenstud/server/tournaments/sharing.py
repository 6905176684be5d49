"""One tournament shared by several server processes on one database (docs/tournaments.md,
"Several servers, one tournament").

The director's state lives in the ``tournaments`` row under a version (migration 0008), raised
by one with every write. Every process serving one or more of a tournament's tables holds a
copy of the director (:class:`Shared`); whichever process writes (the end of a hand at a table it
serves, the clock's tick where it directs, a registration) does it in one transaction that locks
the row (``SELECT ... FOR UPDATE`` on PostgreSQL), takes up the stored director first when the
version moved since its copy (:func:`bring_up_to_date`), changes it, and stores it with the
version raised (:class:`SharedCashier`). So the hand's prizes and places are in the hand's own
transaction wherever the table is served, and no write is lost. A process whose copy is its own
last write (one process alone: the usual case) never reads the record back.

Every process compares the stored version with its copy on each tick (one integer read) and,
when it moved, takes the stored director up and syncs the tables it serves to it: a player the
director moved to a table served elsewhere stands up here into the tournament's box, and the
other process seats them from it; a player is seated only once no other table of the tournament
holds them (:func:`seated_elsewhere`), so no one sits at two tables even for a moment.

The tables are shared out by the processes alive now (``card_servers``, renewed with the leases):
table ``n`` of a tournament goes to the ``n``-th of them in turn (:func:`assignee`); a table
whose lease ran out (its process died) is taken by the first live process that sees it, which
cancels the hand it cut off and tells the director (``hand_cancelled``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeGuard

from sevenstud.server.store import (
    Connection,
    Store,
    card_servers,
    leases,
    tournament_entries,
    tournament_tables,
)
from sevenstud.server.store.leases import take_lease
from sevenstud.server.store.models import TournamentLease, TournamentRow
from sevenstud.server.store.tournaments import read_changes, set_version, stored_head, version_of
from sevenstud.server.tables.recovery import recover
from sevenstud.server.tournaments.cashier import Cashier, Running, director_of
from sevenstud.tournament import (
    Break,
    Command,
    Director,
    Finish,
    HandForHand,
    NewLevel,
    Seat,
    Status,
    TournamentSettings,
)
from sevenstud.tournament.snapshot import director_moved_on

log = logging.getLogger(__name__)

PLAYING = ("registering", "running", "break")
MOVE_WAIT = 30.0
"""How long a move to a table not made yet waits to be told (its maker makes it at once, or
dies and another process makes it within a lease's time)."""


class StaleDirector(Exception):
    """Another process wrote the tournament's director since this one's copy: take it up and
    try again (nothing was written)."""


@dataclass(slots=True)
class Shared(Running):
    """A tournament as one process holds it: directed here (its lease: the clock, the
    registrations) or only followed (some of its tables served here)."""

    version: int = 0
    """The stored director's version this copy is (-1: take the stored one up before use)."""
    directing: bool = True
    pending: bool = False
    """A sit-down waited for a player still seated at another server's table: sync again."""
    served: bool = False
    """One of its tables has been served here (a process following it lets it go once none is)."""
    heard: list[Command] = field(default_factory=list)
    """What another process's writes changed, as commands (:func:`news`), still to be told to
    the players at the tables here (the tick tells them)."""
    opening: set[int] = field(default_factory=set)
    """The numbers of the tables being made here now (not yet opened)."""
    moves_waiting: dict[Seat, float] = field(default_factory=dict)
    """Moves to a table another process opens, not yet made there (its card-room table not
    known yet): each told once it is (given up after :data:`MOVE_WAIT` seconds of the wall)."""


def bring_up_to_date(c: Connection, running: Shared, *, lock: bool = True) -> bool:
    """Make ``running``'s director the stored one (``lock``: the row locked until ``c``'s
    transaction ends, so that nobody else writes it in between). True when it was taken up."""
    version = version_of(c, running.id, lock=lock)
    if version == running.version:
        return False
    record = stored_head(c, running.id)
    # Taken up at the moment it was stored: the clock runs on from there (not paused: it is a
    # live tournament, only written by another process).
    before = running.director
    at = float(record["saved_at"])
    if running.version >= 0 and record.get("parts") and before.state != "registering":
        # Only the parts written since this copy's version: a hand's entrants and table, not
        # the field (issue 35).
        entrants, changed = read_changes(c, running.id, running.version)
        names = [str(part["name"]) for part in entrants]
        was = {n: (w.place, w.table) for n in names if (w := before.entrants.get(n)) is not None}
        head = (before.state, before.level_index, before.break_ends, before.hand_for_hand)
        running.director = director_moved_on(before, record, entrants, changed, at)
        running.heard += _news(head, was, running.director, names, running.now())
    else:
        running.director = director_of(c, running.id, record, at)
        if running.version >= 0:  # (-1: this copy was not the stored one: nothing to compare)
            running.heard += news(before, running.director, running.now())
    running.version = version
    for number, table_id in tournament_tables.open_tables_of(c, running.id):
        running.tables.setdefault(number, table_id)
    return True


def news(before: Director, after: Director, now: float) -> list[Command]:
    """The commands another process decided between two directors, as far as the players are
    told of them (docs/protocol.md, "Tournaments"): the state, a new level, a break, hand-for-
    hand, the places given, the moves. Why from the states and not the commands themselves:
    a process may take several versions up at once, and the states say what they came to."""
    head = (before.state, before.level_index, before.break_ends, before.hand_for_hand)
    was = {name: (e.place, e.table) for name, e in before.entrants.items()}
    return _news(head, was, after, list(after.entrants), now)


def _news(
    head: tuple[str, int, float | None, bool],
    was: dict[str, tuple[int | None, int | None]],
    after: Director,
    names: list[str],
    now: float,
) -> list[Command]:
    """:func:`news` from what the director was (``head``: its state, level, break's end and
    hand-for-hand; ``was``: each entrant's place and table) to ``after``, over the entrants
    ``names`` (those that may have changed: a shared place is given in one write, so they
    are all among them)."""
    state, level_index, break_ends, hand_for_hand = head
    out: list[Command] = []
    if after.state != state:
        out.append(Status(after.state))
    if after.level_index > level_index:
        out.append(NewLevel(after.level_index, after.level, after.settings.game_at(after.level_index)))
    if after.break_ends is not None and after.break_ends != break_ends:
        out.append(Break(now, after.break_ends))
    if after.hand_for_hand != hand_for_hand:
        out.append(HandForHand(after.hand_for_hand))
    entrants = [(name, after.entrants[name]) for name in names if name in after.entrants]
    places: dict[int, int] = {}
    for _name, e in entrants:
        if e.place is not None:
            places[e.place] = places.get(e.place, 0) + 1
    for name, e in entrants:
        place, table = was.get(name, (None, None))
        known = name in was
        if e.place is not None and (not known or place != e.place):
            out.append(Finish(name, e.place, e.prize, places[e.place]))
        elif e.table is not None and (not known or table != e.table):
            seats = after.tables.get(e.table)
            seat = next((n for n, p in seats.players.items() if p == name), None) if seats else None
            if seat is not None:  # a move, or a seat at the start or a late entry's
                out.append(Seat(name, e.table, seat, e.chips, from_table=table))
    return out


class SharedCashier(Cashier):
    """The cashier whose every write of a director checks and raises its version (see the
    module): a write over a copy that another process has overtaken is refused
    (:class:`StaleDirector`) before anything is written."""

    def persist(self, c: Connection, running: Running, commands: list[Command], tnow: float) -> None:
        version = self._check(c, running)
        super().persist(c, running, commands, tnow)
        self._raise(c, running, version)

    def persist_entry(self, c: Connection, running: Running, commands: list[Command], tnow: float) -> None:
        # An entry's row changes the field: the version says so (one integer, not the director).
        version = self._check(c, running)
        super().persist_entry(c, running, commands, tnow)
        self._raise(c, running, version)

    @staticmethod
    def _check(c: Connection, running: Running) -> int | None:
        if not isinstance(running, Shared):
            return None
        version = version_of(c, running.id, lock=True)
        if version != running.version:
            raise StaleDirector(running.id)
        return version

    @staticmethod
    def _raise(c: Connection, running: Running, version: int | None) -> None:
        if isinstance(running, Shared) and version is not None:
            set_version(c, running.id, version + 1)
            running.version = version + 1


# ---------------------------------------------------------------------- the live processes
# (each says it is alive with its leases' round: server/store/card_servers.py)


def assignee(live: list[str], number: int) -> str:
    """The process that serves a tournament's new table ``number``: the live ones in turn."""
    return live[(number - 1) % len(live)]


def tables_to_take(
    store: Store, instance: str, url: str, live: list[str], now: float, here: set[int]
) -> list[tuple[int, int, int]]:
    """The tournaments' tables this process should take now, as (tournament, number, table):
    a new one (never leased) given to it, and any whose lease ran out or that this address's
    previous process held (``here``: the tables served here now, left out)."""
    rows = leases.free_tournament_tables(store, PLAYING, owner=url, instance=instance, now=now)
    return [
        (tid, number, table_id)
        for tid, number, table_id, leased in rows
        if table_id not in here and (leased or assignee(live, number) == instance)
    ]


def seated_elsewhere(store: Store, tables: dict[int, int], here: int, names: list[str]) -> set[str]:
    """Those of ``names`` still seated at another of the tournament's tables (``tables``:
    number -> table id) than table id ``here``: a moved player stands up there first."""
    others = [t for t in tables.values() if t != here]
    if not names or not others:
        return set()
    return tournament_tables.still_seated(store, others, names)


def moves_to_tell(store: Store, running: Shared, commands: list[Command], now: float) -> list[Command]:
    """``commands`` with the moves waiting before (:attr:`Shared.moves_waiting`), less the moves
    to a table whose card-room table is not made yet: those wait (the tick brings them back),
    so that a moved player is told the table to go to, not left without a word."""
    with running.lock:  # (the tick takes the stored tables up under it too)
        commands = [*running.moves_waiting, *commands]
        unknown = {c.table for c in commands if _a_move(c) and c.table not in running.tables}
        if unknown:
            for number, table_id in tournament_tables.table_ids(store, running.id, unknown).items():
                running.tables.setdefault(number, table_id)
        told: list[Command] = []
        for command in commands:
            first = running.moves_waiting.pop(command, now) if isinstance(command, Seat) else now
            if not _a_move(command) or command.table in running.tables:
                told.append(command)
            elif now - first < MOVE_WAIT:
                running.moves_waiting[command] = first
        return told


def _a_move(command: Command) -> TypeGuard[Seat]:
    # A seat of any kind: a move, or one at the start or a late entry's (each told to its
    # player once its table is known).
    return isinstance(command, Seat)


def describe(running: Shared) -> dict[str, Any]:
    """What a process holds of a tournament (for its logs)."""
    return {"id": running.id, "version": running.version, "directing": running.directing}


class Holder(Protocol):
    """What :class:`Holding` needs of the tournament service it works for."""

    store: Store
    url: str
    instance: str
    ttl: float
    running: dict[int, Shared]
    take_table: Callable[[int], bool]
    serves: Callable[[int], bool]

    def adopt(self, running: Shared) -> None:
        """Hold ``running`` here: its clock ticking on this process's loop."""

    async def drop(self, running: Shared) -> None:
        """Stop holding ``running``: its ticker and its rooms here stop."""

    def open_table(self, running: Shared, number: int, table_id: int) -> None:
        """Open the room of ``running``'s table ``number`` (``table_id``) here."""

    def persist(self, c: Connection, running: Shared, commands: list[Command], tnow: float) -> None:
        """Write ``commands``' money, places and the director's state in ``c``'s transaction."""


class Holding:
    """Which tournaments a process holds, for the service it works for: directing them (their
    leases, ``tournament_leases``) and serving their tables (each leased like a cash table),
    taken up from the database."""

    def __init__(self, holder: Holder) -> None:
        self.holder = holder
        self.live: list[str] = [holder.instance]
        """The live processes' instances, as last seen (``card_servers``)."""
        self._taking: dict[int, asyncio.Future[Shared]] = {}
        """The tournaments being taken up now (:meth:`take_up`), each once at a time."""

    async def keep_leases(self) -> None:
        while True:
            await asyncio.sleep(self.holder.ttl / 3)
            try:
                await self.sweep()
            except Exception:  # the next round tries again; why this one failed is logged
                log.exception("the tournaments' lease round failed")

    async def sweep(self) -> None:
        """Say this process is alive, renew its tournament leases, give up directing those
        lost, direct those free, and take the tournaments' tables given to it or left by a
        dead process (tournament_py)."""
        now = time.time()
        url, instance = self.holder.url, self.holder.instance

        def work() -> tuple[set[int], list[int]]:
            store = self.holder.store
            self.live = card_servers.beat(store, self.holder.instance, self.holder.url, self.holder.ttl, now)
            mine = leases.renew_tournament_leases(store, instance, until=now + self.holder.ttl)
            candidates = leases.free_tournaments(store, PLAYING, owner=url, instance=instance, now=now)
            return mine, [t for t in candidates if self._take_lease(t, now)]

        # Not one made while the round ran: it is not in ``mine``.
        directed = {tid for tid, r in self.holder.running.items() if r.directing}
        mine, taken = await asyncio.to_thread(work)
        for tid in directed - mine - set(taken):
            running = self.holder.running.get(tid)
            if running is not None:  # another process directs it now: its tables here play on
                running.directing = False
        for tid in sorted(mine | set(taken)):
            running = self.holder.running.get(tid)
            if running is None:
                await self.take_up(tid)
            elif not running.directing:
                running.directing = True  # served here already: its clock is kept here now
                running.version = -1  # (taken up from the database at the next tick)
                running.changed.set()  # (which comes at once)
        await self._take_tables()

    def _take_lease(self, tid: int, now: float) -> bool:
        holder = self.holder
        who = {"owner": holder.url, "instance": holder.instance}
        return take_lease(holder.store, TournamentLease, tid, **who, until=now + holder.ttl, now=now)

    async def take_up(self, tid: int, *, directing: bool = True) -> Shared:
        """Hold tournament ``tid`` from what the database holds: to direct it (``directing``:
        its clock paused while nobody directed it, as after a crash), or only to serve some of
        its tables (taken up live, as stored). Its tables come with the table sweep
        (:meth:`_take_tables`): each is recovered there, its cut-off hand told to the director.

        One at a time for a tournament: a call while it is being taken up already waits for that
        one and answers the same copy. Two taken up side by side (a failed write's recovery, and
        the lease round finding it not held at that moment) left two copies held, each syncing
        the tables: table numbers made twice, two rooms opened for one table."""
        return await self._once(tid, lambda: self._take_up(tid, directing))

    async def _once(self, tid: int, take: Callable[[], Awaitable[Shared]]) -> Shared:
        """``take()``'s copy of tournament ``tid``, or, while another is being taken, that one."""
        pending = self._taking.get(tid)
        if pending is not None:
            return await asyncio.shield(pending)
        taking = self._taking[tid] = asyncio.get_running_loop().create_future()
        try:
            running = await take()
        except BaseException as error:
            taking.set_exception(error)
            taking.exception()  # (retrieved: a waiter, if any, raises it too)
            raise
        finally:
            del self._taking[tid]
        taking.set_result(running)
        return running

    async def _take_up(self, tid: int, directing: bool) -> Shared:
        def load() -> Shared:
            with self.holder.store.session() as s:
                row = s.get(TournamentRow, tid)
                assert row is not None and row.director is not None
                tables = tournament_tables.tables_of(s, tid)
                closed = tournament_tables.closed_tables(s, tables.values())
                entries = tournament_entries.entries_of(s, tid)
                record, speed, origin, name = row.director, row.speed, row.created_at, row.name
                version = row.version
                people = {e.name: e.player_id for e in entries}
                kinds = {e.name: e.bot_kind or "rule" for e in entries if e.player_id is None}
                open_tables = {n: t for n, t in tables.items() if t not in closed}
                wall = time.time()
                probe = Running(tid, name, Director(TournamentSettings()), speed, origin)
                at = probe.now(wall) if directing else float(record["saved_at"])
                director = director_of(s, tid, record, at)
            return Shared(
                tid,
                name,
                director,
                speed,
                origin,
                tables=open_tables,
                people=people,
                bot_kinds=kinds,
                version=version,
                directing=directing,
            )

        running = await asyncio.to_thread(load)
        self.holder.adopt(running)
        return running

    async def _take_tables(self) -> None:
        """Take the tournaments' tables given to this process, or left by a dead one: each
        recovered (its cut-off hand cancelled and refunded, told to the director) and opened."""
        now = time.time()
        here = {r.tables[n] for r in self.holder.running.values() for n in r.rooms}
        found = await asyncio.to_thread(
            tables_to_take, self.holder.store, self.holder.instance, self.holder.url, self.live, now, here
        )
        for tid, number, table_id in found:
            running = self.holder.running.get(tid)
            # Asked again after each wait: never recovered under a room that plays it, never
            # opened twice.
            if self._opened_here(running, number, table_id):
                continue
            if not await asyncio.to_thread(self.holder.take_table, table_id):
                continue  # another process was quicker
            if running is None:
                running = await self.take_up(tid, directing=False)
            if self._opened_here(running, number, table_id):
                continue
            await asyncio.to_thread(self._take_over, running, number, table_id)
            if self._opened_here(running, number, table_id):
                continue
            running.tables[number] = table_id
            self.holder.open_table(running, number, table_id)
            running.changed.set()

    def _opened_here(self, running: Shared | None, number: int, table_id: int) -> bool:
        """Whether table ``number`` (``table_id``) of ``running`` is opened or being made here
        (a new table the sync makes, a table a recovery takes), or a live room serves it here
        (its lease ran out while the loop was busy: still this process's in the database, and
        renewed at the next round)."""
        if running is not None and (number in running.rooms or number in running.opening):
            return True
        return self.holder.serves(table_id)

    def _take_over(self, running: Shared, number: int, table_id: int) -> None:
        recover(self.holder.store, [table_id])
        with running.lock:
            with self.holder.store.begin() as c:
                bring_up_to_date(c, running)
                d, tnow = running.director, running.now()
                seats = d.tables.get(number)
                if seats is None or not seats.in_hand:
                    return
                cancelled = d.hand_cancelled(number, tnow)
                self.holder.persist(c, running, cancelled, tnow)
            running.told += cancelled

    async def recover(self, running: Shared) -> None:
        """A write failed: every room of the tournament here stops, and it is taken up again
        from the database (its cut-off hands cancelled), as after a crash."""
        served = {n: running.tables[n] for n in running.rooms}

        async def again_() -> Shared:
            # Dropped and taken up as one: no lease round takes it up in between.
            await self.holder.drop(running)
            return await self._take_up(running.id, running.directing)

        again = await self._once(running.id, again_)
        for number, table_id in sorted(served.items()):
            if await asyncio.to_thread(self.holder.take_table, table_id):  # (held here still)
                await asyncio.to_thread(self._take_over, again, number, table_id)
                again.tables[number] = table_id
                self.holder.open_table(again, number, table_id)
        again.changed.set()
