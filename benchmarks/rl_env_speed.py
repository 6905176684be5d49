"""Environment steps per second: our stud environments beside PettingZoo's texas_holdem_v4 and
RLCard's limit hold'em, heads-up, in the same run (issue 17, point 5).

A step is one player's action. Every side plays random legal actions, chosen the same way
(uniformly among the legal ones, from the action mask where the API gives one), resetting
when a hand ends, and each side runs in its own process so that its peak memory (resident set,
interpreter and libraries included) is its own (benchmarks/harness.py). The sides:

- ``sevenstud AEC``: our PettingZoo environment (stud8), the loop of PettingZoo's own
  ``performance_benchmark`` (``last()``, which builds the observation, then ``step``); it plays
  on the lean engine (:mod:`sevenstud.rl.lean`, its default at these stakes);
- ``sevenstud AEC Hand``: the same with ``lean=False``, on the engine's ``Hand``;
- ``sevenstud single``: :class:`sevenstud.rl.single.StudEnv`, one table without PettingZoo's
  bookkeeping (``step`` returns the next player's observation, mask and seat, the rewards and
  whether a hand ended, dealing the next hand itself), the action drawn from its mask as the
  AEC loop draws it; the row to set beside RLCard's ``env.step``;
- ``sevenstud single Hand``: the same with ``lean=False``;
- ``sevenstud vector xB``: :class:`sevenstud.rl.vector.VectorStudEnv` with ``B`` games on its
  batched engine (:mod:`sevenstud.rl.batched`, the default at these stakes), one batch of random
  legal actions drawn with numpy per step; each of its steps is B steps;
- ``sevenstud vector xB per-hand``: the same with ``batched=False``, one engine ``Hand`` per
  game stepped in turn (the way every table the batched engine cannot play is stepped);
- ``sevenstud AEC env()``: the same environment as PettingZoo users usually make it,
  :func:`sevenstud.rl.aec.env` (``raw_env`` inside PettingZoo's illegal-action, bounds and
  order-enforcing wrappers, which the docs show first); the ``sevenstud AEC`` rows are
  ``raw_env``, without them;
- ``texas_holdem_v4 AEC``: PettingZoo's limit hold'em (built on RLCard), the same loop, its
  ``raw_env``; ``texas_holdem_v4 AEC env()``: its wrapped ``env()``, the peer of the row above;
- ``rlcard limit-holdem``: RLCard's own ``env.step`` (it builds the next player's state).

    .venv/bin/python benchmarks/rl_env_speed.py [--seconds S] [--repeat R] [--json] [--compiled DIR]
        [--only "sevenstud vector x1024,sevenstud AEC"]

``--compiled build/compiled`` adds our per-hand environments on the engine compiled with mypyc
(``make compiled``; the rl package itself stays interpreted; the batched engine is numpy and
uses no compiled module). Without it those rows say so. ``--only NAME[,NAME...]`` runs only
those sides (the peers are always run, for the ratios).

It needs the ``bench-rl`` extra (``pip install -e '.[bench-rl]'``); a peer that is not
installed is reported as not run.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import _child

Result = tuple[int, float, str, float]


def _aec_loop(env: object, seconds: float) -> Result:
    import numpy as np

    e: object = env
    choice = random.Random(1).choice
    e.reset(seed=1)  # type: ignore[attr-defined]
    steps = 0
    start, cpu = time.perf_counter(), time.process_time()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(200):
            obs, _, termination, truncation, _ = e.last()  # type: ignore[attr-defined]
            if termination or truncation:
                e.step(None)  # type: ignore[attr-defined]
                if not e.agents:  # type: ignore[attr-defined]
                    e.reset()  # type: ignore[attr-defined]
                continue
            e.step(choice(np.flatnonzero(obs["action_mask"]).tolist()))  # type: ignore[attr-defined]
            steps += 1
    return steps, time.perf_counter() - start, "steps", time.process_time() - cpu


def ours_aec(seconds: float) -> Result:
    from sevenstud.rl.aec import raw_env

    return _aec_loop(raw_env(game="stud8", players=2), seconds)


def ours_aec_wrapped(seconds: float) -> Result:
    from sevenstud.rl.aec import env

    return _aec_loop(env(game="stud8", players=2), seconds)


def ours_aec_hand(seconds: float) -> Result:
    from sevenstud.rl.aec import raw_env

    return _aec_loop(raw_env(game="stud8", players=2, lean=False), seconds)


def _ours_single(lean: bool) -> Callable[[float], Result]:
    def side(seconds: float) -> Result:
        import numpy as np

        from sevenstud.rl.single import StudEnv

        env = StudEnv(game="stud8", players=2, seed=1, lean=lean)
        choice = random.Random(1).choice
        _, mask, _ = env.reset()
        steps = 0
        start, cpu = time.perf_counter(), time.process_time()
        deadline = start + seconds
        while time.perf_counter() < deadline:
            for _ in range(200):
                _, mask, _, _, _ = env.step(choice(np.flatnonzero(mask).tolist()))
                steps += 1
        return steps, time.perf_counter() - start, "steps", time.process_time() - cpu

    return side


def _ours_vector(batch: int, batched: bool = True) -> Callable[[float], Result]:
    def side(seconds: float) -> Result:
        import numpy as np

        from sevenstud.rl.vector import VectorStudEnv

        venv = VectorStudEnv(batch, game="stud8", players=2, seed=1, batched=batched)
        rng = np.random.default_rng(1)
        _, masks, _ = venv.reset()
        steps = 0
        start, cpu = time.perf_counter(), time.process_time()
        deadline = start + seconds
        while time.perf_counter() < deadline:
            actions = (rng.random(masks.shape) * masks).argmax(axis=1)
            _, masks, _, _, _ = venv.step(actions)
            steps += batch
        return steps, time.perf_counter() - start, "steps", time.process_time() - cpu

    return side


def texas_holdem_aec(seconds: float) -> Result:
    from pettingzoo.classic import texas_holdem_v4

    return _aec_loop(texas_holdem_v4.raw_env(), seconds)


def texas_holdem_aec_wrapped(seconds: float) -> Result:
    from pettingzoo.classic import texas_holdem_v4

    return _aec_loop(texas_holdem_v4.env(), seconds)


def rlcard_limit_holdem(seconds: float) -> Result:
    import rlcard

    env = rlcard.make("limit-holdem", config={"seed": 1})
    choice = random.Random(1).choice
    state, _ = env.reset()
    steps = 0
    start, cpu = time.perf_counter(), time.process_time()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(200):
            state, _ = env.step(choice(list(state["legal_actions"])))
            steps += 1
            if env.is_over():
                state, _ = env.reset()
    return steps, time.perf_counter() - start, "steps", time.process_time() - cpu


def _compiled(side: Callable[[float], Result]) -> Callable[[float], Result]:
    """The same side, refusing to run unless the engine was imported compiled."""

    def run(seconds: float) -> Result:
        import sevenstud.hand

        if not (sevenstud.hand.__file__ or "").endswith(".so"):
            raise SystemExit(f"the engine is not the compiled one ({sevenstud.hand.__file__})")
        return side(seconds)

    return run


SIDES: dict[str, Callable[[float], Result]] = {
    "sevenstud single": _ours_single(lean=True),
    "sevenstud single Hand": _ours_single(lean=False),
    "sevenstud AEC": ours_aec,
    "sevenstud AEC env()": ours_aec_wrapped,
    "sevenstud AEC Hand": ours_aec_hand,
    "sevenstud vector x64 per-hand": _ours_vector(64, batched=False),
    "sevenstud vector x64": _ours_vector(64),
    "sevenstud vector x256": _ours_vector(256),
    "sevenstud vector x1024": _ours_vector(1024),
    "sevenstud AEC compiled": _compiled(ours_aec),
    "sevenstud vector x64 per-hand compiled": _compiled(_ours_vector(64, batched=False)),
    "texas_holdem_v4 AEC": texas_holdem_aec,
    "texas_holdem_v4 AEC env()": texas_holdem_aec_wrapped,
    "rlcard limit-holdem": rlcard_limit_holdem,
}
PEERS = ("texas_holdem_v4 AEC", "texas_holdem_v4 AEC env()", "rlcard limit-holdem")
"""The peers every run measures; each of our rows gets a ratio to each (raw to raw and wrapped to
wrapped are the like-for-like ones)."""


def _run(name: str, seconds: float, compiled: str | None) -> dict[str, float] | str:
    env = dict(os.environ)
    if name.endswith(" compiled"):
        if compiled is None:
            return "give --compiled DIR (the engine built by `make compiled`: build/compiled)"
        env["PYTHONPATH"] = os.path.abspath(compiled)
    out = subprocess.run(
        [sys.executable, __file__, "--side", name, str(seconds)],
        capture_output=True, text=True, cwd=Path(__file__).resolve().parent.parent, env=env,
    )
    if out.returncode:
        return (out.stderr.strip().splitlines() or ["failed"])[-1]
    row: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return row


def main() -> None:
    args = sys.argv[1:]
    if args and args[0] == "--side":
        _child(SIDES, args[1], float(args[2]))  # type: ignore[arg-type]
        return
    seconds = float(args[args.index("--seconds") + 1]) if "--seconds" in args else 3.0
    repeat = int(args[args.index("--repeat") + 1]) if "--repeat" in args else 3
    compiled = args[args.index("--compiled") + 1] if "--compiled" in args else None
    only = args[args.index("--only") + 1].split(",") if "--only" in args else list(SIDES)
    unknown = [name for name in only if name not in SIDES]
    if unknown:
        raise SystemExit(f"unknown sides {unknown}: the sides are {', '.join(SIDES)}")
    sides = [name for name in SIDES if name in only or name in PEERS]
    rates: dict[str, list[float]] = {name: [] for name in SIDES}
    cpu_rates: dict[str, list[float]] = {name: [] for name in SIDES}
    peaks: dict[str, float] = {}
    failed: dict[str, str] = {}
    for _ in range(repeat):  # the sides interleaved, so that a busy moment hits them all
        for name in sides:
            if name in failed:
                continue
            row = _run(name, seconds, compiled)
            if isinstance(row, str):
                failed[name] = row
                continue
            rates[name].append(row["done"] / row["seconds"])
            cpu_rates[name].append(row["done"] / row["cpu_seconds"])
            peaks[name] = max(peaks.get(name, 0.0), row["peak_mib"])
    summary = {
        name: {
            "median": statistics.median(r), "min": min(r), "max": max(r),
            "median_per_cpu_s": statistics.median(cpu_rates[name]), "peak_mib": peaks[name],
        }
        for name, r in rates.items()
        if r
    }
    def ratios_by(key: str) -> dict[str, dict[str, float]]:
        return {
            name: {peer: summary[name][key] / summary[peer][key] for peer in PEERS if peer in summary}
            for name in summary
            if name not in PEERS
        }

    # By the wall clock and per CPU second: on a shared machine the wall clock of a side
    # depends on the load of its moment, its CPU time much less (benchmarks/harness.py).
    ratios, cpu_ratios = ratios_by("median"), ratios_by("median_per_cpu_s")
    if "--json" in args:
        out = {"summary": summary, "ratios": ratios, "cpu_ratios": cpu_ratios, "failed": failed}
        print(json.dumps({**out, "repeat": repeat}))
        return
    print(f"environment steps per second, heads-up, {repeat} runs of {seconds:g} s each (median, min-max)")
    for name, s in summary.items():
        print(
            f"  {name:<30} {s['median']:>10,.0f} steps/s ({s['min']:,.0f}-{s['max']:,.0f};"
            f" {s['median_per_cpu_s']:,.0f} per CPU-s)  peak {s['peak_mib']:6.1f} MiB"
        )
    for name, reason in failed.items():
        print(f"  {name:<30} not run: {reason}")
    if "sevenstud AEC" in summary and "sevenstud AEC env()" in summary:
        per_cpu = {name: s["median_per_cpu_s"] for name, s in summary.items()}
        wrapped = per_cpu["sevenstud AEC env()"] / per_cpu["sevenstud AEC"]
        print(f"  sevenstud AEC env() (wrapped): {wrapped:.2f}x sevenstud AEC (raw_env) per CPU-s")
    for name, by_peer in ratios.items():
        if not by_peer:
            continue
        text = ", ".join(
            f"{ratio:.2f}x {peer} ({cpu_ratios[name][peer]:.2f}x per CPU-s)"
            for peer, ratio in by_peer.items()
        )
        print(f"  {name}: {text}")


if __name__ == "__main__":
    main()
