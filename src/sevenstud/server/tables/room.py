"""The tables of the card room: one asyncio actor per table, owning its keeper.

:class:`Room` is the actor: it owns the table's :class:`~sevenstud.server.tables.keeper.TableKeeper`
(the chips and the database), takes commands from a queue, keeps the clock (time-outs after a
small grace), pauses after each hand, plays the bots' turns, keeps the waiting list
(:mod:`sevenstud.server.tables.waiting_list`), and sends
every watcher the entries it may see (``events_since(n, viewer)``), or a snapshot of the table
when those are no longer kept. The keeper's commands (and so every database write) run one at a
time per table, so the order of a table's writes holds, where the store says they run
(:meth:`~sevenstud.server.store.Store.run`, the one place that chooses): on PostgreSQL in a
worker thread, tables side by side, a slow answer never stalling the event loop; on SQLite on
the event loop itself (a local file with one writer at a time).

Every client message reaches the table through :meth:`Room.handle`, the one door: it is decided
on the actor, and what each connection is to be sent is put in that connection's bounded outbox
(:class:`~sevenstud.server.connection.Connection`), never waited on. What a connection sees is
worked out at each send from the player logged in on it and where that player sits then
(:meth:`Room.seat_of`).

A room is made of three parts: the actor here (the queue of commands, the clock, the pause
between hands, the bots' turns, who sits out too long), its fan-out to the connections
(:class:`~sevenstud.server.tables.fanout.FanOut`: the watchers, each one's redaction at each
send, their outboxes) and the building of what the table says
(:mod:`sevenstud.server.tables.messages`: the messages, the lobby's copy of the table).

The keeper and :func:`create_table` live in :mod:`sevenstud.server.tables.keeper`; they are imported
here too, so that ``from sevenstud.server.tables.room import TableKeeper`` keeps working.
:func:`~sevenstud.server.tables.recovery.recover` (run at start: a hand a crash cut off is cancelled
and refunded) lives in :mod:`sevenstud.server.tables.recovery`.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import random
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from sevenstud.server.connection import Connection
from sevenstud.server.limits import Limits
from sevenstud.server.protocol import (
    GRACE_SECONDS,
    Act,
    AddBot,
    Chat,
    ClientMessage,
    Hello,
    Leave,
    Outgoing,
    RemoveBot,
    Sit,
    SitIn,
    SitOut,
    Snapshot,
    TableClosed,
    TablePaused,
    TopUp,
    Unwait,
    ViewMessage,
    Wait,
)
from sevenstud.server.tables.chat import ChatDesk, TableChat
from sevenstud.server.tables.fanout import FanOut, Watcher
from sevenstud.server.tables.keeper import (
    BOT_KINDS,
    BOT_PREFIX,
    RECENT_HANDS,
    LeaseLost,
    RoomError,
    TableKeeper,
    create_table,
    event_payload,
)
from sevenstud.server.tables.messages import CLOSED_WHY, LobbyCopy, TableMessages, table_closed, turn_number
from sevenstud.server.tables.presenter import Presenter
from sevenstud.server.tables.waiting_list import OFFER_SECONDS, WaitingList
from sevenstud.table import TableError

log = logging.getLogger(__name__)

__all__ = [
    "BOT_KINDS",
    "BOT_PREFIX",
    "BOT_THINK",
    "CLOSED_WHY",
    "NO_THINK",
    "RECENT_HANDS",
    "ClockShare",
    "Room",
    "RoomError",
    "TableKeeper",
    "Watcher",
    "create_table",
    "event_payload",
    "table_closed",
    "think_range",
]

COMMANDS_BEFORE_CLOCK = 20
"""The most commands a table takes while its clock (a deal, a time-out, a bot's turn) is due:
then the clock's step comes first. As many as one client may send in a second: the hellos
and sit-downs of a table's arrival (about ten) never wait for a deal, and no client's allowance
holds the clock up for long."""


class ClockShare:
    """The event loop shared between the tables' steps and everything else (a person's
    message, a socket to write, a page): the tables take turns, one step at a time, and each
    step hands the turn to the next table waiting in the loop's next round, so that what else
    is ready (a person's action read, applied, written: three or four rounds) runs between any
    two steps. A step is a table's clock (bots' turns, a deal, a time-out) or a command that no
    person is waiting on (a tournament's moves, a house table's bots); a person's own message
    goes at once. The tables that someone watches take their turns before the tables of bots
    alone (a bot does not mind waiting), but never two in a row while a bots' table waits:
    watched tables of bots that act at once (a spectator's, a test's) would otherwise starve
    every other table. On the event loop only.

    Tables of bots acting at once have a step always due (issue 35: 125 of them in a
    tournament). When a round of the loop took every table's step, a person's action waited
    behind all of them, 0.3-2 s; when it took "about 10 ms" of them, counted by their mean, a
    round holding a few whole hands' betting still ran 100-700 ms, and a table that waited for
    its turn behind all the others held its person's action up as long: the people's p99 was
    200-540 ms."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._held = False
        """Whether a table is taking its step now (or has been handed the turn)."""
        self._watched: deque[asyncio.Future[None]] = deque()
        self._bots: deque[asyncio.Future[None]] = deque()
        self._watched_last = False
        """Whether the last turn handed on went to a watched table."""

    async def turn(self, watched: bool) -> None:
        """Wait for this table's turn (``watched``: someone watches it): at once when nobody
        holds it or waits."""
        loop = asyncio.get_running_loop()
        if loop is not self._loop:  # a card room started again on a new loop: a new share
            self._loop, self._held = loop, False
            self._watched.clear()
            self._bots.clear()
        if not self._held and not self._watched and not self._bots:
            self._held = True
            return
        future: asyncio.Future[None] = loop.create_future()
        (self._watched if watched else self._bots).append(future)
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():  # handed the turn, then stopped
                self.done()
            raise

    def done(self) -> None:
        """This table's step is over: the turn goes to the first waiting, a watched table's
        before the bots' (its step runs in the loop's next round, after what is ready now).
        With nobody waiting yet it stays taken until that round: the steps run where they are
        called, so the tables woken in this round would otherwise each find it free, and all
        run now."""
        if not self._hand_on():
            asyncio.get_running_loop().call_soon(self._round_over)

    def _round_over(self) -> None:
        if not self._hand_on():
            self._held = False

    def _hand_on(self) -> bool:
        order = (self._bots, self._watched) if self._watched_last else (self._watched, self._bots)
        for waiting in order:
            while waiting:
                future = waiting.popleft()
                if not future.done():  # (one whose table stopped meanwhile was cancelled)
                    future.set_result(None)
                    self._watched_last = waiting is self._watched
                    return True
        return False


