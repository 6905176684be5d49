"""The tournament's cashier: every chip that comes into a tournament or goes out of it, through
the ledger (docs/tournaments.md, "The chips, through the ledger").

- An entry (a registration, a late entry, a re-entry) moves the buy-in from the player's balance
  into the prize pool (``tpool``) and the fee to the tournament's fees (``tfee``), and issues the
  starting chips from the tournament's chip bank (``tchips``) into its box (``tbox``);
  unregistering, or a cancelled tournament, moves each back.
- A prize moves from the pool to the player's balance (``persist``, in the transaction of the
  hand, the tick or the request that decides it).

Each request here changes the director and writes what it decided in one transaction; a
refusal, or a write that fails, leaves the director as it was stored.

While a tournament registers, its field is its entries' rows (``tournament_entries``, in the
order they registered), not the stored director: a registration or an unregistration writes its
row and its ledger moves and nothing else (storing the whole director each time made a loop of
them cost the room as much as its field was large: issue 36). The stored director of a
registering tournament holds no field (:func:`stored_record`); :func:`director_of` takes it up
with its entries registered again, in their order. What the tables do with
the chips (a seat funded from the box) is the direction's (:mod:`sevenstud.server.tournaments.service`).
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sevenstud.server.store import Connection, Session, Store, ledger, tournament_entries
from sevenstud.server.store.models import TournamentRow
from sevenstud.server.store.tournaments import read_director, write_director, write_head
from sevenstud.server.tables.keeper import BOT_PREFIX, RoomError, check_bot_kind
from sevenstud.server.tables.room import Room
from sevenstud.tournament import (
    AddChips,
    Command,
    Director,
    Finish,
    Refund,
    Status,
)
from sevenstud.tournament.settings import game_of as game_of  # the one tournament game
from sevenstud.tournament.snapshot import director_from_record, director_to_record

DEAL_SECONDS = 60.0
"""Seconds of the wall the players have to agree to an ICM deal once it is proposed; the bots
agree at once (docs/tournaments.md, "The ICM deal in the card room")."""


_SHORT = {
    "entry": "entry_over_balance",
    "rebuy": "rebuy_over_balance",
    "add_on": "add_on_over_balance",
}
"""What a balance too short to pay is told, by what it would pay for: the refusal's code
(:data:`sevenstud.refusals.SENTENCES`, whole sentences: a translation words each as it stands)."""


class Nudge:
    """A tournament's "something changed: make its tables follow" flag. Set, it calls its
    ``wake`` (the service's: a sync task started for the tournament when none runs, and its
    clock asked to tick), so that a tournament nothing happens to holds no task at all."""

    __slots__ = ("_set", "wake")

    def __init__(self) -> None:
        self._set = False
        self.wake: Callable[[], None] | None = None

    def set(self) -> None:
        """Mark it changed (on the event loop) and wake whoever follows it."""
        self._set = True
        if self.wake is not None:
            self.wake()

    def clear(self) -> None:
        """Mark it followed."""
        self._set = False

    def is_set(self) -> bool:
        """Whether a change waits to be followed."""
        return self._set


@dataclass(slots=True)
class Running:
    """One tournament directed by this process: its director, its tables and rooms."""

    id: int
    name: str
    director: Director
    speed: float
    origin: float
    """The moment (wall time) its clock is counted from: its time runs ``speed`` times the wall's."""
    lock: threading.RLock = field(default_factory=threading.RLock)
    tables: dict[int, int] = field(default_factory=dict)
    """Tournament table number -> card-room table id."""
    rooms: dict[int, Room] = field(default_factory=dict)
    people: dict[str, int | None] = field(default_factory=dict)
    """Entrant -> their account (None: a bot)."""
    bot_kinds: dict[str, str] = field(default_factory=dict)
    saved_at: float = 0.0
    broken: bool = False
    """A write failed: the tournament is taken up again from the database."""
    changed: Nudge = field(default_factory=Nudge)
    told: list[Command] = field(default_factory=list)
    """Commands decided and committed, still to be told to the players (websocket messages)."""
    tasks: list[asyncio.Task[None]] = field(default_factory=list)
    """Its tasks running now (a sync while there is one to make): none while nothing happens."""
    to_sync: set[int] = field(default_factory=set)
    """The tables its next sync makes follow the director: those its writes changed since (a
    hand's table, the tables of the players it moved), not every table of the field."""
    sync_all: bool = True
    """Its next sync looks at every table (the first, one after a director taken up again or a
    sync that failed, or a change of what every table's deal waits on)."""
    dealing_on: tuple[object, ...] = ()
    """What every table's deal waits on (:func:`dealing_on`), as the last write left it."""

    def note_changes(self, names: set[str], numbers: set[int]) -> None:
        """A write changed the entrants ``names`` and the tables ``numbers``: their tables
        follow at the next sync (every table, where what every deal waits on changed)."""
        d = self.director
        self.to_sync |= numbers
        entrants = d.entrants
        for name in names:
            entrant = entrants.get(name)
            if entrant is not None and entrant.table is not None:
                self.to_sync.add(entrant.table)
        now = dealing_on(d)
        if now != self.dealing_on:
            self.dealing_on = now
            self.sync_all = True

    def now(self, wall: float | None = None) -> float:
        """The tournament's time (its director's): the wall's, ``speed`` times as fast."""
        wall = time.time() if wall is None else wall
        return self.origin + (wall - self.origin) * self.speed


