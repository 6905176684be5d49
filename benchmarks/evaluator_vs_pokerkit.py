"""Seven-card high plus eight-or-better low evaluations per second, pure Python:
sevenstud.evaluate.hilo8_ranks against PokerKit's StandardHighHand and EightOrBetterLowHand.

    .venv/bin/python benchmarks/evaluator_vs_pokerkit.py [--seconds S] [--json]
"""

from __future__ import annotations

import contextlib
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import main


def _hands(count: int) -> list[list[int]]:
    rng = random.Random(2026)
    deck = list(range(52))
    return [rng.sample(deck, 7) for _ in range(count)]


def ours(seconds: float) -> tuple[int, float, str]:
    from sevenstud.evaluate import hilo8_ranks

    hands = _hands(100_000)
    done = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        for hand in hands:
            hilo8_ranks(hand)
        done += len(hands)
    return done, time.perf_counter() - start, "hi+lo evaluations"


def pokerkit(seconds: float) -> tuple[int, float, str]:
    from pokerkit import Card, EightOrBetterLowHand, StandardHighHand

    text = [f"{'23456789TJQKA'[c >> 2]}{'cdhs'[c & 3]}" for c in range(52)]
    hands = [list(Card.parse("".join(text[c] for c in hand))) for hand in _hands(20_000)]
    done = 0
    start = time.perf_counter()
    for hand in hands:
        StandardHighHand.from_game(hand)
        with contextlib.suppress(ValueError):  # raised when no low qualifies
            EightOrBetterLowHand.from_game(hand)
        done += 1
        if done % 100 == 0 and time.perf_counter() - start >= seconds:
            break
    return done, time.perf_counter() - start, "hi+lo evaluations"


SIDES = {"sevenstud (pure Python)": ours, "PokerKit 0.7": pokerkit}

if __name__ == "__main__":
    main(__file__, "Seven-card hi + eight-or-better lo evaluations, pure Python, one core", SIDES)
