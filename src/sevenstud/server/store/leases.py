"""Leases: which server process serves a table or directs a tournament, until when.

Several processes share one database; each table (``table_leases``) and each tournament
(``tournament_leases``) is held by one process at a time, until its lease expires unrenewed.
:func:`take_lease` is the one way a lease is taken: it is free when it has expired, or when it
was held by an earlier run of this very process (the same public address, another instance).
Two processes taking one lease at once is settled by the row's primary key: the slower insert
fails and is answered False.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from sqlalchemy import bindparam, delete, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import InstrumentedAttribute, Session

from sevenstud.server.store import Store
from sevenstud.server.store.models import (
    TableLease,
    TableRow,
    TournamentLease,
    TournamentRow,
    TournamentTable,
)

Lease = type[TableLease] | type[TournamentLease]

_KEYS: dict[Lease, InstrumentedAttribute[int]] = {
    TableLease: TableLease.table_id,
    TournamentLease: TournamentLease.tournament_id,
}


def take_lease(
    store: Store, lease: Lease, key: int, *, owner: str, instance: str, until: float, now: float, **extra: Any
) -> bool:
    """Take the lease of table or tournament ``key`` (``lease``: :class:`TableLease` or
    :class:`TournamentLease`) for the process ``owner``/``instance`` until ``until``, if it is
    free at ``now``; False when another process holds it or was quicker. ``extra``: the row's
    other columns (a table lease's ``renewed_at``)."""
    column = _KEYS[lease]
    values: dict[str, Any] = {"owner": owner, "instance": instance, "expires_at": until, **extra}
    try:
        with store.transaction() as s:
            done = s.execute(
                update(lease)
                .where(column == key)
                .where(or_(lease.expires_at < now, (lease.owner == owner) & (lease.instance != instance)))
                .values(**values)
                .execution_options(synchronize_session=False)
            )
            if getattr(done, "rowcount", 0) == 1:
                return True
            if s.get(lease, key) is not None:
                return False  # renewed or taken by its owner since we looked
            s.add(lease(**{column.key: key}, **values))
    except IntegrityError:
        return False  # inserted by another process between our look and our insert
    return True


def claim_new_table(
    store: Store, table_id: int, *, owner: str, instance: str, until: float, now: float
) -> bool:
    """Take the lease of a table just created (no row yet); False when another process's
    sweep saw it unleased and took it first."""
    try:
        with store.transaction() as s:
            s.add(
                TableLease(
                    table_id=table_id, owner=owner, instance=instance, expires_at=until, renewed_at=now
                )
            )
    except IntegrityError:
        return False
    return True


def renew_table_leases(
    store: Store, instance: str, *, until: float, now: float, summaries: dict[int, dict[str, Any]]
) -> set[int]:
    """Renew every table lease ``instance`` holds (one statement), write the lobby lines that
    changed (``summaries``, by table), and answer the tables it still holds."""
    with store.transaction() as s:
        s.execute(
            update(TableLease).where(TableLease.instance == instance).values(expires_at=until, renewed_at=now)
        )
        if summaries:
            # Only the lines that changed: a hand per table every half minute or so.
            leases = TableLease.__table__.c
            s.connection().execute(
                update(TableLease)
                .where(leases.table_id == bindparam("t"), leases.instance == instance)
                .values(summary=bindparam("line"))
                .execution_options(synchronize_session=False),
                [{"t": t, "line": line} for t, line in summaries.items()],
            )
        return set(s.scalars(select(TableLease.table_id).where(TableLease.instance == instance)))


def free_tables(store: Store, *, owner: str, instance: str, now: float) -> list[int]:
    """The open cash tables nobody serves at ``now``: unleased, expired, or left by an earlier
    run of the process at ``owner`` (a tournament's tables are shared out by the tournaments'
    own round, server/tournaments/sharing.py)."""
    free = (
        select(TableRow.id)
        .outerjoin(TableLease, TableLease.table_id == TableRow.id)
        .where(TableRow.closed.is_(False))
        .where(TableRow.id.not_in(select(TournamentTable.table_id)))
        .where(
            or_(
                TableLease.table_id.is_(None),
                TableLease.expires_at < now,
                (TableLease.owner == owner) & (TableLease.instance != instance),
            )
        )
        .order_by(TableRow.id)
    )
    with store.session() as s:
        return list(s.scalars(free))


def tables_by_id(store: Store, table_ids: list[int]) -> list[TableRow]:
    """The rows of tables ``table_ids``, by id."""
    with store.session() as s:
        return list(s.scalars(select(TableRow).where(TableRow.id.in_(table_ids)).order_by(TableRow.id)))


def served_elsewhere(
    store: Store, instance: str, now: float
) -> tuple[dict[int, tuple[str, dict[str, Any] | None]], set[int]]:
    """The tables other processes serve at ``now``, each with its server's address and its
    lobby line, and which of them are tournament tables."""
    with store.session() as s:
        rows = s.execute(
            select(TableLease.table_id, TableLease.owner, TableLease.summary).where(
                TableLease.instance != instance, TableLease.expires_at >= now
            )
        ).all()
        tournament = set(
            s.scalars(
                select(TournamentTable.table_id).where(TournamentTable.table_id.in_([t for t, _, _ in rows]))
            )
        )
    return {t: (owner, summary) for t, owner, summary in rows}, tournament


def drop_table_lease(store: Store, table_id: int) -> None:
    """Remove a closed table's lease row: no lobby lists it."""
    with store.transaction() as s:
        s.execute(delete(TableLease).where(TableLease.table_id == table_id))


def give_up_table_lease(store: Store, table_id: int, instance: str) -> None:
    """Let ``instance``'s lease of ``table_id`` expire now, and never be renewed by it (its
    instance is cleared): any process's next round takes the table over and recovers it. A
    lease another process holds already is left alone."""
    with store.transaction() as s:
        s.execute(
            update(TableLease)
            .where(TableLease.table_id == table_id, TableLease.instance == instance)
            .values(instance="", expires_at=0.0)
        )


def give_up_table_leases(store: Store, instance: str) -> None:
    """Let every table lease of ``instance`` expire now (a clean stop)."""
    with store.transaction() as s:
        s.execute(update(TableLease).where(TableLease.instance == instance).values(expires_at=0.0))


# ------------------------------------------------------------------ the tournaments'


def renew_tournament_leases(store: Store, instance: str, *, until: float) -> set[int]:
    """Renew every tournament lease ``instance`` holds (one statement) until ``until``, and
    answer the tournaments it holds."""
    with store.transaction() as s:
        s.execute(
            update(TournamentLease).where(TournamentLease.instance == instance).values(expires_at=until)
        )
        return set(
            s.scalars(select(TournamentLease.tournament_id).where(TournamentLease.instance == instance))
        )


def free_tournaments(
    store: Store, states: Collection[str], *, owner: str, instance: str, now: float
) -> list[int]:
    """The tournaments in ``states`` nobody directs at ``now`` (unleased, expired, or left by
    an earlier run of the process at ``owner``), by id."""
    free = (
        select(TournamentRow.id)
        .outerjoin(TournamentLease, TournamentLease.tournament_id == TournamentRow.id)
        .where(TournamentRow.state.in_(tuple(states)))
        .where(
            or_(
                TournamentLease.tournament_id.is_(None),
                TournamentLease.expires_at < now,
                (TournamentLease.owner == owner) & (TournamentLease.instance != instance),
            )
        )
        .order_by(TournamentRow.id)
    )
    with store.session() as s:
        return list(s.scalars(free))


def give_up_tournament_leases(store: Store, instance: str) -> None:
    """Let every tournament lease of ``instance`` expire now (a clean stop)."""
    with store.transaction() as s:
        s.execute(update(TournamentLease).where(TournamentLease.instance == instance).values(expires_at=0.0))


def free_tournament_tables(
    store: Store, states: Collection[str], *, owner: str, instance: str, now: float
) -> list[tuple[int, int, int, bool]]:
    """The open tables of the tournaments in ``states`` nobody serves at ``now`` (never
    leased, expired, or left by an earlier run of the process at ``owner``), as (tournament,
    number, table id, whether it was ever leased), by tournament and number."""
    query = (
        select(TournamentTable.tournament_id, TournamentTable.number, TournamentTable.table_id, TableLease)
        .join(TableRow, TableRow.id == TournamentTable.table_id)
        .join(TournamentRow, TournamentRow.id == TournamentTable.tournament_id)
        .outerjoin(TableLease, TableLease.table_id == TournamentTable.table_id)
        .where(TableRow.closed.is_(False), TournamentRow.state.in_(tuple(states)))
        .where(
            or_(
                TableLease.table_id.is_(None),
                TableLease.expires_at < now,
                (TableLease.owner == owner) & (TableLease.instance != instance),
            )
        )
        .order_by(TournamentTable.tournament_id, TournamentTable.number)
    )
    with store.session() as s:
        rows = s.execute(query).all()
    return [
        (int(tid), int(number), int(table_id), lease is not None) for tid, number, table_id, lease in rows
    ]


def tournament_directors(s: Session) -> dict[int, str]:
    """Who directs each tournament that has a lease: its public address (the lease expired or
    not: the last process that directed it)."""
    return {t.tournament_id: t.owner for t in s.scalars(select(TournamentLease)).all()}
