"""One equity job in a process of its own, so that it can really be stopped.

A job is :func:`sevenstud.equity.equity` in a child process forked from a fork server that has
the calculator and numpy loaded already. :func:`run` watches it: it passes on the child's
progress, asks the child to stop at the job's deadline (the child stops between two blocks of
work, so Monte Carlo keeps the trials it drew), and kills it (SIGKILL) when it has not ended
``grace`` seconds later; it returns only once the process has exited and been reaped.

Why a process and not a flag in a thread: a thread cannot be stopped from outside, and a kernel
checks a flag only between its blocks, while one numpy step (a sort of the completions, the
table of inner deals, the completion tables of Monte Carlo) may run for seconds, and exact
enumeration asks once in 16 outer deals; in the server's process the job would also share the
GIL with the event loop and its memory with the tables. A process is stopped by its own check
when it can be, by the system when it cannot, and gives its memory back when it ends. The child
runs at a lower priority (:data:`NICE`) with its address space limited, ignores Ctrl-C (the
server stops it), and ends when the server does: its pipe to the server reads as closed, and on
Linux the death of the fork server kills it too.

What it costs (``benchmarks/equity_jobs.py`` on the project's 2-core machine, load average 8-9;
docs/security.md, "Equity jobs"): a small job takes about 60 ms more than in the server's process (the
fork, the answer, the exit), the server's first job waits about 1 s for the fork server to
start, and asking whether to stop is one poll of the pipe (7 us) once a block: 0.007-0.05% of
the jobs measured.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.connection
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sevenstud import equity as calculator
from sevenstud.refusals import Refusal

NICE = 10
"""How much lower than the server's the worker's priority is: tables come first."""
PROGRESS_EVERY = 0.1
"""Seconds between two progress messages from a worker (at most)."""
POLL = 0.05
"""Seconds between two looks at ``cancel`` while a job runs."""


@dataclass(frozen=True, slots=True)
class Order:
    """What a worker computes: the position, and how (``exact``; ``fallback``: an exact count
    that would not fit in memory samples ``trials`` instead, as ``auto`` asks)."""

    hands: tuple[str, ...]
    game: str
    dead: str
    exact: bool
    trials: int
    fallback: bool = False


@dataclass(slots=True)
class Outcome:
    """How a job ended: its ``result`` (partial when ``result.stopped``), or its ``error``;
    ``stopped`` says why it was cut short (``"deadline"``, ``"shutdown"``) or is None;
    ``killed``: the worker did not stop when asked and was killed; ``pid`` the worker's."""

    result: calculator.EquityResult | None = None
    error: Refusal | None = None
    stopped: str | None = None
    progress: float = 0.0
    killed: bool = False
    pid: int | None = None


_context_lock = threading.Lock()
_context: Any = None


def context() -> Any:
    """The multiprocessing context workers start from: a fork server that preloads this module
    (and so the calculator and numpy) where the system has one, else spawn. Forking the server
    itself is never done: its threads (the event loop's, the thread pool's) may hold locks."""
    global _context
    with _context_lock:
        if _context is None:
            if "forkserver" in multiprocessing.get_all_start_methods():
                server = multiprocessing.get_context("forkserver")
                # "__main__": the fork server imports the main module once, so that no worker
                # imports it again (multiprocessing skips it in a child that has it already).
                server.set_forkserver_preload(["__main__", __name__, "sevenstud.fast.kernels"])
                _context = server
            else:  # pragma: no cover - Windows
                _context = multiprocessing.get_context("spawn")
        return _context


def _die_with_parent() -> None:
    """Linux: a SIGKILL when the fork server (this process's parent) dies, so that a worker
    never outlives a server that was killed itself, even one stuck where it cannot see its pipe
    close. The fork server ends when no process holds its "alive" pipe; multiprocessing gives
    every child a copy (so that a child may start processes too), which would keep the fork
    server, and so this worker, alive for as long as the worker runs: the worker closes it."""
    with contextlib.suppress(Exception):
        from multiprocessing import forkserver

        alive = getattr(getattr(forkserver, "_forkserver", None), "_forkserver_alive_fd", None)
        if isinstance(alive, int):
            os.close(alive)
            forkserver._forkserver._forkserver_alive_fd = None  # type: ignore[attr-defined]
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(Exception):
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def _limit_memory(megabytes: int | None) -> None:
    """At most ``megabytes`` of address space for this process: past it an allocation fails
    (numpy raises MemoryError) instead of the machine swapping for everyone."""
    if megabytes is None:
        return
    with contextlib.suppress(ImportError, ValueError, OSError):
        import resource

        size = megabytes * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (size, size))


