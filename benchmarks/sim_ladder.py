"""The bots' ladder through ``sevenstud simulate``'s machinery (issue 17, point 3): every kind
against every other heads-up and six-handed, luck-corrected duplicate deals, and each kind
against a local best response (:mod:`sevenstud.sim.lbr`), in mSB/hand with 95% intervals, as
markdown rows for docs/bots.md.

    python benchmarks/sim_ladder.py [--game stud8] [--seed 1] [--workers N]
        [--deals 2000] [--equity-deals 500] [--six-deals 300] [--six-equity-deals 100]
        [--lbr-deals 100] [--lbr-equity-deals 25] [--rollouts 12] [--only heads-up,six,lbr]

Six-handed, a pair of kinds sits three and three in alternate seats and each deck is played in
all six rotations; a kind's figure is the mean of its three seats. Each line is the first
kind's result (heads-up, the second's is its negative; six-handed, the second's is too, since
the table is zero-sum and each kind holds half of it). The equity bot's matches and the local
best response's use fewer deals (they take milliseconds to a second a decision).
"""

from __future__ import annotations

import argparse
import itertools
import json
import time

from sevenstud.bots import BOT_KINDS
from sevenstud.sim import Matchup, simulate


def _row(label: str, result_text: str, hands: int, seconds: float) -> str:
    return f"| {label} | {result_text} | {hands:,} | {seconds:.0f} s |"


def main() -> None:
    """Run the ladder and print one markdown row a match (and JSON lines with --json)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--game", default="stud8", choices=["stud8", "stud", "razz"])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--equity-deals", type=int, default=500)
    parser.add_argument("--six-deals", type=int, default=300)
    parser.add_argument("--six-equity-deals", type=int, default=100)
    parser.add_argument("--lbr-deals", type=int, default=100)
    parser.add_argument("--lbr-equity-deals", type=int, default=25)
    parser.add_argument("--rollouts", type=int, default=12)
    parser.add_argument("--kinds", default=",".join(BOT_KINDS))
    parser.add_argument("--only", default="heads-up,six,lbr")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    kinds = args.kinds.split(",")
    parts = set(args.only.split(","))
    print(f"{args.game}, seed {args.seed}, luck-corrected duplicate deals; mSB/hand ± 95% interval")

    def run(players: tuple[str, ...], deals: int, label: str) -> None:
        started = time.perf_counter()
        matchup = Matchup(players, game=args.game, seed=args.seed, lbr_rollouts=args.rollouts)
        result = simulate(matchup, deals, workers=args.workers)
        seconds = time.perf_counter() - started
        first = result.players[0]
        text = f"{first.corrected} (as dealt {first.dealt})"
        print(_row(label, text, result.hands, seconds), flush=True)
        if args.json:
            print(json.dumps({"label": label, **result.to_json(), "seconds": seconds}), flush=True)

    if "heads-up" in parts:
        for a, b in itertools.combinations(kinds, 2):
            run((a, b), args.equity_deals if "equity" in (a, b) else args.deals, f"heads-up: {a} vs {b}")
    if "six" in parts:
        for a, b in itertools.combinations(kinds, 2):
            deals = args.six_equity_deals if "equity" in (a, b) else args.six_deals
            run((a, b) * 3, deals, f"six-handed: 3 {a} vs 3 {b}")
    if "lbr" in parts:
        for kind in kinds:
            deals = args.lbr_equity_deals if kind == "equity" else args.lbr_deals
            run(("lbr", kind), deals, f"heads-up: local best response vs {kind}")


if __name__ == "__main__":
    main()
