"""The card room's metrics, for Prometheus (docs/operators.md, "Health and metrics").

Every figure is one of the ``prometheus_client`` library's, in a registry of the app's own (two
apps in one process, as in the tests, never mix their counts). What is counted as it happens
(an action's round trip, a connection cut off, a COMMIT's time, a refusal by a limit) is a
counter or a histogram here, told by the edge; what the room holds now (connections, tables,
seats, hands played, equity jobs, tournaments by state) is read from the room at each scrape
(:class:`Readings`), so that nothing is counted twice and nothing drifts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

ROUND_TRIP_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
"""Seconds: the load benchmark's p99 target is 0.1 (docs/benchmarks.md)."""

COMMIT_BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.5)
"""Seconds: an SQLite COMMIT under WAL takes tens of microseconds, PostgreSQL's a round trip."""


@dataclass(slots=True)
class Readings:
    """What the room holds at the moment of a scrape."""

    connections: int = 0
    tables: int = 0
    seats_taken: int = 0
    bots_seated: int = 0
    hands_played: int = 0
    equity_jobs: int = 0
    tournaments: dict[str, int] = field(default_factory=dict)
    """The tournaments this process holds, by state (registering, running, break, finished)."""


class _Now(Collector):
    """The readings, taken at each scrape."""

    def __init__(self, read: Callable[[], Readings]) -> None:
        self.read = read

    def collect(self) -> Iterator[Metric]:
        now = self.read()
        yield GaugeMetricFamily("sevenstud_connections", "Open websockets.", value=now.connections)
        yield GaugeMetricFamily("sevenstud_tables", "Tables served by this process.", value=now.tables)
        seats = GaugeMetricFamily("sevenstud_seats_taken", "Seats taken at those tables.", labels=["by"])
        seats.add_metric(["person"], now.seats_taken - now.bots_seated)
        seats.add_metric(["bot"], now.bots_seated)
        yield seats
        played = "Hands dealt and played to their end here since the start."
        yield CounterMetricFamily("sevenstud_hands_played", played, value=now.hands_played)
        yield GaugeMetricFamily("sevenstud_equity_jobs", "Equity jobs running.", value=now.equity_jobs)
        tournaments = GaugeMetricFamily(
            "sevenstud_tournaments", "Tournaments held by this process, by state.", labels=["state"]
        )
        for state, count in sorted(now.tournaments.items()):
            tournaments.add_metric([state], count)
        yield tournaments


class RoomMetrics:
    """The metrics of one card room process; :meth:`exposition` is what ``/metrics`` serves."""

    def __init__(self, read: Callable[[], Readings]) -> None:
        self.registry = CollectorRegistry()
        self.round_trip = Histogram(
            "sevenstud_action_round_trip_seconds",
            "From an action's frame read to its table's step done (every client told).",
            buckets=ROUND_TRIP_BUCKETS,
            registry=self.registry,
        )
        self.cut_offs = Counter(
            "sevenstud_outbox_cut_offs",
            "Connections cut off by the server (a full outbox, a dead reader), by close code.",
            ["code"],
            registry=self.registry,
        )
        self.commits = Histogram(
            "sevenstud_database_commit_seconds",
            "The time of each write transaction's COMMIT.",
            buckets=COMMIT_BUCKETS,
            registry=self.registry,
        )
        self.refusals = Counter(
            "sevenstud_rate_limit_refusals",
            "Requests and messages refused by a limit (docs/security.md), by limit.",
            ["limit"],
            registry=self.registry,
        )
        self.registry.register(_Now(read))

    def exposition(self) -> bytes:
        """The Prometheus text format of every metric, now."""
        return generate_latest(self.registry)
