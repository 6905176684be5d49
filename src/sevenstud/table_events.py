"""The table's vocabulary: its settings, its own events, the entries of its stream, its view,
and the shape of its saved record (:meth:`Table.to_record <sevenstud.table.Table.to_record>`).

:mod:`sevenstud.table` re-exports every name here; the wire format (:mod:`sevenstud.wire`)
encodes them all, built from these annotations.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Literal

from sevenstud.chips import is_whole
from sevenstud.games import Game, tournament_rules
from sevenstud.hand import Event, Hand, SeatView
from sevenstud.refusals import Refusal

MIN_SEATS, MAX_SEATS = 2, 8


class TableError(Refusal, ValueError):
    """A command the table cannot carry out now; the message says what was wrong, and the
    table is left exactly as it was."""


class StreamGap(TableError):
    """The entries asked for are no longer kept: resynchronise from :meth:`Table.view` and
    continue from its ``number``."""


def _is_time(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _is_chips(value: object) -> bool:
    return is_whole(value)  # a whole number of chips, a seat or a count (sevenstud.chips)


def _seat_number(seat: object, seats: int) -> int:
    """``seat`` when it is one of a table's seats 1 to ``seats``; a :class:`TableError` otherwise."""
    if not _is_chips(seat) or not 1 <= seat <= seats:  # type: ignore[operator]
        raise TableError("seat_out_of_range", seats=seats, seat=repr(seat))
    assert isinstance(seat, int)
    return seat


@dataclass(frozen=True, slots=True)
class TableSettings:
    """A table's fixed settings. Times are in seconds, chips in the stakes' smallest unit."""

    game: Game
    seats: int = 8
    """How many seats (2 to 8), numbered 1 to ``seats``."""
    min_buy_in: int = 40
    max_buy_in: int = 200
    action_time: float = 15.0
    """Seconds each turn gets before the time bank is drawn on."""
    time_bank_start: float = 30.0
    """A player's time bank on sitting down."""
    time_bank_max: float = 60.0
    time_bank_refill: float = 5.0
    """Added to the time bank of each player dealt into a hand (up to ``time_bank_max``)."""
    time_outs_to_sit_out: int = 2
    """Time-outs in a row after which the player is sat out."""
    history: int = 2000
    """How many stream entries are kept (about 25 hands of eight players)."""
    # (sevenstud.wire.ADDED_LATER: wire imports this module)
    tournament: bool = field(default=False, metadata={"wire_added_later": True})
    """A tournament table (docs/table.md, "Tournament tables"): seats are given with any
    stack, the buy-in limits do not apply, a player with chips is dealt in even when away (and
    their hand dead from the deal), a player without chips is not dealt in, and its game is
    dealt with the TDA's rulings (:func:`~sevenstud.games.tournament_rules`: a game given
    without them is stored with them). (Added since the record format began: a record without
    it reads False.)"""

    def __post_init__(self) -> None:
        if not isinstance(self.game, Game):
            raise TableError(f"game must be a Game (StudHiLo, Stud, Razz), not {self.game!r}")
        if not _is_chips(self.seats) or not MIN_SEATS <= self.seats <= MAX_SEATS:
            raise TableError(f"a stud table has {MIN_SEATS} to {MAX_SEATS} seats, not {self.seats!r}")
        for name in ("min_buy_in", "max_buy_in", "time_outs_to_sit_out", "history"):
            if not _is_chips(getattr(self, name)):
                raise TableError(f"{name} must be a whole number, not {getattr(self, name)!r}")
        if not isinstance(self.tournament, bool):
            raise TableError(f"tournament must be True or False, not {self.tournament!r}")
        if self.tournament:  # the TDA's stud rulings, whatever game it is given (games.py)
            object.__setattr__(self, "game", tournament_rules(self.game))
        least = max(1, self.game.stakes.ante)
        if self.min_buy_in < least and not self.tournament:  # a tournament's stakes rise: no limits
            raise TableError(f"min_buy_in ({self.min_buy_in}) must cover the ante: at least {least} chips")
        if self.max_buy_in < self.min_buy_in:
            raise TableError(f"max_buy_in ({self.max_buy_in}) is below min_buy_in ({self.min_buy_in})")
        for name in ("action_time", "time_bank_start", "time_bank_max", "time_bank_refill"):
            value = getattr(self, name)
            if not _is_time(value) or value < 0:
                raise TableError(f"{name} must be a finite number of seconds >= 0, not {value!r}")
        if self.action_time <= 0:
            raise TableError(f"action_time must be more than 0 seconds, not {self.action_time!r}")
        if self.time_bank_max < self.time_bank_start:
            raise TableError(
                f"time_bank_max ({self.time_bank_max}) is below time_bank_start ({self.time_bank_start})"
            )
        if self.time_outs_to_sit_out < 1:
            raise TableError(f"time_outs_to_sit_out must be at least 1, not {self.time_outs_to_sit_out}")
        if self.history < 1:
            raise TableError(f"history must keep at least one entry, not {self.history}")


# ---------------------------------------------------------------------- the table's own events


@dataclass(frozen=True, slots=True)
class SatDown:
    """A player takes a seat with a buy-in; dealt in from the next hand."""

    seat: int
    player: str
    buy_in: int


@dataclass(frozen=True, slots=True)
class ToppedUp:
    """A player adds chips between hands."""

    seat: int
    player: str
    amount: int
    stack: int


