"""The card room against hostile clients while honest ones play (issue 18, point 13).

    python benchmarks/hostile_soak.py                       # 200 tables, 60 s, the full attack
    python benchmarks/hostile_soak.py --tables 10 --seconds 20 --non-readers 5 --garbage 4

A real `sevenstud serve` (its own SQLite file, or ``--database postgresql://...``) with the card
room's limits as they ship, except the tables an account or an address may open (the set-up
opens every honest table from one guest). Honest people play at ``--tables`` tables of five (one
guest and one websocket each, twenty to a loopback address, so that each address is within the
limits as a household would be), acting on their turn after 0.2 to 1 s. At the same time:

- ``--non-readers`` spectators send ``hello`` and never read again (a raw socket with a 4 KiB
  receive buffer): the server's sends to them must never hold a table up;
- ``--garbage`` clients, each a guest of its own address, send malformed JSON, binary frames,
  oversized frames, unknown types, wrong types, lone surrogates, out-of-turn and stale actions
  as fast as the server lets them (reconnecting when it closes them);
- one address makes guests as fast as it can, another tries wrong passwords for a real
  account, and another asks for equity jobs too large to run and for the largest it may;
- ``--header-flooders`` addresses each send request after request with a 50 MiB header (one
  at a time each: eight at once by default), one address opens 200 connections at a time and
  holds them half-sent, and one posts JSON bodies with lone surrogates to every route;
- ``--history-askers`` clients of a guest with hands of their own ask for their hand list,
  history and statistics as fast as they are answered, in a room of ``--stored-hands`` hands
  made by SQL before the server starts (benchmarks/own_hands.py: a million by default takes a
  few minutes to make; 0 makes none and the askers are not run);
- one address makes tournaments as fast as it can, from guest after guest (one guest once made
  10,100 in 3.5 minutes, and the idle server then used half a core);
- ``--churners`` guests register and unregister in a loop as fast as they can in a tournament
  that ``--field`` guests have entered (from a field of 1,500, two such loops took others'
  median request from 1-2 ms to 46-55 ms).

At the end it prints the honest clients' round trips (p50, p99), how many tables stalled (no
action for 10 s while people sat there), how many down cards leaked (a face-down card of
another seat in a message to a seated client), what the attackers were answered, the server's
memory at the start and the end, and the audit's verdict. The exit status is 1 when a table
stalled, a card leaked, an honest client saw an error or the audit found a problem.
tests/server/test_hostile_soak.py runs a short version.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import random
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load import COOKIE, PROTOCOL_VERSION, Result, make_guests, open_tables, play
from own_hands import ROUTES as HISTORY_ROUTES
from own_hands import fill_room, play_own_hands

from sevenstud.server.operators import accounts, log
from sevenstud.server.store import open_store
from tests.spawn import SpawnError, spawn

SOAK_LIMITS = ("--limit=tables_per_account=100000", "--limit=tables_per_address=100000")
"""The set-up opens every honest table from one guest; every other limit is the room's own."""
GUESTS_PER_ADDRESS = 20
"""Honest guests made from one loopback address: the room's default limit per address."""
STALL_SECONDS = 10.0
MEMORY_EVERY = 10.0
"""Seconds between readings of the server's memory while people play."""


@dataclass
class Report:
    """What the soak saw."""

    honest: Result = field(default_factory=Result)
    last_activity: dict[int, float] = field(default_factory=dict)
    longest_quiet: dict[int, float] = field(default_factory=dict)
    quiet_when: dict[int, str] = field(default_factory=dict)
    """When each table's longest quiet began, and the messages either side of it."""
    started: float = 0.0
    """When the honest clients began to play (time.monotonic)."""
    """Each table's longest time without a message to its players while people played."""
    leaks: list[str] = field(default_factory=list)
    stalled: list[int] = field(default_factory=list)
    answers: Counter[str] = field(default_factory=Counter)
    history_ms: list[float] = field(default_factory=list)
    """Each answer to a history asker, in milliseconds."""
    memory_start_mib: float = 0.0
    memory_end_mib: float = 0.0
    memory_samples: list[float] = field(default_factory=list)
    """The server's resident memory every :data:`MEMORY_EVERY` seconds of the run, in MiB: a
    leak climbs to the end, a table's kept entries filling up level off."""
    audit: str = ""
    audit_seconds: float = 0.0
    """How long ``sevenstud audit`` took on the soaked room (every stored hand replayed)."""
    tables: list[int] = field(default_factory=list)

    def clean(self) -> bool:
        """No stall, no leak, no honest error, a clean audit."""
        return (
            not self.stalled and not self.leaks and not self.honest.errors and self.audit.endswith(": clean")
        )


