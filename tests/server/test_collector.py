"""The serving process's garbage collector (server/collector.py): it collects on its timer
with the automatic collector off, and gives the automatic one back when it stops."""

from __future__ import annotations

import asyncio
import gc
import weakref

import pytest

from sevenstud.server.collector import Collector


class _Node:
    def __init__(self) -> None:
        self.other: _Node | None = None


def _cycle() -> weakref.ref[_Node]:
    """A cycle only the cyclic collector can free; a weak reference to watch it go."""
    a, b = _Node(), _Node()
    a.other, b.other = b, a
    return weakref.ref(a)


def test_it_frees_cycles_on_its_timer_with_the_automatic_collector_off() -> None:
    async def run() -> tuple[bool, bool, int]:
        collector = Collector(young_every=0.01, middle_every=0.03, full_every=0.2)
        task = asyncio.get_running_loop().create_task(collector.run())
        await asyncio.sleep(0.02)  # it has started: frozen what was there, turned gc off
        off_while_running = not gc.isenabled()
        watched = _cycle()
        for _ in range(100):  # a full collection within 0.2 s at most; wait up to 1 s
            if watched() is None:
                break
            await asyncio.sleep(0.01)
        freed = watched() is None
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return off_while_running, freed, collector.collections

    assert gc.isenabled()
    try:
        off_while_running, freed, collections = asyncio.run(run())
    finally:
        gc.unfreeze()  # what run() froze goes back to the collector (other tests' objects)
    assert off_while_running
    assert freed
    assert collections > 0
    assert gc.isenabled(), "the automatic collector is back on once the task has ended"


@pytest.mark.parametrize("periods", [(0.0, 1.0, 2.0), (1.0, 0.5, 2.0), (0.1, 0.5, 0.2), (-1.0, 1.0, 1.0)])
def test_periods_out_of_order_are_refused(periods: tuple[float, float, float]) -> None:
    young, middle, full = periods
    with pytest.raises(ValueError, match="young <= middle <= full"):
        Collector(young_every=young, middle_every=middle, full_every=full)
