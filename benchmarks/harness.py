"""Run each side of a benchmark in its own process (so that peak memory is that side's alone)
and print them side by side with the ratio to the peer.

A benchmark module defines ``SIDES = {"name": function}`` where each function takes the number
of seconds to run for and returns ``(work_done, seconds, unit)``; the first side is ours, the
last the peer. ``python benchmarks/X.py`` prints the table; ``--json`` prints it as JSON.

``environments`` may give a side extra environment variables for its process (the compiled
engine's side sets ``PYTHONPATH``), or a string: the reason that side cannot run here, printed
in its row instead of a rate.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

Side = Callable[[float], tuple[int, float, str]]


def _child(sides: dict[str, Side], name: str, seconds: float) -> None:
    done, elapsed, unit = sides[name](seconds)
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(
        json.dumps(
            {
                "side": name,
                "done": done,
                "seconds": elapsed,
                "unit": unit,
                "peak_mib": peak_kib / 1024,
            }
        )
    )


def main(
    script: str,
    title: str,
    sides: dict[str, Side],
    seconds: float = 3.0,
    environments: dict[str, dict[str, str] | str] | None = None,
) -> None:
    args = sys.argv[1:]
    if args and args[0] == "--side":
        _child(sides, args[1], float(args[2]))
        return
    if "--seconds" in args:
        seconds = float(args[args.index("--seconds") + 1])
    environments = environments or {}
    results = []
    unavailable: dict[str, str] = {}
    for name in sides:
        extra = environments.get(name, {})
        if isinstance(extra, str):
            unavailable[name] = extra
            continue
        out = subprocess.run(
            [sys.executable, script, "--side", name, str(seconds)],
            capture_output=True,
            text=True,
            check=True,
            cwd=Path(script).resolve().parent.parent,
            env={**os.environ, **extra},
        )
        results.append(json.loads(out.stdout.strip().splitlines()[-1]))
    for r in results:
        r["rate"] = r["done"] / r["seconds"]
    ours, peer = results[0], results[-1]
    ratios = {r["side"]: r["rate"] / peer["rate"] for r in results[:-1]}
    if "--json" in args:
        print(
            json.dumps(
                {
                    "benchmark": title,
                    "results": results,
                    "ratio": ours["rate"] / peer["rate"],
                    "ratios": ratios,
                    "unavailable": unavailable,
                }
            )
        )
        return
    print(title)
    for r in results:
        print(
            f"  {r['side']:<28} {r['rate']:>14,.0f} {r['unit']}/s   peak {r['peak_mib']:7.1f} MiB"
        )
    for name, reason in unavailable.items():
        print(f"  {name:<28} not run: {reason}")
    for side, ratio in ratios.items():
        print(f"  ratio {side} / {peer['side']}: {ratio:,.1f}x")
