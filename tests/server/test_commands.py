"""`sevenstud serve` and `sevenstud audit` from the command line, as a user runs them."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from sevenstud.cli import main
from tests.spawn import free_port


def test_audit_of_a_new_database_is_clean(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A new card room's database (as `sevenstud serve` makes it) audits clean; a path where
    there is none is an error naming it, and the audit makes nothing there."""
    from sevenstud.server.store import open_store

    open_store(str(tmp_path / "room.sqlite3")).close()
    assert main(["audit", "--database", str(tmp_path / "room.sqlite3")]) == 0
    assert "clean" in capsys.readouterr().out
    assert main(["audit", "--database", str(tmp_path / "typo.sqlite3")]) == 1
    assert "there is no file" in capsys.readouterr().err
    assert not (tmp_path / "typo.sqlite3").exists()


def test_serve_prints_the_database_and_the_address_and_answers(tmp_path: Path) -> None:
    port = free_port()
    database = tmp_path / "room.sqlite3"
    command = [sys.executable, "-m", "sevenstud", "serve", "--port", str(port), "--database", str(database)]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert server.stdout is not None
        lines = [server.stdout.readline() for _ in range(2)]
        assert str(database) in lines[0]
        assert f"http://127.0.0.1:{port}/" in lines[1]
        deadline = time.monotonic() + 20
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/protocol.json", timeout=2) as r:
                    assert r.status == 200
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
    finally:
        server.terminate()
        server.wait(timeout=20)
    assert database.exists()


def test_a_bad_port_is_one_line_and_exit_2() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "sevenstud", "serve", "--port", "70000"],
        capture_output=True,
        text=True,
        env={**os.environ},
        timeout=60,
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and "port" in result.stderr
