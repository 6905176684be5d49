"""The tables of the card room: one keeper (the chips and the database) and one asyncio actor
per table.

:class:`TableKeeper` is synchronous: it owns a :class:`sevenstud.table.Table`, applies one
command to it and writes what the command caused in one database transaction: the stream's
entries (as a spectator sees them), the hand's record, and a ledger transfer for every chip that
moved (buy-in, ante, bet, bet returned, award, rake, leaving). The chips moved inside a hand are
read from the stacks before and after the command, so the ledger follows the engine whatever its
events are called. :class:`Room` is the actor: it owns the keeper, takes commands from a queue,
keeps the clock (time-outs after a small grace), pauses after each hand, plays the bots' turns,
and sends every watcher the entries it may see (``events_since(n, viewer)``).

:func:`recover` runs at start: a hand still ``playing`` in the database was cut off by a crash;
it is cancelled and every chip put into it goes back to its seat, then every seat stands up with
its stack back to its owner's balance (bots' chips back to the bank).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import time
import typing
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from sevenstud.bots import RuleBot
from sevenstud.cards import Deck
from sevenstud.hand import Hand, HandEnded, RakeTaken
from sevenstud.server.store import Store, ledger
from sevenstud.server.store.models import EventRow, HandRow, Player, Sitting, TableRow
from sevenstud.table import Entry, HandStarted, SatDown, StoodUp, Table, TableError, TableSettings, ToppedUp
from sevenstud.wire import game_to_wire, hand_to_record, to_wire

BOT_PREFIX = "bot"
"""Bots at a table are named ``bot<seat>``; people's names may not start so."""


class RoomError(ValueError):
    """A command the room refuses (not enough chips, no such table): nothing changed."""


def event_payload(event: object) -> dict[str, Any]:
    """The JSON-ready form of a stream entry's event: the wire format's for hand events, the
    fields with a ``type`` tag for the table's own."""
    if dataclasses.is_dataclass(event) and not isinstance(event, type):
        name = type(event).__name__
        tag = "".join("_" + c.lower() if c.isupper() else c for c in name).lstrip("_")
        return {"type": tag, **dataclasses.asdict(event)}
    return to_wire(typing.cast(Any, event))


def entry_payload(entry: Entry, number: int) -> dict[str, Any]:
    """A stream entry as sent and stored: its number (per table), time, hand and event."""
    return {
        "number": number,
        "at": entry.at,
        "hand": entry.hand,
        "seats": list(entry.seats),
        "event": event_payload(entry.event),
    }


def _current_hand(table: Table) -> Hand | None:
    # The table keeps the hand private; the keeper needs it only to store its record (every
    # card: never sent). A public accessor on Table would be better (see the server's report).
    record = getattr(table, "_record", None)
    return None if record is None else typing.cast(Hand, record.hand)


@dataclasses.dataclass(slots=True)
class _Occupant:
    sitting_id: int
    player_id: int | None  # None: a bot
    bot: RuleBot | None


