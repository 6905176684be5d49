"""Complete random-action Stud Hi/Lo hands per second: our engine against PokerKit on the same
workload (2 to 8 players, stacks of 1 to 150 chips at 1/2/5/10 so that all-ins happen, a
uniformly random legal kind of action at every decision, a freshly shuffled deck every hand).

    .venv/bin/python benchmarks/engine_vs_pokerkit.py [--seconds S] [--json]
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(ROOT / "tests" / "peers"))
from harness import main  # noqa: E402


def _setup(rng: random.Random) -> list[int]:
    return [rng.randint(1, 150) for _ in range(rng.randint(2, 8))]


def ours(seconds: float) -> tuple[int, float, str]:
    from sevenstud.cards import Deck
    from sevenstud.games import Stakes, StudHiLo
    from sevenstud.hand import Hand

    # As PokerKit (tournament mode): no fold when checking is free, so both play the same hands.
    game = StudHiLo(Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10), fold_without_bet=False)
    rng = random.Random(0)
    choice = rng.choice
    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(100):
            hand = Hand(game, _setup(rng), Deck.shuffled())
            while hand.to_act is not None:
                hand.act(choice(hand.legal_actions()))
        done += 100
    return done, time.perf_counter() - start, "hands"


def pokerkit(seconds: float) -> tuple[int, float, str]:
    from pokerkit_random import pokerkit_random_hand  # type: ignore[import-not-found]

    rng = random.Random(0)
    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        stacks = _setup(rng)
        pokerkit_random_hand("stud8", rng, len(stacks), stacks, 1, 2, 5, 10)
        done += 1
    return done, time.perf_counter() - start, "hands"


SIDES = {"sevenstud": ours, "PokerKit 0.7": pokerkit}

if __name__ == "__main__":
    main(__file__, "Complete random-action Stud Hi/Lo hands, 2-8 players, all-ins, one core", SIDES)
