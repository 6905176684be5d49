"""The bots' heads-up ladder: every kind against every other over duplicate deals
(:func:`sevenstud.bots.match.duplicate_match`), in mSB/hand with 95% intervals, for docs/bots.md.

    python benchmarks/bot_ladder.py [--game stud8] [--deals 1000] [--equity-deals 300] [--seed 1]

The equity bot's matches use ``--equity-deals`` (it takes a few milliseconds a decision; the
rule bots take microseconds). Each line is the first bot's result; the second's is its negative.
"""

from __future__ import annotations

import argparse
import itertools
import time

from sevenstud.bots import BOT_KINDS
from sevenstud.bots.match import duplicate_match


def main() -> None:
    """Run the ladder and print one line a pair."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--game", default="stud8", choices=["stud8", "stud", "razz"])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--equity-deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--kinds", default=",".join(BOT_KINDS), help="comma-separated kinds")
    args = parser.parse_args()
    kinds = args.kinds.split(",")
    print(f"{args.game}, heads-up, duplicate deals (2 hands each), seed {args.seed}")
    for a, b in itertools.combinations(kinds, 2):
        deals = args.equity_deals if "equity" in (a, b) else args.deals
        started = time.perf_counter()
        result = duplicate_match([a, b], game=args.game, deals=deals, seed=args.seed)
        first = result.results[0]
        print(
            f"{a:>8} vs {b:<8} {first.msb_per_hand:+7.0f} ± {first.ci95:4.0f} mSB/hand"
            f"  ({result.hands} hands, {time.perf_counter() - started:.0f} s)",
            flush=True,
        )


if __name__ == "__main__":
    main()
