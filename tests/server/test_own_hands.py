"""A player's own hands cost the same in any size of room (issue 36, point 1), on SQLite and
PostgreSQL: the hand list, the history, the statistics and the downloads of one player read
the same rows whether the room holds a few hundred hands or thousands more of other players'
(benchmarks/own_hands.py makes the room by SQL, and measures it at a million hands); the index
of who was dealt in is written with each hand's end and made by its migration for the hands
before it; the summaries kept in memory are bounded by bytes; a download of all one's hands is
sent as it is made and limited per account."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from sqlalchemy import event, select

from sevenstud.history.phh import dumps_all
from sevenstud.server.accounts import auth
from sevenstud.server.accounts.downloads import Downloads, own_hands, phh_for
from sevenstud.server.accounts.sessions import COOKIE
from sevenstud.server.accounts.summaries import Summaries, weight
from sevenstud.server.app import create_app
from sevenstud.server.audit import audit
from sevenstud.server.limits import Limits, RateLimited
from sevenstud.server.store import Store, checks, open_store
from sevenstud.server.store.models import DealtIn, HandRow, Sitting
from tests.server import benches
from tests.spawn import in_thread


def _bench() -> Any:
    """benchmarks/own_hands.py."""
    return benches.bench("own_hands")


class RowsRead:
    """Every SELECT of the store's engine on the hands, their index or their sittings, kept
    while :attr:`on`, and how many rows they returned (each run again on a quiet connection)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.on = False
        self.seen: list[tuple[str, Any]] = []
        self.largest = 0
        event.listen(store.engine, "after_cursor_execute", self._after)

    def _after(self, _c: Any, _cur: Any, statement: str, parameters: Any, _context: Any, _many: bool) -> None:
        text = statement.lower()
        if self.on and text.lstrip().startswith("select") and any(
            name in text for name in ("hands", "dealt_in", "sittings")
        ):
            self.seen.append((statement, parameters))

    def during(self, ask: Any) -> int:
        """The rows read by those SELECTs while ``ask()`` runs (:attr:`largest`: the most
        that one of them read)."""
        self.seen, self.on = [], True
        try:
            ask()
        finally:
            self.on = False
        rows = self.largest = 0
        with self.store.engine.connect() as c:
            for statement, parameters in self.seen:
                read = len(c.exec_driver_sql(statement, parameters).all())
                rows, self.largest = rows + read, max(self.largest, read)
        return rows

    def close(self) -> None:
        event.remove(self.store.engine, "after_cursor_execute", self._after)


INDEXED = select(DealtIn.hand_id, DealtIn.player_id, DealtIn.hero, DealtIn.seat)
ROUTES = ("/api/hands", "/api/history", "/api/stats", "/api/stats/players?name=bot2", "/api/hands/download")


def test_a_players_pages_read_the_same_rows_in_a_room_of_200_hands_or_of_5200(store: Store) -> None:
    bench = _bench()
    _, token = bench.play_own_hands(store, 6)
    bench.fill_room(store, 200)
    counting = RowsRead(store)
    try:
        with (
            in_thread(create_app(store, pause=60, lease_seconds=600)) as address,
            httpx.Client(base_url=f"http://{address}", cookies={COOKIE: token}, timeout=120) as client,
        ):

            def rows() -> dict[str, int]:
                found = {}
                for route in ROUTES:
                    client.get(route).raise_for_status()  # the first ask replays (and keeps)
                    found[route] = counting.during(lambda route=route: client.get(route).raise_for_status())
                return found

            small = rows()
            bench.fill_room(store, 5000)
            large = rows()
    finally:
        counting.close()
    assert large == small
    # A page of 6 hands reads about 6 rows of each kind, not the room's hundreds.
    assert all(n <= 60 for n in small.values()), small


def test_the_index_is_written_with_each_hand_and_made_by_the_migration_for_those_before(db_url: str) -> None:
    from alembic import command
    from alembic.config import Config

    from sevenstud.server.store import MIGRATIONS

    store = open_store(db_url)
    try:
        bench = _bench()
        player, _ = bench.play_own_hands(store, 5)
        second, _ = bench.play_own_hands(store, 1, seed="other")
        idle = auth.guest(store)  # never dealt in: no row
        with store.session() as s:
            written = {tuple(row) for row in s.execute(INDEXED)}
            truth = set()
            for row in s.scalars(select(HandRow).where(HandRow.status == "finished")).all():
                for hero, sitting_id in enumerate(row.sittings):
                    sitting = s.get(Sitting, sitting_id)
                    assert sitting is not None
                    if sitting.player_id is not None:
                        truth.add((row.id, sitting.player_id, hero, sitting.seat))
        assert written == truth and {p for _, p, _, _ in written} == {player, second}
        assert idle not in {p for _, p, _, _ in written} and audit(store).ok
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        with store.engine.begin() as connection:  # back to before the index, and up again
            config.attributes["connection"] = connection
            command.downgrade(config, "0008_tournament_servers")
            command.upgrade(config, "head")
        with store.session() as s:
            again = {tuple(row) for row in s.execute(INDEXED)}
        assert again == truth
        report = audit(store)
        assert report.ok, str(report)
        with store.transaction() as s:  # a row missing is the audit's to find
            s.delete(s.scalars(select(DealtIn).limit(1)).one())
        assert any("is not in dealt_in" in problem for problem in audit(store).problems)
    finally:
        store.close()