class TableKeeper:
    """One table's chips and records: every command in one transaction (see the module)."""

    def __init__(self, store: Store, table_id: int, settings: TableSettings) -> None:
        self.store = store
        self.table_id = table_id
        self.table = Table(settings)
        self.occupants: dict[str, _Occupant] = {}
        self._hand: Hand | None = None
        self._hand_row: int | None = None
        self._hand_sittings: dict[int, int] = {}  # table seat -> sitting, for the hand in progress
        with store.session() as s:
            # Numbers go on from the stored ones after a restart (the Table counts from 1).
            self.hand_offset = int(
                s.scalar(select(func.max(HandRow.number)).where(HandRow.table_id == table_id)) or 0
            )
            self.number_offset = int(
                s.scalar(select(func.max(EventRow.number)).where(EventRow.table_id == table_id)) or 0
            )

    @property
    def number(self) -> int:
        """The table's last stream number as clients count it."""
        return self.number_offset + self.table.number

    # ------------------------------------------------------------------ commands

    def sit_down(
        self, name: str, seat: int, buy_in: int, now: float, player_id: int | None = None
    ) -> list[Entry]:
        """Seat a person (``player_id``) or a bot (None) with a buy-in from their balance."""
        if player_id is None and not name.startswith(BOT_PREFIX):
            raise RoomError(f"a bot's name starts with {BOT_PREFIX!r}")
        if player_id is not None:
            with self.store.session() as s:
                player = s.get(Player, player_id)
                if player is None:
                    raise RoomError(f"no account {player_id}")
                if player.balance < buy_in:
                    raise RoomError(f"a buy-in of {buy_in} is more than your balance of {player.balance}")
        bot = RuleBot(seed=None, name=name) if player_id is None else None
        return self._apply(
            lambda: [self.table.sit_down(name, seat, buy_in, now)], now, {name: (player_id, bot)}
        )

    def top_up(self, name: str, amount: int, now: float) -> list[Entry]:
        """Add chips from the player's balance."""
        occupant = self.occupants.get(name)
        if occupant is not None and occupant.player_id is not None:
            with self.store.session() as s:
                player = s.get(Player, occupant.player_id)
                if player is None or player.balance < amount:
                    raise RoomError(f"a top-up of {amount} is more than your balance")
        return self._apply(lambda: [self.table.top_up(name, amount, now)], now)

    def leave(self, name: str, now: float) -> list[Entry]:
        """Stand up (at the end of the hand when dealt in); the stack goes back to the balance."""
        return self._apply(lambda: [self.table.leave(name, now)], now)

    def sit_out(self, name: str, now: float) -> list[Entry]:
        """Not dealt in from the next hand."""
        return self._apply(lambda: [self.table.sit_out(name, now)], now)

    def sit_in(self, name: str, now: float) -> list[Entry]:
        """Dealt in again from the next hand."""
        return self._apply(lambda: [self.table.sit_in(name, now)], now)

    def start_hand(self, now: float, deck: Deck | None = None) -> list[Entry]:
        """Deal a hand from ``deck`` (by default one shuffled with the OS's secure randomness)."""
        return self._apply(
            lambda: self.table.start_hand(now, deck if deck is not None else Deck.shuffled()), now
        )

    def act(self, seat: int, action: str | Any, now: float) -> list[Entry]:
        """The seat to act acts."""
        return self._apply(lambda: self.table.act(seat, action, now), now)

    def time_out(self, seat: int, now: float) -> list[Entry]:
        """The seat to act ran out of time."""
        return self._apply(lambda: self.table.time_out(seat, now), now)

    # ------------------------------------------------------------------ recording

    def _stacks(self) -> dict[int, tuple[str, int]]:
        return {s.seat: (s.player, s.stack) for s in self.table.view(None).seats}

    def _apply(
        self,
        command: Callable[[], list[Entry]],
        now: float,
        joining: dict[str, tuple[int | None, RuleBot | None]] | None = None,
    ) -> list[Entry]:
        table = self.table
        before = self._stacks()
        start = table.number
        command()  # a TableError changes nothing, and nothing is written
        entries = list(table.events_since(start, None))
        # Should this write fail, the table has moved on and its record has not: the room stops
        # the table, and the recovery at the next start cancels the hand and refunds it.
        with self.store.session() as s, s.begin():
            self._record(s, entries, before, joining or {}, now)
        return entries

    def _record(
        self,
        s: Session,
        entries: list[Entry],
        before: dict[int, tuple[str, int]],
        joining: dict[str, tuple[int | None, RuleBot | None]],
        now: float,
    ) -> None:
        after = self._stacks()
        bank = ledger.account(s, ledger.BANK)
        last_event: int | None = None
        hand_moved = False
        for entry in entries:
            payload = entry_payload(entry, self.number_offset + entry.number)
            hand_id = self._hand_row if entry.hand is not None else None
            event = entry.event
            if isinstance(event, HandStarted):
                hand = _current_hand(self.table)
                assert hand is not None
                self._hand = hand
                sittings = [self.occupants[p].sitting_id for p in event.players]
                self._hand_sittings = dict(zip(event.seats, sittings, strict=True))
                row = HandRow(
                    table_id=self.table_id,
                    number=self.hand_offset + event.hand,
                    status="playing",
                    sittings=sittings,
                    record=hand_to_record(hand),
                    started_at=now,
                )
                s.add(row)
                s.flush()
                self._hand_row = hand_id = row.id
                # Every seat dealt in starts the hand at its stack before the antes.
                for seat, stack in zip(event.seats, event.stacks, strict=True):
                    before[seat] = (before[seat][0], stack)
            row_event = EventRow(
                table_id=self.table_id,
                number=payload["number"],
                hand_id=hand_id,
                type=payload["event"]["type"],
                payload=payload,
                at=entry.at,
            )
            s.add(row_event)
            s.flush()
            last_event = row_event.id
            if isinstance(event, SatDown):
                player_id, bot = joining[event.player]
                sitting = Sitting(
                    table_id=self.table_id,
                    seat=event.seat,
                    player_id=player_id,
                    bot=event.player if bot is not None else None,
                    name=event.player,
                    stack=event.buy_in,
                )
                s.add(sitting)
                s.flush()
                self.occupants[event.player] = _Occupant(sitting.id, player_id, bot)
                source = self._balance_account(s, player_id, bank, -event.buy_in)
                ledger.transfer(
                    s,
                    source,
                    ledger.account(s, ledger.SEAT, sitting.id),
                    event.buy_in,
                    "buy-in",
                    event_id=last_event,
                )
            elif isinstance(event, ToppedUp):
                occupant = self.occupants[event.player]
                source = self._balance_account(s, occupant.player_id, bank, -event.amount)
                target = ledger.account(s, ledger.SEAT, occupant.sitting_id)
                ledger.transfer(s, source, target, event.amount, "top-up", event_id=last_event)
            elif isinstance(event, StoodUp):
                if not hand_moved:
                    self._hand_chips(s, before, after, entries, last_event)
                    hand_moved = True
                leaver = self.occupants.pop(event.player)
                if event.stack:
                    target = self._balance_account(s, leaver.player_id, bank, event.stack)
                    seat_account = ledger.account(s, ledger.SEAT, leaver.sitting_id)
                    ledger.transfer(s, seat_account, target, event.stack, "leaving", event_id=last_event)
                sitting_row = s.get(Sitting, leaver.sitting_id)
                assert sitting_row is not None
                sitting_row.stack, sitting_row.open = 0, False
        if not hand_moved:
            self._hand_chips(s, before, after, entries, last_event)
        for name, stack in after.values():
            seated = self.occupants.get(name)
            if seated is not None:
                sitting_row = s.get(Sitting, seated.sitting_id)
                assert sitting_row is not None
                sitting_row.stack = stack

    def _balance_account(self, s: Session, player_id: int | None, bank: int, change: int) -> int:
        """The account a seat's chips come from or go to; the cached balance follows."""
        if player_id is None:
            return bank
        player = s.get(Player, player_id)
        assert player is not None
        if player.balance + change < 0:
            raise RoomError(f"{player.name} has {player.balance} chips, not {-change}")
        player.balance += change
        return ledger.account(s, ledger.BALANCE, player_id)

    def _hand_chips(
        self,
        s: Session,
        before: dict[int, tuple[str, int]],
        after: dict[int, tuple[str, int]],
        entries: list[Entry],
        event_id: int | None,
    ) -> None:
        """The chips that went into or out of the hand's pot during this command."""
        hand_row = self._hand_row
        if hand_row is None or not self._hand_sittings:
            return
        pot = ledger.account(s, ledger.POT, hand_row)
        stood = {e.event.seat: e.event.stack for e in entries if isinstance(e.event, StoodUp)}
        for seat, sitting in self._hand_sittings.items():
            old = before[seat][1]
            new = stood[seat] if seat in stood else after[seat][1]
            seat_account = ledger.account(s, ledger.SEAT, sitting)
            if new < old:
                ledger.transfer(
                    s, seat_account, pot, old - new, "into pot", event_id=event_id, hand_id=hand_row
                )
            elif new > old:
                ledger.transfer(
                    s, pot, seat_account, new - old, "from pot", event_id=event_id, hand_id=hand_row
                )
        hand = self._hand
        assert hand is not None
        row = s.get(HandRow, hand_row)
        assert row is not None
        row.record = hand_to_record(hand)
        if any(isinstance(e.event, HandEnded) for e in entries):
            rake = sum(e.event.amount for e in entries if isinstance(e.event, RakeTaken))
            left = ledger.balance_of(s, pot)
            if left != rake:
                raise RoomError(f"hand {row.number}: {left} chips left in the pot, but the rake was {rake}")
            if rake:
                house = ledger.account(s, ledger.HOUSE)
                ledger.transfer(s, pot, house, rake, "rake", event_id=event_id, hand_id=hand_row)
            row.status, row.ended_at = "finished", entries[-1].at
            row.result = {"stacks": list(hand.stacks), "rake": hand.rake}
            self._hand, self._hand_row, self._hand_sittings = None, None, {}


