"""The house's side in tests: an operator made in the room's database and signed in, and the
house's tournaments made through the operator API (a player may no longer make a public one)."""

from __future__ import annotations

import itertools
from typing import Any

import httpx

from sevenstud.server.operators import accounts, log
from sevenstud.server.store import Store, open_store
from tests.spawn import DATABASES

PASSWORD = "the house always wins"
_names = itertools.count(1)


def operator(store: Store | str | None, base: str, name: str | None = None) -> httpx.Client:
    """A client signed in as a new operator of the room at ``base`` whose database is ``store``
    (an open store, or its URL; None: the one ``tests.spawn.running`` serves at ``base``)."""
    name = name or f"house{next(_names)}"
    if store is None:
        store = DATABASES[base]
    opened = open_store(store) if isinstance(store, str) else store
    try:
        accounts.create(opened, log.COMMAND_LINE, name, PASSWORD)
    finally:
        if isinstance(store, str):
            opened.close()
    client = httpx.Client(base_url=base, timeout=30)
    client.post("/api/login", json={"name": name, "password": PASSWORD}).raise_for_status()
    return client


def house_tournament(client: httpx.Client, body: dict[str, Any]) -> dict[str, Any]:
    """A public tournament of ``body`` made by the house (``client`` an operator's)."""
    made = client.post("/api/admin/tournaments", json=body)
    assert made.status_code == 200, made.text
    return dict(made.json())
