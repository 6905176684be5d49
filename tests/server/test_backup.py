"""``sevenstud backup`` and ``sevenstud restore`` (issue 33, point 6): a consistent copy of the
embedded database taken while hands are being played, audited; a restore refused while the
room serves, and clean after it."""

from __future__ import annotations

import argparse
import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from sevenstud.server.audit import audit
from sevenstud.server.store import open_store
from sevenstud.server.store.backup import BackupError, backup, backup_command, restore, restore_command
from sevenstud.server.store.models import HandRow
from tests.server.benches import load_bench
from tests.spawn import running


def _hands(path: Path) -> int:
    store = open_store(f"sqlite:///{path}", existing=True)
    try:
        with store.session() as s:
            return int(s.scalar(select(func.count()).select_from(HandRow)) or 0)
    finally:
        store.close()


def test_backups_taken_while_hands_are_played_are_consistent_and_restore_clean(tmp_path: Path) -> None:
    """Rule: a backup is the database at one moment, whatever the tables write meanwhile; each
    copy passes the audit (checked again here, on a restored database), and a restore is
    refused while the room serves its database."""
    bench = load_bench()
    database = tmp_path / "cardroom.sqlite3"
    url = f"sqlite:///{database}"
    copies: list[Path] = []
    with running(url, pause=0.05) as served:
        tables = asyncio.run(bench.open_tables(served.base, 3))
        stop = threading.Event()
        failures: list[str] = []

        def keep_backing_up() -> None:
            while not stop.wait(0.3):
                target = tmp_path / f"copy-{len(copies)}.sqlite3"
                try:
                    backup(url, target)
                except BackupError as error:
                    failures.append(str(error))
                copies.append(target)

        worker = threading.Thread(target=keep_backing_up)
        worker.start()
        try:
            played = asyncio.run(bench.play(served.base, tables, seconds=5.0, think=(0.0, 0.0)))
        finally:
            stop.set()
            worker.join(120)
        assert not played.errors, played.errors[:5]
        assert played.actions > 100, "the tables hardly played"
        with pytest.raises(BackupError, match=r"being served by http://127\.0\.0\.1"):
            restore(copies[-1], url)
    assert failures == []
    assert len(copies) >= 3, f"only {len(copies)} backups were taken"
    counts = [_hands(copy) for copy in copies]
    assert counts[-1] > counts[0], "no hand was stored between the first backup and the last"
    # Each copy is one file, nothing beside it, and restores into a database that audits clean
    # (the hands a copy cut off are cancelled and refunded by the next start's recovery).
    restored = tmp_path / "restored" / "cardroom.sqlite3"
    for copy in (copies[0], copies[-1]):
        assert not copy.with_name(copy.name + "-wal").exists()
        restore(copy, f"sqlite:///{restored}")
        store = open_store(f"sqlite:///{restored}", existing=True)
        try:
            report = audit(store)
        finally:
            store.close()
        assert report.ok, str(report)
        assert _hands(restored) == _hands(copy)


def test_a_backup_never_overwrites_and_postgresql_is_pointed_to_pg_dump(
    tmp_path: Path, capsys: Any
) -> None:
    database = tmp_path / "cardroom.sqlite3"
    open_store(f"sqlite:///{database}").close()
    taken = tmp_path / "copy.sqlite3"
    args = argparse.Namespace(path=str(taken), database=str(database))
    assert backup_command(args) == 0
    assert "written and audited" in capsys.readouterr().out
    before = taken.read_bytes()
    assert backup_command(args) == 1  # the same target again: refused, the copy untouched
    assert "never overwrites" in capsys.readouterr().err
    assert taken.read_bytes() == before
    postgres = argparse.Namespace(path=str(tmp_path / "pg.sqlite3"), database="postgresql://x@/db")
    assert backup_command(postgres) == 1
    assert "pg_dump" in capsys.readouterr().err
    assert not (tmp_path / "pg.sqlite3").exists()


def test_a_restore_of_a_file_that_is_not_a_clean_card_room_changes_nothing(
    tmp_path: Path, capsys: Any
) -> None:
    database = tmp_path / "cardroom.sqlite3"
    open_store(f"sqlite:///{database}").close()
    before = database.read_bytes()
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"not a database at all")
    args = argparse.Namespace(path=str(junk), database=str(database))
    assert restore_command(args) == 1
    assert "sevenstud restore:" in capsys.readouterr().err
    assert database.read_bytes() == before
    missing = argparse.Namespace(path=str(tmp_path / "nowhere.sqlite3"), database=str(database))
    assert restore_command(missing) == 1
    assert "no such file" in capsys.readouterr().err