Queued = tuple[Callable[[float], object], "asyncio.Future[object]", bool]
"""A command waiting at a table: it, its sender's future, and whether it takes its turn of the
card room's :class:`ClockShare`."""

NO_THINK = (0.0, 0.0)
"""No thinking time: bots act as soon as their turn comes (the tests' tables)."""

BOT_THINK = (0.8, 2.5)
"""``sevenstud serve``'s default range of a bot's thinking time, in seconds: about a
person's pace at a live table, so that each action can be followed where it happens."""


def think_range(text: str) -> tuple[float, float]:
    """``"0.8-2.5"`` (a range), ``"1.5"`` (always that) or ``"0"`` (none) as a thinking-time
    range in seconds; :class:`ValueError` naming what is wrong otherwise.

    >>> think_range("0.8-2.5"), think_range("1"), think_range("0")
    ((0.8, 2.5), (1.0, 1.0), (0.0, 0.0))
    """
    parts = text.split("-")
    try:
        low, high = (float(parts[0]), float(parts[-1])) if len(parts) <= 2 else (None, None)
    except ValueError:
        low = high = None
    if low is None or high is None or not 0 <= low <= high <= 60:
        raise ValueError(f"a bot's thinking time is seconds or a range MIN-MAX within 0-60, not {text!r}")
    return (low, high)


