"""The house's standing tables as stored (``house_tables``): each definition and the table it
deals now."""

from __future__ import annotations

from collections.abc import Collection

from sqlalchemy import Row, func, select, update
from sqlalchemy.orm import Session

from sevenstud.server.store.models import HandRow, HouseTable, Sitting, TableRow


def definitions(s: Session, open_state: str) -> list[HouseTable]:
    """Every definition, those in ``open_state`` first, then by id."""
    return list(s.scalars(select(HouseTable).order_by(HouseTable.state != open_state, HouseTable.id)))


def seats_at(s: Session, tables: Collection[int]) -> list[Row[int, int, str, int, str | None]]:
    """The seats taken at ``tables``: table, seat, name, stack and bot (None: a person's), by
    table and seat."""
    query = (
        select(Sitting.table_id, Sitting.seat, Sitting.name, Sitting.stack, Sitting.bot)
        .where(Sitting.table_id.in_(list(tables)), Sitting.open.is_(True))
        .order_by(Sitting.table_id, Sitting.seat)
    )
    return list(s.execute(query))


def hands_finished(s: Session, tables: Collection[int]) -> dict[int, int]:
    """How many hands were finished at each of ``tables`` (those with none are left out)."""
    query = (
        select(HandRow.table_id, func.count())
        .where(HandRow.table_id.in_(list(tables)), HandRow.status == "finished")
        .group_by(HandRow.table_id)
    )
    return {int(table_id): int(count) for table_id, count in s.execute(query)}


def not_closed(s: Session, closed_state: str) -> list[Row[HouseTable, bool | None]]:
    """The definitions not in ``closed_state``, by id, each with whether its table is closed
    (None: it has none)."""
    query = (
        select(HouseTable, TableRow.closed)
        .outerjoin(TableRow, TableRow.id == HouseTable.table_id)
        .where(HouseTable.state != closed_state)
        .order_by(HouseTable.id)
    )
    return list(s.execute(query).all())


def move_on(s: Session, house_id: int, open_state: str, was: int | None, table_id: int) -> bool:
    """Give the definition the table ``table_id`` if it is still in ``open_state`` with the
    table ``was`` (None: none); whether this call did (another process may have first)."""
    moved = s.execute(
        update(HouseTable)
        .where(
            HouseTable.id == house_id,
            HouseTable.state == open_state,
            HouseTable.table_id.is_(None) if was is None else HouseTable.table_id == was,
        )
        .values(table_id=table_id)
    )
    return getattr(moved, "rowcount", 0) == 1


__all__ = ["definitions", "hands_finished", "move_on", "not_closed", "seats_at"]
