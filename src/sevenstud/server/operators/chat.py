"""Keeping the room's chat civil (docs/operators.md, "Chat"): the chat log, players' reports,
mutes and the refused words.

Every chat line a table takes is written to the chat log (``chat_lines``) by its own id, the
``chat`` message's: a player reports a line by that id (knowing it is proof of having seen the
line, ids being random), and an operator reads each table's recent lines. A report copies the
line, so it outlives the log (kept :attr:`Limits.chat_log_days
<sevenstud.server.limits.Limits.chat_log_days>` days). An operator dismisses a report, or mutes
the player who said it: a mute refuses their chat room-wide until it ends (every process reads
it from the database at each line; their play goes on), and resolves every open report on
them. The refused words (:mod:`.chat_words`) are read again by each process every
:data:`WORDS_FRESH` seconds, and at once in the process that changed them.

Each operator action is one transaction with its line in the event log (:mod:`.log`); a refused
one (:class:`~sevenstud.server.operators.accounts.OperatorError`) names what was wrong and
changes nothing.
"""

from __future__ import annotations

import datetime
import threading
import time
from typing import Any

from sevenstud.server.operators import log
from sevenstud.server.operators.accounts import OperatorError, _account, _reason
from sevenstud.server.operators.chat_words import Matcher, entry
from sevenstud.server.protocol import ChatLine
from sevenstud.server.store import Session, Store, chat
from sevenstud.server.store.models import ChatLineRow, ChatMute, ChatReport, ChatWord, Player
from sevenstud.server.tables.keeper import RoomError

WORDS_FRESH = 10.0
"""How old a process's copy of the refused words may be, in seconds (another process's change
reaches it within this)."""
PRUNE_EVERY = 500
"""The chat log is pruned of its old lines once every so many lines a process writes."""
REASON_MAX = 200
"""The longest reason a player gives for a report."""
LISTED_AT_MOST = 200
"""The most lines, reports or mutes one answer lists."""
OPEN, DISMISSED, MUTED = "open", "dismissed", "muted"
"""A report's states: waiting for an operator, dismissed, its player muted."""


