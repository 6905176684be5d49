"""The card room's tables, as SQLAlchemy 2 declarative models.

Chips are whole numbers everywhere (``Integer``); times are float seconds since the epoch. The
cached numbers (a player's ``balance``, a sitting's ``stack``) are what the ledger says they are:
:mod:`sevenstud.server.audit` proves it.
"""

from __future__ import annotations

from typing import Any, cast

from sqlalchemy import (
    JSON,
    Boolean,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    """The declarative base of every card-room model."""


class Player(Base):
    """An account: a person with a password, or a guest. ``name_key`` is the name as names are
    compared (``auth.name_key``: NFKC, case-folded), unique: ``alice`` and ``ALICE`` are one
    name. (Two accounts whose names clashed before migration 0005 keep their names; the later
    one's key is ``key#id``, and it logs in by its exact name.)"""

    __tablename__ = "players"
    __table_args__ = (Index("uq_players_name_key", "name_key", unique=True),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(40), unique=True)
    name_key: Mapped[str] = mapped_column(String(64), server_default="")
    password_hash: Mapped[str | None] = mapped_column(String(200), nullable=True)
    guest: Mapped[bool] = mapped_column(Boolean, default=False)
    balance: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[float] = mapped_column(Float)
    refill_day: Mapped[str] = mapped_column(String(10), default="")
    refills_that_day: Mapped[int] = mapped_column(Integer, default=0)
    role: Mapped[str] = mapped_column(String(16), default="player", server_default="player")
    """``player``, or ``operator``: one who runs the room (docs/operators.md)."""
    suspended_until: Mapped[float | None] = mapped_column(Float, nullable=True)
    """Log-in refused until then (None: not suspended; :data:`BANNED`: for good)."""
    suspended_reason: Mapped[str | None] = mapped_column(String(500), nullable=True)


class LoginSession(Base):
    """A login: the token itself is never stored, only its SHA-256."""

    __tablename__ = "login_sessions"
    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    created_at: Mapped[float] = mapped_column(Float)
    expires_at: Mapped[float] = mapped_column(Float)
    last_seen_at: Mapped[float] = mapped_column(Float, index=True, server_default="0")
    """When the session was last used (written at most hourly): it ends after a while unused."""


class TableRow(Base):
    """A table of the card room: its game (the wire form) and its house settings; ``owner_id``
    the account that opened it (None: opened before owners were kept), who alone adds and
    removes its bots."""

    __tablename__ = "tables"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    game: Mapped[dict[str, Any]] = mapped_column(JSON)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[float] = mapped_column(Float)
    closed: Mapped[bool] = mapped_column(Boolean, default=False)
    owner_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True, index=True)


