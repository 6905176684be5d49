"""Train the shipped learned-bot policy in stages, keeping a snapshot of the policy after each
stage for the training curve (docs/bots.md, "The learned bot"). Resumable: each table has its own
checkpoint in ``--work``; run it again with bigger stages to go on.

    nice -n 10 python tools/train_learned.py --work .train --hu 1000,3000,6000 --multi 500,1500

The heads-up tables are trained first: a multiway table's heads-up ends are played by the
heads-up table of the policy the package holds (:func:`sevenstud.cfr.train.make_game`), so a
multiway stage learns against the heads-up table just written; unless its game is in
``--learn-ends``, whose multiway table learns its heads-up ends itself.

The shipped policy (2026-12-03): heads-up ``--games stud8 --hu 150000 --multi ''`` and
``--games stud --hu 100000 --multi ''`` (Razz's, 2026-12-05: ``--games razz --hu
20000,50000,100000,150000,200000,300000,400000 --multi '' --workers 2``); then the
four-handed tables, keeping the keys reached about 2,000 times or more (``--least-visits``):
``--games stud8 --hu '' --multi 10000,30000,60000,100000,150000`` (stopped one round into a
next stage, at 151,000), ``--games razz --hu '' --multi 10000,30000,60000,100000`` (on the
Razz heads-up table before 2026-12-05), each run with ``--workers 2`` for Stud Hi/Lo, 1 for
Razz; Stud's (2026-12-05), its heads-up ends learned: ``--games stud --hu '' --multi
30000,60000,100000,150000 --learn-ends stud --least-visits 20000 --workers 2``. Stud's
heads-up table since 2026-12-06, and Stud Hi/Lo's since 2026-12-07, are those tables trained on
against a population (not this tool: ``sevenstud train --game stud --iterations 130000
--workers 1 --seed 37 --past-every 5000 --start-from shipped --population
self:0.5,past:0.1,rule:0.1,tight:0.1,equity:0.1,maniac:0.05,station:0.05``, and the same with
``--game stud8 --iterations 180000``; docs/bots.md, "Training against a population"). Stud Hi/Lo's
four-handed table was trained beside the heads-up table before it, which played its hands'
heads-up ends then.
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

from sevenstud.cfr.arguments import STUD_GAMES
from sevenstud.cfr.train import TrainSettings, train


def main() -> None:
    """Run the stages (see the module)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, default=Path(".train"))
    parser.add_argument("--out", type=Path, default=Path("src/sevenstud/cfr/data/policy.json.gz"))
    parser.add_argument("--games", default=",".join(STUD_GAMES))
    parser.add_argument("--hu", default="1000,3000,6000", help="heads-up stages (iterations)")
    parser.add_argument("--multi", default="500,1500", help="multiway stages (iterations)")
    parser.add_argument("--multi-players", type=int, default=4, help="the multiway tables' seats")
    parser.add_argument(
        "--least-visits", type=int, default=2000, help="the multiway tables keep keys reached this often"
    )
    parser.add_argument(
        "--learn-ends",
        default="",
        help="the games whose multiway tables learn their hands' heads-up ends (sevenstud train"
        " --learn-heads-up-ends), comma-separated",
    )
    parser.add_argument("--workers", type=int, default=0)
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    for players, stages in ((2, args.hu), (args.multi_players, args.multi)):
        for game in args.games.split(","):
            for stage in (int(s) for s in stages.split(",") if s):
                ckpt = args.work / f"{game}-{players}.ckpt"
                train(
                    TrainSettings(
                        game,
                        players,
                        stage,
                        args.workers,
                        batch=250 if players == 2 else 500,
                        seed=0,
                        checkpoint=ckpt,
                        out=args.out,
                        least_visits=0 if players == 2 else args.least_visits,
                        learn_ends=players > 2 and game in args.learn_ends.split(","),
                    )
                )
                shutil.copy(args.out, args.work / f"policy-{game}-{players}-{stage}.json.gz")


if __name__ == "__main__":
    main()