def _when(at: float) -> str:
    """A time as a refusal says it, in UTC (as a suspension's end is said)."""
    return datetime.datetime.fromtimestamp(at, datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")


class Moderation:
    """What every table's chat asks the database in this process: whether a player is muted,
    whether a line holds a refused word (:meth:`check`), and the chat log (:meth:`record`)."""

    def __init__(self, store: Store, log_days: float) -> None:
        self.store = store
        self.log_days = log_days
        self._matcher: Matcher | None = None
        self._read_at = 0.0
        self._written = 0
        self._lock = threading.Lock()  # the tables' steps run in worker threads on PostgreSQL

    def forget_words(self) -> None:
        """Read the refused words again at the next line (this process changed them)."""
        with self._lock:
            self._matcher = None

    def matcher(self) -> Matcher:
        """The refused words, as read at most :data:`WORDS_FRESH` seconds ago."""
        now = time.monotonic()
        with self._lock:
            if self._matcher is not None and now - self._read_at < WORDS_FRESH:
                return self._matcher
        with self.store.session() as s:
            found = Matcher.of(chat.refused_words(s))
        with self._lock:
            self._matcher, self._read_at = found, now
        return found

    def check(self, player_id: int, text: str, now: float) -> None:
        """Raise :class:`RoomError` when the player is muted now (saying until when and why) or
        the line holds a refused word (naming it)."""
        with self.store.session() as s:
            mute = s.get(ChatMute, player_id)
            if mute is not None and mute.until > now:
                raise RoomError("chat_muted", ends=_when(mute.until), why=mute.reason)
        word = self.matcher().find(text)
        if word is not None:
            raise RoomError("chat_word_refused", word=word)

    def record(self, line: ChatLine, player_id: int) -> None:
        """Write a line the table took to the chat log (pruning the log's old lines now and
        then)."""
        row = ChatLineRow(
            id=line.id,
            table_id=line.table,
            number=line.number,
            player_id=player_id,
            player=line.player,
            seat=line.seat,
            at=line.at,
            text=line.text,
        )
        with self.store.transaction() as s:
            s.add(row)
            self._written += 1
            if self._written % PRUNE_EVERY == 0:
                chat.prune_lines(s, line.at - self.log_days * 86400)


# -- a player's report ------------------------------------------------------------------------


def report(store: Store, reporter: Player, line_id: str, reason: str, now: float | None = None) -> int:
    """``reporter`` reports the chat line ``line_id``, saying why (may be blank): the report's
    id. Refused (:class:`OperatorError`) for a line not in the log, one's own line, a line
    reported by them already, or a reason that is not one short line."""
    reason = reason.strip() if isinstance(reason, str) else ""
    if len(reason) > REASON_MAX or not reason.isprintable():
        raise OperatorError("chat_report_reason_form", most=REASON_MAX)
    with store.transaction() as s:
        line = s.get(ChatLineRow, line_id) if isinstance(line_id, str) else None
        if line is None:
            raise OperatorError("chat_line_unknown")
        if line.player_id == reporter.id:
            raise OperatorError("chat_report_own_line")
        if chat.reported_by(s, line.id, reporter.id):
            raise OperatorError("chat_reported_already")
        row = ChatReport(
            line_id=line.id,
            table_id=line.table_id,
            said_by_id=line.player_id,
            said_by=line.player,
            said_at=line.at,
            text=line.text,
            reporter_id=reporter.id,
            reporter=reporter.name,
            reason=reason,
            at=time.time() if now is None else now,
            state=OPEN,
        )
        s.add(row)
        s.flush()
        return row.id


# -- what an operator reads ---------------------------------------------------------------------


def _report_line(row: ChatReport) -> dict[str, Any]:
    return {
        "id": row.id,
        "line": row.line_id,
        "table": row.table_id,
        "player": row.said_by,
        "said_at": row.said_at,
        "text": row.text,
        "reporter": row.reporter,
        "reason": row.reason,
        "at": row.at,
        "state": row.state,
        "resolved_by": row.resolved_by,
        "resolved_at": row.resolved_at,
    }


def reports(store: Store, state: str | None = OPEN, limit: int = LISTED_AT_MOST) -> list[dict[str, Any]]:
    """The reports in ``state`` (None: every state), newest first."""
    with store.session() as s:
        return [_report_line(row) for row in chat.report_rows(s, state, min(limit, LISTED_AT_MOST))]


def lines(
    store: Store, table: int | None = None, player: str | None = None, limit: int = 100
) -> list[dict[str, Any]]:
    """The chat log's lines, newest first: of table ``table``, of the player named ``player``
    (either, both or neither)."""
    with store.session() as s:
        player_id = None if player is None else _account(s, player).id
        return [
            {
                "id": row.id,
                "table": row.table_id,
                "number": row.number,
                "player": row.player,
                "seat": row.seat,
                "at": row.at,
                "text": row.text,
            }
            for row in chat.line_rows(s, table, player_id, min(limit, LISTED_AT_MOST))
        ]


def mutes(store: Store, now: float | None = None) -> list[dict[str, Any]]:
    """The mutes in force, the soonest to end first."""
    now = time.time() if now is None else now
    with store.session() as s:
        return [
            {"player": name, "until": m.until, "reason": m.reason, "muted_by": m.muted_by, "at": m.at}
            for m, name in chat.mutes_in_force(s, now, LISTED_AT_MOST)
        ]


def words(store: Store) -> list[dict[str, Any]]:
    """The refused words, in order."""
    with store.session() as s:
        rows = chat.word_rows(s)
        return [{"word": row.word, "added_by": row.added_by, "at": row.at} for row in rows]


# -- what an operator does ----------------------------------------------------------------------


def _open_report(s: Session, report_id: int) -> ChatReport:
    row = s.get(ChatReport, report_id)
    if row is None or row.state != OPEN:
        raise OperatorError("no_open_chat_report", report=report_id)
    return row


def dismiss(store: Store, operator: str, report_id: int, reason: str) -> None:
    """Dismiss an open report (nothing said was wrong), saying why (may be blank)."""
    reason = reason.strip() if isinstance(reason, str) else ""
    if reason:
        reason = _reason(reason)
    with store.transaction() as s:
        row = _open_report(s, report_id)
        row.state, row.resolved_by, row.resolved_at = DISMISSED, operator, time.time()
        log.write(s, operator, "chat_dismiss", row.said_by, reason, report=row.id, line=row.line_id)


def mute(
    store: Store, operator: str, name: str, hours: float, reason: str, now: float | None = None
) -> float:
    """Mute the player named ``name`` room-wide for ``hours`` (a mute in force is replaced),
    saying why: when it ends. Every open report on their lines is resolved with it."""
    reason = _reason(reason)
    now = time.time() if now is None else now
    until = now + hours * 3600
    with store.transaction() as s:
        player = _account(s, name)
        row = s.get(ChatMute, player.id)
        if row is None:
            s.add(ChatMute(player_id=player.id, until=until, reason=reason, muted_by=operator, at=now))
        else:
            row.until, row.reason, row.muted_by, row.at = until, reason, operator, now
        resolved = chat.open_reports_on(s, player.id, OPEN)
        for found in resolved:
            found.state, found.resolved_by, found.resolved_at = MUTED, operator, now
        reports_ = [found.id for found in resolved]
        log.write(s, operator, "chat_mute", player.name, reason, until=until, hours=hours, reports=reports_)
    return until


def lift(store: Store, operator: str, name: str, reason: str, now: float | None = None) -> None:
    """Lift the mute in force on the player named ``name``, saying why."""
    reason = _reason(reason)
    now = time.time() if now is None else now
    with store.transaction() as s:
        player = _account(s, name)
        row = s.get(ChatMute, player.id)
        if row is None or row.until <= now:
            raise OperatorError("not_muted", name=repr(player.name))
        s.delete(row)
        log.write(s, operator, "chat_unmute", player.name, reason, was_until=row.until)


def add_word(store: Store, operator: str, word: str, reason: str = "") -> str:
    """Put ``word`` on the refused list (as :func:`~.chat_words.entry` keeps it): the entry."""
    kept = entry(word)
    if kept is None:
        raise OperatorError("chat_word_form", most=40)
    reason = _reason(reason) if isinstance(reason, str) and reason.strip() else ""
    with store.transaction() as s:
        if s.get(ChatWord, kept) is not None:
            raise OperatorError("chat_word_listed", word=repr(kept))
        s.add(ChatWord(word=kept, added_by=operator, at=time.time()))
        log.write(s, operator, "chat_word_add", None, reason, word=kept)
    return kept


def remove_word(store: Store, operator: str, word: str, reason: str = "") -> str:
    """Take ``word`` off the refused list: the entry taken off."""
    kept = entry(word)
    reason = _reason(reason) if isinstance(reason, str) and reason.strip() else ""
    with store.transaction() as s:
        row = s.get(ChatWord, kept) if kept is not None else None
        if row is None or kept is None:
            raise OperatorError("chat_word_not_listed", word=repr(word))
        s.delete(row)
        log.write(s, operator, "chat_word_remove", None, reason, word=kept)
    return kept


__all__ = [
    "DISMISSED",
    "MUTED",
    "OPEN",
    "Moderation",
    "add_word",
    "dismiss",
    "lift",
    "lines",
    "mute",
    "mutes",
    "remove_word",
    "report",
    "reports",
    "words",
]
