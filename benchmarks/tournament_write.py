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

from sevenstud.server.store import open_store
from sevenstud.server.store.models import TournamentRow
from sevenstud.server.tournaments.cashier import Cashier, Running, stored_record
from sevenstud.tournament import Director, TournamentSettings


def measure(field: int, hands: int) -> dict[str, Any]:
    """CPU milliseconds and characters written a hand for a ``field``-entrant tournament."""
    folder = Path(tempfile.mkdtemp())
    store = open_store(f"sqlite:///{folder / 'room.sqlite3'}")
    try:
        settings = TournamentSettings(kind="scheduled", start_at=1.0, seats=8, max_entries=field, min_field=2)
        d = Director(settings, seed=1)
        for n in range(field):
            d.register(f"p{n}", 0.0)
        with store.transaction() as s:
            row = TournamentRow(
                name="write",
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
        running = Running(tid, "write", d, 1.0, 0.0)
        cashier = Cashier(store, lambda _running, _commands: None)
        with store.begin() as c:
            cashier.persist(c, running, d.tick(2.0), 2.0)
        size = 0

        def count(_c: Any, _cursor: Any, statement: str, parameters: Any, _context: Any, _many: bool) -> None:
            nonlocal size
            size += len(statement) + len(str(parameters))

        event.listen(store.engine, "before_cursor_execute", count)
        spent, now = 0.0, 3.0
        tables = sorted(d.tables)
        for hand in range(hands):
            number = tables[hand % len(tables)]
            stacks = {p: d.entrants[p].chips for p in d.tables[number].players.values()}
            d.hand_started(number, stacks, now)
            first, second = sorted(stacks)[:2]
            stacks[first], stacks[second] = stacks[first] + 10, stacks[second] - 10
            began = time.process_time()
            decided = d.hand_finished(number, stacks, now + 1)
            with store.begin() as c:
                cashier.persist(c, running, decided, now + 1)
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
