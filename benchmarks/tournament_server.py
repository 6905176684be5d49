"""Tournaments through the real card room (issue 15, point 11): ``sevenstud serve`` processes,
a field of bots made and registered over HTTP, the tournament's clock accelerated
(``--test-tournament-speed``), played to the end; then the places and prizes are checked and
``sevenstud audit`` is run on the database.

    python benchmarks/tournament_server.py --entrants 1000            # one process, SQLite
    python benchmarks/tournament_server.py --entrants 300 --failover  # two processes, PostgreSQL

``--failover`` starts two processes on one PostgreSQL database (a throwaway cluster, as the tests
make); the first makes and directs the tournament, and is killed with SIGKILL once a third of
the field is out; the second takes the tournament over when its lease runs out (the hands cut
off cancelled and refunded, the clock paused while nobody directed it) and finishes it.
It prints wall time, hands (and hands per second over all tables), the most tables at once.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sevenstud.server.audit import audit  # noqa: E402
from sevenstud.server.spawn import spawn  # noqa: E402
from sevenstud.server.store import open_store  # noqa: E402
from sevenstud.server.store.models import HandRow, TournamentTable  # noqa: E402

LIFTED = [f"--limit={n}=100000" for n in ("guests_per_address", "tables_per_address", "sockets_per_address")]


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


def run(url: str, entrants: int, speed: float, failover: bool, seats: int) -> dict[str, object]:
    args = [*LIFTED, f"--test-tournament-speed={speed}", "--lease-seconds=6"]
    first = spawn(url, pause=0.02, args=args, seconds=120)
    second = spawn(url, pause=0.02, args=args, seconds=120) if failover else None
    try:
        client = httpx.Client(base_url=first.base, timeout=600)
        client.post("/api/guest")
        made = time.monotonic()
        answer = client.post(
            "/api/tournaments",
            json={
                "template": "mtt-turbo",
                "name": f"{entrants}-entrant benchmark",
                "bots": entrants,
                "max_entries": entrants,
                "min_field": min(entrants, 9),
                # registering is about 0.1 s a bot at 1,000 (the director is written each time)
                "start_in": 10.0 + entrants * 0.15,
                "speed": speed,
            },
        )
        answer.raise_for_status()
        tid = answer.json()["id"]
        print(f"tournament {tid}: {entrants} bots registered in {time.monotonic() - made:.1f} s", flush=True)
        started = time.monotonic()
        most, killed_at = 0, None
        watcher = client
        while True:
            try:
                page = watcher.get(f"/api/tournaments/{tid}").json()
            except httpx.HTTPError:
                time.sleep(0.5)
                continue
            most = max(most, len(page["tables"]))
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
            time.sleep(0.5)
        wall = time.monotonic() - started
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
            "state": page["state"],
            "wall_seconds": round(wall, 1),
            "hands": finished,
            "hands_cancelled": cancelled,
            "hands_per_second": round(finished / wall, 1),
            "most_tables": most,
            "places_ok": places_ok and len(places) == entrants,
            "tied_places": len(places) - len(set(places)),
            "prizes_paid": prizes,
            "prize_pool": page["prize_pool"],
            "killed_at": killed_at,
            "audit": str(report).splitlines()[0],
            "audit_ok": report.ok,
        }
        if not report.ok:
            print(report, flush=True)
        return result
    finally:
        first.stop(signal.SIGKILL)
        if second is not None:
            second.stop()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, default=1000)
    parser.add_argument("--speed", type=float, default=60.0, help="the tournament clock's speed")
    parser.add_argument("--failover", action="store_true", help="two processes on PostgreSQL, one killed")
    parser.add_argument("--database", default=None, help="a database URL (default: a fresh one)")
    args = parser.parse_args()
    cluster = None
    if args.database:
        url = args.database
    elif args.failover:
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
        result = run(url, args.entrants, args.speed, args.failover, 8)
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
