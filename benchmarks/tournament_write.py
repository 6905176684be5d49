"""The director's write after one hand (issue 35), alone: a started tournament of N entrants
in a fresh SQLite file, a hand at table 1 ended and written by the cashier (``persist``), CPU
time (``time.process_time``: the machine's other load aside) and characters of SQL parameters
a hand, for each field size.

    python benchmarks/tournament_write.py                  # 100, 1,000 and 10,000 entrants
    PYTHONPATH=/path/to/older/checkout/src python benchmarks/tournament_write.py   # older code
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from sqlalchemy import event

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from sevenstud.server.store import Store, open_store
from sevenstud.server.store.models import TournamentRow
from sevenstud.server.tournaments.cashier import Cashier, Running, stored_record
from sevenstud.tournament import Director, TournamentSettings


def started(store: Store, field: int, seed: int = 1) -> tuple[Director, Running, Cashier]:
    """A ``field``-entrant tournament stored and started in ``store`` (every entrant seated,
    the start written), its director, its running state and its cashier.
    tests/server/test_tournament_scale.py counts the same writes."""
    settings = TournamentSettings(kind="scheduled", start_at=1.0, seats=8, max_entries=field, min_field=2)
    d = Director(settings, seed=seed)
    for n in range(field):
        d.register(f"p{n}", 0.0)
    with store.transaction() as s:
        row = TournamentRow(
            name=f"{field} entrants",
            kind="scheduled",
            settings={},
            state="registering",
            director=stored_record(d, 0.0),
            speed=1.0,
            created_at=time.time(),
        )
        s.add(row)
        s.flush()
        tid = row.id
    running = Running(tid, row.name, d, 1.0, 0.0)
    cashier = Cashier(store, lambda _running, _commands: None)
    with store.begin() as c:
        cashier.persist(c, running, d.tick(2.0), 2.0)
    return d, running, cashier


def a_hand(store: Store, started: tuple[Director, Running, Cashier], number: int, now: float) -> None:
    """A hand at table ``number`` from ``now`` to ``now + 1``, in which one player wins 10 chips
    from another, and the cashier's write after it."""
    d, running, cashier = started
    stacks = {p: d.entrants[p].chips for p in d.tables[number].players.values()}
    d.hand_started(number, stacks, now)
    first, second = sorted(stacks)[:2]
    stacks[first], stacks[second] = stacks[first] + 10, stacks[second] - 10
    decided = d.hand_finished(number, stacks, now + 1)
    with store.begin() as c:
        cashier.persist(c, running, decided, now + 1)


def measure(field: int, hands: int) -> dict[str, Any]:
    """CPU milliseconds and characters written a hand for a ``field``-entrant tournament."""
    folder = Path(tempfile.mkdtemp())
    store = open_store(f"sqlite:///{folder / 'room.sqlite3'}")
    try:
        tournament = started(store, field)
        size = 0

        def count(_c: Any, _cursor: Any, statement: str, parameters: Any, _context: Any, _many: bool) -> None:
            nonlocal size
            size += len(statement) + len(str(parameters))

        event.listen(store.engine, "before_cursor_execute", count)
        spent, now = 0.0, 3.0
        tables = sorted(tournament[0].tables)
        for hand in range(hands):
            began = time.process_time()
            a_hand(store, tournament, tables[hand % len(tables)], now)
            spent += time.process_time() - began
            now += 2
        return {
            "entrants": field,
            "cpu_ms_a_hand": round(spent / hands * 1000, 2),
            "characters_a_hand": size // hands,
        }
    finally:
        store.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, nargs="*", default=[100, 1000, 10000])
    parser.add_argument("--hands", type=int, default=200)
    args = parser.parse_args()
    for field in args.entrants:
        print(json.dumps(measure(field, args.hands)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