def create_table(store: Store, name: str, settings: TableSettings) -> int:
    """Store a new table (its game and house settings); returns its id."""
    fields = {f.name: getattr(settings, f.name) for f in dataclasses.fields(settings) if f.name != "game"}
    with store.session() as s, s.begin():
        row = TableRow(name=name, game=game_to_wire(settings.game), settings=fields, created_at=time.time())
        s.add(row)
        s.flush()
        return row.id


def recover(store: Store) -> int:
    """Cancel every hand a crash cut off, refunding every chip put into it, and stand every
    seat up with its stack back to its owner; returns the number of hands cancelled."""
    cancelled = 0
    with store.session() as s, s.begin():
        bank = ledger.account(s, ledger.BANK)
        for row in s.scalars(select(HandRow).where(HandRow.status == "playing")).all():
            pot = ledger.account(s, ledger.POT, row.id)
            for other, put_in in ledger.net_by_counterpart(s, pot).items():
                if put_in > 0:
                    ledger.transfer(s, pot, other, put_in, "refund", hand_id=row.id)
            row.status, row.ended_at = "cancelled", time.time()
            cancelled += 1
        for sitting in s.scalars(select(Sitting).where(Sitting.open.is_(True))).all():
            seat_account = ledger.account(s, ledger.SEAT, sitting.id)
            stack = ledger.balance_of(s, seat_account)
            if stack:
                if sitting.player_id is None:
                    target = bank
                else:
                    player = s.get(Player, sitting.player_id)
                    assert player is not None
                    player.balance += stack
                    target = ledger.account(s, ledger.BALANCE, sitting.player_id)
                ledger.transfer(s, seat_account, target, stack, "leaving")
            sitting.stack, sitting.open = 0, False
    return cancelled


