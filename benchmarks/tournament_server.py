"""Tournaments through the real card room (issue 15, point 11): ``sevenstud serve`` processes,
a field of bots made and registered over HTTP, the tournament's clock accelerated
(tests/spawn.py's ``tournament_speed``), played to the end; then the places and prizes are checked and
``sevenstud audit`` is run on the database.

    python benchmarks/tournament_server.py --entrants 1000            # one process, SQLite
    python benchmarks/tournament_server.py --entrants 300 --failover  # two processes, PostgreSQL
    python benchmarks/tournament_server.py --entrants 10000 --processes 2  # two, none killed

``--failover`` starts two processes on one PostgreSQL database (a throwaway cluster, as the tests
make); the first makes and directs the tournament, its tables are shared out over both
(server/tournaments/sharing.py), and ``--people`` of the entrants are websocket clients (guests
registered over HTTP, each following its seat from table to table and server to server: the
tournament's page names its table, a ``hello`` to a table served elsewhere names the server).
The directing process is killed with SIGKILL once a third of the field is out; the second takes
the direction and the dead one's tables over when their leases run out (the hands cut off
cancelled and refunded) and finishes it.
It prints wall time, hands (and hands per second over all tables), the most tables at once.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from load import Result, _Client  # noqa: E402
from sqlalchemy import select  # noqa: E402

from sevenstud.server.accounts.sessions import COOKIE  # noqa: E402
from sevenstud.server.audit import audit  # noqa: E402
from sevenstud.server.protocol import PROTOCOL_VERSION  # noqa: E402
from sevenstud.server.store import open_store  # noqa: E402
from sevenstud.server.store.models import HandRow, TournamentTable  # noqa: E402
from tests.house import operator  # noqa: E402
from tests.spawn import spawn  # noqa: E402

LIFTED = [f"--limit={n}=100000" for n in ("guests_per_address", "tables_per_address", "sockets_per_address")]


def _cpu_seconds(pid: int) -> float | None:
    """The CPU time process ``pid`` has used (user and system; None where /proc is not there)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _hands(url: str, tid: int) -> tuple[int, int]:
    store = open_store(url, migrate=False)
    try:
        with store.session() as s:
            tables = list(s.query(TournamentTable.table_id).filter(TournamentTable.tournament_id == tid))
            ids = [t for (t,) in tables]
            rows = s.query(HandRow.status).filter(HandRow.table_id.in_(ids)).all()
            return sum(1 for (st,) in rows if st == "finished"), sum(1 for (st,) in rows if st == "cancelled")
    finally:
        store.close()


@dataclass
class People:
    """What the websocket entrants saw: tables and servers each was seated at, actions, errors."""

    tables: dict[str, set[int]] = field(default_factory=dict)
    servers: dict[str, set[str]] = field(default_factory=dict)
    result: Result = field(default_factory=Result)
    reconnects: int = 0
    waits: int = 0
    done: int = 0
    polls: dict[str, int] = field(default_factory=dict)
    """The tournament's page read by the people, by why (its seat not known yet there, ...)."""


async def _person(
    bases: list[str], token: str, name: str, tid: int, people: People, stop: threading.Event
) -> None:
    """One entrant at a websocket: finds its table on the tournament's page, says hello at the
    server that serves it (the one a refusal names), acts at its turns (checks, calls, sometimes
    folds), and follows its seat when it is moved or the server dies, until it is out."""
    server = bases[0]
    headers = {"Cookie": f"{COOKIE}={token}"}
    async with httpx.AsyncClient(timeout=10) as http:
        why = "first"
        while not stop.is_set():
            people.polls[why] = people.polls.get(why, 0) + 1
            try:
                page = (await http.get(f"{server}/api/tournaments/{tid}")).json()
            except (httpx.HTTPError, ValueError):
                server = bases[(bases.index(server) + 1) % len(bases)] if server in bases else bases[0]
                await asyncio.sleep(0.5)
                continue
            me = next((e for e in page.get("entrants", []) if e["name"] == name), None)
            if page.get("state") in ("finished", "cancelled") or me is None or me["place"] is not None:
                people.done += 1
                return
            table = next((t["table_id"] for t in page["tables"] if t["number"] == me["table"]), None)
            if table is None:
                why = "no table"
                await asyncio.sleep(0.3)
                continue
            why, elsewhere = await _sit_through(server, headers, table, name, tid, people, stop)
            server = elsewhere or server


