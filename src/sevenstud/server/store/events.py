"""The operators' event log as stored (``operator_events``): lines only ever added, read newest
first."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from sevenstud.server.store.models import OperatorEvent


def add_event(
    s: Session, at: float, operator: str, action: str, target: str | None, reason: str, detail: dict[str, Any]
) -> OperatorEvent:
    """Add one line, in the session's transaction (the action's own)."""
    row = OperatorEvent(
        at=at, operator=operator, action=action, target=target, reason=reason, detail=detail or None
    )
    s.add(row)
    s.flush()  # its id drawn now, right after its time (the audit checks they run together)
    return row


def events(
    s: Session,
    *,
    limit: int,
    action: str | None = None,
    target: str | None = None,
    operator: str | None = None,
    before: int | None = None,
) -> list[OperatorEvent]:
    """The lines with that action, target and operator (None: any), older than line ``before``,
    newest first, at most ``limit``."""
    query = select(OperatorEvent).order_by(OperatorEvent.id.desc()).limit(limit)
    if action is not None:
        query = query.where(OperatorEvent.action == action)
    if target is not None:
        query = query.where(OperatorEvent.target == target)
    if operator is not None:
        query = query.where(OperatorEvent.operator == operator)
    if before is not None:
        query = query.where(OperatorEvent.id < before)
    return list(s.scalars(query))


def event_times(s: Session) -> Iterable[tuple[int, float]]:
    """Every line's id and time, by id."""
    for row_id, at in s.execute(select(OperatorEvent.id, OperatorEvent.at).order_by(OperatorEvent.id)):
        yield int(row_id), float(at)


__all__ = ["add_event", "event_times", "events"]
