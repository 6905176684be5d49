"""A player's own hands in a large room (issue 36, point 1): the cost of ``GET /api/hands``,
``/api/history`` and ``/api/stats`` for a guest with 16 hands, in a room of many stored hands.

The room is made by SQL, not by play: the guest's 16 hands are played for real at a table of
their own (a guest and three bots, the engine's records), then ``--hands`` hands of other
players are added by one ``INSERT ... SELECT`` per 100,000 (each the record of one of the
guest's hands, so a row is as large as a real one), at tables of three people and two bots,
with the index of who was dealt in (``dealt_in``) as the card room writes it. A million hands
take a few minutes to make on SQLite, a few more on PostgreSQL.

Then a real uvicorn (in this process) serves the room, and each route is asked ``--requests``
times in a row (the first ask, which replays the guest's hands, timed apart) and ``--burst``
at once; the process's resident memory is sampled every 5 ms meanwhile. Prints p50/p99 per
route, the slowest of the burst, and the memory before, at its peak and after.

    python benchmarks/own_hands.py [--hands 1000000] [--database URL] [--requests 200]

``--database``: an empty PostgreSQL database (``postgresql://...``) or SQLite file (by
default a new SQLite file in a temporary folder, removed at the end unless ``--keep``);
``--reuse --database URL`` measures a room made before there, so that several runs are of
one room.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import shutil
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import httpx
from sqlalchemy import inspect, select, text, update

from sevenstud.bots import RuleBot
from sevenstud.deck import Deck
from sevenstud.games import Stakes, StudHiLo
from sevenstud.server.accounts import auth
from sevenstud.server.accounts.sessions import COOKIE
from sevenstud.server.app import create_app
from sevenstud.server.store import Store, open_store
from sevenstud.server.store.models import HandRow, Player, Sitting, TableRow, core
from sevenstud.server.tables.room import TableKeeper, create_table
from sevenstud.table import TableSettings

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' harness: tests/spawn.py
from tests.spawn import in_thread

SETTINGS = TableSettings(StudHiLo(Stakes(1, 2, 5, 10)), seats=5)
HANDS_A_TABLE = 1000
"""The other players' hands are dealt at one table per this many."""
CHUNK = 100_000
"""Hands added by one statement."""
ROUTES = ("/api/hands", "/api/history", "/api/stats")


def play_own_hands(store: Store, hands: int = 16, seed: str = "own hands") -> tuple[int, str]:
    """A guest plays ``hands`` hands at a table of their own with three bots (the same hands
    every run), then everyone stands up and the table is closed. Returns the guest's id and a
    login token of theirs."""
    guest = auth.guest(store)
    table_id = create_table(store, "Own hands", SETTINGS)
    keeper = TableKeeper(store, table_id, SETTINGS)
    keeper.sit_down("me", 1, 200, 0.0, player_id=guest)
    for seat in (2, 3, 4):
        keeper.sit_down(f"bot{seat}", seat, 200, 0.0)
    bot, now, played = RuleBot(seed=7), 1_764_547_200.0, 0  # 2025-12-01 00:00 UTC
    while played < hands:
        for name, stack in keeper.table.stacks().values():
            if stack < 50:  # nobody goes broke: the same four play every hand
                keeper.top_up(name, 200 - stack, now)
        keeper.start_hand(now, Deck.seeded(f"{seed} {played}"))
        while keeper.table.hand_in_progress:
            seat = keeper.table.to_act
            assert seat is not None
            view = keeper.table.view(seat).hand
            assert view is not None
            now += 1
            keeper.act(seat, bot.act(view), now)
        played, now = played + 1, now + 60
    for name in keeper.table.players:
        keeper.leave(name, now)
    with store.transaction() as s:  # closed: the app serves no table while it is measured
        s.execute(update(TableRow).where(TableRow.id == table_id).values(closed=True))
    return guest, auth.new_session(store, guest)


def the_guest(store: Store) -> int:
    """The guest of a room made before (:func:`play_own_hands`: its one guest)."""
    with store.session() as s:
        return int(s.scalars(select(Player.id).where(Player.name.like("guest-%"))).one())


def _contiguous(ids: list[int], what: str) -> int:
    """The first of ``ids``, which must follow one another (the SQL below counts on it)."""
    if ids != list(range(ids[0], ids[0] + len(ids))):
        raise RuntimeError(f"the {what} made are not numbered one after another")
    return ids[0]


