"""The tables' write path under load (issue 10, point 7): an action is a few Core statements
in one transaction, the ledger's account ids come from a cache that forgets what a rollback
undid, SQLite runs under WAL with synchronous=NORMAL, and what the keeper wrote (stacks, the
hand's record) is what the table holds, action after action; on SQLite and PostgreSQL."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from sqlalchemy import event, select, text

from sevenstud.deck import Deck
from sevenstud.games import Stakes, StudHiLo
from sevenstud.server.audit import audit
from sevenstud.server.store import Store, ledger
from sevenstud.server.store.models import HandRow, LedgerAccount, Sitting
from sevenstud.server.tables.room import TableKeeper, create_table
from sevenstud.table import TableSettings
from sevenstud.wire import hand_to_record

SETTINGS = TableSettings(StudHiLo(Stakes(1, 2, 5, 10)), seats=4)


@contextmanager
def _statements(store: Store) -> Iterator[list[str]]:
    """Every SQL statement the engine runs meanwhile."""
    seen: list[str] = []

    def before(_conn: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        seen.append(statement.split(None, 1)[0].upper())

    event.listen(store.engine, "before_cursor_execute", before)
    try:
        yield seen
    finally:
        event.remove(store.engine, "before_cursor_execute", before)


def _table_of_bots(store: Store) -> TableKeeper:
    keeper = TableKeeper(store, create_table(store, "load", SETTINGS), SETTINGS)
    for seat in (1, 2, 3):
        keeper.add_bot(seat, 0.1 * seat)
    return keeper


def _bot_acts(keeper: TableKeeper, now: float) -> None:
    seat = keeper.table.to_act
    assert seat is not None
    bot = keeper.occupants[f"bot{seat}"].bot
    view = keeper.table.view(seat).hand
    assert bot is not None and view is not None
    keeper.act(seat, bot.act(view), now)


def test_an_action_is_a_few_writes_and_no_look_up(store: Store) -> None:
    keeper = _table_of_bots(store)
    keeper.start_hand(1.0, Deck.seeded(5))
    _bot_acts(keeper, 2.0)  # the first action makes the accounts it needs; the others know them
    with _statements(store) as seen:
        _bot_acts(keeper, 3.0)
    writes = [s for s in seen if s in ("INSERT", "UPDATE")]
    # The events, the transfers, their entries, the stacks that changed, the hand's record:
    # never a SELECT.
    assert "SELECT" not in seen, seen
    assert 1 <= len(writes) <= 5, seen


def test_every_stack_written_is_the_tables_after_every_action(store: Store) -> None:
    keeper = _table_of_bots(store)
    now = 1.0
    for deck in (3, 8):
        keeper.start_hand(now, Deck.seeded(deck))
        while keeper.table.hand_in_progress:
            now += 1.0
            _bot_acts(keeper, now)
            with store.session() as s:
                stored = {r.name: r.stack for r in s.scalars(select(Sitting).where(Sitting.open.is_(True)))}
            assert stored == {x.player: x.stack for x in keeper.table.view(None).seats}
        now += 5.0
    report = audit(store)
    assert report.ok, report.problems
    assert report.hands == 2


def test_a_hands_record_is_the_hand_as_it_stands_after_every_action(store: Store) -> None:
    keeper = _table_of_bots(store)
    keeper.start_hand(1.0, Deck.seeded(5))
    hand = keeper._hand
    assert hand is not None
    now = 1.0
    while keeper.table.hand_in_progress:
        now += 1.0
        _bot_acts(keeper, now)
        with store.session() as s:
            row = s.scalars(select(HandRow)).one()
            assert row.record == hand_to_record(hand)
    with store.session() as s:
        row = s.scalars(select(HandRow)).one()
        assert row.status == "finished" and row.result is not None
    assert audit(store).ok


def test_an_account_a_rollback_undid_is_made_again(store: Store) -> None:
    ids = ledger.AccountIds()
    with pytest.raises(RuntimeError), store.engine.begin() as c:
        ids.get(c, ledger.POT, 77)
        raise RuntimeError("the write failed")
    ids.rolled_back()
    with store.engine.begin() as c:
        other = ids.get(c, ledger.POT, 78)  # would take the undone id, were ids reused
        pot = ids.get(c, ledger.POT, 77)
        ledger.write_moves(c, [ledger.Move(ids.get(c, ledger.BANK), pot, 5, "test")])
    ids.committed()
    assert pot != other
    with store.session() as s:
        assert ledger.balance_of(s, pot) == 5
        found = s.scalar(select(LedgerAccount.id).where(LedgerAccount.kind == "pot", LedgerAccount.ref == 77))
        assert found == pot


@pytest.mark.parametrize(
    ("amount", "same", "says"),
    [(0, False, "positive whole number"), (-3, False, "positive whole number"), (4, True, "to itself")],
)
def test_a_bad_move_is_refused_and_writes_nothing(store: Store, amount: int, same: bool, says: str) -> None:
    ids = ledger.AccountIds()
    with store.engine.begin() as c:
        bank, house = ids.get(c, ledger.BANK), ids.get(c, ledger.HOUSE)
    with pytest.raises(ledger.LedgerError, match=says), store.engine.begin() as c:
        ledger.write_moves(c, [ledger.Move(bank, bank if same else house, amount, "test")])
    with store.session() as s:
        assert ledger.balance_of(s, bank) == ledger.balance_of(s, house) == 0


def test_sqlite_runs_under_wal_with_synchronous_normal(store: Store) -> None:
    if store.engine.dialect.name != "sqlite":
        pytest.skip("PRAGMAs are SQLite's")
    with store.engine.connect() as c:
        assert c.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert c.execute(text("PRAGMA synchronous")).scalar() == 1  # NORMAL (FULL is 2)


def test_sqlite_writers_queue_on_one_lock_postgresql_on_none(store: Store) -> None:
    sqlite = store.engine.dialect.name == "sqlite"
    assert store.inline is sqlite  # SQLite's tables step on the event loop, PostgreSQL's in threads

    def another_thread_may_write() -> bool:
        got: list[bool] = []

        def attempt() -> None:
            lock = store._writer
            got.append(lock is None or lock.acquire(blocking=False))
            if lock is not None and got[0]:
                lock.release()

        thread = threading.Thread(target=attempt)
        thread.start()
        thread.join(5)
        return got[0]

    with store.writing():
        assert another_thread_may_write() is not sqlite
        with store.writing():  # the same thread again (a nested write): no hang
            assert another_thread_may_write() is not sqlite
    assert another_thread_may_write()


def test_a_tournament_player_with_no_chips_sits_down_with_no_transfer(store: Store) -> None:
    """A player busted in a hand-for-hand hand stays the director's, seated with no chips until
    the round ends, and may be moved meanwhile (a table broken): their sit-down at the new
    table moves no chips. It wrote a transfer of 0, which the ledger refuses, and the table
    stopped: its tournament waited for ever (the 1,000-entrant benchmark, issue 35)."""
    settings = TableSettings(StudHiLo(Stakes(1, 2, 5, 10)), seats=4, tournament=True)
    keeper = TableKeeper(store, create_table(store, "tournament", settings), settings)
    keeper.sit_down("bot-busted", 1, 0, 1.0)
    keeper.sit_down("bot-in", 2, 500, 2.0)
    assert {s.player: s.stack for s in keeper.table.view(None).seats} == {"bot-busted": 0, "bot-in": 500}
    assert audit(store).ok
