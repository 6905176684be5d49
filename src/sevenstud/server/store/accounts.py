"""Accounts as stored: players (their names, roles, balances' rows), their log-in sessions,
password-reset links, and what an account's page lists (its chip moves, seats, hands and
tournaments). A player is found by its exact name or by its compared name (``name_key``, which
the caller computes: ``auth.name_key``). A balance is moved by :func:`ledger.move_balance` alone.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any, cast

from sqlalchemy import CursorResult, Row, delete, exists, func, or_, select, update
from sqlalchemy.orm import Session

from sevenstud.server.store.models import (
    DealtIn,
    Entry,
    LoginSession,
    OperatorEvent,
    PasswordReset,
    Player,
    PlayerNote,
    Sitting,
    TournamentEntry,
    TournamentRow,
    Transfer,
    Waiting,
)

# ------------------------------------------------------------------ players


def player_named(s: Session, name: str, key: str) -> Player | None:
    """The account named ``name`` exactly or whose compared name is ``key``, if any."""
    found: Player | None = s.scalar(select(Player).where(or_(Player.name == name, Player.name_key == key)))
    return found


def player_exactly(s: Session, name: str) -> Player | None:
    """The account named ``name`` exactly, if any."""
    found: Player | None = s.scalar(select(Player).where(Player.name == name))
    return found


def player_keyed(s: Session, key: str) -> Player | None:
    """The (first) account whose compared name is ``key``, if any."""
    found: Player | None = s.scalar(select(Player).where(Player.name_key == key))
    return found


def name_taken(s: Session, name: str, key: str, *, besides: int | None = None) -> bool:
    """Whether an account (other than ``besides``) is named ``name`` or ``key`` compared."""
    query = select(Player.id).where(or_(Player.name == name, Player.name_key == key))
    if besides is not None:
        query = query.where(Player.id != besides)
    return s.scalar(query) is not None


def player_locked(s: Session, player_id: int) -> Player | None:
    """The account ``player_id``, its row locked to the end of the transaction (PostgreSQL's
    ``FOR UPDATE``), if any."""
    return s.get(Player, player_id, with_for_update=True)


def players_containing(s: Session, key: str, limit: int) -> list[Player]:
    """At most ``limit`` accounts whose compared name contains ``key``, guests last."""
    query = (
        select(Player)
        .where(Player.name_key.contains(key, autoescape=True))
        .order_by(Player.guest, Player.name_key)
        .limit(limit)
    )
    return list(s.scalars(query))


def guests_count(s: Session) -> int:
    """How many guest accounts the room keeps."""
    return int(s.scalar(select(func.count()).select_from(Player).where(Player.guest)) or 0)


# ------------------------------------------------------------------ log-in sessions


def end_sessions(s: Session, player_id: int) -> list[str]:
    """Delete every session of the account; their keys (their sockets are closed)."""
    keys = list(s.scalars(select(LoginSession.token_hash).where(LoginSession.player_id == player_id)))
    s.execute(delete(LoginSession).where(LoginSession.player_id == player_id))
    return keys


def live_logins(s: Session, player_id: int, now: float) -> Sequence[Row[float, float | None, float]]:
    """The account's sessions not past their lifetime at ``now``: when each was made, last
    used and ends, newest first."""
    query = (
        select(LoginSession.created_at, LoginSession.last_seen_at, LoginSession.expires_at)
        .where(LoginSession.player_id == player_id, LoginSession.expires_at > now)
        .order_by(LoginSession.created_at.desc())
    )
    return s.execute(query).all()


def touch_sessions(s: Session, keys: Collection[str], now: float) -> None:
    """Store the sessions ``keys`` as used at ``now``."""
    s.execute(update(LoginSession).where(LoginSession.token_hash.in_(list(keys))).values(last_seen_at=now))


def end_idle_sessions(s: Session, now: float, idle: float) -> set[str]:
    """Delete every session past its lifetime at ``now`` or unused for ``idle`` seconds; their
    keys."""
    ended = or_(LoginSession.expires_at < now, LoginSession.last_seen_at < now - idle)
    keys = set(s.scalars(select(LoginSession.token_hash).where(ended)).all())
    if keys:
        s.execute(delete(LoginSession).where(LoginSession.token_hash.in_(list(keys))))
    return keys


# ------------------------------------------------------------------ password-reset links


def end_reset_links(s: Session, player_id: int, now: float) -> None:
    """Make every unused link of the account expire at ``now`` (a newer one ends them)."""
    unused = (PasswordReset.player_id == player_id, PasswordReset.used_at.is_(None))
    s.execute(update(PasswordReset).where(*unused).values(expires_at=now))


def reset_link(s: Session, token_hash: str) -> PasswordReset | None:
    """The link whose secret's SHA-256 is ``token_hash``, if any."""
    found: PasswordReset | None = s.scalar(
        select(PasswordReset).where(PasswordReset.token_hash == token_hash)
    )
    return found


def use_reset_link(s: Session, link_id: int, now: float) -> bool:
    """Mark the link used at ``now`` if nobody used it yet; whether this call did (a link used
    twice at once: one wins)."""
    claimed = s.execute(
        update(PasswordReset)
        .where(PasswordReset.id == link_id, PasswordReset.used_at.is_(None))
        .values(used_at=now)
    )
    return cast(CursorResult[Any], claimed).rowcount == 1


# ------------------------------------------------------------------ what an account holds and did


