"""A hand's write is the size of the hand, not of the field (issue 35): the director's write
after a hand at one table of a 500-entrant tournament is no larger than at one of a 50-entrant
one. The whole director was written after every hand, most of a 1,000-entrant tournament's
time (docs/benchmarks.md, "Tournaments through the card room")."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from sqlalchemy import event

from sevenstud.server.store import open_store
from sevenstud.server.store.models import TournamentRow
from sevenstud.server.tournaments.cashier import Cashier, Running, stored_record
from sevenstud.tournament import Director, TournamentSettings


def _written_per_hand(tmp_path: Path, field: int) -> tuple[int, int]:
    """The statements and the characters of parameters the cashier writes after each of
    three hands at table 1 of a started ``field``-entrant tournament (the most of the three)."""
    store = open_store(f"sqlite:///{tmp_path / f'room{field}.sqlite3'}")
    try:
        settings = TournamentSettings(kind="scheduled", start_at=1.0, seats=8, max_entries=field, min_field=2)
        d = Director(settings, seed=field)
        for n in range(field):
            d.register(f"p{n}", 0.0)
        with store.transaction() as s:
            row = TournamentRow(
                name="scale",
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
        running = Running(tid, "scale", d, 1.0, 0.0)
        cashier = Cashier(store, lambda _running, _commands: None)
        commands = d.tick(2.0)
        with store.begin() as c:
            cashier.persist(c, running, commands, 2.0)  # the start: every entrant seated
        seen: list[tuple[str, Any]] = []

        def count(
            _conn: Any, _cursor: Any, statement: str, parameters: Any, _context: Any, _many: bool
        ) -> None:
            seen.append((statement, parameters))

        event.listen(store.engine, "before_cursor_execute", count)
        most = (0, 0)
        now = 3.0
        for _hand in range(3):
            stacks = {p: d.entrants[p].chips for p in d.tables[1].players.values()}
            d.hand_started(1, stacks, now)
            first, second = sorted(stacks)[:2]
            stacks[first], stacks[second] = stacks[first] + 100, stacks[second] - 100
            decided = d.hand_finished(1, stacks, now + 1)
            seen.clear()
            with store.begin() as c:
                cashier.persist(c, running, decided, now + 1)
            size = sum(len(str(statement)) + len(str(parameters)) for statement, parameters in seen)
            most = max(most, (len(seen), size))
            now += 2
        event.remove(store.engine, "before_cursor_execute", count)
        return most
    finally:
        store.close()


def test_a_hands_write_does_not_grow_with_the_field(tmp_path: Path) -> None:
    """The same statements and about the same characters for 50 entrants and for 500: the
    head of the director and the few entrants and the table the hand changed (the whole
    field was about ten times as much at 500)."""
    small_statements, small_size = _written_per_hand(tmp_path, 50)
    large_statements, large_size = _written_per_hand(tmp_path, 500)
    assert large_statements <= small_statements
    assert large_size < small_size * 1.3, (small_size, large_size)