def _rss_mib(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _frame(payload: bytes, opcode: int = 1) -> bytes:
    """One masked client frame (RFC 6455)."""
    mask = os.urandom(4)
    head = bytes([0x80 | opcode])
    n = len(payload)
    if n < 126:
        head += bytes([0x80 | n])
    elif n < 65536:
        head += bytes([0x80 | 126]) + struct.pack(">H", n)
    else:
        head += bytes([0x80 | 127]) + struct.pack(">Q", n)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


async def _non_reader(port: int, table: int, address: str, deadline: float, report: Report) -> None:
    """A spectator that never reads: a 4 KiB receive buffer, and a ``hello`` (with views) a
    twentieth of a second, each answered with a snapshot it never takes."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.bind((address, 0))
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
    _, writer = await asyncio.open_connection(sock=sock)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write(
        (
            f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    hello = {"type": "hello", "version": PROTOCOL_VERSION, "table": table, "last": 0, "views": True}
    try:
        while time.monotonic() < deadline:
            writer.write(_frame(json.dumps(hello).encode()))
            report.answers["non-reader hellos sent"] += 1
            await asyncio.wait_for(writer.drain(), timeout=5)
            await asyncio.sleep(0.05)
    except (OSError, TimeoutError):
        report.answers["non-reader cut off or stuck"] += 1
    finally:
        writer.transport.abort()


def _garbage(table: int, rng: random.Random) -> str | bytes:
    """One message no honest client sends."""
    choices: list[str | bytes] = [
        "{not json",
        b"\x00\x01binary",
        "x" * (100 * 1024),
        json.dumps({"type": "deal"}),
        json.dumps({"type": "sit", "seat": True, "buy_in": "100"}),
        json.dumps({"type": "sit", "seat": 9, "buy_in": 10**30}),
        '{"type": "act", "hand": 1, "street": 3, "action": "\\ud800"}',
        json.dumps({"type": "act", "hand": rng.randint(1, 10**6), "street": 3, "action": "raise to 10"}),
        json.dumps({"type": "act", "hand": 1, "street": 7, "action": {"kind": "bet", "amount": 5.0}}),
        json.dumps({"type": "hello", "version": 99, "table": table, "last": -1}),
        json.dumps({"type": "hello", "version": PROTOCOL_VERSION, "table": 2**63, "last": 0}),
        json.dumps({"type": "leave"}),
        json.dumps([1, 2, 3]),
    ]
    return rng.choice(choices)


async def _garbage_client(
    base: str, token: str, table: int, address: str, deadline: float, report: Report
) -> None:
    rng = random.Random()
    url = "ws://" + base.split("://", 1)[1] + "/ws"
    while time.monotonic() < deadline:
        try:
            async with websockets.connect(
                url,
                additional_headers={"Cookie": f"{COOKIE}={token}"},
                max_size=2**22,
                local_addr=(address, 0),
                open_timeout=10,
            ) as ws:
                hello = {"type": "hello", "version": PROTOCOL_VERSION, "table": table, "last": 0}
                await ws.send(json.dumps(hello))

                async def drain() -> None:
                    async for message in ws:
                        kind = json.loads(message).get("type") if isinstance(message, str) else "binary"
                        report.answers[f"garbage answered {kind}"] += 1

                reader = asyncio.get_running_loop().create_task(drain())
                try:
                    while time.monotonic() < deadline:
                        await ws.send(_garbage(table, rng))
                        report.answers["garbage sent"] += 1
                        await asyncio.sleep(0.05)  # the room's 20 messages a second
                finally:
                    reader.cancel()
        except websockets.ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd is not None else "none"
            report.answers[f"garbage closed {code}"] += 1
        except (OSError, websockets.InvalidHandshake, TimeoutError) as error:
            report.answers[f"garbage refused {type(error).__name__}"] += 1
            await asyncio.sleep(0.5)


async def _flood_guests(base: str, deadline: float, report: Report) -> None:
    transport = httpx.AsyncHTTPTransport(local_address="127.0.5.1")
    async with httpx.AsyncClient(base_url=base, transport=transport, timeout=10) as http:
        while time.monotonic() < deadline:
            response = await http.post("/api/guest")
            report.answers[f"guest flood {response.status_code}"] += 1
            if response.status_code == 429:
                await asyncio.sleep(0.05)


async def _flood_logins(base: str, deadline: float, report: Report) -> None:
    name = f"victim{random.randrange(10**9)}"
    signup = httpx.AsyncHTTPTransport(local_address="127.0.5.2")
    async with httpx.AsyncClient(base_url=base, transport=signup, timeout=10) as http:
        await http.post("/api/signup", json={"name": name, "password": "correct horse battery"})
    transport = httpx.AsyncHTTPTransport(local_address="127.0.5.3")
    async with httpx.AsyncClient(base_url=base, transport=transport, timeout=30) as http:
        while time.monotonic() < deadline:
            response = await http.post("/api/login", json={"name": name, "password": "wrong"})
            report.answers[f"login flood {response.status_code}"] += 1
            if response.status_code in (429, 503):
                await asyncio.sleep(0.05)


HEADER_FLOOD_MIB = 50
"""The header each header flooder sends (issue 36: eight 50 MiB requests at once took the server
from 200 to 592 MiB, never given back)."""


async def _answer_of(reader: asyncio.StreamReader) -> str:
    """The status code a raw connection was answered, or how it ended without one."""
    try:
        line = await asyncio.wait_for(reader.readline(), 15)
    except (OSError, TimeoutError):
        return "reset"
    parts = line.split()
    return parts[1].decode() if len(parts) > 1 else "closed"


async def _header_flooder(port: int, address: str, deadline: float, report: Report) -> None:
    """A request whose one header is :data:`HEADER_FLOOD_MIB` MiB, again and again, sent a MiB
    at a time (until the server has answered and closed)."""
    chunk = b"a" * (1024 * 1024)
    while time.monotonic() < deadline:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
        except OSError:
            report.answers["header flood refused connect"] += 1
            await asyncio.sleep(0.5)
            continue
        answer = asyncio.get_running_loop().create_task(_answer_of(reader))
        try:
            writer.write(b"GET /api/lobby HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nX-Flood: " % port)
            for _ in range(HEADER_FLOOD_MIB):
                if answer.done():
                    break
                writer.write(chunk)
                await writer.drain()
            else:
                writer.write(b"\r\n\r\n")
                await writer.drain()
        except OSError:
            pass  # the server closed it: its answer says why
        report.answers[f"header flood {await answer}"] += 1
        writer.close()


async def _connection_hoarder(port: int, deadline: float, report: Report) -> None:
    """One address opening connections and holding them, half a request each, more than the
    room allows from one address: each is answered 429 past the limit (the others are closed at
    the request deadline, and opened again)."""
    address = "127.0.7.9"
    while time.monotonic() < deadline:
        held = []
        for _ in range(200):
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
            except OSError:
                report.answers["hoarder refused connect"] += 1
                continue
            writer.write(b"GET /api/lobby HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n" % port)
            held.append((reader, writer))
        answers = await asyncio.gather(*(_answer_of(reader) for reader, _ in held))
        for answer in answers:
            report.answers[f"hoarder {answer}"] += 1
        for _, writer in held:
            writer.close()


TOURNAMENT = {"template": "mtt-standard", "start_in": 7 * 86400.0}
"""The house's tournament that registers for the whole soak (it starts in a week)."""
PRIVATE_SIT_AND_GO = {"template": "sng-6", "private": True}
"""What a player may make: a home game's sit-and-go (a public tournament is the house's)."""
HOUSE = ("soak-house", "the house of the soak")
"""The operator the soak makes in the room's database, name and password: it makes the field's
tournament."""


async def _flood_tournaments(base: str, deadline: float, report: Report) -> None:
    """One address makes tournaments as fast as it may, from guest after guest."""
    transport = httpx.AsyncHTTPTransport(local_address="127.0.8.1")
    async with httpx.AsyncClient(base_url=base, transport=transport, timeout=30) as http:
        while time.monotonic() < deadline:
            http.cookies.clear()
            guest = await http.post("/api/guest")
            report.answers[f"tournament flood guest {guest.status_code}"] += 1
            for _ in range(5):  # (the account's limit, then the address's)
                response = await http.post("/api/tournaments", json=PRIVATE_SIT_AND_GO)
                report.answers[f"tournament flood {response.status_code}"] += 1
            if guest.status_code == 429:
                await asyncio.sleep(0.05)


async def _register_churn(
    base: str, tid: int, token: str, address: str, deadline: float, report: Report
) -> None:
    """One guest registers and unregisters in ``tid`` in a loop, as fast as it is answered."""
    transport = httpx.AsyncHTTPTransport(local_address=address)
    async with httpx.AsyncClient(
        base_url=base, transport=transport, timeout=30, cookies={COOKIE: token}
    ) as http:
        step = "register"
        while time.monotonic() < deadline:
            response = await http.post(f"/api/tournaments/{tid}/{step}")
            report.answers[f"register churn {step} {response.status_code}"] += 1
            if response.status_code == 200:
                step = "unregister" if step == "register" else "register"
            elif response.status_code == 429:
                await asyncio.sleep(0.05)


async def _make_field(base: str, field_size: int, report: Report) -> int:
    """A tournament that registers for the whole soak, with ``field_size`` guests entered (each
    from one of a few addresses, within the guests' limit per address): its id."""
    addresses = [f"127.0.9.{1 + i}" for i in range(max(1, -(-field_size // GUESTS_PER_ADDRESS)))]
    transport = httpx.AsyncHTTPTransport(local_address="127.0.9.250")
    async with httpx.AsyncClient(base_url=base, transport=transport, timeout=30) as http:
        name, password = HOUSE
        (await http.post("/api/login", json={"name": name, "password": password})).raise_for_status()
        made = await http.post("/api/admin/tournaments", json=TOURNAMENT)
        made.raise_for_status()
        tid = int(made.json()["id"])
    tokens = await make_guests(base, field_size, addresses)
    gate = asyncio.Semaphore(8)

    async def enter(k: int, token: str) -> None:
        async with (
            gate,
            httpx.AsyncClient(
                base_url=base,
                transport=httpx.AsyncHTTPTransport(local_address=addresses[k % len(addresses)]),
                timeout=30,
                cookies={COOKIE: token},
            ) as http,
        ):
            response = await http.post(f"/api/tournaments/{tid}/register")
            report.answers[f"field register {response.status_code}"] += 1

    await asyncio.gather(*(enter(k, token) for k, token in enumerate(tokens)))
    return tid


async def _lone_surrogates(base: str, deadline: float, report: Report) -> None:
    """JSON bodies holding a lone surrogate, to every route that reads one (each was a 500
    with a traceback, anonymously)."""
    transport = httpx.AsyncHTTPTransport(local_address="127.0.7.20")
    bodies = (
        ("/api/signup", b'{"name": "\\ud800", "password": "correct horse"}'),
        ("/api/login", b'{"name": "ann", "password": "\\udfff"}'),
        ("/api/tables", b'{"name": "\\ud800"}'),
        ("/api/tournaments", b'{"template": "sng-6", "name": "\\ud800"}'),
        ("/api/equity", b'{"hands": ["As Ks", "\\ud800"]}'),
    )
    json_type = {"Content-Type": "application/json"}
    async with httpx.AsyncClient(base_url=base, transport=transport, timeout=10) as http:
        while time.monotonic() < deadline:
            for path, body in bodies:
                response = await http.post(path, content=body, headers=json_type)
                report.answers[f"lone surrogate {response.status_code}"] += 1
            await asyncio.sleep(0.05)


EIGHT_ON_THIRD = [
    "As 2s 3s",
    "Kd Kh Qc",
    "7c 7d 2h",
    "9s 8s 7s",
    "Ad 4d 5c",
    "Jc Jd Js",
    "6h 6c Th",
    "Qs Qh 2c",
]


async def _equity_jobs(base: str, deadline: float, report: Report) -> None:
    transport = httpx.AsyncHTTPTransport(local_address="127.0.6.1")
    async with httpx.AsyncClient(base_url=base, transport=transport, timeout=30) as http:
        while time.monotonic() < deadline:
            huge = {"game": "stud8", "hands": EIGHT_ON_THIRD, "method": "exact"}
            response = await http.post("/api/equity", json=huge)
            report.answers[f"equity exact 8 players {response.status_code}"] += 1
            big = {"game": "stud8", "hands": EIGHT_ON_THIRD, "method": "monte-carlo", "trials": 2_000_000}
            response = await http.post("/api/equity", json=big)
            report.answers[f"equity largest allowed {response.status_code}"] += 1
            await asyncio.sleep(1.0)


def _leak_checker(report: Report) -> Any:
    last_said: dict[int, str] = {}

    def check(table: int, seat: int, message: dict[str, Any]) -> None:
        event = message.get("event") or {}
        now = time.monotonic()
        quiet = now - report.last_activity.get(table, now)
        said = f"{message.get('type')} {event.get('type') or ''}".strip()
        if quiet > report.longest_quiet.get(table, 0.0):
            report.longest_quiet[table] = quiet
            began = report.last_activity[table] - report.started
            before = last_said.get(table, "nothing yet")
            report.quiet_when[table] = f"{began:.1f} s into the run, after {before}, before {said}"
        report.last_activity[table] = now
        last_said[table] = f"{said} to seat {seat}"
        hidden = event.get("type") == "card_dealt" and not event.get("face_up")
        if hidden and event.get("card") is not None and event.get("seat") != seat:
            report.leaks.append(f"table {table}: seat {seat} was sent seat {event.get('seat')}'s down card")

    return check


async def _history_asker(base: str, token: str, deadline: float, report: Report) -> None:
    """A guest with hands of their own asks for their hands, history and statistics in a loop
    (each answer timed: what one costs must not grow with the room's stored hands)."""
    async with httpx.AsyncClient(base_url=base, cookies={COOKIE: token}, timeout=60) as client:
        while time.monotonic() < deadline:
            for route in HISTORY_ROUTES:
                began = time.perf_counter()
                answer = await client.get(route)
                report.history_ms.append((time.perf_counter() - began) * 1000)
                report.answers[f"history {route} {answer.status_code}"] += 1


async def _attack_and_play(
    base: str,
    port: int,
    tables: list[int],
    seconds: float,
    non_readers: int,
    garbage: int,
    report: Report,
    header_flooders: int = 8,
    history_tokens: tuple[str, ...] = (),
    churners: int = 2,
    field_size: int = 300,
) -> None:
    clients = len(tables) * 5
    tid = await _make_field(base, field_size, report) if churners else 0
    churn_tokens = [(await make_guests(base, 1, [f"127.0.10.{1 + i}"]))[0] for i in range(churners)]
    addresses = [f"127.0.1.{1 + i}" for i in range(-(-clients // GUESTS_PER_ADDRESS))]
    garbage_tokens = [(await make_guests(base, 1, [f"127.0.4.{1 + i}"]))[0] for i in range(garbage)]
    # The honest guests are made first, so that they play while the attacks run, not after.
    honest_tokens = tuple(await make_guests(base, clients, addresses))
    deadline = time.monotonic() + seconds
    report.honest.leak_check = _leak_checker(report)
    attacks = [
        *(
            _non_reader(port, tables[i % len(tables)], f"127.0.3.{1 + i // 8}", deadline, report)
            for i in range(non_readers)
        ),
        *(
            _garbage_client(
                base, garbage_tokens[i], tables[i % len(tables)], f"127.0.4.{1 + i}", deadline, report
            )
            for i in range(garbage)
        ),
        _flood_guests(base, deadline, report),
        _flood_logins(base, deadline, report),
        _equity_jobs(base, deadline, report),
        *(_header_flooder(port, f"127.0.7.{1 + i}", deadline, report) for i in range(header_flooders)),
        _connection_hoarder(port, deadline, report),
        _lone_surrogates(base, deadline, report),
        *(_history_asker(base, token, deadline, report) for token in history_tokens),
        _flood_tournaments(base, deadline, report),
        *(
            _register_churn(base, tid, churn_tokens[i], f"127.0.10.{1 + i}", deadline, report)
            for i in range(churners)
        ),
    ]
    honest = play(
        base,
        tables,
        seconds=seconds,
        think=(0.2, 1.0),
        tokens=honest_tokens,
        addresses=addresses,
        result=report.honest,
    )
    started = report.started = time.monotonic()
    report.last_activity.update(dict.fromkeys(tables, started))
    outcome = await asyncio.gather(honest, *attacks, return_exceptions=True)
    for done in outcome:
        if isinstance(done, BaseException):
            report.answers[f"attacker failed {type(done).__name__}: {done}"] += 1
    # A table stalled: no message to its players for STALL_SECONDS at any time while they
    # played (to the deadline: an attacker's last request, answered after it, is no table's).
    ended = min(time.monotonic(), deadline)
    for table in tables:
        quiet = max(report.longest_quiet.get(table, 0.0), ended - report.last_activity.get(table, started))
        report.longest_quiet[table] = quiet
        if quiet > STALL_SECONDS:
            report.stalled.append(table)


def _sample_memory(pid: int, done: threading.Event, samples: list[float]) -> None:
    while not done.wait(MEMORY_EVERY):
        samples.append(_rss_mib(pid))


def run(
    tables: int = 200,
    seconds: float = 60.0,
    non_readers: int = 50,
    garbage: int = 20,
    database: str | None = None,
    header_flooders: int = 8,
    stored_hands: int = 0,
    history_askers: int = 4,
    churners: int = 2,
    field_size: int = 300,
    played: Callable[[Report], None] = lambda _: None,
    audit_timeout: float = 3600.0,
) -> Report:
    """Start a server, soak it, stop it, audit it: the report. ``played`` is given the report
    once the server has stopped, before the audit (which replays every stored hand: a room of a
    million hands takes minutes), so that the play's figures are out whatever the audit does."""
    report = Report()
    with tempfile.TemporaryDirectory(prefix="sevenstud-soak-") as folder:
        url = database or str(Path(folder) / "soak.sqlite3")
        history_tokens: tuple[str, ...] = ()
        if stored_hands and history_askers:
            store = open_store(url)
            try:  # the askers' own hands, then the room's other hands, by SQL
                history_tokens = tuple(
                    play_own_hands(store, seed=f"asker {i}")[1] for i in range(history_askers)
                )
                began = time.monotonic()
                fill_room(store, stored_hands)
                print(f"{stored_hands:,} hands made by SQL in {time.monotonic() - began:.0f} s", flush=True)
            finally:
                store.close()
        try:
            served = spawn(url, pause=1.0, stderr=None, seconds=30, args=SOAK_LIMITS)
            if churners:  # the house makes the churned field's tournament
                store = open_store(url)
                try:
                    accounts.create(store, log.COMMAND_LINE, *HOUSE)
                finally:
                    store.close()
        except SpawnError as error:
            raise SystemExit(f"hostile_soak: {error}") from None
        try:
            report.tables = asyncio.run(open_tables(served.base, tables, address="127.0.2.1"))
            report.memory_start_mib = _rss_mib(served.process.pid)
            done_playing = threading.Event()
            sampler = threading.Thread(
                target=_sample_memory, args=(served.process.pid, done_playing, report.memory_samples)
            )
            sampler.start()
            try:
                asyncio.run(
                    _attack_and_play(
                        served.base,
                        served.port,
                        report.tables,
                        seconds,
                        non_readers,
                        garbage,
                        report,
                        header_flooders,
                        history_tokens,
                        churners,
                        field_size,
                    )
                )
            finally:
                done_playing.set()
                sampler.join()
            report.memory_end_mib = _rss_mib(served.process.pid)
        finally:
            served.process.terminate()
            try:
                served.process.wait(30)
            except subprocess.TimeoutExpired:
                served.process.kill()
                served.process.wait(10)
        played(report)
        began = time.monotonic()
        try:
            done = subprocess.run(
                [sys.executable, "-m", "sevenstud", "audit", "--database", url],
                capture_output=True,
                text=True,
                timeout=audit_timeout,
            )
            report.audit = (done.stdout.strip().splitlines() or [done.stderr.strip()])[0]
        except subprocess.TimeoutExpired:
            report.audit = f"audit: not done after {audit_timeout:.0f} s"
        report.audit_seconds = time.monotonic() - began
    return report


def _say_played(report: Report, args: argparse.Namespace) -> None:
    """Print what the soak's play showed (before the audit, which may take minutes)."""
    honest = report.honest
    print(
        f"{len(report.tables)} tables, {len(report.tables) * 5} honest clients, {args.seconds:.0f} s, with "
        f"{args.non_readers} spectators that never read and {args.garbage} garbage senders: honest "
        "round trip "
        f"p50 {honest.percentile(0.5) * 1000:.1f} ms, p99 {honest.percentile(0.99) * 1000:.1f} ms "
        f"({honest.actions} actions, {honest.hands} hands, {len(honest.errors)} errors); tables stalled: "
        f"{len(report.stalled)} (the longest quiet {max(report.longest_quiet.values(), default=0):.1f} s); "
        f"cards leaked: {len(report.leaks)}; server memory "
        f"{report.memory_start_mib:.0f} MiB "
        f"at the start, {report.memory_end_mib:.0f} MiB at the end"
    )
    worst = sorted(report.longest_quiet, key=report.longest_quiet.__getitem__, reverse=True)
    for table in sorted({*report.stalled, *worst[:1]}):
        print(f"  table {table} quiet {report.longest_quiet[table]:.1f} s: {report.quiet_when.get(table)}")
    if report.memory_samples:
        every = ", ".join(f"{m:.0f}" for m in report.memory_samples)
        print(f"  server memory every {MEMORY_EVERY:.0f} s, MiB: {every}")
    if report.history_ms:
        asked = sorted(report.history_ms)
        p99 = asked[min(len(asked) - 1, round(0.99 * (len(asked) - 1)))]
        print(
            f"  own hands, history and statistics in a room of {args.stored_hands:,} stored hands: "
            f"{len(asked)} answers, p50 {statistics.median(asked):.1f} ms, p99 {p99:.1f} ms"
        )
    for answer, count in sorted(report.answers.items()):
        print(f"  {answer}: {count}")
    for line in (report.leaks + honest.errors)[:10]:
        print(f"  problem: {line}")


def main(argv: list[str] | None = None) -> int:
    """The command line: see the module."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--non-readers", type=int, default=50)
    parser.add_argument("--garbage", type=int, default=20)
    parser.add_argument("--header-flooders", type=int, default=8, help="50 MiB headers, one at a time each")
    parser.add_argument("--database", default=None, help="postgresql://... (default: a fresh SQLite file)")
    parser.add_argument("--stored-hands", type=int, default=1_000_000, help="hands in the room, made by SQL")
    parser.add_argument("--history-askers", type=int, default=4, help="guests asking for their history")
    parser.add_argument(
        "--churners", type=int, default=2, help="guests registering and unregistering in a loop"
    )
    parser.add_argument("--field", type=int, default=300, help="guests entered in the churned tournament")
    parser.add_argument(
        "--audit-timeout", type=float, default=3600.0, help="seconds the audit of the soaked room may take"
    )
    args = parser.parse_args(argv)
    report = run(
        args.tables,
        args.seconds,
        args.non_readers,
        args.garbage,
        args.database,
        args.header_flooders,
        args.stored_hands,
        args.history_askers,
        args.churners,
        args.field,
        played=lambda played: _say_played(played, args),
        audit_timeout=args.audit_timeout,
    )
    print(f"{report.audit} (in {report.audit_seconds:.0f} s)")
    return 0 if report.clean() else 1


if __name__ == "__main__":
    raise SystemExit(main())
