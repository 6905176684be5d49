"""Batch evaluation and stud equity against the peers, side by side, on this machine, one core.

    .venv/bin/python benchmarks/equity_vs_peers.py [--seconds S] [--json] [--only GROUP]

Every side runs in its own process (one thread: ``RAYON_NUM_THREADS``, ``OMP_NUM_THREADS`` and
friends are set to 1), so that the peak memory printed beside it (the process's peak resident
set, ``ru_maxrss``, interpreter and imports included) is that side's alone. The peers are used
when they are installed: PokerKit (a test dependency), and ``poker-equity``, ``phevaluator`` and
``eval7`` (``pip install poker-equity phevaluator eval7``); a peer that is missing or declines the
task is listed with the reason. Ratios are ours over the peer: above 1 means we are faster.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
HU3 = ["As 2s 3s", "Kd Kh Qc"]
HU4 = ["As 2s 3s 7h", "Kd Kh Qc Js"]
HU5 = ["As 2s 3s 7h 8d", "Kd Kh Qc Js 9d"]
EIGHT = ["As 2s 3s", "Kd Kh Qc", "4c 5c 6c", "Jh Th 9h", "Ad 2d 8s", "7d 7h Ks", "3c 4d 6h", "Qs Js Ts"]
Result = dict[str, Any]


class Declined(Exception):
    """The peer cannot do this task (say why)."""


def _timed(run: Callable[[], int], seconds: float, min_runs: int = 1) -> tuple[int, float, float]:
    """Run until ``seconds`` have passed: (work done, elapsed, best single run)."""
    done = runs = 0
    best = float("inf")
    start = time.perf_counter()
    while runs < min_runs or time.perf_counter() - start < seconds:
        t = time.perf_counter()
        done += run()
        best = min(best, time.perf_counter() - t)
        runs += 1
    return done, time.perf_counter() - start, best


def _hands(count: int, seed: int = 2026) -> Any:
    import numpy as np

    rng = np.random.default_rng(seed)
    parts = []
    for start in range(0, count, 100_000):
        n = min(100_000, count - start)
        parts.append(np.argsort(rng.random((n, 52), dtype=np.float32), axis=1)[:, :7].astype(np.uint8))
    return np.vstack(parts)


def _text(hands: Any, sep: str = "") -> list[str]:
    names = [r + s for r in "23456789TJQKA" for s in "cdhs"]
    return [sep.join(names[c] for c in row) for row in hands.tolist()]


# ----------------------------------------------------------------------------- evaluation sides


def eval_ours_batch(seconds: float, check: bool = False) -> Result:
    from sevenstud.fast import hilo8_ranks

    hands = _hands(2_000_000)
    hilo8_ranks(hands[:1000])
    _done, _elapsed, best = _timed(lambda: (hilo8_ranks(hands, check=check), hands.shape[0])[1], seconds)
    return {"rate": hands.shape[0] / best, "unit": "hi+lo hands/s", "note": "numpy batch, best of runs"}


def eval_ours_batch_checked(seconds: float) -> Result:
    result = eval_ours_batch(seconds, check=True)
    result["note"] = "numpy batch, cards and duplicates checked"
    return result


def eval_ours_pure(seconds: float) -> Result:
    from sevenstud.evaluate import hilo8_ranks

    hands = _hands(100_000).tolist()

    def run() -> int:
        for hand in hands:
            hilo8_ranks(hand)
        return len(hands)

    done, elapsed, _ = _timed(run, seconds)
    return {"rate": done / elapsed, "unit": "hi+lo hands/s", "note": "pure Python, one hand a call"}


def eval_pokerkit(seconds: float) -> Result:
    from pokerkit import Card, EightOrBetterLowHand, StandardHighHand

    hands = [list(Card.parse(text)) for text in _text(_hands(5_000))]

    def run() -> int:
        for hand in hands:
            StandardHighHand.from_game(hand)
            with contextlib.suppress(ValueError):
                EightOrBetterLowHand.from_game(hand)
        return len(hands)

    done, elapsed, _ = _timed(run, seconds)
    return {
        "rate": done / elapsed,
        "unit": "hi+lo hands/s",
        "note": "StandardHighHand + EightOrBetterLowHand",
    }


def eval_poker_equity(seconds: float) -> Result:
    import poker_equity

    hands = _text(_hands(500_000))
    poker_equity.score_batch("high", hands[:10])

    def run() -> int:
        poker_equity.score_batch("high", hands)
        poker_equity.score_batch("low_a5", hands)
        return len(hands)

    _done, _elapsed, best = _timed(run, seconds)
    return {
        "rate": len(hands) / best,
        "unit": "hi+lo hands/s",
        "note": "score_batch high + low_a5 (no 8 qualifier), from strings",
    }


def eval_phevaluator(seconds: float) -> Result:
    from phevaluator import evaluate_cards

    hands = _hands(200_000).tolist()

    def run() -> int:
        for hand in hands:
            evaluate_cards(*hand)
        return len(hands)

    done, elapsed, _ = _timed(run, seconds)
    return {"rate": done / elapsed, "unit": "hi+lo hands/s", "note": "HIGH ONLY (no low evaluator)"}


def eval_eval7(seconds: float) -> Result:
    import eval7

    deck = [eval7.Card(r + s) for r in "23456789TJQKA" for s in "cdhs"]
    hands = [[deck[c] for c in row] for row in _hands(200_000).tolist()]

    def run() -> int:
        for hand in hands:
            eval7.evaluate(hand)
        return len(hands)

    done, elapsed, _ = _timed(run, seconds)
    return {"rate": done / elapsed, "unit": "hi+lo hands/s", "note": "HIGH ONLY (no low evaluator)"}


# ------------------------------------------------------------------------------- equity sides


def _ours_exact(hands: list[str], game: str, seconds: float) -> Result:
    from sevenstud.equity import equity

    equity(HU5, game=game)  # tables built, imports done
    last: list[Any] = []

    def run() -> int:
        last.append(equity(hands, game=game, exact=True))
        return int(last[-1].outcomes)

    _done, _elapsed, best = _timed(run, seconds)
    r = last[-1]
    return {
        "rate": r.outcomes / best,
        "unit": "deals/s",
        "seconds": best,
        "note": f"{r.outcomes:,} deals in {1000 * best:.1f} ms ({r.method});"
        f" equity {r.players[0].equity:.6f}",
    }


def _peer_poker_equity_exact(hands: list[str], variant: str, seconds: float) -> Result:
    import poker_equity

    text = [h.replace(" ", "") for h in hands]
    if poker_equity.exact_from_text(variant, text) is None:
        raise Declined("exact_from_text returns None: too many deals to walk")
    last: list[Any] = []

    def run() -> int:
        last.append(poker_equity.exact_from_text(variant, text))
        return int(last[-1]["samples"])

    _done, _elapsed, best = _timed(run, seconds)
    r = last[-1]
    return {
        "rate": r["samples"] / best,
        "unit": "deals/s",
        "seconds": best,
        "note": f"{int(r['samples']):,} deals in {1000 * best:.1f} ms;"
        f" equity {r['players'][0]['equity']:.6f}",
    }


def _ours_mc(hands: list[str], game: str, seconds: float) -> Result:
    from sevenstud.equity import equity

    equity(hands, game=game, trials=1000, seed=1)
    trials = 2_000_000 if len(hands) == 2 else 500_000
    last: list[Any] = []

    def run() -> int:
        last.append(equity(hands, game=game, trials=trials, seed=len(last)))
        return trials

    done, elapsed, _ = _timed(run, seconds)
    r = last[-1]
    return {
        "rate": done / elapsed,
        "unit": "deals/s",
        "note": f"equity {r.players[0].equity:.4f} ± {r.players[0].equity_se:.4f}"
        + ("; community card" if r.community else ""),
    }


def _peer_poker_equity_mc(hands: list[str], variant: str, seconds: float) -> Result:
    import poker_equity

    text = [h.replace(" ", "") for h in hands]
    samples = 500_000 if len(hands) == 2 else 100_000
    try:
        poker_equity.chunk_from_text(variant, text, samples=1000, seed=1, threads=1)
    except Exception as error:
        raise Declined(f"{type(error).__name__}: {error}") from None
    last: list[Any] = []

    def run() -> int:
        last.append(
            poker_equity.chunk_from_text(variant, text, samples=samples, seed=len(last) + 1, threads=1)
        )
        return samples

    done, elapsed, _ = _timed(run, seconds)
    p = last[-1]["players"][0]
    return {
        "rate": done / elapsed,
        "unit": "deals/s",
        "note": f"equity {p['equity']:.4f} ± {p['std_error']:.4f}",
    }


def _peer_pokerkit_mc(hands: list[str], hi_lo: bool, seconds: float) -> Result:
    from pokerkit import Card, Deck, EightOrBetterLowHand, StandardHighHand, calculate_equities

    ranges = tuple([tuple(Card.parse(h.replace(" ", "")))] for h in hands)
    types = (StandardHighHand, EightOrBetterLowHand) if hi_lo else (StandardHighHand,)
    samples = 500
    try:
        calculate_equities(ranges, (), 7, 0, Deck.STANDARD, types, sample_count=10)
    except Exception as error:
        raise Declined(f"{type(error).__name__}: {error}") from None
    last: list[Any] = []

    def run() -> int:
        last.append(calculate_equities(ranges, (), 7, 0, Deck.STANDARD, types, sample_count=samples))
        return samples

    done, elapsed, _ = _timed(run, seconds)
    return {
        "rate": done / elapsed,
        "unit": "deals/s",
        "note": f"calculate_equities, equity {last[-1][0]:.3f}",
    }


# --------------------------------------------------------------------------------- the table

GROUPS: dict[str, dict[str, Callable[[float], Result]]] = {
    "seven-card hi+lo evaluation": {
        "sevenstud.fast (numpy batch)": eval_ours_batch,
        "sevenstud.fast, checked": eval_ours_batch_checked,
        "sevenstud.evaluate (pure)": eval_ours_pure,
        "poker-equity": eval_poker_equity,
        "phevaluator": eval_phevaluator,
        "eval7": eval_eval7,
        "pokerkit": eval_pokerkit,
    },
    "exact heads-up 5th street, stud8": {
        "sevenstud.equity": lambda s: _ours_exact(HU5, "stud8", s),
        "poker-equity": lambda s: _peer_poker_equity_exact(HU5, "stud_hi_lo", s),
    },
    "exact heads-up 4th street, stud8": {
        "sevenstud.equity": lambda s: _ours_exact(HU4, "stud8", s),
        "poker-equity": lambda s: _peer_poker_equity_exact(HU4, "stud_hi_lo", s),
    },
    "exact heads-up 3rd street, stud8": {
        "sevenstud.equity": lambda s: _ours_exact(HU3, "stud8", s),
        "poker-equity": lambda s: _peer_poker_equity_exact(HU3, "stud_hi_lo", s),
    },
    "exact heads-up 3rd street, stud": {
        "sevenstud.equity": lambda s: _ours_exact(HU3, "stud", s),
        "poker-equity": lambda s: _peer_poker_equity_exact(HU3, "stud", s),
    },
    "exact heads-up 3rd street, razz": {
        "sevenstud.equity": lambda s: _ours_exact(HU3, "razz", s),
        "poker-equity": lambda s: _peer_poker_equity_exact(HU3, "razz", s),
    },
    "Monte Carlo heads-up 3rd street, stud8": {
        "sevenstud.equity": lambda s: _ours_mc(HU3, "stud8", s),
        "poker-equity": lambda s: _peer_poker_equity_mc(HU3, "stud_hi_lo", s),
        "pokerkit": lambda s: _peer_pokerkit_mc(HU3, True, s),
    },
    "Monte Carlo 8 players 3rd street, stud8": {
        "sevenstud.equity": lambda s: _ours_mc(EIGHT, "stud8", s),
        "poker-equity": lambda s: _peer_poker_equity_mc(EIGHT, "stud_hi_lo", s),
        "pokerkit": lambda s: _peer_pokerkit_mc(EIGHT, True, s),
    },
}


def _child(group: str, side: str, seconds: float) -> None:
    try:
        result = GROUPS[group][side](seconds)
    except ImportError as error:
        result = {"error": f"not installed ({error.name or error})"}
    except Declined as error:
        result = {"error": f"declines: {error}"}
    result["peak_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(result))


def _run_side(group: str, side: str, seconds: float) -> Result:
    env = dict(os.environ)
    for name in ("RAYON_NUM_THREADS", "OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        env[name] = "1"
    env["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + env.get("PYTHONPATH", "")
    out = subprocess.run(
        [sys.executable, __file__, "--side", group, side, str(seconds)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        check=False,
        timeout=600,
    )
    lines = out.stdout.strip().splitlines()
    if out.returncode or not lines:
        return {"error": f"failed: {(out.stderr.strip().splitlines() or ['?'])[-1]}", "peak_mib": 0.0}
    result: Result = json.loads(lines[-1])
    return result


def main() -> None:
    args = sys.argv[1:]
    if args[:1] == ["--side"]:
        _child(args[1], args[2], float(args[3]))
        return
    seconds = float(args[args.index("--seconds") + 1]) if "--seconds" in args else 1.0
    only = args[args.index("--only") + 1] if "--only" in args else None
    report: dict[str, dict[str, Result]] = {}
    for group, sides in GROUPS.items():
        if only and only.lower() not in group.lower():
            continue
        results = {side: _run_side(group, side, seconds) for side in sides}
        report[group] = results
        if "--json" in args:
            continue
        ours_name = next(iter(sides))
        ours = results[ours_name]
        print(f"\n{group}")
        for side, r in results.items():
            if "error" in r:
                print(
                    f"  {side:<29} {'-':>15}                    peak {r['peak_mib']:7.1f} MiB   {r['error']}"
                )
                continue
            ratio = ""
            if side != ours_name and "rate" in ours:
                ratio = f"ours/peer {ours['rate'] / r['rate']:10,.1f}x"
            print(
                f"  {side:<29} {r['rate']:15,.0f} {r['unit']:<13} peak {r['peak_mib']:7.1f} MiB"
                f"   {ratio:<21} {r.get('note', '')}"
            )
    if "--json" in args:
        print(json.dumps(report))


if __name__ == "__main__":
    main()
