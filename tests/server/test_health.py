"""Health checks and metrics (issue 33, point 5): ``/healthz`` and ``/readyz`` for a load
balancer, Prometheus text at ``/metrics`` to the addresses given, ``--log-format json``."""

from __future__ import annotations

import asyncio
import json
import logging
import logging.config
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from prometheus_client.parser import text_string_to_metric_families

from sevenstud.server.accounts.sessions import COOKIE
from sevenstud.server.app import create_app
from sevenstud.server.limits import Limits
from sevenstud.server.logs import JsonLines, log_config
from sevenstud.server.protocol import PROTOCOL_VERSION
from sevenstud.server.store import Store
from tests.spawn import in_thread


def _samples(text: str) -> dict[str, float]:
    """Every sample of a Prometheus text page: ``name{label="v"}`` -> value."""
    found = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            labels = ",".join(f'{k}="{v}"' for k, v in sorted(sample.labels.items()))
            found[f"{sample.name}{{{labels}}}" if labels else sample.name] = sample.value
    return found


async def _play_a_hand(address: str, token: str, table: int) -> None:
    """Sit at ``table`` and play (a fold where it may) until a hand has been played to its end,
    as the metrics count it."""
    headers = {"Cookie": f"{COOKIE}={token}"}
    async with websockets.connect(f"ws://{address}/ws", additional_headers=headers) as ws:
        hello = {"type": "hello", "version": PROTOCOL_VERSION, "table": table, "last": 0}
        await ws.send(json.dumps(hello))
        await ws.send(json.dumps({"type": "sit", "seat": 1, "buy_in": 100}))
        for _ in range(2000):
            message = json.loads(await asyncio.wait_for(ws.recv(), 20))
            if message.get("type") == "your_turn":
                actions = [button["action"] for button in message["actions"]]
                action = "fold" if "fold" in actions else actions[-1]
                turn = {"type": "act", "hand": message["hand"], "street": message["street"], "action": action}
                await ws.send(json.dumps(turn))
            page = httpx.get(f"http://{address}/metrics").text
            if _samples(page).get("sevenstud_hands_played_total"):
                return
    raise AssertionError("no hand was played to its end")


def test_health_readiness_and_metrics_as_a_balancer_and_prometheus_see_them(store: Store) -> None:
    limits = Limits().changed("guests_per_address=2")
    app = create_app(store, pause=0.05, limits=limits, metrics_from=("127.0.0.1/32",))
    room = app.state.cardroom
    with in_thread(app, limits) as address:
        base = f"http://{address}"
        assert httpx.get(f"{base}/healthz").json() == {"status": "ok"}
        assert httpx.get(f"{base}/readyz").json() == {"status": "ready"}
        guest = httpx.post(f"{base}/api/guest")
        token = guest.cookies[COOKIE]
        table = httpx.post(
            f"{base}/api/tables", json={"game": "stud8", "seats": 3, "bots": 1}, cookies={COOKIE: token}
        ).json()["id"]
        asyncio.run(_play_a_hand(address, token, table))
        for _ in range(2):  # the third guest from this address is refused by its limit
            httpx.post(f"{base}/api/guest")
        page = httpx.get(f"{base}/metrics")
        assert page.status_code == 200 and page.headers["content-type"].startswith("text/plain")
        seen = _samples(page.text)
        assert seen["sevenstud_tables"] == 1
        assert seen['sevenstud_seats_taken{by="person"}'] == 1
        assert seen['sevenstud_seats_taken{by="bot"}'] == 1
        assert seen["sevenstud_hands_played_total"] >= 1
        assert seen["sevenstud_action_round_trip_seconds_count"] >= 1
        assert seen["sevenstud_database_commit_seconds_count"] > 0
        assert seen['sevenstud_rate_limit_refusals_total{limit="guests_per_address"}'] >= 1
        # Not ready: the leases not renewed within a lease's time, then the database gone.
        room.leases.renewed_at = 0.0
        stale = httpx.get(f"{base}/readyz")
        assert stale.status_code == 503 and "leases" in stale.json()["problems"][0]


def test_metrics_are_nobodys_business_but_the_addresses_given(store: Store) -> None:
    app = create_app(store, pause=0.05)  # no --metrics-from: nobody
    with in_thread(app) as address:
        refused = httpx.get(f"http://{address}/metrics")
        assert refused.status_code == 403
        assert "--metrics-from" in refused.json()["detail"]
        assert "sevenstud_" not in refused.text


def test_readiness_names_a_database_that_does_not_answer(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = create_app(store, pause=0.05)
    with in_thread(app) as address:

        class Gone:
            def __enter__(self) -> Any:
                raise ConnectionError("the database went away")

            def __exit__(self, *_: object) -> None:
                return None

        monkeypatch.setattr(app.state.cardroom.store, "sessions", lambda: Gone())
        answer = httpx.get(f"http://{address}/readyz")
        assert answer.status_code == 503
        assert answer.json()["problems"] == ["the database does not answer: ConnectionError"]
        assert httpx.get(f"http://{address}/healthz").status_code == 200


def test_json_log_lines_are_one_object_a_line_with_the_traceback(capsys: pytest.CaptureFixture[str]) -> None:
    logging.config.dictConfig(log_config("json"))
    try:
        try:
            raise ValueError("boom")
        except ValueError:
            logging.getLogger("sevenstud").exception("a table stopped: %s", "table 3")
        lines = capsys.readouterr().err.strip().splitlines()
        assert len(lines) == 1
        line = json.loads(lines[0])
        assert line["level"] == "error" and line["logger"] == "sevenstud"
        assert line["message"] == "a table stopped: table 3"
        assert "ValueError: boom" in line["exception"]
        assert isinstance(logging.getLogger("uvicorn.error").handlers[0].formatter, JsonLines)
    finally:
        logging.config.dictConfig(log_config("text"))


def test_a_bad_metrics_address_is_a_one_line_usage_error(tmp_path: Path) -> None:
    database = str(tmp_path / "x.sqlite3")
    run = subprocess.run(
        [sys.executable, "-m", "sevenstud", "serve", "--database", database, "--metrics-from", "ten"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 2
    assert "'ten' is not an address or a network" in run.stderr and "Traceback" not in run.stderr
    assert not (tmp_path / "x.sqlite3").exists()
