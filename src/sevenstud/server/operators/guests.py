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

from sevenstud.server.operators import log
from sevenstud.server.operators.accounts import OVER, OperatorError
from sevenstud.server.store import Store, accounts, ledger

MAX_DAYS = 3650


def _days(days: object) -> int:
    if not isinstance(days, int) or isinstance(days, bool) or not 1 <= days <= MAX_DAYS:
        raise OperatorError("prune_days", days=repr(days))
    return days


def prune(store: Store, operator: str, unused_days: int) -> dict[str, int]:
    """Prune the guests unused for ``unused_days`` days (1 to 3650): how many were pruned
    (``guests``), how many rows deleted (``deleted``) and how many chips went back to the
    bank (``chips``)."""
    cutoff = time.time() - _days(unused_days) * 86400
    pruned = deleted = chips = 0
    with store.transaction() as s:
        guests = accounts.unused_guests(s, cutoff, OVER)
        bank = ledger.account(s, ledger.BANK)
        for guest in guests:
            # a row of the room's history names the guest: its row stays
            played = accounts.in_history(s, guest.id)
            if played and guest.balance == 0:
                continue  # pruned before: its row stays for its hands
            if guest.balance:
                amount = guest.balance
                ledger.move_balance(s, guest.id, -amount)
                ledger.transfer(s, ledger.account(s, ledger.BALANCE, guest.id), bank, amount, "prune")
                chips += amount
            accounts.end_sessions(s, guest.id)
            if not played:
                accounts.forget_notes(s, guest.id)
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
        return accounts.guests_count(s)
