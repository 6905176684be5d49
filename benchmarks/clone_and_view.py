"""What a search or a learning loop pays besides the actions: ``Hand.clone()`` against
``copy.deepcopy(hand)`` on the same mid-hand states, and building the view of the seat to act
(``view(seat)``, and ``view(seat, since=n)`` as a client that has the earlier events asks for
it) against applying an action, timed call by call during the same random Stud Hi/Lo hands
(5 players, stacks of 20 to 150 at 1/2/5/10).

    .venv/bin/python benchmarks/clone_and_view.py [--seconds S] [--json]
"""

from __future__ import annotations

import copy
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

from sevenstud.deck import Deck
from sevenstud.games import Stakes, StudHiLo
from sevenstud.hand import Hand

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import main

GAME = StudHiLo(Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10))


def _states(count: int) -> list[Hand]:
    """Hands stopped at a random decision (3rd to 7th street), the same ones for both sides."""
    rng = random.Random(1)
    out = []
    while len(out) < count:
        hand = Hand(GAME, [rng.randint(20, 150) for _ in range(5)], Deck.seeded(len(out)))
        for _ in range(rng.randint(0, 25)):
            if hand.to_act is None:
                break
            hand.act(rng.choice(hand.legal_actions()))
        if hand.to_act is not None:
            out.append(hand)
    return out


def _copies(make: Callable[[Hand], Hand]) -> Callable[[float], tuple[int, float, str]]:
    def side(seconds: float) -> tuple[int, float, str]:
        states = _states(200)
        done, spent = 0, 0.0
        while spent < seconds:
            start = time.perf_counter()
            for hand in states:
                make(hand)
            spent += time.perf_counter() - start
            done += len(states)
        return done, spent, "copies"

    return side


def _timed_play(what: str) -> Callable[[float], tuple[int, float, str]]:
    """Random hands; only the calls named by ``what`` are timed."""

    def side(seconds: float) -> tuple[int, float, str]:
        rng = random.Random(2)
        clock = time.perf_counter
        done, spent, number = 0, 0.0, 0
        while spent < seconds:
            hand = Hand(GAME, [rng.randint(20, 150) for _ in range(5)], Deck.seeded(number))
            number += 1
            while hand.to_act is not None:
                seat = hand.to_act
                if what == "view":
                    start = clock()
                    hand.view(seat)
                    spent += clock() - start
                elif what == "view since":
                    since = max(0, len(hand.events) - 4)
                    start = clock()
                    hand.view(seat, since=since)
                    spent += clock() - start
                action = rng.choice(hand.legal_actions())
                if what == "act":
                    start = clock()
                    hand.act(action)
                    spent += clock() - start
                else:
                    hand.act(action)
                done += 1
        return done, spent, "calls"

    return side


CLONE = {"Hand.clone()": _copies(Hand.clone), "copy.deepcopy(hand)": _copies(copy.deepcopy)}
VIEW = {
    "view(seat)": _timed_play("view"),
    "view(seat, since=n)": _timed_play("view since"),
    "act(action)": _timed_play("act"),
}

if __name__ == "__main__":
    if "--side" in sys.argv:  # a side's own process (harness): any of the sides
        main(__file__, "", {**CLONE, **VIEW})
    else:
        main(__file__, "Copying a mid-hand state (Stud Hi/Lo, 5 players)", CLONE)
        main(__file__, "A view of the seat to act against an action, call by call", VIEW)
