"""``sevenstud serve`` with the tests' knobs, read from the environment (tests/spawn.py sets
them): none of them is an option of the shipped command.

- ``SEVENSTUD_TEST_COMMIT_DELAY`` (seconds) and ``SEVENSTUD_TEST_COMMIT_MARK`` (a file): sleep
  just before every COMMIT, with the transaction's rows written but not committed, so that a
  kill -9 lands inside a write; the file says ``writing`` while it sleeps (tests/server/
  test_crash.py).
- ``SEVENSTUD_TEST_TOURNAMENT_SPEED``: tournaments made over HTTP may run their clock up to that
  many times the wall's, and be fields of bots alone (the benchmarks' tournaments).
- ``SEVENSTUD_TEST_PROFILE`` (a file): run under cProfile and write its statistics there when the
  server stops (SIGTERM; a SIGKILL writes nothing): where a benchmark's server spends its time.

Run as ``python tests/serve.py serve --port ... --database ...``: the rest is ``sevenstud``'s
own command line.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, event


def slow_commits(engine: Engine, delay: float, mark: str | None) -> None:
    """Sleep ``delay`` seconds just before every COMMIT on ``engine``; the file ``mark`` (when
    named) says ``writing`` while it sleeps."""

    def commit(_connection: Any) -> None:
        if mark:
            Path(mark).write_text("writing")
        time.sleep(delay)
        if mark:
            Path(mark).write_text("idle")

    event.listen(engine, "commit", commit)


def main() -> int:
    """Install the knobs the environment asks for, then run ``sevenstud``'s command line."""
    from sevenstud.cli import main as command_line
    from sevenstud.server import app

    delay = float(os.environ.get("SEVENSTUD_TEST_COMMIT_DELAY") or 0)
    mark = os.environ.get("SEVENSTUD_TEST_COMMIT_MARK") or None
    speed = float(os.environ.get("SEVENSTUD_TEST_TOURNAMENT_SPEED") or 1)
    opened, made = app.open_store, app.create_app
    if delay > 0:

        def open_slowly(*args: Any, **options: Any) -> Any:
            store = opened(*args, **options)
            slow_commits(store.engine, delay, mark)
            return store

        app.open_store = open_slowly  # type: ignore[assignment]
    if speed != 1:

        def create(*args: Any, **options: Any) -> Any:
            application = made(*args, **options)
            application.state.tournaments.max_speed = speed
            application.state.tournaments.bot_fields = True
            return application

        app.create_app = create  # type: ignore[assignment]
    profile_to = os.environ.get("SEVENSTUD_TEST_PROFILE") or None
    if profile_to is None:
        return command_line(sys.argv[1:])
    import cProfile
    import signal

    # uvicorn raises the SIGTERM it stopped on again once stopped: an exit, so that the
    # statistics are written (the default action would end the process first).
    signal.signal(signal.SIGTERM, lambda _signal, _frame: sys.exit(0))
    profiler = cProfile.Profile()
    try:
        return int(profiler.runcall(command_line, sys.argv[1:]) or 0)
    finally:
        profiler.dump_stats(profile_to)


if __name__ == "__main__":
    sys.exit(main())