class Room:
    """The actor of one table: see the module. ``clock`` gives the time (seconds)."""

    def __init__(
        self,
        keeper: TableKeeper,
        *,
        clock: Callable[[], float] = time.time,
        grace: float = GRACE_SECONDS,
        pause: float = 3.0,
        bot_think: tuple[float, float] = NO_THINK,
        seed: int | None = None,
        offer_seconds: float = OFFER_SECONDS,
        pause_unwatched: bool = False,
        owner: int | None = None,
        chat: ChatDesk | None = None,
        sit_out_seconds: float = 0.0,
        share: ClockShare | None = None,
    ) -> None:
        self.keeper = keeper
        self.share = share
        """The event loop's share for the tables' clock steps, the card room's (None: each
        step when due, the tests' tables)."""
        self.sit_out_seconds = sit_out_seconds
        """How long a person may sit out at a cash table before being stood up, their chips
        back to their balance (0: for ever; :attr:`Limits.sit_out_seconds`)."""
        self._sat_out: dict[str, float] = {}  # each person sitting out here, since when
        self.chat = TableChat(chat if chat is not None else ChatDesk(Limits()), keeper.table_id)
        """The table's chat (sevenstud.server.tables.chat): its lines go to every connection here."""
        self.owner = owner
        """The account that opened the table (None: a table from before owners were kept):
        only it adds or removes bots, else any player seated here (docs/protocol.md)."""
        self.whereabouts: Callable[[str, int], Outgoing | None] | None = None
        """At a tournament's table: where a player sits now in that tournament, as a
        ``tournament_moved`` notice (None: not at another of its tables)."""
        self.pause_unwatched = pause_unwatched
        """Deal no hand while nobody but bots sits here and nobody watches (docs/security.md)."""
        self.clock = clock
        self.grace = grace
        self.pause = pause
        self.bot_think = bot_think
        """The range a bot's thinking time is drawn from, afresh for each of its turns, while
        a person sits or watches here (docs/table.md, "Bots at the table")."""
        self._think_rng = random.Random(seed)
        self._think = 0.0
        self.queue: asyncio.Queue[Queued] = asyncio.Queue()
        """The commands waiting (:data:`Queued`): all but a person's own message take their
        turn of the card room's :class:`ClockShare`."""
        self.messages = TableMessages(keeper, clock=clock, now=self.now, grace=grace)
        """What the table says (sevenstud.server.tables.messages), built as it is asked."""
        self.fanout = FanOut(keeper, self.messages, lambda c: self.bots_refusal(c) is None)
        """The connections here and what each is sent (sevenstud.server.tables.fanout)."""
        self.waiting = WaitingList(keeper, self.fanout.tell, offer_seconds)
        """The waiting list (stored: the same after a restart) and the seats offered from it."""
        self._now = 0.0
        # A table restored after a restart waits one pause before it deals: its players are
        # coming back (a new table deals as soon as two can play).
        self._next_hand = clock() + pause if keeper.restored_number is not None else 0.0
        self._turn_start = 0.0
        self._task: asyncio.Task[None] | None = None
        self._stopped = False  # stop() has run: no command is taken any more
        self.hands_played = 0
        self.lobby = LobbyCopy(opened_at=clock())
        """What the lobby shows of the table, copied after each step (read elsewhere)."""
        self.gate: Callable[[], bool] | None = None
        """A tournament table's question before each hand: may it deal now (its tournament
        decides; server/tournaments/service.py). None: a cash table, dealing when two can play."""
        self.house: int | None = None
        """One of the house's standing tables (its definition's id; server/operators/
        house_tables.py): its bots are the house's, no player adds or removes them. None: not."""
        self.closing = False
        """The table closes after the hand in progress (an operator closed it): no hand is dealt
        any more."""
        self.held = False
        """A private table's host paused it: the hand in progress finishes, no new one is dealt
        (server/tables/private.py; set on the actor)."""
        self.lobby.copy(keeper)

    # What the rest of the card room reads of the room, kept by its parts.

    @property
    def watchers(self) -> dict[int, Watcher]:
        """Every connection at the table, by its key (:attr:`FanOut.watchers`)."""
        return self.fanout.watchers

    @property
    def presenter(self) -> Presenter:
        """The ``view`` message's presenter (:class:`TableMessages`)."""
        return self.messages.presenter

    @property
    def playing(self) -> bool:
        """Whether a hand is in progress, copied after each step (read elsewhere)."""
        return self.lobby.playing

    @property
    def taken(self) -> int:
        """How many seats are taken, copied after each step for the lobby."""
        return self.lobby.taken

    @property
    def seated_names(self) -> tuple[str, ...]:
        """Who sits at the table (bots too), copied after each step for the lobby."""
        return self.lobby.seated_names

    @property
    def bots(self) -> int:
        """How many bots sit at the table, copied after each step for the lobby."""
        return self.lobby.bots

    @property
    def recent(self) -> tuple[tuple[float, int], ...]:
        """The last hands' (end, pot), copied after each step for the lobby (read elsewhere)."""
        return self.lobby.recent

    @property
    def opened_at(self) -> float:
        """When the room opened (its clock's time)."""
        return self.lobby.opened_at

    def now(self) -> float:
        """The time as the table is told it: never going backwards."""
        self._now = max(self._now, self.clock())
        return self._now

    def start(self) -> None:
        """Start the actor's task (a seat free while people wait, as after a restart, is
        offered at once)."""
        if self._task is None:
            self.waiting.offer_seats(self.now())
            self._task = asyncio.get_running_loop().create_task(self._run())

    @property
    def stopped(self) -> bool:
        """Whether the room serves no more (stopped, or its actor ended): a command is refused."""
        return self._stopped or (self._task is not None and self._task.done())

    async def stop(self, closed: TableClosed | None = None) -> None:
        """Stop the actor (the hand in progress stays ``playing``: the next start refunds it);
        every connection at the table is closed with :data:`GONE` (4002): nothing more comes
        from this table here, and the lobby says where it is served now. A table closed for
        good gives ``closed`` (its ``table_closed`` message, :func:`table_closed`) instead:
        each connection is sent it, then closed with :data:`CLOSED` (4004)."""
        self._stopped = True
        task = self._task
        if task is not None:
            # Cancelled again until it has ended: on Python 3.11 the actor's wait for a command
            # (asyncio.wait_for, then) dropped a cancellation that met a command arriving, and it
            # served on while this waited for ever. And asyncio.wait, not `await task` under
            # suppress(CancelledError): that swallowed the cancellation of the task calling
            # stop() too, which then went on as if never cancelled (a test's event loop, its
            # leftover tasks cancelled, waited for ever: tests/server/test_room_stop.py).
            while not task.done():
                task.cancel()
                await asyncio.wait([task], timeout=0.5)
            self._task = None
        self.fanout.close(closed)

    async def submit(self, command: Callable[[float], object], *, person: bool = False) -> object:
        """Run ``command(now)`` on the actor (in its worker thread) and return its result (or
        raise its error). A ``person``'s own message goes at once, the rest in its turn of the
        card room's :class:`ClockShare`."""
        # Stopped (its task gone) or ended: a command queued now would wait for ever.
        if self.stopped:
            raise RoomError("table_stopped")
        future: asyncio.Future[object] = asyncio.get_running_loop().create_future()
        await self.queue.put((command, future, not person))
        try:
            return await future
        finally:
            # A refusal's traceback holds this frame, whose future holds the refusal: a
            # cycle for the full collection, one for every refused command, unless let go.
            del future

    def seat_of(self, connection: Connection) -> int | None:
        """The seat a connection sees for now: where the player logged in on it sits at this
        moment (None: a spectator). Read at every send, never kept (:meth:`FanOut.seat_of`)."""
        return self.fanout.seat_of(connection)

    def watch(self, connection: Connection, last: int = 0, views: bool = False) -> Watcher:
        """Add a connection; it is sent what it missed after ``last`` at the next update (a
        snapshot when that is no longer kept)."""
        return self.fanout.watch(Watcher(connection, last, views=views))

    def join(self, connection: Connection, last: int, views: bool = False) -> Watcher:
        """A client's hello, on the actor: it is sent ``welcome`` (the seat it sees for now,
        the number, the server's clock and the grace), a ``hand_cancelled`` for every hand a
        restart cancelled while ``last`` was inside it, its place on the waiting list (``waiting``) and the
        seat offered to it, then the entries after ``last`` when they are kept, else (or when
        ``last`` is 0, ahead of the table, or from before a restart) a snapshot. With
        ``views``, a ``view`` message follows every batch it is sent (the welcome's first)."""
        table = self.keeper.table
        player = connection.player
        watcher = Watcher(connection, last, views=views)
        restored = self.keeper.restored_number
        from_before_restart = restored is not None and last <= restored
        watcher.snapshot = last == 0 or last > table.number or from_before_restart
        watcher.pending.append(self.messages.welcome(self.seat_of(connection)))
        if from_before_restart:  # it saw a hand in progress that the restart cancelled
            cancelled = [c for c in self.keeper.cancelled if c.first <= last <= c.last]
            watcher.pending += [self.messages.cancelled(c) for c in cancelled]
        # After the snapshot or the entries: the handshake is welcome, then the table.
        if self.held:  # a private table its host paused: said before the rest
            watcher.after.append(TablePaused(table=self.keeper.table_id, number=table.number, paused=True))
        watcher.after.append(self.waiting.place(player))
        watcher.after += self.chat.since(last)
        watcher.after += self.waiting.offers_to(player)
        return self.fanout.watch(watcher)

    # ------------------------------------------------------------------ the one door

    async def handle(self, message: ClientMessage, connection: Connection) -> bool:
        """A client's message, decided on the actor: what it causes goes to every connection at
        the next send; a refusal goes to this connection alone (``error``), changing nothing.
        Whether it was taken (False: refused)."""
        try:
            if isinstance(message, Hello):
                await self.submit(functools.partial(self._hello, connection, message), person=True)
                return True
            if connection.player is None or connection.player_id is None:
                raise RoomError("not_logged_in")
            if connection.key not in self.watchers:
                raise RoomError("hello_first")
            await self.submit(functools.partial(self._command, message, connection), person=True)
            return True
        except (TableError, RoomError) as error:
            connection.refuse(error, self.keeper.number)
            return False

    def _hello(self, connection: Connection, hello: Hello, _now: float) -> Watcher:
        connection.lang = hello.lang  # before the welcome: every word from now on is in it
        watcher = self.join(connection, hello.last, views=hello.views)
        name = connection.player
        if self.whereabouts is not None and name is not None and name not in self.keeper.occupants:
            # A tournament's player saying hello where they no longer sit (a notice followed
            # late, or a second move missed): told where they sit now.
            moved = self.whereabouts(name, self.keeper.table_id)
            if moved is not None:
                watcher.pending.append(moved)
        return watcher

    def _seated(self, name: str) -> int:
        if name not in self.keeper.occupants:
            raise RoomError("not_seated")
        return self.keeper.table.seat_of(name)

    def _command(self, message: ClientMessage, connection: Connection, now: float) -> object:
        """One command of a logged-in player, on the actor (its identity read now)."""
        keeper = self.keeper
        name, player_id = connection.player, connection.player_id
        if name is None or player_id is None:
            raise RoomError("not_logged_in")
        if self.gate is not None and not isinstance(message, Act | SitOut | SitIn | Chat):
            raise RoomError("tournament_table_seats", message=message.type)
        if isinstance(message, Chat):
            line = self.chat.say(message.text, name, player_id, self.seat_of(connection), keeper.number, now)
            self.fanout.tell_everyone(line)  # after the entries up to its number, as _tell's
            return None
        if isinstance(message, Sit):
            self.waiting.check_seat(name, message.seat)
            result = keeper.sit_down(name, message.seat, message.buy_in, now, player_id=player_id)
            self.waiting.seated(name, message.seat)
            return result
        if isinstance(message, AddBot | RemoveBot):
            refused = self.bots_refusal(connection)
            if refused is not None:
                raise refused
        if isinstance(message, AddBot):
            if message.seat in self.waiting.offers:
                raise RoomError("seat_offered", seat=message.seat)
            return self.add_bot(message.seat, message.bot, now)
        if isinstance(message, RemoveBot):
            return keeper.remove_bot(message.seat, now)
        if isinstance(message, Wait):
            return self.waiting.join(name, now)
        if isinstance(message, Unwait):
            self.waiting.leave(name, now)
            return None
        seat = self._seated(name)
        if isinstance(message, Leave):
            return keeper.leave(name, now)
        if isinstance(message, SitOut):
            return keeper.sit_out(name, now)
        if isinstance(message, SitIn):
            return keeper.sit_in(name, now)
        if isinstance(message, TopUp):
            return keeper.top_up(name, message.amount, now)
        if not isinstance(message, Act):
            raise RoomError("no_such_message", message=message.type)
        table = keeper.table
        hand_number, street = table.hand_number, table.street
        if hand_number is None or hand_number != message.hand or street != message.street:
            raise RoomError(
                "action_out_of_date",
                hand=message.hand,
                street=message.street,
                now_hand=hand_number,
                now_street=street,
            )
        return keeper.act(seat, message.action, now)

    def add_bot(self, seat: int, kind: str, now: float) -> object:
        """Seat a bot of ``kind`` (:data:`BOT_KINDS`) in an empty seat (the keeper stores the
        kind with the sitting: the same kind sits there after a restart)."""
        return self.keeper.add_bot(seat, now, kind)

    def fill(
        self, opener: tuple[str, int, int] | None, bot_seats: range, kind: str, now: float
    ) -> str | None:
        """A new table's first seats, in one command (so before any deal): the opener's
        ``(name, player_id, buy_in)`` in seat 1 when given, then a bot of ``kind`` in each of
        ``bot_seats``. The opener's refusal (its balance moved since it was read), or None."""
        refused = None
        if opener is not None:
            name, player_id, buy_in = opener
            try:
                self.keeper.sit_down(name, 1, buy_in, now, player_id=player_id)
            except (RoomError, TableError) as error:
                refused = str(error)
        for seat in bot_seats:
            self.add_bot(seat, kind, now)
        return refused

    def unwatch(self, key: int) -> None:
        """Drop a connection (its seat's clock runs on: a time-out plays for it)."""
        self.fanout.unwatch(key)

    def _tell(self, player: str, message: Outgoing) -> None:
        """Give the connections of ``player`` a message (the waiting list's, a seat offered),
        after the entries of this step (:meth:`FanOut.tell`)."""
        self.fanout.tell(player, message)

    # ------------------------------------------------------------------ the actor

    def bot_wait(self) -> float:
        """How long the bot whose turn it is waits before it acts, from its turn's start: the
        thinking time drawn for this turn, or none while bots sit alone and unwatched (nobody
        is there to follow them)."""
        return 0.0 if self.unattended() else self._think

    def _due(self) -> float | None:
        table = self.keeper.table
        offers = [until for _, until in self.waiting.offers.values()]
        due: float | None = None
        deadline = table.deadline
        if deadline is not None:
            to_act = table.to_act
            name = table.player_at(to_act) if to_act is not None else None
            occupant = self.keeper.occupants.get(name) if name is not None else None
            if occupant is not None and occupant.bot is not None:
                due = self._turn_start + self.bot_wait()
            else:
                due = deadline + self.grace
        elif table.can_start_hand() and not self.paused() and self.may_deal():
            due = self._next_hand
        if self._sat_out:  # the first seat sat out too long stands up then
            offers = [*offers, min(self._sat_out.values()) + self.sit_out_seconds]
        return min([due, *offers]) if due is not None else min(offers, default=None)

    async def _run(self) -> None:
        # A write that failed stops the room (the next start, here or at another process,
        # recovers the table); said once in the log, not left in the task for nobody to read.
        try:
            await self._serve()
        except LeaseLost:
            log.warning("table %s: another process serves it now; its room here stops", self.keeper.table_id)
        except Exception:
            log.exception("table %s: a write failed; its room here stops", self.keeper.table_id)
        finally:
            # Stopped or broken: nobody waits for ever on a command the actor will not run.
            while not self.queue.empty():
                _, future, _ = self.queue.get_nowait()
                if not future.done():
                    future.set_exception(RoomError("table_stopped"))

    async def _serve(self) -> None:
        # A command waiting goes before the clock, but a clock that is due waits behind at most
        # COMMANDS_BEFORE_CLOCK of them. Commands always first let a client hold the deal and the
        # clock up for as long as it kept the queue from emptying (a spectator's 20 allowed
        # hellos a second, each a snapshot to build, did so for 8-10 s at a busy server's
        # start: benchmarks/hostile_soak.py); taking turns one for one dealt every table in the
        # middle of the sockets' arrival at a server's start, the first actions waiting on a
        # loop busy with 2,000 handshakes (benchmarks/load.py's p99 from 14 ms to 0.8-1.2 s);
        # the clock always first would let bots acting back to back hold every command up.
        behind = 0  # commands taken while the clock was due
        while True:
            due = self._due()
            wait = None if due is None else max(0.0, due - self.clock())
            try:
                if wait == 0.0 and behind >= COMMANDS_BEFORE_CLOCK:
                    raise TimeoutError  # the clock's turn, with commands waiting
                if self.queue.empty():
                    # With no time left this times out at once, after letting the loop run (a
                    # table of bots acting back to back gives its writers their turn so). A
                    # timeout scope, not wait_for: that ran the wait in a task of its own, one
                    # more round of the loop (and a table's step in it) before each command.
                    async with asyncio.timeout(wait):
                        command, future, shared = await self.queue.get()
                else:
                    command, future, shared = self.queue.get_nowait()
            except TimeoutError:
                behind = 0
                await self._step(self._tick, shared=True)  # (what is due is asked again then)
            else:
                behind = behind + 1 if wait == 0.0 else 0
                # A sender that gave up (cancelled while it waited) left its future done: the
                # command is carried out all the same, and nobody is told.
                try:
                    result = await self._step(functools.partial(self._apply_command, command), shared)
                except (TableError, RoomError) as error:
                    if not future.done():
                        future.set_exception(error)
                except BaseException:
                    # A database write that failed: the table's record is behind the table, so
                    # the table stops here and the next start cancels and refunds its hand.
                    if not future.done():
                        future.set_exception(RoomError("table_stopped"))
                    raise
                else:
                    if not future.done():
                        future.set_result(result)
                    del result
                finally:
                    # Not kept until the next command: a refusal's traceback, through the
                    # sender's frames, holds its connection (a closed one would stay with it).
                    del command, future
            self.fanout.send()
            # Let the connections' writers (and the other tables) run: a table of bots acting
            # back to back would otherwise never give the loop up (wait_for with no time left
            # does not yield).
            await asyncio.sleep(0)

    async def _step(self, step: Callable[[], object], shared: bool) -> object:
        """Run one step of the table (:meth:`_changed`): here, or in a worker thread; a
        ``shared`` one in its turn of the card room's :class:`ClockShare`, when it has one."""
        share = self.share if shared else None
        if share is None:
            return await self.keeper.store.run(self._changed, step)
        await share.turn(bool(self.watchers))
        try:
            return await self.keeper.store.run(self._changed, step)
        finally:
            share.done()

    def _apply_command(self, command: Callable[[float], object]) -> object:
        return command(self.now())

    def _changed(self, step: Callable[[], object]) -> object:
        """Run one step; a new turn restarts the bots' delay, a hand
        ended starts the pause and rebuys the broke bots; free seats are offered."""
        keeper, table = self.keeper, self.keeper.table
        in_hand, to_act, turn = table.hand_in_progress, table.to_act, turn_number(keeper)
        try:
            return step()
        finally:
            now = self.now()
            # A new turn by its clock's number too: the seat that closed a street may be the
            # first to act on the next, and waits (thinks) afresh there.
            new_turn = turn_number(keeper) != turn
            if new_turn or table.to_act != to_act or table.hand_in_progress != in_hand:
                self._turn_start = now
                low, high = self.bot_think
                self._think = self._think_rng.uniform(low, high) if high > 0 else 0.0
            if in_hand and not table.hand_in_progress:
                self.hands_played += 1
                self._next_hand = now + self.pause
                keeper.rebuy_bots(now)
            self.waiting.offer_seats(now)
            self.lobby.recent = tuple(keeper.pots)
            self._note_sat_out(now)
            self.lobby.copy(keeper)

    def _note_sat_out(self, now: float) -> None:
        """Since when each person at a cash table has sat out (between hands: a seat sits out
        or in by a command, or by the table at a hand's end)."""
        if not self.sit_out_seconds or self.gate is not None or self.keeper.table.hand_in_progress:
            return
        occupants = self.keeper.occupants
        out = [
            s.player
            for s in self.keeper.table.view(None).seats
            if s.sitting_out
            and not s.leaving
            and (o := occupants.get(s.player)) is not None
            and o.bot is None
        ]
        self._sat_out = {name: self._sat_out.get(name, now) for name in out}

    def _stand_up_sat_out(self, now: float) -> bool:
        """Stand up every person who has sat out for :attr:`sit_out_seconds` (their chips back
        to their balance); whether anybody was."""
        late = [name for name, since in self._sat_out.items() if now >= since + self.sit_out_seconds]
        for name in late:
            del self._sat_out[name]
            with contextlib.suppress(TableError, RoomError):  # gone already, or leaving
                self.keeper.leave(name, now)
        return bool(late)

    def may_deal(self) -> bool:
        """Whether the table may deal when it can: always at a cash table (unless its host
        paused it: :attr:`held`); at a tournament table when its tournament says so (it wakes
        the room when that changes); never at a table that is closing."""
        return not self.closing and not self.held and (self.gate is None or self.gate())

    def unattended(self) -> bool:
        """Whether nobody but bots sits here (or nobody at all) and no connection watches:
        from what was copied after the last step, so safe to ask from outside the actor."""
        return not self.watchers and self.bots == self.taken

    def paused(self) -> bool:
        """Whether the next hand waits for a person: a table of bots alone, unwatched, deals
        nothing (a hello wakes it: the join is a command, and the clock is asked again)."""
        return self.pause_unwatched and self.unattended()

    def _tick(self) -> None:
        """What the clock brings: a bot's turn, a time-out, the next hand."""
        keeper, table = self.keeper, self.keeper.table
        now = self.now()
        if self._sat_out and self._stand_up_sat_out(now):
            return
        to_act = table.to_act
        if to_act is not None:
            name = table.player_at(to_act)
            occupant = keeper.occupants.get(name) if name is not None else None
            if table.deadline is not None and now >= table.deadline:
                keeper.time_out(to_act, now)  # a bot too, should its table have been held up
            elif occupant is not None and occupant.bot is not None:
                if self.bot_think[1] == 0.0 or self.unattended():
                    # Bots that act at once: every bot's turn up to a person's in one step
                    # (one write), the hand's whole betting at a table of bots alone.
                    keeper.act_bots(now)
                else:  # each bot thinks afresh: one turn, then the next one's wait
                    view = table.hand_view(to_act)
                    assert view is not None
                    keeper.act(to_act, occupant.bot.act(view), now)
        elif table.can_start_hand() and now >= self._next_hand and not self.paused() and self.may_deal():
            keeper.start_hand(now)
            if not table.hand_in_progress:  # over at once (everybody all-in on the antes)
                self.hands_played += 1
                self._next_hand = now + self.pause
                keeper.rebuy_bots(now)

    def snapshot(self, seat: int | None) -> Snapshot:
        """The ``snapshot`` message: the table now, as ``seat`` (None: a spectator) may see it."""
        return self.messages.snapshot(seat)

    def lobby_line(self, now: float) -> dict[str, Any]:
        """The table's line in the lobby: seats taken, waiting list, average pot (of its last
        hands) and hands per hour (over the last hour, or since it opened when younger)."""
        return self.lobby.line(now, len(self.waiting.players), len(self.watchers))

    def bots_refusal(self, connection: Connection) -> RoomError | None:
        """Why the player on ``connection`` may not seat or remove a bot here, or None: the
        house's bots are its operators' to set, a private or owned table's are its owner's, any
        other's are its seated players' (a tournament's seats are the tournament's)."""
        if self.gate is not None:
            return RoomError("tournament_table_seats", message="add_bot")
        if self.house is not None:
            return RoomError("bots_for_house")
        if self.owner is None and connection.player not in self.keeper.occupants:
            return RoomError("bots_for_seated_players")
        if self.owner is not None and self.owner != connection.player_id:
            return RoomError("bots_for_owner")
        return None

    def view_message(self, watcher: Watcher, seat: int | None) -> ViewMessage:
        """The ``view`` message for a connection seeing for ``seat`` now (see
        :mod:`sevenstud.server.tables.presenter`)."""
        connection = watcher.connection
        may_seat_bots = self.bots_refusal(connection) is None
        return self.messages.view(seat, watcher.player, connection.lang, may_seat_bots)
