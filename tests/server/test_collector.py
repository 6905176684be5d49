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


def _freed_once_old(collector: Collector, wait: float) -> tuple[bool, int]:
    """Whether a cycle that outlived the middle generation (so only a full collection frees
    it) is freed within ``wait`` seconds of being dropped; and the full collections run."""

    async def run() -> bool:
        task = asyncio.get_running_loop().create_task(collector.run())
        await asyncio.sleep(0.02)
        holder = [_Node(), _Node()]
        holder[0].other, holder[1].other = holder[1], holder[0]
        watched = weakref.ref(holder[0])
        for _ in range(60):  # a few middle collections (every 0.02 s) move it to the oldest
            await asyncio.sleep(0.01)
            if any(o is holder[0] for o in gc.get_objects(generation=2)):
                break
        else:
            raise AssertionError("the cycle never reached the oldest generation")
        holder.clear()
        loop = asyncio.get_running_loop()
        until = loop.time() + wait
        while watched() is not None and loop.time() < until:
            await asyncio.sleep(0.01)
        freed = watched() is None
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return freed

    try:
        return asyncio.run(run()), collector.full_collections
    finally:
        gc.unfreeze()


@pytest.mark.alone  # timed: the cycle is dropped well before the collector's first count
def test_a_full_collection_comes_early_once_the_oldest_generation_has_grown() -> None:
    # No full collection for 100 s, but at its first reading (1 s, after the cycle was
    # dropped) the resident memory is past its floor (none) and twice what it was after the last
    # full collection (none yet).
    periods = {"young_every": 0.01, "middle_every": 0.02, "full_every": 100.0, "check_every": 1.0}
    freed, fulls = _freed_once_old(Collector(**periods, full_floor_mib=0.0), wait=2.0)
    assert freed and fulls >= 1
    # The same with a floor never reached: the old cycle stays until the hourly collection.
    freed, fulls = _freed_once_old(Collector(**periods, full_floor_mib=10.0**9), wait=0.5)
    assert not freed and fulls == 0
