"""Home games: private cash tables (and private sit-and-gos) that only the invited come to.

A host opens a private table (``POST /api/tables`` with ``private: true``) and gets its invite
link, ``/invite/<token>``: the token is 24 random bytes (:func:`secrets.token_urlsafe`), and
only its SHA-256 is stored (:class:`~sevenstud.server.store.models.PrivateGame`), so the host
sees a link once, when it is made; a new link replaces the old one, which then lets nobody
else in. Whoever opens the link while signed in (a guest too) gets a pass
(:class:`~sevenstud.server.store.models.PrivatePass`): ``in`` at once, or ``asking`` when the
host asks each newcomer first, until the host approves (``in``) or denies (``denied``).

Without a pass a private table does not exist to a player: it is not in the lobby, and every
way to it (the websocket's hello, the routes) answers as for a table that does not exist (a
hello ``no table N``, a route 404 "no such table, or no invitation to it"). The host pauses and
resumes the table (:attr:`Room.held <sevenstud.server.tables.room.Room.held>`: the hand in
progress finishes, no new one is dealt), removes a player between hands (stood up by the
keeper: their stack back to their balance by the ledger, as every stand-up; they are told
why), and downloads the night's ledger (:func:`ledger_csv`). The queries are
:mod:`sevenstud.server.store.private`; the routes :mod:`sevenstud.server.tables.private_routes`.
"""

from __future__ import annotations

import csv
import io
from typing import Any

from sevenstud.server.store import Store
from sevenstud.server.store.private import table_admits

LEDGER_COLUMNS = ("player", "buy_ins", "top_ups", "cash_outs", "at_table", "net")
"""The night's ledger's columns (docs/private_games.md): a player's chips brought to the table
(``buy_ins``: each sit-down; ``top_ups``), taken away (``cash_outs``: each stand-up), still on
the table now (``at_table``), and ``net`` = cash_outs + at_table - buy_ins - top_ups."""


def ledger_csv(lines: list[dict[str, Any]]) -> str:
    """The night's ledger as CSV (a header line of :data:`LEDGER_COLUMNS`, then a line a
    player). A name that a spreadsheet would take for a formula is written with a leading ``'``."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(LEDGER_COLUMNS)
    for line in lines:
        name = str(line["player"])
        if name[:1] in ("=", "+", "-", "@"):
            name = "'" + name
        writer.writerow([name, *(line[c] for c in LEDGER_COLUMNS[1:])])
    return out.getvalue()


class Door:
    """The websocket's question before every hello: may this player see this table? Tables
    known to be public (a cash table served here, found without a private game: a table is
    private from the transaction that makes it, so that never changes) are not asked again."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.public: set[int] = set()

    async def admits(self, table_id: int, player_id: int | None, cash_here: bool) -> bool:
        """Whether a hello for ``table_id`` from ``player_id`` (None: signed out) may go on;
        ``cash_here``: the table is a cash table this process serves (its answer is kept)."""
        if table_id in self.public:
            return True
        private, admitted = await self.store.run(table_admits, self.store, table_id, player_id)
        if not private and cash_here:
            self.public.add(table_id)
        return admitted