def dealing_on(d: Director) -> tuple[object, ...]:
    """What the director's answer to every table's ``may_deal`` hangs on besides the table
    itself: its state, pause, break, level, final table, tables breaking, deal and hand-for-hand
    round. When it changes every table is woken (a table whose own seats changed is anyway)."""
    return (
        d.state,
        d.paused,
        d.break_due,
        d.level_index,
        d.final_table_pending,
        frozenset(d.breaking),
        d.deal is None,
        d.hand_for_hand,
        d.hand_for_hand_round,
    )


class Cashier:
    """The chips of the tournaments a process directs: ``changed(running, commands)`` is told
    of every batch of commands committed (the direction syncs the tables and tells the players)."""

    def __init__(self, store: Store, changed: Callable[[Running, list[Command]], None]) -> None:
        self.store = store
        self.changed = changed

    def register(
        self, running: Running, player_id: int | None, name: str, bot_kind: str | None = None
    ) -> dict[str, Any]:
        """Enter ``name`` (an account's, or a bot's with ``bot_kind``): the entry price from the
        balance (a bot's from the bank), checked; the starting chips issued. Runs in the store's
        place (``store.run``)."""
        tid = running.id
        if player_id is None:
            check_bot_kind(bot_kind or "rule")
            if not name.startswith(BOT_PREFIX):
                raise RoomError("bot_name_prefix", prefix=repr(BOT_PREFIX))
        with running.lock:
            d = running.director
            registering = d.state == "registering"
            # Before the start a registration changes the field alone: a failed one is taken
            # back from it (no copy of a large field made for each).
            before = director_to_record(d, running.now()) if not registering else None
            tnow = running.now()
            added = False
            try:
                commands = d.register(name, tnow)
                added = True
                with self.store.begin() as c:
                    price, fee = d.settings.buy_in, d.settings.fee
                    source = self.pay(c, player_id, -(price + fee), running.id)
                    moves = []
                    if price:
                        moves.append(
                            ledger.Move(source, ledger.account(c, ledger.TPOOL, tid), price, "buy-in")
                        )
                    if fee:
                        moves.append(ledger.Move(source, ledger.account(c, ledger.TFEE, tid), fee, "fee"))
                    moves.append(_chips_moved(c, tid, d.settings.starting_chips, "issue"))
                    ledger.write_moves(c, moves)
                    found = tournament_entries.entry_named(c, tid, name)
                    if found is None:
                        tournament_entries.add_entry(
                            c,
                            tid,
                            name,
                            player_id=player_id,
                            bot_kind=bot_kind if player_id is None else None,
                            paid=price + fee,
                            registered_at=time.time(),
                        )
                    else:  # a re-entry, or registering again after unregistering
                        again = time.time() if registering else None
                        tournament_entries.enter_again(c, found, price + fee, again)
                    running.people[name] = player_id
                    if player_id is None:
                        running.bot_kinds[name] = bot_kind or "rule"
                    if registering and d.state == "registering":
                        self.persist_entry(c, running, commands, tnow)  # its row is the write
                    else:
                        self.persist(c, running, commands, tnow)
            except BaseException:
                if before is not None:
                    running.director = director_from_record(before, tnow)
                elif added and d.state == "registering":
                    d.unregister(name, tnow)  # (the field as it was: the last entrant taken off)
                elif added:  # a sit-and-go that filled and started: as stored, before it
                    running.director = self.load(tid, tnow)
                raise
        self.changed(running, commands)
        return {"registered": name, "entries": d.entries, "state": d.state}

    def load(self, tid: int, at: float) -> Director:
        """The director as last written (its field from its entries while it registers),
        taken up at ``at``."""
        with self.store.session() as s:
            row = s.get(TournamentRow, tid)
            assert row is not None and row.director is not None
            return director_of(s, tid, dict(row.director), at)

    def unregister(self, running: Running, name: str) -> dict[str, Any]:
        """Take back ``name``'s registration before the start: everything refunded."""
        tid = running.id
        with running.lock:
            d = running.director
            tnow = running.now()
            entrant = d.entrants.get(name)
            commands = d.unregister(name, tnow)  # (refused: nothing changed)
            try:
                with self.store.begin() as c:
                    self.persist_entry(c, running, commands, tnow)
                    tournament_entries.unregister_entry(c, tid, name)
            except BaseException:
                # Not written: the entrant back in their place in the field.
                assert entrant is not None
                d.register(name, tnow)
                _put_back(d, name, entrant.order)
                raise
        self.changed(running, commands)
        return {"unregistered": name, "entries": d.entries}

    def reenter(self, running: Running, player_id: int | None, name: str) -> dict[str, Any]:
        """``name`` busted and buys in again (a re-entry: the buy-in and fee from the balance,
        the starting chips at a new seat), where the template allows it now."""
        with running.lock:
            running.director.verify_re_entry(name)
            answer = self.register(running, player_id, name)
        return {"reentered": name, "entries": answer["entries"], "state": answer["state"]}

    def buy_chips(self, running: Running, player_id: int | None, name: str, kind: str) -> dict[str, Any]:
        """A rebuy (``kind`` ``rebuy``) or the add-on (``add_on``) for ``name``: the price from the
        balance into the prize pool and the chips issued into the box, in one transaction (the
        table tops the seat up from the box once it is between hands for them)."""
        tid = running.id
        with running.lock:
            d = running.director
            tnow = running.now()
            before = director_to_record(d, tnow)
            try:
                commands = d.rebuy(name, tnow) if kind == "rebuy" else d.add_on(name, tnow)
                added = next(c for c in commands if isinstance(c, AddChips))
                with self.store.begin() as c:
                    source = self.pay(c, player_id, -added.price, tid, kind)
                    if added.price:
                        pool = ledger.account(c, ledger.TPOOL, tid)
                        ledger.write_moves(
                            c, [ledger.Move(source, pool, added.price, kind.replace("_", "-"))]
                        )
                    tournament_entries.pay_in(c, tid, name, added.price)
                    self.persist(c, running, commands, tnow)
            except BaseException:
                running.director = director_from_record(before, tnow)
                raise
            chips = d.entrants[name].chips + d.entrants[name].owed
        self.changed(running, commands)
        return {kind: name, "chips": chips, "price": added.price, "prize_pool": d.pool}

    def deal(self, running: Running, name: str, answer: str) -> dict[str, Any]:
        """``name``'s word on the ICM deal: ``propose`` (the bots say yes at once; a person has
        :data:`DEAL_SECONDS` of the wall to answer), ``accept`` or ``decline``. Once everyone
        left has said yes the prizes left are paid by it, in the same transaction."""
        with running.lock:
            d = running.director
            tnow = running.now()
            before = director_to_record(d, tnow)
            try:
                if answer == "propose":
                    bots = {n for n in d.players_left() if running.people.get(n) is None}
                    seconds = DEAL_SECONDS * running.speed  # a person's time is the wall's
                    commands = d.propose_deal(name, tnow, seconds, accepting=bots)
                elif answer == "accept":
                    commands = d.accept_deal(name, tnow)
                else:
                    commands = d.decline_deal(name, tnow)
                with self.store.begin() as c:
                    self.persist(c, running, commands, tnow)
            except BaseException:
                running.director = director_from_record(before, tnow)
                raise
            talk = d.deal
            state = "done" if d.state == "finished" else "off" if talk is None else "open"
            waiting = sorted(set(d.players_left()) - talk.accepted) if talk is not None else []
        self.changed(running, commands)
        return {"deal": state, "waiting_for": waiting}

    def pay(self, c: Connection, player_id: int | None, change: int, tid: int, what: str = "entry") -> int:
        """The account an entrant pays from or is paid to (a bot's: the bank), its cached
        balance moved by ``change`` in one UPDATE that never takes it below zero."""
        if player_id is None:
            return ledger.account(c, ledger.BANK)
        try:
            ledger.move_balance(c, player_id, change)
        except ledger.ShortBalance as short:
            raise RoomError(_SHORT[what], amount=-change, balance=short.balance) from None
        return ledger.account(c, ledger.BALANCE, player_id)

    def persist_entry(self, c: Connection, running: Running, commands: list[Command], tnow: float) -> None:
        """Write a registration's or an unregistration's ``commands`` (a refund) before the
        start, in ``c``'s transaction: its entry's row is the field's record (the caller's),
        and the director is not stored (see the module)."""
        self._pay(c, running, commands)

    def persist(self, c: Connection, running: Running, commands: list[Command], tnow: float) -> None:
        """Write ``commands``' money and places and the director's state, in ``c``'s
        transaction (a hand's, a registration's, a tick's)."""
        tid, d = running.id, running.director
        state_values = self._pay(c, running, commands)
        if d.state == "registering":
            # (its field is the entries' rows: each entrant's part is written at the start)
            write_head(c, tid, stored_record(d, tnow), state=d.state, **state_values)
            running.sync_all = True
        else:
            # The head and what changed since the last write: a hand's few entrants and tables.
            # (the version this write makes where several processes share it: sharing.py's
            # Shared counts them, and raises it once this is written)
            version = int(getattr(running, "version", -1)) + 1
            names, numbers = write_director(c, tid, d, tnow, version, state=d.state, **state_values)
            running.note_changes(names, numbers)
        running.saved_at = time.time()

    def _pay(self, c: Connection, running: Running, commands: list[Command]) -> dict[str, Any]:
        """``commands``' money and places written in ``c``'s transaction; the tournament row's
        moments they set (its start, its end)."""
        tid, d = running.id, running.director
        s = d.settings
        moves: list[ledger.Move] = []
        state_values: dict[str, Any] = {}
        for command in commands:
            if isinstance(command, Finish):
                if command.prize:
                    target = self.pay(c, running.people.get(command.player), command.prize, tid)
                    moves.append(
                        ledger.Move(ledger.account(c, ledger.TPOOL, tid), target, command.prize, "prize")
                    )
                tournament_entries.finish_entry(c, tid, command.player, command.place, command.prize)
            elif isinstance(command, Refund):
                target = self.pay(c, running.people.get(command.player), command.amount, tid)
                if s.buy_in:
                    moves.append(
                        ledger.Move(ledger.account(c, ledger.TPOOL, tid), target, s.buy_in, "refund")
                    )
                if s.fee:
                    moves.append(
                        ledger.Move(ledger.account(c, ledger.TFEE, tid), target, s.fee, "refund fee")
                    )
                moves.append(_chips_moved(c, tid, s.starting_chips, "unissue"))
            elif isinstance(command, AddChips):
                moves.append(_chips_moved(c, tid, command.chips, "issue"))
            elif isinstance(command, Status):
                if command.state == "running" and d.level_index == 0:
                    state_values.setdefault("started_at", time.time())
                if command.state in ("finished", "cancelled"):
                    state_values["ended_at"] = time.time()
                if command.state == "cancelled":
                    tournament_entries.clear_places(c, tid)
        ledger.write_moves(c, moves)
        return state_values


