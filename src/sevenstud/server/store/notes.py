"""Players' private notes on other players, as stored: each found by its author and the
player's compared name (``auth.name_key``)."""

from __future__ import annotations

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from sevenstud.server.store.models import PlayerNote


def note_of(s: Session, author_id: int, subject_key: str) -> PlayerNote | None:
    """The author's note on the player whose compared name is ``subject_key``, if any."""
    mine = (PlayerNote.author_id == author_id) & (PlayerNote.subject_key == subject_key)
    found: PlayerNote | None = s.scalars(select(PlayerNote).where(mine)).first()
    return found


def notes_of(s: Session, author_id: int) -> list[PlayerNote]:
    """Every note of the author, by the players' compared names."""
    query = select(PlayerNote).where(PlayerNote.author_id == author_id).order_by(PlayerNote.subject_key)
    return list(s.scalars(query))


def count_of(s: Session, author_id: int) -> int:
    """How many notes the author keeps."""
    return s.scalar(select(func.count()).where(PlayerNote.author_id == author_id)) or 0


def forget(s: Session, author_id: int, subject_key: str) -> None:
    """Delete the author's note on that player (nothing when there is none)."""
    mine = (PlayerNote.author_id == author_id) & (PlayerNote.subject_key == subject_key)
    s.execute(delete(PlayerNote).where(mine))


__all__ = ["count_of", "forget", "note_of", "notes_of"]
