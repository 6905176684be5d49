"""The card room's database: SQLite by default (a file under the user's data directory),
PostgreSQL given a URL; Alembic's migrations (shipped in this package) are applied on opening.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.orm import Session, sessionmaker

# ``Connection`` and ``Session`` are named here for the modules outside the store that pass them
# on to its functions: they name the store's types, never SQLAlchemy (tests/test_structure.py).

T = TypeVar("T")

MIGRATIONS = Path(__file__).with_name("migrations")


class StoreError(ValueError):
    """The database cannot be used (a URL that is not SQLite or PostgreSQL, an unreachable
    server): the message says which and why."""


def data_dir() -> Path:
    """Where the card room keeps its files: ``$XDG_DATA_HOME/sevenstud`` (by default
    ``~/.local/share/sevenstud``)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "sevenstud"


def default_url() -> str:
    """The embedded SQLite database's URL."""
    return f"sqlite:///{data_dir() / 'cardroom.sqlite3'}"


def normalize_url(url: str) -> str:
    """The SQLAlchemy URL of a database given as a path, ``sqlite:///...`` or
    ``postgresql://...`` (psycopg 3 is the driver)."""
    if not isinstance(url, str) or not url.strip():
        raise StoreError(f"a database is a path or a URL, not {url!r}")
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    if url.startswith(("postgresql+psycopg://", "sqlite:")):
        return url
    if "://" in url:
        raise StoreError(f"database {url!r}: only sqlite:/// and postgresql:// are served")
    return f"sqlite:///{Path(url).expanduser()}"


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # Foreign keys are off by default in SQLite; WAL lets readers (the lobby, the audit) work
    # beside the table actors' writes; a busy timeout waits for a writer instead of failing.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=5000")
    # NORMAL, not FULL: under WAL a commit is a write into the log, and the log is synced at each
    # checkpoint, not at each commit. A process crash (kill -9) loses nothing committed: the OS
    # holds the written log and the next open replays it (tests/server/test_crash.py). Only a
    # power loss or an OS crash can roll back the last few commits, each whole or not at all, so
    # the ledger still balances and the recovery refunds the hand. FULL's fsync per action cost
    # more than any other part of a table's write.
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


MIGRATION_LOCK = 0x7365_7665_6E73_7475
"""PostgreSQL's advisory lock key that migrating holds ("sevenstu"): one process migrates at a
time."""


