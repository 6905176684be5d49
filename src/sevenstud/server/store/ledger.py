"""The double-entry ledger: every chip movement is a :class:`Transfer` with two entries.

The caller passes its own SQLAlchemy session, so a movement is written in the same transaction
as the event that causes it; nothing here commits.
"""

from __future__ import annotations

import time

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from sevenstud.server.store.models import Entry, LedgerAccount, Transfer

BALANCE = "balance"
SEAT = "seat"
POT = "pot"
HOUSE = "house"
BANK = "bank"
KINDS = (BALANCE, SEAT, POT, HOUSE, BANK)


class LedgerError(ValueError):
    """A movement that makes no sense (a non-positive amount, an unknown kind of account)."""


def account(session: Session, kind: str, ref: int = 0) -> int:
    """The id of the ledger account ``(kind, ref)``, made on first use."""
    if kind not in KINDS:
        raise LedgerError(f"no ledger account kind {kind!r} (kinds: {', '.join(KINDS)})")
    found = session.scalar(
        select(LedgerAccount.id).where(LedgerAccount.kind == kind, LedgerAccount.ref == ref)
    )
    if found is not None:
        return found
    row = LedgerAccount(kind=kind, ref=ref)
    session.add(row)
    session.flush()
    return row.id


def transfer(
    session: Session,
    source: int,
    target: int,
    amount: int,
    reason: str,
    *,
    event_id: int | None = None,
    hand_id: int | None = None,
    at: float | None = None,
) -> Transfer:
    """Move ``amount`` chips from ledger account ``source`` to ``target``: two entries."""
    if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
        raise LedgerError(f"a transfer moves a positive whole number of chips, not {amount!r}")
    if source == target:
        raise LedgerError(f"a transfer from account {source} to itself")
    row = Transfer(reason=reason, event_id=event_id, hand_id=hand_id, at=time.time() if at is None else at)
    session.add(row)
    session.flush()
    session.add_all(
        [
            Entry(transfer_id=row.id, account_id=source, amount=-amount),
            Entry(transfer_id=row.id, account_id=target, amount=amount),
        ]
    )
    return row


def balance_of(session: Session, account_id: int) -> int:
    """What the ledger says the account holds."""
    total = session.scalar(
        select(func.coalesce(func.sum(Entry.amount), 0)).where(Entry.account_id == account_id)
    )
    return int(total or 0)


def net_by_counterpart(session: Session, account_id: int) -> dict[int, int]:
    """For every account that moved chips to or from ``account_id``: the net chips it put in
    (positive) or took out (negative). A cancelled hand's refund is read from this."""
    mine = select(Entry.transfer_id, Entry.amount).where(Entry.account_id == account_id).subquery()
    rows = session.execute(
        select(Entry.account_id, func.sum(mine.c.amount))
        .join(mine, mine.c.transfer_id == Entry.transfer_id)
        .where(Entry.account_id != account_id)
        .group_by(Entry.account_id)
    ).all()
    return {int(other): int(total) for other, total in rows if total}
