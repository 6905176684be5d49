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
Everything is collected every :data:`FULL_EVERY` seconds. A full collection walks the whole
heap: 420 to 690 ms at 400 tables, and while hands were being played it found nothing (the
cycles Python makes, requests' and closed sockets', die young and go with the middle
generation), so it is rare by design, the one long pause left. What exists once the server
is built (modules, the evaluator's tables, the app) is frozen out of every collection.
"""

from __future__ import annotations

import asyncio
import gc
import time
from dataclasses import dataclass

YOUNG_EVERY = 0.1
"""Seconds between collections of the youngest generation."""
MIDDLE_EVERY = 0.5
"""Seconds between collections of the two younger generations (0.5 s: p99 26-33 ms under
benchmarks/load.py at 2,000 clients; with the youngest every 0.25 s, every 1 s gave 43-47 ms
and every 2 s 65-66 ms)."""
FULL_EVERY = 3600.0
"""Seconds between full collections."""


@dataclass(slots=True)
class Collector:
    """Collects on the event loop it runs on (:meth:`run`, a task for the server's lifetime);
    the automatic collector is off meanwhile and back on when the task ends."""

    young_every: float = YOUNG_EVERY
    middle_every: float = MIDDLE_EVERY
    full_every: float = FULL_EVERY
    collections: int = 0
    """How many collections it has run (of any generation)."""
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
            middle = full = time.monotonic()
            while True:
                await asyncio.sleep(self.young_every)
                now = time.monotonic()
                if now - full >= self.full_every:
                    generation, full, middle = 2, now, now
                elif now - middle >= self.middle_every:
                    generation, middle = 1, now
                else:
                    generation = 0
                began = time.perf_counter()
                gc.collect(generation)
                self.longest = max(self.longest, time.perf_counter() - began)
                self.collections += 1
        finally:
            if was_enabled:
                gc.enable()
