"""The serving process's websocket transport: one write for what one step of the loop sends."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from sevenstud.server.serving import CoalescingTransport


class _Recorder(asyncio.Transport):
    """A transport that records its writes and whether it was closed."""

    def __init__(self) -> None:
        super().__init__()
        self.writes: list[bytes] = []
        self.closed = False
        self.aborted = False

    def write(self, data: Any) -> None:
        self.writes.append(bytes(data))

    def is_closing(self) -> bool:
        return self.closed or self.aborted

    def close(self) -> None:
        self.closed = True

    def abort(self) -> None:
        self.aborted = True

    def get_write_buffer_size(self) -> int:
        return 0

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 5)}.get(name, default)


def test_the_frames_of_one_step_go_out_as_one_write_in_order() -> None:
    """Rule: what one step of the loop writes reaches the socket as one write, byte for byte
    in the order written (the syscall per websocket message was the loop's largest cost)."""

    async def main() -> list[bytes]:
        inner = _Recorder()
        transport = CoalescingTransport(inner, asyncio.get_running_loop())
        for n in range(5):
            transport.write(b"frame%d;" % n)
        assert inner.writes == []  # nothing yet: the step is not over
        await asyncio.sleep(0)
        transport.write(b"next step")
        await asyncio.sleep(0)
        return inner.writes

    assert asyncio.run(main()) == [b"frame0;frame1;frame2;frame3;frame4;", b"next step"]


def test_a_close_writes_what_waits_first_and_an_abort_drops_it() -> None:
    """Rule: a close frame written just before the close is not lost."""

    async def main() -> tuple[_Recorder, _Recorder]:
        loop = asyncio.get_running_loop()
        closing, aborting = _Recorder(), _Recorder()
        first, second = CoalescingTransport(closing, loop), CoalescingTransport(aborting, loop)
        first.write(b"last words")
        first.close()
        second.write(b"never sent")
        second.abort()
        await asyncio.sleep(0)
        return closing, aborting

    closing, aborting = asyncio.run(main())
    assert closing.writes == [b"last words"] and closing.closed
    assert aborting.writes == [] and aborting.aborted


def test_a_large_write_goes_out_at_once() -> None:
    """Rule: no more than ``LIMIT`` bytes wait (a big snapshot is written at once)."""

    async def main() -> list[bytes]:
        inner = _Recorder()
        transport = CoalescingTransport(inner, asyncio.get_running_loop())
        transport.write(b"a")
        transport.write(b"b" * CoalescingTransport.LIMIT)
        written = list(inner.writes)
        await asyncio.sleep(0)
        assert inner.writes == written  # and nothing written twice
        return written

    assert asyncio.run(main()) == [b"a" + b"b" * CoalescingTransport.LIMIT]


def test_everything_else_is_the_wrapped_transports() -> None:
    """The wrapper passes what it does not change through (uvicorn reads the peer's address)."""

    async def main() -> Any:
        transport = CoalescingTransport(_Recorder(), asyncio.get_running_loop())
        return transport.get_extra_info("peername")

    assert asyncio.run(main()) == ("127.0.0.1", 5)


def test_a_real_card_room_sends_every_message_through_it(tmp_path: Any) -> None:
    """Through `sevenstud serve` (which runs the coalescing protocol) a client reads each
    message whole and in order: the welcome, then the snapshot, then the stream."""
    pytest.importorskip("websockets")
    import httpx
    import websockets.sync.client

    from tests.spawn import running

    with running(f"sqlite:///{tmp_path / 'c.sqlite3'}", pause=0.05) as served:
        with httpx.Client(base_url=served.base) as http:
            http.post("/api/guest").raise_for_status()
            body = {"game": "stud8", "seats": 4, "bots": 3, "stakes": [1, 2, 5, 10]}
            table = http.post("/api/tables", json=body).json()["id"]
            cookie = "; ".join(f"{k}={v}" for k, v in http.cookies.items())
        with websockets.sync.client.connect(
            f"ws://{served.address}/ws", additional_headers={"Cookie": cookie}
        ) as ws:
            ws.send(json.dumps({"type": "hello", "version": 1, "table": table, "last": 0}))
            kinds = [json.loads(ws.recv(timeout=10))["type"] for _ in range(12)]
    assert kinds[:2] == ["welcome", "snapshot"]
    assert "event" in kinds[2:]