def stored_record(d: Director, tnow: float) -> dict[str, Any]:
    """The record a director is stored as: the whole of it, but while it registers without
    its field (the entries' rows are that: see the module)."""
    record = director_to_record(d, tnow)
    if d.state == "registering":
        record.update(entrants=[], pool=0, entries=0, chips_issued=0)
    return record


def director_of(s: Connection | Session, tid: int, record: dict[str, Any], at: float) -> Director:
    """Tournament ``tid``'s director from its stored ``record``, taken up at ``at``: while it
    registers, its field is its registered entries' rows, entered again in their order (a
    record stored with a field, before the rows were the field, is taken without it)."""
    if record.get("state") != "registering":
        return read_director(s.connection() if isinstance(s, Session) else s, tid, record, at)
    d = director_from_record({**record, "entrants": [], "pool": 0, "entries": 0, "chips_issued": 0}, at)
    for name in tournament_entries.registered_names(s, tid):
        d.register(name, at)
    return d


def _put_back(d: Director, name: str, order: int) -> None:
    """Put ``name``, registered again last, back at ``order`` in a registering field."""
    entrants = list(d.entrants.values())
    entrant = entrants.pop()
    entrants.insert(order, entrant)
    d.entrants = {e.name: e for e in entrants}
    for number, e in enumerate(entrants):
        e.order = number


def _chips_moved(c: Connection, tid: int, chips: int, reason: str) -> ledger.Move:
    """Tournament ``tid``'s ``chips`` issued from its chip bank into its box (``issue``: an
    entry's starting chips, a rebuy's, the add-on's) or taken back out of it (``unissue``: a
    registration refunded)."""
    bank, box = ledger.account(c, ledger.TCHIPS, tid), ledger.account(c, ledger.TBOX, tid)
    if reason == "issue":
        return ledger.Move(bank, box, chips, reason)
    return ledger.Move(box, bank, chips, reason)
