"""The operators' event log: who did what, to whom, when and why, only ever added to."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from sevenstud.server.store import Session, Store, events
from sevenstud.server.store.models import OperatorEvent

COMMAND_LINE = "command line"
"""The operator of an action taken with ``sevenstud admin`` (whoever can run it on the host)."""


def write(
    s: Session, operator: str, action: str, target: str | None, reason: str = "", **detail: Any
) -> OperatorEvent:
    """Add one line to the log, in the session's transaction (the action's own)."""
    return events.add_event(s, time.time(), operator, action, target, reason, detail)


@dataclass(frozen=True, slots=True)
class Filter:
    """Which lines to list: by action, by the account acted on, by the operator; newest first,
    a page of ``limit`` lines, those older than line ``before`` (the next page: the last id
    shown)."""

    action: str | None = None
    target: str | None = None
    operator: str | None = None
    limit: int = 100
    before: int | None = None


def lines(store: Store, wanted: Filter = Filter()) -> list[dict[str, Any]]:
    """The log's lines that ``wanted`` picks, newest first, as the console and the API show
    them."""
    with store.session() as s:
        rows = events.events(
            s,
            limit=wanted.limit,
            action=wanted.action,
            target=wanted.target,
            operator=wanted.operator,
            before=wanted.before,
        )
        return [
            {
                "id": row.id,
                "at": row.at,
                "operator": row.operator,
                "action": row.action,
                "target": row.target,
                "reason": row.reason,
                "detail": row.detail or {},
            }
            for row in rows
        ]


# Two actions in flight at once (PostgreSQL's threads) each take their time and then their id
# from the database's sequence: the later time may get the earlier id, a moment apart.
IN_FLIGHT = 1.0
"""How far (seconds) a line's time may fall before the line it follows."""


def check(s: Session) -> list[str]:
    """``sevenstud audit``'s check of the log: its ids and times run in the same order, but
    for :data:`IN_FLIGHT` (a line changed or slipped in later would break it)."""
    problems = []
    last_at = float("-inf")
    for row_id, at in events.event_times(s):
        if at < last_at - IN_FLIGHT:
            problems.append(f"operator event {row_id}: its time is before the event it follows")
        last_at = max(last_at, at)
    return problems
