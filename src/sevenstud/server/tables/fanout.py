"""A table's fan-out: the connections at it (:class:`Watcher`) and what each is sent.

After each step of the table's actor, :meth:`FanOut.send` puts in every connection's bounded
outbox (:class:`~sevenstud.server.connection.Connection`) what it may see of the table now,
never waiting on one: the stream's entries since the last it was sent (or a snapshot, when
those are no longer kept or too many), the messages waiting for it, the clock, its turn and a
``view``. What a connection sees is worked out at each send from the player logged in on it and
where that player sits then (:meth:`FanOut.seat_of`): a down card reaches its owner's
connections alone. Each message alike for every connection is encoded once.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from sevenstud.server.connection import CLOSED, CLOSED_REASON, GONE, GONE_REASON, Connection, Encoded, encode
from sevenstud.server.protocol import Outgoing, TableClosed, event_message
from sevenstud.server.tables.keeper import TableKeeper
from sevenstud.server.tables.messages import TableMessages
from sevenstud.table import Entry, StreamGap

SPARE_MESSAGES = 8
"""Room kept in an outbox past a catch-up (the clock, a turn, a view and the like)."""


@dataclasses.dataclass(slots=True)
class Watcher:
    """A connection at a table: the connection (who is logged in on it, its outbox), the last
    stream number it was sent, whether it is owed a snapshot, the messages waiting to go out
    first, the clock and the turn it was last told, and whether it asked for a ``view``
    message after every batch (the browser table). It holds no seat: the seat it sees for is
    read at every send from where its player sits then (:meth:`FanOut.seat_of`)."""

    connection: Connection
    last: int
    snapshot: bool = False
    pending: list[Outgoing | Encoded] = dataclasses.field(default_factory=list)
    after: list[Outgoing | Encoded] = dataclasses.field(default_factory=list)
    """Messages to go out after the stream's part of the next batch: those whose number is the
    table's now (the waiting list, a seat offered, a chat line), after the entries up to it."""
    clock: int | None = None
    turn: int | None = None
    views: bool = False

    @property
    def player(self) -> str | None:
        """The player logged in on the connection now."""
        return self.connection.player


class FanOut:
    """The connections at one table and what each is sent (see the module)."""

    def __init__(
        self,
        keeper: TableKeeper,
        messages: TableMessages,
        may_seat_bots: Callable[[Connection], bool] = lambda _: False,
    ) -> None:
        self.keeper = keeper
        self.messages = messages
        self.may_seat_bots = may_seat_bots
        """Whether a connection's player may seat a bot here (the room's rule, for its views)."""
        self.watchers: dict[int, Watcher] = {}
        """Every connection at the table, by its key."""

    def seat_of(self, connection: Connection) -> int | None:
        """The seat a connection sees for now: where the player logged in on it sits at this
        moment (None: a spectator). Read at every send, never kept."""
        player = connection.player
        if player is None or player not in self.keeper.occupants:
            return None
        return self.keeper.table.seat_of(player)

    def watch(self, watcher: Watcher) -> Watcher:
        """Add a connection's watcher (in place of one it had here)."""
        self.watchers[watcher.connection.key] = watcher
        return watcher

    def unwatch(self, key: int) -> None:
        """Drop a connection."""
        self.watchers.pop(key, None)

    def tell(self, player: str, message: Outgoing) -> None:
        """Give the connections of ``player`` a message (the waiting list's, a seat offered)."""
        # After the entries of this step: the message's number is the table's now, and a client
        # must have the entries up to it first (an offer arrived before the stand-up it followed).
        for watcher in self.watchers.values():
            if watcher.player == player:
                watcher.after.append(message)

    def tell_everyone(self, message: Outgoing) -> None:
        """Give every connection a message after the entries up to its number (a chat line),
        encoded once: it is the same for all."""
        said = Encoded(encode(message))
        for watcher in self.watchers.values():
            watcher.after.append(said)

    def close(self, closed: TableClosed | None) -> None:
        """Close every connection: with :data:`GONE` (4002), or sent ``closed`` (at the table's
        number) then closed with :data:`CLOSED` (4004) for a table closed for good."""
        # The same message for every connection here, at the table's number: encoded once.
        said = None
        if closed is not None:
            said = Encoded(encode(closed.model_copy(update={"number": self.keeper.number})))
        for watcher in self.watchers.values():
            if said is not None:
                watcher.connection.put(said)
                watcher.connection.finish(CLOSED, CLOSED_REASON)
            else:
                watcher.connection.finish(GONE, GONE_REASON)
        self.watchers.clear()

    def send(self) -> None:
        """Hand every connection what it may see of the table now (never waiting on one: each
        connection's own writer sends its outbox); a connection cut off or gone is dropped."""
        table = self.keeper.table
        said = self.messages
        said.presenter.follow(table)
        clock = said.clock_message()
        # The same clock for every connection: encoded once, as each entry is.
        clock_text = Encoded(encode(clock)) if clock is not None else None
        # Each entry encoded once for every connection that sees it alike (all of them, but for
        # the down cards): entries are values, equal when they say the same.
        encoded: dict[Entry, Encoded] = {}
        for key, watcher in list(self.watchers.items()):
            connection = watcher.connection
            if connection.closed:
                self.watchers.pop(key, None)
                continue
            # Who is logged in on it and where that player sits, now: never a seat kept.
            seat = self.seat_of(connection)
            messages: list[Outgoing | Encoded] = list(watcher.pending)
            watcher.pending = []
            if watcher.snapshot or watcher.last < table.number:
                entries: tuple[Entry, ...] = ()
                if not watcher.snapshot:
                    try:
                        entries = table.events_since(watcher.last, seat)
                    except StreamGap:  # older than the kept history: the table as it is now
                        watcher.snapshot = True
                    else:
                        # More than its outbox takes (a client back from far behind): the
                        # table as it is now, rather than cutting it off for its catch-up.
                        if len(entries) + len(messages) + SPARE_MESSAGES > connection.room:
                            watcher.snapshot = True
                if watcher.snapshot:
                    messages.append(said.snapshot(seat))
                    watcher.snapshot = False
                else:
                    for entry in entries:
                        text = encoded.get(entry)
                        if text is None:
                            text = encoded[entry] = Encoded(encode(event_message(entry)))
                        messages.append(text)
                watcher.last = table.number
            if watcher.after:
                messages += watcher.after
                watcher.after = []
            if clock is not None and clock_text is not None and watcher.clock != clock.number:
                messages.append(clock_text)
                watcher.clock = clock.number
            if seat is not None and clock is not None and watcher.turn != clock.number:
                yours = said.your_turn(seat, connection.lang)
                if yours is not None:
                    messages.append(yours)
                    watcher.turn = clock.number
            if watcher.views and messages:
                bots = self.may_seat_bots(connection)
                messages.append(said.view(seat, watcher.player, connection.lang, bots))
            for message in messages:
                if not connection.put(message):  # cut off for falling behind, or gone
                    self.watchers.pop(key, None)
                    break


__all__ = ["SPARE_MESSAGES", "FanOut", "Watcher"]
