"""The room's settings an operator changes (docs/operators.md, "The house's tables"), kept in
``room_settings`` (migration 0014); a setting never written has its default here.

- ``players_open_tables``: whether players may open cash tables of their own (``POST
  /api/tables``); when off, only the house's standing tables deal cash games (and "Play now"
  seats players at them), and operators may still open tables.
"""

from __future__ import annotations

from typing import Any

from sevenstud.server.operators import log
from sevenstud.server.store import Store
from sevenstud.server.store.models import RoomSetting

PLAYERS_OPEN_TABLES = "players_open_tables"
DEFAULTS: dict[str, Any] = {PLAYERS_OPEN_TABLES: True}
"""Every setting and its value until an operator changes it."""


def read(store: Store) -> dict[str, Any]:
    """Every setting's value now."""
    with store.session() as s:
        stored = {row.name: row.value for row in s.query(RoomSetting)}
    return {name: stored.get(name, default) for name, default in DEFAULTS.items()}


def players_open_tables(store: Store) -> bool:
    """Whether players may open tables of their own."""
    with store.session() as s:
        row = s.get(RoomSetting, PLAYERS_OPEN_TABLES)
    return bool(DEFAULTS[PLAYERS_OPEN_TABLES] if row is None else row.value)


def change(store: Store, operator: str, changes: dict[str, Any]) -> dict[str, Any]:
    """Set the settings named in ``changes`` (each a key of :data:`DEFAULTS`, checked by the
    route's model), a line of the event log for each that changed; every setting after."""
    with store.transaction() as s:
        for name, value in changes.items():
            row = s.get(RoomSetting, name)
            was = DEFAULTS[name] if row is None else row.value
            if was == value:
                continue
            if row is None:
                s.add(RoomSetting(name=name, value=value))
            else:
                row.value = value
            log.write(s, operator, "room_setting", name, "", value=value, was=was)
    return read(store)
