"""One table's chips and records: the keeper.

:class:`TableKeeper` is synchronous: it owns a :class:`sevenstud.table.Table`, applies one
command to it and writes what the command caused in one database transaction: the stream's
entries (as a spectator sees them), the hand's record, and a ledger transfer for every chip that
moved (buy-in, ante, bet, bet returned, award, rake, leaving). The chips moved inside a hand are
read from the stacks before and after the command, so the ledger follows the engine whatever its
events are called. Its commands are run one at a time, in a worker thread, by the table's actor
(:class:`sevenstud.server.tables.room.Room`).

A keeper opens no table with a hand a crash cut off: :func:`sevenstud.server.tables.recovery.recover`
cancels and refunds it first, at start.

A bot's kind (:data:`BOT_KINDS`) is stored with its sitting, so that the keeper seats the same
kind of bot again after a restart.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import time
import typing
from collections import deque
from collections.abc import Callable
from typing import Any

from sevenstud.bots import Bot, registry
from sevenstud.deck import Deck
from sevenstud.hand import Hand, HandEnded, PotAwarded, RakeTaken
from sevenstud.refusals import Refusal
from sevenstud.server.store import Connection, Store, ledger
from sevenstud.server.store import tables as rows
from sevenstud.server.store.dealt import index_hand
from sevenstud.server.store.direct import direct
from sevenstud.server.store.models import (
    HandRow,
    Player,
    TableRow,
    Waiting,
)
from sevenstud.table import (
    ClockStarted,
    Entry,
    HandStarted,
    SatDown,
    SatIn,
    SatOut,
    StoodUp,
    Table,
    TableError,
    TableSettings,
    ToppedUp,
)
from sevenstud.wire import RecordText, game_to_wire, hand_to_record, to_wire

BOT_PREFIX = "bot"
"""Bots at a table are named ``bot<seat>``; people's names may not start so."""
RECENT_HANDS = 100
"""The lobby's average pot is over this many of a table's last hands."""
BOT_RUN = 200
"""The most bots' turns one command plays in a row (:meth:`TableKeeper.act_bots`): more than
any hand has, so that a table of bots plays a hand in two commands (its deal and its turns)."""
KEPT_ENTRIES = 400
"""The stream entries a card-room table keeps in memory (``TableSettings.history``), for a
client catching up: about ten hands, a minute or more of play. One further behind gets a
snapshot (more than its outbox holds would get one anyway). The engine's default, 2000, kept
about fifty hands a table alive, millions of objects at 400 tables for the garbage collector
to walk (server/collector.py)."""
BOT_KINDS = tuple(registry.BOT_KINDS)
"""The bots a table seats, by name (:data:`sevenstud.bots.registry.BOT_KINDS`: ``rule``, the
default, ``random``, ``station``, ``tight``, ``equity``)."""
_BOTS: dict[str, Callable[[str], Bot]] = {
    name: functools.partial(kind.make, None) for name, kind in registry.BOT_KINDS.items()
}


class RoomError(Refusal, ValueError):
    """A command the room refuses (not enough chips, no such table): nothing changed."""


class LeaseLost(RuntimeError):
    """This process holds the table's lease no more (another process took it over): the write
    is not made, and the table stops here, as after any write that failed."""

    def __init__(self, table_id: int) -> None:
        super().__init__(f"table {table_id} is served by another process now")
        self.table_id = table_id


def event_payload(event: object) -> dict[str, Any]:
    """The JSON-ready form of a stream entry's event: the wire format's (``wire.to_wire``), for
    the table's own events as for the hand's."""
    return to_wire(typing.cast(Any, event))


# The statements every action runs are on the driver's cursor (store/direct.py); the rest,
# once a hand or a sitting, are SQLAlchemy Core's.


def check_bot_kind(kind: object) -> str:
    """``kind`` when it is one of :data:`BOT_KINDS`; a :class:`RoomError` naming it otherwise."""
    if not isinstance(kind, str) or kind not in _BOTS:
        raise RoomError("unknown_bot", kind=repr(kind), kinds=", ".join(BOT_KINDS))
    return kind


def new_bot(kind: str, name: str) -> Bot:
    """A fresh bot of ``kind`` (:data:`BOT_KINDS`) named ``name``."""
    return _BOTS[check_bot_kind(kind)](name)


