"""Tables shared out among several server processes on one database: a lease per table.

Each open table is served by one process at a time: the one holding its row in
``table_leases`` (:class:`~sevenstud.server.store.models.TableLease`) until ``expires_at``. A
:class:`LeaseKeeper` runs in every process. Every ``ttl / 3`` seconds it renews the leases it
holds (one statement for all of them), takes every lease that expired or that nobody holds, and
refreshes its view of who serves the others, so that the lobby can tell a client where a table is.

A table taken over is the one a dead process left: before its room opens here, its hand in
progress is cancelled and refunded and its seats stood up with their stacks back to their owners
(:func:`sevenstud.server.tables.recovery.recover` for that table alone), as a card room does when a
dealer's table breaks. A process restarted at the same public address takes its own leases back
at once (the address names the server; two live processes never share one), so a single server
killed and started again recovers without waiting for its leases to run out.

A process that cannot renew (the database unreachable, the loop too busy) stops its rooms before
its leases run out, so that two processes never write one table. Times are the processes' own
clocks: several machines need them synchronized (NTP) to well within ``ttl``.

On SQLite one process serves everything: the leases work the same way, but SQLite is a file on
one machine, and the card room is meant to scale on PostgreSQL (docs/cardroom.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from sevenstud.server.store import Store, leases
from sevenstud.server.store.models import TableLease, TableRow
from sevenstud.server.tables.recovery import recover

log = logging.getLogger(__name__)

LEASE_SECONDS = 10.0
"""How long a lease lasts unrenewed: a dead process's tables wait at most this long."""


class LeaseError(ValueError):
    """A lease keeper set up wrongly (a public address that is not http(s)://, a bad ttl)."""


@dataclass(slots=True)
class Sweep:
    """What one round of the keeper found: the tables it still holds, those it lost to another
    process, those it took (their rows, already recovered) and who serves the others."""

    held: set[int] = field(default_factory=set)
    lost: set[int] = field(default_factory=set)
    taken: list[TableRow] = field(default_factory=list)
    cancelled: int = 0
    others: dict[int, tuple[str, dict[str, Any] | None]] = field(default_factory=dict)
    tournament: set[int] = field(default_factory=set)


def check_public_url(url: str) -> str:
    """The public address, checked: ``http://host:port`` or ``https://...``, no trailing slash."""
    if not isinstance(url, str) or not url.startswith(("http://", "https://")) or len(url) > 200:
        raise LeaseError(f"a public address is http://host:port or https://..., not {url!r}")
    return url.rstrip("/")


