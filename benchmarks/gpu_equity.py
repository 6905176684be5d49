"""The GPU (``device="cuda"``, CuPy) checked against the CPU and measured: one prepared run.

Run it from the repository root on the machine with the GPU (CuPy, numpy, Python 3.12; the
package importable with ``PYTHONPATH=src``; no network needed), with the ``run`` tool::

    PYTHONPATH=src python3 benchmarks/gpu_equity.py

(``timeout_s`` 420: the script keeps to about six minutes, every section under its own time
limit, and writes what it has after each one.) It prints the device, then

1. identity checks: exact equity on the GPU against the CPU, integer for integer, on heads-up
   positions (3rd, 5th, 7th street), three and four players (the last player counted by
   inclusion-exclusion) and eight players with a community card (every deal); batch evaluation
   of four million random seven-card hands against the CPU;
2. Monte Carlo deals per second on the GPU: heads-up 3rd street stud8 (completion tables,
   rejection) and eight players on 3rd street stud8 (shuffles, a community card); the target is
   over a billion deals a second;
3. exact four-way 5th street stud8 on the GPU (26,506,116,000 deals): the time (target: under
   10 s) and the counts against the CPU's, computed once and written below (48.7 s on one core of
   the machine that wrote this script);
4. the real-GPU tests, ``tests/test_gpu.py``, when pytest is installed.

The figures go to ``$OUT/gpu_figures.json`` when ``$OUT`` is set (else to the current folder).

``--stand-in`` runs the whole script here, without a GPU, on the strict numpy stand-in for CuPy
of ``tests/fake_cupy.py``: it checks the script and the device code path before device time is
spent on them, and measures nothing (its timings are the CPU's, slowed by the stand-in).
"""

from __future__ import annotations

import json
import os
import platform
import signal
import subprocess
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

BUDGET_S = 345.0  # the whole script
STARTED = time.perf_counter()
FIGURES: dict[str, Any] = {"errors": []}
OUT = Path(os.environ.get("OUT") or ".") / "gpu_figures.json"

HU3 = ["As 2s 3s", "Kd Kh Qc"]
EIGHT = ["As 2s 3s", "Kd Kh Qc", "4c 5c 6c", "Jh Th 9h", "Ad 2d 8s", "7d 7h Ks", "3c 4d 6h", "Qs Js Ts"]
FOUR_WAY = ["As 2s 3s 7h 8d", "Kd Kh Qc Js 9d", "4c 5c 6c Tc 2d", "Ah Ad 8h 8c 6s"]
# The CPU's exact counts of FOUR_WAY, stud8 (kernels.last_player_exact on numpy).
FOUR_WAY_CPU = {
    "total": 26506116000,
    "no_low": 0,
    "equity": [15261398184480, 3822356641320, 16051620200280, 9394899853920],
    "scoop": [998346301, 0, 5329174303, 363810732],
    "high_win": [1466675387, 4550424573, 10171596692, 10315706528],
    "high_tie": [1712820, 0, 0, 1712820],
    "low_win": [16699140900, 0, 8935816500, 867841650],
    "low_tie": [3316950, 0, 3316950, 0],
}
IDENTITY = [
    ("heads-up 3rd street stud8", HU3, "stud8", ""),
    ("heads-up 3rd street razz", ["As 2s 8s", "3d 4h Kc"], "razz", ""),
    ("heads-up 5th street stud", ["As 2s 3s 7h 8d", "Kd Kh Qc Js 9d"], "stud", ""),
    (
        "heads-up 7th street stud8, unknown cards",
        ["As 2s 3s 4d 5h 6c 7d", "?? ?? Kc Qs Qd 9h ??"],
        "stud8",
        "8c",
    ),
    ("3 players 5th street stud8", ["As 2s 3s 7h 8d", "Kd Kh Qc Js 9d", "4c 5c 6c Tc 2d"], "stud8", ""),
    ("3 players 5th street razz", ["As 2s 3s 7h 8d", "Kd Kh Qc Js 9d", "4c 5c 6c Tc 2d"], "razz", "Qd"),
    (
        "4 players 6th street stud8",
        ["As 2s 3s 7h 8d Jc", "Kd Kh Qc Js 9d 9c", "4c 5c 6c Tc 2d 3d", "Ah Ad 8h 8c 6s 5h"],
        "stud8",
        "",
    ),
    (
        "3 players 7th street stud, unknown cards",
        ["As 2s 3s 4d 5h 6c 7s", "?? ?? Kc Qs Qd 9h ??", "7c 8c 2d 3d 4c 5c ??"],
        "stud",
        "Ad",
    ),
    (
        "8 players 5th street stud8, a community card",
        [f"{a}{s} {b}{s} {c}{s} {d}{s} {e}{s}" for a, b, c, d, e in ("23456", "789TJ") for s in "cdhs"],
        "stud8",
        "Qc Qd",
    ),
    (
        "8 players 6th street razz, a community card",
        [
            "2c 3c 4c 5c 6c 7c",
            "?? ?? 4d 5d 6d 7d",
            "2h 3h 4h 5h 6h 7h",
            "2s 3s 4s 5s 6s 7s",
            "8c 9c Tc Jc Qc Kc",
            "8d 9d Td Jd Qd Kd",
            "?? ?? Th Jh Qh Kh",
            "8s 9s Ts Js Qs Ks",
        ],
        "razz",
        "",
    ),
]


