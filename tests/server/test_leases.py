"""Tables shared out among server processes by leases (leases.py), on both databases; and two
real `sevenstud serve` processes on one PostgreSQL database, one killed (SIGKILL)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from sqlalchemy import func, select

from sevenstud.games import Stakes, StudHiLo
from sevenstud.server.accounts import auth
from sevenstud.server.accounts.sessions import COOKIE
from sevenstud.server.audit import audit
from sevenstud.server.protocol import PROTOCOL_VERSION
from sevenstud.server.store import Store, open_store
from sevenstud.server.store.models import HandRow, Sitting, TableLease, TableRow, Transfer
from sevenstud.server.tables.keeper import LeaseLost
from sevenstud.server.tables.leases import LeaseError, LeaseKeeper
from sevenstud.server.tables.room import TableKeeper, create_table
from sevenstud.table import TableSettings
from tests.server.benches import load_bench
from tests.server.watch import watching
from tests.spawn import free_port, spawn

SETTINGS = TableSettings(StudHiLo(Stakes(1, 2, 5, 10)), seats=4)


class Process:
    """One server process's keeper with a clock of the test's, recording its rooms."""

    def __init__(self, store: Store, url: str, clock: list[float], ttl: float = 10.0) -> None:
        self.opened: list[int] = []
        self.closed: list[int] = []
        self.stopped: set[int] = set()  # rooms that stopped under the keeper (a failed write)

        async def close(table_id: int) -> None:
            self.closed.append(table_id)

        self.keeper = LeaseKeeper(
            store,
            url,
            open_room=lambda row: self.opened.append(row.id),
            close_room=close,
            summary=lambda table_id: {"game": "StudHiLo", "hands": 7},
            serving=lambda table_id: table_id not in self.stopped,
            ttl=ttl,
            clock=lambda: clock[0],
        )

    def sweep(self) -> Any:
        return asyncio.run(self.keeper.sweep())


@pytest.fixture
def second(db_url: str, store: Store) -> Iterator[Store]:
    """Another process's connection to the same database as ``store``."""
    other = open_store(db_url)
    try:
        yield other
    finally:
        other.close()


def test_a_table_is_served_by_one_process_at_a_time(store: Store, second: Store) -> None:
    table = create_table(store, "one", SETTINGS)
    clock = [1000.0]
    a, b = Process(store, "http://a:1", clock), Process(second, "http://b:2", clock)
    a.sweep()
    b.sweep()
    assert a.opened == [table] and b.opened == []
    clock[0] += 4
    a.sweep()  # a's renewal keeps it, and writes its lobby line
    b.sweep()
    assert b.opened == [] and a.closed == []
    assert b.keeper.server_of(table) == "http://a:1" and a.keeper.server_of(table) == "http://a:1"
    assert b.keeper.lobby() == [{"id": table, "game": "StudHiLo", "hands": 7, "server": "http://a:1"}]


def test_a_new_table_is_leased_by_the_process_that_made_it(store: Store, second: Store) -> None:
    table = create_table(store, "new", SETTINGS)
    clock = [1000.0]
    a, b = Process(store, "http://a:1", clock), Process(second, "http://b:2", clock)
    assert a.keeper.claim_new(table)
    assert not b.keeper.claim_new(table)
    b.sweep()
    assert b.opened == [] and b.keeper.server_of(table) == "http://a:1"


def _hand_in_progress(store: Store, table: int) -> tuple[int, int]:
    """Two guests seated (100 each) and a hand dealt with chips in the pot."""
    keeper = TableKeeper(store, table, SETTINGS)
    first, other = auth.guest(store), auth.guest(store)
    keeper.sit_down("ann", 1, 100, 1.0, player_id=first)
    keeper.sit_down("bob", 2, 100, 1.0, player_id=other)
    keeper.start_hand(2.0)
    to_act = keeper.table.to_act
    assert to_act is not None
    view = keeper.table.view(to_act).hand
    assert view is not None
    keeper.act(to_act, view.legal_actions[-1], 3.0)  # a completion: chips in the pot
    return first, other


