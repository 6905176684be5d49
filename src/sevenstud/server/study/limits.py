"""The card room's limits on equity jobs (docs/security.md, "Equity jobs"), with their defaults and the
``sevenstud serve`` options that set them. Standard library only, so that ``sevenstud --help``
shows them without the server extra."""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass, field, fields
from typing import Any

from sevenstud.equity import DEFAULT_MAX_OUTCOMES


def cores() -> int:
    """The CPU cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def half_the_cores() -> int:
    """The default of :attr:`EquityLimits.running`: half the cores, at least one, so that an
    equity job never takes the cores the tables need."""
    return max(1, cores() // 2)


@dataclass(frozen=True, slots=True)
class EquityLimits:
    """How much of the machine equity jobs may take. Every job is counted against its client
    (the address it came from) and against the room from the moment it is accepted until its
    worker process has ended, and is forgotten ``keep_seconds`` after that."""

    running: int = field(default_factory=half_the_cores)
    """Jobs running at once, all clients together (each a process on one core)."""
    per_client: int = 2
    """Jobs one client address may have running at once."""
    seconds: float = 30.0
    """A job's deadline: it is stopped then (Monte Carlo keeps the trials it drew)."""
    grace: float = 2.0
    """Seconds a worker has to stop after its deadline before it is killed."""
    max_outcomes: int = DEFAULT_MAX_OUTCOMES
    """The most work exact counting may be (``exact`` beyond it is refused; ``auto`` samples);
    the same default as ``sevenstud equity --max-outcomes``."""
    quick_seconds: float = 5.0
    """``auto`` counts exactly when the cost model (:func:`exact_seconds`) says it takes at
    most this long (and it is within ``max_outcomes``), else it samples."""
    max_trials: int = 2_000_000
    """The most trials Monte Carlo may draw (``monte-carlo`` and ``auto``)."""
    memory_mb: int = 2048
    """The most memory (address space, MiB) one worker may have: past it the job fails."""
    starts_per_minute: int = 20
    """Jobs one client address may ask for each minute."""
    polls_per_second: float = 10.0
    """Requests about jobs one client address may make each second (a burst of as many)."""
    keep_seconds: float = 600.0
    """A finished job is forgotten this long after its worker ended."""
    kept: int = 2000
    """Finished jobs kept in all: past it the oldest are forgotten first (memory stays bounded)."""

    def __post_init__(self) -> None:
        for each in fields(self):
            value = getattr(self, each.name)
            if each.name in ("seconds", "grace", "polls_per_second", "keep_seconds", "quick_seconds"):
                may_be_zero = each.name in ("grace", "keep_seconds")
                good = isinstance(value, int | float) and (value >= 0 if may_be_zero else value > 0)
                what = "a number of seconds, 0 or more" if may_be_zero else "a number more than 0"
            else:
                good, what = isinstance(value, int) and value >= 1, "a whole number, 1 or more"
            if isinstance(value, bool) or not good:
                raise ValueError(f"the equity limit {each.name} must be {what}, not {value!r}")


OPTIONS: dict[str, tuple[str, str]] = {
    "running": (
        "--equity-jobs",
        "equity jobs running at once, all clients together (default: half the cores)",
    ),
    "per_client": ("--equity-jobs-per-client", "equity jobs one client address may run at once"),
    "seconds": ("--equity-seconds", "an equity job's deadline in seconds (Monte Carlo keeps what it drew)"),
    "max_outcomes": ("--equity-max-outcomes", "the most work exact counting may be (auto samples beyond it)"),
    "quick_seconds": (
        "--equity-quick-seconds",
        "auto counts exactly when exact counting is estimated to take at most this many seconds",
    ),
    "max_trials": ("--equity-max-trials", "the most Monte Carlo trials one job may draw"),
    "memory_mb": ("--equity-memory-mb", "the most memory (MiB of address space) one equity worker may have"),
}
"""The limits ``sevenstud serve`` has options for (the others keep their defaults)."""


def add_arguments(parser: Any) -> None:
    """The ``sevenstud serve`` options of :data:`OPTIONS`, with the defaults in their help."""
    defaults = EquityLimits()
    for name, (flag, text) in OPTIONS.items():
        kind = float if name in ("seconds", "quick_seconds") else int
        shown = "" if name == "running" else f" (default: {getattr(defaults, name):,})"
        parser.add_argument(
            flag,
            dest=f"equity_{name}",
            type=_positive(kind, flag),
            default=None,
            metavar="S" if kind is float else "N",
            help=text + shown,
        )


def _positive(kind: type[int] | type[float], flag: str) -> Any:
    def parse(text: str) -> int | float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a number, not {text!r}") from None
        if not value > 0:
            raise argparse.ArgumentTypeError(f"must be more than 0, not {text}")
        return value

    parse.__name__ = flag
    return parse


def from_args(args: Any) -> EquityLimits:
    """The limits ``sevenstud serve``'s options give (the defaults for those not given)."""
    given = {name: getattr(args, f"equity_{name}", None) for name in OPTIONS}
    return EquityLimits(**{name: value for name, value in given.items() if value is not None})


EXACT_RATES: dict[str, float] = {
    "inclusion-exclusion": 2.0e6,
    "inclusion-exclusion over the last player": 5.0e6,
    "enumeration": 2.0e6,
}
"""Exact counting's work per second, by method (:func:`sevenstud.equity.exact_work`'s units),
measured on the project's machine (2 cores shared with other jobs) by
``benchmarks/equity_rates.py``; the slowest run of each kept, so that the estimate errs long.
Heads up (inclusion-exclusion) ran at 2.1 to 3.0 million a second (the README's example,
As 2s 3s against Kd Kh Qc: 5.2 million of work, 2.5 s); over the last player at 5.5 to 13
million; enumeration is counted at the slowest rate measured, as no quick position uses it."""


def exact_seconds(method: str, work: int) -> float:
    """How long exact counting of ``work`` by ``method`` is expected to take, in seconds.

    >>> round(exact_seconds("inclusion-exclusion", 5_221_920), 1)
    2.6
    """
    return work / EXACT_RATES.get(method, min(EXACT_RATES.values()))


__all__ = [
    "EXACT_RATES",
    "OPTIONS",
    "EquityLimits",
    "add_arguments",
    "cores",
    "exact_seconds",
    "from_args",
    "half_the_cores",
]