async def _sit_through(
    server: str,
    headers: dict[str, str],
    table: int,
    name: str,
    tid: int,
    people: People,
    stop: threading.Event,
) -> tuple[str, str | None]:
    """Play at ``table`` until moved, stood up or cut off: why it stopped, and the server to
    try next, if named."""
    url = "ws://" + server.split("://", 1)[1] + "/ws"
    try:
        async with websockets.connect(url, additional_headers=headers, max_size=2**22, open_timeout=10) as ws:
            await ws.send(
                json.dumps({"type": "hello", "version": PROTOCOL_VERSION, "table": table, "last": 0})
            )
            client: _Client | None = None
            seen = 0
            waiting: tuple[int, tuple[int, int]] | None = None
            while not stop.is_set():
                try:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 15))
                except TimeoutError:
                    return "quiet", None  # nothing for a while (a break): look at the page again
                kind = message.get("type")
                turn = None
                if kind == "error":
                    text = str(message.get("message"))
                    if " is served at " in text:
                        return "elsewhere", text.rsplit(" ", 1)[1]
                    if text.startswith("no table"):
                        # Its table made a moment ago, not yet taken by the process it went
                        # to (at that one's next round): ask again.
                        people.waits += 1
                        await asyncio.sleep(0.3)
                        return "no table yet", None
                    people.result.errors.append(f"{name}: {text}")
                elif kind == "welcome":
                    seat = message.get("seat")
                    if seat is None:
                        await asyncio.sleep(0.3)
                        return "not seated yet", None  # not seated here (yet): the page says where
                    client = _Client(int(seat), (0.0, 0.0), people.result, False)
                    client.live_from = seen = int(message.get("number", 0))
                    people.tables.setdefault(name, set()).add(table)
                    people.servers.setdefault(name, set()).add(server)
                elif client is None:
                    continue
                elif kind == "snapshot":
                    seen = max(seen, int(message.get("number", 0)))
                    client.on_snapshot(message.get("view") or {})
                elif kind == "event":
                    seen = max(seen, int(message.get("number", 0)))
                    turn = client.on_event(message)
                    event = message.get("event") or {}
                    if event.get("type") == "stood_up" and event.get("seat") == client.seat:
                        return "stood up", None  # moved (or out): the page says where next
                elif kind == "clock" and message.get("seat") == client.seat:
                    client.clock_messages = True
                    waiting = (int(message.get("number", 0)), (int(message["hand"]), int(message["street"])))
                elif kind == "tournament_moved" or (
                    kind == "tournament_finish" and message.get("player") == name
                ):
                    return kind, None
                if waiting is not None and seen >= waiting[0]:
                    turn, waiting = waiting[1], None
                if turn is not None and (key := (*turn, client.actions_seen)) != client.last_turn:
                    client.last_turn = key
                    client.sent_at = time.perf_counter()
                    act = {"type": "act", "hand": turn[0], "street": turn[1], "action": client.choose()}
                    await ws.send(json.dumps(act))
    except (OSError, websockets.WebSocketException, TimeoutError):
        people.reconnects += 1
        await asyncio.sleep(0.5)
        return "cut off", None
    return "stopped", None


def _people(
    bases: list[str], tokens: dict[str, str], tid: int, people: People, stop: threading.Event
) -> None:
    async def everyone() -> None:
        await asyncio.gather(*(_person(bases, t, n, tid, people, stop) for n, t in tokens.items()))

    with contextlib.suppress(Exception):
        asyncio.run(everyone())


