"""The double-entry ledger: every chip movement is a :class:`Transfer` with two entries.

The caller passes its own SQLAlchemy session, so a movement is written in the same transaction
as the event that causes it; nothing here commits.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from sqlalchemy import Connection, bindparam, func, select, update
from sqlalchemy.dialects import postgresql
from sqlalchemy.orm import Session

from sevenstud.server.store.direct import direct
from sevenstud.server.store.models import Entry, LedgerAccount, Player, Transfer, core

BALANCE = "balance"
SEAT = "seat"
POT = "pot"
HOUSE = "house"
BANK = "bank"
TCHIPS = "tchips"
"""A tournament's chip bank (ref: the tournament): where its tournament chips come from, so it
holds minus the chips issued (entries x starting chips + rebuys and add-ons)."""
TBOX = "tbox"
"""A tournament's chips off its tables (ref: the tournament): issued and not seated yet, a
player between two tables, the winner's chips once it is over."""
TPOOL = "tpool"
"""A tournament's prize pool in play chips (ref: the tournament): the buy-ins, paid out as prizes."""
TFEE = "tfee"
"""The fees a tournament took (ref: the tournament): the house's, never in the prize pool."""
KINDS = (BALANCE, SEAT, POT, HOUSE, BANK, TCHIPS, TBOX, TPOOL, TFEE)


class LedgerError(ValueError):
    """A movement that makes no sense (a non-positive amount, an unknown kind of account)."""


def account(on: Session | Connection, kind: str, ref: int = 0) -> int:
    """The id of the ledger account ``(kind, ref)``, made on first use (in the transaction of
    ``on``: a session, or the tables' write path's connection)."""
    if kind not in KINDS:
        raise LedgerError(f"no ledger account kind {kind!r} (kinds: {', '.join(KINDS)})")
    key = {"kind": kind, "ref": ref}
    found = on.scalar(_FIND_ACCOUNT, key)
    if found is None:
        # Two transactions may make the same account at once (PostgreSQL: the bank's, in a new
        # room, by a guest's first chips and a tournament's first bot): the second one's insert
        # does nothing once the first commits, and it reads the first one's row.
        found = on.scalar(_MAKE_ACCOUNT, key)
        if found is None:
            found = on.scalar(_FIND_ACCOUNT, key)
    assert found is not None
    return int(found)


# Built once: every sit-down and every hand makes accounts (a seat's, a pot's), and building the
# two statements each time was a tenth of the event loop's time while 1,000 people sat down at
# once (benchmarks/load.py's profile).
_ACCOUNTS = core(LedgerAccount)
_FIND_ACCOUNT = select(_ACCOUNTS.c.id).where(
    _ACCOUNTS.c.kind == bindparam("kind"), _ACCOUNTS.c.ref == bindparam("ref")
)
_MAKE_ACCOUNT = (
    # PostgreSQL's INSERT ... ON CONFLICT DO NOTHING, which SQLite says the same way.
    postgresql.insert(_ACCOUNTS)
    .values(kind=bindparam("kind"), ref=bindparam("ref"))
    .on_conflict_do_nothing()
    .returning(_ACCOUNTS.c.id)
)


def _check_move(source: int, target: int, amount: object) -> None:
    if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
        raise LedgerError(f"a transfer moves a positive whole number of chips, not {amount!r}")
    if source == target:
        raise LedgerError(f"a transfer from account {source} to itself")


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
    _check_move(source, target, amount)
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


class ShortBalance(LedgerError):
    """A balance move refused: it would take ``name``'s balance of ``balance`` below zero."""

    def __init__(self, name: str, balance: int, change: int) -> None:
        super().__init__(f"{name} has {balance} chips, not {-change}")
        self.name, self.balance, self.change = name, balance, change


def move_balance(on: Session | Connection, player_id: int, change: int) -> int:
    """Move a player's cached balance (``players.balance``, what the ledger's
    :data:`BALANCE` account holds) by ``change``, in one UPDATE that never takes it below zero
    (another table or tournament may be moving it at the same moment); the new balance, or
    :class:`ShortBalance`. The one place a balance changes: its ledger transfer is the
    caller's, in the same transaction. On a session the loaded :class:`Player` follows."""
    moved = on.execute(
        update(Player)
        .where(Player.id == player_id, Player.balance + change >= 0)
        .values(balance=Player.balance + change)
        .returning(Player.balance)
    ).scalar_one_or_none()
    if moved is None:
        found = on.execute(select(Player.name, Player.balance).where(Player.id == player_id)).one_or_none()
        name, balance = found if found is not None else (f"account {player_id}", 0)
        raise ShortBalance(name, int(balance), change)
    return int(moved)


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


# ---------------------------------------------------------------------- the tables' write path
# A table's keeper writes a few transfers with every action; these write them on the
# transaction's connection: no unit of work, one statement for all the transfers of a command
# and one for all their entries, and account ids from a cache instead of a SELECT each.


@dataclass(slots=True)
class Move:
    """One transfer still to write: ``amount`` chips from account ``source`` to ``target``."""

    source: int
    target: int
    amount: int
    reason: str
    event_id: int | None = None
    hand_id: int | None = None


@dataclass(slots=True)
class AccountIds:
    """Ledger account ids already looked up or made: ``(kind, ref) -> id``.

    Ids found or made inside a transaction wait in ``fresh`` until :meth:`committed` (a made
    account a rollback undid must not be remembered); :meth:`rolled_back` forgets them."""

    known: dict[tuple[str, int], int] = field(default_factory=dict)
    fresh: dict[tuple[str, int], int] = field(default_factory=dict)

    def get(self, connection: Connection, kind: str, ref: int = 0) -> int:
        """The id of account ``(kind, ref)``, made on first use (in ``connection``'s transaction)."""
        key = (kind, ref)
        found = self.known.get(key)
        if found is None:
            found = self.fresh.get(key)
        if found is None:
            found = self.fresh[key] = account(connection, kind, ref)
        return found

    def forget(self, kind: str, ref: int) -> None:
        """Drop an account no longer written to (a finished hand's pot, a closed seat)."""
        self.known.pop((kind, ref), None)
        self.fresh.pop((kind, ref), None)

    def committed(self) -> None:
        """The transaction committed: the ids it found or made are known."""
        self.known.update(self.fresh)
        self.fresh.clear()

    def rolled_back(self) -> None:
        """The transaction was rolled back: forget the ids it made."""
        self.fresh.clear()


def write_moves(connection: Connection, moves: list[Move], at: float | None = None) -> None:
    """Write ``moves`` (two entries each) in ``connection``'s transaction: one INSERT of every
    transfer, its ids returned, then one of every entry (on the driver's cursor:
    :mod:`sevenstud.server.store.direct`)."""
    if not moves:
        return
    for move in moves:
        _check_move(move.source, move.target, move.amount)
    when = time.time() if at is None else at
    statements = direct(connection)
    ids = statements.insert_transfers(connection, [(m.reason, m.event_id, m.hand_id, when) for m in moves])
    rows = []
    for transfer_id, move in zip(ids, moves, strict=True):
        rows.append((transfer_id, move.source, -move.amount))
        rows.append((transfer_id, move.target, move.amount))
    statements.insert_entries(connection, rows)
