"""What ``sevenstud audit`` reads (:mod:`sevenstud.server.audit`), each read made so that its
cost in memory does not grow with the room: sums are added up by the database, only what is
wrong or not zero comes back whole, and the rows that every hand has (its record, who was dealt
in) are read in batches by id. A room of a million hands once took the audit past 16 GiB: every
hand's record loaded at once, and a row for every transfer.

Every function takes the audit's snapshot session (:meth:`Store.snapshot`), so that what they
read together held at one moment."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from sevenstud.server.store.models import DealtIn, Entry, HandRow, LedgerAccount, Player, Sitting

BATCH = 2_000
"""Rows read at a time where every hand has some: about 10 MiB of records."""


def transfer_count(s: Session) -> int:
    """How many transfers the ledger holds."""
    return s.scalar(select(func.count(func.distinct(Entry.transfer_id)))) or 0


def unbalanced_transfers(s: Session, most: int = 100) -> list[tuple[int, int, int]]:
    """Up to ``most`` transfers that are not two entries summing to zero (or have an entry of
    nothing): ``(transfer, entries, sum)`` each, by transfer."""
    query = (
        select(Entry.transfer_id, func.count(), func.sum(Entry.amount))
        .group_by(Entry.transfer_id)
        .having(or_(func.count() != 2, func.sum(Entry.amount) != 0, func.min(func.abs(Entry.amount)) == 0))
        .order_by(Entry.transfer_id)
        .limit(most)
    )
    return [(int(t), int(n), int(total or 0)) for t, n, total in s.execute(query)]


def holdings(s: Session) -> dict[tuple[str, int], int]:
    """What each ledger account holds, by ``(kind, ref)``, for the accounts that hold anything
    (an account left out holds nothing: a finished hand's pot, a closed seat)."""
    held = func.sum(Entry.amount)
    query = (
        select(LedgerAccount.kind, LedgerAccount.ref, held)
        .join(Entry, Entry.account_id == LedgerAccount.id)
        .group_by(LedgerAccount.id, LedgerAccount.kind, LedgerAccount.ref)
        .having(held != 0)
    )
    return {(kind, int(ref)): int(amount) for kind, ref, amount in s.execute(query)}


def balances(s: Session) -> Iterator[tuple[int, str, int]]:
    """Every player's ``(id, name, cached balance)``, by id."""
    columns = (Player.id, Player.name, Player.balance)
    for row in _by_id(s, columns, Player.id):
        yield int(row[0]), str(row[1]), int(row[2])


@dataclass(frozen=True, slots=True)
class SittingRow:
    """A sitting as the audit reads it."""

    id: int
    table_id: int
    seat: int
    name: str
    stack: int
    open: bool
    player_id: int | None


def sittings(s: Session) -> Iterator[SittingRow]:
    """Every sitting, by id."""
    columns = (Sitting.id, Sitting.table_id, Sitting.seat, Sitting.name, Sitting.stack, Sitting.open)
    for row in _by_id(s, (*columns, Sitting.player_id), Sitting.id):
        yield SittingRow(*row)


@dataclass(frozen=True, slots=True)
class StoredHand:
    """A hand as the audit reads it."""

    id: int
    table_id: int
    number: int
    status: str
    sittings: list[int]
    result: dict[str, Any] | None
    record: dict[str, Any]


def hand_batches(s: Session, size: int | None = None) -> Iterator[list[StoredHand]]:
    """Every hand, by id, ``size`` (:data:`BATCH`) at a time: a batch's records are let go
    before the next is read."""
    size = size or BATCH
    after = 0
    columns = (HandRow.id, HandRow.table_id, HandRow.number, HandRow.status, HandRow.sittings)
    while True:
        query = select(*columns, HandRow.result, HandRow.record).where(HandRow.id > after)
        rows = s.execute(query.order_by(HandRow.id).limit(size)).all()
        if not rows:
            return
        yield [
            StoredHand(int(i), int(t), int(n), str(status), list(seats), result, record)
            for i, t, n, status, seats, result, record in rows
        ]
        after = int(rows[-1][0])


def dealt_in(s: Session, after: int, upto: int | None) -> set[tuple[int, int, int]]:
    """The index's ``(hand, player, place in the hand)`` rows of the hands after ``after`` up
    to ``upto`` (None: every later one)."""
    query = select(DealtIn.hand_id, DealtIn.player_id, DealtIn.hero).where(DealtIn.hand_id > after)
    if upto is not None:
        query = query.where(DealtIn.hand_id <= upto)
    return {(int(h), int(p), int(hero)) for h, p, hero in s.execute(query)}


def _by_id(s: Session, columns: tuple[Any, ...], id_column: Any) -> Iterator[Any]:
    """The rows of ``columns`` by ``id_column``, read :data:`BATCH` at a time."""
    after = 0
    while True:
        rows = s.execute(select(*columns).where(id_column > after).order_by(id_column).limit(BATCH)).all()
        yield from rows
        if len(rows) < BATCH:
            return
        after = rows[-1][0]


__all__ = [
    "BATCH",
    "SittingRow",
    "StoredHand",
    "balances",
    "dealt_in",
    "hand_batches",
    "holdings",
    "sittings",
    "transfer_count",
    "unbalanced_transfers",
]
