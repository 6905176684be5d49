"""The learned bot against opponents it never met (issue 37): ``sevenstud simulate``'s duplicate
matches (the same decks, the seats rotated; luck-corrected) against the held-out kinds
(:data:`sevenstud.bots.registry.HELD_OUT`: ``lag``, ``drawstation``, ``tightequity``) and the
maniac, heads-up and six-handed (the bot and five of the other kind), in Stud Hi/Lo, Stud and
Razz, in mSB/hand with 95% intervals, as markdown rows for docs/bots.md.

    nice -n 19 python benchmarks/held_out.py [--games stud8,stud,razz] [--deals 5000]
        [--six-deals 200] [--opponents lag,drawstation,tightequity,maniac] [--seats 2,6]
        [--seed 1] [--workers 1] [--json]

Beside each of the learned bot's matches the same decks are played by a reference in its seat:
heads-up against the maniac the rule bot (the learned bot must punish a maniac at least as hard
as the rule bot does); six-handed its game's fallback bot (``FALLBACK`` of
:mod:`sevenstud.bots.learned`: the tight bot, the equity bot in Razz), which plays the pots of
more players than its multiway table knows: the learned bot holding up six-handed says whether
that fallback holds against these opponents. The issue's target is 100,000 hands a match:
``--deals 50000 --six-deals 17000`` (hours on one core; ``--workers`` spreads them).
"""

from __future__ import annotations

import argparse
import json
import time

from sevenstud.bots.learned import FALLBACK
from sevenstud.sim import Matchup, simulate


def main() -> None:
    """Run the matches and print one markdown row each (and JSON lines with --json)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", default="stud8,stud,razz")
    parser.add_argument("--opponents", default="lag,drawstation,tightequity,maniac")
    parser.add_argument("--seats", default="2,6")
    parser.add_argument("--deals", type=int, default=5000, help="heads-up decks (2 hands each)")
    parser.add_argument("--six-deals", type=int, default=200, help="six-handed decks (6 hands each)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--no-reference", action="store_true", help="the learned bot's matches only")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    print("| game | seats | player | opponent | mSB/hand (luck-corrected) | as dealt | hands | time |")
    print("|---|---|---|---|---:|---:|---:|---:|")
    for game in args.games.split(","):
        for seats in (int(s) for s in args.seats.split(",")):
            for opponent in args.opponents.split(","):
                players = ["learned"]
                if not args.no_reference:
                    if seats == 2 and opponent == "maniac":
                        players.append("rule")
                    elif seats > 2:
                        players.append(FALLBACK[game])
                for player in players:
                    deals = args.deals if seats == 2 else args.six_deals
                    started = time.perf_counter()
                    matchup = Matchup((player, *[opponent] * (seats - 1)), game=game, seed=args.seed)
                    result = simulate(matchup, deals, workers=args.workers)
                    seconds = time.perf_counter() - started
                    me = result.players[0]
                    print(
                        f"| {game} | {seats} | {player} | {opponent} | {me.corrected} | {me.dealt} |"
                        f" {result.hands:,} | {seconds:.0f} s |",
                        flush=True,
                    )
                    if args.json:
                        print(json.dumps({**result.to_json(), "seconds": seconds}), flush=True)


if __name__ == "__main__":
    main()
