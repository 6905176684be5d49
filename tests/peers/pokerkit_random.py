"""PokerKit side of the speed benchmark: complete stud hands with uniformly random actions.

Everything PokerKit can automate is automated (antes, dealing with its own shuffled deck
and burn cards, showdown, pushing/pulling chips); at each decision one of the legal
kinds of action (bring-in, fold, check/call, complete/bet/raise; limit games have one
amount per kind) is picked uniformly with ``rng``.  PokerKit shuffles with the global
:mod:`random` module, so only the *actions* follow ``rng``.

Run ``python tests/peers/pokerkit_random.py [seconds]`` for a hands-per-second figure.
"""

from __future__ import annotations

import random
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path

from pokerkit import Automation

if __package__:
    from .pokerkit_peer import PeerResult, create_state
else:  # run as a script
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from pokerkit_peer import PeerResult, create_state  # type: ignore[no-redef,import-not-found]

__all__ = ["RANDOM_AUTOMATIONS", "pokerkit_random_hand"]

RANDOM_AUTOMATIONS = tuple(Automation)  # all of them, dealing and burning included


def pokerkit_random_hand(
    game: str,
    rng: random.Random,
    n_players: int,
    stacks: list[int],
    ante: int,
    bring_in: int,
    small_bet: int,
    big_bet: int,
) -> PeerResult:
    """Play one complete hand in PokerKit, choosing uniformly among legal action kinds.

    >>> r = pokerkit_random_hand("stud8", random.Random(1), 3, [40, 9, 200], 1, 2, 5, 10)
    >>> sum(r.payoffs), sum(r.finishing_stacks)
    (0, 249)
    """
    if len(stacks) != n_players:
        raise ValueError(f"{len(stacks)} stacks for {n_players} players")
    state = create_state(
        game,
        ante=ante,
        bring_in=bring_in,
        small_bet=small_bet,
        big_bet=big_bet,
        stacks=stacks,
        automations=RANDOM_AUTOMATIONS,
        burn_cards=True,  # PokerKit's own stud, as it ships
    )
    first_actor: dict[int, int | None] = {}
    choice = rng.choice
    while state.status:
        street_index = state.street_index
        assert street_index is not None
        if street_index not in first_actor:
            first_actor[street_index] = state.actor_index
        options: list[Callable[[], object]] = []
        if state.can_post_bring_in():
            options.append(state.post_bring_in)
        if state.can_fold():
            options.append(state.fold)
        if state.can_check_or_call():
            options.append(state.check_or_call)
        if state.can_complete_bet_or_raise_to():
            options.append(state.complete_bet_or_raise_to)
        if not options:
            raise AssertionError(f"PokerKit is stuck: {state.operations[-3:]}")
        choice(options)()
    last = max(first_actor, default=0)
    actors = [first_actor.get(i) for i in range(last + 1)]
    return PeerResult(
        finishing_stacks=list(state.stacks),
        payoffs=list(state.payoffs),
        bring_in_player=actors[0] if actors and actors[0] is not None else -1,
        first_actor_per_street=actors,
        raw_operations=[repr(operation) for operation in state.operations],
    )


def random_setup(rng: random.Random) -> tuple[int, list[int]]:
    """2 to 8 players with stacks of 1 to 150 chips (ante 1, bring-in 2, 5/10): many all-ins."""
    n_players = rng.randint(2, 8)
    return n_players, [rng.randint(1, 150) for _ in range(n_players)]


def hands_per_second(game: str = "stud8", seconds: float = 10.0, seed: int = 0) -> float:
    rng = random.Random(seed)
    hands = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        n_players, stacks = random_setup(rng)
        pokerkit_random_hand(game, rng, n_players, stacks, 1, 2, 5, 10)
        hands += 1
    return hands / (time.perf_counter() - start)


if __name__ == "__main__":
    warnings.simplefilter("ignore")  # PokerKit warns when it reshuffles the muck on 7th street
    duration = float(sys.argv[1]) if len(sys.argv) > 1 else 10.0
    for name in sys.argv[2:] or ["stud8"]:
        rate = hands_per_second(name, duration)
        print(f"pokerkit {name}: {rate:.1f} random hands/s (2-8 players, 1-150 chip stacks)")
