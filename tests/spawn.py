"""The tests' and benchmarks' card room in a child process: ``sevenstud serve`` on a port of
127.0.0.1 (through tests/serve.py, which adds the tests' own knobs: slow commits, faster
tournament clocks), waited for until it answers, stopped as the caller chooses (SIGTERM: a
clean stop; SIGKILL: what a crash leaves, for the recovery to mend). The kill -9, safety, lease
and browser tests and benchmarks/load.py all start their servers this way. :func:`in_thread`
serves an app in this process instead (uvicorn in a thread, with the card room's server
options), as the tests' ``server`` fixture does.

None of this ships in the package: a test-only switch in ``sevenstud serve`` would be one a
user could turn on.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

__all__ = ["SpawnError", "Spawned", "free_port", "in_thread", "running", "spawn"]

SERVE = Path(__file__).with_name("serve.py")
"""``sevenstud serve`` with the tests' knobs."""


class SpawnError(RuntimeError):
    """The server exited, or did not answer in time: the message says which."""


def free_port() -> int:
    """A TCP port of 127.0.0.1 free at the moment of asking."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass(slots=True)
class Spawned:
    """A running ``sevenstud serve``: its process and port."""

    process: subprocess.Popen[str]
    port: int

    @property
    def address(self) -> str:
        """``127.0.0.1:PORT``."""
        return f"127.0.0.1:{self.port}"

    @property
    def base(self) -> str:
        """``http://127.0.0.1:PORT``."""
        return f"http://{self.address}"

    def answers(self) -> bool:
        """Whether the server answers HTTP now."""
        try:
            with urllib.request.urlopen(f"{self.base}/protocol.json", timeout=2) as response:
                return bool(response.status == 200)
        except OSError:
            return False

    def stop(self, how: signal.Signals = signal.SIGTERM, seconds: float = 10.0) -> None:
        """Send ``how`` and wait; a process still there after ``seconds`` is killed."""
        with contextlib.suppress(ProcessLookupError):
            self.process.send_signal(how)
        try:
            self.process.wait(seconds)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(seconds)


def spawn(
    database: str,
    *,
    port: int | None = None,
    pause: float | None = None,
    bot_think: str = "0",
    env: dict[str, str] | None = None,
    args: Sequence[str] = (),
    stdout: int | IO[Any] | None = subprocess.DEVNULL,
    stderr: int | IO[Any] | None = subprocess.DEVNULL,
    seconds: float = 60.0,
    commit_delay: float = 0.0,
    commit_mark: str | None = None,
    tournament_speed: float = 1.0,
) -> Spawned:
    """Start ``sevenstud serve --database DATABASE`` (on ``port``, else a free one; ``pause``:
    seconds between hands, ``--pause``; ``bot_think``: ``--bot-think``, none unless told, so
    that tests and benchmarks play bots back to back; ``args``: more of its options) and return once
    it answers; one that exits or stays silent for ``seconds`` is killed: :class:`SpawnError`.

    The tests' knobs (tests/serve.py): ``commit_delay`` seconds of sleep just before every
    COMMIT, the file ``commit_mark`` saying ``writing`` meanwhile (so that a kill -9 lands
    inside a write); ``tournament_speed``: tournaments made over HTTP may run their clock up
    to that many times the wall's, and be fields of bots alone (the benchmarks' fields)."""
    port = free_port() if port is None else port
    knobbed = commit_delay > 0 or tournament_speed != 1.0
    # Plain `python -m sevenstud` unless a knob is asked for: the command a user runs.
    program = [str(SERVE)] if knobbed else ["-m", "sevenstud"]
    command = [sys.executable, *program, "serve", "--port", str(port), "--database", database, *args]
    if pause is not None:
        command += ["--pause", str(pause)]
    command += ["--bot-think", bot_think]
    knobs = {
        "SEVENSTUD_TEST_COMMIT_DELAY": str(commit_delay),
        "SEVENSTUD_TEST_COMMIT_MARK": commit_mark or "",
        "SEVENSTUD_TEST_TOURNAMENT_SPEED": str(tournament_speed),
    }
    environment = {**os.environ, **knobs, **(env or {})}
    process = subprocess.Popen(command, env=environment, stdout=stdout, stderr=stderr, text=True)
    spawned = Spawned(process, port)
    deadline = time.monotonic() + seconds
    while not spawned.answers():
        if process.poll() is not None:
            raise SpawnError(f"sevenstud serve exited with {process.returncode} before it answered")
        if time.monotonic() > deadline:
            spawned.stop(signal.SIGKILL)
            raise SpawnError(f"sevenstud serve did not answer within {seconds:.0f} s")
        time.sleep(0.05)
    return spawned


DATABASES: dict[str, str] = {}
"""The database URL of each card room :func:`running` serves, by its base URL."""


@contextlib.contextmanager
def running(database: str, *, stop: signal.Signals = signal.SIGTERM, **options: Any) -> Iterator[Spawned]:
    """:func:`spawn` for the ``with`` block, stopped at its end with ``stop``."""
    spawned = spawn(database, **options)
    DATABASES[spawned.base] = database  # (tests/house.py makes operators in it)
    try:
        yield spawned
    finally:
        DATABASES.pop(spawned.base, None)
        spawned.stop(stop)


@contextlib.contextmanager
def in_thread(app: Any, limits: Any = None) -> Iterator[str]:
    """Serve ``app`` on a free port of 127.0.0.1 in a thread of this process, with the card
    room's uvicorn settings (``edge.server_options`` of ``limits``, the defaults when None),
    for the ``with`` block: its ``host:port``."""
    import threading

    import uvicorn

    from sevenstud.server.edge import server_options
    from sevenstud.server.limits import Limits

    port = free_port()
    options = server_options(limits if limits is not None else Limits())
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", **options)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(500):
        if server.started:
            break
        time.sleep(0.02)
    try:
        yield f"127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
