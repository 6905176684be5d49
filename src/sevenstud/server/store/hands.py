"""Hands and their seats as stored, read by id: the rows a page of hands, a download and the
recovery after a crash start from."""

from __future__ import annotations

from collections.abc import Collection, Iterable

from sqlalchemy import select
from sqlalchemy.orm import Session

from sevenstud.server.store.models import HandRow, Sitting, TableRow


def hand_rows(s: Session, hand_ids: Iterable[int]) -> list[HandRow]:
    """The rows of the hands ``hand_ids`` (in no particular order)."""
    return list(s.scalars(select(HandRow).where(HandRow.id.in_(list(hand_ids)))))


def sittings_by_id(s: Session, sitting_ids: Iterable[int]) -> dict[int, Sitting]:
    """The sittings ``sitting_ids`` (a hand's seats, ``hands.sittings``), by id."""
    return {x.id: x for x in s.scalars(select(Sitting).where(Sitting.id.in_(list(sitting_ids))))}


def table_names(s: Session, table_ids: Iterable[int]) -> dict[int, str]:
    """The names of the tables ``table_ids``, by id."""
    query = select(TableRow.id, TableRow.name).where(TableRow.id.in_(list(table_ids)))
    return {table_id: name for table_id, name in s.execute(query)}


def hands_in_play(s: Session, tables: Collection[int] | None = None) -> list[HandRow]:
    """The hands still being played (after a crash: cut off), at ``tables`` or everywhere."""
    query = select(HandRow).where(HandRow.status == "playing")
    if tables is not None:
        query = query.where(HandRow.table_id.in_(list(tables)))
    return list(s.scalars(query))


def open_sittings(s: Session, tables: Collection[int] | None = None) -> list[Sitting]:
    """The seats still taken, at ``tables`` or everywhere."""
    query = select(Sitting).where(Sitting.open.is_(True))
    if tables is not None:
        query = query.where(Sitting.table_id.in_(list(tables)))
    return list(s.scalars(query))


def sitting_ids_at(s: Session, tables: Collection[int]) -> list[int]:
    """The ids of every seat ever taken at ``tables`` (ids alone: the audit reads each one's
    account, and a long tournament's are many)."""
    return list(s.scalars(select(Sitting.id).where(Sitting.table_id.in_(list(tables)))))


def hand_ids_at(s: Session, tables: Collection[int]) -> list[int]:
    """The ids of every hand played at ``tables`` (ids alone, as :func:`sitting_ids_at`)."""
    return list(s.scalars(select(HandRow.id).where(HandRow.table_id.in_(list(tables)))))


__all__ = [
    "hand_ids_at",
    "hand_rows",
    "hands_in_play",
    "open_sittings",
    "sitting_ids_at",
    "sittings_by_id",
    "table_names",
]