def test_the_audit_reads_a_large_room_in_batches_and_finds_a_problem_in_any(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rule: `sevenstud audit`'s memory does not grow with the room. It once read every hand's
    record at once (a room of a million hands took it past 16 GiB): now no statement of it reads
    more than a few batches' rows of the hands, their sittings or their index, and a problem in
    a late batch is found as in the first."""
    monkeypatch.setattr(checks, "BATCH", 50)
    bench = _bench()
    me, _ = bench.play_own_hands(store, 6)
    bench.fill_room(store, 500)
    counting = RowsRead(store)
    reports: list[Any] = []
    try:
        counting.during(lambda: reports.append(audit(store)))
    finally:
        counting.close()
    assert reports[0].ok and reports[0].hands == 506, str(reports[0])
    assert counting.largest <= 3 * 50, counting.largest  # (a hand's index: three people)
    with store.transaction() as s:
        finished = select(HandRow).where(HandRow.status == "finished")
        late = s.scalars(finished.order_by(HandRow.id.desc())).all()
        tampered, unindexed, last = late[120], late[60], late[0]
        tampered.result = {**(tampered.result or {}), "stacks": [0] * len(tampered.sittings)}
        s.delete(s.scalars(select(DealtIn).where(DealtIn.hand_id == unindexed.id).limit(1)).one())
        s.add(DealtIn(hand_id=last.id, player_id=me, hero=9, seat=9, table_id=last.table_id,
                      number=last.number, started_at=last.started_at))  # fmt: skip
    problems = audit(store).problems
    assert any(f"hand {tampered.number} of table {tampered.table_id}: replays to" in p for p in problems)
    assert any(f"hand row {unindexed.id}: player" in p and "is not in dealt_in" in p for p in problems)
    assert any(f"hand row {last.id}: dealt_in lists player" in p for p in problems), problems


def test_the_summaries_kept_are_bounded_by_bytes_and_a_page_needs_none_kept(store: Store) -> None:
    bench = _bench()
    player, _ = bench.play_own_hands(store, 8)
    summaries = Summaries(store)
    every = summaries.of(player)
    assert len(every) == 8
    sizes = [weight(m.hand) for m in every]
    assert all(1_000 < size < 20_000 for size in sizes), sizes  # about 5 KB: not "a few hundred bytes"
    assert summaries.held == (8, sum(sizes))
    small = Summaries(store, kept_bytes=3 * max(sizes))
    assert small.of(player) == every  # all of them, though it keeps 3 at most
    hands, held = small.held
    assert hands <= 3 and held <= 3 * max(sizes)
    total, page = small.page(player, 2, 3)
    assert total == 8 and page == every[2:5]
    assert small.page(player, 8, 3) == (8, [])


def test_a_download_of_all_ones_hands_is_sent_as_made_and_limited_per_account(store: Store) -> None:
    bench = _bench()
    player, token = bench.play_own_hands(store, 4)
    limits = Limits(downloads_per_account=2, downloads_at_once=1)
    whole = dumps_all(map(phh_for, own_hands(store, player)))
    with (
        in_thread(create_app(store, pause=60, lease_seconds=600, limits=limits)) as address,
        httpx.Client(base_url=f"http://{address}", cookies={COOKIE: token}, timeout=60) as client,
    ):
        for _ in range(2):
            got = client.get("/api/hands/download")
            assert got.status_code == 200 and got.text == whole
            # sent as it is made: no length known beforehand
            assert got.headers.get("transfer-encoding") == "chunked" and "content-length" not in got.headers
            assert got.headers["content-disposition"].endswith('.phhs"')
        refused = client.get("/api/hands/download", params={"format": "pokerstars"})
        assert refused.status_code == 429 and refused.json()["limit"] == "downloads_per_account"
        assert int(refused.headers["retry-after"]) > 0
        one = own_hands(store, player)[0].row_id
        assert client.get(f"/api/hands/{one}").status_code == 200  # one hand is not limited
    downloads = Downloads(Limits(downloads_at_once=1))
    end = downloads.begin(player)
    with pytest.raises(RateLimited) as refused_at_once:
        downloads.begin(player)
    assert refused_at_once.value.limit == "downloads_at_once"
    downloads.begin(player + 1)()  # another account's is its own
    end()
    end()  # ending twice ends once
    downloads.begin(player)()
