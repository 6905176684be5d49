"""`sevenstud audit` reads one snapshot: while the tables write, a clean audit is clean and a
problem it reports is real (issue 18, point 10), on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

from sqlalchemy import event, select, update

from sevenstud.actions import ActionKind
from sevenstud.deck import Deck
from sevenstud.games import Stakes, StudHiLo
from sevenstud.server.audit import AuditReport, audit
from sevenstud.server.store import open_store
from sevenstud.server.store.models import Player
from sevenstud.server.tables.room import TableKeeper, create_table
from sevenstud.table import TableSettings
from tests.server.benches import load_bench
from tests.spawn import running

SETTINGS = TableSettings(StudHiLo(Stakes(1, 2, 5, 10), rake_percent=5, rake_cap=3), seats=4)
MOVES_CHIPS = (ActionKind.BRING_IN, ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE, ActionKind.CALL)


def _move_chips(keeper: TableKeeper, now: float) -> None:
    """One action that moves chips (a new hand when the last one is over)."""
    table = keeper.table
    if not table.hand_in_progress:
        keeper.start_hand(now, Deck.seeded(f"moves at {now}"))  # the same hands every run
    seat = table.to_act
    assert seat is not None
    legal = table.legal_actions()
    keeper.act(seat, next((a for a in legal if a.kind in MOVES_CHIPS), legal[-1]), now)


def test_the_audit_reads_one_moment_while_a_table_writes_between_its_reads(db_url: str) -> None:
    """Rule: every read of one audit sees the same committed state. Between every two of the
    audit's statements another connection commits a bet or a call (a stack and the ledger
    moving together): the audit must see none of them, and still be clean."""
    writer_store, audit_store = open_store(db_url), open_store(db_url, migrate=False)
    try:
        keeper = TableKeeper(writer_store, create_table(writer_store, "busy", SETTINGS), SETTINGS)
        for seat in (1, 2, 3):
            keeper.sit_down(f"bot{seat}", seat, 200, seat / 10)
        now = 1.0
        keeper.start_hand(now, Deck.seeded(7))
        _move_chips(keeper, now)
        assert audit(audit_store).ok
        writes = 0

        def between(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
            nonlocal writes, now
            if statement.lstrip().upper().startswith("SELECT"):
                now += 0.5
                _move_chips(keeper, now)  # committed by the writer's own engine
                writes += 1

        event.listen(audit_store.engine, "after_cursor_execute", between)
        try:
            report = audit(audit_store)
        finally:
            event.remove(audit_store.engine, "after_cursor_execute", between)
        assert writes >= 4, "the audit's reads were not interleaved with writes"
        assert report.ok, str(report)
        assert audit(audit_store).ok  # and what was written meanwhile balances too
    finally:
        writer_store.close()
        audit_store.close()


def test_the_audit_is_clean_every_time_while_a_card_room_plays_fast(db_url: str) -> None:
    """Rule: `sevenstud audit` during play reports only real problems. A real card room plays
    hands with no think time while the audit runs again and again; one real inconsistency is
    planted (a player's balance one chip above the ledger): every audit reports it, and
    nothing else."""
    bench = load_bench()
    with running(db_url, pause=0.05) as served:
        tables = asyncio.run(bench.open_tables(served.base, 4))
        store = open_store(db_url, migrate=False)
        try:
            with store.session() as s, s.begin():
                opener = s.scalars(select(Player).order_by(Player.id)).first()
                assert opener is not None
                s.execute(update(Player).where(Player.id == opener.id).values(balance=Player.balance + 1))
            planted = f"player {opener.name}: balance"
            reports: list[AuditReport] = []
            stop = threading.Event()

            def keep_auditing() -> None:
                while not stop.wait(0.02):  # (a breath between audits: the clients share this process)
                    reports.append(audit(store))

            auditor = threading.Thread(target=keep_auditing)
            auditor.start()
            try:
                played = asyncio.run(bench.play(served.base, tables, seconds=5.0, think=(0.0, 0.0)))
            finally:
                stop.set()
                auditor.join(60)
            final = audit(store)
        finally:
            store.close()
    assert not played.errors, played.errors[:5]
    assert played.actions > 100, "the tables hardly played"
    assert len(reports) >= 5, f"only {len(reports)} audits ran"
    assert reports[-1].hands > reports[0].hands, "no hand ended while the audit ran"
    for report in [*reports, final]:
        assert len(report.problems) == 1 and planted in report.problems[0], str(report)


def test_the_audit_of_a_database_that_is_not_there_is_an_error_and_creates_nothing(
    tmp_path: Path, capsys: Any
) -> None:
    """Rule: `sevenstud audit` reads a card room's database as it is: a mistyped path is an
    error naming it (not a new empty database found clean), and so is a database with no card
    room in it or one behind this code's schema; none of them is created or changed."""
    import argparse
    import sqlite3

    from sevenstud.server.audit import audit_command

    missing = tmp_path / "nowhere" / "cardroom.sqlite3"
    assert audit_command(argparse.Namespace(database=f"sqlite:///{missing}")) == 1
    assert "there is no file" in capsys.readouterr().err
    assert not missing.parent.exists()

    empty = tmp_path / "empty.sqlite3"
    sqlite3.connect(empty).execute("CREATE TABLE other (x)").connection.close()
    assert audit_command(argparse.Namespace(database=f"sqlite:///{empty}")) == 1
    assert "holds no card room" in capsys.readouterr().err

    behind = tmp_path / "behind.sqlite3"
    open_store(f"sqlite:///{behind}").close()
    with sqlite3.connect(behind) as raw:
        raw.execute("UPDATE alembic_version SET version_num = '0005'")
    before = behind.read_bytes()
    assert audit_command(argparse.Namespace(database=f"sqlite:///{behind}")) == 1
    said = capsys.readouterr().err
    assert "revision 0005," in said and "sevenstud serve" in said, said
    assert behind.read_bytes() == before

    ready = tmp_path / "ready.sqlite3"
    open_store(f"sqlite:///{ready}").close()
    assert audit_command(argparse.Namespace(database=f"sqlite:///{ready}")) == 0
    assert "clean" in capsys.readouterr().out
