"""Guests no longer used, pruned (docs/operators.md, "Accounts"): ``sevenstud admin
prune-guests --unused-days N`` and the console's button.

A guest is unused when it was made and last signed in more than N days ago. Its chips go back
to the bank by a ledger transfer (``prune``), its sessions end, and its row is deleted when no
hand, seat or tournament of the room names it (one that played keeps its row, its balance 0,
so that the hands it played still say who played them). A guest seated at a table, waiting
for one or registered in a tournament not over is never pruned. One line of the event log
says how many were pruned and how many chips went back.
"""

from __future__ import annotations

import time

from sqlalchemy import delete, exists, func, or_, select
from sqlalchemy.orm import Session

from sevenstud.server.operators import log
from sevenstud.server.operators.accounts import OVER, OperatorError
from sevenstud.server.store import Store, ledger
from sevenstud.server.store.models import (
    DealtIn,
    LoginSession,
    Player,
    PlayerNote,
    Sitting,
    TournamentEntry,
    TournamentRow,
    Waiting,
)

MAX_DAYS = 3650


def _days(days: object) -> int:
    if not isinstance(days, int) or isinstance(days, bool) or not 1 <= days <= MAX_DAYS:
        raise OperatorError("prune_days", days=repr(days))
    return days


def _played(s: Session, player_id: int) -> bool:
    """Whether a row of the room's history names the guest (then its row stays)."""
    return any(
        s.scalar(select(exists().where(column == player_id)))
        for column in (Sitting.player_id, DealtIn.player_id, TournamentEntry.player_id)
    )


def prune(store: Store, operator: str, unused_days: int) -> dict[str, int]:
    """Prune the guests unused for ``unused_days`` days (1 to 3650): how many were pruned
    (``guests``), how many rows deleted (``deleted``) and how many chips went back to the
    bank (``chips``)."""
    cutoff = time.time() - _days(unused_days) * 86400
    recent = select(LoginSession.player_id).where(
        or_(LoginSession.last_seen_at >= cutoff, LoginSession.created_at >= cutoff)
    )
    seated = select(Sitting.player_id).where(Sitting.open, Sitting.player_id.is_not(None))
    waiting = select(Waiting.player_id)
    registered = (
        select(TournamentEntry.player_id)
        .join(TournamentRow, TournamentRow.id == TournamentEntry.tournament_id)
        .where(TournamentEntry.player_id.is_not(None), TournamentRow.state.not_in(OVER))
    )
    pruned = deleted = chips = 0
    with store.transaction() as s:
        guests = s.scalars(
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
        ).all()
        bank = ledger.account(s, ledger.BANK)
        for guest in guests:
            played = _played(s, guest.id)
            if played and guest.balance == 0:
                continue  # pruned before: its row stays for its hands
            if guest.balance:
                amount = guest.balance
                ledger.move_balance(s, guest.id, -amount)
                ledger.transfer(s, ledger.account(s, ledger.BALANCE, guest.id), bank, amount, "prune")
                chips += amount
            s.execute(delete(LoginSession).where(LoginSession.player_id == guest.id))
            if not played:
                s.execute(delete(PlayerNote).where(PlayerNote.author_id == guest.id))
                s.delete(guest)
                deleted += 1
            pruned += 1
        s.flush()
        log.write(
            s,
            operator,
            "prune_guests",
            None,
            "",
            unused_days=unused_days,
            guests=pruned,
            deleted=deleted,
            chips=chips,
        )
    return {"guests": pruned, "deleted": deleted, "chips": chips}


def guests_count(store: Store) -> int:
    """How many guest accounts the room keeps."""
    with store.session() as s:
        return int(s.scalar(select(func.count()).select_from(Player).where(Player.guest)) or 0)
