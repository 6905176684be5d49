"""A spectator for the tests: a table of bots alone deals only while somebody watches it
(docs/security.md), so a test that wants hands played at one keeps a spectator there."""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import Iterator

from websockets.sync.client import connect

from sevenstud.server.protocol import PROTOCOL_VERSION


@contextlib.contextmanager
def watching(address: str, table: int) -> Iterator[None]:
    """A spectator at ``table`` of the card room at ``address`` for the ``with`` block (in a
    thread of its own, reading everything it is sent)."""
    stop = threading.Event()
    ready = threading.Event()

    def watch() -> None:
        with connect(f"ws://{address}/ws") as ws:
            ws.send(json.dumps({"type": "hello", "version": PROTOCOL_VERSION, "table": table}))
            ws.recv(timeout=10)  # the welcome: the table knows it is watched
            ready.set()
            while not stop.is_set():
                with contextlib.suppress(TimeoutError):
                    ws.recv(timeout=0.1)

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    ready.wait(10)
    try:
        yield
    finally:
        stop.set()
        thread.join(10)