class LeaseKeeper:
    """One process's leases: see the module. ``open_room(row)`` starts serving a table just
    taken (and recovered); ``close_room(table_id)`` stops serving one; ``summary(table_id)``
    is the table's lobby line, shown by the other processes; ``serving(table_id)`` says
    whether a held table has a live room here: one that has none two rounds running (its room
    stopped after a failed write, or never reopened) is given up, to be taken and recovered
    like a dead process's, instead of being renewed with nobody serving it."""

    def __init__(
        self,
        store: Store,
        url: str,
        *,
        open_room: Callable[[TableRow], object],
        close_room: Callable[[int], Awaitable[None]],
        summary: Callable[[int], dict[str, Any]] | None = None,
        serving: Callable[[int], bool] | None = None,
        ttl: float = LEASE_SECONDS,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if not ttl > 0:
            raise LeaseError(f"a lease lasts a positive number of seconds, not {ttl!r}")
        self.store = store
        self.url = check_public_url(url)
        self.instance = secrets.token_hex(8)
        self.ttl = ttl
        self.clock = clock
        self.open_room = open_room
        self.close_room = close_room
        self.summary = summary
        self.serving = serving
        """Whether a table held here has a room serving it (None: not asked)."""
        self._unserved: set[int] = set()  # held, and served by no room at the last round
        self.held: dict[int, float] = {}  # table -> when its lease runs out, as last written
        self.others: dict[int, tuple[str, dict[str, Any] | None]] = {}
        self.tournament_tables: set[int] = set()
        """Those of ``others`` that are a tournament's (in its own lobby, not the tables')."""
        self._shown: dict[int, dict[str, Any]] = {}  # the summaries last written
        self.renewed_at: float | None = None
        """When a round last renewed this process's leases (None: none has yet): a process
        whose renewals stopped a lease's time ago may have lost its tables to another."""
        self._task: asyncio.Task[None] | None = None
        # The rounds' own thread: on PostgreSQL every table's write runs in the loop's default
        # threads, and a round queued behind hundreds of them renewed too late (leases of a
        # live, busy process ran out and were taken over under a 3,000-entrant tournament).
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="leases")

    # ------------------------------------------------------------------ the lobby's questions

    def server_of(self, table_id: int) -> str | None:
        """The public address of the process serving ``table_id`` (None: nobody, as far as the
        last round saw)."""
        if table_id in self.held:
            return self.url
        other = self.others.get(table_id)
        return None if other is None else other[0]

    def lobby(self) -> list[dict[str, Any]]:
        """The other processes' tables, as their owners last described them, with their address."""
        return [
            {"id": table_id, **(summary or {}), "server": owner}
            for table_id, (owner, summary) in sorted(self.others.items())
            if table_id not in self.tournament_tables
        ]

    # ------------------------------------------------------------------ the database

    def claim_new(self, table_id: int) -> bool:
        """Take the lease of a table this process just created; False when another process
        took it first (its sweep saw the table unleased): that process serves it then."""
        now = self.clock()
        until = now + self.ttl
        if not leases.claim_new_table(
            self.store, table_id, owner=self.url, instance=self.instance, until=until, now=now
        ):
            return False
        self.held[table_id] = now + self.ttl
        return True

    def _round(
        self,
        now: float,
        summaries: dict[int, dict[str, Any]],
        unserved: set[int] | None = None,
        held: set[int] | None = None,
    ) -> Sweep:
        """Give up the ``unserved`` tables, renew, take what is free, recover what was taken,
        and read who serves the rest (the database's part of a sweep: no asyncio object is
        touched, so it may run in a thread). ``held``: the tables held as the round began
        (default: as now); one of them not renewed is lost."""
        found = Sweep()
        held = set(self.held) if held is None else held
        for table_id in sorted(unserved or ()):
            leases.give_up_table_lease(self.store, table_id, self.instance)
        mine = leases.renew_table_leases(
            self.store, self.instance, until=now + self.ttl, now=now, summaries=summaries
        )
        found.held = mine
        # Lost: held as the round began and not renewed. Not ``self.held`` as it is now: a table
        # taken meanwhile (:meth:`take`, in a tournament's thread) after the renewal was not
        # lost, and closing its room just opened would leave it to be taken over and its hand
        # cancelled.
        found.lost = held - mine
        candidates = leases.free_tables(self.store, owner=self.url, instance=self.instance, now=now)
        taken = [t for t in candidates if self._take(t, now)]
        if taken:
            found.cancelled = recover(self.store, taken)
            found.taken = leases.tables_by_id(self.store, taken)
            found.held.update(taken)
        found.others, found.tournament = leases.served_elsewhere(self.store, self.instance, now)
        return found

    def _take(self, table_id: int, now: float) -> bool:
        """Take one free table's lease; False when another process was quicker."""
        return leases.take_lease(
            self.store,
            TableLease,
            table_id,
            owner=self.url,
            instance=self.instance,
            until=now + self.ttl,
            now=now,
            renewed_at=now,
        )

    def take(self, table_id: int) -> bool:
        """Take one table's lease now, if free (a tournament's director taking up its tables;
        they are not in the rounds' free tables: see :meth:`_round`)."""
        now = self.clock()
        if table_id in self.held or self._take(table_id, now):
            self.held[table_id] = now + self.ttl
            return True
        return False

    def release(self, table_id: int) -> None:
        """Give up one table's lease for good (the table was closed): its row goes, so no
        lobby lists it."""
        leases.drop_table_lease(self.store, table_id)
        self.held.pop(table_id, None)
        self._shown.pop(table_id, None)

    def release_all(self) -> None:
        """Give every lease up at once (a clean stop): another process may take them now."""
        leases.give_up_table_leases(self.store, self.instance)
        self.held.clear()

    # ------------------------------------------------------------------ the keeper's rounds

    async def sweep(self) -> Sweep:
        """One round: renew, take over, open and close rooms accordingly."""
        now = self.clock()
        # A copy: :meth:`take` adds to ``held`` from other threads (a tournament taking up its
        # tables), and iterating the dict itself while one did failed the round, unrenewed:
        # under a 10,000-entrant tournament, a live process's leases ran out and were taken over.
        held = set(self.held)
        unserved: set[int] = set()
        if self.serving is not None:
            idle = {t for t in held if not self.serving(t)}
            unserved = idle & self._unserved
            self._unserved = idle - unserved
            for table_id in unserved:
                await self._drop(table_id)
            held -= unserved
        summaries: dict[int, dict[str, Any]] = {}
        if self.summary is not None:
            for table_id in held:
                line = self.summary(table_id)
                if self._shown.get(table_id) != line:
                    summaries[table_id] = line
        try:
            found = await asyncio.get_running_loop().run_in_executor(
                self._thread, self._round, now, summaries, unserved, held
            )
        except Exception:
            # The database did not answer: rooms whose lease is about to run out stop now,
            # before another process may take their tables (the next round tries again).
            for table_id, until in list(self.held.items()):
                if until - self.clock() < self.ttl / 3:
                    await self._drop(table_id)
            raise
        self._shown.update(summaries)
        self.renewed_at = now
        for table_id in found.lost:
            await self._drop(table_id)
        for table_id in found.held:
            self.held[table_id] = now + self.ttl
        self.others = found.others
        self.tournament_tables = found.tournament
        for row in found.taken:
            self.open_room(row)
        return found

    async def _drop(self, table_id: int) -> None:
        self.held.pop(table_id, None)
        self._shown.pop(table_id, None)
        await self.close_room(table_id)

    async def start(self) -> Sweep:
        """The first round (the tables free now open at once), then a round every ``ttl / 3``."""
        first = await self.sweep()
        self._task = asyncio.get_running_loop().create_task(self._run())
        return first

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.ttl / 3)
            try:
                await self.sweep()
            except Exception:  # retried at the next round; why this one failed is logged
                log.exception("the tables' lease round failed")

    async def stop(self) -> None:
        """Stop the rounds, close every room, and give the leases up for another process."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        for table_id in list(self.held):
            await self.close_room(table_id)
        with contextlib.suppress(Exception):  # the leases run out by themselves anyway
            self.release_all()
        self._thread.shutdown(wait=False)
