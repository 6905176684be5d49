"""The chat's moderation as stored: the chat log (``chat_lines``), players' reports, mutes and
the refused words."""

from __future__ import annotations

from sqlalchemy import Row, delete, select
from sqlalchemy.orm import Session

from sevenstud.server.store.models import ChatLineRow, ChatMute, ChatReport, ChatWord, Player


def refused_words(s: Session) -> list[str]:
    """Every refused word, in no particular order."""
    return list(s.scalars(select(ChatWord.word)))


def word_rows(s: Session) -> list[ChatWord]:
    """Every refused word's row, in order."""
    return list(s.scalars(select(ChatWord).order_by(ChatWord.word)))


def prune_lines(s: Session, before: float) -> None:
    """Delete the chat log's lines said before ``before``."""
    s.execute(delete(ChatLineRow).where(ChatLineRow.at < before))


def reported_by(s: Session, line_id: str, reporter_id: int) -> bool:
    """Whether the account ``reporter_id`` reported the line ``line_id`` already."""
    again = select(ChatReport.id).where(ChatReport.line_id == line_id, ChatReport.reporter_id == reporter_id)
    return s.scalar(again) is not None


def report_rows(s: Session, state: str | None, limit: int) -> list[ChatReport]:
    """At most ``limit`` reports in ``state`` (None: every state), newest first."""
    query = select(ChatReport).order_by(ChatReport.id.desc()).limit(limit)
    if state is not None:
        query = query.where(ChatReport.state == state)
    return list(s.scalars(query))


def open_reports_on(s: Session, player_id: int, state: str) -> list[ChatReport]:
    """The reports in ``state`` (the open ones) on the lines the account said."""
    query = select(ChatReport).where(ChatReport.said_by_id == player_id, ChatReport.state == state)
    return list(s.scalars(query))


def line_rows(s: Session, table: int | None, player_id: int | None, limit: int) -> list[ChatLineRow]:
    """At most ``limit`` lines of the chat log, newest first: of table ``table``, of the account
    ``player_id`` (either, both or neither)."""
    query = select(ChatLineRow).order_by(ChatLineRow.at.desc(), ChatLineRow.id).limit(limit)
    if table is not None:
        query = query.where(ChatLineRow.table_id == table)
    if player_id is not None:
        query = query.where(ChatLineRow.player_id == player_id)
    return list(s.scalars(query))


def mutes_in_force(s: Session, now: float, limit: int) -> list[Row[ChatMute, str]]:
    """At most ``limit`` mutes in force at ``now``, each with its player's name, the soonest to
    end first."""
    query = (
        select(ChatMute, Player.name)
        .join(Player, Player.id == ChatMute.player_id)
        .where(ChatMute.until > now)
        .order_by(ChatMute.until)
        .limit(limit)
    )
    return list(s.execute(query))


__all__ = [
    "line_rows",
    "mutes_in_force",
    "open_reports_on",
    "prune_lines",
    "refused_words",
    "report_rows",
    "reported_by",
    "word_rows",
]
