"""The statements every action writes, run on the database driver's own cursor.

A table's keeper writes each action in one transaction: the check that its process still holds
the table's lease, its stream entries, the transfers the action made and their ledger entries,
the stacks that changed and the hand's record. Through SQLAlchemy Core each statement cost
about 30 µs of Python on top of the driver's own few (the compiled cache's look-up, an
execution context, a result object): with the transaction's begin and commit they were a fifth
of the card room's CPU under benchmarks/load.py at 2,000 clients (py-spy). They are written here
once as SQL for the connection's dialect and run on the DBAPI cursor of the transaction's
connection, inside the same transaction; everything else still goes through SQLAlchemy.

What SQLAlchemy does for these columns is done here the same way: JSON columns get
``json.dumps`` of the value (what its JSON type binds), and the engine's
``before_cursor_execute`` listeners are told of each statement (they count statements in the
tests).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection

__all__ = ["DirectWrites", "direct"]


class DirectWrites:
    """The write path's statements, as SQL for one dialect (``paramstyle``: the
    driver's, ``qmark`` for sqlite3, ``format`` or ``pyformat`` for psycopg)."""

    __slots__ = ("_entries", "_events", "_lease", "_mark", "_record", "_stacks", "_transfers")

    def __init__(self, paramstyle: str) -> None:
        mark = self._mark = "?" if paramstyle == "qmark" else "%s"
        self._record = f"UPDATE hands SET record={mark} WHERE hands.id = {mark}"
        self._stacks = f"UPDATE sittings SET stack={mark} WHERE sittings.id = {mark}"
        # (a no-op update: it takes the lease's row lock, which a process taking the lease
        # over needs too, so that the two never interleave)
        self._lease = (
            f"UPDATE table_leases SET instance = instance WHERE table_id = {mark} AND instance = {mark}"
        )
        # Multi-row INSERTs by the number of rows (a command writes a handful): built once each.
        self._events: dict[int, str] = {}
        self._transfers: dict[int, str] = {}
        self._entries: dict[int, str] = {}

    def _values(self, built: dict[int, str], head: str, width: int, rows: int, tail: str = "") -> str:
        sql = built.get(rows)
        if sql is None:
            row = "(" + ", ".join([self._mark] * width) + ")"
            sql = built[rows] = f"{head} VALUES {', '.join([row] * rows)}{tail}"
        return sql

    def insert_events(self, c: Connection, events: Sequence[dict[str, Any]]) -> dict[int, int]:
        """Insert the ``events`` rows (``table_id, number, hand_id, type, payload, at``);
        returns each one's id by its number."""
        sql = self._values(
            self._events,
            "INSERT INTO events (table_id, number, hand_id, type, payload, at)",
            6,
            len(events),
            " RETURNING events.number, events.id",
        )
        params: list[Any] = []
        for e in events:
            params += (e["table_id"], e["number"], e["hand_id"], e["type"], json.dumps(e["payload"]), e["at"])
        return {int(number): int(id_) for number, id_ in _run(c, sql, params, fetch=True)}

    def insert_transfers(
        self, c: Connection, rows: Sequence[tuple[str, int | None, int | None, float]]
    ) -> list[int]:
        """Insert transfers (``reason, event_id, hand_id, at`` each); returns their ids in the
        order of ``rows``. The ids come from one statement: each database hands out a table's
        new ids in increasing order as the rows of one INSERT go in one after the other (SQLite
        the next rowid, PostgreSQL its sequence), so the ids sorted are the rows' ids in order
        whatever order RETURNING gives them back in."""
        sql = self._values(
            self._transfers,
            "INSERT INTO transfers (reason, event_id, hand_id, at)",
            4,
            len(rows),
            " RETURNING transfers.id",
        )
        params: list[Any] = []
        for row in rows:
            params += row
        return sorted(int(id_) for (id_,) in _run(c, sql, params, fetch=True))

    def insert_entries(self, c: Connection, rows: Sequence[tuple[int, int, int]]) -> None:
        """Insert ledger entries (``transfer_id, account_id, amount`` each)."""
        sql = self._values(
            self._entries, "INSERT INTO entries (transfer_id, account_id, amount)", 3, len(rows)
        )
        params: list[Any] = []
        for row in rows:
            params += row
        _run(c, sql, params)

    def update_record(self, c: Connection, hand_row: int, record: str) -> None:
        """Write the hand's record as it stands (``record``: its JSON text)."""
        _run(c, self._record, (record, hand_row))

    def update_stacks(self, c: Connection, stacks: Sequence[tuple[int, int]]) -> None:
        """Write each ``(stack, sitting)``'s stack."""
        _run(c, self._stacks, stacks, many=True)

    def holds_lease(self, c: Connection, table_id: int, instance: str) -> bool:
        """Whether process ``instance`` holds table ``table_id``'s lease, checked first in a
        write's transaction and held (its row locked) to the commit: a process that lost the
        lease (another took it over, a renewal too late) writes the table no more, and one
        taking it over waits for the write in progress and then recovers what it wrote."""
        return _run(c, self._lease, (table_id, instance), count=True) == [1]


_BY_STYLE: dict[str, DirectWrites] = {}


def direct(c: Connection) -> DirectWrites:
    """The statements for ``c``'s database (built once for each driver's parameter style)."""
    style = c.dialect.paramstyle
    found = _BY_STYLE.get(style)
    if found is None:
        found = _BY_STYLE[style] = DirectWrites(style)
    return found


def _run(
    c: Connection, sql: str, params: Any, *, many: bool = False, fetch: bool = False, count: bool = False
) -> list[Any]:
    """``sql`` on a cursor of ``c``'s own driver connection, in its transaction (its rows with
    ``fetch``, ``[rowcount]`` with ``count``); the engine's ``before_cursor_execute`` listeners
    hear of it as of any statement."""
    cursor = c.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
    try:
        if c._has_events or c.engine._has_events:
            for listener in c.dispatch.before_cursor_execute:
                listener(c, cursor, sql, params, None, many)
        if many:
            cursor.executemany(sql, params)
            return []
        cursor.execute(sql, params)
        if count:
            return [cursor.rowcount]
        return list(cursor.fetchall()) if fetch else []
    finally:
        cursor.close()