@dataclasses.dataclass(frozen=True, slots=True)
class Turn:
    """The turn running now: the stream number of its ``clock_started``, the hand and street,
    the seat to act, when its action time runs out (``act_by``) and when its bank is spent
    too (``deadline``). The room tells it as its ``clock`` message, with its own grace."""

    number: int
    hand: int
    street: int
    seat: int
    act_by: float
    deadline: float


@dataclasses.dataclass(frozen=True, slots=True)
class CancelledHand:
    """A hand a crash cut off and the restart cancelled: its number, the stream numbers of its
    first and last stored entries, and what went back to each seat (seat, player, chips)."""

    hand: int
    first: int
    last: int
    refunds: tuple[tuple[int, str, int], ...]


class TableHook(typing.Protocol):
    """What a tournament table's keeper asks its tournament (server/tournaments/service.py): a keeper
    with no hook is a cash table. Every command of the table holds ``lock`` (the tournament's:
    its director is shared by its tables), the chips a seat gets or gives back come from and go
    to ``chip_account`` (the tournament's chips, never a balance), ``before_deal`` says whether
    the table may deal now (and sets the level's game), and ``record`` writes the director's
    part of the command in its own transaction (a hand's start and end, the prizes it decides);
    ``committed`` or ``rolled_back`` follows."""

    @property
    def lock(self) -> typing.ContextManager[object]:
        """The tournament's lock, held through each command of its tables."""

    def chip_account(self, connection: Connection) -> int:
        """The ledger account seats are funded from and stand up into."""

    def before_deal(self, table: Table, now: float) -> bool:
        """Whether ``table`` may deal its next hand now."""

    def record(self, connection: Connection, table: Table, entries: list[Entry], now: float) -> None:
        """Write the tournament's part of ``entries`` in ``connection``'s transaction."""

    def committed(self) -> None:
        """The command's transaction committed."""

    def rolled_back(self) -> None:
        """The command's transaction failed: forget what ``record`` decided."""

    def lost(self) -> None:
        """The command found the table's lease another process's: nothing was written and
        ``record`` was not called; the table is served there now."""


@dataclasses.dataclass(slots=True)
class _Occupant:
    sitting_id: int
    player_id: int | None  # None: a bot
    bot: Bot | None
    bot_kind: str | None = None  # which of BOT_KINDS (None: a person)


