"""Exact counting's rate by method, for the study page's cost model
(``sevenstud.server.study.limits.EXACT_RATES``): times exact counts of a few positions and
prints each method's work per second. Run under ``nice`` on a quiet machine:

    nice -n 10 python benchmarks/equity_rates.py

Keep the slowest rate of each method in EXACT_RATES, so that "auto" errs towards sampling."""

from __future__ import annotations

import time

from sevenstud import equity as calculator

POSITIONS = [
    ["As 2s 3s", "Kd Kh Qc"],  # the README's example: heads up, inclusion-exclusion
    ["As 2s 3s 4d", "Kd Kh Qc Jc"],
    ["As 2s 3s 4d 5h", "Kd Kh Qc Jc Th", "7c 7d 8s 9h 2d"],  # over the last player
    ["As 2s 3s 4d 5h 6c", "Kd Kh Qc Jc Th 9s", "7c 7d 8s 9h 2d 3h", "4c 5c 6d 8d 9d Js"],
]


def main() -> None:
    """Print one line per position: the method, its work, the seconds and the rate."""
    for hands in POSITIONS:
        method, work = calculator.exact_work(calculator.position(hands, game="stud8"))
        began = time.perf_counter()
        calculator.equity(hands, exact=True, max_outcomes=10**13)
        seconds = time.perf_counter() - began
        rate = work / seconds
        print(f"{len(hands)} players  {method:42s} {work:>13,} work  {seconds:7.3f} s  {rate:>13,.0f}/s")


if __name__ == "__main__":
    main()