def run(
    url: str,
    entrants: int,
    speed: float,
    failover: bool,
    seats: int,
    persons: int = 0,
    profile: str | None = None,
    processes: int = 1,
    logs: str | None = None,
) -> dict[str, object]:
    args = [*LIFTED, "--lease-seconds=6"]
    # The directing process under cProfile (tests/serve.py), its statistics written when it stops.
    knobs = {"SEVENSTUD_TEST_PROFILE": profile} if profile else None

    # Each server's log (a failed sync or lease round says why there): beside the profile, or
    # in ``logs`` (server-1.log, server-2.log).
    def log_of(n: int) -> Any:
        if logs:
            Path(logs).mkdir(parents=True, exist_ok=True)
            return open(Path(logs) / f"server-{n}.log", "w")
        return open(f"{profile}.log", "w") if profile and n == 1 else subprocess.DEVNULL

    first = spawn(
        url, pause=0.02, args=args, seconds=120, tournament_speed=speed, env=knobs, stderr=log_of(1)
    )
    two = failover or processes == 2
    second = (
        spawn(url, pause=0.02, args=args, seconds=120, tournament_speed=speed, stderr=log_of(2))
        if two
        else None
    )
    bases = [first.base] + ([second.base] if second is not None else [])
    people, stop = People(), threading.Event()
    try:
        client = operator(url, first.base)  # public tournaments are the house's (issue 33)
        client.timeout = httpx.Timeout(600)
        made = time.monotonic()
        answer = client.post(
            "/api/admin/tournaments",
            json={
                "template": "mtt-turbo",
                "name": f"{entrants}-entrant benchmark",
                "bots": entrants - persons,
                "max_entries": entrants,
                "min_field": min(entrants, 9),
                # registering is about 6 ms a bot (each entry a row), the people's over HTTP more
                "start_in": 10.0 + entrants * 0.02 + persons * 0.1,
                "speed": speed,
            },
        )
        answer.raise_for_status()
        tid = answer.json()["id"]
        tokens: dict[str, str] = {}
        for _ in range(persons):  # guests registered over HTTP, then playing at websockets
            person = httpx.Client(base_url=first.base, timeout=60)
            person.post("/api/guest").raise_for_status()
            name = person.get("/api/me").json()["name"]
            person.post(f"/api/tournaments/{tid}/register").raise_for_status()
            tokens[name] = person.cookies[COOKIE]
        print(
            f"tournament {tid}: {entrants - persons} bots and {persons} people registered "
            f"in {time.monotonic() - made:.1f} s",
            flush=True,
        )
        players = threading.Thread(target=_people, args=(bases, tokens, tid, people, stop), daemon=True)
        players.start()
        started = time.monotonic()
        load_at_start = [round(x, 2) for x in os.getloadavg()]
        cpu_at_start = _cpu_seconds(first.process.pid)
        most, killed_at = 0, None
        served: dict[int, str] = {}  # each table -> the first process seen serving it
        most_by: dict[str, int] = {}
        leases = open_store(url, migrate=False)
        watcher = client
        while True:
            try:
                answer = watcher.get(f"/api/tournaments/{tid}")
                page = answer.json()
            except (httpx.HTTPError, ValueError):
                time.sleep(0.5)
                continue
            if answer.status_code != 200:  # (a refusal: too many requests, the page not ready)
                print(f"the tournament's page answered {answer.status_code}: {page}", flush=True)
                time.sleep(2.0)
                continue
            most = max(most, len(page["tables"]))
            if two:
                owners = _owners(leases, tid)
                for table, owner in owners.items():
                    served.setdefault(table, owner)
                for owner in set(owners.values()):
                    most_by[owner] = max(most_by.get(owner, 0), sum(1 for o in owners.values() if o == owner))
            if page["state"] in ("finished", "cancelled"):
                break
            if (
                failover
                and killed_at is None
                and page["state"] == "running"
                and page["players_left"] <= entrants * 2 // 3
            ):
                first.stop(signal.SIGKILL)
                killed_at = time.monotonic() - started
                print(
                    f"killed the directing process (kill -9) at {killed_at:.1f} s, "
                    f"{page['players_left']} players left",
                    flush=True,
                )
                assert second is not None
                watcher = httpx.Client(base_url=second.base, timeout=60)
            if time.monotonic() - started > 3600:
                raise SystemExit("the tournament did not end within an hour")
            time.sleep(max(0.5, entrants / 5000))  # (the page names every entrant)
        wall = time.monotonic() - started
        cpu_at_end = _cpu_seconds(first.process.pid)
        leases.close()
        if profile:
            first.stop(signal.SIGTERM, 60)  # so that it writes its profile
        places = sorted(e["place"] for e in page["entrants"])
        # Each place once, but for players busting in one hand with equal chips: they share the
        # first of the places they take (5, 5, 7: two tied for 5th and 6th).
        places_ok = all(p == i or (p < i and p == places[i - 2]) for i, p in enumerate(places, start=1))
        prizes = sum(e["prize"] for e in page["entrants"])
        finished, cancelled = _hands(url, tid)
        store = open_store(url, migrate=False)
        try:
            report = audit(store)
        finally:
            store.close()
        result = {
            "entrants": entrants,
            "load_average_at_start": load_at_start,
            "load_average_at_end": [round(x, 2) for x in os.getloadavg()],
            "state": page["state"],
            "wall_seconds": round(wall, 1),
            "hands": finished,
            "hands_cancelled": cancelled,
            "hands_per_second": round(finished / wall, 1),
            "most_tables": most,
            # The directing server's CPU over the play (the machine's other work aside).
            "server_cpu_seconds": None
            if cpu_at_start is None or cpu_at_end is None or killed_at is not None
            else round(cpu_at_end - cpu_at_start, 1),
            "places_ok": places_ok and len(places) == entrants,
            "tied_places": len(places) - len(set(places)),
            "prizes_paid": prizes,
            "prize_pool": page["prize_pool"],
            "killed_at": killed_at,
            "audit": str(report).splitlines()[0],
            "audit_ok": report.ok,
        }
        if two:
            counts: dict[str, int] = {}
            for owner in served.values():
                counts[owner] = counts.get(owner, 0) + 1
            result["tables_first_served_by"] = counts
            result["most_tables_at_once_by_server"] = most_by
        if persons:
            stop.set()
            players.join(20)
            result["people"] = {
                "entrants": persons,
                "actions": people.result.actions,
                "round_trip_ms_p50": round(people.result.percentile(0.50) * 1000, 1),
                "round_trip_ms_p99": round(people.result.percentile(0.99) * 1000, 1),
                "tables_each_most": max((len(t) for t in people.tables.values()), default=0),
                "moved_between_servers": sum(1 for s in people.servers.values() if len(s) >= 2),
                "reconnects": people.reconnects,
                "waits_for_a_new_table": people.waits,
                "page_reads": people.polls,
                "errors": len(people.result.errors),
                "first_errors": people.result.errors[:5],
            }
        if not report.ok:
            print(report, flush=True)
        return result
    finally:
        first.stop(signal.SIGKILL)
        if second is not None:
            second.stop()