class Sitting(Base):
    """One player's stay in one seat, from sitting down to standing up; ``stack`` is the
    seat's chips (the ledger's seat account) while ``open``. A bot's sitting names the bot
    (``bot``) and its kind (``bot_kind``, one of ``keeper.BOT_KINDS``: rebuilt by it after a
    restart); both are None for a person."""

    __tablename__ = "sittings"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    bot: Mapped[str | None] = mapped_column(String(40), nullable=True)
    bot_kind: Mapped[str | None] = mapped_column(String(10), nullable=True)
    name: Mapped[str] = mapped_column(String(40))
    stack: Mapped[int] = mapped_column(Integer, default=0)
    open: Mapped[bool] = mapped_column(Boolean, default=True)
    sitting_out: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class Waiting(Base):
    """A player on a table's waiting list (first in line: the lowest ``id``), kept so that the
    list is the same after a restart."""

    __tablename__ = "waiting"
    __table_args__ = (UniqueConstraint("table_id", "player_id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    joined_at: Mapped[float] = mapped_column(Float)


class HandRow(Base):
    """A hand: its record (``sevenstud.wire.hand_to_record``, every card: never sent to a
    client) and, once over, its result (finishing stacks and rake)."""

    __tablename__ = "hands"
    __table_args__ = (UniqueConstraint("table_id", "number"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(12))  # playing, finished, cancelled
    sittings: Mapped[list[int]] = mapped_column(JSON)  # the sitting of each seat of the hand
    record: Mapped[dict[str, Any]] = mapped_column(JSON)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    started_at: Mapped[float] = mapped_column(Float)
    ended_at: Mapped[float | None] = mapped_column(Float, nullable=True)


class DealtIn(Base):
    """A person dealt into a finished hand (migration 0009): the index by which a player's own
    hands are found, ordered and paged in SQL (the downloads, the history, the statistics),
    whatever the number of hands in the room. Written with the hand's end, in its transaction
    (:func:`sevenstud.server.store.dealt.index_hand`); bots are not in it. ``hero`` is the
    player's place in the hand's order (``hands.sittings``), ``seat`` their table seat; the
    hand's table, number and start are copied here, so that a list of one's hands reads this
    table alone, never a hand's record."""

    __tablename__ = "dealt_in"
    __table_args__ = (Index("ix_dealt_in_player_started", "player_id", "started_at", "hand_id"),)
    hand_id: Mapped[int] = mapped_column(ForeignKey("hands.id"), primary_key=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    hero: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int] = mapped_column(Integer)
    table_id: Mapped[int] = mapped_column(Integer)
    number: Mapped[int] = mapped_column(Integer)
    started_at: Mapped[float] = mapped_column(Float)


class EventRow(Base):
    """One entry of a table's stream, as a spectator sees it (no down card)."""

    __tablename__ = "events"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    hand_id: Mapped[int | None] = mapped_column(ForeignKey("hands.id"), nullable=True)
    type: Mapped[str] = mapped_column(String(40))
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)
    at: Mapped[float] = mapped_column(Float)


class LedgerAccount(Base):
    """An account of the ledger: ``balance`` (a player's, ref the player), ``seat`` (a
    sitting's stack), ``pot`` (a hand's), ``house`` (the rake) or ``bank`` (where play chips
    come from and go back to)."""

    __tablename__ = "ledger_accounts"
    __table_args__ = (UniqueConstraint("kind", "ref"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(10))
    ref: Mapped[int] = mapped_column(Integer)  # 0 for the house and the bank


class Transfer(Base):
    """One chip movement; its two :class:`Entry` rows sum to zero."""

    __tablename__ = "transfers"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    reason: Mapped[str] = mapped_column(String(20))
    event_id: Mapped[int | None] = mapped_column(ForeignKey("events.id"), nullable=True)
    hand_id: Mapped[int | None] = mapped_column(ForeignKey("hands.id"), nullable=True)
    at: Mapped[float] = mapped_column(Float)


class Entry(Base):
    """One side of a transfer: ``amount`` chips into the account (negative: out of it)."""

    __tablename__ = "entries"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    transfer_id: Mapped[int] = mapped_column(ForeignKey("transfers.id"), index=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("ledger_accounts.id"), index=True)
    amount: Mapped[int] = mapped_column(Integer)


class TableLease(Base):
    """Which server process serves a table, until when (see :mod:`sevenstud.server.tables.leases`).

    ``owner`` is the process's public address (what the lobby tells a client), ``instance`` a
    random name drawn at each start, so that a process restarted at the same address knows the
    leases of the one it replaces. ``summary`` is the owner's lobby line for the table, shown by
    the other processes' lobbies."""

    __tablename__ = "table_leases"
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    owner: Mapped[str] = mapped_column(String(200))
    instance: Mapped[str] = mapped_column(String(32))
    expires_at: Mapped[float] = mapped_column(Float)
    renewed_at: Mapped[float] = mapped_column(Float)
    summary: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)


def core(model: type[Base]) -> Table:
    """The Core table of ``model``: the tables' write path (keeper.py, ledger.py) inserts and
    updates rows through it, without the ORM's unit of work."""
    return cast(Table, model.__table__)


class PlayerNote(Base):
    """A private note of one account (``author_id``) on another player: seen by its author
    alone. ``subject_key`` is the player's name as names are compared (``auth.name_key``), so
    one note per player whatever the case a name is written in; ``subject`` the name as shown."""

    __tablename__ = "player_notes"
    __table_args__ = (UniqueConstraint("author_id", "subject_key"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    author_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    subject_key: Mapped[str] = mapped_column(String(64))
    subject: Mapped[str] = mapped_column(String(40))
    text: Mapped[str] = mapped_column(String(2000))
    updated_at: Mapped[float] = mapped_column(Float)


class TournamentRow(Base):
    """A tournament (migration 0007): its template (``sevenstud.tournament.snapshot``'s
    record), its state, and its director's whole state, stored with every change; ``speed``
    makes its clock run faster than the wall's (tests and benchmarks only)."""

    __tablename__ = "tournaments"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    kind: Mapped[str] = mapped_column(String(12))
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    state: Mapped[str] = mapped_column(String(12), index=True)
    director: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    speed: Mapped[float] = mapped_column(Float, default=1.0, server_default="1")
    created_at: Mapped[float] = mapped_column(Float)
    start_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    started_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    ended_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """Raised by one with every write of ``director`` (migration 0008): a process serving some
    of its tables compares it to the one it holds (server/tournaments/sharing.py)."""
    owner_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True, index=True)
    """The account that made it over HTTP (migration 0017; None: the house's, or made before):
    its open tournaments are counted (``Limits.tournaments_per_account``)."""


class TournamentEntry(Base):
    """One entrant of a tournament: a person (``player_id``) or a bot (``bot_kind``), what they
    paid (buy-ins and fees, re-entries and rebuys included), their place and prize."""

    __tablename__ = "tournament_entries"
    __table_args__ = (
        UniqueConstraint("tournament_id", "name"),
        Index("ix_tournament_entries_field", "tournament_id", "registered", "registered_at"),
    )
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True, index=True)
    bot_kind: Mapped[str | None] = mapped_column(String(10), nullable=True)
    name: Mapped[str] = mapped_column(String(40))
    paid: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    registered: Mapped[bool] = mapped_column(Boolean, default=True)
    place: Mapped[int | None] = mapped_column(Integer, nullable=True)
    prize: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    registered_at: Mapped[float] = mapped_column(Float)
    """When it was last registered (a registration taken back and made again: the second's):
    a registering tournament's field is its registered entries in this order (migration 0017's
    index; server/tournaments/cashier.py, ``director_of``)."""


class TournamentPart(Base):
    """One entrant's or one table's part of a tournament's stored director (migration 0019):
    the row of ``tournaments`` holds the rest (``"parts": true``), so that a hand writes the
    entrants and tables it changed, not the whole field (server/store/tournaments.py)."""

    __tablename__ = "tournament_parts"
    __table_args__ = (Index("ix_tournament_parts_version", "tournament_id", "version"),)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    kind: Mapped[str] = mapped_column(String(8), primary_key=True)
    """``entrant`` or ``table``."""
    key: Mapped[str] = mapped_column(String(40), primary_key=True)
    """The entrant's name, or the table's number."""
    record: Mapped[dict[str, Any]] = mapped_column(JSON)
    """Its part of the director; ``{"gone": true}``: no longer there (a table closed)."""
    version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    """The tournament's ``version`` its write made (processes sharing a tournament read only
    the parts written since their copy's version)."""


class TournamentTable(Base):
    """A card-room table (``tables``) that a tournament plays at, by the tournament's number."""

    __tablename__ = "tournament_tables"
    __table_args__ = (UniqueConstraint("tournament_id", "number"),)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"))
    number: Mapped[int] = mapped_column(Integer)


class CardServer(Base):
    """A live server process (migration 0008): a tournament's new tables are shared out over
    those whose ``expires_at`` has not passed (server/tournaments/sharing.py)."""

    __tablename__ = "card_servers"
    instance: Mapped[str] = mapped_column(String(32), primary_key=True)
    url: Mapped[str] = mapped_column(String(200))
    expires_at: Mapped[float] = mapped_column(Float)


class TournamentLease(Base):
    """Which server process directs a tournament (its clock, its registrations), until when;
    its tables are leased one by one (``table_leases``)."""

    __tablename__ = "tournament_leases"
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    owner: Mapped[str] = mapped_column(String(200))
    instance: Mapped[str] = mapped_column(String(32))
    expires_at: Mapped[float] = mapped_column(Float)


BANNED = 1e18
"""``Player.suspended_until`` of a ban: later than any date the room will see."""


class OperatorEvent(Base):
    """One operator's action (migration 0011): who, what, to whom, when and why. Rows are only
    ever added (docs/operators.md, "The event log"); ``sevenstud audit`` checks that their ids
    and times run in order."""

    __tablename__ = "operator_events"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    at: Mapped[float] = mapped_column(Float, index=True)
    operator: Mapped[str] = mapped_column(String(60))
    """The operator's name, or ``command line`` for ``sevenstud admin``."""
    action: Mapped[str] = mapped_column(String(40), index=True)
    target: Mapped[str | None] = mapped_column(String(60), nullable=True, index=True)
    reason: Mapped[str] = mapped_column(String(500), default="")
    detail: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)


class ApiToken(Base):
    """A token of the operator API (migration 0012): only its SHA-256 is stored, its scopes say
    what it may do, and a revoked one is kept (the event log names it)."""

    __tablename__ = "api_tokens"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    label: Mapped[str] = mapped_column(String(60))
    scopes: Mapped[list[str]] = mapped_column(JSON)
    made_by: Mapped[str] = mapped_column(String(60))
    created_at: Mapped[float] = mapped_column(Float)
    revoked_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    last_used_at: Mapped[float | None] = mapped_column(Float, nullable=True)


class HouseTable(Base):
    """A standing table of the house (migration 0014): an operator's definition that the room
    keeps open (``table_id``: the table dealing it now; a new one is opened whenever that one
    has closed). ``state`` is ``open``, ``closing`` (closed by an operator: the table closes
    after its hand in progress) or ``closed``. ``rake_percent`` is a fraction as text
    (``"5"``, ``"2.5"``)."""

    __tablename__ = "house_tables"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    game: Mapped[str] = mapped_column(String(10))
    stakes: Mapped[list[int]] = mapped_column(JSON)
    seats: Mapped[int] = mapped_column(Integer)
    min_buy_in: Mapped[int] = mapped_column(Integer)
    max_buy_in: Mapped[int] = mapped_column(Integer)
    bots: Mapped[int] = mapped_column(Integer)
    bot_kind: Mapped[str] = mapped_column(String(10))
    rake_percent: Mapped[str] = mapped_column(String(20))
    rake_cap: Mapped[int] = mapped_column(Integer)
    state: Mapped[str] = mapped_column(String(10))
    table_id: Mapped[int | None] = mapped_column(ForeignKey("tables.id"), nullable=True, index=True)
    made_by: Mapped[str] = mapped_column(String(60))
    created_at: Mapped[float] = mapped_column(Float)
    changed_at: Mapped[float] = mapped_column(Float)


class RoomSetting(Base):
    """One of the room's settings an operator changes (migration 0014), by name, as JSON."""

    __tablename__ = "room_settings"
    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[Any] = mapped_column(JSON)


class PasswordReset(Base):
    """A one-time link an operator made for an account to set a new password (migration 0013):
    only the link's SHA-256 is stored; it is used once, before ``expires_at``."""

    __tablename__ = "password_resets"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    made_by: Mapped[str] = mapped_column(String(60))
    created_at: Mapped[float] = mapped_column(Float)
    expires_at: Mapped[float] = mapped_column(Float)
    used_at: Mapped[float | None] = mapped_column(Float, nullable=True)


class ChatLineRow(Base):
    """A chat line as it was said (migration 0015): kept for the operators' chat log and the
    players' reports, by the line's own id (the ``chat`` message's ``id``); lines older than
    ``Limits.chat_log_days`` are deleted (server/operators/chat.py)."""

    __tablename__ = "chat_lines"
    __table_args__ = (Index("ix_chat_lines_table_at", "table_id", "at"),)
    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    table_id: Mapped[int] = mapped_column(Integer)
    number: Mapped[int] = mapped_column(Integer)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    player: Mapped[str] = mapped_column(String(40))
    seat: Mapped[int] = mapped_column(Integer)
    at: Mapped[float] = mapped_column(Float, index=True)
    text: Mapped[str] = mapped_column(String(200))


class ChatReport(Base):
    """A player's report of a chat line (migration 0015): the line copied as it was said (it
    outlives the chat log), who reported it, why, and what an operator made of it (``state``:
    ``open``, ``dismissed``, ``muted``). A player reports a line once."""

    __tablename__ = "chat_reports"
    __table_args__ = (UniqueConstraint("line_id", "reporter_id", name="uq_chat_reports_line_reporter"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    line_id: Mapped[str] = mapped_column(String(16), index=True)
    table_id: Mapped[int] = mapped_column(Integer)
    said_by_id: Mapped[int] = mapped_column(ForeignKey("players.id"), index=True)
    said_by: Mapped[str] = mapped_column(String(40))
    said_at: Mapped[float] = mapped_column(Float)
    text: Mapped[str] = mapped_column(String(200))
    reporter_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    reporter: Mapped[str] = mapped_column(String(40))
    reason: Mapped[str] = mapped_column(String(200), default="")
    at: Mapped[float] = mapped_column(Float)
    state: Mapped[str] = mapped_column(String(12), default="open", index=True)
    resolved_by: Mapped[str | None] = mapped_column(String(60), nullable=True)
    resolved_at: Mapped[float | None] = mapped_column(Float, nullable=True)


class ChatMute(Base):
    """A player muted room-wide (migration 0015): their chat is refused until ``until``, saying
    why; the rest of their play goes on. Lifting it deletes the row (the event log keeps it)."""

    __tablename__ = "chat_mutes"
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"), primary_key=True)
    until: Mapped[float] = mapped_column(Float)
    reason: Mapped[str] = mapped_column(String(500))
    muted_by: Mapped[str] = mapped_column(String(60))
    at: Mapped[float] = mapped_column(Float)


class ChatWord(Base):
    """A word the room refuses in chat (migration 0015), as server/operators/chat_words.py keeps
    it."""

    __tablename__ = "chat_words"
    word: Mapped[str] = mapped_column(String(40), primary_key=True)
    added_by: Mapped[str] = mapped_column(String(60))
    at: Mapped[float] = mapped_column(Float)


class PrivateGame(Base):
    """A home game (migration 0016): a private cash table (``table_id``) or sit-and-go
    (``tournament_id``), its host, and its invite link as the SHA-256 of the link's token (the
    token itself is never stored; a new link replaces it). Not in the lobby; nobody comes in
    without a :class:`PrivatePass` (server/tables/private.py)."""

    __tablename__ = "private_games"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int | None] = mapped_column(ForeignKey("tables.id"), nullable=True, unique=True)
    tournament_id: Mapped[int | None] = mapped_column(
        ForeignKey("tournaments.id"), nullable=True, unique=True
    )
    host_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    ask_to_join: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """Each newcomer with the link waits for the host's yes (else the link lets them in)."""
    paused: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    """The host paused the table: no new hand is dealt (the one in progress finishes)."""
    created_at: Mapped[float] = mapped_column(Float)


class PrivatePass(Base):
    """One player's standing at a home game: ``in`` (may watch and sit), ``asking`` (waits for
    the host), ``denied`` or ``removed`` (the host said no, or removed them: told ``reason``)."""

    __tablename__ = "private_passes"
    __table_args__ = (UniqueConstraint("game_id", "player_id"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("private_games.id"), index=True)
    player_id: Mapped[int] = mapped_column(ForeignKey("players.id"))
    state: Mapped[str] = mapped_column(String(10))
    asked_at: Mapped[float] = mapped_column(Float)
    decided_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    reason: Mapped[str] = mapped_column(String(200), default="", server_default="")


class TournamentTemplateRow(Base):
    """A tournament template the operators keep (migration 0018): a name and the body a
    tournament is made from (``POST /api/tournaments``'s, server/operators/schedule.py)."""

    __tablename__ = "tournament_templates"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(60), unique=True)
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[float] = mapped_column(Float)
    updated_at: Mapped[float] = mapped_column(Float)


class TournamentSchedule(Base):
    """When the house makes a tournament of a template (migration 0018): ``daily`` at
    ``at_time`` in ``zone``, ``every`` ``every_hours``, or ``always`` one of it registering.
    ``version`` is raised by whichever process makes its next tournament (one, never two)."""

    __tablename__ = "tournament_schedules"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    template_id: Mapped[int] = mapped_column(ForeignKey("tournament_templates.id"), index=True)
    kind: Mapped[str] = mapped_column(String(10))
    at_time: Mapped[str | None] = mapped_column(String(5), nullable=True)
    zone: Mapped[str | None] = mapped_column(String(60), nullable=True)
    every_hours: Mapped[float | None] = mapped_column(Float, nullable=True)
    next_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    """When its next tournament is made (``daily``, ``every``): a wall time."""
    tournament_id: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The last tournament it made (``always``: a new one once this one is not registering)."""
    enabled: Mapped[bool] = mapped_column(Boolean, default=True)
    version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    created_at: Mapped[float] = mapped_column(Float)
