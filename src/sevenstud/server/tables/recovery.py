"""The recovery after a crash: every hand it cut off cancelled and refunded, every seat kept or
stood up.

:func:`recover` runs at start: a hand still ``playing`` in the database was cut off by a crash;
it is cancelled and every chip put into it goes back to its seat. The seats stay taken with
their stacks (the keeper seats them again when its table opens): a person who does not come
back is timed out, then sat out, as any disconnected player is. ``keep_seats=False`` stands
every seat up instead, its stack back to its owner's balance (bots' chips back to the bank).
What a hand's refunds were is kept on its row (``result``), for the clients that were in it
(:class:`sevenstud.server.tables.keeper.CancelledHand`).
"""

from __future__ import annotations

import time
from collections.abc import Collection

from sevenstud.server.store import Store, hands, ledger
from sevenstud.server.store.models import Player, TableRow, TournamentTable


def recover(store: Store, tables: Collection[int] | None = None, *, keep_seats: bool = True) -> int:
    """Cancel every hand a crash cut off, refunding every chip put into it to its seat. Every
    seat whose player is still there (an account, or a bot) at a table still open keeps its
    stack, as the ledger says it is: the table's keeper seats it again when it opens. Every
    other seat (with ``keep_seats=False``: every seat) stands up with its stack back to its
    owner. Returns the number of hands cancelled. Given
    ``tables``, only theirs (a process taking over a dead one's tables: see leases.py)."""
    cancelled = 0
    with store.transaction() as s:
        bank = ledger.account(s, ledger.BANK)
        for row in hands.hands_in_play(s, tables):
            pot = ledger.account(s, ledger.POT, row.id)
            dealt = {
                ledger.account(s, ledger.SEAT, sitting.id): sitting
                for sitting in hands.sittings_by_id(s, row.sittings).values()
            }
            refunds = []
            for other, put_in in ledger.net_by_counterpart(s, pot).items():
                if put_in > 0:
                    ledger.transfer(s, pot, other, put_in, "refund", hand_id=row.id)
                    if other in dealt:
                        refunds.append([dealt[other].seat, dealt[other].name, put_in])
            row.status, row.ended_at = "cancelled", time.time()
            # What went back to each seat, for the clients that were in the hand (hand_cancelled).
            row.result = {"refunds": sorted(refunds)}
            cancelled += 1
        for sitting in hands.open_sittings(s, tables):
            seat_account = ledger.account(s, ledger.SEAT, sitting.id)
            stack = ledger.balance_of(s, seat_account)
            table = s.get(TableRow, sitting.table_id)
            there = sitting.player_id is None or s.get(Player, sitting.player_id) is not None
            if keep_seats and there and table is not None and not table.closed:
                sitting.stack = stack
                continue
            tournament = s.get(TournamentTable, sitting.table_id)
            if stack:
                if tournament is not None:  # tournament chips: back to its box, never a balance
                    target = ledger.account(s, ledger.TBOX, tournament.tournament_id)
                elif sitting.player_id is None:
                    target = bank
                elif (player := s.get(Player, sitting.player_id)) is None:
                    target = bank  # the account is gone: its chips go back where play chips come from
                else:
                    ledger.move_balance(s, player.id, stack)
                    target = ledger.account(s, ledger.BALANCE, sitting.player_id)
                ledger.transfer(s, seat_account, target, stack, "leaving")
            sitting.stack, sitting.open = 0, False
    return cancelled
