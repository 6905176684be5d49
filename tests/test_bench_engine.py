"""The engine benchmark's harness (benchmarks/engine_vs_pokerkit.py) is the same on both sides:
the same stacks and the same kind of choice at every decision, and PokerKit's lean loop plays
exactly the hands that the cross-check's PokerKit player (tests/peers/pokerkit_random.py) plays
with the same choices; only its result is not built."""

from __future__ import annotations

import importlib.util
import random
import sys
import warnings
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _bench() -> ModuleType:
    path = ROOT / "benchmarks" / "engine_vs_pokerkit.py"
    spec = importlib.util.spec_from_file_location("engine_vs_pokerkit", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    saved = list(sys.path)
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path[:] = saved  # the script puts benchmarks/ and tests/peers/ first on the path
    return module


def test_setup_deals_two_to_eight_stacks_of_one_to_150_chips_uniformly() -> None:
    bench = _bench()
    rand = random.Random(3).random
    setups = [bench._setup(rand) for _ in range(4000)]
    sizes = Counter(len(s) for s in setups)
    assert set(sizes) == set(range(2, 9))
    assert min(sizes.values()) > 4000 / 7 * 0.8  # uniform: each size near a seventh
    chips = [c for s in setups for c in s]
    assert min(chips) == 1 and max(chips) == 150


def test_pick_chooses_every_option_uniformly() -> None:
    bench = _bench()
    pick = bench._picker(random.Random(5).random)
    counts = Counter(pick("abc") for _ in range(6000))
    assert set(counts) == {"a", "b", "c"}
    assert min(counts.values()) > 1800  # each near 2000
    assert pick([7]) == 7


class _Chooser:
    """A stand-in for the ``random.Random`` that tests/peers/pokerkit_random.py asks for its
    choices: its ``choice`` is the benchmark's pick."""

    def __init__(self, pick: object) -> None:
        self.choice = pick


def test_pokerkit_lean_loop_plays_the_cross_checks_hands() -> None:
    pytest.importorskip("pokerkit")
    bench = _bench()
    sys.path.insert(0, str(ROOT / "tests" / "peers"))
    try:
        from pokerkit_random import pokerkit_random_hand  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(ROOT / "tests" / "peers"))
    setup_rng = random.Random(11)
    state = random.getstate()
    for hand in range(60):
        stacks = bench._setup(setup_rng.random)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # PokerKit warns when it reshuffles the muck
            # PokerKit shuffles with the global random module: the same seed, the same deck.
            random.seed(hand)
            lean = bench.pokerkit_hand(list(stacks), bench._picker(random.Random(hand).random))
            random.seed(hand)
            chooser = _Chooser(bench._picker(random.Random(hand).random))
            full = pokerkit_random_hand("stud8", chooser, len(stacks), list(stacks), 1, 2, 5, 10)  # type: ignore[arg-type]
        assert list(lean.stacks) == full.finishing_stacks, (hand, stacks)
        assert [repr(op) for op in lean.operations] == full.raw_operations, (hand, stacks)
    random.setstate(state)
