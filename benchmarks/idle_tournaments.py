"""What idle tournaments cost a card room (issue 36, point 3): a room holding N tournaments that
are registering (each with a few bots entered, starting in an hour), with nothing else to do.
One guest once made 10,100 such tournaments, and the idle server then used 44-47% of a core:
each tournament had a task ticking four times a second on the event loop. Now one scheduler
holds a queue of due times for the whole service, so a tournament waiting for its start costs
no task and no CPU until then.

    python benchmarks/idle_tournaments.py                          # 1,000 tournaments, 30 s
    python benchmarks/idle_tournaments.py --tournaments 10000 --seconds 60

The card room (``sevenstud.server.cardroom.CardRoom``: its lease keeper, its sweeps and its
tournament service) runs in this process on a new SQLite file, without HTTP (making the
tournaments over HTTP is what the limits now refuse past a few per account and per address).
It prints the asyncio tasks on the loop, the process's CPU while idle (CPU seconds over wall
seconds), its resident memory, and how long the tournaments took to make and to register.
It uses only ``CardRoom`` and ``TournamentService.create`` / ``register``, so the same script
measures older code (``PYTHONPATH=<older checkout>/src``).
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT / "src") not in sys.path:
    sys.path.append(str(ROOT / "src"))  # (after a PYTHONPATH given: an older checkout's)

from sevenstud.server.cardroom import CardRoom  # noqa: E402
from sevenstud.server.limits import Limits  # noqa: E402
from sevenstud.server.store import open_store  # noqa: E402
from sevenstud.tournament import TURBO, TournamentSettings  # noqa: E402


def _rss_mib() -> float:
    """The process's resident memory now (MiB), from /proc (Linux)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def measure(url: str, tournaments: int, bots: int, seconds: float) -> dict[str, float]:
    """Make ``tournaments`` registering tournaments with ``bots`` bots each in a card room on
    ``url``, then measure ``seconds`` of it idle."""
    store = open_store(url)
    room = CardRoom(store, public_url="http://127.0.0.1:9", limits=Limits(), grace=0.5)
    await room.start()
    service = room.tournaments
    settle = 3.0
    await asyncio.sleep(settle)
    tasks_empty = len([t for t in asyncio.all_tasks() if not t.done()])
    made = time.perf_counter()
    start_at = time.time() + 3600.0
    for n in range(tournaments):
        settings = TournamentSettings(
            kind="scheduled", seats=8, max_entries=1000, structure=TURBO, start_at=start_at, min_field=2
        )
        tid = service.create(f"idle {n + 1}", settings)
        for b in range(bots):
            service.register(tid, None, f"bot{tid}-{b + 1}", "rule")
        if n % 50 == 0:
            await asyncio.sleep(0)
    made = time.perf_counter() - made
    await asyncio.sleep(settle)  # (the syncs and first ticks after each change come and go)
    tasks = len([t for t in asyncio.all_tasks() if not t.done()])
    rss_before = _rss_mib()
    cpu, wall = time.process_time(), time.perf_counter()
    await asyncio.sleep(seconds)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    rss_after = _rss_mib()
    await room.stop()
    store.engine.dispose()
    return {
        "tournaments": tournaments,
        "made_s": made,
        "tasks_empty": tasks_empty,
        "tasks": tasks,
        "cpu_percent": 100 * cpu / wall,
        "rss_before": rss_before,
        "rss_after": rss_after,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tournaments", type=int, default=1000)
    parser.add_argument("--bots", type=int, default=3, help="bots registered in each")
    parser.add_argument("--seconds", type=float, default=30.0, help="how long it is measured idle")
    parser.add_argument("--database", default="", help="a database URL (default: a new SQLite file)")
    args = parser.parse_args(argv)
    if args.tournaments < 0 or args.bots < 0 or args.seconds <= 0:
        parser.error("--tournaments and --bots are 0 or more, --seconds more than 0")
    with tempfile.TemporaryDirectory() as folder:
        url = args.database or f"sqlite:///{folder}/idle.sqlite3"
        figures = asyncio.run(measure(url, args.tournaments, args.bots, args.seconds))
    print(
        f"{figures['tournaments']} registering tournaments ({args.bots} bots each) made and "
        f"entered in {figures['made_s']:.1f} s"
    )
    print(f"asyncio tasks: {figures['tasks_empty']} with none, {figures['tasks']} with them")
    print(f"idle CPU over {args.seconds:g} s: {figures['cpu_percent']:.1f}% of a core")
    print(f"resident memory: {figures['rss_before']:.0f} MiB, {figures['rss_after']:.0f} MiB after")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
