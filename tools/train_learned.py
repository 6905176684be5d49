"""Train the shipped learned-bot policy in stages, keeping a snapshot of the policy after each
stage for the training curve (README, "The learned bot"). Resumable: each table has its own
checkpoint in ``--work``; run it again with bigger stages to go on.

    nice -n 10 python tools/train_learned.py --work .train --hu 1000,3000,6000 --multi 500,1500

The shipped policy (session of 2026-12-01): ``--hu 1000,3000,6000 --multi ''`` for every game,
then ``--games stud8,stud --hu 10000 --multi ''`` (the three-handed tables trained with
``--multi 800`` were measured and left out: README, "The learned bot").
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
    parser.add_argument("--multi", default="500,1500", help="3-handed stages (iterations)")
    parser.add_argument("--workers", type=int, default=0)
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    for players, stages in ((2, args.hu), (3, args.multi)):
        for game in args.games.split(","):
            for stage in (int(s) for s in stages.split(",") if s):
                ckpt = args.work / f"{game}-{players}.ckpt"
                train(
                    TrainSettings(
                        game,
                        players,
                        stage,
                        args.workers,
                        batch=250 if players == 2 else 100,
                        seed=0,
                        checkpoint=ckpt,
                        out=args.out,
                    )
                )
                shutil.copy(args.out, args.work / f"policy-{game}-{players}-{stage}.json.gz")


if __name__ == "__main__":
    main()
