"""A player's own hands, found by the index of who was dealt in (``dealt_in``, migration 0009).

Every per-player page (the hand list and downloads, the history, the statistics) starts here:
the player's finished hands, newest first, selected, ordered and paged in SQL by the index
``(player_id, started_at, hand_id)``, so that what one page costs depends on the player's
hands, never on how many the room holds. The newest first is by start, then by hand row.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Connection, Select, func, insert, select
from sqlalchemy.orm import Session

from sevenstud.server.store.models import DealtIn, HandRow, Sitting, core

_DEALT, _HANDS, _SITTINGS = core(DealtIn), core(HandRow), core(Sitting)


@dataclass(frozen=True, slots=True)
class Dealt:
    """One of a player's finished hands, as the index says it (no record read)."""

    hand_id: int
    table_id: int
    number: int
    hero: int
    """The player's place in the hand's order (``hands.sittings``)."""
    seat: int
    """The table seat they held."""
    started_at: float


def index_hand(c: Connection, hand_id: int) -> None:
    """Write the rows of ``dealt_in`` of a hand that has just finished, in its transaction
    (the keeper's write of the hand's end): one per person dealt in (a bot has none)."""
    table_id, number, started_at, sittings = c.execute(
        select(_HANDS.c.table_id, _HANDS.c.number, _HANDS.c.started_at, _HANDS.c.sittings).where(
            _HANDS.c.id == hand_id
        )
    ).one()
    people = {
        sitting: (player, seat)
        for sitting, player, seat in c.execute(
            select(_SITTINGS.c.id, _SITTINGS.c.player_id, _SITTINGS.c.seat).where(
                _SITTINGS.c.id.in_(sittings), _SITTINGS.c.player_id.is_not(None)
            )
        )
    }
    rows = [
        {
            "hand_id": hand_id,
            "player_id": people[sitting][0],
            "hero": hero,
            "seat": people[sitting][1],
            "table_id": table_id,
            "number": number,
            "started_at": started_at,
        }
        for hero, sitting in enumerate(sittings)
        if sitting in people
    ]
    if rows:
        c.execute(insert(_DEALT), rows)


def _newest_first(player_id: int) -> Select[int, int, int, int, int, float]:
    return (
        select(
            DealtIn.hand_id, DealtIn.table_id, DealtIn.number, DealtIn.hero, DealtIn.seat, DealtIn.started_at
        )
        .where(DealtIn.player_id == player_id)
        .order_by(DealtIn.started_at.desc(), DealtIn.hand_id.desc())
    )


def newest(s: Session, player_id: int, limit: int, offset: int = 0) -> list[Dealt]:
    """The player's finished hands, newest first: ``limit`` of them from the ``offset``-th."""
    rows = s.execute(_newest_first(player_id).limit(limit).offset(offset)).all()
    return [Dealt(*row) for row in rows]


def count(s: Session, player_id: int, most: int) -> int:
    """How many finished hands the player has, counted up to ``most`` at most (a count that
    stops there: a player of a million hands costs no more than one of ``most``)."""
    some = select(DealtIn.hand_id).where(DealtIn.player_id == player_id).limit(most).subquery()
    return int(s.scalar(select(func.count()).select_from(some)) or 0)


def dealt(s: Session, player_id: int, hand_id: int) -> Dealt | None:
    """The player's row of one hand, or None when they were not dealt into it (or it is not
    finished)."""
    row = s.execute(_newest_first(player_id).where(DealtIn.hand_id == hand_id).limit(1)).one_or_none()
    return None if row is None else Dealt(*row)


__all__ = ["Dealt", "count", "dealt", "index_hand", "newest"]
