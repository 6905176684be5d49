"""What the operators' console, the lobby and the audit read of the tournaments
(``tournaments``, their entries and the schedules that made them): the lists, how many each
account made, a tournament's state and whether it paid any prize. A tournament's director is
stored by tournaments.py, its entrants' rows by tournament_entries.py."""

from __future__ import annotations

from collections.abc import Collection

from sqlalchemy import Connection, func, select
from sqlalchemy.orm import Session

from sevenstud.server.store.models import TournamentEntry, TournamentRow, TournamentSchedule


def prizes_paid(on: Session | Connection, tournament_id: int) -> int:
    """The chips tournament ``tournament_id`` paid in prizes so far (in the transaction of
    ``on``: a session, or a tournament move's connection)."""
    query = select(func.coalesce(func.sum(TournamentEntry.prize), 0)).where(
        TournamentEntry.tournament_id == tournament_id
    )
    return int(on.execute(query).scalar_one())


def all_tournaments(s: Session) -> list[TournamentRow]:
    """Every tournament, by id (the audit's)."""
    return list(s.scalars(select(TournamentRow).order_by(TournamentRow.id)).all())


def made_by(s: Session, player_id: int, states: Collection[str]) -> int:
    """How many tournaments in ``states`` account ``player_id`` made."""
    query = select(func.count(TournamentRow.id)).where(
        TournamentRow.owner_id == player_id, TournamentRow.state.in_(tuple(states))
    )
    return int(s.scalar(query) or 0)


def namesakes(s: Session, base: str) -> int:
    """How many tournaments are named ``base``, a space and more: the numbered namesakes a
    new tournament's name counts on from."""
    query = select(func.count(TournamentRow.id)).where(TournamentRow.name.like(f"{base} %"))
    return int(s.scalar(query) or 0)


def tournament_state(s: Session, tournament_id: int | None) -> str | None:
    """The state of tournament ``tournament_id`` (None: no such tournament)."""
    return s.scalar(select(TournamentRow.state).where(TournamentRow.id == tournament_id))


def newest(s: Session, states: Collection[str] | None, limit: int) -> list[TournamentRow]:
    """At most ``limit`` tournaments in ``states`` (None or empty: any), newest first."""
    query = select(TournamentRow).order_by(TournamentRow.id.desc()).limit(limit)
    if states:
        query = query.where(TournamentRow.state.in_(list(states)))
    return list(s.scalars(query).all())


def registered_counts(s: Session) -> dict[int, int]:
    """How many entrants each tournament has registered (those with none are left out)."""
    query = (
        select(TournamentEntry.tournament_id, func.count())
        .where(TournamentEntry.registered.is_(True))
        .group_by(TournamentEntry.tournament_id)
    )
    return {int(tid): int(count) for tid, count in s.execute(query)}


def made_by_schedule(s: Session) -> dict[int | None, int]:
    """The schedule that made each tournament a schedule holds now, by tournament."""
    return {
        tid: int(sid)
        for tid, sid in s.execute(select(TournamentSchedule.tournament_id, TournamentSchedule.id))
    }


__all__ = [
    "all_tournaments",
    "made_by",
    "made_by_schedule",
    "namesakes",
    "newest",
    "prizes_paid",
    "registered_counts",
    "tournament_state",
]