def test_an_expired_lease_is_taken_over_and_the_hand_in_progress_refunded(
    store: Store, second: Store
) -> None:
    table = create_table(store, "dies", SETTINGS)
    clock = [1000.0]
    a, b = Process(store, "http://a:1", clock), Process(second, "http://b:2", clock)
    a.sweep()
    players = _hand_in_progress(store, table)
    clock[0] += 9.9  # not yet expired: b leaves it alone
    assert b.sweep().taken == [] and b.opened == []
    clock[0] += 0.2  # a died without renewing: its lease ran out
    found = b.sweep()
    assert b.opened == [table] and found.cancelled == 1
    with second.session() as s:
        assert s.scalar(HandRow.__table__.select().with_only_columns(HandRow.status)) == "cancelled"
        # Every chip put into the cut-off hand is back on its seat (recover keeps the seats).
        stacks = s.execute(select(Sitting.player_id, Sitting.stack)).all()
        assert sorted(stacks) == sorted((p, 100) for p in players)
        lease = s.get(TableLease, table)
        assert lease is not None and lease.owner == "http://b:2"
    report = audit(second)
    assert report.ok, str(report)
    a.sweep()  # a was only slow: it learns its table is gone and stops its room
    assert a.closed == [table] and a.keeper.server_of(table) == "http://b:2"


def test_a_slow_process_writes_no_more_to_a_table_another_took_over(store: Store, second: Store) -> None:
    """The process that lost the lease was only slow (its renewal came late): it still holds
    the table in memory and plays on, but its next write is refused (its lease checked in the
    write's own transaction) and changes nothing; the one that took the table over and
    refunded the hand is the only one writing it, and the ledger stays whole."""
    table = create_table(store, "slow", SETTINGS)
    clock = [1000.0]
    a, b = Process(store, "http://a:1", clock), Process(second, "http://b:2", clock)
    a.sweep()
    keeper = TableKeeper(store, table, SETTINGS, lease=a.keeper.instance)
    first, other = auth.guest(store), auth.guest(store)
    keeper.sit_down("ann", 1, 100, 1.0, player_id=first)
    keeper.sit_down("bob", 2, 100, 1.0, player_id=other)
    keeper.start_hand(2.0)
    clock[0] += 10.1  # a's renewal is late: b takes the table over and refunds the hand
    assert b.sweep().cancelled == 1
    with second.session() as s:
        written = s.scalar(select(func.count()).select_from(Transfer))
    # a plays its hand on to the end, as far as it knows: nothing of it is written.
    to_act = keeper.table.to_act
    assert to_act is not None
    view = keeper.table.view(to_act).hand
    assert view is not None
    with pytest.raises(LeaseLost, match=f"table {table} is served by another process"):
        keeper.act(to_act, view.legal_actions[-1], 3.0)  # chips into the pot, as a would have
    with second.session() as s:
        assert s.scalar(select(func.count()).select_from(Transfer)) == written
        assert s.scalar(select(HandRow.status)) == "cancelled"
    report = audit(second)
    assert report.ok, str(report)


def test_a_table_whose_room_stopped_is_given_up_and_taken_over_not_renewed(
    store: Store, second: Store
) -> None:
    """A room that stopped (a write that failed) leaves its table served by nobody: renewed
    for ever with it, the table was dead until a restart (a 10,000-entrant tournament on two
    processes stalled so). Unserved two rounds running, its lease is given up, and the next
    round, of any process (here its own), takes it over and refunds its hand."""
    table = create_table(store, "stops", SETTINGS)
    clock = [1000.0]
    a, b = Process(store, "http://a:1", clock), Process(second, "http://b:2", clock)
    a.sweep()
    players = _hand_in_progress(store, table)
    a.stopped.add(table)
    a.sweep()  # a moment without a room: kept (a room may be opening)
    assert a.keeper.server_of(table) == "http://a:1" and a.closed == []
    clock[0] += 3
    found = a.sweep()  # still nobody serving it: given up, and taken again at once, recovered
    assert a.closed == [table] and found.cancelled == 1 and a.opened == [table, table]
    a.stopped.clear()  # its new room serves it
    with second.session() as s:
        assert sorted(s.execute(select(Sitting.player_id, Sitting.stack)).all()) == sorted(
            (p, 100) for p in players
        )
    report = audit(second)
    assert report.ok, str(report)
    assert b.sweep().taken == []  # served again, by a: b leaves it alone


