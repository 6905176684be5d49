"""Complete random-action Stud Hi/Lo hands per second: our engine against PokerKit on the same
workload (2 to 8 players, stacks of 1 to 150 chips at 1/2/5/10 so that all-ins happen, a
uniformly random legal kind of action at every decision, a freshly shuffled deck every hand).
Our engine runs twice, each in its own process: pure Python (the installed package) and compiled
with mypyc (``make compiled``: tools/build_compiled.py), from the same source.

    .venv/bin/python benchmarks/engine_vs_pokerkit.py [--seconds S] [--json] [--compiled DIR]

Both sides run the same harness, interpreted Python on both, each with its own
``random.Random(0)``: per hand one :func:`_setup` (the stacks: one C-level ``random()`` call a
stack and one for their number), per decision one ``pick`` (:func:`_picker`: one ``random()``
call) among the legal choices. Our loop: ``Hand(game, stacks, Deck.shuffled())``, then while
somebody is to act ``hand.act(pick(hand.legal_actions()))``. PokerKit's loop (:func:`pokerkit_hand`): its
state with every automation on (antes, dealing from its own shuffled deck, burn cards, showdown,
chips), then at each decision the list of the kinds its ``can_*`` methods allow (bring-in, fold,
check/call, complete/bet/raise) and ``pick(options)()``. Nothing else is done per hand on either
side (no result is built: tests/peers/pokerkit_random.py's ``PeerResult`` and its operation log
are for the cross-check, not for play).
"""

from __future__ import annotations

import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(ROOT / "tests" / "peers"))
from harness import main  # noqa: E402

T = TypeVar("T")


def _setup(rand: Callable[[], float]) -> list[int]:
    """2 to 8 stacks of 1 to 150 chips, uniformly (``rand``: the side's ``Random.random``)."""
    return [1 + int(rand() * 150) for _ in range(2 + int(rand() * 7))]


def _picker(rand: Callable[[], float]) -> Callable[[Sequence[T]], T]:
    """A uniform choice among a decision's options: one ``rand()`` (C code) a decision, the same
    on both sides. ``Random.choice`` and ``randint`` are interpreted Python (``_randbelow``,
    ``getrandbits``), the same cost on both sides: it was a tenth of the compiled side's time
    and hid that much of the engines' difference."""

    def pick(options: Sequence[T]) -> T:
        return options[int(rand() * len(options))]

    return pick


def ours(seconds: float) -> tuple[int, float, str, float]:
    import sevenstud.hand
    from sevenstud.deck import Deck
    from sevenstud.games import Stakes, StudHiLo
    from sevenstud.hand import Hand

    # As PokerKit (tournament mode): no fold when checking is free, so both play the same hands.
    compiled = os.environ.get("SEVENSTUD_COMPILED")
    where = sevenstud.hand.__file__ or ""
    if compiled and not where.endswith(".so"):  # the compiled row must measure compiled code
        raise SystemExit(f"the compiled side imported {where}, not the build in {compiled}")
    game = StudHiLo(Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10), fold_without_bet=False)
    rand = random.Random(0).random
    pick = _picker(rand)
    done = 0
    cpu, start = time.process_time(), time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(100):
            hand = Hand(game, _setup(rand), Deck.shuffled())
            while hand.to_act is not None:
                hand.act(pick(hand.legal_actions()))
        done += 100
    return done, time.perf_counter() - start, "hands", time.process_time() - cpu


Operation = Callable[[], object]


def pokerkit_hand(stacks: list[int], pick: Callable[[list[Operation]], Operation]) -> Any:
    """One complete PokerKit hand, every decision ``pick``ed among the legal kinds of action (as
    tests/peers/pokerkit_random.py plays it, without building its result); the final state."""
    from pokerkit_peer import create_state  # type: ignore[import-not-found]
    from pokerkit_random import RANDOM_AUTOMATIONS  # type: ignore[import-not-found]

    state = create_state(
        "stud8",
        ante=1,
        bring_in=2,
        small_bet=5,
        big_bet=10,
        stacks=stacks,
        automations=RANDOM_AUTOMATIONS,
        burn_cards=True,  # PokerKit's own stud, as it ships
    )
    while state.status:
        options: list[Operation] = []
        if state.can_post_bring_in():
            options.append(state.post_bring_in)
        if state.can_fold():
            options.append(state.fold)
        if state.can_check_or_call():
            options.append(state.check_or_call)
        if state.can_complete_bet_or_raise_to():
            options.append(state.complete_bet_or_raise_to)
        pick(options)()
    return state


def pokerkit(seconds: float) -> tuple[int, float, str, float]:
    import warnings

    warnings.simplefilter("ignore")  # PokerKit warns when it reshuffles the muck on 7th street
    rand = random.Random(0).random
    pick = _picker(rand)
    done = 0
    cpu, start = time.process_time(), time.perf_counter()
    while time.perf_counter() - start < seconds:
        pokerkit_hand(_setup(rand), pick)
        done += 1
    return done, time.perf_counter() - start, "hands", time.process_time() - cpu


COMPILED_SIDE = "sevenstud compiled (mypyc)"
SIDES = {"sevenstud (pure Python)": ours, COMPILED_SIDE: ours, "PokerKit 0.7": pokerkit}


def _compiled_environment(args: list[str]) -> dict[str, str] | str:
    """The compiled side's environment (its build first on PYTHONPATH), or why it cannot run."""
    folder = Path(args[args.index("--compiled") + 1]) if "--compiled" in args else None
    folder = (folder or ROOT / "build" / "compiled").resolve()
    if (folder / "UNAVAILABLE").exists():
        return (folder / "UNAVAILABLE").read_text().strip()
    if not (folder / "SOURCES.json").exists():
        return f"no compiled build in {folder} (make compiled)"
    path = os.pathsep.join(p for p in (str(folder), os.environ.get("PYTHONPATH")) if p)
    return {"PYTHONPATH": path, "SEVENSTUD_COMPILED": str(folder)}


if __name__ == "__main__":
    main(
        __file__,
        "Complete random-action Stud Hi/Lo hands, 2-8 players, all-ins, one core",
        SIDES,
        environments={COMPILED_SIDE: _compiled_environment(sys.argv[1:])},
    )
