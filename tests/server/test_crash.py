"""Nothing lost (issue 10, point 6): a real ``sevenstud serve`` process with bots and a person
playing is killed with SIGKILL at random moments, some of them inside a database write (the
tests/serve.py's slow commits sleep just before each COMMIT), and started again,
many times on each database. Each time: every hand the person saw finish is stored finished,
the audit is clean, and after the restart the hand that was in progress is cancelled with every
chip put into it back in the seat it came from."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
import websockets.exceptions
from sqlalchemy import select

from sevenstud.server.accounts.sessions import COOKIE
from sevenstud.server.audit import audit
from sevenstud.server.store import ledger, open_store
from sevenstud.server.store.models import HandRow
from tests.spawn import free_port, spawn

RUNS = int(os.environ.get("SEVENSTUD_KILL_RUNS", "6"))
"""Kills per database (12 over both)."""


def _start(db_url: str, port: int, slow: dict[str, Any]) -> subprocess.Popen[str]:
    return spawn(db_url, port=port, pause=0.01, **slow).process


async def _play(address: str, token: str, table: int, seat: int, seconds: float, sit: bool) -> set[int]:
    """Play the person's turns (check, call, or fold) for ``seconds``; the hands seen ending."""
    ended: set[int] = set()
    headers = {"Cookie": f"{COOKIE}={token}"}
    with contextlib.suppress(OSError, websockets.exceptions.ConnectionClosed):
        async with websockets.connect(f"ws://{address}/ws", additional_headers=headers) as ws:
            await ws.send(json.dumps({"type": "hello", "version": 1, "table": table, "last": 0}))
            if sit:
                await ws.send(json.dumps({"type": "sit", "seat": seat, "buy_in": 200}))
            loop = asyncio.get_running_loop()
            end = loop.time() + seconds
            fallbacks: list[str] = []
            while loop.time() < end:
                try:
                    message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), end - loop.time()))
                except TimeoutError:
                    break
                if message["type"] == "event" and message["event"]["type"] == "hand_ended":
                    ended.add(message["hand"])
                elif message["type"] == "clock" and message["seat"] == seat:
                    tries = [
                        json.dumps(
                            {"type": "act", "hand": message["hand"], "street": message["street"], "action": a}
                        )
                        for a in ("check", "call", "bring-in", "fold")
                    ]
                    await ws.send(tries[0])
                    fallbacks = tries[1:]
                elif message["type"] == "error" and fallbacks:
                    await ws.send(fallbacks.pop(0))
    return ended


def _playing(db_url: str) -> dict[int, dict[int, int]]:
    """The hands in progress in the database and, for each, the chips each account put into its pot."""
    store = open_store(db_url)
    try:
        with store.session() as s:
            rows = s.scalars(select(HandRow).where(HandRow.status == "playing")).all()
            return {
                row.id: ledger.net_by_counterpart(s, ledger.account(s, ledger.POT, row.id)) for row in rows
            }
    finally:
        store.close()


def _wait_for_hand(db_url: str, seconds: float) -> None:
    """Until the database holds a hand in progress, or ``seconds`` pass: on a busy machine the
    random moment can otherwise fall, run after run, in the pause between two hands."""
    deadline = time.monotonic() + seconds
    store = open_store(db_url)
    try:
        while time.monotonic() < deadline:
            with store.session() as s:
                if s.scalars(select(HandRow.id).where(HandRow.status == "playing")).first() is not None:
                    return
            time.sleep(0.01)
    finally:
        store.close()


def _wait_for_write(mark: Path, seconds: float) -> None:
    """Until the server's commit mark says ``writing`` (each slowed commit sleeps 20 ms with it
    set), or ``seconds`` pass: a kill then lands inside a write however busy the machine is."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError):
            if mark.read_text() == "writing":
                return
        time.sleep(0.001)


@pytest.mark.slow
def test_kill_9_at_random_moments_loses_nothing(db_url: str, tmp_path: Path) -> None:
    rng = random.Random(20240611)
    port = free_port()
    address = f"127.0.0.1:{port}"
    mark = tmp_path / "commit-mark"
    in_write = cancelled_checked = 0
    token, table, seat = "", 0, 4
    seen_finished: set[int] = set()
    for run in range(RUNS + 1):
        slow = run % 2 == 1
        commits = {"commit_delay": 0.02, "commit_mark": str(mark)} if slow else {}
        before = _playing(db_url)
        process = _start(db_url, port, commits)
        try:
            if run == 0:
                host = httpx.post(f"http://{address}/api/guest")
                token = str(host.cookies[COOKIE])
                created = httpx.post(
                    f"http://{address}/api/tables",
                    json={"game": "stud8", "seats": 4, "bots": 2},
                    cookies={COOKIE: token},
                )
                table = int(created.json()["id"])
            store = open_store(db_url)
            try:
                with store.session() as s:
                    # The restart cancelled every hand that was in progress and refunded it.
                    for hand_id, put_in in before.items():
                        row = s.get(HandRow, hand_id)
                        assert row is not None and row.status == "cancelled", hand_id
                        pot = ledger.account(s, ledger.POT, hand_id)
                        assert ledger.balance_of(s, pot) == 0
                        assert not ledger.net_by_counterpart(s, pot), f"hand {hand_id} was not refunded"
                        assert any(v > 0 for v in put_in.values()), "the hand had chips in it"
                        cancelled_checked += 1
            finally:
                store.close()
            if run == RUNS:
                break
            mark.write_text("idle")
            seconds = rng.uniform(0.4, 2.0)
            seen_finished |= asyncio.run(_play(address, token, table, seat, seconds, sit=run == 0))
        finally:
            _wait_for_hand(db_url, seconds=10.0)
            if slow:  # aim inside a commit: wait (a few seconds at most) for one to be under way
                _wait_for_write(mark, seconds=5.0)
            with contextlib.suppress(ProcessLookupError):
                process.send_signal(signal.SIGKILL)
            process.wait(30)
        if slow and mark.read_text() == "writing":
            in_write += 1
        store = open_store(db_url)
        try:
            report = audit(store)
            assert report.ok, f"run {run}: {report}"
            with store.session() as s:
                numbers = {
                    r.number: r.status
                    for r in s.scalars(select(HandRow).where(HandRow.table_id == table)).all()
                }
        finally:
            store.close()
        # Every hand the person saw end is stored, finished (the numbers go on over restarts).
        lost = [n for n in seen_finished if numbers.get(n) != "finished"]
        assert not lost, f"hands seen finished but not stored finished: {lost}"
    assert seen_finished, "the person played hands to the end"
    assert cancelled_checked >= RUNS // 2, "kills landed during hands"
    assert in_write >= 1, "at least one kill landed inside a database write"
