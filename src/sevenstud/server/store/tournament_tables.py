"""A tournament's tables as stored (``tournament_tables``): its table numbers, each with the
card-room table that plays it, and what the tournament reads of those tables (closed or not,
who is still seated at them). A number is never used twice in a tournament.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from sqlalchemy import Connection, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from sevenstud.server.store import Store
from sevenstud.server.store.models import Sitting, TableRow, TournamentTable


def tables_of(s: Session, tournament_id: int) -> dict[int, int]:
    """Every table the tournament has made (closed or not): number -> card-room table id."""
    query = select(TournamentTable.number, TournamentTable.table_id).where(
        TournamentTable.tournament_id == tournament_id
    )
    return {int(n): int(t) for n, t in s.execute(query).all()}


def open_tables_of(c: Connection, tournament_id: int) -> list[tuple[int, int]]:
    """The tournament's tables not closed, as (number, card-room table id), in ``c``'s
    transaction."""
    query = (
        select(TournamentTable.number, TournamentTable.table_id)
        .join(TableRow, TableRow.id == TournamentTable.table_id)
        .where(TournamentTable.tournament_id == tournament_id, TableRow.closed.is_(False))
    )
    return [(int(n), int(t)) for n, t in c.execute(query).all()]


def table_numbered(s: Session, tournament_id: int, number: int) -> int | None:
    """The card-room table of the tournament's table ``number``, if made."""
    query = select(TournamentTable.table_id).where(
        TournamentTable.tournament_id == tournament_id, TournamentTable.number == number
    )
    return s.scalar(query)


def make_table(
    store: Store,
    tournament_id: int,
    number: int,
    *,
    name: str,
    game: dict[str, Any],
    settings: dict[str, Any],
    now: float,
) -> int:
    """The card-room table of the tournament's table ``number``, made with its number in one
    transaction (a lease keeper's round in between would take a bare table for a cash table);
    or the one made before: by a sync that stopped half-way, or by the process that directed
    the tournament a moment ago (two processes both directing it for a moment, while a late
    lease round hands the direction over, make the same number: the second takes the first's)."""
    try:
        with store.transaction() as s:
            found = table_numbered(s, tournament_id, number)
            if found is not None:
                return found
            row = TableRow(name=name, game=game, settings=settings, created_at=now)
            s.add(row)
            s.flush()
            s.add(TournamentTable(table_id=row.id, tournament_id=tournament_id, number=number))
            return int(row.id)
    except IntegrityError:
        with store.session() as s:
            found = table_numbered(s, tournament_id, number)
        if found is None:
            raise
        return found


def table_ids(store: Store, tournament_id: int, numbers: Collection[int]) -> dict[int, int]:
    """The card-room tables of the tournament's table ``numbers``, those made so far."""
    with store.session() as s:
        rows = s.execute(
            select(TournamentTable.number, TournamentTable.table_id).where(
                TournamentTable.tournament_id == tournament_id, TournamentTable.number.in_(sorted(numbers))
            )
        ).all()
    return {int(n): int(t) for n, t in rows}


def closed_tables(s: Session, table_ids: Collection[int]) -> set[int]:
    """Those of the card-room tables ``table_ids`` that are closed."""
    return set(s.scalars(select(TableRow.id).where(TableRow.id.in_(list(table_ids)), TableRow.closed)))


def still_seated(store: Store, table_ids: Collection[int], names: Collection[str]) -> set[str]:
    """Those of ``names`` seated now at one of the card-room tables ``table_ids``."""
    with store.session() as s:
        found = s.scalars(
            select(Sitting.name).where(
                Sitting.open.is_(True), Sitting.table_id.in_(list(table_ids)), Sitting.name.in_(list(names))
            )
        ).all()
    return {str(n) for n in found}


__all__ = ["closed_tables", "open_tables_of", "still_seated", "table_ids", "table_numbered", "tables_of"]
