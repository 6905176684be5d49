"""A table's saved record read back: every part of it checked against the others (the seats,
the hands it holds, the hand in progress, the stream) before a table is made of it. Private to
:mod:`sevenstud.table`: :meth:`Table.from_record <sevenstud.table.Table.from_record>` makes the
table of the parts (split from it to keep each module one concern)."""

from __future__ import annotations

from dataclasses import dataclass

from sevenstud.table_events import SeatRecord, TableError, TableRecord, _seat_number
from sevenstud.table_stream import _HandRecord, _Raw
from sevenstud.wire import WIRE_VERSION


@dataclass(frozen=True, slots=True)
class RecordParts:
    """The parts of a table's record, checked: what :meth:`Table.from_record
    <sevenstud.table.Table.from_record>` makes the table of."""

    seats: tuple[SeatRecord, ...]
    in_progress: _HandRecord | None
    """The hand in progress (None: between hands)."""
    finished: _HandRecord | None
    """The last hand over (``dealt_hand`` answers for it): the last dealt, or the one before it."""
    stream: tuple[_Raw, ...]


def check_record(saved: TableRecord) -> RecordParts:
    """The parts of a decoded table record, after checking that they agree with each other; a
    :class:`TableError` naming what is wrong otherwise."""

    def bad(why: str) -> TableError:
        return TableError(f"table record: {why}")

    if saved.version != WIRE_VERSION:
        raise bad(f"version {saved.version!r} is not one this reader knows ({WIRE_VERSION})")
    for name in ("number", "hands", "raked"):
        if getattr(saved, name) < 0:
            raise bad(f"{name} cannot be negative ({getattr(saved, name)})")
    seats: dict[int, SeatRecord] = {}
    for seat in saved.seats:
        number = _seat_number(seat.seat, saved.settings.seats)
        if number in seats or any(s.player == seat.player for s in seats.values()):
            raise bad(f"seat {number} or player {seat.player!r} comes twice")
        if seat.stack < 0 or seat.time_bank < 0 or seat.time_outs < 0:
            raise bad(f"seat {number} has a negative stack, time bank or count of time-outs")
        if seat.short_of_ante and not seat.sitting_out:
            raise bad(f"seat {number} is short of the ante but not sitting out")
        seats[number] = seat
    records: dict[int, _HandRecord] = {}
    for dealt in saved.dealt:
        hand = dealt.hand
        if not (len(dealt.seats) == len(dealt.players) == hand.n) or dealt.number in records:
            raise bad(f"hand {dealt.number} does not match its seats and players, or comes twice")
        if not 1 <= dealt.number <= saved.hands:
            raise bad(f"hand {dealt.number} is not one of the {saved.hands} hands dealt")
        players = {p: i for i, p in enumerate(dealt.players)}
        records[dealt.number] = _HandRecord(dealt.number, hand, dealt.seats, players, len(hand.events))
    current = None
    if saved.in_progress is not None:
        current = records.get(saved.in_progress)
        if current is None or current.hand.is_over or saved.in_progress != saved.hands:
            raise bad(f"the hand in progress ({saved.in_progress}) is missing, over or not the last dealt")
        for hand_seat, number in enumerate(current.seats):
            occupant = seats.get(number)
            if occupant is None or current.players.get(occupant.player) != hand_seat:
                raise bad(f"seat {number} of hand {current.number} is not its player's")
        if saved.deadline is None:
            raise bad("a hand is in progress without a deadline for the seat to act")
    # The last hand over (dealt_hand answers for it): the last dealt, or the one before it.
    finished = records.get(saved.hands - (saved.in_progress is not None))
    if finished is not None and not finished.hand.is_over:
        finished = None
    previous = 0
    stream = []
    for kept in saved.stream:
        if kept.number <= previous or kept.number > saved.number:
            raise bad(f"stream entry {kept.number} is out of order or beyond the number {saved.number}")
        previous = kept.number
        owner = records.get(kept.hand) if kept.hand is not None else None
        if kept.event is None and (owner is None or not 0 <= kept.index < len(owner.hand.events)):
            raise bad(f"stream entry {kept.number} names no event of a hand the record holds")
        on_record = owner if kept.event is None else None
        stream.append(_Raw(kept.number, kept.at, kept.hand, kept.event, on_record, kept.index))
    if len(saved.stream) > saved.settings.history:
        raise bad(f"the stream keeps {len(saved.stream)} entries, more than history allows")
    return RecordParts(tuple(seats.values()), current, finished, tuple(stream))
