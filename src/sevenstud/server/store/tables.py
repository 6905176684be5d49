"""A cash or tournament table's rows as its keeper reads and writes them: its hands, its seats
(``sittings``) and its waiting list.

The keeper's write of a command runs on one Core connection in one transaction (the functions
taking ``c``); its reads at opening and the waiting list's changes are ORM sessions (``s``).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, delete, func, insert, select, update
from sqlalchemy.orm import Session

from sevenstud.server.store.models import (
    EventRow,
    HandRow,
    HouseTable,
    Player,
    Sitting,
    TableRow,
    TournamentTable,
    Waiting,
    core,
)

_HANDS, _SITTINGS, _WAITING = core(HandRow), core(Sitting), core(Waiting)

# ------------------------------------------------------------------ opening a table


def last_numbers(s: Session, table_id: int) -> tuple[int, int]:
    """The table's last hand number and last stream number stored (0 and 0: a new table)."""
    hands = s.scalar(select(func.max(HandRow.number)).where(HandRow.table_id == table_id))
    events = s.scalar(select(func.max(EventRow.number)).where(EventRow.table_id == table_id))
    return int(hands or 0), int(events or 0)


def has_hand_in_play(s: Session, table_id: int) -> bool:
    """Whether a hand of the table is still stored as being played (a crash cut it off)."""
    playing = select(func.count()).where(HandRow.table_id == table_id, HandRow.status == "playing")
    return bool(s.scalar(playing))


def seated(s: Session, table_id: int) -> list[Sitting]:
    """The table's taken seats, by seat."""
    query = select(Sitting).where(Sitting.table_id == table_id, Sitting.open.is_(True)).order_by(Sitting.seat)
    return list(s.scalars(query))


def cancelled_hand(s: Session, table_id: int, number: int) -> HandRow | None:
    """The table's hand ``number`` if a restart cancelled it."""
    query = select(HandRow).where(
        HandRow.table_id == table_id, HandRow.number == number, HandRow.status == "cancelled"
    )
    return s.scalars(query).first()


def stream_span(s: Session, hand_row: int) -> tuple[int, int]:
    """The first and last stream numbers of a hand's events (0, 0: none)."""
    first, last = s.execute(
        select(func.min(EventRow.number), func.max(EventRow.number)).where(EventRow.hand_id == hand_row)
    ).one()
    return int(first or 0), int(last or 0)


# ------------------------------------------------------------------ a table, open or closed


def open_tables_of(s: Session, owner_id: int) -> int:
    """How many tables the account ``owner_id`` opened that are still open."""
    mine = (TableRow.owner_id == owner_id) & TableRow.closed.is_(False)
    return int(s.scalar(select(func.count()).select_from(TableRow).where(mine)) or 0)


def tournament_of(s: Session, table_id: int) -> int | None:
    """The tournament whose table ``table_id`` is (None: a cash table)."""
    return s.scalar(select(TournamentTable.tournament_id).where(TournamentTable.table_id == table_id))


def last_stream_number(s: Session, table_id: int) -> int | None:
    """The table's last stream number stored (None: it streamed nothing)."""
    return s.scalar(select(func.max(EventRow.number)).where(EventRow.table_id == table_id))


def house_state_of(s: Session, table_id: int) -> str | None:
    """The state of the house's standing table that deals at ``table_id`` (None: none does)."""
    return s.scalar(select(HouseTable.state).where(HouseTable.table_id == table_id))


# ------------------------------------------------------------------ the waiting list


def waiting_names(s: Session, table_id: int) -> list[str]:
    """The names on the table's waiting list, first in line first."""
    query = (
        select(Player.name)
        .join(Waiting, Waiting.player_id == Player.id)
        .where(Waiting.table_id == table_id)
        .order_by(Waiting.id)
    )
    return list(s.scalars(query))


def player_named(s: Session, name: str) -> int | None:
    """The id of the account named ``name`` exactly, if any."""
    found = s.scalar(select(Player.id).where(Player.name == name))
    return None if found is None else int(found)


def stop_waiting(s: Session | Connection, table_id: int, player_id: int | None) -> None:
    """Take the player off the table's waiting list (nothing when not on it)."""
    s.execute(delete(_WAITING).where(_WAITING.c.table_id == table_id, _WAITING.c.player_id == player_id))


# ------------------------------------------------------------------ a command's write


def insert_hand(
    c: Connection, table_id: int, number: int, sittings: list[int], record: Any, now: float
) -> int:
    """Store a hand just dealt (its seats' sittings in the hand's order); returns its row."""
    row = c.scalar(
        insert(_HANDS)
        .values(
            table_id=table_id,
            number=number,
            status="playing",
            sittings=sittings,
            record=record,
            started_at=now,
        )
        .returning(_HANDS.c.id)
    )
    assert row is not None
    return int(row)


def insert_sitting(
    c: Connection,
    table_id: int,
    seat: int,
    name: str,
    stack: int,
    *,
    player_id: int | None,
    bot: bool,
    bot_kind: str | None,
) -> int:
    """Store a seat just taken (``player_id``: a person's account; ``bot``: a bot's seat, of
    ``bot_kind``); returns the sitting's id."""
    row = c.scalar(
        insert(_SITTINGS)
        .values(
            table_id=table_id,
            seat=seat,
            player_id=player_id,
            bot=name if bot else None,
            bot_kind=bot_kind,
            name=name,
            stack=stack,
            open=True,
        )
        .returning(_SITTINGS.c.id)
    )
    assert row is not None
    return int(row)


def set_sitting_out(c: Connection, sitting_id: int, out: bool) -> None:
    """Store whether the seat sits out."""
    c.execute(update(_SITTINGS).where(_SITTINGS.c.id == sitting_id).values(sitting_out=out))


def close_sittings(c: Connection, sitting_ids: list[int]) -> None:
    """Store the seats as left, their stacks gone with their owners."""
    c.execute(update(_SITTINGS).where(_SITTINGS.c.id.in_(sitting_ids)).values(stack=0, open=False))


def finish_hand(c: Connection, hand_row: int, record: Any, ended_at: float, result: dict[str, Any]) -> None:
    """Store a hand as finished: its whole record, when it ended and its result."""
    c.execute(
        update(_HANDS)
        .where(_HANDS.c.id == hand_row)
        .values(record=record, status="finished", ended_at=ended_at, result=result)
    )


__all__ = [
    "cancelled_hand",
    "close_sittings",
    "finish_hand",
    "has_hand_in_play",
    "house_state_of",
    "insert_hand",
    "insert_sitting",
    "last_numbers",
    "last_stream_number",
    "open_tables_of",
    "player_named",
    "seated",
    "set_sitting_out",
    "stop_waiting",
    "stream_span",
    "tournament_of",
    "waiting_names",
]
