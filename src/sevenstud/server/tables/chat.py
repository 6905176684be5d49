"""Table chat: who may say what, how often, and the lines a table keeps (docs/protocol.md, "Chat").

A ``chat`` message reaches the table through :meth:`Room.handle <sevenstud.server.tables.room.Room.handle>`
like every other, and is decided on the table's actor (:meth:`TableChat.say`): only a player
seated at the table may write (spectators read: a watcher who could talk to the players would be
a way to pass them what it sees, and the rail's abuse is a card room's oldest complaint); the text
is plain text on one line (server/plaintext.py: no control characters or line separators, no
bidirectional overrides that would make it read as someone else's words, nothing invisible, no
blank fillers), at most :data:`~sevenstud.server.protocol.CHAT_MAX_CHARS` characters; each
player may send :attr:`Limits.chat_messages <sevenstud.server.limits.Limits.chat_messages>` lines
per :attr:`~sevenstud.server.limits.Limits.chat_window` seconds over all their tables (a token
bucket of :mod:`sevenstud.server.limits`). A line refused gets ``error`` naming why, on that
connection alone.

The server adds nothing to a line but who said it, from which seat, and when: no card is ever
put into chat (the dealer's words for actions and results are the page's own wording of the
events each connection may see, docs/protocol.md). The last :data:`KEPT` lines of a table are
kept in memory, for whoever says ``hello``. A card room's desk also has the operators' say
(:class:`~sevenstud.server.operators.chat.Moderation`): a muted player's line and a line with a
refused word are refused, and every line taken is written to the chat log, which the
operators read and the players' reports name lines of (docs/operators.md, "Chat").
"""

from __future__ import annotations

import secrets
import time
from collections import deque
from typing import TYPE_CHECKING

from sevenstud.refusals import Words
from sevenstud.server import plaintext
from sevenstud.server.limits import Buckets, Limits, RateLimited
from sevenstud.server.protocol import ChatLine
from sevenstud.server.tables.keeper import RoomError

if TYPE_CHECKING:
    from sevenstud.server.operators.chat import Moderation

KEPT = 50
"""The chat lines a table keeps for a client that says ``hello``."""


class ChatDesk:
    """What every table's chat shares: the per-player allowance (a token bucket per account,
    over all the tables the account chats at), and the operators' mutes, refused words and chat
    log (``moderation``; None: none, as in a room of the tests alone)."""

    def __init__(self, limits: Limits, moderation: Moderation | None = None) -> None:
        self.buckets = Buckets("chat_messages", limits.chat_messages, limits.chat_window, "chat messages")
        self.reports = Buckets("chat_reports", limits.chat_reports, limits.chat_report_window, "chat reports")
        """Each account's allowance of reports (``POST /api/chat/reports``)."""
        self.moderation = moderation


def check_text(text: str) -> str:
    """The text of a chat line as it is sent on, or :class:`RoomError` saying what is wrong with
    it: blank text, or a character plain text on one line refuses (a control character, a line
    break among them, a line separator, a direction control, an invisible format character, a
    blank filler: :func:`sevenstud.server.plaintext.fault`)."""
    if not text.strip():
        raise RoomError("chat_empty")
    found = plaintext.fault(text)
    if found is not None:
        what, code = found
        raise RoomError("chat_not_plain", what=Words(what), code=code)
    return text.strip()


class TableChat:
    """One table's chat: :meth:`say` checks and makes a line; :meth:`since` the kept lines."""

    def __init__(self, desk: ChatDesk, table_id: int) -> None:
        self.desk = desk
        self.table_id = table_id
        self.lines: deque[ChatLine] = deque(maxlen=KEPT)

    def say(
        self, text: str, player: str, player_id: int, seat: int | None, number: int, now: float
    ) -> ChatLine:
        """A seated player's line: the ``chat`` message every connection at the table is sent
        (kept for later hellos), or :class:`RoomError` naming why it is refused."""
        if seat is None:
            raise RoomError("chat_for_seated_players")
        said = check_text(text)
        moderation = self.desk.moderation
        if moderation is not None:  # a mute (by the wall's clock) and the refused words
            moderation.check(player_id, said, time.time())
        try:
            self.desk.buckets.take(str(player_id))
        except RateLimited as error:
            raise RoomError(error.message) from None
        line = ChatLine(
            id=secrets.token_hex(8),
            number=number,
            table=self.table_id,
            player=player,
            seat=seat,
            at=now,
            text=said,
        )
        if moderation is not None:
            moderation.record(line, player_id)
        self.lines.append(line)
        return line

    def since(self, last: int) -> list[ChatLine]:
        """The kept lines said at or after the table's number ``last`` (0: every kept line), for a
        hello: a client may get one it had again, and drops it by its ``id``."""
        return [line for line in self.lines if line.number >= last]


__all__ = ["KEPT", "ChatDesk", "TableChat", "check_text"]