def balance_moves(s: Session, account_id: int | None, limit: int) -> Sequence[Row[int, float, str, int]]:
    """The last ``limit`` transfers in or out of ledger account ``account_id`` (a balance),
    newest first: the transfer's id, when, its reason and the chips (negative: out)."""
    query = (
        select(Transfer.id, Transfer.at, Transfer.reason, Entry.amount)
        .join(Entry, Entry.transfer_id == Transfer.id)
        .where(Entry.account_id == account_id)
        .order_by(Transfer.id.desc())
        .limit(limit)
    )
    return s.execute(query).all()


def chip_move_lines(s: Session, name: str, limit: int) -> list[OperatorEvent]:
    """The event log's last ``limit`` lines of an operator moving ``name``'s chips, newest first."""
    query = (
        select(OperatorEvent)
        .where(OperatorEvent.action == "chips", OperatorEvent.target == name)
        .order_by(OperatorEvent.id.desc())
        .limit(limit)
    )
    return list(s.scalars(query))


def open_seats(s: Session, player_id: int) -> Sequence[Row[int, int, int]]:
    """The seats the account holds now: table, seat and stack, by table."""
    query = (
        select(Sitting.table_id, Sitting.seat, Sitting.stack)
        .where(Sitting.player_id == player_id, Sitting.open)
        .order_by(Sitting.table_id)
    )
    return s.execute(query).all()


def sittings_count(s: Session, player_id: int, *, open_only: bool = False) -> int:
    """How many seats the account ever took (``open_only``: holds now)."""
    query = select(func.count()).select_from(Sitting).where(Sitting.player_id == player_id)
    if open_only:
        query = query.where(Sitting.open)
    return int(s.scalar(query) or 0)


def last_hands(s: Session, player_id: int, limit: int) -> Sequence[Row[int, int, int, float]]:
    """The account's last ``limit`` hands dealt: hand row, table, number and start, newest first."""
    query = (
        select(DealtIn.hand_id, DealtIn.table_id, DealtIn.number, DealtIn.started_at)
        .where(DealtIn.player_id == player_id)
        .order_by(DealtIn.started_at.desc(), DealtIn.hand_id.desc())
        .limit(limit)
    )
    return s.execute(query).all()


def tournament_entries(
    s: Session, player_id: int, limit: int
) -> Sequence[Row[int, str, str, int, int | None, int]]:
    """The account's last ``limit`` tournament entries, newest first: the tournament's id, name
    and state, and the entry's paid, place and prize."""
    query = (
        select(
            TournamentRow.id,
            TournamentRow.name,
            TournamentRow.state,
            TournamentEntry.paid,
            TournamentEntry.place,
            TournamentEntry.prize,
        )
        .join(TournamentRow, TournamentRow.id == TournamentEntry.tournament_id)
        .where(TournamentEntry.player_id == player_id)
        .order_by(TournamentEntry.id.desc())
        .limit(limit)
    )
    return s.execute(query).all()


def entries_not_over(s: Session, player_id: int, over: Collection[str]) -> int:
    """How many tournaments not over (their state not in ``over``) the account is entered in."""
    query = (
        select(func.count())
        .select_from(TournamentEntry)
        .join(TournamentRow, TournamentRow.id == TournamentEntry.tournament_id)
        .where(TournamentEntry.player_id == player_id, TournamentRow.state.not_in(list(over)))
    )
    return int(s.scalar(query) or 0)


# ------------------------------------------------------------------ guests no longer used


def unused_guests(s: Session, cutoff: float, over: Collection[str]) -> list[Player]:
    """The guests made before ``cutoff`` and not signed in since, neither seated, waiting, nor
    entered in a tournament not over (its state not in ``over``), by id."""
    recent = select(LoginSession.player_id).where(
        or_(LoginSession.last_seen_at >= cutoff, LoginSession.created_at >= cutoff)
    )
    seated = select(Sitting.player_id).where(Sitting.open, Sitting.player_id.is_not(None))
    waiting = select(Waiting.player_id)
    registered = (
        select(TournamentEntry.player_id)
        .join(TournamentRow, TournamentRow.id == TournamentEntry.tournament_id)
        .where(TournamentEntry.player_id.is_not(None), TournamentRow.state.not_in(list(over)))
    )
    query = (
        select(Player)
        .where(
            Player.guest,
            Player.created_at < cutoff,
            Player.id.not_in(recent),
            Player.id.not_in(seated),
            Player.id.not_in(waiting),
            Player.id.not_in(registered),
        )
        .order_by(Player.id)
    )
    return list(s.scalars(query).all())


def in_history(s: Session, player_id: int) -> bool:
    """Whether a row of the room's history (a seat, a hand, a tournament entry) names the
    account."""
    return any(
        s.scalar(select(exists().where(column == player_id)))
        for column in (Sitting.player_id, DealtIn.player_id, TournamentEntry.player_id)
    )


def forget_notes(s: Session, author_id: int) -> None:
    """Delete every note the account wrote."""
    s.execute(delete(PlayerNote).where(PlayerNote.author_id == author_id))


__all__ = [
    "balance_moves",
    "chip_move_lines",
    "end_idle_sessions",
    "end_reset_links",
    "end_sessions",
    "entries_not_over",
    "forget_notes",
    "guests_count",
    "in_history",
    "last_hands",
    "live_logins",
    "name_taken",
    "open_seats",
    "player_exactly",
    "player_keyed",
    "player_locked",
    "player_named",
    "players_containing",
    "reset_link",
    "sittings_count",
    "touch_sessions",
    "tournament_entries",
    "unused_guests",
    "use_reset_link",
]
