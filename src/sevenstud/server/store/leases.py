"""Leases: which server process serves a table or directs a tournament, until when.

Several processes share one database; each table (``table_leases``) and each tournament
(``tournament_leases``) is held by one process at a time, until its lease expires unrenewed.
:func:`take_lease` is the one way a lease is taken: it is free when it has expired, or when it
was held by an earlier run of this very process (the same public address, another instance).
Two processes taking one lease at once is settled by the row's primary key: the slower insert
fails and is answered False.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import or_, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import InstrumentedAttribute

from sevenstud.server.store import Store
from sevenstud.server.store.models import TableLease, TournamentLease

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