def _work(conn: Any, order: Order, memory: int | None = None) -> None:
    """The worker's main: compute, send the answer, end (runs in the child)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C at the server's terminal: the server stops us
    _die_with_parent()
    _limit_memory(memory)
    with contextlib.suppress(OSError):
        os.nice(NICE)
    asked = False
    sent = 0.0

    def stop() -> bool:
        nonlocal asked
        if not asked:
            try:
                if conn.poll():  # "stop", or the server's end closed (EOF): stop either way
                    asked = True
            except (OSError, EOFError):
                asked = True
        return asked

    def progress(fraction: float) -> None:
        nonlocal sent
        now = time.monotonic()
        if now - sent >= PROGRESS_EVERY:
            sent = now
            with contextlib.suppress(OSError):
                conn.send(("progress", fraction))

    common: dict[str, Any] = {"game": order.game, "dead": order.dead, "progress": progress, "stop": stop}
    message: tuple[str, Any]
    try:
        try:
            if order.exact:
                answer = calculator.equity(list(order.hands), exact=True, **common)
            else:
                answer = calculator.equity(list(order.hands), trials=order.trials, **common)
        except (calculator.EquityError, MemoryError):
            if not (order.exact and order.fallback):
                raise
            # Too big to count exactly after all (memory): sample instead, as auto promises.
            answer = calculator.equity(list(order.hands), trials=order.trials, **common)
        message = ("result", answer)
    except calculator.EquityStopped as stopped:
        message = ("stopped", stopped.progress)
    except MemoryError:
        message = ("error", Refusal("equity_memory"))
    except ValueError as error:  # the refusal itself (pickled): the server says it in a language
        message = ("error", error if isinstance(error, Refusal) else Refusal(str(error)))
    except Exception as error:  # a job that breaks says so; the room runs on
        message = ("error", Refusal("equity_job_failed", kind=type(error).__name__))
    with contextlib.suppress(OSError):
        conn.send(message)
        conn.close()


def run(
    order: Order,
    *,
    seconds: float,
    grace: float,
    progress: Callable[[float], None],
    cancel: threading.Event,
    started: Callable[[int], None] = lambda pid: None,
    memory: int | None = None,
) -> Outcome:
    """Run ``order`` in a worker process until it answers, ``seconds`` pass (the deadline:
    asked to stop, killed ``grace`` seconds later) or ``cancel`` is set (the same, at once).
    ``progress`` gets the worker's progress, ``started`` its pid; ``memory``: the most address
    space the worker may have, in MiB (None: no limit). Returns once the worker has exited and
    been reaped, whatever happened."""
    outcome = Outcome()
    ctx = context()
    ours, theirs = ctx.Pipe(duplex=True)
    process = ctx.Process(target=_work, args=(theirs, order, memory), name="sevenstud-equity", daemon=True)
    try:
        process.start()  # returns once the worker is forked (the fork server's first start: ~1 s)
    except OSError as error:
        ours.close()
        theirs.close()
        outcome.error = Refusal("equity_job_not_started", problem=error.strerror or error)
        return outcome
    theirs.close()  # ours alone now: the worker's end closing reads as EOF here
    outcome.pid = process.pid
    started(process.pid)
    stop_at = time.monotonic() + seconds
    kill_at: float | None = None
    answered = False
    try:
        while True:
            now = time.monotonic()
            if kill_at is None and (now >= stop_at or cancel.is_set()):
                outcome.stopped = "shutdown" if cancel.is_set() and now < stop_at else "deadline"
                with contextlib.suppress(OSError):
                    ours.send("stop")
                kill_at = now + grace
            if kill_at is not None and now >= kill_at:
                outcome.killed = True
                break
            until = kill_at if kill_at is not None else stop_at
            ready = multiprocessing.connection.wait(
                [ours, process.sentinel], max(0.0, min(until - now, POLL))
            )
            if ours in ready:
                try:
                    kind, value = ours.recv()
                except (EOFError, OSError):
                    break  # the worker ended (or was killed from outside) without answering
                if kind == "progress":
                    outcome.progress = max(outcome.progress, float(value))
                    progress(outcome.progress)
                    continue
                answered = True
                if kind == "result":
                    outcome.result = value
                    if not value.stopped:
                        outcome.stopped = None  # it finished just as the deadline came
                elif kind == "stopped":
                    outcome.progress = max(outcome.progress, float(value))
                else:
                    outcome.error = value if isinstance(value, Refusal) else Refusal(str(value))
                break
            if process.sentinel in ready and not ours.poll():
                break
    finally:
        ours.close()
        if answered:
            process.join(grace)  # it has sent its last message: it is ending
        if process.exitcode is None:  # stuck past its grace (or gone quiet without an answer)
            outcome.killed = True
            process.kill()
        process.join()
        with contextlib.suppress(ValueError):
            process.close()
    if not answered and outcome.error is None and outcome.stopped is None:
        outcome.error = Refusal("equity_worker_ended")
    return outcome


__all__ = ["NICE", "Order", "Outcome", "context", "run"]