def test_a_table_taken_while_a_round_runs_is_neither_failed_nor_lost(store: Store) -> None:
    """A tournament takes its tables' leases from its own threads (:meth:`LeaseKeeper.take`)
    while a round may be running on the loop. The round once iterated ``held`` itself: a take
    at that moment failed the whole round ("dictionary changed size during iteration"), so
    nothing was renewed, and under a 10,000-entrant tournament a live process's leases ran out
    and the other process took its tables over. And a table taken after the renewal was
    counted as lost, its room just opened closed again."""
    first, later = create_table(store, "first", SETTINGS), create_table(store, "later", SETTINGS)
    clock = [1000.0]
    a = Process(store, "http://a:1", clock)
    assert a.keeper.take(first)
    taken: list[bool] = []

    def summary(table_id: int) -> dict[str, Any]:
        if not taken:  # another thread takes a table just now
            taken.append(a.keeper.take(later))
        return {"game": "StudHiLo", "hands": 7}

    a.keeper.summary = summary
    clock[0] += 4
    found = a.sweep()
    assert taken == [True]
    assert found.lost == set() and a.closed == []
    assert set(a.keeper.held) == {first, later}
    with store.session() as s:  # both renewed by the round, or taken after it: neither ran out
        assert all(lease.expires_at >= clock[0] + 5 for lease in s.scalars(select(TableLease)))


def test_a_process_restarted_at_the_same_address_takes_its_tables_back_at_once(
    store: Store, second: Store
) -> None:
    table = create_table(store, "again", SETTINGS)
    clock = [1000.0]
    Process(store, "http://a:1", clock).sweep()
    _hand_in_progress(store, table)
    restarted, other = Process(second, "http://a:1", clock), Process(second, "http://b:2", clock)
    other.sweep()
    assert other.opened == []
    found = restarted.sweep()
    assert restarted.opened == [table] and found.cancelled == 1
    assert audit(second).ok


def test_a_clean_stop_gives_the_leases_up_at_once(store: Store, second: Store) -> None:
    table = create_table(store, "stops", SETTINGS)
    clock = [1000.0]
    a, b = Process(store, "http://a:1", clock), Process(second, "http://b:2", clock)
    a.sweep()
    asyncio.run(a.keeper.stop())
    assert a.closed == [table]
    b.sweep()
    assert b.opened == [table]


def test_a_process_that_cannot_renew_stops_its_rooms_before_its_lease_runs_out(store: Store) -> None:
    table = create_table(store, "cut off", SETTINGS)
    clock = [1000.0]
    a = Process(store, "http://a:1", clock, ttl=9.0)

    def unreachable(now: float, summaries: object, unserved: object = None, held: object = None) -> Any:
        raise OSError("the database does not answer")

    a.sweep()
    a.keeper._round = unreachable  # type: ignore[method-assign]
    clock[0] += 3
    with pytest.raises(OSError):
        a.sweep()
    assert a.closed == []  # six seconds left: time enough to try again
    clock[0] += 3.5
    with pytest.raises(OSError):
        a.sweep()
    assert a.closed == [table] and a.keeper.server_of(table) is None


def test_closed_tables_are_not_taken(store: Store) -> None:
    table = create_table(store, "closed", SETTINGS)
    with store.session() as s, s.begin():
        row = s.get(TableRow, table)
        assert row is not None
        row.closed = True
    a = Process(store, "http://a:1", [1000.0])
    a.sweep()
    assert a.opened == []


@pytest.mark.parametrize("url", ["a:1", "ftp://a", "", "http://" + "x" * 200])
def test_a_bad_public_address_is_refused(store: Store, url: str) -> None:
    with pytest.raises(LeaseError, match="public address"):
        Process(store, url, [0.0])


def test_a_lease_lasts_a_positive_time(store: Store) -> None:
    with pytest.raises(LeaseError, match="positive"):
        Process(store, "http://a:1", [0.0], ttl=0)


# ---------------------------------------------------------------- two real processes


def _serve(port: int, database: str, ttl: float) -> subprocess.Popen[str]:
    url = f"http://127.0.0.1:{port}"
    args = ["--public-url", url, "--lease-seconds", str(ttl)]
    return spawn(database, port=port, pause=0.2, args=args, stderr=subprocess.PIPE).process


def _wait_until(what: str, test: Any, seconds: float = 30.0) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        try:
            found = test()
        except (OSError, httpx.HTTPError):
            found = None
        if found:
            return found
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {seconds} s for {what}")
        time.sleep(0.2)


def _hand_ids(store: Store, table: int, status: str) -> list[int]:
    with store.session() as s:
        query = select(HandRow.id).where(HandRow.table_id == table, HandRow.status == status)
        return list(s.scalars(query.order_by(HandRow.id)))


def _their_turn(ws: Any, seat: int) -> int | None:
    """The hand number of the next ``clock`` message for ``seat`` read from the socket (None
    when none came within a second)."""
    try:
        message = json.loads(ws.recv(timeout=1.0))
    except TimeoutError:
        return None
    if message.get("type") == "clock" and message.get("seat") == seat:
        return int(message["hand"])
    return None


