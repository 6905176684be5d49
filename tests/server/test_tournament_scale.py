"""A hand's write is the size of the hand, not of the field (issue 35): the director's write
after a hand at one table of a 500-entrant tournament is no larger than at one of a 50-entrant
one. The whole director was written after every hand, most of a 1,000-entrant tournament's
time (docs/benchmarks.md, "Tournaments through the card room")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import event

from sevenstud.server.store import open_store
from tests.server import benches


def _bench() -> Any:
    """benchmarks/tournament_write.py."""
    return benches.bench("tournament_write")


def _written_per_hand(tmp_path: Path, field: int) -> tuple[int, int]:
    """The statements and the characters of parameters the cashier writes after each of
    three hands at table 1 of a started ``field``-entrant tournament (the most of the three)."""
    bench = _bench()
    store = open_store(f"sqlite:///{tmp_path / f'room{field}.sqlite3'}")
    try:
        tournament = bench.started(store, field, seed=field)
        seen: list[tuple[str, Any]] = []

        def count(
            _conn: Any, _cursor: Any, statement: str, parameters: Any, _context: Any, _many: bool
        ) -> None:
            seen.append((statement, parameters))

        event.listen(store.engine, "before_cursor_execute", count)
        most = (0, 0)
        now = 3.0
        for _hand in range(3):
            seen.clear()
            bench.a_hand(store, tournament, 1, now)
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


def _tables_to_follow_per_hand(tmp_path: Path, field: int) -> tuple[int, bool]:
    """The most tables the next sync is to look at after each of three hands at table 1 of a
    started ``field``-entrant tournament, and whether any asked for every table."""
    bench = _bench()
    store = open_store(f"sqlite:///{tmp_path / f'follow{field}.sqlite3'}")
    try:
        tournament = bench.started(store, field, seed=field)
        running = tournament[1]
        most, every = 0, False
        now = 3.0
        for _hand in range(3):
            running.to_sync, running.sync_all = set(), False
            bench.a_hand(store, tournament, 1, now)
            most, every = max(most, len(running.to_sync)), every or running.sync_all
            now += 2
        return most, every
    finally:
        store.close()


def test_a_hand_leaves_its_own_tables_to_follow_not_the_field(tmp_path: Path) -> None:
    """The tables the sync makes follow the director after a hand are those the hand's write
    changed (its own, and the tables of players it moved), as many at 500 entrants as at 50:
    each sync looked at every table, and read every entrant's chips (issue 35)."""
    small = _tables_to_follow_per_hand(tmp_path, 50)
    large = _tables_to_follow_per_hand(tmp_path, 500)
    assert small == large == (1, False), (small, large)