class TableKeeper:
    """One table's chips and records: every command in one transaction (see the module)."""

    def __init__(
        self, store: Store, table_id: int, settings: TableSettings, lease: str | None = None
    ) -> None:
        self.store = store
        self.table_id = table_id
        self.lease = lease
        """The process (its lease keeper's instance) whose lease every write checks first:
        a table taken over by another process is written by it alone (None: not checked)."""
        self.name = ""
        """The table's name, as given when it was opened (the lobby shows it)."""
        self.occupants: dict[str, _Occupant] = {}
        self._hand: Hand | None = None
        self._hand_row: int | None = None
        self._hand_sittings: dict[int, int] = {}  # table seat -> sitting, for the hand in progress
        self._in_pot = 0  # the chips in the hand's pot, as this keeper wrote them to the ledger
        self._accounts = ledger.AccountIds()  # the ledger accounts this table writes to
        self._written: dict[int, int] = {}  # sitting -> the stack its row holds
        self._record_text = RecordText()  # the hand in progress's record, written at each action
        self.pots: deque[tuple[float, int]] = deque(maxlen=RECENT_HANDS)
        """(when it ended, its pot) of the table's last hands, for the lobby."""
        self._pot = 0
        self.turn: Turn | None = None
        """The turn running now (None: nobody is on the clock)."""
        self.restored_number: int | None = None
        """The stream number the table was restored at after a restart (None: a new table):
        a client that saw nothing after it gets a snapshot."""
        self.cancelled: tuple[CancelledHand, ...] = ()
        """The hand the last restart cancelled, if it did (for the clients that were in it)."""
        self.hook: TableHook | None = None
        """A tournament table's tournament (None: a cash table)."""
        # The table itself counts on from the stored numbers after a restart: both stay 0,
        # kept for callers of the first version.
        self.hand_offset = self.number_offset = 0
        with store.session() as s:
            row = s.get(TableRow, table_id)
            if row is not None:
                self.name = row.name
            hands, number = rows.last_numbers(s, table_id)
            if rows.has_hand_in_play(s, table_id):
                raise RoomError(f"table {table_id} has a hand a crash cut off: recover() it first")
            sittings = rows.seated(s, table_id)
            cut_off = rows.cancelled_hand(s, table_id, hands)
            if cut_off is not None:
                self.cancelled = (self._cancelled_hand(s, cut_off),)
        if hands or number or sittings:
            self.table = self._restored(settings, hands, number, sittings)
            self.restored_number = number
        else:
            self.table = Table(settings)

    @staticmethod
    def _cancelled_hand(s: Any, row: HandRow) -> CancelledHand:
        """The stored facts of a cancelled hand (its refunds as
        :func:`sevenstud.server.tables.recovery.recover` wrote them)."""
        first, last = rows.stream_span(s, row.id)
        refunds = (row.result or {}).get("refunds", [])
        return CancelledHand(
            hand=row.number,
            first=first,
            last=last,
            refunds=tuple((int(seat), str(name), int(amount)) for seat, name, amount in refunds),
        )

    def _restored(self, settings: TableSettings, hands: int, number: int, sittings: Any) -> Table:
        """The table after a restart: its numbers (hands, stream) going on from the stored
        ones, every open sitting in its seat with its stack (sitting out as it was, or when it
        cannot post the ante), no stream kept (a client asking from before gets a snapshot)."""
        record = Table(settings).to_record(stream=False)
        least = max(1, settings.game.stakes.ante)
        seats = []
        for sitting in sittings:
            seats.append(
                {
                    "type": "seat_record",
                    "seat": sitting.seat,
                    "player": sitting.name,
                    "stack": sitting.stack,
                    "time_bank": settings.time_bank_start,
                    "first_hand": hands + 1,
                    "sitting_out": sitting.sitting_out or sitting.stack < least,
                    "leaving": False,
                    "time_outs": 0,
                    # short of the ante: a top-up that covers it deals them in again, after a
                    # restart as before it (docs/table.md)
                    "short_of_ante": sitting.stack < least,
                }
            )
            bot, kind = None, None
            if sitting.bot is not None:
                # A kind this version does not know (or none: a row from before migration 0003
                # written by an older process) plays as the default, rather than the table not
                # opening at all.
                kind = sitting.bot_kind if sitting.bot_kind in _BOTS else BOT_KINDS[0]
                bot = new_bot(kind, sitting.bot)
            self.occupants[sitting.name] = _Occupant(sitting.id, sitting.player_id, bot, kind)
            self._written[sitting.id] = sitting.stack
        record.update(number=number, hands=hands, seats=seats)
        return Table.from_record(record)

    @property
    def number(self) -> int:
        """The table's last stream number as clients count it."""
        return self.table.number

    def bot_seats(self) -> dict[int, str]:
        """The seats bots sit in, and their names."""
        table = self.table
        return {
            table.seat_of(name): name for name, seated in self.occupants.items() if seated.bot is not None
        }

    def add_bot(self, seat: int, now: float, kind: str = "rule") -> list[Entry]:
        """Seat one of the project's bots, of ``kind`` (:data:`BOT_KINDS`), in an empty seat
        with the table's maximum buy-in (from the bank, where play chips come from). The kind
        is stored with the sitting: the same kind sits there again after a restart."""
        check_bot_kind(kind)
        return self.sit_down(f"{BOT_PREFIX}{seat}", seat, self.table.settings.max_buy_in, now, bot_kind=kind)

    def remove_bot(self, seat: int, now: float) -> list[Entry]:
        """Stand the bot in ``seat`` up (at the end of the hand when dealt in)."""
        name = self.bot_seats().get(seat)
        if name is None:
            raise RoomError("no_bot_in_seat", seat=seat)
        return self.leave(name, now)

    def rebuy_bots(self, now: float) -> list[Entry]:
        """Between hands, top every bot that went broke up to the maximum and sit it in again
        (the bank pays), so that a table of people and bots plays on."""
        table, entries = self.table, []
        if table.hand_in_progress or self.hook is not None:  # a tournament's bots never rebuy so
            return []
        for state in table.view(None).seats:
            occupant = self.occupants.get(state.player)
            if occupant is None or occupant.bot is None or not state.sitting_out or state.leaving:
                continue
            with contextlib.suppress(TableError):
                if state.stack < table.settings.min_buy_in:
                    entries += self.top_up(state.player, table.settings.max_buy_in - state.stack, now)
                entries += self.sit_in(state.player, now)
        return entries

    # ------------------------------------------------------------------ commands

    def sit_down(
        self,
        name: str,
        seat: int,
        buy_in: int,
        now: float,
        player_id: int | None = None,
        bot_kind: str = "rule",
    ) -> list[Entry]:
        """Seat a person (``player_id``) or a bot (None; of ``bot_kind``) with a buy-in from
        their balance (a bot's from the bank)."""
        if player_id is None and not name.startswith(BOT_PREFIX):
            raise RoomError("bot_name_prefix", prefix=repr(BOT_PREFIX))
        check_bot_kind(bot_kind)
        if player_id is not None and self.hook is None:  # a tournament seat is paid for already
            with self.store.session() as s:
                player = s.get(Player, player_id)
                if player is None:
                    raise RoomError(f"no account {player_id}")
                if player.balance < buy_in:
                    raise RoomError("buy_in_over_balance", amount=buy_in, balance=player.balance)
        bot = new_bot(bot_kind, name) if player_id is None else None
        kind = bot_kind if player_id is None else None
        return self._apply(
            lambda: [self.table.sit_down(name, seat, buy_in, now)], now, {name: (player_id, bot, kind)}
        )

    def seat_players(self, seats: list[tuple[str, int, int, int | None, str]], now: float) -> list[Entry]:
        """Seat several players at a tournament table in one command (one transaction), each
        ``(name, seat, chips, player_id, bot_kind)`` as :meth:`sit_down` seats them (their chips
        the tournament's: no balance is asked). One refused (its seat taken meanwhile) leaves the
        others seated and written, then is raised."""
        joining: dict[str, tuple[int | None, Bot | None, str | None]] = {}
        for name, _seat, _chips, player_id, bot_kind in seats:
            if player_id is None and not name.startswith(BOT_PREFIX):
                raise RoomError("bot_name_prefix", prefix=repr(BOT_PREFIX))
            check_bot_kind(bot_kind)
            bot = new_bot(bot_kind, name) if player_id is None else None
            joining[name] = (player_id, bot, bot_kind if player_id is None else None)
        sit = self.table.sit_down
        return self._each(
            [functools.partial(sit, name, seat, chips, now) for name, seat, chips, *_ in seats], now, joining
        )

    def stand_up(self, names: list[str], now: float) -> list[Entry]:
        """Several players leave in one command (:meth:`leave`, each); one refused leaves the
        others' written, then is raised."""
        return self._each([functools.partial(self.table.leave, name, now) for name in names], now)

    def _each(
        self,
        calls: list[Callable[[], object]],
        now: float,
        joining: dict[str, tuple[int | None, Bot | None, str | None]] | None = None,
    ) -> list[Entry]:
        """``calls`` on the table in one command; the first refusal raised once the rest are
        written (a refused call changes nothing)."""
        refused: list[TableError] = []

        def run() -> None:
            for call in calls:
                try:
                    call()
                except TableError as error:
                    refused.append(error)

        entries = self._apply(run, now, joining)
        if refused:
            raise refused[0]
        return entries

    def top_up(self, name: str, amount: int, now: float) -> list[Entry]:
        """Add chips from the player's balance."""
        occupant = self.occupants.get(name)
        if occupant is not None and occupant.player_id is not None and self.hook is None:
            with self.store.session() as s:
                player = s.get(Player, occupant.player_id)
                if player is None or player.balance < amount:
                    raise RoomError("top_up_over_balance", amount=amount)
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
        """Deal a hand from ``deck`` (by default one shuffled with the OS's secure randomness);
        a tournament table deals only when its tournament says so (nothing happens otherwise)."""
        hook = self.hook
        with hook.lock if hook is not None else contextlib.nullcontext():
            if hook is not None and not hook.before_deal(self.table, now):
                return []
            return self._apply(
                lambda: self.table.start_hand(now, deck if deck is not None else Deck.shuffled()), now
            )

    def act(self, seat: int, action: str | Any, now: float) -> list[Entry]:
        """The seat to act acts."""
        return self._apply(lambda: self.table.act(seat, action, now), now)

    def bot_to_act(self) -> Bot | None:
        """The bot whose turn it is (None: nobody's turn, or a person's)."""
        table = self.table
        seat = table.to_act
        name = table.player_at(seat) if seat is not None else None
        occupant = self.occupants.get(name) if name is not None else None
        return occupant.bot if occupant is not None else None

    def act_bots(self, now: float, most: int = BOT_RUN) -> list[Entry]:
        """The bots' turns one after another from the seat to act now (a bot's), up to a
        person's turn or the hand's end (or ``most`` turns), in one command: one transaction
        for the run, as the run of turns a table of bots acting at once plays between two looks
        at its queue anyway. A bot's turn is what it decides from the hand as its seat sees it."""
        table = self.table
        turns: list[tuple[int, dict[int, tuple[str, int]]]] = []

        def run() -> None:
            for played in range(most):
                bot = self.bot_to_act()
                seat = table.to_act
                if bot is None or seat is None:
                    return
                view = table.hand_view(seat)
                assert view is not None
                try:
                    table.act(seat, bot.act(view), now)
                except TableError:
                    if not played:
                        raise  # (nothing played: refused as one turn is)
                    return  # the turns played are written; this one is asked again alone
                turns.append((table.number, self._stacks()))

        return self._apply(run, now, turns=turns)

    def time_out(self, seat: int, now: float) -> list[Entry]:
        """The seat to act ran out of time."""
        return self._apply(lambda: self.table.time_out(seat, now), now)

    # ------------------------------------------------------------------ the waiting list

    def waiting_list(self) -> list[str]:
        """The names on the table's waiting list as stored, first in line first."""
        with self.store.session() as s:
            return rows.waiting_names(s, self.table_id)

    def wait(self, name: str, now: float) -> None:
        """Put ``name`` (a person's account) at the end of the stored waiting list."""
        with self.store.transaction() as s:
            player_id = rows.player_named(s, name)
            if player_id is None:
                raise RoomError(f"no account {name!r}")
            s.add(Waiting(table_id=self.table_id, player_id=player_id, joined_at=now))

    def stop_waiting(self, name: str) -> None:
        """Take ``name`` off the stored waiting list (nothing happens when not on it)."""
        with self.store.transaction() as s:
            rows.stop_waiting(s, self.table_id, rows.player_named(s, name))

    # ------------------------------------------------------------------ recording

    def _stacks(self) -> dict[int, tuple[str, int]]:
        return self.table.stacks()

    def _apply(
        self,
        command: Callable[[], object],
        now: float,
        joining: dict[str, tuple[int | None, Bot | None, str | None]] | None = None,
        turns: list[tuple[int, dict[int, tuple[str, int]]]] | None = None,
    ) -> list[Entry]:
        """Run ``command`` on the table and write what it caused in one transaction.
        ``turns``, filled by a command that plays several turns (:meth:`act_bots`): the stream
        number and the stacks after each, so that each turn's chips are written as its own
        command's would be (its own transfers, tied to its own events)."""
        hook = self.hook
        with hook.lock if hook is not None else contextlib.nullcontext():
            table = self.table
            before = self._stacks()
            start = table.number
            command()  # a TableError changes nothing, and nothing is written
            entries = list(table.events_since(start, None))
            parts = _turns(entries, before, turns) if turns else [(entries, before, self._stacks())]
            # Should this write fail, the table has moved on and its record has not: the room
            # stops the table, and the recovery at the next start cancels the hand and refunds it.
            write = _Write()
            try:
                with self.store.begin() as connection:
                    if self.lease is not None and not direct(connection).holds_lease(
                        connection, self.table_id, self.lease
                    ):
                        raise LeaseLost(self.table_id)
                    self._record(connection, write, parts, joining or {}, now)
                    if hook is not None:
                        hook.record(connection, table, entries, now)
            except LeaseLost:
                # Checked first: nothing written, nothing decided. Only this table's room stops
                # (its tournament's copy here is as stored, and its other tables play on).
                self._accounts.rolled_back()
                if hook is not None:
                    hook.lost()
                raise
            except BaseException:
                self._accounts.rolled_back()
                if hook is not None:
                    hook.rolled_back()
                raise
            if hook is not None:
                hook.committed()
            self._committed(write)
            self._follow(entries)
            return entries

    def _committed(self, write: _Write) -> None:
        """The transaction committed: what it wrote becomes what the keeper knows is stored."""
        self._accounts.committed()
        self._written.update(write.stacks)
        for sitting in write.closed:
            self._written.pop(sitting, None)
            self._accounts.forget(ledger.SEAT, sitting)
        if write.hand is not None:
            self._hand, self._hand_row, self._hand_sittings, self._in_pot = write.hand
        if write.hand_over is not None:
            self._accounts.forget(ledger.POT, write.hand_over)
        self.occupants.update(write.joined)
        for name in write.left:
            self.occupants.pop(name, None)

    def _follow(self, entries: list[Entry]) -> None:
        """Keep the lobby's figures (each hand's pot: what was awarded plus the rake) and the
        turn now running."""
        for entry in entries:
            event = entry.event
            if isinstance(event, (PotAwarded, RakeTaken)):
                self._pot += event.amount
            elif isinstance(event, HandEnded):
                self.pots.append((entry.at, self._pot))
                self._pot = 0
            elif isinstance(event, ClockStarted) and entry.hand is not None:
                street = self.table.street
                self.turn = Turn(
                    number=entry.number,
                    hand=entry.hand,
                    street=street if street is not None else 3,
                    seat=event.seat,
                    act_by=event.deadline - event.time_bank,
                    deadline=event.deadline,
                )
        if self.table.deadline is None:
            self.turn = None

    def _record(
        self,
        c: Connection,
        write: _Write,
        parts: list[tuple[list[Entry], dict[int, tuple[str, int]], dict[int, tuple[str, int]]]],
        joining: dict[str, tuple[int | None, Bot | None, str | None]],
        now: float,
    ) -> None:
        """Write the entries of ``parts`` (each turn's entries, with the stacks before and after
        it: one part but for a run of turns) and the chips they moved in ``c``'s transaction, in
        one statement of each kind. The keeper's own state changes only once it commits
        (:meth:`_committed`, from ``write``): a failed write leaves it as it was."""
        # The hand in progress as this transaction sees it; the keeper's copy follows on commit.
        pending = _Rows(hand=(self._hand, self._hand_row, self._hand_sittings, self._in_pot))
        pending.occupants = {**self.occupants}
        for entries, before, after in parts:
            self._record_part(c, write, pending, entries, before, after, joining, now)
        hand, hand_row, hand_sittings, _ = pending.hand
        if hand_row is not None and hand_sittings:
            # The record follows the hand action by action: what a crash leaves of it is the
            # hand as it stood (tests/server/test_safety.py reads it as the truth of the deal).
            assert hand is not None
            direct(c).update_record(c, hand_row, self._record_text.text(hand))
        self._write_rows(c, write, pending)

    def _record_part(
        self,
        c: Connection,
        write: _Write,
        pending: _Rows,
        entries: list[Entry],
        before: dict[int, tuple[str, int]],
        after: dict[int, tuple[str, int]],
        joining: dict[str, tuple[int | None, Bot | None, str | None]],
        now: float,
    ) -> None:
        """One command's (or one turn's) ``entries`` added to the rows to write, with the chips
        that moved between ``before`` and ``after``."""
        accounts = self._accounts
        bank = accounts.get(c, ledger.BANK)
        hand_now, occupants, events = pending.hand, pending.occupants, pending.events
        moves, sitting_out = pending.moves, pending.sitting_out
        hand_moved = False
        for entry in entries:
            # Stored as the wire format's entry, the one record of it (the ``event`` message
            # carries the same: sevenstud.server.protocol.event_message); no message is built here.
            payload = to_wire(entry)
            event = entry.event
            if isinstance(event, HandStarted):
                # Not the table's hand now: one all-in on the antes is over in the same command.
                hand = self.table.dealt_hand(event.hand)
                assert hand is not None
                sittings = [occupants[p].sitting_id for p in event.players]
                hand_row = rows.insert_hand(c, self.table_id, event.hand, sittings, hand_to_record(hand), now)
                hand_now = (hand, hand_row, dict(zip(event.seats, sittings, strict=True)), 0)
                write.hand = hand_now
                # Every seat dealt in starts the hand at its stack before the antes.
                for seat, stack in zip(event.seats, event.stacks, strict=True):
                    before[seat] = (before[seat][0], stack)
            index = len(events)
            events.append(
                {
                    "table_id": self.table_id,
                    "number": payload["number"],
                    "hand_id": hand_now[1] if entry.hand is not None else None,
                    "type": payload["event"]["type"],
                    "payload": payload,
                    "at": entry.at,
                }
            )
            if isinstance(event, SatDown):
                player_id, bot, kind = joining[event.player]
                sitting_id = rows.insert_sitting(
                    c,
                    self.table_id,
                    event.seat,
                    event.player,
                    event.buy_in,
                    player_id=player_id,
                    bot=bot is not None,
                    bot_kind=kind,
                )
                occupant = _Occupant(sitting_id, player_id, bot, kind)
                occupants[event.player] = write.joined[event.player] = occupant
                write.stacks[occupant.sitting_id] = event.buy_in
                source = self._balance_account(c, player_id, bank, -event.buy_in)
                seat_account = accounts.get(c, ledger.SEAT, occupant.sitting_id)
                if event.buy_in:  # (none: a tournament player busted hand-for-hand, moved unplaced)
                    moves.append((index, ledger.Move(source, seat_account, event.buy_in, "buy-in")))
                if player_id is not None:  # seated: off this table's waiting list, in this write
                    rows.stop_waiting(c, self.table_id, player_id)
            elif isinstance(event, (SatOut, SatIn)):
                sitting_out[occupants[event.player].sitting_id] = isinstance(event, SatOut)
            elif isinstance(event, ToppedUp):
                occupant = occupants[event.player]
                source = self._balance_account(c, occupant.player_id, bank, -event.amount)
                target = accounts.get(c, ledger.SEAT, occupant.sitting_id)
                moves.append((index, ledger.Move(source, target, event.amount, "top-up")))
            elif isinstance(event, StoodUp):
                if not hand_moved:
                    hand_now = self._hand_chips(c, write, hand_now, before, after, entries, index, moves)
                    hand_moved = True
                leaver = occupants.pop(event.player)
                write.left.append(event.player)
                if event.stack:
                    target = self._balance_account(c, leaver.player_id, bank, event.stack)
                    seat_account = accounts.get(c, ledger.SEAT, leaver.sitting_id)
                    moves.append((index, ledger.Move(seat_account, target, event.stack, "leaving")))
                write.closed.append(leaver.sitting_id)
        last = len(events) - 1 if events else None
        if not hand_moved:
            hand_now = self._hand_chips(c, write, hand_now, before, after, entries, last, moves)
        pending.hand = hand_now

    def _write_rows(self, c: Connection, write: _Write, pending: _Rows) -> None:
        """The command's events, transfers, sittings and changed stacks, one statement each."""
        events, moves, occupants = pending.events, pending.moves, pending.occupants
        ids: list[int] = []
        statements = direct(c)
        if events:
            # Each event's id found by its number (one a command's events each): one INSERT.
            found = statements.insert_events(c, events)
            ids = [found[e["number"]] for e in events]
        for of_event, move in moves:
            move.event_id = ids[of_event] if of_event is not None else None
        ledger.write_moves(c, [move for _, move in moves])
        for sitting, out in pending.sitting_out.items():
            rows.set_sitting_out(c, sitting, out)
        if write.closed:
            rows.close_sittings(c, write.closed)
        # Only the stacks that changed since they were last written (a fold moves no chips).
        changed = []
        for name, stack in self._stacks().values():
            seated = occupants.get(name)
            if seated is None or seated.sitting_id in write.closed:
                continue
            known = write.stacks.get(seated.sitting_id, self._written.get(seated.sitting_id))
            if known != stack:
                changed.append((stack, seated.sitting_id))
                write.stacks[seated.sitting_id] = stack
        if changed:
            statements.update_stacks(c, changed)

    def _balance_account(self, c: Connection, player_id: int | None, bank: int, change: int) -> int:
        """The account a seat's chips come from or go to; the cached balance follows, in one
        UPDATE that refuses to take a balance below zero (another table may be moving it too).
        A tournament seat's chips are the tournament's: they come from and go to its account."""
        if self.hook is not None:
            return self.hook.chip_account(c)
        if player_id is None:
            return bank
        try:
            ledger.move_balance(c, player_id, change)
        except ledger.ShortBalance as short:
            raise RoomError(str(short)) from None
        return self._accounts.get(c, ledger.BALANCE, player_id)

    def _hand_chips(
        self,
        c: Connection,
        write: _Write,
        hand_now: tuple[Hand | None, int | None, dict[int, int], int],
        before: dict[int, tuple[str, int]],
        after: dict[int, tuple[str, int]],
        entries: list[Entry],
        index: int | None,
        moves: list[tuple[int | None, ledger.Move]],
    ) -> tuple[Hand | None, int | None, dict[int, int], int]:
        """The chips that went into or out of the hand's pot during this command (the moves of
        the event at ``index``); returns the hand in progress with its pot counted on."""
        hand, hand_row, hand_sittings, in_pot = hand_now
        if hand_row is None or not hand_sittings:
            return hand_now
        accounts = self._accounts
        pot = accounts.get(c, ledger.POT, hand_row)
        stood = {e.event.seat: e.event.stack for e in entries if isinstance(e.event, StoodUp)}
        for seat, sitting in hand_sittings.items():
            old = before[seat][1]
            new = stood[seat] if seat in stood else after[seat][1]
            if new == old:
                continue
            seat_account = accounts.get(c, ledger.SEAT, sitting)
            if new < old:
                moves.append((index, ledger.Move(seat_account, pot, old - new, "into pot", hand_id=hand_row)))
            else:
                moves.append((index, ledger.Move(pot, seat_account, new - old, "from pot", hand_id=hand_row)))
            in_pot += old - new
        hand_now = (hand, hand_row, hand_sittings, in_pot)
        write.hand = hand_now
        if any(isinstance(e.event, HandEnded) for e in entries):
            assert hand is not None
            rake = sum(e.event.amount for e in entries if isinstance(e.event, RakeTaken))
            # The keeper wrote every chip of this pot (a hand is never taken up again after a
            # restart: it is cancelled), so its own count is what the ledger holds.
            if in_pot != rake:
                number = next(e.hand for e in entries if isinstance(e.event, HandEnded))
                raise RoomError(f"hand {number}: {in_pot} chips left in the pot, but the rake was {rake}")
            if rake:
                house = accounts.get(c, ledger.HOUSE)
                moves.append((index, ledger.Move(pot, house, rake, "rake", hand_id=hand_row)))
            result = {"stacks": list(hand.stacks), "rake": hand.rake}
            rows.finish_hand(c, hand_row, hand_to_record(hand), entries[-1].at, result)
            index_hand(c, hand_row)  # who was dealt in: their own hands' index (store/dealt.py)
            write.hand_over = hand_row
            hand_now = write.hand = (None, None, {}, 0)
        return hand_now


