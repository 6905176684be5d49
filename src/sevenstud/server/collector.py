"""The serving process's garbage collector, run by its event loop in short steps.

Chips and cards are freed by reference counting; Python's cyclic collector only looks for
what reference counting cannot free. It starts a collection when the number of tracked
objects made minus those freed passes a threshold, and that is the wrong clock for a card room:
at steady state nearly as many objects are freed as made (each message's coroutines and
futures, each action's events), so the count hardly moves while the youngest generation
fills with objects still alive, and the collection that finally comes walks all of them with
every table waiting. Measured under ``benchmarks/load.py`` at 2,000 clients on a 2-core
machine with the thresholds of the time (20,000, 20, 100): a youngest-generation collection
every 3 to 4 s walked 50,000 to 70,000 objects in 30 to 60 ms, and a middle one walked
280,000 in 340 ms: those pauses *were* the p99 (every round trip over 40 ms fell in one).

So the server turns the automatic collector off and collects on a timer instead: the youngest
generation every :data:`YOUNG_EVERY` seconds and the middle one every :data:`MIDDLE_EVERY`.
Each then walks only what was made since its last step and is still alive (a message's
coroutines live about as long as a player thinks, so the shorter the step, the fewer of them
are still there): the same load's p99 went from 80-145 ms to 26-33 ms, at the same CPU.
Everything is collected every :data:`FULL_EVERY` seconds, or sooner once the process's
resident memory has doubled since the last time (:data:`FULL_FLOOR_MIB`). A full collection
walks the whole heap: 420 to 690 ms at 400 tables, the one long pause left, so it is rare by
design. Nothing the card room does should need it: a cycle made by an object that lives longer
than the middle generation's period is found only by a full collection, and the ones hostile
clients made by the thousand (each websocket's upgraded HTTP protocol and its parser, an
oversized frame's error and the parser's frames, a closed connection and its writer task, a
refused command and its future) are broken where they are made. The memory trigger is the
bound for any such cycle not yet found. What exists once the server
is built (modules, the evaluator's tables, the app) is frozen out of every collection.
"""

from __future__ import annotations

import asyncio
import gc
import os
import sys
import time
from dataclasses import dataclass

YOUNG_EVERY = 0.1
"""Seconds between collections of the youngest generation."""
MIDDLE_EVERY = 0.5
"""Seconds between collections of the two younger generations (0.5 s: p99 26-33 ms under
benchmarks/load.py at 2,000 clients; with the youngest every 0.25 s, every 1 s gave 43-47 ms
and every 2 s 65-66 ms)."""
FULL_EVERY = 3600.0
"""Seconds between full collections at most."""
FULL_FLOOR_MIB = 512
"""A full collection comes sooner once the process's resident memory passes this many MiB and
twice what it was just after the last full collection (read every :data:`CHECK_EVERY`
seconds; where the platform cannot say, only the hourly one runs). Under
benchmarks/hostile_soak.py, before the cycles above were broken, sockets opened and closed by
the thousand left 8,000 to 22,000 objects in cycles every 10 s (about 25 MiB a minute), and
only this bounds what an unbroken one could pile up. Memory, not the oldest generation's
size: counting that (``gc.get_objects(2)``) took 72-100 ms at 2,000 clients."""
CHECK_EVERY = 10.0
"""Seconds between readings of the resident memory."""


def resident_mib() -> float | None:
    """The process's resident memory in MiB now (Linux's /proc), else its peak (where
    ``resource`` says it), else None."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            pages = int(statm.read().split()[1])
        return pages * _PAGE / (1024 * 1024)
    except (OSError, ValueError, IndexError):
        pass
    try:
        import resource
    except ImportError:  # Windows
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024  # bytes; KiB


try:
    _PAGE = os.sysconf("SC_PAGE_SIZE")
except (AttributeError, ValueError, OSError):  # pragma: no cover - no sysconf: no /proc either
    _PAGE = 4096


@dataclass(slots=True)
class Collector:
    """Collects on the event loop it runs on (:meth:`run`, a task for the server's lifetime);
    the automatic collector is off meanwhile and back on when the task ends."""

    young_every: float = YOUNG_EVERY
    middle_every: float = MIDDLE_EVERY
    full_every: float = FULL_EVERY
    full_floor_mib: float = FULL_FLOOR_MIB
    check_every: float = CHECK_EVERY
    collections: int = 0
    """How many collections it has run (of any generation)."""
    full_collections: int = 0
    """How many of them were full."""
    longest: float = 0.0
    """The longest of them, in seconds."""

    def __post_init__(self) -> None:
        if not 0 < self.young_every <= self.middle_every <= self.full_every:
            raise ValueError(
                "the collector's periods go 0 < young <= middle <= full, not "
                f"{self.young_every}, {self.middle_every}, {self.full_every}"
            )

    async def run(self) -> None:
        gc.collect()
        gc.freeze()
        was_enabled = gc.isenabled()
        gc.disable()
        try:
            middle = full = checked = time.monotonic()
            at_full = 0.0  # the resident memory after the last full collection (none yet: the floor)
            while True:
                await asyncio.sleep(self.young_every)
                now = time.monotonic()
                grown = False
                if now - checked >= self.check_every:
                    checked = now
                    resident = resident_mib()
                    grown = resident is not None and resident >= max(self.full_floor_mib, 2 * at_full)
                if grown or now - full >= self.full_every:
                    generation, full, middle = 2, now, now
                elif now - middle >= self.middle_every:
                    generation, middle = 1, now
                else:
                    generation = 0
                began = time.perf_counter()
                gc.collect(generation)
                if generation == 2:
                    at_full = resident_mib() or 0.0
                    self.full_collections += 1
                self.longest = max(self.longest, time.perf_counter() - began)
                self.collections += 1
        finally:
            if was_enabled:
                gc.enable()
