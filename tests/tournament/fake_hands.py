"""A stand-in for the tables: drives a Director with hands whose results are drawn at random
(chips move between the players dealt in, some lose everything), checking the director's
invariants after every step. The real tables (sevenstud.table.Table) play in test_tournament_tables."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from sevenstud.tournament import Director, Finish, Seat


@dataclass
class Run:
    director: Director
    rng: random.Random
    now: float = 0.0
    finishes: list[Finish] = field(default_factory=list)
    hands: int = 0
    seats_given: list[Seat] = field(default_factory=list)
    in_progress: dict[int, dict[str, int]] = field(default_factory=dict)

    def take(self, commands: list) -> None:
        for c in commands:
            if isinstance(c, Finish):
                self.finishes.append(c)
            elif isinstance(c, Seat):
                self.seats_given.append(c)


def check_invariants(d: Director) -> None:
    """What must hold after every step of any tournament."""
    assert d.chips_in_play() == d.chips_issued, (d.chips_in_play(), d.chips_issued)
    d.check_index()  # the counts kept for speed are the recounted ones
    seen: dict[str, int] = {}
    for number, table in d.tables.items():
        assert table.number == number
        for seat, player in table.players.items():
            assert 1 <= seat <= table.seats
            assert player not in seen, f"{player} sits at tables {seen[player]} and {number}"
            seen[player] = number
            assert d.entrants[player].table == number
            assert not d.entrants[player].out
    for entrant in d.entrants.values():
        if entrant.out:
            assert entrant.table is None
        elif d.state in ("running", "break"):
            assert seen.get(entrant.name) == entrant.table, entrant
    if d.state in ("running", "break") and not d.final_table_pending:
        # balanced: no table between hands is two or more players longer than the shortest
        open_tables = [t for t in d.tables.values() if t.number not in d.breaking]
        if len(open_tables) > 1:
            shortest = min(len(t.players) for t in open_tables)
            for t in open_tables:
                if not t.in_hand:
                    assert len(t.players) <= shortest + 1, [
                        (x.number, len(x.players), x.in_hand) for x in open_tables
                    ]


def start_hand(run: Run, table: int) -> None:
    d = run.director
    players = [p for p in d.tables[table].players.values() if d.entrants[p].chips > 0]
    start = {p: d.entrants[p].chips for p in players}
    run.take(d.hand_started(table, start, run.now))
    run.in_progress[table] = start


def finish_hand(run: Run, table: int, bust_chance: float = 0.15) -> None:
    d = run.director
    start = run.in_progress.pop(table)
    players = list(start)
    stacks = {p: d.entrants[p].chips for p in d.tables[table].players.values()}
    # the chips of the players dealt in are pooled and shared out again at random; a few of
    # them lose everything (someone always keeps some)
    pot = sum(start.values())
    winners = [p for p in players if run.rng.random() > bust_chance] or [run.rng.choice(players)]
    weights = [run.rng.random() + 0.01 for _ in winners]
    shares = [int(pot * w / sum(weights)) for w in weights]
    shares[0] += pot - sum(shares)
    for p in players:
        stacks[p] = 0
    for p, share in zip(winners, shares, strict=True):
        stacks[p] += share
    run.hands += 1
    run.take(d.hand_finished(table, stacks, run.now))


def drive(
    run: Run,
    *,
    max_steps: int = 400_000,
    late: list[str] | None = None,
    rebuy_chance: float = 0.0,
    bust_chance: float = 0.15,
) -> None:
    """Play until the tournament is over: at each step a hand starts wherever the director
    allows one, or one of the hands in progress ends, or the clock moves on."""
    d = run.director
    late = list(late or [])
    for _ in range(max_steps):
        if d.state in ("finished", "cancelled"):
            assert not run.in_progress
            return
        run.take(d.tick(run.now))
        check_invariants(d)
        if late and d.late_open and d.state == "running" and run.rng.random() < 0.05:
            run.take(d.register(late.pop(), run.now))
            check_invariants(d)
        if rebuy_chance:
            for e in list(d.entrants.values()):
                if (
                    not e.out
                    and e.chips == 0
                    and e.rebuy_until is not None
                    and run.rng.random() < rebuy_chance
                ):
                    run.take(d.rebuy(e.name, run.now))
        ready = [t for t in sorted(d.tables) if d.may_deal(t, run.now) is not None]
        if ready and (not run.in_progress or run.rng.random() < 0.6):
            start_hand(run, run.rng.choice(ready))
        elif run.in_progress:
            finish_hand(run, run.rng.choice(sorted(run.in_progress)), bust_chance)
        else:
            run.now += 1.0
        run.now += run.rng.uniform(0, 5)
        check_invariants(d)
    raise AssertionError("the tournament did not end")
