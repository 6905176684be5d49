"""Self-play speed: rule bots playing duplicate deals (no luck correction), hands per second on
one core, pure and compiled engine, then the scaling from one process to every core and to a
local Ray instance (issue 17, point 5).

    python benchmarks/selfplay_speed.py [--seconds 5] [--runs 3] [--seats 2,6] [--deals 1500] [--json]
    python benchmarks/selfplay_speed.py --no-scaling        # the one-core rates only
    python benchmarks/selfplay_speed.py --no-single --ray   # the scaling only, Ray included

One core: each run is a fresh process (the compiled engine's with ``build/compiled`` first on
its path, when a build made from today's sources is there: ``make compiled``) playing
``rule`` bots for ``--seconds``; the rate by the wall clock and per CPU second (steadier on a
shared machine), the median of ``--runs`` runs and their range. Scaling: ``--deals`` deals
through :func:`sevenstud.sim.simulate` with 1, 2, ... every core's worth of worker processes
and, with ``--ray``, a local Ray instance of every core (wall clock from the call to its answer,
the workers' start included); the engine is the workers' default (the compiled build when
fresh).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def child(seats: int, seconds: float) -> None:
    """One core's run: print hands, wall seconds, CPU seconds and the engine, as JSON."""
    from sevenstud.sim.core import Matchup, engine_kind, play_deals

    matchup = Matchup(("rule",) * seats, seed=1, luck=False)
    play_deals(matchup, 0, 2)  # warm up (imports, caches)
    hands, deal = 0, 2
    cpu, start = time.process_time(), time.perf_counter()
    while time.perf_counter() - start < seconds:
        play_deals(matchup, deal, deal + 10)
        deal += 10
        hands += 10 * seats
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(json.dumps({"hands": hands, "wall": wall, "cpu": cpu, "engine": engine_kind()}))


def _single(seats: int, seconds: float, compiled: Path | None) -> dict[str, object]:
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    if compiled is not None:
        env["PYTHONPATH"] = str(compiled)
    out = subprocess.run(
        [sys.executable, __file__, "--child", str(seats), str(seconds)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    row: dict[str, object] = json.loads(out.strip().splitlines()[-1])
    return row


def _spread(xs: list[float]) -> str:
    return f"{statistics.median(xs):,.0f} (runs {min(xs):,.0f} to {max(xs):,.0f})"


def main() -> None:
    """Measure and print (see the module)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--child", nargs=2, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seats", default="2,6")
    parser.add_argument("--deals", type=int, default=1500, help="deals per scaling measurement")
    parser.add_argument("--no-single", action="store_true")
    parser.add_argument("--no-scaling", action="store_true")
    parser.add_argument("--ray", action="store_true", help="also measure a local Ray instance")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.child:
        child(int(args.child[0]), float(args.child[1]))
        return
    from sevenstud.sim.core import Matchup
    from sevenstud.sim.runner import choose_engine, simulate

    seat_counts = [int(s) for s in args.seats.split(",")]
    choice = choose_engine("auto")
    cores = os.cpu_count() or 1
    report: dict[str, object] = {"cores": cores, "compiled": choice.reason}
    print(f"{cores} cores; workers' engine: {choice.reason}", flush=True)
    if not args.no_single:
        single = []
        for seats in seat_counts:
            for name, folder in (("pure", None), ("compiled", choice.folder)):
                if name == "compiled" and folder is None:
                    print(f"  {seats} seats, compiled: not measured ({choice.reason})")
                    continue
                rows = [_single(seats, args.seconds, folder) for _ in range(args.runs)]
                assert all(r["engine"] == name for r in rows), rows
                wall = [float(r["hands"]) / float(r["wall"]) for r in rows]  # type: ignore[arg-type]
                cpu = [float(r["hands"]) / float(r["cpu"]) for r in rows]  # type: ignore[arg-type]
                single.append({"seats": seats, "engine": name, "per_wall_s": wall, "per_cpu_s": cpu})
                print(
                    f"  one core, {seats} seats, {name} engine: {_spread(wall)} hands/s,"
                    f" {_spread(cpu)} per CPU-s",
                    flush=True,
                )
        report["single"] = single
    if not args.no_scaling:
        scaling = []
        for seats in seat_counts:
            matchup = Matchup(("rule",) * seats, seed=1, luck=False)
            ways: list[tuple[str, dict[str, object]]] = [
                (f"{k} process{'es' * (k > 1)}", {"workers": k}) for k in range(1, cores + 1)
            ]
            if args.ray:
                ways.append((f"Ray, local, {cores} CPUs", {"ray": True}))
            first = None
            for label, how in ways:
                ray_start = 0.0
                if how.get("ray"):
                    # Ray's own start (some seconds) is timed apart: the match runs on it after.
                    import ray

                    began = time.perf_counter()
                    ray.init(num_cpus=cores, include_dashboard=False, log_to_driver=False)
                    ray_start = time.perf_counter() - began
                start = time.perf_counter()
                try:
                    result = simulate(matchup, args.deals, **how)  # type: ignore[arg-type]
                finally:
                    if how.get("ray"):
                        ray.shutdown()
                wall = time.perf_counter() - start
                rate = result.hands / wall
                first = first or rate
                figures = result.to_json()["results"]
                scaling.append(
                    {
                        "seats": seats,
                        "how": label,
                        "hands": result.hands,
                        "wall": wall,
                        "ray_start": ray_start,
                        "engines": list(result.engines),
                        "results": figures,
                    }
                )
                started = f", after Ray's start of {ray_start:.1f} s" if ray_start else ""
                print(
                    f"  {seats} seats, {label}: {rate:,.0f} hands/s ({result.hands} hands in {wall:.1f} s,"
                    f" {rate / first:.2f}x one process, {', '.join(result.engines)} engine{started})",
                    flush=True,
                )
        report["scaling"] = scaling
    if args.json:
        print(json.dumps(report))


if __name__ == "__main__":
    main()
