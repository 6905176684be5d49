"""What ``sevenstud audit`` reads (server/audit.py): the ledger's sums, by transfer and by
account, and every row it checks them against (players, seats, hands, the ``dealt_in`` index),
each read in the audit's one snapshot (:meth:`Store.snapshot`)."""

from __future__ import annotations

from sqlalchemy import Row, func, select
from sqlalchemy.orm import Session

from sevenstud.server.store.models import DealtIn, Entry, HandRow, LedgerAccount, Player, Sitting


def transfer_sums(s: Session) -> list[Row[int, int, int | None, int | None]]:
    """For every transfer: its id, how many entries it has, their sum and the smallest amount
    moved (its entries' least absolute value)."""
    query = select(
        Entry.transfer_id, func.count(), func.sum(Entry.amount), func.min(func.abs(Entry.amount))
    ).group_by(Entry.transfer_id)
    return list(s.execute(query).all())


def account_sums(s: Session) -> dict[int, int]:
    """What each ledger account holds by its entries, by account id."""
    query = select(Entry.account_id, func.sum(Entry.amount)).group_by(Entry.account_id)
    return {int(account_id): int(total or 0) for account_id, total in s.execute(query)}


def account_ids(s: Session) -> dict[tuple[str, int], int]:
    """Every ledger account's id, by ``(kind, ref)``."""
    return {(a.kind, a.ref): a.id for a in s.scalars(select(LedgerAccount)).all()}


def every_player(s: Session) -> list[Player]:
    """Every account."""
    return list(s.scalars(select(Player)).all())


def every_sitting(s: Session) -> list[Sitting]:
    """Every seat ever taken, open or left."""
    return list(s.scalars(select(Sitting)).all())


def every_hand(s: Session) -> list[HandRow]:
    """Every hand stored, by row."""
    return list(s.scalars(select(HandRow).order_by(HandRow.id)).all())


def dealt_in_index(s: Session) -> set[tuple[int, int, int]]:
    """The ``dealt_in`` index: (hand row, player, place in the hand) for each row."""
    query = select(DealtIn.hand_id, DealtIn.player_id, DealtIn.hero)
    return {(hand_id, player_id, hero) for hand_id, player_id, hero in s.execute(query)}


__all__ = [
    "account_ids",
    "account_sums",
    "dealt_in_index",
    "every_hand",
    "every_player",
    "every_sitting",
    "transfer_sums",
]
