"""Tournament templates and schedules as stored (``tournament_templates``,
``tournament_schedules``): what the schedule's keeper reads and claims."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Row, select, update
from sqlalchemy.orm import Session

from sevenstud.server.store.models import TournamentSchedule, TournamentTemplateRow

_WITH_TEMPLATE = TournamentTemplateRow.id == TournamentSchedule.template_id


def template_rows(s: Session) -> list[TournamentTemplateRow]:
    """Every template, by id."""
    return list(s.scalars(select(TournamentTemplateRow).order_by(TournamentTemplateRow.id)).all())


def template_named(s: Session, name: str, *, besides: int | None) -> int | None:
    """The id of the template named ``name`` other than ``besides``, if any."""
    query = select(TournamentTemplateRow.id).where(
        TournamentTemplateRow.name == name, TournamentTemplateRow.id != (besides or 0)
    )
    return s.scalar(query)


def schedule_using(s: Session, template_id: int, kind: str | None = None) -> int | None:
    """The id of a schedule (of ``kind``, None: any) that uses the template, if any."""
    query = select(TournamentSchedule.id).where(TournamentSchedule.template_id == template_id)
    if kind is not None:
        query = query.where(TournamentSchedule.kind == kind)
    return s.scalar(query)


def schedule_rows(s: Session) -> list[Row[TournamentSchedule, str]]:
    """Every schedule, by id, with its template's name."""
    query = select(TournamentSchedule, TournamentTemplateRow.name).join(TournamentTemplateRow, _WITH_TEMPLATE)
    return list(s.execute(query.order_by(TournamentSchedule.id)).all())


def enabled_schedules(s: Session) -> list[Row[TournamentSchedule, dict[str, Any]]]:
    """Every schedule that is on, with its template's settings."""
    query = (
        select(TournamentSchedule, TournamentTemplateRow.settings)
        .join(TournamentTemplateRow, _WITH_TEMPLATE)
        .where(TournamentSchedule.enabled.is_(True))
    )
    return list(s.execute(query).all())


def next_times(s: Session) -> list[tuple[float, dict[str, Any]]]:
    """The next time of every schedule that is on and has one, with its template's settings."""
    query = (
        select(TournamentSchedule.next_at, TournamentTemplateRow.settings)
        .join(TournamentTemplateRow, _WITH_TEMPLATE)
        .where(TournamentSchedule.enabled.is_(True), TournamentSchedule.next_at.is_not(None))
    )
    return [(float(at), settings) for at, settings in s.execute(query)]


def enabled_schedule(s: Session, schedule_id: int) -> Row[TournamentSchedule, dict[str, Any]] | None:
    """Schedule ``schedule_id`` if it is on, with its template's settings."""
    query = (
        select(TournamentSchedule, TournamentTemplateRow.settings)
        .join(TournamentTemplateRow, _WITH_TEMPLATE)
        .where(TournamentSchedule.id == schedule_id, TournamentSchedule.enabled.is_(True))
    )
    return s.execute(query).one_or_none()


def claim(s: Session, schedule_id: int, version: int) -> bool:
    """Move the schedule from ``version`` to the next; whether this call did (another process
    that claimed it first moved it already)."""
    moved = s.connection().execute(
        update(TournamentSchedule)
        .where(TournamentSchedule.id == schedule_id, TournamentSchedule.version == version)
        .values(version=version + 1)
    )
    return moved.rowcount == 1


def first_always(s: Session) -> int | None:
    """The first ``always`` schedule that is on, or None."""
    query = (
        select(TournamentSchedule.id)
        .where(TournamentSchedule.kind == "always", TournamentSchedule.enabled.is_(True))
        .order_by(TournamentSchedule.id)
        .limit(1)
    )
    return s.scalar(query)


__all__ = [
    "claim",
    "enabled_schedule",
    "enabled_schedules",
    "first_always",
    "next_times",
    "schedule_rows",
    "schedule_using",
    "template_named",
    "template_rows",
]