@dataclass(frozen=True, slots=True)
class SatOut:
    """A player is not dealt in from the next hand: ``"asked"``, ``"time-outs"`` or
    ``"cannot post the ante"`` (no chips, or fewer than the ante)."""

    seat: int
    player: str
    reason: Literal["asked", "time-outs", "cannot post the ante"]


@dataclass(frozen=True, slots=True)
class SatIn:
    """A player who sat out is dealt in again from the next hand."""

    seat: int
    player: str


@dataclass(frozen=True, slots=True)
class Leaving:
    """A player dealt into the hand in progress asked to leave: their hand is folded at their
    turn and they stand up with their stack when the hand ends."""

    seat: int
    player: str


@dataclass(frozen=True, slots=True)
class StoodUp:
    """A player leaves the table, taking ``stack`` chips away."""

    seat: int
    player: str
    stack: int


@dataclass(frozen=True, slots=True)
class HandStarted:
    """A hand is dealt: ``seats[i]`` is the table seat of the hand's seat ``i`` (seat order), with
    its player and its stack before the ante."""

    hand: int
    seats: tuple[int, ...]
    players: tuple[str, ...]
    stacks: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ClockStarted:
    """A seat is to act, by ``deadline`` at the latest (its time bank included)."""

    seat: int
    deadline: float
    time_bank: float


@dataclass(frozen=True, slots=True)
class TimedOut:
    """A seat's time ran out; the table acts for it (the hand's next event says how).
    ``time_outs`` counts its time-outs in a row."""

    seat: int
    player: str
    time_outs: int


TableEvent = SatDown | ToppedUp | SatOut | SatIn | Leaving | StoodUp | HandStarted | ClockStarted | TimedOut


@dataclass(frozen=True, slots=True)
class Entry:
    """One numbered entry of the table's stream: a table event or a hand event (the engine's
    own, redacted for the viewer, its seats said as table seats). ``hand`` is the number of the
    hand it belongs to (None between hands); ``seats`` maps the hand's seats to table seats."""

    number: int
    at: float
    hand: int | None
    event: TableEvent | Event
    seats: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class SeatState:
    """One occupied seat as everyone may see it."""

    seat: int
    player: str
    stack: int
    """Its chips now (during a hand: what is not in the pot)."""
    sitting_out: bool
    leaving: bool
    in_hand: bool
    """Dealt into the hand in progress."""
    time_bank: float
    time_outs: int


@dataclass(frozen=True, slots=True)
class TableView:
    """What a seat (or a spectator, ``viewer=None``) may know of the table now."""

    viewer: int | None
    number: int
    """The stream's last number: continue with ``events_since(number, viewer)``."""
    now: float
    seats: tuple[SeatState, ...]
    """The occupied seats, in seat order."""
    hand_number: int | None
    hand: SeatView | None
    """The hand in progress as the engine shows it to this viewer (in the hand's seats, without
    its events: the stream carries them)."""
    hand_seats: tuple[int, ...]
    """The table seat of each of the hand's seats."""
    to_act: int | None
    """The table seat to act."""
    deadline: float | None


# ---------------------------------------------------------------------- the table's saved record


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """One occupied seat as the table keeps it (the record's own, not for players)."""

    seat: int
    player: str
    stack: int
    """Its chips between hands (during a hand the hand's record holds what it has now)."""
    time_bank: float
    first_hand: int
    """The first hand this sitting could be dealt: it sees no down cards of earlier ones."""
    sitting_out: bool
    leaving: bool
    time_outs: int
    # (sevenstud.wire.ADDED_LATER: wire imports this module)
    short_of_ante: bool = field(default=False, metadata={"wire_added_later": True})
    """Sat out by the table because the stack could not post the ante: a top-up that covers it
    deals the player in again. (Added since the format began: a record without it reads False.)"""


@dataclass(frozen=True, slots=True)
class DealtHand:
    """A hand the table still holds (the one in progress, or one whose events are still in the
    stream), with every card of its deck: storage only."""

    number: int
    seats: tuple[int, ...]
    """The table seat of each of the hand's seats."""
    players: tuple[str, ...]
    """The player dealt into each of the hand's seats."""
    hand: Hand


@dataclass(frozen=True, slots=True)
class KeptEntry:
    """One kept entry of the stream, unredacted: a table event, or (``event`` None) the
    ``index``-th event of hand ``hand``, which the engine redacts for each viewer."""

    number: int
    at: float
    hand: int | None
    event: TableEvent | None
    index: int


@dataclass(frozen=True, slots=True)
class TableRecord:
    """Everything a table is, to save it and restore it exactly (a server restarting): its
    settings, seats, stacks and clocks, the hand in progress and the stream it keeps. It holds
    every card of the hands it keeps, undealt ones too: storage only, never for a player."""

    version: int
    settings: TableSettings
    now: float | None
    """The table's time: the last ``now`` it was told (None before any command)."""
    number: int
    """The stream's last number."""
    hands: int
    """How many hands have been dealt."""
    raked: int
    turn_start: float
    deadline: float | None
    seats: tuple[SeatRecord, ...]
    in_progress: int | None
    """The number of the hand being played, one of ``dealt``."""
    dealt: tuple[DealtHand, ...]
    stream: tuple[KeptEntry, ...]
