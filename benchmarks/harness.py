"""Run each side of a benchmark in its own process (so that peak memory is that side's alone)
and print them side by side with the ratio to the peer.

A benchmark module defines ``SIDES = {"name": function}`` where each function takes the number
of seconds to run for and returns ``(work_done, seconds, unit)``; the first side is ours, the
last the peer. ``python benchmarks/X.py`` prints the table; ``--json`` prints it as JSON.
"""

from __future__ import annotations

import json
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


def main(script: str, title: str, sides: dict[str, Side], seconds: float = 3.0) -> None:
    args = sys.argv[1:]
    if args and args[0] == "--side":
        _child(sides, args[1], float(args[2]))
        return
    if "--seconds" in args:
        seconds = float(args[args.index("--seconds") + 1])
    results = []
    for name in sides:
        out = subprocess.run(
            [sys.executable, script, "--side", name, str(seconds)],
            capture_output=True,
            text=True,
            check=True,
            cwd=Path(script).resolve().parent.parent,
        )
        results.append(json.loads(out.stdout.strip().splitlines()[-1]))
    for r in results:
        r["rate"] = r["done"] / r["seconds"]
    ours, peer = results[0], results[-1]
    if "--json" in args:
        print(
            json.dumps(
                {"benchmark": title, "results": results, "ratio": ours["rate"] / peer["rate"]}
            )
        )
        return
    print(title)
    for r in results:
        print(
            f"  {r['side']:<28} {r['rate']:>14,.0f} {r['unit']}/s   peak {r['peak_mib']:7.1f} MiB"
        )
    print(f"  ratio {ours['side']} / {peer['side']}: {ours['rate'] / peer['rate']:,.1f}x")
