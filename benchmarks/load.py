"""The card room under load: a real `sevenstud serve` on 127.0.0.1 and websocket clients as bots.

    python benchmarks/load.py --clients 200 --seconds 60           # people: think 0.5 to 2 s
    python benchmarks/load.py --clients 200 --seconds 30 --no-think # the most actions a second
    python benchmarks/load.py --find-knee --seconds 30              # N up until p99 > 100 ms
    python benchmarks/load.py --clients 2000 --arrive 20            # people come in over 20 s

The script starts the server itself (its own database: a fresh SQLite file, or ``--database
postgresql://...`` for an empty PostgreSQL database), makes one guest per client, opens N/5
tables of five seats and seats five clients at each. Every client acts when the server says it
is its turn, after a random think time, and measures the round trip from sending its action to
receiving the update it caused (its own ``action_taken``). At the end it prints hands per hour,
p50/p95/p99 of the round trip, the errors, the audit's verdict (`sevenstud audit`), how long
the set-up took (at any size: at most :data:`SETUP_CONNECTIONS` requests at once), and the
server's CPU time and write calls per action during the run (``--profile PATH``: py-spy samples
the server during the run).
Loopback only: the server listens on 127.0.0.1 and every request loop is bounded in count and
time. ``play`` is also what tests/server/test_leases.py plays a taken-over table with.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import resource
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' harness: tests/spawn.py
from tests.spawn import SpawnError, spawn

COOKIE = "sevenstud_session"
PROTOCOL_VERSION = 1
BUY_IN = 100
STAKES = (1, 2, 5, 10)
SEATS = 5
FOLD_SHARE = 0.1  # a bot folds a tenth of the times it faces a bet, so hands vary
KNEE_P99 = 0.100


@dataclass(slots=True)
class Result:
    """What the clients saw: round trips (seconds), hands ended, actions, errors."""

    latencies: list[float] = field(default_factory=list)
    measured_at: list[float] = field(default_factory=list)  # when each round trip ended (monotonic)
    hands: int = 0
    actions: int = 0
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0
    started: float = 0.0  # when play began (monotonic): the clients were connecting from then
    leak_check: Callable[[int, int, dict[str, Any]], None] | None = None
    """Called with (table, seat, message) for every message a seated client receives (hostile_soak.py
    checks that no other seat's down card is in it)."""

    def add(self, other: Result) -> None:
        """Gather another client group's figures into these."""
        self.latencies.extend(other.latencies)
        self.measured_at.extend(other.measured_at)
        self.hands += other.hands
        self.actions += other.actions
        self.errors.extend(other.errors)

    def percentile(self, share: float, since: float | None = None) -> float:
        """The round trip below which ``share`` of them fall (nan: none measured); given
        ``since`` (monotonic), only those that ended after it."""
        chosen = self.latencies
        if since is not None:
            chosen = [x for x, at in zip(self.latencies, self.measured_at, strict=True) if at >= since]
        if not chosen:
            return float("nan")
        ordered = sorted(chosen)
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


class _Client:
    """One person at one seat: acts on its turn, checks or calls (sometimes folds)."""

    def __init__(self, seat: int, think: tuple[float, float], result: Result, counts_hands: bool) -> None:
        self.seat = seat
        self.think = think
        self.result = result
        self.counts_hands = counts_hands
        self.street = 3
        self.bets: dict[int, int] = {}
        self.acted_this_street = False
        self.sent_at: float | None = None
        self.clock_messages = False  # the server sends `clock` messages (hand and street named)
        self.rng = random.Random()
        self.actions_seen = 0  # every action at the table: with hand and street, names a turn
        self.last_turn: tuple[int, int, int] | None = None
        self.live_from = 0  # entries up to the welcome's number are history: never acted on

    def choose(self) -> str:
        if self.street == 3 and not self.acted_this_street:
            return "bring-in"
        facing = max(self.bets.values(), default=0) > self.bets.get(self.seat, 0)
        if facing:
            return "fold" if self.rng.random() < FOLD_SHARE else "call"
        return "check"

    def on_snapshot(self, view: dict[str, Any]) -> None:
        """Take the street and its bets from a snapshot (the entries before it are not sent)."""
        hand = view.get("hand")
        if isinstance(hand, dict) and "street" in hand:
            self.street = int(hand["street"])
            seats, bets = view.get("hand_seats") or [], hand.get("bets") or []
            self.bets = {seat: bet for seat, bet in zip(seats, bets, strict=False) if bet}
            self.acted_this_street = bool(self.bets) or self.street > 3

    def on_event(self, message: dict[str, Any]) -> tuple[int, int] | None:
        """Follow the stream; the hand and street to act on when it is this seat's turn."""
        event = message.get("event") or {}
        kind = event.get("type")
        if kind == "street_started":
            self.street, self.bets, self.acted_this_street = event["street"], {}, False
        elif kind == "action_taken":
            self.acted_this_street = True
            self.actions_seen += 1
            amount = (event.get("action") or {}).get("amount")
            if amount is not None:
                self.bets[event["seat"]] = amount
            if event["seat"] == self.seat and self.sent_at is not None:
                self.result.latencies.append(time.perf_counter() - self.sent_at)
                self.result.measured_at.append(time.monotonic())
                self.result.actions += 1
                self.sent_at = None
        elif kind == "hand_ended" and self.counts_hands:
            self.result.hands += 1
        elif kind == "clock_started" and event.get("seat") == self.seat:
            # Without `clock` messages (an older server): the entry's hand, the street followed.
            hand = message.get("hand")
            if self.clock_messages or hand is None or message.get("number", 0) <= self.live_from:
                return None
            return int(hand), self.street
        return None


GUEST_TRIES = 5
SETUP_CONNECTIONS = 20
"""Set-up requests in flight at once (guests, tables): never more than the HTTP pool holds, so
no request waits for a connection and each one's timeout is its own, not the queue's."""
REQUEST_SECONDS = 30.0
OPEN_SECONDS, OPEN_SECONDS_EACH = 10.0, 0.01
"""A websocket's opening handshake may take 10 s and 10 ms more for each client (2,000: 30 s)."""


def _setup_client(base: str, address: str | None = None) -> httpx.AsyncClient:
    """An HTTP client for the set-up (``address``: the loopback address it comes from)."""
    limits = httpx.Limits(max_connections=SETUP_CONNECTIONS, max_keepalive_connections=SETUP_CONNECTIONS)
    # No pool timeout: the semaphore in front of the pool keeps the queue out of it.
    timeout = httpx.Timeout(REQUEST_SECONDS, pool=None)
    transport = httpx.AsyncHTTPTransport(local_address=address) if address else None
    return httpx.AsyncClient(base_url=base, limits=limits, timeout=timeout, transport=transport)


async def _post(
    http: httpx.AsyncClient, path: str, body: Any = None, anonymous: bool = False
) -> httpx.Response:
    """POST, tried again after a dropped connection (thousands at once can outrun the listen
    backlog) or a 429 (after its ``Retry-After``); a few tries, then it is the run's error."""
    for tried in range(1, GUEST_TRIES + 1):
        try:
            request = http.build_request("POST", path, json=body)
            if anonymous:
                # without the client's cookie: a new guest on a connection that had a session
                # would end that session (docs/protocol.md), the guest made before it
                request.headers.pop("cookie", None)
            response = await http.send(request)
        except httpx.TransportError:
            if tried == GUEST_TRIES:
                raise
            await asyncio.sleep(0.5 * tried)
            continue
        if response.status_code == 429 and tried < GUEST_TRIES:
            try:
                wait = min(60.0, max(0.0, float(response.headers.get("Retry-After", "1"))))
            except ValueError:  # an HTTP date: a second is as good a guess as any
                wait = 1.0
            await asyncio.sleep(wait)
            continue
        response.raise_for_status()
        return response
    raise AssertionError("unreachable")


async def _guest(http: httpx.AsyncClient) -> str:
    response = await _post(http, "/api/guest", anonymous=True)
    return str(response.cookies[COOKIE])


async def make_guests(base: str, count: int, addresses: list[str] | None = None) -> list[str]:
    """``count`` new guests' session tokens, at most :data:`SETUP_CONNECTIONS` made at once
    (any count: 2,000 at about 100 a second were 2,000 requests queued on 50 connections and
    past their 30 s timeout, ``httpx.PoolTimeout``, when all were asked for at once). With
    ``addresses``, guest ``k`` comes from ``addresses[k % len(addresses)]`` (loopback addresses:
    people from many places, each within the card room's limits per address)."""
    gate = asyncio.Semaphore(SETUP_CONNECTIONS)

    async def one(http: httpx.AsyncClient) -> str:
        async with gate:
            return await _guest(http)

    if not addresses:
        async with _setup_client(base) as http:
            return list(await asyncio.gather(*(one(http) for _ in range(count))))
    clients = [_setup_client(base, address) for address in addresses]
    try:
        return list(await asyncio.gather(*(one(clients[k % len(clients)]) for k in range(count))))
    finally:
        for http in clients:
            await http.aclose()


async def _seat(
    base: str,
    token: str,
    table: int,
    seat: int,
    deadline: float,
    think: tuple[float, float],
    result: Result,
    counts_hands: bool,
    arrive: float = 0.0,
    open_timeout: float = 10.0,
    address: str | None = None,
) -> None:
    client = _Client(seat, think, result, counts_hands)
    if arrive:  # this person comes in at a random moment of the first ``arrive`` seconds
        await asyncio.sleep(client.rng.uniform(0.0, arrive))
    url = "ws://" + base.split("://", 1)[1] + "/ws"
    pending: asyncio.Task[None] | None = None
    # A `clock` message may come before the entries that led to it: the turn waits for them.
    waiting: tuple[int, tuple[int, int]] | None = None
    seen = 0
    where: dict[str, Any] = {"local_addr": (address, 0)} if address else {}
    async with websockets.connect(
        url,
        additional_headers={"Cookie": f"{COOKIE}={token}"},
        max_size=2**22,
        open_timeout=open_timeout,
        **where,
    ) as ws:

        async def act(hand: int, street: int) -> None:
            wait = client.rng.uniform(*think) if think[1] > 0 else 0.0
            if wait:
                await asyncio.sleep(wait)
            action = client.choose()
            client.sent_at = time.perf_counter()
            await ws.send(json.dumps({"type": "act", "hand": hand, "street": street, "action": action}))

        await ws.send(json.dumps({"type": "hello", "version": PROTOCOL_VERSION, "table": table, "last": 0}))
        # One deadline for the whole run: a wait_for per message made a task and a timer for
        # every message received, the load generator's own cost counted in the round trips.
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(max(0.0, deadline - time.monotonic())):
                while True:
                    text = await ws.recv()
                    message = json.loads(text)
                    kind = message.get("type")
                    turn: tuple[int, int] | None = None
                    if kind == "event":
                        turn = client.on_event(message)
                        seen = max(seen, int(message.get("number", 0)))
                        event = message.get("event") or {}
                        if event.get("type") == "stood_up" and event.get("seat") == seat:
                            await ws.send(json.dumps({"type": "sit", "seat": seat, "buy_in": BUY_IN}))
                    elif kind == "welcome":
                        client.live_from = seen = int(message.get("number", 0))  # what follows is newer
                        if message.get("seat") != seat:  # not seated yet: sit down
                            await ws.send(json.dumps({"type": "sit", "seat": seat, "buy_in": BUY_IN}))
                    elif kind == "snapshot":
                        seen = max(seen, int(message.get("number", 0)))
                        client.on_snapshot(message.get("view") or {})
                    elif kind == "clock":
                        client.clock_messages = True
                        if message.get("seat") == seat:  # the turn now (sent live, and after a hello)
                            waiting = (
                                int(message.get("number", 0)),
                                (int(message["hand"]), int(message["street"])),
                            )
                    elif kind == "error":
                        result.errors.append(f"table {table} seat {seat}: {message.get('message')}")
                    if result.leak_check is not None:
                        result.leak_check(table, seat, message)
                        client.sent_at = None
                    if waiting is not None and seen >= waiting[0]:  # the stream has caught up with it
                        turn, waiting = waiting[1], None
                    if turn is not None and (key := (*turn, client.actions_seen)) != client.last_turn:
                        client.last_turn = key  # one action a turn, however many messages announce it
                        if client.sent_at is not None:
                            result.errors.append(
                                f"table {table} seat {seat}: its turn again before its update"
                            )
                        if pending is not None and not pending.done():
                            pending.cancel()
                        pending = asyncio.get_running_loop().create_task(act(*turn))
        if pending is not None:
            pending.cancel()
        if client.sent_at is not None and time.perf_counter() - client.sent_at > 5:
            result.errors.append(f"table {table} seat {seat}: no update 5 s after its action")


async def play(
    base: str,
    tables: list[int],
    *,
    players_per_table: int = SEATS,
    seconds: float = 60.0,
    think: tuple[float, float] = (0.5, 2.0),
    seat_from: int = 1,
    seats: list[int] | None = None,
    tokens: tuple[str, ...] = (),
    arrive: float = 0.0,
    addresses: list[str] | None = None,
    result: Result | None = None,
) -> Result:
    """Seat ``players_per_table`` new guests at each of ``tables`` (seats ``seats``, or from
    ``seat_from`` on) on the server at ``base`` and play for ``seconds``; ``tokens``: the
    session cookies of the first clients (a player back at a table keeps the seat held);
    ``arrive``: the clients come in over this many seconds (0: all at once); ``addresses``:
    the guest made ``m``-th (its guest and its websocket) comes from ``addresses[m %
    len(addresses)]``, and so does the websocket of the ``m``-th of ``tokens``."""
    result = result or Result()
    chosen = seats if seats is not None else list(range(seat_from, seat_from + players_per_table))
    made = await make_guests(base, len(tables) * len(chosen) - len(tokens), addresses)
    every = [*tokens, *made]
    started = time.monotonic()
    deadline = started + seconds
    # Thousands of handshakes at once queue at the server: the timeout grows with the count.
    opening = OPEN_SECONDS + len(every) * OPEN_SECONDS_EACH

    def address_of(k: int) -> str | None:
        if not addresses:
            return None
        return addresses[(k if k < len(tokens) else k - len(tokens)) % len(addresses)]

    tasks = [
        _seat(base, every[k], table, seat, deadline, think, result, j == 0, arrive, opening, address_of(k))
        for i, table in enumerate(tables)
        for j, seat in enumerate(chosen)
        for k in (i * len(chosen) + j,)
    ]
    for done in await asyncio.gather(*tasks, return_exceptions=True):
        if isinstance(done, BaseException):
            result.errors.append(f"a client failed: {type(done).__name__}: {done}")
    result.seconds = time.monotonic() - started
    result.started = started
    return result


async def open_tables(base: str, count: int, address: str | None = None) -> list[int]:
    """``count`` new Stud Hi/Lo tables of five seats, no bots (``address``: where from)."""
    body = {"game": "stud8", "seats": SEATS, "bots": 0, "stakes": list(STAKES)}
    async with _setup_client(base, address) as http:
        await _guest(http)
        tables = []
        for _ in range(count):
            response = await _post(http, "/api/tables", body)
            tables.append(int(response.json()["id"]))
    return tables


def _profiler(pid: int, path: str) -> subprocess.Popen[bytes]:
    """py-spy sampling the server (``--profile``): raw collapsed stacks, or a flame graph for a
    path ending in .svg; it stops when the server does."""
    how = "flamegraph" if path.endswith(".svg") else "raw"
    # --nonblocking: py-spy reads the server without pausing it, so the round trips stay its own.
    # py-spy from this interpreter's environment (pip install py-spy there) before the PATH's.
    beside = Path(sys.executable).parent / "py-spy"
    spy = str(beside) if beside.exists() else "py-spy"
    command = [spy, "record", "--nonblocking", "--pid", str(pid), "--rate", "200"]
    command += ["--format", how, "-o", path]
    try:
        return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    except FileNotFoundError:
        raise SystemExit(
            "load: --profile needs py-spy beside this Python or on the PATH (pip install py-spy)"
        ) from None


def _cpu_seconds(pid: int) -> tuple[float, int]:
    """The CPU time (user and system) process ``pid`` has used and the write system calls it
    made: Linux's /proc (zeros elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        io = dict(line.split(": ") for line in Path(f"/proc/{pid}/io").read_text().splitlines())
    except (OSError, ValueError):
        return 0.0, 0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK"), int(io.get("syscw", 0))


def _own_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _own_memory_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


LOAD_LIMITS = (
    "--limit=guests_per_address=1000000",
    "--limit=tables_per_account=1000000",
    "--limit=tables_per_address=1000000",
    "--limit=sockets_per_address=1000000",
    "--limit=login_attempts_per_address=1000000",
)
"""Every client here comes from 127.0.0.1 and one guest opens every table: the limits per
address and per account (docs/security.md) are lifted for the run."""


def _start_server(database: str, pause: float) -> tuple[subprocess.Popen[str], str]:
    try:
        served = spawn(database, pause=pause, stderr=None, seconds=30, args=LOAD_LIMITS)
    except SpawnError as error:
        raise SystemExit(f"load: {error}") from None
    print(f"load: the server is process {served.process.pid} at {served.base}", flush=True)
    return served.process, served.base


def _audit(database: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "sevenstud", "audit", "--database", database],
        capture_output=True,
        text=True,
        timeout=600,
    )
    return (done.stdout.strip().splitlines() or [done.stderr.strip()])[0]


def _raise_file_limit() -> None:
    # Two sockets a client on one machine (its end and the server's): past the usual 1024.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def run_once(
    clients: int,
    seconds: float,
    think: tuple[float, float],
    database: str | None,
    pause: float,
    warm_up: float = 0.0,
    arrive: float = 0.0,
    profile: str | None = None,
) -> Result:
    """Start a server, play ``clients`` clients at ``clients / 5`` tables, stop, audit, print
    (``profile``: py-spy samples the server from the set-up on into this file)."""
    with tempfile.TemporaryDirectory(prefix="sevenstud-load-") as folder:
        url = database or str(Path(folder) / "load.sqlite3")
        server, base = _start_server(url, pause)
        profiler = None
        try:
            began = time.monotonic()
            tables = asyncio.run(open_tables(base, max(1, clients // SEATS)))
            tokens = tuple(asyncio.run(make_guests(base, len(tables) * SEATS)))
            setup = time.monotonic() - began
            # From here on is the run: the profile and the server's CPU time are of it alone.
            profiler = _profiler(server.pid, profile) if profile else None
            cpu_before = _cpu_seconds(server.pid)
            own_before = _own_cpu_seconds()
            # The load generator's own collector stays out of the round trips: a full collection
            # of its heap (thousands of connections) held every client for up to 0.7 s, counted
            # as the server's latency. What it makes while playing is nearly all freed by
            # reference counting; what is left is collected after the run.
            gc.collect()
            gc.freeze()
            gc.disable()
            try:
                result = asyncio.run(
                    play(base, tables, seconds=seconds, think=think, arrive=arrive, tokens=tokens)
                )
            finally:
                gc.enable()
                gc.unfreeze()
            own_cpu = _own_cpu_seconds() - own_before
            cpu_after = _cpu_seconds(server.pid)
            server_cpu, writes = cpu_after[0] - cpu_before[0], cpu_after[1] - cpu_before[1]
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(10)
            if profiler is not None:
                profiler.wait(30)
        verdict = _audit(url)
    per_hour = result.hands / result.seconds * 3600 if result.seconds else 0.0
    print(
        f"{clients} clients at {len(tables)} tables, {result.seconds:.0f} s"
        f"{' (no think time)' if think[1] == 0 else ''}"
        f"{f', arriving over {arrive:.0f} s' if arrive else ''}: "
        f"{per_hour:,.0f} hands/hour, {result.actions / result.seconds:,.1f} actions/s, "
        f"round trip p50 {result.percentile(0.5) * 1000:.1f} ms, "
        f"p95 {result.percentile(0.95) * 1000:.1f} ms, "
        f"p99 {result.percentile(0.99) * 1000:.1f} ms, {len(result.errors)} errors; {verdict}",
        flush=True,
    )
    print(
        f"  set-up (tables and {len(tables) * SEATS} guests over HTTP): {setup:.1f} s; the server's"
        f" CPU time while playing: {server_cpu:.1f} s ({server_cpu / result.seconds:.0%} of a core,"
        f" {server_cpu / max(1, result.actions) * 1000:.2f} ms and {writes / max(1, result.actions):.1f}"
        " write calls an action); the load generator's: "
        f"{own_cpu:.1f} s ({own_cpu / result.seconds:.0%} of a core, {_own_memory_mib():.0f} MiB at most)",
        flush=True,
    )
    if 0 < warm_up < result.seconds:
        # The first seconds are every client connecting, sitting down and every table dealing
        # its first hand at once: a burst no card room sees twice. Shown apart, not instead.
        since = result.started + warm_up
        print(
            f"  after the first {warm_up:.0f} s: round trip "
            f"p50 {result.percentile(0.5, since) * 1000:.1f} ms, "
            f"p95 {result.percentile(0.95, since) * 1000:.1f} ms, "
            f"p99 {result.percentile(0.99, since) * 1000:.1f} ms",
            flush=True,
        )
    for error in result.errors[:5]:
        print(f"  error: {error}")
    return result


def main(argv: list[str] | None = None) -> int:
    """The command line: see the module."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--clients", type=int, default=100, help="clients (five a table)")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long to play")
    parser.add_argument("--no-think", action="store_true", help="act at once: the most actions a second")
    parser.add_argument("--find-knee", action="store_true", help="step the clients up until p99 > 100 ms")
    parser.add_argument("--most", type=int, default=4000, help="--find-knee stops at this many clients")
    parser.add_argument("--least", type=int, default=50, help="--find-knee starts at this many clients")
    parser.add_argument("--database", default=None, help="an empty postgresql:// database (default: SQLite)")
    parser.add_argument("--pause", type=float, default=3.0, help="the server's pause after each hand (s)")
    parser.add_argument(
        "--warm-up", type=float, default=15.0, help="also print the round trips after this many seconds"
    )
    parser.add_argument(
        "--arrive",
        type=float,
        default=0.0,
        help="the clients come in at random moments of the first this many seconds (0: all at once)",
    )
    parser.add_argument(
        "--profile",
        default=None,
        metavar="PATH",
        help="sample the server with py-spy into PATH (.svg: a flame graph; else raw stacks)",
    )
    args = parser.parse_args(argv)
    if args.clients < SEATS or args.seconds <= 0:
        parser.error(f"at least {SEATS} clients and a positive time")
    think = (0.0, 0.0) if args.no_think else (0.5, 2.0)
    _raise_file_limit()
    if not args.find_knee:
        result = run_once(
            args.clients,
            args.seconds,
            think,
            args.database,
            args.pause,
            args.warm_up,
            args.arrive,
            args.profile,
        )
        return 0 if not result.errors else 1
    if args.database:
        parser.error("--find-knee makes a fresh SQLite database for each step")
    clients = max(SEATS, args.least)
    while clients <= args.most:
        result = run_once(clients, args.seconds, think, None, args.pause, args.warm_up, args.arrive)
        if result.errors or result.percentile(0.99) > KNEE_P99:
            p99 = result.percentile(0.99) * 1000
            print(f"knee: {clients} clients (p99 {p99:.0f} ms, {len(result.errors)} errors)")
            return 0
        clients = clients * 2 if clients < 400 else clients + 400
    print(f"no knee up to {args.most} clients")
    return 0


if __name__ == "__main__":
    sys.exit(main())