def _turns(
    entries: list[Entry],
    before: dict[int, tuple[str, int]],
    turns: list[tuple[int, dict[int, tuple[str, int]]]],
) -> list[tuple[list[Entry], dict[int, tuple[str, int]], dict[int, tuple[str, int]]]]:
    """A run's ``entries`` cut into its ``turns`` (each one's last stream number and the stacks
    after it), each with the stacks before and after it."""
    parts = []
    taken = 0
    for number, after in turns:
        end = taken
        while end < len(entries) and entries[end].number <= number:
            end += 1
        parts.append((entries[taken:end], before, after))
        taken, before = end, dict(after)
    return parts


@dataclasses.dataclass(slots=True)
class _Rows:
    """What one command's transaction is to write, gathered turn by turn."""

    hand: tuple[Hand | None, int | None, dict[int, int], int]  # the hand in progress
    occupants: dict[str, _Occupant] = dataclasses.field(default_factory=dict)
    events: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    # Each transfer waits for its event's id: (index of the event in ``events``, the move).
    moves: list[tuple[int | None, ledger.Move]] = dataclasses.field(default_factory=list)
    sitting_out: dict[int, bool] = dataclasses.field(default_factory=dict)  # sat out (True) or in


@dataclasses.dataclass(slots=True)
class _Write:
    """What one command's transaction wrote, for the keeper to take on once it commits."""

    stacks: dict[int, int] = dataclasses.field(default_factory=dict)  # sitting -> stack written
    closed: list[int] = dataclasses.field(default_factory=list)  # sittings stood up
    joined: dict[str, _Occupant] = dataclasses.field(default_factory=dict)
    left: list[str] = dataclasses.field(default_factory=list)
    hand: tuple[Hand | None, int | None, dict[int, int], int] | None = None  # the hand in progress
    hand_over: int | None = None  # the hand row that ended


def create_table(store: Store, name: str, settings: TableSettings, owner_id: int | None = None) -> int:
    """Store a new table (its game and house settings; ``owner_id``: the account opening it);
    returns its id."""
    fields = {f.name: getattr(settings, f.name) for f in dataclasses.fields(settings) if f.name != "game"}
    with store.transaction() as s:
        game = game_to_wire(settings.game)
        row = TableRow(name=name, game=game, settings=fields, created_at=time.time(), owner_id=owner_id)
        s.add(row)
        s.flush()
        return row.id
