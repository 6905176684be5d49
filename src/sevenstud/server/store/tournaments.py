"""A tournament's director as the card room stores it: the row of ``tournaments`` holds its
head (:func:`~sevenstud.tournament.snapshot.director_parts`), ``tournament_parts`` (migration
0019) each entrant's and each table's part. A write after a hand is the head and the entrants
and tables that hand changed, whatever the size of the field (issue 35: the whole field was
written after every hand, most of a 1,000-entrant tournament's time); a read takes every part,
and a process sharing the tournament takes up only the parts written since its copy
(:func:`read_changes`).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Connection, delete, insert, select, update
from sqlalchemy.orm import Session

from sevenstud.server.store.models import TournamentPart, TournamentRow, core
from sevenstud.tournament import Director
from sevenstud.tournament.snapshot import director_from_parts, director_from_record, director_parts

_PARTS, _TOURNAMENTS = core(TournamentPart), core(TournamentRow)
ENTRANT, TABLE = "entrant", "table"
"""The kinds of part."""
GONE: dict[str, Any] = {"gone": True}
"""The record of a part no longer there (a table closed): kept, so that a process reading the
changes since its copy learns of it."""


def write_director(
    c: Connection, tid: int, d: Director, tnow: float, version: int = 0, **values: Any
) -> tuple[set[str], set[int]]:
    """Write tournament ``tid``'s director ``d`` at ``tnow`` in ``c``'s transaction: its head in
    the tournament's row (with ``values``, more of its columns), and the entrants and tables
    changed since its last write, marked with ``version`` (the tournament's version this write
    makes). The names and the numbers of the entrants and tables written."""
    head, entrants, tables = director_parts(d, tnow)
    c.execute(update(_TOURNAMENTS).where(_TOURNAMENTS.c.id == tid).values(director=head, **values))
    changed = [(ENTRANT, name, record) for name, record in entrants.items()]
    changed += [(TABLE, str(number), record) for number, record in tables.items()]
    for kind in (ENTRANT, TABLE):
        keys = [key for k, key, _ in changed if k == kind]
        # (in slices: a database takes so many parameters in one statement)
        for start in range(0, len(keys), 500):
            c.execute(
                delete(_PARTS).where(
                    _PARTS.c.tournament_id == tid,
                    _PARTS.c.kind == kind,
                    _PARTS.c.key.in_(keys[start : start + 500]),
                )
            )
    rows = [
        {"tournament_id": tid, "kind": kind, "key": key, "record": GONE if record is None else record}
        for kind, key, record in changed
    ]
    for row in rows:
        row["version"] = version
    if rows:
        c.execute(insert(_PARTS), rows)
    return set(entrants), set(tables)


def write_head(c: Connection, tid: int, head: dict[str, Any], **values: Any) -> None:
    """Write tournament ``tid``'s head ``head`` in ``c``'s transaction, whole and with no parts
    (a registering tournament's: its field is its entries' rows, server/tournaments/cashier.py),
    with ``values``, more of its columns (its state, its start)."""
    c.execute(update(_TOURNAMENTS).where(_TOURNAMENTS.c.id == tid).values(director=head, **values))


def stored_head(c: Connection, tid: int) -> dict[str, Any]:
    """Tournament ``tid``'s stored head (its director's record, or all of it when stored
    whole)."""
    query = select(_TOURNAMENTS.c.director).where(_TOURNAMENTS.c.id == tid)
    head: dict[str, Any] = c.execute(query).scalar_one()
    return head


def version_of(c: Connection, tid: int, *, lock: bool = False) -> int:
    """Tournament ``tid``'s stored director's version, raised by one with every write where
    several processes share it (server/tournaments/sharing.py). ``lock``: its row locked until
    ``c``'s transaction ends (``SELECT ... FOR UPDATE`` on PostgreSQL), so that nobody else
    writes it in between."""
    query = select(_TOURNAMENTS.c.version).where(_TOURNAMENTS.c.id == tid)
    if lock:
        query = query.with_for_update()
    return int(c.execute(query).scalar_one())


def set_version(c: Connection, tid: int, version: int) -> None:
    """Mark tournament ``tid``'s stored director as its version ``version``."""
    c.execute(update(_TOURNAMENTS).where(_TOURNAMENTS.c.id == tid).values(version=version))


def read_director(c: Connection | Session, tid: int, record: dict[str, Any], at: float) -> Director:
    """Tournament ``tid``'s director from its stored head ``record`` and its parts, taken up at
    ``at``; one stored whole (before migration 0019) is taken as it is, and written whole, in
    parts, at its next write."""
    if not record.get("parts"):
        return director_from_record(record, at)
    entrants: list[dict[str, Any]] = []
    tables: list[dict[str, Any]] = []
    for kind, part in c.execute(
        select(_PARTS.c.kind, _PARTS.c.record).where(_PARTS.c.tournament_id == tid)
    ).all():
        if not part.get("gone"):
            (entrants if kind == ENTRANT else tables).append(part)
    d = director_from_parts(record, entrants, tables, at)
    d.take_changes()  # (what is stored: nothing to write again)
    return d


def read_changes(
    c: Connection, tid: int, since: int
) -> tuple[list[dict[str, Any]], list[tuple[int, dict[str, Any] | None]]]:
    """The parts of tournament ``tid`` written after its version ``since``: the entrants'
    records, and each table's number with its record (None: closed)."""
    entrants: list[dict[str, Any]] = []
    tables: list[tuple[int, dict[str, Any] | None]] = []
    for kind, key, part in c.execute(
        select(_PARTS.c.kind, _PARTS.c.key, _PARTS.c.record).where(
            _PARTS.c.tournament_id == tid, _PARTS.c.version > since
        )
    ).all():
        if kind == ENTRANT:
            if not part.get("gone"):
                entrants.append(part)
        else:
            tables.append((int(key), None if part.get("gone") else part))
    return entrants, tables