def _number(store: Store, hand_id: int) -> int | None:
    with store.session() as s:
        row = s.get(HandRow, hand_id)
        return None if row is None else int(row.number)


def _servers_of(lobby_of: str) -> dict[int, str]:
    return {t["id"]: t["server"] for t in httpx.get(f"{lobby_of}/api/lobby").json()}


def test_two_servers_on_one_database_one_killed_its_tables_go_on_at_the_other(pg_cluster: Any) -> None:
    if pg_cluster is None:
        message = "PostgreSQL is not installed (tools/postgres.sh installs it; make test runs it)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from websockets.sync.client import connect

    bench = load_bench()
    database = pg_cluster.create_database()
    ttl = 2.0
    ports = [free_port(), free_port()]
    servers = [_serve(port, database, ttl) for port in ports]
    a, b = (f"http://127.0.0.1:{port}" for port in ports)
    store = open_store(database)
    try:
        for url in (a, b):
            _wait_until(f"{url} to answer", lambda url=url: httpx.get(f"{url}/api/lobby").status_code == 200)
        with httpx.Client(base_url=a) as client:
            client.post("/api/guest").raise_for_status()
            token = client.cookies[COOKIE]
            body = {"game": "stud8", "seats": 4, "bots": 2}
            tables = [client.post("/api/tables", json=body).json()["id"] for _ in range(2)]
        _wait_until("b's lobby to show a's tables", lambda: _servers_of(b) == dict.fromkeys(tables, a))
        # A person sits at a's first table and does not act: the hand waits on them when a dies.
        with connect(
            f"ws://127.0.0.1:{ports[0]}/ws", additional_headers={"Cookie": f"{COOKIE}={token}"}
        ) as ws:
            ws.send(json.dumps({"type": "hello", "version": PROTOCOL_VERSION, "table": tables[0]}))
            ws.send(json.dumps({"type": "sit", "seat": 1, "buy_in": 100}))
            # The hand waiting on the person: the first whose clock is theirs (a hand already
            # under way when they sat is the bots', and may finish before the kill).
            turn = _wait_until("the person's turn", lambda: _their_turn(ws, seat=1))
            cut_off = _wait_until(
                "a hand waiting on the person",
                lambda: [h for h in _hand_ids(store, tables[0], "playing") if _number(store, h) == turn],
            )
            with watching(f"127.0.0.1:{ports[0]}", tables[1]):  # bots alone deal only while watched
                _wait_until("hands of the bots' table", lambda: _hand_ids(store, tables[1], "finished"))
            servers[0].send_signal(signal.SIGKILL)
            servers[0].wait(10)
        _wait_until(
            "b to take a's tables over", lambda: _servers_of(b) == dict.fromkeys(tables, b), 6 * ttl + 10
        )
        # b's lease shows in the lobby as it takes the table, a moment before its recovery has
        # cancelled and refunded the hand that was cut off: wait for that too.
        _wait_until(
            "b to cancel the cut-off hand",
            lambda: set(cut_off) <= set(_hand_ids(store, tables[0], "cancelled")),
            2 * ttl + 10,
        )
        report = audit(store)
        assert report.ok, str(report)
        with store.session() as s:  # the audit found its pot empty: here is where its chips went
            refunds = s.scalars(select(Transfer.hand_id).where(Transfer.reason == "refund")).all()
        assert set(cut_off) <= set(refunds)
        finished = len(_hand_ids(store, tables[0], "finished"))
        # The table goes on at b: the person comes back (the lobby says where) and plays hands,
        # at a person's pace: acting the moment the bots let it, with 0.2 s between hands, a
        # client passed the server's 20 messages a second once it was fast enough.
        result = asyncio.run(
            bench.play(b, tables[:1], seats=[1], tokens=(token,), seconds=8.0, think=(0.1, 0.2))
        )
        assert result.errors == [], result.errors
        assert result.hands >= 1 and result.latencies
        assert len(_hand_ids(store, tables[0], "finished")) > finished
        assert len(_hand_ids(store, tables[1], "finished")) > 0
        report = audit(store)
        assert report.ok, str(report)
    finally:
        store.close()
        for server in servers:
            if server.poll() is None:
                server.terminate()
                try:
                    server.wait(20)
                except subprocess.TimeoutExpired:
                    server.kill()
    stderr = "".join(server.stderr.read() for server in servers if server.stderr is not None)
    assert "Traceback" not in stderr, stderr