def _owners(store: Any, tid: int) -> dict[int, str]:
    """Each of the tournament's tables leased now -> the process serving it."""
    from sevenstud.server.store.models import TableLease

    with store.session() as s:
        rows = s.execute(
            select(TableLease.table_id, TableLease.owner)
            .join(TournamentTable, TournamentTable.table_id == TableLease.table_id)
            .where(TournamentTable.tournament_id == tid, TableLease.expires_at >= time.time())
        ).all()
    return {int(t): str(o) for t, o in rows}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, default=1000)
    parser.add_argument("--speed", type=float, default=60.0, help="the tournament clock's speed")
    parser.add_argument("--failover", action="store_true", help="two processes on PostgreSQL, one killed")
    parser.add_argument(
        "--processes", type=int, choices=(1, 2), default=1, help="2: two processes on PostgreSQL, none killed"
    )
    parser.add_argument("--people", type=int, default=0, help="entrants that are websocket clients")
    parser.add_argument("--database", default=None, help="a database URL (default: a fresh one)")
    parser.add_argument(
        "--profile", default=None, help="write the directing server's cProfile statistics to this file"
    )
    parser.add_argument("--logs", default=None, help="a folder for the servers' logs (server-1.log, ...)")
    args = parser.parse_args()
    cluster = None
    if args.database:
        url = args.database
    elif args.failover or args.processes == 2:
        from tests.server.conftest import _Cluster, _pg_bin

        bin_dir = _pg_bin()
        if bin_dir is None:
            raise SystemExit("PostgreSQL is not installed (tools/postgres.sh)")
        cluster = _Cluster(bin_dir)
        cluster.start()
        url = cluster.create_database()
    else:
        url = f"sqlite:///{Path(tempfile.mkdtemp()) / 'cardroom.sqlite3'}"
    try:
        result = run(
            url,
            args.entrants,
            args.speed,
            args.failover,
            8,
            args.people,
            args.profile,
            args.processes,
            args.logs,
        )
    finally:
        if cluster is not None:
            cluster.stop()
    print(json.dumps(result, indent=2))
    return (
        0
        if result["audit_ok"] and result["places_ok"] and result["prizes_paid"] == result["prize_pool"]
        else 1
    )


if __name__ == "__main__":
    raise SystemExit(main())