Send = Callable[[dict[str, Any]], Awaitable[None]]


@dataclasses.dataclass(slots=True)
class Watcher:
    """A connection at a table: the seat it sees for (None: a spectator), how to send to it,
    and the last stream number it was sent (the table's own count)."""

    seat: int | None
    send: Send
    last: int


class Room:
    """The actor of one table: see the module. ``clock`` gives the time (seconds)."""

    def __init__(
        self,
        keeper: TableKeeper,
        *,
        clock: Callable[[], float] = time.time,
        grace: float = 1.0,
        pause: float = 3.0,
        bot_delay: float = 0.0,
    ) -> None:
        self.keeper = keeper
        self.clock = clock
        self.grace = grace
        self.pause = pause
        self.bot_delay = bot_delay
        self.queue: asyncio.Queue[tuple[Callable[[float], object], asyncio.Future[object]]] = asyncio.Queue()
        self.watchers: dict[int, Watcher] = {}
        self._now = 0.0
        self._next_hand = 0.0
        self._task: asyncio.Task[None] | None = None
        self.hands_played = 0

    def now(self) -> float:
        """The time as the table is told it: never going backwards."""
        self._now = max(self._now, self.clock())
        return self._now

    def start(self) -> None:
        """Start the actor's task."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """Stop the actor (the hand in progress stays ``playing``: the next start refunds it)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def submit(self, command: Callable[[float], object]) -> object:
        """Run ``command(now)`` on the actor and return its result (or raise its error)."""
        future: asyncio.Future[object] = asyncio.get_running_loop().create_future()
        await self.queue.put((command, future))
        return await future

    def watch(self, key: int, seat: int | None, send: Send, last: int = 0) -> None:
        """Add a connection; it is sent what it missed after ``last`` at the next update."""
        self.watchers[key] = Watcher(seat, send, last)

    def unwatch(self, key: int) -> None:
        """Drop a connection (its seat's clock runs on: a time-out plays for it)."""
        self.watchers.pop(key, None)

    def _due(self) -> float | None:
        table = self.keeper.table
        deadline = table.deadline
        if deadline is not None:
            to_act = table.to_act
            name = table.player_at(to_act) if to_act is not None else None
            occupant = self.keeper.occupants.get(name) if name is not None else None
            if occupant is not None and occupant.bot is not None:
                return self._turn_start + self.bot_delay
            return deadline + self.grace
        if table.can_start_hand():
            return self._next_hand
        return None

    _turn_start = 0.0

    async def _run(self) -> None:
        while True:
            due = self._due()
            wait = None if due is None else max(0.0, due - self.clock())
            try:
                command, future = await asyncio.wait_for(self.queue.get(), wait)
            except TimeoutError:
                self._changed(self._tick)
            else:
                try:
                    result = self._changed(functools.partial(self._apply_command, command))
                except (TableError, RoomError) as error:
                    future.set_exception(error)
                else:
                    future.set_result(result)
            await self._send()

    def _apply_command(self, command: Callable[[float], object]) -> object:
        return command(self.now())

    def _changed(self, step: Callable[[], object]) -> object:
        """Run one step; a new turn restarts the bots' delay, a hand ended starts the pause."""
        table = self.keeper.table
        in_hand, to_act = table.hand_in_progress, table.to_act
        result = step()
        now = self.now()
        if table.to_act != to_act or table.hand_in_progress != in_hand:
            self._turn_start = now
        if in_hand and not table.hand_in_progress:
            self.hands_played += 1
            self._next_hand = now + self.pause
        return result

    def _tick(self) -> None:
        """What the clock brings: a bot's turn, a time-out, the next hand."""
        keeper, table = self.keeper, self.keeper.table
        now = self.now()
        to_act = table.to_act
        if to_act is not None:
            name = table.player_at(to_act)
            occupant = keeper.occupants.get(name) if name is not None else None
            if occupant is not None and occupant.bot is not None:
                view = table.view(to_act).hand
                assert view is not None
                keeper.act(to_act, occupant.bot.act(view), now)
            elif table.deadline is not None and now >= table.deadline:
                keeper.time_out(to_act, now)
        elif table.can_start_hand() and now >= self._next_hand:
            keeper.start_hand(now)
            if not table.hand_in_progress:  # over at once (everybody all-in on the antes)
                self.hands_played += 1
                self._next_hand = now + self.pause

    async def _send(self) -> None:
        table = self.keeper.table
        for key, watcher in list(self.watchers.items()):
            if watcher.last >= table.number:
                continue
            entries = table.events_since(watcher.last, watcher.seat)
            watcher.last = table.number
            for entry in entries:
                try:
                    await watcher.send(entry_payload(entry, self.keeper.number_offset + entry.number))
                except Exception:  # a connection that went away is dropped, never the table
                    self.watchers.pop(key, None)
                    break
