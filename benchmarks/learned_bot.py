"""The learned bot measured: duplicate matches (:mod:`sevenstud.bots.match`) against the rule,
tight and equity bots, heads-up and six-handed (the learned bot and five of the other kind),
each bot's result in milli-small-bets per hand with its 95% interval. The jobs run on every
core. ``--curve`` instead plays each policy snapshot of ``tools/train_learned.py`` heads-up
through :func:`sevenstud.sim.simulate`, luck-corrected (the training curve of docs/bots.md; the
sim extra): against the rule bot, or with ``--against lbr`` a local best response against the
snapshot (:mod:`sevenstud.sim.lbr`; its result, the snapshot's loss, is how much the one-step
search exploits it).

    nice -n 10 python benchmarks/learned_bot.py --deals 200
    nice -n 10 python benchmarks/learned_bot.py --curve .train --deals 10000
    nice -n 10 python benchmarks/learned_bot.py --curve .train --against lbr --deals 500
"""

from __future__ import annotations

import argparse
import multiprocessing
import re
import time
from pathlib import Path

from sevenstud.bots.learned import LearnedBot
from sevenstud.bots.match import duplicate_match
from sevenstud.cfr import policy as policy_file


def job(args: tuple[str, str, int, int, int, str | None]) -> str:
    """One match: (game, opponent, seats, deals, seed, policy file or None): a result line."""
    game, opponent, seats, deals, seed, path = args
    policy = policy_file.load(path) if path else None
    started = time.monotonic()

    def learned(s: int) -> LearnedBot:
        return LearnedBot(seed=s, policy=policy)

    result = duplicate_match(
        [learned] + [opponent] * (seats - 1),
        game=game,
        deals=deals,
        seed=seed,
        names=["learned"] + [f"{opponent}{i}" for i in range(1, seats)],
    )
    me = result.results[0]
    label = Path(path).name if path else "shipped"
    return (
        f"{game} {seats}-handed vs {opponent} ({label}): learned {me.msb_per_hand:+.0f} ± {me.ci95:.0f}"
        f" mSB/hand over {result.hands} hands ({deals} deals), {time.monotonic() - started:.0f} s"
    )


def curve_job(args: tuple[str, int, int, str, str]) -> str:
    """One snapshot heads-up against ``against`` (the rule bot or a local best response),
    luck-corrected: a result line, in the learned bot's figures."""
    game, deals, seed, path, against = args
    from sevenstud.bots import learned
    from sevenstud.sim import Matchup, simulate

    policy = policy_file.load(path)
    # This process's learned bots play the snapshot, the local best response's range and
    # rollout bots among them (they are made by kind, from the shipped policy).
    learned.shipped_policy = lambda: policy
    started = time.monotonic()
    result = simulate(Matchup(("learned", against), game=game, seed=seed), deals, workers=1, engine="pure")
    me = result.players[0].corrected
    return (
        f"{game} heads-up vs {against} ({Path(path).name}): learned {me.msb_per_hand:+.0f} ± {me.ci95:.0f}"
        f" mSB/hand luck-corrected over {result.hands} hands ({deals} deals),"
        f" {time.monotonic() - started:.0f} s"
    )


def main() -> None:
    """Run the matches (see the module)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--games", default="stud8,stud,razz")
    parser.add_argument("--opponents", default="rule,tight,equity")
    parser.add_argument("--seats", default="2,6")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--curve", type=Path, default=None, help="a folder of policy snapshots")
    parser.add_argument("--against", choices=("rule", "lbr"), default="rule", help="--curve's opponent")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    games = args.games.split(",")
    if args.curve is not None:
        curve: list[tuple[str, int, int, str, str]] = []
        for snap in sorted(
            args.curve.glob("policy-*-2-*.json.gz"), key=lambda p: int(re.findall(r"\d+", p.name)[-1])
        ):
            game = snap.name.split("-")[1]
            if game in games:
                curve.append((game, args.deals, args.seed, str(snap), args.against))
        with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
            for line in pool.imap(curve_job, curve):
                print(line, flush=True)
        return
    else:
        jobs = [
            (game, opp, int(seats), args.deals, args.seed, None)
            for game in games
            for opp in args.opponents.split(",")
            for seats in args.seats.split(",")
        ]
    with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
        for line in pool.imap(job, jobs):
            print(line, flush=True)


if __name__ == "__main__":
    main()
