"""``sevenstud audit``: the proof that the card room lost nothing.

The ledger balances (every transfer is two entries summing to zero), every player's balance and
every seat's stack is what the ledger says, every finished or cancelled hand's pot is empty, the
house holds exactly the rake of the finished hands, and every stored hand replays through the
engine (``sevenstud.wire.hand_from_record``) to its stored result, and the index of who was
dealt in (``dealt_in``) lists exactly the people of every finished hand.

Every check reads one snapshot of the database (:meth:`Store.snapshot`): it may run while the
tables play, and what it reports held at one moment, never a stack of one moment against the
ledger of the next.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field

from sevenstud.server.operators import log as operator_log
from sevenstud.server.store import Store, StoreError, checks, ledger, open_store
from sevenstud.server.tournaments.views import audit_tournaments
from sevenstud.wire import WireError, hand_from_record


@dataclass(slots=True)
class AuditReport:
    """What the audit found: ``problems`` is empty when everything holds."""

    transfers: int = 0
    hands: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Whether the audit is clean."""
        return not self.problems

    def __str__(self) -> str:
        verdict = "clean" if self.ok else f"{len(self.problems)} problem(s)"
        lines = [f"audit: {self.transfers} transfers, {self.hands} hands replayed: {verdict}"]
        lines.extend(f"  {problem}" for problem in self.problems)
        return "\n".join(lines)


def audit(store: Store) -> AuditReport:
    """Run every check (see the module) and report what does not hold."""
    report = AuditReport()
    problems = report.problems
    # One snapshot for every query: the tables' actors write while the audit reads, and reads
    # made at different moments would pair one moment's stacks with another's ledger.
    with store.snapshot() as s:
        sums = checks.transfer_sums(s)
        report.transfers = len(sums)
        for transfer_id, rows, total, smallest in sums:
            if rows != 2 or total != 0 or not smallest:
                problems.append(f"transfer {transfer_id}: {rows} entries summing to {total}")
        held = checks.account_sums(s)
        accounts = checks.account_ids(s)

        def ledger_says(kind: str, ref: int) -> int:
            account_id = accounts.get((kind, ref))
            return int(held.get(account_id, 0) or 0) if account_id is not None else 0

        for player in checks.every_player(s):
            says = ledger_says(ledger.BALANCE, player.id)
            if player.balance != says:
                problems.append(f"player {player.name}: balance {player.balance}, the ledger says {says}")
        people: dict[int, int] = {}  # sitting -> its person (a bot's is not there)
        for sitting in checks.every_sitting(s):
            if sitting.player_id is not None:
                people[sitting.id] = sitting.player_id
            says = ledger_says(ledger.SEAT, sitting.id)
            stack = sitting.stack if sitting.open else 0
            if stack != says:
                problems.append(
                    f"seat {sitting.seat} of table {sitting.table_id} ({sitting.name}): stack {stack}, "
                    f"the ledger says {says}"
                )
        rake = 0
        dealt_in: set[tuple[int, int, int]] = set()  # (hand, player, place in the hand) as it should be
        for hand in checks.every_hand(s):
            where = f"hand {hand.number} of table {hand.table_id}"
            if hand.status != "playing" and ledger_says(ledger.POT, hand.id):
                problems.append(
                    f"{where} ({hand.status}): {ledger_says(ledger.POT, hand.id)} chips left in its pot"
                )
            if hand.status != "finished":
                continue
            report.hands += 1
            dealt_in.update((hand.id, people[x], hero) for hero, x in enumerate(hand.sittings) if x in people)
            result = hand.result or {}
            rake += int(result.get("rake", 0))
            try:
                replayed = hand_from_record(hand.record)
            except WireError as error:
                problems.append(f"{where}: does not replay: {error}")
                continue
            if not replayed.is_over:
                problems.append(f"{where}: replays to a hand not over")
            elif list(replayed.stacks) != result.get("stacks") or replayed.rake != result.get("rake"):
                problems.append(
                    f"{where}: replays to stacks {list(replayed.stacks)} and rake {replayed.rake}, "
                    f"stored {result.get('stacks')} and {result.get('rake')}"
                )
        indexed = checks.dealt_in_index(s)
        for hand_id, player_id, hero in sorted(dealt_in - indexed)[:10]:
            problems.append(f"hand row {hand_id}: player {player_id} (place {hero}) is not in dealt_in")
        for hand_id, player_id, hero in sorted(indexed - dealt_in)[:10]:
            problems.append(f"hand row {hand_id}: dealt_in lists player {player_id} (place {hero}) wrongly")
        problems += audit_tournaments(s, ledger_says)  # chips issued, at the tables, the prize pool
        problems += operator_log.check(s)  # the operators' event log, only ever added to
        if ledger_says(ledger.HOUSE, 0) != rake:
            problems.append(
                f"the house holds {ledger_says(ledger.HOUSE, 0)}, the finished hands raked {rake}"
            )
    return report


def audit_command(args: argparse.Namespace) -> int:
    """``sevenstud audit [--database URL]``: print the report; exit 0 when clean, 1 if not."""
    try:
        store = open_store(getattr(args, "database", None), existing=True)
    except StoreError as error:
        print(f"sevenstud audit: {error}", file=sys.stderr)
        return 1
    try:
        report = audit(store)
    finally:
        store.close()
    print(report)
    return 0 if report.ok else 1
