"""What running each equity job in a worker process that can be stopped costs (issue 18, point 3).

- ``stop check``: Monte Carlo (8 players on 3rd street, 1,000,000 trials; two players, 2,000,000)
  and an exact count (heads-up 3rd street, 18.3 billion deals) in this process, without ``stop``
  and with a ``stop`` that polls a pipe between blocks as a worker's does: the cost of asking.
- ``a job in a worker``: a small exact job (two players on 7th street) in this process, and the
  same as a worker process from the warm fork server (started, answered, exited and reaped).
- ``deadline to gone``: a job that would never end (three players on 3rd street counted exactly)
  with a deadline of 0.5 s: the seconds from the deadline until its worker has been reaped, when
  it stops by itself between blocks, and when it is stuck (SIGSTOP) and must be killed (the
  grace is 0.5 s).

    .venv/bin/python benchmarks/equity_jobs.py [--repeat N]

Each figure is the median of N runs (default 5); the machine's load is printed with them.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import signal
import statistics
import threading
import time
from collections.abc import Callable

from sevenstud.equity import equity
from sevenstud.server.study import worker as equity_worker

EIGHT = ["As 2d 3c", "Qs 4h 5c", "Kd Kh 8s", "7c 7d 9h", "Jh Td 6s", "2s 3h 4d", "5s 6h 8c", "9c Tc Jc"]
HEADS_UP_THIRD = ["As Ad Kc", "Qs Qh Jc"]
SEVENTH = ("As Ad Kc 7h 2d 3h 4h", "Qs Qh Jc 9d 9s 8h 8c")
FOREVER = ("As 2d 3c", "Qs 4h 5c", "Kd Kh 8s")


def _median(run: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        run()
        times.append(time.perf_counter() - began)
    return statistics.median(times)


def _stop_check(repeat: int) -> None:
    """The asking counted rather than only timed (a busy machine's timings vary by more than
    the cost): how many times each computation asks, what one ask costs, and both timed."""
    ours, theirs = multiprocessing.Pipe()
    polls = 200_000
    began = time.perf_counter()
    for _ in range(polls):
        theirs.poll()
    ask = (time.perf_counter() - began) / polls
    print(f"stop check  one ask (a poll of the pipe): {1e6 * ask:.2f} us")
    cases: list[tuple[str, Callable[..., object]]] = [
        (
            "Monte Carlo, 8 players 3rd street, 1,000,000 trials",
            lambda **k: equity(EIGHT, trials=10**6, seed=1, **k),
        ),
        (
            "Monte Carlo, heads-up 3rd street, 2,000,000 trials",
            lambda **k: equity(HEADS_UP_THIRD, trials=2 * 10**6, seed=1, **k),
        ),
        ("exact, heads-up 3rd street", lambda **k: equity(HEADS_UP_THIRD, exact=True, **k)),
    ]
    for name, run in cases:
        asked = [0]

        def counted(asked: list[int] = asked) -> bool:
            asked[0] += 1
            return bool(theirs.poll())

        run(stop=counted)
        plain, polled = [], []
        for _ in range(repeat):  # interleaved, the fastest of each kept: the least disturbed
            plain.append(_median(run, 1))
            polled.append(_median(lambda run=run: run(stop=theirs.poll), 1))  # type: ignore[misc]
        fastest = min(plain)
        print(
            f"stop check  {name}: asks {asked[0]:,} times, {1e3 * asked[0] * ask:.3f} ms of"
            f" {fastest:.3f} s ({100 * asked[0] * ask / fastest:.3f}%); timed: {fastest:.3f} s"
            f" without, {min(polled):.3f} s with"
        )
    ours.close()
    theirs.close()


def _one_job(order: equity_worker.Order, seconds: float = 30.0, stuck: bool = False) -> equity_worker.Outcome:
    def started(pid: int) -> None:
        if stuck:
            os.kill(pid, signal.SIGSTOP)

    return equity_worker.run(
        order, seconds=seconds, grace=0.5, progress=lambda f: None, cancel=threading.Event(), started=started
    )


def _in_a_worker(repeat: int) -> None:
    order = equity_worker.Order(SEVENTH, "stud8", "", True, 1000)
    began = time.perf_counter()
    _one_job(order)
    print(
        f"a job in a worker  the fork server's first start and first job: {time.perf_counter() - began:.3f} s"
    )
    here = _median(lambda: equity(list(SEVENTH), exact=True), repeat)
    there = _median(lambda: _one_job(order), repeat)
    times = f"{1000 * here:.1f} ms in this process, {1000 * there:.1f} ms in a worker"
    print(f"a job in a worker  heads-up 7th street exact: {times}")


def _deadline_to_gone(repeat: int) -> None:
    order = equity_worker.Order(FOREVER, "stud8", "", True, 1000)
    for stuck in (False, True):
        gone = []
        for _ in range(repeat):
            began = time.perf_counter()
            outcome = _one_job(order, seconds=0.5, stuck=stuck)
            assert outcome.stopped == "deadline" and outcome.killed == stuck
            gone.append(time.perf_counter() - began - 0.5)
        how = "stuck, killed after the 0.5 s grace" if stuck else "stopping by itself between blocks"
        print(f"deadline to gone  {how}: {statistics.median(gone):.3f} s")


def main() -> None:
    """Run the three measurements and print them."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--repeat", type=int, default=5, help="runs per figure (the median is shown)")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    _in_a_worker(args.repeat)
    _stop_check(args.repeat)
    _deadline_to_gone(args.repeat)


if __name__ == "__main__":
    main()
