"""Complete random-action Stud Hi/Lo hands per second: our engine against PokerKit on the same
workload (2 to 8 players, stacks of 1 to 150 chips at 1/2/5/10 so that all-ins happen, a
uniformly random legal kind of action at every decision, a freshly shuffled deck every hand).
Our engine runs twice, each in its own process: pure Python (the installed package) and compiled
with mypyc (``make compiled``: tools/build_compiled.py), from the same source.

    .venv/bin/python benchmarks/engine_vs_pokerkit.py [--seconds S] [--json] [--compiled DIR]
"""

from __future__ import annotations

import os
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


def ours(seconds: float) -> tuple[int, float, str, float]:
    import sevenstud.hand
    from sevenstud.cards import Deck
    from sevenstud.games import Stakes, StudHiLo
    from sevenstud.hand import Hand

    # As PokerKit (tournament mode): no fold when checking is free, so both play the same hands.
    compiled = os.environ.get("SEVENSTUD_COMPILED")
    where = sevenstud.hand.__file__ or ""
    if compiled and not where.endswith(".so"):  # the compiled row must measure compiled code
        raise SystemExit(f"the compiled side imported {where}, not the build in {compiled}")
    game = StudHiLo(Stakes(ante=1, bring_in=2, small_bet=5, big_bet=10), fold_without_bet=False)
    rng = random.Random(0)
    choice = rng.choice
    done = 0
    cpu, start = time.process_time(), time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(100):
            hand = Hand(game, _setup(rng), Deck.shuffled())
            while hand.to_act is not None:
                hand.act(choice(hand.legal_actions()))
        done += 100
    return done, time.perf_counter() - start, "hands", time.process_time() - cpu


def pokerkit(seconds: float) -> tuple[int, float, str, float]:
    from pokerkit_random import pokerkit_random_hand  # type: ignore[import-not-found]

    rng = random.Random(0)
    done = 0
    cpu, start = time.process_time(), time.perf_counter()
    while time.perf_counter() - start < seconds:
        stacks = _setup(rng)
        pokerkit_random_hand("stud8", rng, len(stacks), stacks, 1, 2, 5, 10)
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
