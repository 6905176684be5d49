"""A tournament's entries as stored (``tournament_entries``, migration 0017): one row an
entrant, with what they paid in, whether they are registered, their place and prize. While a
tournament registers these rows are its field, in the order they registered
(server/tournaments/cashier.py, ``director_of``).

The cashier's writes run on a tournament move's Core connection (``c``), in its transaction;
the pages' and the audit's reads on a session (``s``).
"""

from __future__ import annotations

from sqlalchemy import Connection, insert, select, update
from sqlalchemy.orm import Session

from sevenstud.server.store.models import TournamentEntry, core

_ENTRIES = core(TournamentEntry)

# ------------------------------------------------------------------ the cashier's writes


def entry_named(c: Connection, tournament_id: int, name: str) -> int | None:
    """The id of ``name``'s entry in the tournament, if they ever registered in it."""
    query = select(_ENTRIES.c.id).where(_ENTRIES.c.tournament_id == tournament_id, _ENTRIES.c.name == name)
    found = c.execute(query).scalar()
    return None if found is None else int(found)


def add_entry(
    c: Connection,
    tournament_id: int,
    name: str,
    *,
    player_id: int | None,
    bot_kind: str | None,
    paid: int,
    registered_at: float,
) -> None:
    """Write ``name``'s first entry in the tournament: registered, having paid ``paid`` (the
    buy-in and the fee), no prize yet. ``player_id`` None: a bot of ``bot_kind``."""
    c.execute(
        insert(_ENTRIES).values(
            tournament_id=tournament_id,
            player_id=player_id,
            bot_kind=bot_kind,
            name=name,
            paid=paid,
            registered=True,
            prize=0,
            registered_at=registered_at,
        )
    )


def enter_again(c: Connection, entry_id: int, paid: int, registered_at: float | None = None) -> None:
    """Entry ``entry_id`` registered again (a re-entry, or a registration after an
    unregistration): ``paid`` more paid in, its place and prize taken off; ``registered_at``
    (not None: before the start) its new place in the order of registration."""
    again = {"registered_at": registered_at} if registered_at is not None else {}
    c.execute(
        update(_ENTRIES)
        .where(_ENTRIES.c.id == entry_id)
        .values(paid=_ENTRIES.c.paid + paid, registered=True, place=None, prize=0, **again)
    )


def unregister_entry(c: Connection, tournament_id: int, name: str) -> None:
    """``name``'s registration taken back before the start: not registered, nothing paid in
    (the refund is the ledger's)."""
    c.execute(
        update(_ENTRIES)
        .where(_ENTRIES.c.tournament_id == tournament_id, _ENTRIES.c.name == name)
        .values(registered=False, paid=0)
    )


def pay_in(c: Connection, tournament_id: int, name: str, amount: int) -> None:
    """``amount`` more paid in by ``name`` (a rebuy's or the add-on's price)."""
    c.execute(
        update(_ENTRIES)
        .where(_ENTRIES.c.tournament_id == tournament_id, _ENTRIES.c.name == name)
        .values(paid=_ENTRIES.c.paid + amount)
    )


def finish_entry(c: Connection, tournament_id: int, name: str, place: int, prize: int) -> None:
    """``name`` finished the tournament in ``place``, paid ``prize``."""
    c.execute(
        update(_ENTRIES)
        .where(_ENTRIES.c.tournament_id == tournament_id, _ENTRIES.c.name == name)
        .values(place=place, prize=prize)
    )


def clear_places(c: Connection, tournament_id: int) -> None:
    """Nobody holds a place in the tournament (cancelled: see ``Director.call_off``)."""
    c.execute(update(_ENTRIES).where(_ENTRIES.c.tournament_id == tournament_id).values(place=None))


# ------------------------------------------------------------------ reads


def registered_names(on: Connection | Session, tournament_id: int) -> list[str]:
    """The names registered in the tournament, in the order they registered (a registering
    tournament's field)."""
    query = (
        select(_ENTRIES.c.name)
        .where(_ENTRIES.c.tournament_id == tournament_id, _ENTRIES.c.registered.is_(True))
        .order_by(_ENTRIES.c.registered_at, _ENTRIES.c.id)
    )
    return [str(name) for name in on.execute(query).scalars()]


def entries_of(s: Session, tournament_id: int) -> list[TournamentEntry]:
    """Every entry of the tournament, registered or not."""
    query = select(TournamentEntry).where(TournamentEntry.tournament_id == tournament_id)
    return list(s.scalars(query).all())


def registered_entries(s: Session, tournament_id: int) -> list[TournamentEntry]:
    """The entries registered in the tournament (those that played it, once it started)."""
    query = select(TournamentEntry).where(
        TournamentEntry.tournament_id == tournament_id, TournamentEntry.registered
    )
    return list(s.scalars(query).all())


def registered_in(s: Session, player_id: int) -> set[int]:
    """The tournaments account ``player_id`` is registered in."""
    query = select(TournamentEntry.tournament_id).where(
        TournamentEntry.player_id == player_id, TournamentEntry.registered.is_(True)
    )
    return set(s.scalars(query))


__all__ = [
    "add_entry",
    "enter_again",
    "entries_of",
    "entry_named",
    "finish_entry",
    "pay_in",
    "registered_entries",
    "registered_in",
    "registered_names",
    "unregister_entry",
]
