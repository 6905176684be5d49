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
from collections.abc import Callable
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
    """Run every check (see the module) and report what does not hold. Its memory does not
    grow with the room: the sums are the database's, the hands are read in batches
    (:mod:`sevenstud.server.store.checks`)."""
    report = AuditReport()
    problems = report.problems
    # One snapshot for every query: the tables' actors write while the audit reads, and reads
    # made at different moments would pair one moment's stacks with another's ledger.
    with store.snapshot() as s:
        report.transfers = checks.transfer_count(s)
        for transfer_id, rows, total in checks.unbalanced_transfers(s):
            problems.append(f"transfer {transfer_id}: {rows} entries summing to {total}")
        held = checks.holdings(s)

        def ledger_says(kind: str, ref: int) -> int:
            return held.get((kind, ref), 0)

        for player_id, name, balance in checks.balances(s):
            says = ledger_says(ledger.BALANCE, player_id)
            if balance != says:
                problems.append(f"player {name}: balance {balance}, the ledger says {says}")
        people: dict[int, int] = {}  # sitting -> its person (a bot's is not there)
        for sitting in checks.sittings(s):
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
        wrong_index: list[str] = []
        checked_to = 0  # the index is compared hand range by hand range, as the batches come
        for batch in checks.hand_batches(s):
            dealt_in: set[tuple[int, int, int]] = set()  # (hand, player, place in the hand) as it should be
            for hand in batch:
                rake += _check_hand(hand, ledger_says, problems, report)
                if hand.status == "finished":
                    seated = enumerate(hand.sittings)
                    dealt_in.update((hand.id, people[x], hero) for hero, x in seated if x in people)
            _compare_index(dealt_in, checks.dealt_in(s, checked_to, batch[-1].id), wrong_index)
            checked_to = batch[-1].id
        _compare_index(set(), checks.dealt_in(s, checked_to, None), wrong_index)
        problems += wrong_index[:20]
        problems += audit_tournaments(s, ledger_says)  # chips issued, at the tables, the prize pool
        problems += operator_log.check(s)  # the operators' event log, only ever added to
        if ledger_says(ledger.HOUSE, 0) != rake:
            problems.append(
                f"the house holds {ledger_says(ledger.HOUSE, 0)}, the finished hands raked {rake}"
            )
    return report


def _check_hand(
    hand: checks.StoredHand, ledger_says: Callable[[str, int], int], problems: list[str], report: AuditReport
) -> int:
    """Check one stored hand (its pot empty unless it is being played; a finished one replayed
    to its stored result) and return its rake."""
    where = f"hand {hand.number} of table {hand.table_id}"
    if hand.status != "playing" and ledger_says(ledger.POT, hand.id):
        problems.append(f"{where} ({hand.status}): {ledger_says(ledger.POT, hand.id)} chips left in its pot")
    if hand.status != "finished":
        return 0
    report.hands += 1
    result = hand.result or {}
    try:
        replayed = hand_from_record(hand.record)
    except WireError as error:
        problems.append(f"{where}: does not replay: {error}")
        return int(result.get("rake", 0))
    if not replayed.is_over:
        problems.append(f"{where}: replays to a hand not over")
    elif list(replayed.stacks) != result.get("stacks") or replayed.rake != result.get("rake"):
        problems.append(
            f"{where}: replays to stacks {list(replayed.stacks)} and rake {replayed.rake}, "
            f"stored {result.get('stacks')} and {result.get('rake')}"
        )
    return int(result.get("rake", 0))


def _compare_index(
    should: set[tuple[int, int, int]], indexed: set[tuple[int, int, int]], wrong: list[str]
) -> None:
    """The index of who was dealt in against what the hands say, for one range of hands."""
    for hand_id, player_id, hero in sorted(should - indexed)[:10]:
        wrong.append(f"hand row {hand_id}: player {player_id} (place {hero}) is not in dealt_in")
    for hand_id, player_id, hero in sorted(indexed - should)[:10]:
        wrong.append(f"hand row {hand_id}: dealt_in lists player {player_id} (place {hero}) wrongly")


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
