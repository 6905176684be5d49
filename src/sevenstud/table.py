"""A stud table: seats and sessions, hand after hand, with the clock as data.

A :class:`Table` holds 2 to 8 seats (numbered 1 to ``seats``, as card rooms print them) and
drives one :class:`~sevenstud.hand.Hand` at a time through its public surface. It never reads a
clock, never sleeps and never does I/O: every command takes ``now`` (seconds, any origin, never
going backwards) and each hand is given its deck (or a seed) by the caller. A server, self-play
or an RL environment all drive it the same way.

In short (``docs/table.md`` gives every house rule and the reason for it): players (string
ids) sit down in seats 1 to ``seats`` with a buy-in, sit out and come back, top up between hands
and leave with their stack (during a hand: folded at their turn, paid when it ends); each hand is
dealt to the players sitting in, in seat order, and only they post the ante; a player who cannot
post the ante is sat out. The seat to act has ``action_time`` plus its time bank;
:meth:`Table.time_out` checks or folds for it, and repeated time-outs sit it out (a disconnected
player is the same thing to the table). The table's events and each hand's events form one
stream numbered 1, 2, 3 ..., and :meth:`Table.events_since` gives each viewer what it may see,
redacted by the engine's own :meth:`Hand.view <sevenstud.hand.Hand.view>`, its seats said as
table seats. A tournament table (``TableSettings(tournament=True)``) seats any stack, deals in
a player who is away (their hand dead from the deal: TDA 30) and never one without chips, deals
its game with the TDA's stud rulings and changes it between hands (:meth:`Table.set_game`, a new
level).

>>> from sevenstud.games import Stakes, StudHiLo
>>> table = Table(TableSettings(StudHiLo(Stakes(1, 2, 5, 10)), seats=4, min_buy_in=40,
...                             max_buy_in=200))
>>> _ = table.sit_down("ann", 1, 100, now=0); _ = table.sit_down("bob", 3, 100, now=0)
>>> _ = table.start_hand(now=1, seed=7)
>>> table.to_act, [str(a) for a in table.legal_actions()]
(3, ['bring-in 2', 'complete to 5'])
>>> _ = table.act(3, "bring-in", now=2); _ = table.act(1, "fold", now=3)
>>> table.hand_in_progress, [(s.seat, s.stack) for s in table.view(None).seats]
(False, [(1, 99), (3, 101)])
"""

from __future__ import annotations

import dataclasses
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import islice
from typing import Any

from sevenstud.cards import CardError
from sevenstud.deck import Deck
from sevenstud.games import Game
from sevenstud.hand import (
    Action,
    ActionKind,
    Event,
    Hand,
    HandError,
    IllegalAction,
    SeatView,
)
from sevenstud.refusals import Words
from sevenstud.table_events import (
    MAX_SEATS,
    MIN_SEATS,
    ClockStarted,
    DealtHand,
    Entry,
    HandStarted,
    KeptEntry,
    Leaving,
    SatDown,
    SatIn,
    SatOut,
    SeatRecord,
    SeatState,
    StoodUp,
    StreamGap,
    TableError,
    TableEvent,
    TableRecord,
    TableSettings,
    TableView,
    TimedOut,
    ToppedUp,
    _is_chips,
    _is_time,
    _seat_number,
)
from sevenstud.table_restore import check_record
from sevenstud.table_stream import _HandRecord, _Raw
from sevenstud.wire import WIRE_VERSION, WireError, from_wire, to_wire

__all__ = [
    "MAX_SEATS",
    "MIN_SEATS",
    "ClockStarted",
    "DealtHand",
    "Entry",
    "HandStarted",
    "KeptEntry",
    "Leaving",
    "SatDown",
    "SatIn",
    "SatOut",
    "SeatRecord",
    "SeatState",
    "StoodUp",
    "StreamGap",
    "Table",
    "TableError",
    "TableEvent",
    "TableRecord",
    "TableSettings",
    "TableView",
    "TimedOut",
    "ToppedUp",
]


# ---------------------------------------------------------------------- internals


@dataclass(slots=True)
class _Seat:
    player: str
    stack: int
    time_bank: float
    first_hand: int
    """The first hand this sitting could be dealt: the seat sees no down cards of earlier ones."""
    sitting_out: bool = False
    leaving: bool = False
    time_outs: int = 0
    short_of_ante: bool = False
    """Sat out by the table for want of the ante: a top-up that covers it deals them in again."""