def fill_room(store: Store, hands: int, say: Callable[[str], None] = lambda _: None) -> None:
    """Add ``hands`` finished hands of other players (three people and two bots a hand, a
    table per :data:`HANDS_A_TABLE` hands), each with the record of a hand already stored, and
    their rows of ``dealt_in`` (when the database has that table)."""
    postgres = store.engine.dialect.name == "postgresql"
    tables = max(1, -(-hands // HANDS_A_TABLE))
    stamp, batch = time.time(), secrets.token_hex(4)  # (names of one fill apart from another's)
    with store.transaction() as s:
        record, result = s.execute(
            select(HandRow.record, HandRow.result).where(HandRow.status == "finished").limit(1)
        ).one()
        game = s.scalar(select(TableRow.game).limit(1))
        made = s.execute(
            core(TableRow)
            .insert()
            .values(
                [
                    {
                        "name": f"Room {t}",
                        "game": game,
                        "settings": {"seats": 5},
                        "created_at": stamp,
                        "closed": True,
                    }
                    for t in range(tables)
                ]
            )
            .returning(core(TableRow).c.id)
        )
        first_table = _contiguous(sorted(made.scalars()), "tables")
        people = s.execute(
            core(Player)
            .insert()
            .values(
                [
                    {
                        "name": f"p{batch}-{i}",
                        "name_key": f"p{batch}-{i}",
                        "guest": True,
                        "balance": 0,
                        "created_at": stamp,
                        "refill_day": "",
                        "refills_that_day": 0,
                    }
                    for i in range(3 * tables)
                ]
            )
            .returning(core(Player).c.id)
        )
        player_ids = sorted(people.scalars())
        seats = []
        for t in range(tables):
            for seat in range(1, 6):
                person = seat <= 3
                seats.append(
                    {
                        "table_id": first_table + t,
                        "seat": seat,
                        "name": f"p{t}-{seat}" if person else f"bot{seat}",
                        "player_id": player_ids[3 * t + seat - 1] if person else None,
                        "bot": None if person else f"bot{seat}",
                        "bot_kind": None if person else "rule",
                        "stack": 0,
                        "open": False,
                        "sitting_out": False,
                    }
                )
        made = s.execute(core(Sitting).insert().values(seats).returning(core(Sitting).c.id))
        first_sitting = _contiguous(sorted(made.scalars()), "sittings")
        first_hand = int(s.scalar(select(HandRow.id).order_by(HandRow.id.desc()).limit(1)) or 0) + 1
    as_json = "CAST({} AS json)" if postgres else "{}"
    seat_list = " || ',' || ".join(f"(:s + 5 * (n.i % :t) + {k})" for k in range(5))
    sittings = as_json.format("'[' || " + seat_list + " || ']'")
    record_json, result_json = as_json.format(":record"), as_json.format(":result")
    columns = (
        f"SELECT :tb + n.i % :t, n.i / :t + 1, 'finished', {sittings}, {record_json}, {result_json}, "
        ":at + n.i * 0.5, :at + n.i * 0.5 + 30 "
    )
    into = "INSERT INTO hands (table_id, number, status, sittings, record, result, started_at, ended_at) "
    if postgres:
        statement = into + columns + "FROM generate_series(:start, :stop - 1) AS n(i)"
    else:
        numbers = "WITH RECURSIVE n(i) AS (SELECT :start UNION ALL SELECT i + 1 FROM n WHERE i + 1 < :stop) "
        statement = numbers + into + columns + "FROM n"
    indexed = "dealt_in" in inspect(store.engine).get_table_names()
    for start in range(0, hands, CHUNK):
        stop = min(hands, start + CHUNK)
        values = {
            "start": start,
            "stop": stop,
            "t": tables,
            "tb": first_table,
            "s": first_sitting,
            "record": json.dumps(record),
            "result": json.dumps(result),
            "at": stamp - hands,
        }
        with store.transaction() as s:
            s.execute(text(statement), values)
            if indexed:  # who was dealt in: the three people of the hand's table
                s.execute(
                    text(
                        "INSERT INTO dealt_in (player_id, hand_id, hero, seat, table_id, number, started_at) "
                        "SELECT s.player_id, h.id, s.seat - 1, s.seat, h.table_id, h.number, h.started_at "
                        "FROM hands h JOIN sittings s ON s.table_id = h.table_id "
                        "WHERE h.id >= :first AND h.id < :last AND s.player_id IS NOT NULL"
                    ),
                    {"first": first_hand + start, "last": first_hand + stop},
                )
        say(f"  {stop:,} hands")
    with store.engine.connect() as c:  # the planner's figures, as a room's autovacuum keeps them
        c.execution_options(isolation_level="AUTOCOMMIT").exec_driver_sql("ANALYZE")


def _rss() -> int:
    """This process's resident memory, in bytes."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


@contextmanager
def sampled() -> Iterator[list[int]]:
    """The resident memory every 5 ms for the ``with`` block: ``[before, peak, after]``."""
    figures = [_rss(), _rss(), 0]
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.005):
            figures[1] = max(figures[1], _rss())

    thread = threading.Thread(target=sample, daemon=True)
    thread.start()
    try:
        yield figures
    finally:
        done.set()
        thread.join()
        figures[2] = _rss()
        figures[1] = max(figures[1], figures[2])


@dataclass(slots=True)
class Timing:
    """One route's figures (milliseconds)."""

    route: str
    first: float
    p50: float
    p99: float
    burst_max: float


def measure(base: str, token: str, requests: int, burst: int) -> list[Timing]:
    """Each route asked once (replaying the guest's hands: the first ask), then ``requests``
    times in a row, then ``burst`` times at once."""
    found = []
    with httpx.Client(base_url=base, cookies={COOKIE: token}, timeout=600) as client:

        def ask(route: str) -> float:
            began = time.perf_counter()
            client.get(route).raise_for_status()
            return (time.perf_counter() - began) * 1000

        for route in ROUTES:
            first = ask(route)
            times = sorted(ask(route) for _ in range(requests))
            with ThreadPoolExecutor(burst) as pool:
                at_once = list(pool.map(ask, [route] * burst))
            p99 = times[min(len(times) - 1, round(0.99 * (len(times) - 1)))]
            found.append(Timing(route, first, statistics.median(times), p99, max(at_once)))
    return found


def run(store: Store, token: str, requests: int, burst: int) -> tuple[list[Timing], list[int]]:
    """Serve ``store`` and measure (see the module): the timings and the memory figures."""
    with in_thread(create_app(store, pause=60, lease_seconds=600)) as address, sampled() as memory:
        timings = measure(f"http://{address}", token, requests, burst)
    return timings, memory


def main(argv: list[str] | None = None) -> int:
    """The command line: see the module."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--hands", type=int, default=1_000_000, help="other players' hands (default 1,000,000)"
    )
    parser.add_argument("--own", type=int, default=16, help="the guest's own hands (default 16)")
    parser.add_argument("--database", help="an empty database (default: a new SQLite file)")
    parser.add_argument("--reuse", action="store_true", help="measure the room made before in --database")
    parser.add_argument("--keep", action="store_true", help="keep the SQLite file made")
    parser.add_argument("--requests", type=int, default=200, help="asks of each route in a row (default 200)")
    parser.add_argument("--burst", type=int, default=16, help="asks of each route at once (default 16)")
    args = parser.parse_args(argv)
    if args.reuse and not args.database:
        parser.error("--reuse measures the room in --database: name it")
    folder = Path(tempfile.mkdtemp(prefix="own-hands-"))
    url = args.database or f"sqlite:///{folder / 'room.sqlite3'}"
    store = open_store(url)
    try:
        if args.reuse:
            token = auth.new_session(store, the_guest(store))
        else:
            began = time.perf_counter()
            _, token = play_own_hands(store, args.own)
            fill_room(store, args.hands, say=print)
            print(f"room of {args.hands + args.own:,} hands made in {time.perf_counter() - began:.0f} s")
        timings, (before, peak, after) = run(store, token, args.requests, args.burst)
        print(
            f"{store.engine.dialect.name}, a guest with {args.own} hands; "
            f"{args.requests} asks in a row, {args.burst} at once"
        )
        print(f"{'route':<14}{'first ms':>10}{'p50 ms':>9}{'p99 ms':>9}{'burst max ms':>14}")
        for t in timings:
            print(f"{t.route:<14}{t.first:>10.1f}{t.p50:>9.1f}{t.p99:>9.1f}{t.burst_max:>14.1f}")
        mib = 1024 * 1024
        print(
            f"memory: {before / mib:.0f} MiB before, {peak / mib:.0f} MiB at the peak, "
            f"{after / mib:.0f} MiB after"
        )
        if args.keep and not args.database:
            print(f"kept: --reuse --database {url}")
    finally:
        store.close()
        if not (args.keep and not args.database):
            shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