def upgrade(engine: Engine) -> None:
    """Apply every migration not yet applied (``alembic upgrade head``). On PostgreSQL the
    migrating transaction first takes an advisory lock: card room processes started at once on
    a new database wait for the first to finish, then find nothing left to do (without it both
    created the tables and one failed on ``alembic_version``)."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        if engine.dialect.name == "postgresql":
            # Held to the end of this transaction: released by its commit or rollback.
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def _revisions(engine: Engine) -> tuple[str | None, str | None]:
    """The database's migration revision (None: no card room in it) and this code's newest."""
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory

    with engine.connect() as connection:
        current = MigrationContext.configure(connection).get_current_revision()
    return current, ScriptDirectory(str(MIGRATIONS)).get_current_head()


@dataclass(slots=True)
class Store:
    """An open database: its engine and a session factory."""

    url: str
    engine: Engine
    sessions: sessionmaker[Session]
    _writer: threading.RLock | None = field(default=None, repr=False)
    _kept: dict[int, Connection] = field(default_factory=dict, repr=False)  # thread -> connection
    commit_timer: Callable[[float], None] | None = field(default=None, repr=False)
    """Told the seconds each write's COMMIT took (:meth:`begin`, :meth:`transaction`): the
    card room's metrics (server/metrics.py)."""

    @contextlib.contextmanager
    def writing(self) -> Iterator[None]:
        """Hold while writing a transaction. SQLite has one writer at a time: a writer that
        meets its lock waits in its busy handler, which sleeps in steps of up to 100 ms (and
        the tables write from the event loop itself: see :attr:`inline`). Every write takes its
        turn on this lock instead, each starting the moment the one before commits.
        PostgreSQL writes rows side by side: no lock."""
        if self._writer is None:
            yield
            return
        with self._writer:
            yield

    @contextlib.contextmanager
    def begin(self) -> Iterator[Connection]:
        """A connection in a transaction (committed at the end, rolled back on an error),
        written in its turn (:meth:`writing`): a table's command, a tournament's move.

        SQLite keeps one connection a thread for these (under the writer's lock, one write at a
        time): taking one from the pool and giving it back (a rollback to reset it) cost about
        25 µs an action, a tenth of the table's write. PostgreSQL takes one from the pool."""
        with self.writing():
            if self._writer is None:
                with self._timed(self.engine.begin()) as connection:
                    yield connection
                return
            key = threading.get_ident()
            kept = self._kept.get(key)
            if kept is None or kept.closed or kept.invalidated:
                kept = self._kept[key] = self.engine.connect()
            with self._timed(kept.begin()):
                yield kept

    @contextlib.contextmanager
    def transaction(self) -> Iterator[Session]:
        """A session in a transaction (committed at the end, rolled back on an error), written
        in its turn (:meth:`writing`)."""
        with self.writing(), self.sessions() as s, self._timed(s.begin()):
            yield s

    @contextlib.contextmanager
    def _timed(self, transaction: contextlib.AbstractContextManager[T]) -> Iterator[T]:
        """``transaction``, its COMMIT (what its exit does when the body ran through) timed for
        :attr:`commit_timer`."""
        timer = self.commit_timer
        with transaction as inside:
            yield inside
            committing = time.perf_counter()
        if timer is not None:
            timer(time.perf_counter() - committing)

    @property
    def inline(self) -> bool:
        """Whether the tables write from the event loop rather than from worker threads:
        SQLite is a local file with one writer at a time, whose statements take microseconds;
        a worker thread per write only added its hand-offs of the GIL to every action (the
        round trip's p50 went from about 3 ms to 5 ms at 2,000 clients, benchmarks/load.py).
        PostgreSQL answers over a socket: its writes stay in threads, tables side by side."""
        return self._writer is not None

    async def run(self, work: Callable[..., T], *args: Any) -> T:
        """``work(*args)`` where this store's work belongs (the one place that chooses): on
        the event loop itself when :attr:`inline` (SQLite), else in a worker thread
        (PostgreSQL), so that a slow answer never holds the loop up."""
        if self.inline:
            return work(*args)
        return await asyncio.to_thread(work, *args)

    def session(self) -> Session:
        """A new session (use it in ``with store.session() as s, s.begin():``)."""
        return self.sessions()

    @contextlib.contextmanager
    def snapshot(self) -> Iterator[Session]:
        """A session whose every read sees the database at one moment, whatever the tables
        commit meanwhile (the audit's reads: a clean audit is clean, a problem it finds is
        real). It writes nothing and is rolled back at the end.

        SQLite: one read transaction. Python's sqlite3 begins a transaction only before a
        write, so each SELECT of a plain session ran on its own and saw the commits made
        between them; an explicit (deferred) ``BEGIN`` makes them one, and under WAL its first
        read fixes the snapshot the rest read. PostgreSQL: a ``REPEATABLE READ`` read-only
        transaction, whose first statement fixes the snapshot."""
        with self.sessions() as s:
            if self.engine.dialect.name == "postgresql":
                s.connection(
                    execution_options={"isolation_level": "REPEATABLE READ", "postgresql_readonly": True}
                )
            else:
                s.connection().exec_driver_sql("BEGIN")
            try:
                yield s
            finally:
                s.rollback()

    def close(self) -> None:
        """Close every pooled connection, and the kept ones (:meth:`begin`)."""
        with self.writing():
            for connection in self._kept.values():
                connection.close()
            self._kept.clear()
        self.engine.dispose()

    def ping(self) -> None:
        """One round trip to the database (``/readyz``): raises when it does not answer."""
        with self.session() as s:
            s.execute(text("SELECT 1"))

    @property
    def shown_url(self) -> str:
        """The URL without its password, for printing."""
        return self.engine.url.render_as_string(hide_password=True)


def open_store(
    url: str | None = None,
    *,
    migrate: bool = True,
    existing: bool = False,
) -> Store:
    """Open (and by default migrate) the database at ``url`` (None: the embedded default).
    ``existing``: only a card room's database that is there and up to date, opened as it is
    (``sevenstud audit``: a mistyped path is an error, never a new empty database found
    clean); :class:`StoreError` saying what is missing otherwise."""
    full = normalize_url(url if url is not None else default_url())
    if full.startswith("sqlite:///") and full != "sqlite:///:memory:":
        path = Path(full.removeprefix("sqlite:///"))
        if existing and not path.is_file():
            raise StoreError(f"database {url or full!r}: there is no file {str(path)!r}")
        path.parent.mkdir(parents=True, exist_ok=True)
    try:
        # A ping before each use finds a PostgreSQL connection the server dropped; an SQLite
        # file is not dropped, and the ping was a round trip more per action.
        engine = create_engine(full, pool_pre_ping=not full.startswith("sqlite:"))
    except Exception as error:  # a bad URL is the user's input: say so in one line
        raise StoreError(f"database {url!r}: {error}") from None
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    try:
        if existing:
            current, head = _revisions(engine)
            if current is None:
                raise StoreError("it holds no card room (no sevenstud tables)")
            if current != head:
                raise StoreError(
                    f"it is at revision {current}, this sevenstud's is {head}: "
                    "start `sevenstud serve` on it once to bring it up to date"
                )
        elif migrate:
            upgrade(engine)
    except Exception as error:
        engine.dispose()
        raise StoreError(f"database {engine.url.render_as_string(hide_password=True)}: {error}") from None
    # Re-entrant: a write begun inside another on the same thread (the event loop's, with
    # ``inline``) fails in SQLite's busy handler, where a plain lock would hang the server.
    writer = threading.RLock() if engine.dialect.name == "sqlite" else None
    return Store(full, engine, sessionmaker(engine, expire_on_commit=False), writer)


__all__ = [
    "Connection",
    "Session",
    "Store",
    "StoreError",
    "data_dir",
    "default_url",
    "normalize_url",
    "open_store",
    "upgrade",
]