def _pick(legal: Sequence[Action], order: Sequence[ActionKind]) -> Action:
    for kind in order:
        for action in legal:
            if action.kind is kind:
                return action
    return legal[0]  # a bring-in (it cannot be folded): the smallest forced action


_TIME_OUT_ORDER = (ActionKind.CHECK, ActionKind.FOLD, ActionKind.MUCK)
_LEAVING_ORDER = (ActionKind.FOLD, ActionKind.CHECK, ActionKind.MUCK)
_AWAY_ORDER = (ActionKind.FOLD, ActionKind.CHECK, ActionKind.SHOW, ActionKind.MUCK)
"""A tournament player away: folded at their turn; all in to a showdown, their hand is shown."""


class Table:
    """A stud table: see the module's documentation."""

    def __init__(self, settings: TableSettings) -> None:
        if not isinstance(settings, TableSettings):
            raise TableError(f"a table needs TableSettings, not {settings!r}")
        self.settings = settings
        self._seats: dict[int, _Seat] = {}
        self._stream: deque[_Raw] = deque(maxlen=settings.history)
        self._number = 0
        self._now: float | None = None
        self._record: _HandRecord | None = None
        self._finished: _HandRecord | None = None  # the last hand over
        self._hands = 0
        self.raked = 0
        """Chips the house has taken as rake: bought in = at the table + taken away + raked."""
        self._turn_start = 0.0
        self._deadline: float | None = None

    # ------------------------------------------------------------------ reading

    @property
    def number(self) -> int:
        """The last number in the stream (0 before anything happened)."""
        return self._number

    @property
    def hand_in_progress(self) -> bool:
        """Whether a hand is being played."""
        return self._record is not None

    def dealt_hand(self, number: int) -> Hand | None:
        """Hand ``number`` with every card, while it is played or the last one over (a hand
        can end in the command that dealt it): for the server's record, never for a player."""
        for record in (self._record, self._finished):
            if record is not None and record.number == number:
                return record.hand
        return None

    @property
    def hand_number(self) -> int | None:
        """The number of the hand being played (None between hands)."""
        return self._record.number if self._record is not None else None

    @property
    def street(self) -> int | None:
        """The street of the hand being played (None between hands)."""
        return self._record.hand.street if self._record is not None else None

    @property
    def hand_seats(self) -> tuple[int, ...]:
        """The table seat of each seat of the hand in progress."""
        return self._record.seats if self._record is not None else ()

    @property
    def to_act(self) -> int | None:
        """The table seat to act, or None."""
        record = self._record
        if record is None or record.hand.to_act is None:
            return None
        return record.seats[record.hand.to_act]

    @property
    def deadline(self) -> float | None:
        """When the seat to act runs out of time."""
        return self._deadline if self._record is not None else None

    def legal_actions(self) -> list[Action]:
        """What the seat to act may do (empty between hands)."""
        return self._record.hand.legal_actions() if self._record is not None else []

    def seat_of(self, player: str) -> int:
        """The seat of a player at the table."""
        for number, seat in self._seats.items():
            if seat.player == player:
                return number
        raise TableError("player_not_seated", player=repr(player))

    def player_at(self, seat: int) -> str | None:
        """Who sits in the seat (None: empty)."""
        self._check_seat_number(seat)
        occupant = self._seats.get(seat)
        return occupant.player if occupant is not None else None

    def can_start_hand(self) -> bool:
        """Whether :meth:`start_hand` would deal: no hand in progress and two players sitting in."""
        return self._record is None and len(self._sitting_in()) >= 2

    def _sitting_in(self) -> list[int]:
        if self.settings.tournament:  # dealt in while away (anted away), never without chips
            return sorted(n for n, s in self._seats.items() if s.stack > 0 and not s.leaving)
        return sorted(n for n, s in self._seats.items() if not s.sitting_out and not s.leaving)

    def _stack(self, number: int) -> int:
        seat = self._seats[number]
        record = self._record
        if record is not None and seat.player in record.players:
            return record.hand.stacks[record.players[seat.player]]
        return seat.stack

    def stacks(self) -> dict[int, tuple[str, int]]:
        """Each taken seat's player and stack now, by seat (as :meth:`view` has them, without
        the rest)."""
        return {n: (s.player, self._stack(n)) for n, s in sorted(self._seats.items())}

    @property
    def players(self) -> tuple[str, ...]:
        """Who sits at the table, by seat."""
        return tuple(s.player for _, s in sorted(self._seats.items()))

    def street_bet(self, seat: int) -> int:
        """What the seat has put in on this street of the hand in progress (0: not in it)."""
        self._check_seat_number(seat)
        record = self._record
        if record is None:
            return 0
        hand_seat = record.seats.index(seat) if seat in record.seats else None
        return record.hand.street_bets[hand_seat] if hand_seat is not None else 0

    def view(self, viewer: int | None) -> TableView:
        """The table now for a seat (its occupant's own cards shown) or a spectator (None)."""
        self._check_viewer(viewer)
        record = self._record
        seats = tuple(
            SeatState(
                seat=n,
                player=s.player,
                stack=self._stack(n),
                sitting_out=s.sitting_out,
                leaving=s.leaving,
                in_hand=record is not None and s.player in record.players,
                time_bank=s.time_bank,
                time_outs=s.time_outs,
            )
            for n, s in sorted(self._seats.items())
        )
        hand_view = None
        if record is not None:
            hand = record.hand
            hand_view = hand.view(self._hand_seat(record, viewer), since=len(hand.events))
        return TableView(
            viewer=viewer,
            number=self._number,
            now=self._now if self._now is not None else 0.0,
            seats=seats,
            hand_number=record.number if record is not None else None,
            hand=hand_view,
            hand_seats=record.seats if record is not None else (),
            to_act=self.to_act,
            deadline=self.deadline,
        )

    def hand_view(self, viewer: int | None) -> SeatView | None:
        """The hand in progress as a seat (or a spectator, None) may see it: ``view(viewer).hand``
        without the seats around it (None between hands). What a bot at the table decides from,
        once a turn: the seats' part was a third of the view's cost."""
        self._check_viewer(viewer)
        record = self._record
        if record is None:
            return None
        hand = record.hand
        return hand.view(self._hand_seat(record, viewer), since=len(hand.events))

    def _hand_seat(self, record: _HandRecord, viewer: int | None) -> int | None:
        """The viewer's seat in that hand, when the seat's present occupant was dealt into it in
        this sitting; else None (a spectator's view)."""
        occupant = self._seats.get(viewer) if viewer is not None else None
        if occupant is None or record.number < occupant.first_hand:
            return None
        hand_seat = record.players.get(occupant.player)
        if hand_seat is None or record.seats[hand_seat] != viewer:
            return None
        return hand_seat

    def events_since(self, number: int, viewer: int | None) -> tuple[Entry, ...]:
        """Every entry after ``number`` (0: from the start), as ``viewer`` may see it."""
        if not _is_chips(number) or number < 0:
            raise TableError(f"ask from a stream number >= 0, not {number!r}")
        if number > self._number:
            raise TableError(f"stream number {number} is ahead of the table's last, {self._number}")
        self._check_viewer(viewer)
        stream = self._stream
        # A table restored without its stream keeps nothing before its number.
        oldest = stream[0].number if stream else self._number + 1
        if number < oldest - 1:
            raise StreamGap(
                f"entries after {number} are no longer kept (the oldest kept is "
                f"{oldest}): resynchronise from view() and continue from its number"
            )
        return self._entries(number, viewer)

    def _entries(self, number: int, viewer: int | None) -> tuple[Entry, ...]:
        """The kept entries after ``number``, redacted for ``viewer``."""
        stream = self._stream
        if not stream or number >= self._number:
            return ()
        # The wanted entries are the newest: walk back from the end, never over the whole history.
        take = min(self._number - number, len(stream))
        wanted = list(islice(reversed(stream), take))
        wanted.reverse()
        # One engine view per hand in range, from its first wanted event: the engine redacts.
        redacted: dict[int, tuple[int, tuple[Event, ...]]] = {}
        for raw in wanted:
            record = raw.record
            if record is not None and record.number not in redacted:
                since = raw.index
                seen = record.hand.events_seen(self._hand_seat(record, viewer), since)
                redacted[record.number] = (since, seen)
        entries = []
        for raw in wanted:
            record = raw.record
            if record is None:
                assert raw.event is not None
                entries.append(Entry(raw.number, raw.at, raw.hand, raw.event))
                continue
            since, events = redacted[record.number]
            entries.append(record.entry(raw, events[raw.index - since]))
        return tuple(entries)

    # ------------------------------------------------------------------ checks

    def _check_now(self, now: object) -> float:
        if not _is_time(now):
            raise TableError(f"now must be a finite number of seconds, not {now!r}")
        assert isinstance(now, int | float)
        if self._now is not None and now < self._now:
            raise TableError(f"the time went backwards: {now} is before {self._now}")
        return float(now)

    def _check_seat_number(self, seat: object) -> int:
        return _seat_number(seat, self.settings.seats)

    def _check_viewer(self, viewer: object) -> None:
        if viewer is not None:
            self._check_seat_number(viewer)

    def _check_player(self, player: object) -> str:
        if not isinstance(player, str) or not player.strip():
            raise TableError(f"a player is named by a non-empty string id, not {player!r}")
        return player

    def _check_amount(self, amount: object, what: str) -> int:
        if not _is_chips(amount) or amount <= 0:  # type: ignore[operator]
            raise TableError("chips_not_positive", what=Words(what), amount=repr(amount))
        assert isinstance(amount, int)
        return amount

    def _in_hand(self, player: str) -> bool:
        return self._record is not None and player in self._record.players

    # ------------------------------------------------------------------ the stream

    def _emit(self, now: float, event: TableEvent) -> Entry:
        self._number += 1
        hand = self._record.number if self._record is not None else None
        self._stream.append(_Raw(self._number, now, hand, event))
        return Entry(self._number, now, hand, event)

    def _stream_hand(self, now: float) -> None:
        record = self._record
        assert record is not None
        events = record.hand.events
        for index in range(record.streamed, len(events)):
            self._number += 1
            self._stream.append(_Raw(self._number, now, record.number, None, record, index))
        record.streamed = len(events)

    # ------------------------------------------------------------------ sessions

    def sit_down(self, player: str, seat: int, buy_in: int, now: float) -> Entry:
        """Seat a player with a buy-in; dealt in from the next hand."""
        when = self._check_now(now)
        player = self._check_player(player)
        seat = self._check_seat_number(seat)
        if not (self.settings.tournament and buy_in == 0 and _is_chips(buy_in)):
            buy_in = self._check_amount(buy_in, "the buy-in")  # a tournament may seat 0 (waiting)
        occupant = self._seats.get(seat)
        if occupant is not None:
            raise TableError("seat_taken", seat=seat, player=repr(occupant.player))
        if any(s.player == player for s in self._seats.values()):
            raise TableError("player_seated_already", player=repr(player), seat=self.seat_of(player))
        low, high = self.settings.min_buy_in, self.settings.max_buy_in
        if not low <= buy_in <= high and not self.settings.tournament:
            raise TableError("buy_in_range", low=low, high=high, amount=buy_in)
        self._now = when
        self._seats[seat] = _Seat(player, buy_in, float(self.settings.time_bank_start), self._hands + 1)
        return self._emit(when, SatDown(seat, player, buy_in))

    def top_up(self, player: str, amount: int, now: float) -> Entry:
        """Add chips to a player's stack, up to ``max_buy_in``; not while dealt into a hand. A
        player the table sat out for want of the ante is dealt in again once the stack covers
        it (a ``SatIn`` follows the ``ToppedUp`` returned); one who sat out by choice or after
        time-outs stays out until :meth:`sit_in`."""
        when = self._check_now(now)
        number = self.seat_of(self._check_player(player))
        amount = self._check_amount(amount, "a top-up")
        seat = self._seats[number]
        if self._in_hand(player):
            raise TableError("top_up_in_hand", player=repr(player))
        high = self.settings.max_buy_in
        if seat.stack + amount > high and not self.settings.tournament:
            raise TableError(
                "top_up_above_maximum",
                amount=amount,
                player=repr(player),
                stack=seat.stack + amount,
                high=high,
                more=max(0, high - seat.stack),
            )
        self._now = when
        seat.stack += amount
        entry = self._emit(when, ToppedUp(number, player, amount, seat.stack))
        if seat.short_of_ante and seat.stack >= max(1, self.settings.game.stakes.ante):
            seat.sitting_out = seat.short_of_ante = False
            self._emit(when, SatIn(number, player))
        return entry

    def sit_out(self, player: str, now: float) -> Entry:
        """Not dealt in from the next hand (a hand already dealt is played on)."""
        when = self._check_now(now)
        number = self.seat_of(self._check_player(player))
        seat = self._seats[number]
        if seat.leaving:
            raise TableError("leaving_already", player=repr(player))
        if seat.sitting_out:
            raise TableError("sitting_out_already", player=repr(player))
        self._now = when
        seat.sitting_out = True
        return self._emit(when, SatOut(number, player, "asked"))

    def sit_in(self, player: str, now: float) -> Entry:
        """Dealt in again from the next hand; the stack must cover the ante. A player whom
        time-outs sat out plays their turns again from now on."""
        when = self._check_now(now)
        number = self.seat_of(self._check_player(player))
        seat = self._seats[number]
        if seat.leaving:
            raise TableError("leaving_table", player=repr(player))
        if not seat.sitting_out:
            raise TableError("sitting_in_already", player=repr(player))
        least = max(1, self.settings.game.stakes.ante)
        short = self._stack(number) < least and not self._in_hand(player)
        if short and not self.settings.tournament:  # a tournament seat without chips waits
            raise TableError("short_of_ante", player=repr(player), stack=seat.stack, more=least - seat.stack)
        self._now = when
        seat.sitting_out = seat.short_of_ante = False
        seat.time_outs = 0
        return self._emit(when, SatIn(number, player))

    def leave(self, player: str, now: float) -> Entry:
        """Stand up with the stack: at once between hands or when not dealt in; else the hand is
        folded (at once if it is this player's turn, or when the turn comes) and the player stands
        up when the hand ends."""
        when = self._check_now(now)
        number = self.seat_of(self._check_player(player))
        seat = self._seats[number]
        if seat.leaving:
            raise TableError("leaving_after_hand", player=repr(player))
        self._now = when
        if not self._in_hand(player):
            return self._stand_up(number, when)
        seat.leaving = True
        entry = self._emit(when, Leaving(number, player))
        if self.to_act == number:  # else the clock of the seat to act runs on untouched
            self._play_on(when)
        return entry

    def _stand_up(self, number: int, now: float) -> Entry:
        seat = self._seats.pop(number)
        return self._emit(now, StoodUp(number, seat.player, seat.stack))

    # ------------------------------------------------------------------ hands

    def set_game(self, game: Game, now: float) -> None:
        """Deal ``game`` (its stakes) from the next hand: a tournament's new level, between
        hands only. The hands already dealt keep their own game; the table's record holds the
        new one."""
        when = self._check_now(now)
        if self._record is not None:
            raise TableError(f"hand {self._record.number} is being played: the game changes between hands")
        try:
            settings = dataclasses.replace(self.settings, game=game)
        except TableError as error:
            raise TableError(f"the table cannot deal {game!r}: {error}") from None
        self._now = when
        self.settings = settings

    def start_hand(
        self, now: float, deck: Deck | None = None, *, seed: int | str | None = None
    ) -> list[Entry]:
        """Deal a hand to the players sitting in, from ``deck`` (or one shuffled from ``seed``):
        the table draws no randomness itself. Returns the entries caused, as a spectator sees
        them."""
        when = self._check_now(now)
        if self._record is not None:
            raise TableError(f"hand {self._record.number} is still being played")
        if (deck is None) == (seed is None):
            raise TableError("give the hand's deck or a seed (one of them): the table never shuffles")
        if deck is not None and not isinstance(deck, Deck):
            raise TableError(f"deck must be a Deck, not {deck!r}")
        if seed is not None and (not isinstance(seed, int | str) or isinstance(seed, bool)):
            raise TableError(f"seed must be a whole number or a string, not {seed!r}")
        players = self._sitting_in()
        if len(players) < 2:
            raise TableError(
                f"a hand needs two players sitting in, and {len(players)} "
                f"{'is' if len(players) == 1 else 'are'}"
            )
        stacks = [self._seats[n].stack for n in players]
        # A tournament player away at the deal has a dead hand (TDA 30, RP-10-C): anted, dealt
        # 3rd street, the bring-in posted with the low card, and out.
        dead = [i for i, n in enumerate(players) if self.settings.tournament and self._seats[n].sitting_out]
        try:
            if deck is not None:
                hand = Hand(self.settings.game, stacks, deck, dead=dead)
            else:
                hand = Hand(self.settings.game, stacks, seed=seed, dead=dead)
        except (HandError, CardError) as error:
            raise TableError(f"the hand cannot be dealt: {error}") from None
        self._now = when
        self._hands += 1
        names = tuple(self._seats[n].player for n in players)
        record = _HandRecord(self._hands, hand, tuple(players), {p: i for i, p in enumerate(names)})
        settings = self.settings
        for n in players:
            seat = self._seats[n]
            refilled = seat.time_bank + settings.time_bank_refill
            seat.time_bank = min(float(settings.time_bank_max), refilled)
        if self._finished is not None:
            # Its watchers have had its entries: a late one builds them again (a reconnect).
            self._finished.entries.clear()
        self._record = record
        start = self._number
        self._emit(when, HandStarted(record.number, record.seats, names, tuple(stacks)))
        self._stream_hand(when)
        self._play_on(when)
        return list(self._entries(start, None))

    def act(self, seat: int, action: Action | str, now: float) -> list[Entry]:
        """The seat to act acts (by its deadline); returns the stream entries it caused, as
        that seat sees them."""
        when = self._check_now(now)
        seat = self._check_seat_number(seat)
        record = self._record
        if record is None:
            raise TableError("no_hand")
        occupant = self._seats.get(seat)
        hand_seat = None if occupant is None else record.players.get(occupant.player)
        if occupant is None or hand_seat is None:
            raise TableError("seat_not_in_hand", seat=seat, hand=record.number)
        if self.to_act != seat:
            raise TableError("not_your_turn", seat=seat, other=self.to_act)
        if not isinstance(action, Action | str):
            raise TableError(f"an action is an Action or a string such as 'call', not {action!r}")
        assert self._deadline is not None
        if when > self._deadline:
            raise TableError("time_ran_out", seat=seat, deadline=self._deadline)
        try:
            legal = record.hand.verify(action, hand_seat)
        except IllegalAction as error:
            raise TableError("seat_refused", seat=seat, hand_seat=hand_seat, error=error) from None
        start = self._number
        self._now = when
        over = when - self._turn_start - self.settings.action_time
        if over > 0:
            occupant.time_bank = max(0.0, occupant.time_bank - over)
        occupant.time_outs = 0
        record.hand.act(legal, hand_seat)
        self._stream_hand(when)
        self._play_on(when)
        return list(self._entries(start, seat))

    def time_out(self, seat: int, now: float) -> list[Entry]:
        """The seat to act ran out of time (``now`` at or after its deadline): check if it may,
        else fold (a bring-in is posted); after ``time_outs_to_sit_out`` in a row the player is
        sat out and the table plays the rest of the hand for them. Returns the entries caused,
        as a spectator sees them."""
        when = self._check_now(now)
        seat = self._check_seat_number(seat)
        record = self._record
        if record is None:
            raise TableError("no_hand")
        if self.to_act != seat:
            raise TableError(f"seat {seat} is not to act: seat {self.to_act} is")
        assert self._deadline is not None
        if when < self._deadline:
            raise TableError(f"seat {seat} still has time: its deadline is {self._deadline}, it is {when}")
        start = self._number
        self._now = when
        occupant = self._seats[seat]
        occupant.time_bank = 0.0
        occupant.time_outs += 1
        self._emit(when, TimedOut(seat, occupant.player, occupant.time_outs))
        hand = record.hand
        hand_seat = record.players[occupant.player]
        hand.act(_pick(hand.legal_actions(), _TIME_OUT_ORDER), hand_seat)
        self._stream_hand(when)
        if occupant.time_outs >= self.settings.time_outs_to_sit_out and not occupant.sitting_out:
            occupant.sitting_out = True
            self._emit(when, SatOut(seat, occupant.player, "time-outs"))
        self._play_on(when)
        return list(self._entries(start, None))

    def _absent(self, seat: _Seat) -> tuple[ActionKind, ...] | None:
        """How the table plays an absent player's turn, or None when the player plays it."""
        if seat.leaving:
            return _LEAVING_ORDER
        if seat.sitting_out and self.settings.tournament:
            return _AWAY_ORDER  # a tournament's absent hand is dead: folded, never checked
        if seat.time_outs >= self.settings.time_outs_to_sit_out:
            return _TIME_OUT_ORDER
        return None

    def _play_on(self, now: float) -> None:
        """Play the turns of absent players at once, then start the clock of the seat to act or
        finish the hand."""
        record = self._record
        assert record is not None
        hand = record.hand
        while not hand.is_over:
            actor = hand.to_act
            assert actor is not None  # a hand not over waits for someone
            seat = self._seats[record.seats[actor]]
            order = self._absent(seat)
            if order is None:
                break
            action = _pick(hand.legal_actions(), order)
            if order is not _TIME_OUT_ORDER and action.kind is ActionKind.CHECK:
                hand.fold_out(actor)  # leaving is not a betting action: out, whatever fold_without_bet says
            else:
                hand.act(action, actor)
            self._stream_hand(now)
        if hand.is_over:
            self._finish_hand(now)
            return
        number = self.to_act
        assert number is not None
        seat = self._seats[number]
        self._turn_start = now
        self._deadline = now + self.settings.action_time + seat.time_bank
        self._emit(now, ClockStarted(number, self._deadline, seat.time_bank))

    def _finish_hand(self, now: float) -> None:
        record = self._record
        assert record is not None
        final = record.hand.stacks
        # Whatever the hand did not give back to the players is the house's (its rake).
        self.raked += sum(record.hand.starting_stacks) - sum(final)
        for hand_seat, number in enumerate(record.seats):
            self._seats[number].stack = final[hand_seat]
        self._finished, self._record = record, None
        self._deadline = None
        least = max(1, self.settings.game.stakes.ante)
        for number in record.seats:
            seat = self._seats[number]
            if seat.leaving:
                self._stand_up(number, now)
            elif seat.stack < least and not seat.sitting_out and not self.settings.tournament:
                seat.sitting_out = seat.short_of_ante = True
                self._emit(now, SatOut(number, seat.player, "cannot post the ante"))

    # ------------------------------------------------------------------ chips

    def chips_at_table(self) -> int:
        """Every chip at the table: the stacks and the pot of the hand in progress."""
        record = self._record
        # A leaver dealt in stays seated until the hand ends, so every stack is counted here.
        total = sum(self._stack(n) for n in self._seats)
        if record is not None:
            total += record.hand.pot
        return total

    # ------------------------------------------------------------------ saving and restoring

    def to_record(self, *, stream: bool = True) -> dict[str, Any]:
        """Everything the table is, as a JSON-ready dict (``docs/table.md``, "Saving and
        restoring"): :meth:`from_record` gives back a table that behaves exactly as this one.
        It holds every card of the hands it keeps: storage only, never for a player. With
        ``stream=False`` the stream's kept entries (and the past hands they need) are left out:
        the restored table goes on from the same number, and a client asking from before it
        resynchronises (:class:`StreamGap`)."""
        kept = tuple(self._stream) if stream else ()
        records = {raw.record.number: raw.record for raw in kept if raw.record is not None}
        for held in (self._finished, self._record):  # dealt_hand() answers for both
            if held is not None:
                records[held.number] = held
        dealt = tuple(
            DealtHand(r.number, r.seats, tuple(sorted(r.players, key=r.players.__getitem__)), r.hand)
            for _, r in sorted(records.items())
        )
        seats = tuple(
            SeatRecord(
                n, s.player, s.stack, s.time_bank, s.first_hand, s.sitting_out, s.leaving, s.time_outs,
                s.short_of_ante,
            )
            for n, s in sorted(self._seats.items())
        )
        return to_wire(
            TableRecord(
                version=WIRE_VERSION,
                settings=self.settings,
                now=self._now,
                number=self._number,
                hands=self._hands,
                raked=self.raked,
                turn_start=self._turn_start,
                deadline=self._deadline,
                seats=seats,
                in_progress=self._record.number if self._record is not None else None,
                dealt=dealt,
                stream=tuple(KeptEntry(r.number, r.at, r.hand, r.event, r.index) for r in kept),
            )
        )

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Table:
        """The table of :meth:`to_record`; a malformed or inconsistent record raises
        :class:`TableError` (a :class:`~sevenstud.wire.WireError` for the format itself) naming
        what is wrong."""
        try:
            saved = from_wire(record)
        except WireError as error:
            raise TableError(f"not a table record: {error}") from None
        if not isinstance(saved, TableRecord):
            raise TableError(f"not a table record but a {type(saved).__name__}")
        parts = check_record(saved)  # every part checked against the others first
        table = Table(saved.settings)
        for seat in parts.seats:
            table._seats[seat.seat] = _Seat(
                seat.player, seat.stack, seat.time_bank, seat.first_hand, seat.sitting_out,
                seat.leaving, seat.time_outs, seat.short_of_ante,
            )
        table._record, table._finished = parts.in_progress, parts.finished
        table._stream.extend(parts.stream)
        table._now, table._number, table._hands = saved.now, saved.number, saved.hands
        table.raked, table._turn_start, table._deadline = saved.raked, saved.turn_start, saved.deadline
        return table
