"""The table's stream internals: the record of each hand it holds, the raw entries of its
stream, and the translation of a hand event's seats into table seats. Private to
:mod:`sevenstud.table` (split from it to keep each module one concern)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sevenstud.hand import Event, Hand
from sevenstud.table_events import Entry, TableEvent


@dataclass(slots=True)
class _HandRecord:
    number: int
    hand: Hand
    seats: tuple[int, ...]
    players: dict[str, int]
    """Player id -> the hand's seat: whose down cards are whose."""
    streamed: int = 0
    """How many of the hand's events are in the stream."""
    entries: dict[tuple[int, int], tuple[Event, Entry]] = field(default_factory=dict)
    """The stream entries built of its events: (index, id of the event as a viewer was
    given it) -> (that event, kept alive so that its id stays its own, and its entry)."""

    def entry(self, raw: _Raw, event: Event) -> Entry:
        """The stream entry of ``raw`` (one of this hand's) for a viewer given ``event`` (the
        engine's, redacted for it). The engine hands every viewer the same object for what they
        all see alike (all but the down cards), so an entry is built once, not once a watcher
        an action (cleared by the table when the next hand is dealt)."""
        key = (raw.index, id(event))
        built = self.entries.get(key)
        if built is None or built[0] is not event:
            seated = _in_table_seats(event, self.seats)
            built = self.entries[key] = (event, Entry(raw.number, raw.at, raw.hand, seated, self.seats))
        return built[1]


@dataclass(frozen=True, slots=True)
class _Raw:
    number: int
    at: float
    hand: int | None
    event: TableEvent | None
    record: _HandRecord | None = None
    index: int = 0


_SEAT_FIELDS = ("seat", "first_to_act", "to_act")


def _is_seat_field(name: str) -> bool:
    return name in _SEAT_FIELDS or name.endswith("_seat")


_SEAT_NAMES: dict[type, tuple[str, ...]] = {}
"""Each event type's fields that hold seats, found once per type (the hot path of a stream)."""


def _seat_names(kind: type) -> tuple[str, ...]:
    if hasattr(kind, "_fields"):
        names: Sequence[str] = kind._fields
    elif dataclasses.is_dataclass(kind):
        names = [f.name for f in dataclasses.fields(kind)]
    else:
        return ()
    return tuple(n for n in names if _is_seat_field(n) or n == "seats")


def _in_table_seats(event: Event, seats: tuple[int, ...]) -> Event:
    """The hand event with its seat fields said as table seats. Generic on purpose: the engine
    may gain events, and any field named like a seat is translated."""
    raw: Any = event
    names = _SEAT_NAMES.get(type(raw))
    if names is None:
        names = _SEAT_NAMES[type(raw)] = _seat_names(type(raw))
    if not names:
        return event
    if hasattr(raw, "_replace"):
        replace: Callable[..., Any] = raw._replace
    else:

        def replace(**changes: Any) -> Any:
            return dataclasses.replace(raw, **changes)

    changes: dict[str, Any] = {}
    for name in names:
        value = getattr(raw, name)
        if _is_seat_field(name) and isinstance(value, int) and not isinstance(value, bool):
            changes[name] = seats[value]
        elif name == "seats" and isinstance(value, tuple):
            changes[name] = tuple(seats[v] for v in value)
    result: Event = replace(**changes) if changes else event
    return result
