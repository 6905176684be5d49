"""Run each side of a benchmark in its own process (so that peak memory is that side's alone)
and print them side by side with the ratio to the peer.

A benchmark module defines ``SIDES = {"name": function}`` where each function takes the number
of seconds to run for and returns ``(work_done, seconds, unit)``; the first side is ours, the
last the peer. ``python benchmarks/X.py`` prints the table; ``--json`` prints it as JSON.

A side may return a fourth value, the CPU seconds its loop used (``time.process_time``): its
row then shows the rate per CPU second too, and the ratios are given both ways. On a machine
shared with other work the wall clock of each side depends on the load of the moment it ran;
the CPU figure depends on it much less.

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

Side = Callable[[float], tuple[int, float, str] | tuple[int, float, str, float]]


def _child(sides: dict[str, Side], name: str, seconds: float) -> None:
    done, elapsed, unit, *cpu = sides[name](seconds)
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    row = {"side": name, "done": done, "seconds": elapsed, "unit": unit, "peak_mib": peak_kib / 1024}
    if cpu:
        row["cpu_seconds"] = cpu[0]
    print(json.dumps(row))


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
        if "cpu_seconds" in r:
            r["cpu_rate"] = r["done"] / r["cpu_seconds"]
    ours, peer = results[0], results[-1]
    ratios = {r["side"]: r["rate"] / peer["rate"] for r in results[:-1]}
    by_cpu = all("cpu_rate" in r for r in results)
    cpu_ratios = {r["side"]: r["cpu_rate"] / peer["cpu_rate"] for r in results[:-1]} if by_cpu else {}
    if "--json" in args:
        print(
            json.dumps(
                {
                    "benchmark": title,
                    "results": results,
                    "ratio": ours["rate"] / peer["rate"],
                    "ratios": ratios,
                    "cpu_ratios": cpu_ratios,
                    "unavailable": unavailable,
                }
            )
        )
        return
    print(title)
    for r in results:
        cpu = f"   {r['cpu_rate']:>10,.0f} per CPU-s" if "cpu_rate" in r else ""
        print(f"  {r['side']:<28} {r['rate']:>14,.0f} {r['unit']}/s{cpu}   peak {r['peak_mib']:7.1f} MiB")
    for name, reason in unavailable.items():
        print(f"  {name:<28} not run: {reason}")
    for side, ratio in ratios.items():
        cpu = f" ({cpu_ratios[side]:,.1f}x per CPU second)" if side in cpu_ratios else ""
        print(f"  ratio {side} / {peer['side']}: {ratio:,.1f}x{cpu}")