def left() -> float:
    return BUDGET_S - (time.perf_counter() - STARTED)


def save() -> None:
    FIGURES["elapsed_s"] = round(time.perf_counter() - STARTED, 2)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(FIGURES, indent=2) + "\n")


class SectionTimeout(Exception):
    pass


def section(name: str, seconds: float, body: Callable[[], None]) -> bool:
    """Run ``body`` within ``seconds`` (and what is left of the budget); on an error or a
    timeout, record it and go on. Whether it ran to the end."""
    limit = int(min(seconds, left() - 5))
    print(f"\n== {name} (limit {limit} s)", flush=True)
    if limit < 5:
        FIGURES["errors"].append(f"{name}: skipped, out of time")
        print("   skipped: out of time", flush=True)
        return False

    def alarm(_signum: int, _frame: Any) -> None:
        raise SectionTimeout(f"{name}: over {limit} s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(limit)
    try:
        body()
        return True
    except Exception as error:
        FIGURES["errors"].append(f"{name}: {type(error).__name__}: {error}")
        print(f"   FAILED: {type(error).__name__}: {error}", flush=True)
        if not isinstance(error, SectionTimeout):
            traceback.print_exc()
        return False
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
        save()


def timed(run: Callable[[], Any]) -> tuple[Any, float]:
    start = time.perf_counter()
    result = run()
    return result, time.perf_counter() - start


def check_device() -> None:
    import cupy
    import numpy as np

    from sevenstud.fast import device

    assert device.backend("cuda").gpu  # CuPy and a CUDA device, or a DeviceError saying what is missing
    FIGURES.update(device="CUDA device 0", cupy=cupy.__version__)
    try:
        props = cupy.cuda.runtime.getDeviceProperties(0)
        name = props["name"].decode() if isinstance(props["name"], bytes) else str(props["name"])
        _free, total = cupy.cuda.runtime.memGetInfo()
        FIGURES.update(
            device=name,
            cuda_runtime=cupy.cuda.runtime.runtimeGetVersion(),
            gpu_memory_gib=round(total / 2**30, 1),
            multiprocessors=props.get("multiProcessorCount"),
        )
    except Exception as error:  # the figures matter more than the device's description
        FIGURES["errors"].append(f"device properties: {type(error).__name__}: {error}")
    print(f"   {FIGURES['device']}, CuPy {cupy.__version__}, numpy {np.__version__}", flush=True)


def identity_exact() -> None:
    from sevenstud.equity import equity

    FIGURES["identity"] = []
    for title, hands, game, dead in IDENTITY:
        cpu, cpu_s = timed(lambda h=hands, g=game, d=dead: equity(h, game=g, dead=d, exact=True))
        gpu, gpu_s = timed(
            lambda h=hands, g=game, d=dead: equity(h, game=g, dead=d, exact=True, device="cuda")
        )
        again, again_s = timed(
            lambda h=hands, g=game, d=dead: equity(h, game=g, dead=d, exact=True, device="cuda")
        )
        same = (
            cpu.players == gpu.players == again.players
            and cpu.outcomes == gpu.outcomes
            and cpu.no_low == gpu.no_low
            and cpu.method == gpu.method
        )
        FIGURES["identity"].append(
            {
                "position": title,
                "identical": same,
                "deals": cpu.outcomes,
                "method": cpu.method,
                "cpu_s": round(cpu_s, 4),
                "gpu_first_s": round(gpu_s, 4),
                "gpu_s": round(again_s, 4),
            }
        )
        print(
            f"   {'same' if same else 'DIFFERENT'}  {title}: {cpu.outcomes:,} deals ({cpu.method});"
            f" CPU {cpu_s:.3f} s, GPU {again_s:.3f} s (first {gpu_s:.2f} s)",
            flush=True,
        )
        save()


def identity_batch() -> None:
    import cupy
    import numpy as np

    from sevenstud.fast import device, evaluate_batch

    be = device.backend("cuda")
    rng = np.random.default_rng(2026)
    count = 4_000_000
    hands = np.argsort(rng.random((count, 52), dtype=np.float32), axis=1)[:, :7].astype(np.uint8)
    cpu_ranks, cpu_s = timed(lambda: evaluate_batch(hands))
    on_gpu = cupy.asarray(hands)
    evaluate_batch(on_gpu[:1000], device="cuda")
    evaluate_batch(on_gpu[:1000], device="cuda", check=False)

    def gpu_run(check: bool) -> Any:
        ranks = evaluate_batch(on_gpu, device="cuda", check=check)
        be.sync()
        return ranks

    gpu_ranks, gpu_s = timed(lambda: gpu_run(False))
    checked, checked_s = timed(lambda: gpu_run(True))
    same = all(
        np.array_equal(getattr(cpu_ranks, f), cupy.asnumpy(getattr(gpu_ranks, f)))
        and np.array_equal(getattr(cpu_ranks, f), cupy.asnumpy(getattr(checked, f)))
        for f in ("high", "low", "low8")
    )
    FIGURES["batch_evaluation"] = {
        "hands": count,
        "identical": same,
        "cpu_hands_per_s": round(count / cpu_s),
        "gpu_hands_per_s": round(count / gpu_s),
        "gpu_checked_hands_per_s": round(count / checked_s),
    }
    print(
        f"   {'same' if same else 'DIFFERENT'}: {count:,} hands; CPU {count / cpu_s:,.0f}/s,"
        f" GPU {count / gpu_s:,.0f}/s ({count / checked_s:,.0f}/s checked)",
        flush=True,
    )


def monte_carlo(title: str, hands: list[str]) -> None:
    from sevenstud.equity import equity

    equity(hands, game="stud8", trials=4_000_000, seed=1, device="cuda")  # the kernels compiled
    _probe, probe_s = timed(lambda: equity(hands, game="stud8", trials=20_000_000, seed=2, device="cuda"))
    rate = 20_000_000 / probe_s
    trials = int(min(4e9, max(2e7, rate * 4)) // 1_000_000 * 1_000_000)
    result, seconds = timed(lambda: equity(hands, game="stud8", trials=trials, seed=3, device="cuda"))
    cpu = equity(hands, game="stud8", trials=2_000_000, seed=4)
    agree = all(
        abs(g.equity - c.equity) <= 4 * ((g.equity_se or 0) ** 2 + (c.equity_se or 0) ** 2) ** 0.5
        for g, c in zip(result.players, cpu.players, strict=True)
    )
    FIGURES["monte_carlo"].append(
        {
            "position": title,
            "trials": trials,
            "seconds": round(seconds, 3),
            "deals_per_s": round(trials / seconds),
            "equity_first": round(result.players[0].equity, 6),
            "se_first": result.players[0].equity_se,
            "agrees_with_cpu_within_4_se": agree,
            "over_1e9_per_s": trials / seconds > 1e9,
        }
    )
    print(
        f"   {trials:,} deals in {seconds:.2f} s: {trials / seconds:,.0f} deals/s"
        f" (target 1e9: {'met' if trials / seconds > 1e9 else 'not met'});"
        f" equity {result.players[0].equity:.5f} ± {result.players[0].equity_se or 0:.5f},"
        f" CPU {cpu.players[0].equity:.5f}: {'agree' if agree else 'DISAGREE'}",
        flush=True,
    )


def exact_four_way() -> None:
    from sevenstud.equity import _result, equity, position
    from sevenstud.fast import kernels

    pos = position(FOUR_WAY, game="stud8")
    deal = kernels.Deal(pos.game, pos.known, pos.unknown, pos.community, pos.unseen)
    print(f"   {deal.outcomes():,} deals; {kernels.last_player_plan(deal)}", flush=True)
    first, first_s = timed(lambda: equity(FOUR_WAY, game="stud8", exact=True, device="cuda"))
    print(f"   first run {first_s:.2f} s ({first.method})", flush=True)
    runs, result = [first_s], first
    if first_s < 40:
        result, again_s = timed(lambda: equity(FOUR_WAY, game="stud8", exact=True, device="cuda"))
        runs.append(again_s)
    reference = kernels.Counts(4)
    for key, value in FOUR_WAY_CPU.items():
        setattr(reference, key, value)
    expected = _result(pos, reference, True, result.method, 0.0)
    same = result.players == expected.players and result.outcomes == FOUR_WAY_CPU["total"]
    best = min(runs)
    FIGURES["exact_four_way_5th_street"] = {
        "deals": result.outcomes,
        "method": result.method,
        "seconds": round(best, 3),
        "seconds_first_run": round(first_s, 3),
        "deals_per_s": round(result.outcomes / best),
        "identical_to_cpu": same,
        "under_10_s": best < 10,
        "equity": [p.equity for p in result.players],
    }
    print(
        f"   {result.outcomes:,} deals in {best:.2f} s (target 10 s: {'met' if best < 10 else 'not met'});"
        f" counts {'identical to' if same else 'DIFFERENT from'} the CPU's",
        flush=True,
    )


def gpu_tests() -> None:
    command = [
        sys.executable,
        "-m",
        "pytest",
        "tests/test_gpu.py",
        "-q",
        "-p",
        "no:xdist",
        "-p",
        "no:cacheprovider",
    ]
    run = subprocess.run(
        command,
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=max(10.0, left() - 12),
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
        check=False,
    )
    tail = (run.stdout + run.stderr).strip().splitlines()[-15:]
    FIGURES["tests"] = {"returncode": run.returncode, "tail": tail}
    print("\n".join("   " + line for line in tail), flush=True)


def use_stand_in() -> None:
    """CuPy and the CUDA device played by numpy (``tests/fake_cupy.py``), for a dry run."""
    import numpy as np

    sys.path.insert(0, str(ROOT))
    from sevenstud.fast import device
    from tests import fake_cupy

    stand_in = fake_cupy.module()
    sys.modules["cupy"] = stand_in
    device.array_module = lambda name: np if name == "cpu" else stand_in  # type: ignore[assignment]
    FIGURES["stand_in"] = "numpy standing in for CuPy: a dry run of the script, no GPU measured"
    print(FIGURES["stand_in"], flush=True)


def main() -> int:
    import importlib.util

    import numpy as np

    if "--stand-in" in sys.argv[1:]:
        use_stand_in()
    FIGURES["python"] = platform.python_version()
    FIGURES["numpy"] = np.__version__
    if not section("device", 60, check_device):
        print("no GPU here: nothing to measure", flush=True)
        return 1
    section("identity: exact equity, GPU against CPU", 150, identity_exact)
    section("identity: batch evaluation, GPU against CPU", 60, identity_batch)
    FIGURES["monte_carlo"] = []
    for title, hands in (("heads-up 3rd street stud8", HU3), ("8 players 3rd street stud8", EIGHT)):
        section(f"Monte Carlo: {title}", 60, lambda t=title, h=hands: monte_carlo(t, h))
    section("exact four-way 5th street stud8", 150, exact_four_way)
    if importlib.util.find_spec("pytest") is not None and left() > 40:
        section("tests/test_gpu.py", left() - 10, gpu_tests)
    else:
        FIGURES["tests"] = "not run (no pytest, or no time left)"
    four_way = FIGURES.get("exact_four_way_5th_street", {})
    identical = (
        bool(FIGURES.get("identity"))
        and all(item["identical"] for item in FIGURES["identity"])
        and FIGURES.get("batch_evaluation", {}).get("identical", False)
        and four_way.get("identical_to_cpu", False)
    )
    FIGURES["summary"] = {
        "all_identical": identical,
        "monte_carlo_deals_per_s": {m["position"]: m["deals_per_s"] for m in FIGURES["monte_carlo"]},
        "exact_four_way_seconds": four_way.get("seconds"),
        "errors": len(FIGURES["errors"]),
    }
    save()
    print(f"\nsummary: {json.dumps(FIGURES['summary'])}\nfigures written to {OUT}", flush=True)
    return 0 if identical and not FIGURES["errors"] else 1


if __name__ == "__main__":
    sys.exit(main())
