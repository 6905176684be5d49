"""Fixtures of the card room's tests: every store test runs on SQLite and on PostgreSQL.

PostgreSQL is a throwaway cluster of the test session's own (initdb into a temporary folder,
pg_ctl on a unix socket there, stopped at the end), started when the server binaries are
present (``tools/postgres.sh`` installs them); each xdist worker starts its own. Each test gets
a fresh database (a new SQLite file, a new PostgreSQL database).
"""

from __future__ import annotations

import glob
import importlib.util
import os
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from sevenstud.server.store import Store

# The server's dependencies are the `server` extra: without them these tests are not collected.
_NEEDED = ("sqlalchemy", "alembic", "fastapi", "uvicorn", "argon2", "pydantic", "websockets", "psycopg")
_MISSING = [name for name in _NEEDED if importlib.util.find_spec(name) is None]
if _MISSING:
    collect_ignore_glob = ["test_*.py"]


def _pg_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


class _Cluster:
    """A PostgreSQL cluster in a temporary folder, listening on a unix socket there only."""

    def __init__(self, bin_dir: Path) -> None:
        self.bin = bin_dir
        self.root = Path(tempfile.mkdtemp(prefix="sevenstud-pg-"))
        self.data = self.root / "data"
        self.prefix: list[str] = []
        # PostgreSQL refuses to run as root: the cluster belongs to the postgres user then.
        if os.geteuid() == 0:
            shutil.chown(self.root, "postgres")
            self.prefix = ["runuser", "-u", "postgres", "--"]

    def _run(self, *args: str) -> None:
        subprocess.run([*self.prefix, *args], check=True, capture_output=True, timeout=120)

    def start(self) -> None:
        initdb = str(self.bin / "initdb")
        self._run(initdb, "-D", str(self.data), "-U", "postgres", "-A", "trust", "-E", "UTF8")
        options = f"-c listen_addresses='' -c unix_socket_directories={self.root} -c fsync=off"
        options += " -c synchronous_commit=off -c full_page_writes=off"
        log = str(self.root / "log")
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-o", options, "-l", log, "-w", "start")

    def stop(self) -> None:
        try:
            self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str) -> str:
        return f"postgresql+psycopg://postgres@/{database}?host={self.root}"

    def create_database(self) -> str:
        import psycopg

        name = "t_" + uuid.uuid4().hex[:12]
        with psycopg.connect(f"host={self.root} user=postgres dbname=postgres", autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[_Cluster | None]:
    """The session's PostgreSQL cluster, or None when PostgreSQL is not installed."""
    bin_dir = _pg_bin()
    if bin_dir is None:
        yield None
        return
    cluster = _Cluster(bin_dir)
    cluster.start()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty database's URL: SQLite, then PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'cardroom.sqlite3'}"
    cluster = request.getfixturevalue("pg_cluster")
    if cluster is None:
        message = "PostgreSQL is not installed (tools/postgres.sh installs it; make test runs it)"
        if os.environ.get("CI"):
            pytest.fail(message)  # under CI every server test must run on both databases
        pytest.skip(message)
    return str(cluster.create_database())


@pytest.fixture
def store(db_url: str) -> Iterator[object]:
    """An open, migrated store on each database."""
    from sevenstud.server.store import open_store

    opened = open_store(db_url)
    try:
        yield opened
    finally:
        opened.close()


@pytest.fixture
def server(store: Store) -> Iterator[str]:
    """The card room in this process (uvicorn in a thread, the card room's server options) on a
    free port of 127.0.0.1, over ``store``, with a short pause after each hand: its ``host:port``."""
    from sevenstud.server.app import create_app
    from tests.spawn import in_thread

    with in_thread(create_app(store, pause=0.05)) as address:
        yield address
