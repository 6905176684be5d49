"""A 10,000-entrant multi-table tournament played to the end by the director and real
``Table`` objects alone (no sockets, no database): issue 15, point 11, its second part.

Every seat is a bot (``sevenstud.tournament.play.rule_bots``: RuleBots, every fifth a RandomBot),
each deciding from its own seat's view; the clock is simulated (each action 1 to 6 seconds of
tournament time, nothing sleeps), on the turbo structure (3-minute levels). After every hand the
driver checks the chips at the tables against the chips the director issued and the table's
seats against the director's; every ``--full-check-every`` hands it recounts every table. At the
end it checks that every entrant is placed exactly once and that the prizes add up to the pool,
and prints the wall time, the hands dealt, hands per second over all tables and the most tables
dealing at once.

    .venv/bin/python benchmarks/tournament_scale.py [--entrants 10000] [--seed 1] [--json]

The short version is tests/tournament/test_play.py (60 entrants, and a sit-and-go of six).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter


def run(entrants: int, seed: int, seats: int, full_check_every: int) -> dict[str, object]:
    """Play the tournament and return its figures (raising if a check fails)."""
    from sevenstud.tournament import TournamentSettings
    from sevenstud.tournament.play import play
    from sevenstud.tournament.structure import TURBO

    settings = TournamentSettings(
        kind="scheduled", start_at=0.0, seats=seats, max_entries=entrants, structure=TURBO
    )
    result = play(settings, seed=seed, full_check_every=full_check_every)
    placed = Counter(f.player for f in result.finishes)
    if len(placed) != entrants or any(n != 1 for n in placed.values()):
        raise SystemExit(f"places wrong: {len(placed)} placed of {entrants}, some twice or more")
    pool = entrants * settings.buy_in
    if sum(result.prizes.values()) != pool:
        raise SystemExit(f"prizes add up to {sum(result.prizes.values())}, not the pool {pool}")
    winner = min(result.finishes, key=lambda f: f.place)
    return {
        "entrants": entrants,
        "seats": seats,
        "wall_seconds": round(result.wall_seconds, 1),
        "hands": result.hands,
        "hands_per_second": round(result.hands / result.wall_seconds, 1),
        "most_tables": result.most_tables,
        "simulated_hours": round(result.simulated_seconds / 3600, 2),
        "paid": sum(1 for p in result.prizes.values() if p > 0),
        "first_prize": winner.prize,
        "pool": pool,
    }


def main(argv: list[str] | None = None) -> int:
    """The command line: see the module's documentation."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--entrants", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seats", type=int, default=8)
    parser.add_argument("--full-check-every", type=int, default=1000, help="recount all tables every N hands")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = parser.parse_args(argv)
    figures = run(args.entrants, args.seed, args.seats, args.full_check_every)
    if args.json:
        print(json.dumps(figures))
    else:
        for name, value in figures.items():
            print(f"{name:>18}: {value}")
        print("every entrant placed once; the prizes add up to the pool")
    return 0


if __name__ == "__main__":
    sys.exit(main())
