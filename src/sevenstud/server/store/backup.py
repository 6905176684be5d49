"""Backups of the embedded SQLite database, taken while the card room serves
(docs/operators.md, "Backups").

:func:`backup` copies the database with SQLite's online backup API: the copy is the database at
one moment (a transaction in progress is either wholly in it or not at all), taken beside the
tables' writes, which wait at most a moment for each step. The copy is then checked by
``sevenstud audit``'s checks (:func:`sevenstud.server.audit.audit`) before the command says it
is good: a backup that does not balance is reported, never trusted. A hand cut off by the copy's
moment is what a crash leaves: the restored room's recovery cancels and refunds it at its start,
as after kill -9.

:func:`restore` puts a checked copy back in place of the database, refusing while a card room
process still serves the database (its heartbeat in ``card_servers`` is current).

PostgreSQL is backed up with its own tools (``pg_dump``; docs/operators.md gives the commands
and the same check, an audit of the restored copy).
"""

from __future__ import annotations

import argparse
import shutil
import sqlite3
import sys
import tempfile
import time
from contextlib import closing
from pathlib import Path

from sqlalchemy import delete, select, update

from sevenstud.server.store import Store, StoreError, default_url, normalize_url, open_store
from sevenstud.server.store.models import CardServer, TableLease, TournamentLease

PAGES_A_STEP = 256
"""How many database pages each step of the online backup copies before it lets the tables
write again (SQLite's pages are 4 KiB: 1 MiB a step)."""


class BackupError(StoreError):
    """A backup or a restore that cannot be made: the message says why, in one line."""


def sqlite_path(url: str | None) -> Path:
    """The file of an SQLite database given as a path or URL (None: the embedded default);
    :class:`BackupError` for any other database."""
    full = normalize_url(url if url is not None else default_url())
    if not full.startswith("sqlite:///") or full == "sqlite:///:memory:":
        raise BackupError(
            f"database {url!r}: `sevenstud backup` copies the embedded SQLite database; back up "
            "PostgreSQL with pg_dump (docs/operators.md, \"Backups\")"
        )
    return Path(full.removeprefix("sqlite:///"))


def backup(url: str | None, target: Path) -> str:
    """Copy the SQLite database at ``url`` into the new file ``target`` while it is in use, and
    audit the copy; returns the audit's summary, or raises :class:`BackupError` (the target is
    not left behind then)."""
    source = sqlite_path(url)
    if not source.is_file():
        raise BackupError(f"database {str(source)!r}: there is no such file")
    if target.exists():
        raise BackupError(f"{str(target)!r} is there already: a backup never overwrites a file")
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    try:
        reader = sqlite3.connect(f"file:{source}?mode=ro", uri=True, timeout=30)
        copy = sqlite3.connect(partial)
        with closing(reader), closing(copy):
            reader.backup(copy, pages=PAGES_A_STEP, sleep=0.005)
            copy.execute("PRAGMA journal_mode=DELETE")  # one file, nothing beside it
        summary = _audited(partial)
        partial.rename(target)
    except (sqlite3.Error, OSError) as error:
        raise BackupError(f"backup of {str(source)!r}: {error}") from None
    finally:
        partial.unlink(missing_ok=True)
    return summary


def restore(copy: Path, url: str | None) -> str:
    """Put the backup ``copy`` in place of the SQLite database at ``url`` (made if missing),
    after auditing it; refused while a card room serves that database. The restored database's
    heartbeats and leases are ended (nobody serves it yet). Returns the audit's summary."""
    target = sqlite_path(url)
    if not copy.is_file():
        raise BackupError(f"{str(copy)!r}: there is no such file")
    if target.is_file():
        serving = _serving(target)
        if serving:
            raise BackupError(
                f"database {str(target)!r} is being served by {', '.join(serving)}: stop it first"
            )
    summary = _audited(copy)
    target.parent.mkdir(parents=True, exist_ok=True)
    staged = target.with_name(target.name + ".restoring")
    shutil.copyfile(copy, staged)
    for leftover in (target.with_name(target.name + "-wal"), target.with_name(target.name + "-shm")):
        leftover.unlink(missing_ok=True)  # the old database's log must not be replayed on the copy
    staged.replace(target)
    _forget_servers(target)
    return summary


def _forget_servers(path: Path) -> None:
    """The restored database is served by nobody: the heartbeats and leases the copy holds (of
    the processes that served it when it was taken) are ended, so that the next start takes
    every table at once instead of waiting for leases that nobody renews."""
    store = open_store(f"sqlite:///{path}", existing=True)
    try:
        with store.transaction() as s:
            s.execute(delete(CardServer))
            s.execute(update(TableLease).values(expires_at=0.0))
            s.execute(update(TournamentLease).values(expires_at=0.0))
    finally:
        store.close()


def _audited(path: Path) -> str:
    """Audit the database file ``path`` (opened as it is, never migrated); its summary, or
    :class:`BackupError` naming the first problem."""
    from sevenstud.server.audit import audit

    # The audit opens the copy as an ordinary database, and SQLite may write beside it (its
    # log): it reads a scratch copy, so that the file checked is the file kept, byte for byte.
    with tempfile.TemporaryDirectory() as scratch:
        probe = Path(scratch) / "audit.sqlite3"
        shutil.copyfile(path, probe)
        store = open_store(f"sqlite:///{probe}", existing=True)
        try:
            report = audit(store)
        finally:
            store.close()
    if not report.ok:
        raise BackupError(f"the copy does not pass the audit: {report.problems[0]}")
    return str(report)


def _serving(path: Path) -> list[str]:
    """The addresses of the card room processes whose heartbeat in the database is current."""
    store: Store = open_store(f"sqlite:///{path}", existing=True)
    try:
        with store.session() as s:
            rows = s.execute(select(CardServer.url).where(CardServer.expires_at >= time.time())).all()
    finally:
        store.close()
    return sorted({str(url) for (url,) in rows})


def backup_command(args: argparse.Namespace) -> int:
    """``sevenstud backup PATH [--database URL]``: exit 0 with the copy's audit, 1 if not."""
    try:
        summary = backup(getattr(args, "database", None), Path(args.path))
    except StoreError as error:
        print(f"sevenstud backup: {error}", file=sys.stderr)
        return 1
    print(f"sevenstud backup: {args.path} written and audited: {summary}")
    return 0


def restore_command(args: argparse.Namespace) -> int:
    """``sevenstud restore PATH [--database URL]``: exit 0 once restored, 1 if not."""
    try:
        summary = restore(Path(args.path), getattr(args, "database", None))
    except StoreError as error:
        print(f"sevenstud restore: {error}", file=sys.stderr)
        return 1
    print(f"sevenstud restore: {args.path} restored and audited: {summary}")
    return 0
